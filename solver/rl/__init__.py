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

See ``docs/rl.md`` for the spaces, the observation's fields and the action ids.
"""

try:
    import gymnasium  # noqa: F401
    import numpy  # noqa: F401
    import pettingzoo  # noqa: F401
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        f"triggerstack.solver.rl needs the optional extra: pip install 'triggerstack[rl]' ({exc.name} is missing)"
    ) from exc

from ..errors import IllegalDecision
from ..verbs.step import ActionLayout, IllegalOutcome
from .env import Rewards, ScenarioSource, TriggerStackEnv, env, raw_env
from .gym_env import Policy, TriggerStackGym, uniform
from .observation import CLIP, HEADER, Observer

__all__ = [
    "CLIP",
    "HEADER",
    "ActionLayout",
    "IllegalDecision",
    "IllegalOutcome",
    "Observer",
    "Policy",
    "Rewards",
    "ScenarioSource",
    "TriggerStackEnv",
    "TriggerStackGym",
    "env",
    "raw_env",
    "uniform",
]
