""" "That player controls", "defending player controls", "from that player's graveyard": a target
phrase naming the player the trigger's event names (603.2) — or, for "defending player", the player
the attacking creature attacks (506.2, 508.5a). Read as the player reference ``event`` (the
trigger's ``event_player``, docs/formats.md) only when the event is what names that player: the
trigger condition names one player and the effect names none before the target; otherwise
refused (:class:`~._unread.Unread`), never guessed."""

from __future__ import annotations

import re
from typing import Any

__all__ = ["event_qualifier", "event_refusal"]

_WHO = {
    ("that", "player"): "that player",
    ("that", "opponent"): "that opponent",
    ("defending", "player"): "defending player",
}
_PLAYERS = re.compile(r"\b(?:players?|opponents?)(?:'s?)?\b", flags=re.I)
# a player the effect names before the target: "that player" could be this one
_NAMED_BEFORE = re.compile(
    r"\bfor each\b|\btarget (?:players?|opponents?)\b|\b(?:a|an|each|another|any) (?:player|opponent)s?\b"
    r"|\bchoose (?:a|an)\b",
    flags=re.I,
)


def event_qualifier(low: list[str], i: int) -> tuple[dict[str, Any], int, str] | None:
    """The qualifier at ``low[i:]`` naming the event's player, how many words it takes and who it
    says ("that player"); ``None`` when it is not one."""
    at = [*low[i : i + 4], "", "", "", ""][:4]
    if (at[0], at[1]) in _WHO and at[2] == "controls":
        who, found, k = _WHO[(at[0], at[1])], {"controller": "event"}, 3
    elif (
        at[0] in ("from", "in")
        and at[3] == "graveyard"
        and (at[1], at[2].removesuffix("'s")) in _WHO
    ):
        who, found, k = _WHO[(at[1], at[2].removesuffix("'s"))], {"zone": "graveyard", "owner": "event"}, 4
    else:
        return None
    return found, k, who


def event_refusal(who: str, condition: str, before: str) -> str | None:
    """Why ``who`` is not read as the event's player (``condition``: the trigger condition;
    ``before``: the effect before the target), ``None`` when the event is what names that player."""
    named = _NAMED_BEFORE.search(before)
    if named is not None:
        return f"{who!r} after the effect names a player: {named.group(0)!r}"
    if who == "defending player":
        if not re.search(r"\b(?:attack|block)", condition, flags=re.I):
            return f"{who!r} in a trigger that is not about an attack (506.2): {condition!r}"
        return None
    players = _PLAYERS.findall(condition)
    if len(players) != 1 or (who == "that opponent" and not players[0].lower().startswith("opponent")):
        return f"{who!r} where the trigger condition does not name one player: {condition!r}"
    return None
