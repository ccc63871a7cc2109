"""Every creature type (205.3m), for a changeling (702.73a) and a card that "is every creature
type" (604.3): the rules' list (model/cards/_subtypes.py) and the subtypes the Oracle data prints on
creature and kindred cards and on no other card (Un-cards' types the rules do not list), lower case.
The data alone lacks two: Dinosaur and Specter are printed on joke non-creature cards too, so a
changeling was no Dinosaur. ``PRINTED`` was drawn from the data by ``creature_types_of``
(tests/test_card_readings.py holds the two equal) and kept here so that a card is read without
reading the whole corpus. A few words of joke cards' type lines are among them ("art", "the");
they match no filter a real card writes, so they change no reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ._corpus import Card
from ._subtypes import CREATURE

__all__ = ["CREATURE_TYPES", "PRINTED", "creature_types_of"]

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
PRINTED: tuple[str, ...] = (
    'advisor', 'aetherborn', 'alicorn', 'alien', 'ally', 'angel', 'antelope', 'ape', 'archer', 'archon', 'armadillo',
    'armored', 'art', 'artificer', 'artist', 'assassin', 'assembly-worker', 'astartes', 'athlete', 'atog', 'aurochs',
    'autobot', 'avatar', 'azra', 'badger', 'barbarian', 'bard', 'basilisk', 'bat', 'bear', 'beast', 'beaver',
    'beeble', 'beholder', 'berserker', 'bird', 'bison', 'boar', 'boxer', 'brainiac', 'bringer', 'brushwagg',
    'bureaucrat', "c'tan", 'camel', 'capybara', 'carrier', 'cat', 'centaur', 'cephalid', 'chameleon', 'champion',
    'chef', 'chicken', 'child', 'chimera', 'citizen', 'clamfolk', 'cleric', 'clown', 'cockatrice', 'construct',
    'cow', 'coward', 'coyote', 'crab', 'crocodile', 'custodes', 'cyberman', 'cyborg', 'cyclops', 'dalek', 'dauthi',
    'deer', 'demigod', 'demon', 'designer', 'detective', 'devil', 'djinn', 'doctor', 'dog', 'donkey', 'dragon',
    'drake', 'dreadnought', 'drix', 'drone', 'druid', 'dryad', 'dwarf', 'echidna', 'efreet', 'egg', 'elder',
    'eldrazi', 'elemental', 'elephant', 'elf', 'elk', 'elves', 'employee', 'eternal', 'etiquette', 'eye', 'faerie',
    'ferret', 'fish', 'flagbearer', 'fox', 'fractal', 'frog', 'fungus', 'gamer', 'gamma', 'gargoyle', 'giant',
    'giraffe', 'gith', 'glimmer', 'gnoll', 'gnome', 'goat', 'goblin', 'god', 'golem', 'gorgon', 'grandchild',
    'gremlin', 'griffin', 'guest', 'gus', 'hag', 'halfling', 'hamster', 'harpy', 'hatificer', 'hawk', 'head',
    'hedgehog', 'hellion', 'hero', 'hippo', 'hippogriff', 'homarid', 'homunculus', 'horror', 'horse', 'human',
    'hydra', 'hyena', 'illusion', 'imp', 'incarnation', 'inhuman', 'inkling', 'inquisitor', 'insect', 'jackal',
    'jellyfish', 'judge', 'juggernaut', 'kangaroo', 'kavu', 'killbot', 'kirin', 'kithkin', 'knight', 'koala',
    'kobold', 'kor', 'kraken', 'kree', 'lady', 'lamia', 'lammasu', 'lander', 'leech', 'lemur', 'leviathan',
    'lhurgoyf', 'licid', 'lizard', 'lobster', 'mammoth', 'manticore', 'masticore', 'mercenary', 'merfolk',
    'metathran', 'mime', 'minion', 'minotaur', 'mite', 'mole', 'monger', 'mongoose', 'monk', 'monkey', 'moogle',
    'moonfolk', 'mount', 'mouse', 'mummy', 'mutant', 'myr', 'mystic', 'nautilus', 'necron', 'nephilim', 'nightmare',
    'nightstalker', 'ninja', 'noble', 'noggle', 'nomad', 'nymph', 'octopus', 'officer', 'ogre', 'ooze', 'orc',
    'orgg', 'otter', 'ouphe', 'ox', 'oyster', 'pangolin', 'paratrooper', 'peasant', 'pegasus', 'performer', 'pest',
    'phelddagrif', 'phoenix', 'phyrexian', 'pilot', 'pirate', 'plant', 'platypus', 'pony', 'porcupine', 'possum',
    'praetor', 'primarch', 'processor', 'proper', 'qu', 'rabbit', 'raccoon', 'ranger', 'rat', 'rebel', 'reflection',
    'rhino', 'rigger', 'robot', 'rogue', 'sable', 'salamander', 'samurai', 'sand', 'saproling', 'satyr', 'scarecrow',
    'scientist', 'scorpion', 'scout', 'seal', 'serpent', 'shade', 'shaman', 'shapeshifter', 'shark', 'sheep',
    "shi'ar", 'ship', 'siren', 'skeleton', 'skrull', 'skunk', 'slith', 'sliver', 'sloth', 'slug', 'snail', 'snake',
    'soldier', 'soltari', 'sorcerer', 'spawn', 'spellshaper', 'sphinx', 'spider', 'spike', 'spirit', 'splinter',
    'sponge', 'spuzzem', 'spy', 'squid', 'squirrel', 'starfish', 'surrakar', 'survivor', 'symbiote', 'synth',
    'thalakos', 'the', 'thopter', 'thrull', 'tiefling', 'time lord', 'townsfolk', 'toy', 'tree', 'treefolk',
    'trilobite', 'troll',
    'turtle', 'tyranid', 'unicorn', 'utrom', 'vampire', 'vampyre', 'varmint', 'vedalken', 'villain', 'volver',
    'waiter', 'wall', 'walrus', 'warlock', 'warrior', 'weasel', 'weird', 'werewolf', 'whale', 'wizard', 'wolf',
    'wolverine', 'wombat', 'worm', 'wraith', 'wrestler', 'wurm', 'yeti', 'zombie', 'zonian', 'zubera',
)
# fmt: on

CREATURE_TYPES: tuple[str, ...] = tuple(sorted(CREATURE.union(PRINTED)))
