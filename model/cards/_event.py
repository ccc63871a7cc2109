""" "That player controls", "they control", "defending player controls", "from that player's / their
graveyard": a target phrase naming a player by a pronoun, read as the player it stands for — the
player the trigger's event names (603.2; for "defending player", the player the attacking creature
attacks, 506.2, 508.5a), as the player reference ``event`` (the trigger's ``event_player``,
docs/formats.md), or the player an earlier target of the sentence chose ("target player skips their
next untap step. Tap up to five target permanents that player controls": ``{"target_of": "t"}``,
601.2c), or each player of the set a "for each opponent" (or player) before it names — one
requirement per player, which the board completes (``{"for_each": "opponent"}``,
model/cards/_board.py). Read only where one player (or one set) is what the words can stand for;
otherwise refused (:class:`~._unread.Unread`), never guessed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .._text import typed
from ._board import each

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
_ONE_TARGET = re.compile(r"target (player|opponent)", flags=re.I)
_EACH = re.compile(r"\bfor each (opponent|player)\b", flags=re.I)


@dataclass(frozen=True)
class Context:
    """What a target phrase's pronoun may stand for: the trigger condition, the effect before the
    target, and the ids of the sentence's earlier requirements that choose players only."""

    condition: str = ""
    before: str = ""
    players: tuple[str, ...] = ()


NO_CONTEXT = Context()
"""A phrase read alone: no trigger condition, no words before it, no earlier target player."""


def event_qualifier(low: list[str], i: int) -> tuple[dict[str, Any], int, str] | None:
    """The qualifier at ``low[i:]`` naming a player by a pronoun, how many words it takes and who it
    says ("that player"); its filter names the player ``event``, for :func:`player_named` to
    replace. ``None`` when it is not one."""
    at = [*low[i : i + 4], "", "", "", ""][:4]
    if (at[0], at[1]) in _WHO and at[2] == "controls":
        who, found, k = _WHO[(at[0], at[1])], {"controller": "event"}, 3
    elif (at[0], at[1]) == ("they", "control"):
        who, found, k = "they", {"controller": "event"}, 2
    elif at[0] in ("from", "in") and (at[1], at[2]) == ("their", "graveyard"):
        who, found, k = "their", {"zone": "graveyard", "owner": "event"}, 3
    elif at[0] in ("from", "in") and at[3] == "graveyard" and (at[1], at[2].removesuffix("'s")) in _WHO:
        who, found, k = _WHO[(at[1], at[2].removesuffix("'s"))], {"zone": "graveyard", "owner": "event"}, 4
    else:
        return None
    return found, k, who


def player_named(who: str, context: Context) -> tuple[Any, str | None]:
    """The player reference ``who`` stands for — ``"event"``; ``{"target_of": R}`` where the only
    player the effect names before it is the sentence's one earlier target player (601.2c) and the
    trigger condition names none; each player of a "for each opponent" (or player) that is the last
    player the effect names before it (a template, model/cards/_board.py) — and why not, when none
    (the reference is then ``None``)."""
    named = _NAMED_BEFORE.findall(context.before)
    every = list(_EACH.finditer(context.before))
    if every and who != "defending player" and not _NAMED_BEFORE.search(context.before[every[-1].end() :]):
        which = every[-1].group(1).lower()
        if who == "that opponent" and which == "player":
            return None, f"{typed(who)} after {typed(every[-1].group(0))}: a player who may not be an opponent"
        return each(which), None
    if named and who != "defending player" and all(_ONE_TARGET.fullmatch(n) for n in named):
        if len(context.players) != 1:
            return None, f"{typed(who)} after {len(context.players)} target players: which one is not read"
        if _PLAYERS.search(context.condition):
            said = typed(context.condition)
            return None, f"{typed(who)} after a target player, in a trigger that names a player too: {said}"
        if who == "that opponent" and not named[-1].lower().endswith("opponent"):
            return None, f"{typed(who)} after {typed(named[-1])}: a player who may not be an opponent"
        return {"target_of": context.players[0]}, None
    refusal = event_refusal(who, context.condition, context.before)
    return (None, refusal) if refusal is not None else ("event", None)


def event_refusal(who: str, condition: str, before: str) -> str | None:
    """Why ``who`` is not read as the event's player (``condition``: the trigger condition;
    ``before``: the effect before the target), ``None`` when the event is what names that player."""
    named = _NAMED_BEFORE.search(before)
    each = re.search(r"\bfor each \w+", before, flags=re.I)
    if named is not None and each is not None:  # "for each creature, … that player"; "for each opponent, target player"
        later = [m.group(0) for m in _NAMED_BEFORE.finditer(before[each.end() :])]
        if later:
            which = f"{typed(each.group(0))} and {typed(later[-1])}"
            return f"{typed(who)} after {which}: which of them it stands for is not read"
        return f"{typed(who)} after {typed(each.group(0))}: a target for each, as many as the board holds (601.2c)"
    if named is not None:
        return f"{typed(who)} after the effect names a player: {typed(named.group(0))}"
    if who == "defending player":
        if not re.search(r"\b(?:attack|block)", condition, flags=re.I):
            return f"{typed(who)} in a trigger that is not about an attack (506.2): {typed(condition)}"
        return None
    players = _PLAYERS.findall(condition)
    if len(players) != 1 or (who == "that opponent" and not players[0].lower().startswith("opponent")):
        return f"{typed(who)} where the trigger condition does not name one player: {typed(condition)}"
    return None
