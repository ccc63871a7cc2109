"""Characteristic-defining abilities (604.3) and what a type line's numbers mean: devoid makes a
card colorless (702.114a), "… is colorless" and "… is all colors" say its colors, a changeling and
a card that "is every creature type" have every creature type (702.73a, 205.3m), and a permanent
that is not a creature has no power or toughness even when the card prints them (208.3: a Vehicle,
a Spacecraft). A color indicator (204) is not in the data: a card whose colors would come from one
is a problem until ``colors`` is given, where it can be told (no mana cost, or a land creature); so
is the mana value of a back face, which is its front face's (712.8e) and not in its own row.
"""

from __future__ import annotations

import re
from typing import Any

from .._words import COLORS
from ._corpus import Card
from ._creature_types import CREATURE_TYPES


def _says(card: Card, what: str) -> bool:
    """Whether one of the card's own lines says that the card (by its name, its short name, or
    "this card/spell/creature") ``what`` ("is colorless", "is every creature type" …)."""
    if what not in card.text:  # most cards: no pattern to build (reading the whole corpus builds 100,000)
        return False
    names = {card.name, card.name.split(",")[0], "This card", "This spell", "This creature", "This permanent"}
    subject = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.search(rf"^(?:{subject}) {what}\b", card.text, flags=re.M) is not None


def defined(card: Card, words: list[str], out: dict[str, Any]) -> list[tuple[str, str]]:
    """Change ``out`` (the object fields read so far) by the card's characteristic-defining
    abilities and its kind (``words``: its keyword lines); what it cannot tell, as (the field to
    give by hand, why)."""
    notes: list[tuple[str, str]] = []
    keywords = {w.casefold() for w in words}
    if "devoid" in keywords or _says(card, "is colorless"):
        out["colors"] = []  # 702.114a: devoid is a characteristic-defining ability
    elif _says(card, "is all colors"):
        out["colors"] = list(COLORS)
    elif not card.mana_cost and ("Land" not in card.types or "Creature" in card.types):
        notes.append(
            ("colors", "no mana cost: its colors would come from a color indicator, which the data lacks (give colors)")
        )  # 204: a back face, a suspend card, Dryad Arbor
    if not card.mana_cost and card.layout in ("transform", "meld") and " // " not in card.name:
        notes.append(
            (
                "mana_value",
                "a back face: its mana value is its front face's (712.8e; melded, the total of both front faces'), "
                "which its own row lacks (give mana_value)",
            )
        )  # Werewolf Ransacker is 4, as Afflicted Deserter's {3}{R}, never 0
        out.pop("mana_value", None)
    if card.layout == "split":  # the data holds the first half only (Fire // Ice: {1}{R}, an instant)
        why = (
            "the data holds its first half only; a split card has both halves' (709.4), "
            "a Room on the battlefield its unlocked doors' (709.5)"
        )
        notes += [("colors", f"{why} (give colors)"), ("mana_value", f"{why} (give mana_value)")]
        out.pop("colors", None)
        out.pop("mana_value", None)
    if "changeling" in keywords or _says(card, "is every creature type"):
        printed = out.get("subtypes", [])
        out["subtypes"] = printed + [t for t in CREATURE_TYPES if t not in printed]  # 702.73a, 205.3m
    if "creature" not in out.get("types", ()):
        out.pop("power", None)  # 208.3: a noncreature permanent (a Vehicle, a Spacecraft) has neither
        out.pop("toughness", None)
    return notes
