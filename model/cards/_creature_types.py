"""Every creature type (205.3m), for a changeling (702.73a) and a card that "is every creature
type" (604.3): the rules' list (model/cards/_subtypes.py) and ``EXTRA``, the subtypes the Oracle data
prints on creature and kindred cards and on no other card that the rules do not list (Un-cards'
types, and a few words of joke type lines: "art", "the" — they match no filter a real card writes,
so they change no reading), lower case. The data alone lacks Dinosaur and Specter (printed on joke
non-creature cards too), so a list drawn from it made a changeling no Dinosaur. ``EXTRA`` was drawn
from the data (tests/test_cards.py draws it again and holds it to the data) and kept here so that a
card is read without reading the whole corpus.
"""

from __future__ import annotations

from ._subtypes import CREATURE

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
