"""PettingZoo's order-enforcing checks around the AEC environment, in one layer
(:func:`env`); the environment refuses an action out of bounds itself. :func:`parallel_env` is the
same environment through PettingZoo's parallel API."""

from __future__ import annotations

from typing import Any

from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from ._env import Observation, TriggerStackEnv, raw_env
from ._source import ScenarioSource

ILLEGAL_REWARD = -1.0
"""The reward of an illegal action in :func:`env` by default, as in PettingZoo's classic games."""


def env(scenario: ScenarioSource, **kwargs: Any) -> Any:
    """The environment as PettingZoo's own games are given: checked for calls out of order
    (PettingZoo's ``OrderEnforcingWrapper``), and an illegal action of the action space ending the
    episode with ``illegal_reward`` (−1 by default; None raises) for the agent who took it, as
    PettingZoo's ``TerminateIllegalWrapper`` does in its classic games. An action out of the action
    space raises :class:`~.._errors.IllegalDecision`, saying why (PettingZoo's
    ``AssertOutOfBoundsWrapper`` would raise a bare ``AssertionError``)."""
    kwargs.setdefault("illegal_reward", ILLEGAL_REWARD)
    return Checked(raw_env(scenario, **kwargs))


def parallel_env(scenario: ScenarioSource, **kwargs: Any) -> Any:
    """:func:`env` through PettingZoo's parallel API: ``reset`` gives every agent's observation,
    ``step(actions)`` takes a dict with an action for at least the agent whose mask is not all
    zeros (the others' are ignored) and gives every agent's observation, reward, termination and
    info. The game is turn-based and one agent often decides several times in a row, so it is
    PettingZoo's ``turn_based_aec_to_parallel`` conversion (``aec_to_parallel`` is for games where
    every agent acts once a cycle; the environment's metadata says it is not one)."""
    return turn_based_aec_to_parallel(env(scenario, **kwargs))


class Checked(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo ships no type information
    """PettingZoo's order enforcing, reading the attributes an agent loop reads at every step
    (``agent_selection``, ``terminations`` …) from the environment directly instead of through
    ``__getattr__``: the same checks, the same errors. The environment itself refuses an action
    out of bounds, or not an integer, with :class:`~.._errors.IllegalDecision`."""

    def __init__(self, game: TriggerStackEnv) -> None:
        super().__init__(game)
        self._game = game

    def _refuse(self, name: str) -> Any:
        raise AttributeError(f"{name} cannot be accessed before reset")

    @property
    def agent_selection(self) -> str:
        return self._game.agent_selection if self._has_reset else self._refuse("agent_selection")

    @property
    def rewards(self) -> dict[str, float]:
        return self._game.rewards if self._has_reset else self._refuse("rewards")

    @property
    def terminations(self) -> dict[str, bool]:
        return self._game.terminations if self._has_reset else self._refuse("terminations")

    @property
    def truncations(self) -> dict[str, bool]:
        return self._game.truncations if self._has_reset else self._refuse("truncations")

    @property
    def infos(self) -> dict[str, dict[str, Any]]:
        return self._game.infos if self._has_reset else self._refuse("infos")

    @property
    def agents(self) -> list[str]:
        return self._game.agents if self._has_reset else self._refuse("agents")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self._game._cumulative_rewards

    def step(self, action: Any) -> None:
        game = self._game
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not game.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            game.step(action)

    def observe(self, agent: str) -> Observation | None:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._game.observe(agent)

    def agent_iter(self, max_iter: int = 2**63) -> _TurnsOf:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _TurnsOf(self, max_iter)

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        game = self._game
        agent = game.agent_selection if self._has_reset else self._refuse("agent_selection")
        observation = game.observe(agent) if observe else None
        return (
            observation,
            game._cumulative_rewards[agent],
            game.terminations[agent],
            game.truncations[agent],
            game.infos[agent],
        )

    def __str__(self) -> str:
        return str(self._game)


class _TurnsOf(AECOrderEnforcingIterable):  # type: ignore[misc]  # PettingZoo ships no type information
    def __iter__(self) -> _Turns:
        return _Turns(self.env, self.max_iter)


class _Turns(AECOrderEnforcingIterator):  # type: ignore[misc]  # PettingZoo ships no type information
    """PettingZoo's order-enforcing iterator over whose turn it is, reading the environment
    directly: the same checks, the same errors."""

    def __next__(self) -> str:
        checked: Checked = self.env
        game = checked._game
        if not game.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert checked._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        checked._has_updated = False
        return game.agent_selection
