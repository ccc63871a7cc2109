"""What an environment's ``rewards`` argument is read as, in one place: a mapping of player ids to
scores (``best``'s format), each key a player some board of the source seats, or a function of the
scenario and the outcome whose answer is read at each episode's end — a key no player of the board
has, or a reward that is no finite number, is refused naming it (model/_args.py), never paid to
no one or converted (docs/rl.md, "Episodes, rewards, sources")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from triggerstack.model._args import finite_of, name_of
from triggerstack.model._errors import UsageError
from triggerstack.model._outcome import Outcome, Score, parse_score
from triggerstack.model._scenario import Scenario
from triggerstack.model._text import found, typed

Rewards: TypeAlias = Mapping[str, Score | Mapping[str, Any]] | Callable[[Scenario, Outcome], Mapping[str, float]]
"""Per player, a score (docs/cli.md) whose value of the outcome reached is that player's reward; or a
function of the scenario and the outcome giving each player's reward. Players left out get 0."""

_FUNCTION = "rewards(scenario, outcome)"


def scores_of(rewards: Mapping[Any, Any], players: tuple[str, ...] | None) -> dict[str, Score]:
    """Each player's score of a ``rewards`` mapping, its key one of ``players`` (the ids the source's
    boards seat; None: not known before a board is drawn, as a function's)."""
    scores = {_player(p): _score(p, s) for p, s in rewards.items()}
    if players is not None:
        for p in scores:
            name_of(p, "rewards", players, "player")
    return scores


def paid(given: Any, scenario: Scenario) -> dict[str, float]:
    """A reward function's answer for the board ``scenario``: each key a player of it, each reward
    a finite number."""
    if not isinstance(given, Mapping):
        raise UsageError(f"{_FUNCTION}: expected a mapping of players to rewards, found {found(given)}")
    seated = [p.id for p in scenario.players]
    return {name_of(p, _FUNCTION, seated, "player"): finite_of(v, f"{_FUNCTION}[{typed(p)}]") for p, v in given.items()}


def _player(key: Any) -> str:
    """A player's id as a key of ``rewards``."""
    if not isinstance(key, str):
        raise UsageError(f"rewards: a key is a player's id, found {found(key)}")
    return key


def _score(player: str, value: Any) -> Score:
    """A player's score in ``rewards`` (``best``'s format), refused naming the player."""
    if isinstance(value, Score):
        return value
    if not isinstance(value, Mapping):
        raise UsageError(f"rewards[{typed(player)}]: expected a score (a mapping, best's format), found {found(value)}")
    return parse_score(value, f"rewards[{typed(player)}]")
