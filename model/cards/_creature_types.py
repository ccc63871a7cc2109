"""Every creature type (205.3m), for a changeling (702.73a) and a card that "is every creature
type" (604.3): the rules' list (model/cards/_subtypes.py) and ``EXTRA``, the subtypes the Oracle data
prints on creature and kindred cards and on no other card that the rules do not list (Un-cards'
types, and a few words of joke type lines: "art", "the" — they match no filter a real card writes,
so they change no reading), lower case. The data alone lacks Dinosaur and Specter (printed on joke
non-creature cards too), so a list drawn from it made a changeling no Dinosaur. ``EXTRA`` was drawn
from the data by ``creature_types_of`` (tests/test_cards.py holds it to the data) and kept here so
that a card is read without reading the whole corpus.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ._corpus import Card
from ._subtypes import CREATURE

_WORD = re.compile(r"[A-Z][a-z'-]*(?:-[A-Z][a-z]+)?(?: [A-Z][a-z'-]*)*")  # "Time Lord" is one type


def creature_types_of(cards: Iterable[Card]) -> tuple[str, ...]:
    """The subtypes printed on creature and kindred cards and on no other card, sorted."""
    creature: set[str] = set()
    other: set[str] = set()
    for card in cards:
        kinds = {"Creature", "Tribal", "Kindred"}.intersection(card.types)
        (creature if kinds else other).update(card.subtypes)
    return tuple(sorted(s.lower() for s in creature - other if _WORD.fullmatch(s)))


# fmt: off
EXTRA: tuple[str, ...] = (
    'alicorn', 'armored', 'art', 'artist', 'athlete', 'autobot', 'boxer', 'brainiac', 'bureaucrat', 'cephalid',
    'chameleon', 'champion', 'chef', 'chicken', 'clamfolk', 'cow', 'cyborg', 'deer', 'designer', 'donkey', 'elves',
    'eternal', 'etiquette', 'gamma', 'grandchild', 'gus', 'hatificer', 'hawk', 'head', 'inhuman', 'judge',
    'killbot', 'koala', 'kree', 'lady', 'lander', 'mammoth', 'mime', 'mummy', 'officer', 'paratrooper', 'pony',
    'proper', "shi'ar", 'ship', 'skrull', 'spuzzem', 'spy', 'the', 'townsfolk', 'tree', 'vampyre', 'waiter',
    'wrestler', 'zonian',
)
# fmt: on

CREATURE_TYPES: tuple[str, ...] = tuple(sorted(CREATURE.union(EXTRA)))
