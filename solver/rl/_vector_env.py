"""Many boards at once: a Gymnasium ``VectorEnv`` of one learning seat, its observations and masks
batched as NumPy arrays, its sub-environments autoreset on the step after an episode ends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray
from triggerstack.model._args import listed, seed_of, whole_number
from triggerstack.model._errors import UsageError
from triggerstack.model._text import found, typed

from .._options import Options
from .._verbs.step import ActionLayout
from ._gym_env import Policy, TriggerStackGym, uniform
from ._observation import Observer
from ._rewards import Rewards
from ._source import ScenarioSource
from ._spaces import MaskedDiscrete, NotAnAction, space_id

MOST_BOARDS = 10_000
"""The most boards one vector environment steps (docs/rl.md): each is about 8 KB and a millisecond
of CPU to make on a small scenario, so 10,000 are about 80 MB; past it a size is refused when the
vector is made, before anything is built (``vector_env(10**7, …)`` took 23 s and 2.9 GB to fail)."""


class TriggerStackVectorEnv(VectorEnv):
    """``num_envs`` :class:`~._gym_env.TriggerStackGym` boards stepped together: observations
    ``(num_envs, size)`` ``int16``, rewards, terminations and truncations ``(num_envs,)``,
    ``action_masks()`` ``(num_envs, layout.size)`` booleans (and ``info["action_mask"]``), actions
    one id per board (``MultiDiscrete``).

    Autoreset is Gymnasium's default, :attr:`AutoresetMode.NEXT_STEP`
    (``metadata["autoreset_mode"]``): the step that ends a board's episode returns its last
    observation, reward and ``terminated``, with ``info["outcome"]`` (and ``info["_outcome"]``
    marking the boards it holds); on the next step that board's action is ignored and it begins a
    new episode (reward 0, not terminated). An illegal action ends the board's episode as in the
    one-board environment (``illegal_reward``, ``info["illegal"]``).

    The boards share what is compiled — each scenario's facts and stepper, the observation's rows —
    and each draws its own scenarios and plays its own other seats: board ``i`` is seeded with
    ``seed + i`` (the same seeds, the same episodes). Each of the other arguments is the
    one-board environment's."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012 - gymnasium's

    def __init__(
        self,
        num_envs: int,
        scenario: ScenarioSource,
        *,
        seat: int = 0,
        opponent: Policy = uniform,
        layout: ActionLayout | None = None,
        rewards: Rewards | None = None,
        options: Options | None = None,
        illegal_reward: float | None = -1.0,
        auto: bool = False,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
    ) -> None:
        # nothing to close yet: Gymnasium 1.2 (Ray RLlib's pin) closes a VectorEnv when it is collected, one
        # refused here too, and closing one whose boards were never made must not raise
        self.envs: list[TriggerStackGym] = []
        num_envs = whole_number(num_envs, "num_envs", 1, MOST_BOARDS)  # model/_args.py, as every door's count
        try:
            mode: AutoresetMode | None = AutoresetMode(autoreset_mode)  # a member, or its value
        except ValueError:
            mode = None
        if mode is not AutoresetMode.NEXT_STEP:
            known = "" if mode is not None else " (not a mode at all)"
            modes = ", ".join(sorted(typed(m.value) for m in AutoresetMode))
            raise UsageError(
                f"autoreset_mode: only AutoresetMode.NEXT_STEP ({typed(AutoresetMode.NEXT_STEP.value)}) is "
                "implemented, "
                f"not {found(autoreset_mode)}{known}; Gymnasium's modes are {modes}"
            )
        first = TriggerStackGym(
            scenario,
            seat=seat,
            opponent=opponent,
            layout=layout,
            rewards=rewards,
            options=options,
            illegal_reward=illegal_reward,
            auto=auto,
        )
        self.envs = [first, *(first._twin() for _ in range(num_envs - 1))]
        """The boards (each a :class:`TriggerStackGym`; they share what is compiled)."""
        self.num_envs = num_envs
        self.layout = first.game.layout
        self.single_observation_space = first.observation_space
        self.single_action_space = MaskedDiscrete(self.layout.size)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._observations = np.zeros((num_envs, first.game.observer.size), dtype=np.int16)
        self._rows = list(self._observations)  # each board's row, as a view made once
        self._masks = np.zeros((num_envs, self.layout.size), dtype=np.int8)
        for board, row in zip(self.envs, self._masks, strict=True):
            board.game.mask_row(row)  # each board's mask is kept in its row of the batch: nothing to copy

        self._truncations = np.zeros(num_envs, dtype=np.bool_)  # an episode always ends in an outcome
        self._autoreset = [False] * num_envs
        self._started = False

    def _write(self, i: int) -> None:
        """Board ``i``'s observation into its row of the batch (its mask is kept there already)."""
        board = self.envs[i]
        game = board.game
        game.observation(game.player(board.agent), out=self._rows[i])
        if board._over and game._legal:  # ended by an illegal action: it has no legal action left
            self._masks[i] = 0

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | NDArray[np.integer[Any]] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[np.int16], dict[str, Any]]:
        """Begin an episode on every board: ``seed`` an integer (board ``i`` gets ``seed + i``) or
        one per board (a list, a tuple or a one-dimensional NumPy array of integers, :meth:`_seeds`);
        ``options`` as the one-board environment's (read once for every board)."""
        seeds = self._seeds(seed)
        wanted = self.envs[0].game._source_of(options)  # read once for every board: refused naming a bad key
        if seeds[0] is not None and isinstance(seed, int | np.integer):  # one seed: the vector's own generator too
            self._np_random, self._np_random_seed = seeding.np_random(seeds[0])
        first = next((s for s in seeds if s is not None), None)
        if first is not None:  # the boards share one source: a board stream (rl.boards) restarts at the first seed
            self.envs[0].game._source.restart(first)
        for i, (board, s) in enumerate(zip(self.envs, seeds, strict=True)):
            if s is not None:
                board._np_random, board._np_random_seed = seeding.np_random(s)
            board._begin(wanted)
            self._write(i)
        self._autoreset = [False] * self.num_envs
        self._started = True
        return self._observations.copy(), self._infos({})

    def _seeds(self, seed: Any) -> list[int | None]:
        """``reset``'s seed as one per board: an integer ``k`` as ``k + i`` for board ``i``, a list
        in its order (``model/_args.py`` ``listed``: a list, a tuple or a one-dimensional array, never
        a set or bytes), each a seed or None; anything else refused naming it."""
        n = self.num_envs
        if seed is None:
            return [None] * n
        if isinstance(seed, str | bytes | bytearray) or not hasattr(seed, "__iter__"):  # one seed (np.int64(5) is 5)
            first = seed_of(seed)
            return [first + i for i in range(n)]
        given = listed(seed, "seed")
        if len(given) != n:
            raise UsageError(f"seed: expected one seed per board ({n}), found a list of {len(given)}")
        return [None if s is None else seed_of(s, f"seed[{i}]") for i, s in enumerate(given)]

    def step(
        self, actions: NDArray[np.integer[Any]] | list[int]
    ) -> tuple[NDArray[np.int16], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """One action per board (ignored for a board that begins a new episode this step)."""
        if not self._started:
            raise RuntimeError("call reset() first")
        taken = np.asarray(actions)
        if taken.shape != (self.num_envs,):
            raise ValueError(f"one action per board: shape ({self.num_envs},), not {taken.shape}")
        listed = taken.tolist()
        for i, (action, again) in enumerate(zip(listed, self._autoreset, strict=True)):
            if not again:  # every action of the space before any board moves: nothing half-stepped
                try:
                    space_id(action, f"board {i}", self.layout.size)
                except NotAnAction as exc:
                    raise NotAnAction(exc.decision, f"{exc.reason}: the action of board {i}") from None
        ended: dict[int, dict[str, Any]] = {}
        rewards = [0.0] * self.num_envs
        over = [False] * self.num_envs
        for i, (board, action, again) in enumerate(zip(self.envs, listed, self._autoreset, strict=True)):
            if again:  # the step after an episode ended: a new one begins, the action is ignored
                board._begin()
            else:
                rewards[i], illegal = board._act(action)
                over[i] = board._over
                if board._over:
                    ended[i] = dict(board.game.infos.get(board.agent, {}))
                    if illegal is not None:
                        ended[i]["illegal"] = illegal
            self._write(i)
        self._autoreset = over
        terminations = np.array(over, dtype=np.bool_)
        infos = self._infos(ended)
        observations = self._observations.copy()
        return observations, np.array(rewards, dtype=np.float64), terminations, self._truncations.copy(), infos

    def _infos(self, ended: dict[int, dict[str, Any]]) -> dict[str, Any]:
        """``action_mask`` for every board; what an ended episode says (``outcome``, ``illegal``,
        ``auto_applied``) for the boards it ended on, each key with its ``_key`` mask."""
        infos: dict[str, Any] = {"action_mask": self._masks.copy()}
        infos["_action_mask"] = np.ones(self.num_envs, dtype=bool)
        for i, info in ended.items():
            for key, value in info.items():
                if key not in infos:
                    infos[key] = np.full(self.num_envs, None, dtype=object)
                    infos[f"_{key}"] = np.zeros(self.num_envs, dtype=bool)
                infos[key][i] = value
                infos[f"_{key}"][i] = True
        return infos

    @property
    def observer(self) -> Observer:
        """The observation's encoder of :attr:`layout` (read-only), every board's."""
        return self.envs[0].observer

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of every board, ``(num_envs, layout.size)`` (sb3-contrib's
        ``MaskablePPO`` reads it): a board whose episode just ended has none."""
        return self._masks.astype(np.bool_)

    def close_extras(self, **_kwargs: Any) -> None:
        for board in self.envs:
            board.close()


def vector_env(num_envs: int, boards: ScenarioSource, **kwargs: Any) -> TriggerStackVectorEnv:
    """``num_envs`` boards of ``boards`` (a scenario source, as :func:`~._checked.env` takes) stepped
    together (see :class:`TriggerStackVectorEnv`)."""
    return TriggerStackVectorEnv(num_envs, boards, **kwargs)
