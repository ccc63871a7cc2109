"""The closed vocabularies of the scenario format — the Comprehensive Rules' own lists, word for word
(the suite compares them with the rules' sentences, tests/data/cr-vocabularies.txt) — read in any
letter case, an old name as its current one (docs/formats.md, Objects).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal, get_args

from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from ._problems import suggest
from ._text import typed


def word(vocabulary: tuple[str, ...], what: str, aliases: dict[str, str] | None = None) -> Callable[[Any], Any]:
    """A closed vocabulary in any letter case, canonicalised to lower case (an old name to its
    current one); an unknown word is an error that suggests the nearest known one."""
    aliases = aliases or {}
    known = (*vocabulary, *aliases)

    def canonical(value: Any) -> Any:
        if not isinstance(value, str):
            return value  # the Literal reports the wrong type
        word = value.lower()
        if word in vocabulary:
            return word
        if word in aliases:
            return aliases[word]
        near = suggest(word, known)
        hint = f"did you mean {typed(near)}?" if near else f"expected one of {', '.join(vocabulary)}"
        raise PydanticCustomError(
            "vocabulary", "unknown {what} {value}: {hint}", {"what": what, "value": typed(value), "hint": hint}
        )

    return canonical


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


ThingKind = Literal["permanent", "card", "spell", "ability", "emblem", "player"]
ObjectKind = Literal["permanent", "card", "spell", "ability", "emblem"]

Zone = Literal["library", "hand", "battlefield", "graveyard", "stack", "exile", "command", "ante"]
"""CR 400.1: "There are normally seven zones: library, hand, battlefield, graveyard, stack, exile,
and command. Some older cards also use the ante zone." """
Color = Literal["white", "blue", "black", "red", "green"]
"""CR 105.1: "There are five colors in the Magic game: white, blue, black, red, and green." """
CardType = Literal[
    "artifact",
    "battle",
    "conspiracy",
    "creature",
    "dungeon",
    "enchantment",
    "instant",
    "kindred",
    "land",
    "phenomenon",
    "plane",
    "planeswalker",
    "scheme",
    "sorcery",
    "vanguard",
]
"""CR 205.2a and 300.1: "The card types are artifact, battle, conspiracy, creature, dungeon,
enchantment, instant, kindred, land, phenomenon, plane, planeswalker, scheme, sorcery, and
vanguard." """
CARD_TYPE_ALIASES: dict[str, str] = {"tribal": "kindred"}
"""Old names read as the current card type: kindred was called tribal until 2024 (the rules
renamed it; cards printed before say "Tribal")."""
CardTypeInput = CardType | Literal["tribal"]
Supertype = Literal["basic", "legendary", "ongoing", "snow", "world"]
"""CR 205.4a: "The supertypes are basic, legendary, ongoing, snow, and world." """

COLORS: tuple[str, ...] = get_args(Color)
CARD_TYPES: tuple[str, ...] = get_args(CardType)
SUPERTYPES: tuple[str, ...] = get_args(Supertype)
ZONES: tuple[str, ...] = get_args(Zone)

ThingKindWord = Annotated[ThingKind, BeforeValidator(word(get_args(ThingKind), "kind"))]
ObjectKindWord = Annotated[ObjectKind, BeforeValidator(word(get_args(ObjectKind), "kind"))]
ZoneWord = Annotated[Zone, BeforeValidator(word(ZONES, "zone"))]
ColorWord = Annotated[Color, BeforeValidator(word(COLORS, "color"))]
CardTypeWord = Annotated[
    CardType,
    BeforeValidator(word(CARD_TYPES, "card type", CARD_TYPE_ALIASES), json_schema_input_type=CardTypeInput),
]
SupertypeWord = Annotated[Supertype, BeforeValidator(word(SUPERTYPES, "supertype"))]
Subtype = Annotated[str, BeforeValidator(_lower)]
"""Subtypes are an open vocabulary, matched in any letter case."""
