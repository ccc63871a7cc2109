"""Reinforcement learning on 603.3: a PettingZoo AEC environment, a Gymnasium wrapper for one
seat, and the observation encoding (the optional extra ``triggerstack[rl]``).

::

    from triggerstack.solver import rl

    game = rl.env(scenario="examples/ertai-resurrected/scenario.yaml")
    game.reset(seed=1)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        action = None if terminated else game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

Importing it registers the Gymnasium id ``triggerstack/TriggerStack-v0``:
``gymnasium.make("triggerstack/TriggerStack-v0", scenario=...)`` is the one-seat environment and
``gymnasium.make_vec("triggerstack/TriggerStack-v0", num_envs=n, scenario=...)`` the vector one
(:func:`vector_env`); ``gymnasium.make("triggerstack.solver.rl:triggerstack/TriggerStack-v0", ...)``
imports this package first.

See ``docs/rl.md`` for the spaces, the observation's fields and the action ids.
"""

from typing import TYPE_CHECKING

from triggerstack.model._errors import install_hint

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        f"triggerstack.solver.rl needs the optional extra: {install_hint('rl')} ({exc.name} is missing)"
    ) from exc

from triggerstack.model._lazy import lazy_exports

_GYM_ID = "triggerstack/TriggerStack-v0"  # the one-seat environment, and with make_vec the vector one

if _GYM_ID not in gymnasium.registry:  # entry points are strings: nothing is imported until made
    # no order-enforcing nor passive-checking wrapper by default: the environment refuses a step
    # before reset itself, the suite runs Gymnasium's check_env on it, and a wrapper would hide
    # action_masks() from MaskablePPO (Gymnasium 1's wrappers forward no other attribute)
    gymnasium.register(
        id=_GYM_ID,
        order_enforce=False,
        disable_env_checker=True,
        entry_point="triggerstack.solver.rl._gym_env:TriggerStackGym",
        vector_entry_point="triggerstack.solver.rl._vector_env:TriggerStackVectorEnv",
    )

if TYPE_CHECKING:  # the public names, each once; each imported on first use (model/_lazy.py)
    from .._boards._draw import Boards as Boards
    from .._boards._draw import boards as boards
    from .._errors import IllegalDecision as IllegalDecision
    from .._verbs.step import ActionLayout as ActionLayout
    from .._verbs.step import IllegalOutcome as IllegalOutcome
    from ._checked import env as env
    from ._checked import parallel_env as parallel_env
    from ._env import TriggerStackEnv as TriggerStackEnv
    from ._env import raw_env as raw_env
    from ._gym_env import Policy as Policy
    from ._gym_env import TriggerStackGym as TriggerStackGym
    from ._gym_env import uniform as uniform
    from ._observation import CLIP as CLIP
    from ._observation import HEADER as HEADER
    from ._observation import Observer as Observer
    from ._render import RenderModeError as RenderModeError
    from ._rewards import Rewards as Rewards
    from ._source import ScenarioSource as ScenarioSource
    from ._spaces import NotAnAction as NotAnAction
    from ._vector_env import TriggerStackVectorEnv as TriggerStackVectorEnv
    from ._vector_env import vector_env as vector_env

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
