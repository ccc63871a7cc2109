"""One learning seat as a Gymnasium environment, the other seats played by a policy."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from numpy.typing import NDArray
from triggerstack.model._args import finite_of, seed_of, whole_number
from triggerstack.model._errors import ScenarioError, UsageError
from triggerstack.model._scenario import Scenario
from triggerstack.model._text import found

from .._errors import IllegalDecision
from .._options import Options
from .._verbs.step import ActionLayout
from ._env import Observation, TriggerStackEnv
from ._observation import Observer
from ._render import FPS, MODES
from ._rewards import Rewards
from ._source import ScenarioSource, _Source, players_said
from ._spaces import MaskedDiscrete, NotAnAction

Policy = Callable[[Observation, np.random.Generator], int]
"""A policy of the other seats: from an observation (``observation`` and ``action_mask``) and the
environment's generator, an action id."""

EPISODE_TRIES = 100


def uniform(observation: Observation, rng: np.random.Generator) -> int:
    """Uniform over the legal actions (the default for the other seats)."""
    legal = np.flatnonzero(observation["action_mask"])
    return int(legal[rng.integers(len(legal))])


class TriggerStackGym(gymnasium.Env[NDArray[np.int16], np.int64]):
    """The seat ``seat`` (0: the active player) learns; the others play ``opponent``.

    Observations are the seat's :class:`~._observation.Observer` vectors; ``action_masks()``
    gives the legal actions (sb3-contrib's ``MaskablePPO`` reads it), as does
    ``info["action_mask"]``. The reward is the seat's, at the end (see
    :class:`~._env.TriggerStackEnv`). An illegal action ends the episode with ``illegal_reward``
    and ``info["illegal"]`` saying why; with ``illegal_reward=None`` it raises
    :class:`~.._errors.IllegalDecision` instead. An episode in which the seat never decides is
    played out and another begins (up to 100 times, then :class:`ScenarioError`). ``auto=True``
    takes each decision that is the only legal one without asking (``info["auto_applied"]``
    counts them this episode; see :class:`~._env.TriggerStackEnv`).
    """

    metadata = {"render_modes": list(MODES), "render_fps": FPS}  # noqa: RUF012 - gymnasium declares it an instance variable

    def __init__(
        self,
        scenario: ScenarioSource,
        *,
        seat: int = 0,
        opponent: Policy = uniform,
        layout: ActionLayout | None = None,
        rewards: Rewards | None = None,
        options: Options | None = None,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
        auto: bool = False,
    ) -> None:
        self.game = TriggerStackEnv(
            scenario, layout=layout, rewards=rewards, options=options, render_mode=render_mode, auto=auto
        )
        seat = whole_number(seat, "seat", 0, self.game.layout.players - 1)  # one of the layout's seats
        seats = self.game._source.seats()
        if seats is not None and seat >= seats[1]:  # a seat no board has: it would never decide
            raise UsageError(
                f"seat: {seat} is no seat of these boards: they have {players_said(*seats)} (seats 0 … {seats[1] - 1})"
            )
        if not callable(opponent):
            why = f"expected a policy (a function of an observation and a generator), found {found(opponent)}"
            raise UsageError(f"opponent: {why}")
        self.render_mode = render_mode
        self.agent = self.game.possible_agents[seat]
        self.opponent = opponent
        self.illegal_reward = None if illegal_reward is None else finite_of(illegal_reward, "illegal_reward")
        self.observation_space = self.game.observer.space
        self.action_space = MaskedDiscrete(self.game.layout.size)
        self._over = True

    def _play_others(self) -> None:
        game = self.game
        rng = self.np_random
        while not game.terminations.get(game.agent_selection, True) and game.agent_selection != self.agent:
            if self.opponent is uniform:  # the same draw, from the legal decisions (sorted by id as the mask is)
                legal = game.legal()
                game.step(legal[int(rng.integers(len(legal)))].id)
            else:
                game.step(self.opponent(game.observe(game.agent_selection), rng))

    @property
    def scenario(self) -> Scenario:
        """The scenario of this episode, the board drawn (``check(env.scenario, info["outcome"])``
        judges the outcome reached)."""
        return self.game.scenario

    @property
    def layout(self) -> ActionLayout:
        """The action layout the environment plays in (read-only): the one given, a stream's
        (``rl.boards(..., layout=...)``), or the smallest every board of a fixed source fits."""
        return self.game.layout

    @property
    def observer(self) -> Observer:
        """The observation's encoder of :attr:`layout` (read-only): ``observer.fields()`` names
        every entry of an observation."""
        return self.game.observer

    def _observation(self) -> NDArray[np.int16]:
        return self.game.observation(self.game.player(self.agent))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8)}
        if self.game.auto:
            info["auto_applied"] = self.game.auto_applied
        if self._over and self.agent in self.game.infos:
            info.update(self.game.infos[self.agent])
        return info

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.int16], dict[str, Any]]:
        seed = None if seed is None else seed_of(seed)  # model/_args.py: np.int64(5) is 5
        wanted = self.game._source_of(options)  # read once, at the door: a key other than "scenario" is refused
        super().reset(seed=seed)
        if seed is not None:  # a board stream (rl.boards) begins again at its boards of the seed
            self.game._source.restart(seed)
        self._begin(wanted)
        return self._observation(), self._info()

    def _begin(self, wanted: _Source | None = None) -> None:
        """Begin an episode in which the seat decides (the others played until it does), drawn from
        ``wanted`` (``reset``'s options read; None: the environment's own source)."""
        self.game._np_random, self.game._seed = self.np_random, None  # one generator: scenarios and the other seats
        counts: set[int] = set()  # the players of each board drawn
        for _ in range(EPISODE_TRIES):
            self.game._restart(None, wanted)
            counts.add(len(self.game._player_of))
            if self.agent in self.game._player_of:  # the seat is not empty on this board
                self._play_others()
                if not self.game.terminations[self.agent]:
                    self._over = False
                    return
        seat = self.game.possible_agents.index(self.agent)
        if seat >= max(counts):  # never seated: say so, and how many players the boards had
            raise ScenarioError(
                f"{self.agent} (seat {seat}) has no seat on these boards: the {EPISODE_TRIES} drawn had "
                f"{players_said(min(counts), max(counts))}, seats 0 … {max(counts) - 1}"
            )
        raise ScenarioError(
            f"{self.agent} (seat {seat}) made no decision in {EPISODE_TRIES} episodes of these scenarios"
        )

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.int16], SupportsFloat, bool, bool, dict[str, Any]]:
        reward, illegal = self._act(action)
        info = self._info()
        if illegal is not None:
            info["illegal"] = illegal
        return self._observation(), reward, self._over, False, info

    def _act(self, action: int | np.integer[Any]) -> tuple[float, str | None]:
        """Take the seat's action and play the others: the seat's reward, and why the action was
        illegal (None: it was legal)."""
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        game = self.game
        try:
            game.step(action)
        except NotAnAction:  # not of the action space: a caller's bug, never a move (rl/_spaces.py)
            raise
        except IllegalDecision as exc:
            if self.illegal_reward is None:
                raise
            self._over = True
            return float(self.illegal_reward), str(exc)
        self._play_others()
        self._over = bool(game.terminations[self.agent])
        return (float(game._cumulative_rewards[self.agent]) if self._over else 0.0), None

    def _twin(self) -> TriggerStackGym:
        """Another environment of the same source and seat, sharing what is compiled (see
        :meth:`TriggerStackEnv._twin`): its own episodes and generator."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.game = self.game._twin()
        twin._np_random = None
        twin._np_random_seed = None
        twin._over = True
        return twin

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions of the seat now (all False once the episode is over)."""
        if self._over:
            return np.zeros(self.game.layout.size, dtype=bool)
        return self.game.mask(self.agent).astype(bool)

    def render(self) -> str | NDArray[np.uint8] | None:
        return self.game.render()

    def close(self) -> None:
        self.game.close()
