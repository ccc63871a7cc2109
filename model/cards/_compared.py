"""A target's number compared with one of its ability's source (601.2c): "target attacking creature
with lesser power" (Mentor, 702.134a), "with power less than this creature's power", "with mana
value less than or equal to Alesha's power", "with power less than Mirko's". The source's number is
the board's — the power the scenario states for the trigger's source — so the comparison is read as
a template (model/cards/_board.py) that a scenario completes, or refuses naming the field it lacks.

Which object the number is of must be what the words say: a possessive naming the source ("this
creature's", the card's name or its first words, 201.5), or — for "with lesser power" and a pronoun
("his power") — a trigger condition that names the source and nothing else ("Whenever this
creature attacks", "When Éowyn enters"). "Whenever Clement or another creature you control
enters, … with lesser mana value" compares with the creature that entered, which is the event's:
refused, as every other number the board decides ("the number of Vampires you control")."""

from __future__ import annotations

import re
from typing import Any

from .._text import typed
from ._board import stated
from ._corpus import Card
from ._unread import Unread

_FIELD = {"power": "power", "toughness": "toughness", "mana value": "mana_value"}
_IMPLICIT = {
    ("lesser",): "lt",
    ("greater",): "gt",
    ("equal", "or", "lesser"): "lte",
    ("equal", "or", "greater"): "gte",
}
_EXPLICIT = {
    ("less", "than", "or", "equal", "to"): "lte",
    ("greater", "than", "or", "equal", "to"): "gte",
    ("less", "than"): "lt",
    ("greater", "than"): "gt",
    ("equal", "to"): "eq",
}
_PRONOUNS = frozenset({"his", "her", "its"})
_VERB = re.compile(r"[a-z]")


def _field_at(low: list[str], i: int) -> tuple[str, int] | None:
    """The number named at ``low[i:]`` ("power", "mana value") and how many words it takes."""
    if low[i : i + 2] == ["mana", "value"]:
        return "mana_value", 2
    if low[i : i + 1] in (["power"], ["toughness"]):
        return low[i], 1
    return None


def _name_words(card: Card) -> list[str]:
    """The card's name as its text says it: before " // " and a comma, without Alchemy's "A-" (Radha's Firebrand)."""
    return card.name.split(" // ")[0].split(",")[0].removeprefix("A-").split()


def _possessive(words: list[str], i: int, card: Card) -> int:
    """How many words from ``i`` name this card in the possessive: "this creature's", "Radha's
    Firebrand's", "Alesha's" (the name before its comma), "Helmut Zemo's" (its first words, 201.5); 0: none."""
    low = [w.lower() for w in words]
    if low[i : i + 1] == ["this"] and low[i + 1 : i + 2] and low[i + 1].endswith("'s"):
        return 2
    name = _name_words(card)
    run = 0
    while i + run < len(words) and run < len(name):
        word = words[i + run]
        if word.endswith("'s") and word[:-2] == name[run]:
            return run + 1
        if word != name[run]:
            return 0
        run += 1
    return 0


def names_only_source(condition: str, card: Card) -> bool:
    """Whether the trigger condition's subject is the source alone ("Whenever this creature attacks",
    "When Éowyn enters", "When this creature dies"), not "X or another creature", nor a step."""
    words = condition.split()
    if words[:1] not in (["When"], ["Whenever"]) or "another" in words or "other" in words:
        return False
    rest = words[1:]
    if rest[:1] == ["this"] and len(rest) > 2:
        after = rest[2]
    else:
        name = _name_words(card)
        run = next((k for k in range(len(name), 0, -1) if rest[:k] == name[:k]), 0)
        if not run:
            return False
        after = rest[run] if run < len(rest) else ""
    return bool(_VERB.match(after)) and after not in ("or", "and", "with")


def against_source(low: list[str], words: list[str], i: int, card: Card, condition: str, out: dict[str, Any]) -> int:
    """How many words from ``i`` compare the target's power, toughness or mana value with its
    source's ("with lesser power", "with power less than this creature's power"), noted in ``out``
    as a comparison with the source's stated number; 0: none. :class:`Unread` when the words compare
    with the source's by a pronoun or "lesser" in a trigger that names something else too."""
    if low[i : i + 1] != ["with"]:
        return 0
    for said, cmp in _IMPLICIT.items():  # "with lesser power": than the source's (702.134a)
        at = i + 1 + len(said)
        found = _field_at(low, at) if tuple(low[i + 1 : at]) == said else None
        if found is not None:
            field, k = found
            _source_named(condition, card, " ".join(words[i : at + k]))
            return _note(out, field, cmp, field, at + k - i, " ".join(words[i : at + k]))
    found = _field_at(low, i + 1)
    if found is None:
        return 0
    field, k = found
    at = i + 1 + k
    for said, cmp in _EXPLICIT.items():
        if tuple(low[at : at + len(said)]) != said:
            continue
        ref = at + len(said)
        if low[ref : ref + 1] and low[ref] in _PRONOUNS:  # "his power": the source only if the trigger names it alone
            _source_named(condition, card, " ".join(words[i : ref + 1]))
            theirs, n = _field_at(low, ref + 1) or (None, 0)
            return _note(out, field, cmp, theirs, ref + 1 + n - i, " ".join(words[i : ref + 1 + n])) if n else 0
        named = _possessive(words, ref, card)
        if not named:
            return 0
        theirs, n = _field_at(low, ref + named) or (field, 0)  # "power less than Mirko's": Mirko's power
        return _note(out, field, cmp, theirs, ref + named + n - i, " ".join(words[i : ref + named + n]))
    return 0


def _source_named(condition: str, card: Card, said: str) -> None:
    if not names_only_source(condition, card):
        raise Unread(
            "a comparison with a number of an object the words do not say is the source (the trigger "
            f"condition names another object, or none): {typed(said)}",
            condition,
        )


def _note(out: dict[str, Any], field: str, cmp: str, theirs: str | None, taken: int, said: str) -> int:
    if theirs is None:
        return 0
    if field in out:
        raise Unread(f"two comparisons of one number: {typed(said)}", said)
    out[field] = {cmp: stated(theirs)}
    return taken
