""" "Another target X", "other target X", "a second target X": what a target must differ from (115.3,
601.2c), decided from what the sentence names — never from the word alone.

* "another target player" (or opponent) is relative to a player, never to the source (a source is
  no player): "you and another target player" is a player other than you; where the trigger
  condition names one player and the effect none before it ("Whenever a player casts …, choose
  another target player") it is a player other than the event's (603.2). Otherwise refused.
* "other target X" after a target whose phrase names an X (a type, kind or subtype of X's: "target
  creature … other target creature") differs from that target (115.3); after targets none of which
  is named an X ("target Equipment … other target attacking creature") it is other than the source,
  as "another" is.
* "a second target X" differs from the first (a requirement may otherwise choose the same object
  again, 115.3).
* "another" (or that "other") other than the source is read only where the source can be an X:
  on an Equipment or an Aura, "another target creature" is other than a creature the sentence
  names (115.3), which this reader does not track — refused, never guessed.
"""

from __future__ import annotations

import re
from typing import Any

from ._corpus import Card
from ._event import event_refusal
from ._subtypes import BY_TYPE
from ._unread import Unread

_PERMANENTS = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker"})
_BECOMES_CREATURE = re.compile(r"\bbecomes? an? (?!copy)[^.]*?\bcreature")
"""A card that can be a creature by its own text ("this land becomes a 3/3 … creature"; not "become a copy of")."""


def relate(
    card: Card, req: dict[str, Any], earlier: list[dict[str, Any]], word: str, before: str, condition: str
) -> None:
    """Give ``req`` (its ``filter`` read) what its ``word`` ("another", "other", "second" or "")
    makes it differ from; ``before``: the effect before the target."""
    if not word:
        return
    wanted = req["filter"]
    if word != "second" and _nouns(wanted) == {"player"}:
        req["filter"] = _not_player(wanted, before, condition)
        return
    named = [e["id"] for e in earlier if _nouns(e["filter"]) & _nouns(wanted)]
    if word == "second" and named:
        req["different_from"] = named
    elif word == "second":
        raise Unread("'a second target' after no target of its kind", before)
    elif word == "other" and named:
        req["different_from"] = named  # 115.3: "target X … other target X"
    else:
        _can_be(card, wanted, before)
        req["other_than_source"] = True


def _not_player(wanted: Any, before: str, condition: str) -> dict[str, Any]:
    """ "another target player": a player other than you ("you and another …") or other than the
    event's player (603.2); refused where neither is what the sentence names."""
    if not isinstance(wanted, dict) or "not" in wanted:
        raise Unread("'another target player' with a qualifier this reader does not combine", before)
    if re.search(r"\byou and (?:up to \w+ )?$", before, flags=re.I):
        return {**wanted, "not": {"controller": "you"}}
    refusal = event_refusal("another target player", condition, before)
    if refusal is not None:
        raise Unread(f"'another target player' relative to a player this reader cannot name: {refusal}", before)
    return {**wanted, "not": {"controller": "event"}}


def _nouns(wanted: Any) -> set[str]:
    """The card types and kinds a filter's phrase names ("player", "spell", "card", "ability" …):
    a subtype names its card type (205.3), a permanent every permanent type, any target 115.4's."""
    if wanted == "any-target":
        return {"creature", "planeswalker", "battle", "player"}
    if not isinstance(wanted, dict):
        return set()
    out: set[str] = set()
    for child in wanted.get("any", []) if isinstance(wanted.get("any"), list) else []:
        if isinstance(child, dict) and ({"type", "kind", "subtype"} & set(child) or child.get("any")):
            out |= _nouns(child)
    types = wanted.get("type", [])
    out |= set(types if isinstance(types, list) else [types])
    subtypes = wanted.get("subtype", [])
    for sub in subtypes if isinstance(subtypes, list) else [subtypes]:
        out |= {t for t, subs in BY_TYPE.items() if sub in subs and t != "spell"}
    kinds = wanted.get("kind", [])
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        out |= set(_PERMANENTS) if kind == "permanent" else {kind}
    return out or set(_PERMANENTS)


def _can_be(card: Card, wanted: Any, sentence: str) -> None:
    """Refuse "another" other than the source where the source can be none of what is wanted."""
    types = _nouns(wanted) & _PERMANENTS
    if not types or types == _PERMANENTS:
        return
    becomes = {"Vehicle", "Spacecraft"} & set(card.subtypes) or _BECOMES_CREATURE.search(card.text)
    own = {t.lower() for t in card.types} | ({"creature"} if becomes else set())
    if not own & types:
        raise Unread(
            f"'another' where this card is no {' or '.join(sorted(types))}: it is other than something else "
            "the sentence names (115.3), which this reader does not track",
            sentence,
        )
