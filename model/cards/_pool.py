"""The cards generated boards draw from (docs/rl.md, "Boards from real cards"): every card of the
Oracle data whose triggered abilities the reader reads whole, each ability classified by the event
that triggers it — a creature entering, a creature dying (a board wipe), a creature attacking, a
spell cast — read from its trigger condition (the text up to the first comma, as the reader cuts
it). The classification is a small grammar, kept honest by refusing: a card with an ability whose
condition it does not parse, and which is not plainly about another event (the beginning of a step,
combat damage, gaining life …), is left out, and so is a card whose other text could change what
triggers or what can be targeted (a static ability granting hexproof, "… can't be the target …",
"… triggers an additional time", a copy) or whose keywords include a triggered keyword the reader
does not write out (prowess, exalted, undying …: see :data:`_KEYWORDS`).

Three pools come of it: *makers*, permanents with at least one ability one of the four events
triggers; *bodies*, creatures with no triggered ability (targets, with their keywords: hexproof,
shroud, protection, ward, or none); and *spells*, cards a player casts (their own "When you cast
this spell" abilities classified like any other). Built once per process, lazily (:func:`pool`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal

from .._parts import building, cached, prune, write_whole
from .._text import typed
from .._words import COLORS
from ._board import is_template, needs
from ._corpus import Card, cache_folder, corpus
from ._expand import characteristics, ward_of
from ._keywords import CHAPTER
from ._reader import _REMINDER, _TRIGGER, _effect, keyword_lines, read, triggered_lines
from ._unread import Unread

EVENTS = ("enters", "dies", "attacks", "cast")
"""The events a board is built around: a creature enters; every creature dies (a board wipe); the
active player attacks; a player casts a spell."""

Subject = Literal["self", "other", "any", "self_or_other", "player"]
Whose = Literal["any", "you", "opponent"]


@dataclass(frozen=True)
class Condition:
    """What triggers an ability: the events (``kinds``), whose event it is (``subject``: the
    ability's own permanent or spell, another one, any one, either; ``player``: "you attack", "you
    cast a spell"), the relation of the subject's controller (or the caster, the attacker) to the
    ability's controller (``whose``), and what the subject must be (``word``: a card type,
    ``noncreature``, a color, a subtype …; ``None`` for any)."""

    kinds: frozenset[str]
    subject: Subject
    whose: Whose = "any"
    word: str | None = None


def _cast_self(condition: Condition) -> bool:
    return condition.subject == "self" and condition.kinds == {"cast"}


@dataclass(frozen=True)
class Trig:
    """One triggered ability of a pool card that one of :data:`EVENTS` triggers: its place among the
    card's triggered abilities (``card_ability``), its condition, the trigger fragment the reader
    gives, and whether that fragment names the event's player (so the trigger needs ``event_player``)."""

    index: int
    condition: Condition
    fragment: dict[str, Any]
    needs_event: bool


@dataclass(frozen=True)
class Entry:
    """A card of the pool (or a generated stand-in, ``name`` ``None``): the object fields it gives,
    its abilities the events trigger, and whether it can attack (no defender, no "can't attack")."""

    name: str | None
    fields: dict[str, Any]
    abilities: tuple[Trig, ...] = ()
    attacker: bool = True
    ward: str | None = None
    silent: bool = False
    """No triggered ability at all (a body: it never triggers, whatever the event)."""
    flash: bool = False

    @property
    def creature(self) -> bool:
        return "creature" in self.fields.get("types", ())

    def kinds(self) -> frozenset[str]:
        """The events its abilities answer to on the battlefield ("When you cast this spell" is a spell's)."""
        return frozenset(k for a in self.abilities if not _cast_self(a.condition) for k in a.condition.kinds)


@dataclass
class Pool:
    """The three pools, makers also indexed by the event kinds they answer to."""

    makers: list[Entry] = field(default_factory=list)
    bodies: list[Entry] = field(default_factory=list)
    spells: list[Entry] = field(default_factory=list)
    by_kind: dict[str, list[Entry]] = field(default_factory=dict)
    entering: list[Entry] = field(default_factory=list)
    """Creatures with an ability their own entering triggers (an enters event's creature)."""
    watching: list[Entry] = field(default_factory=list)
    """Permanents with an ability another creature's entering triggers."""
    attackers: list[Entry] = field(default_factory=list)
    """Creatures that can attack with an ability their own attack triggers."""
    origin: str = "cards"
    """``cards`` (the Oracle data) or ``generated`` (the stand-ins)."""

    def index(self) -> None:
        self.by_kind = {k: [m for m in self.makers if k in m.kinds()] for k in EVENTS}
        self.entering = [m for m in self.by_kind["enters"] if m.creature and _about(m, "enters", _ITSELF)]
        self.watching = [m for m in self.by_kind["enters"] if _about(m, "enters", _ANOTHER)]
        self.attackers = [
            m for m in self.by_kind["attacks"] if m.creature and m.attacker and _about(m, "attacks", _ITSELF)
        ]


_ITSELF = ("self", "self_or_other", "any")
_ANOTHER = ("other", "self_or_other", "any")


def _about(entry: Entry, kind: str, subjects: tuple[str, ...]) -> bool:
    """Whether one of ``entry`` 's abilities answers to ``kind`` about one of ``subjects``."""
    return any(kind in a.condition.kinds and a.condition.subject in subjects for a in entry.abilities)


# -- trigger conditions ---------------------------------------------------------------------------

_NOUN = (
    r"(?:nontoken )?(?P<{g}>creature|artifact creature|artifact|enchantment|land|planeswalker|nonland permanent"
    r"|permanent|[A-Z][a-z]+)"
)
_WHOSE = r"(?: (?P<{g}>you control|an opponent controls|you don't control))?"
_VERB = r"enters|dies|attacks|leaves the battlefield|is put into a graveyard from the battlefield"
_ON_BATTLEFIELD = re.compile(
    r"^(?:(?P<self>this permanent)(?: or another " + _NOUN.format(g="w2") + _WHOSE.format(g="o2") + r")?"
    r"|(?P<det>another|a|an) " + _NOUN.format(g="w1") + _WHOSE.format(g="o1") + r")"
    rf" (?P<verbs>(?:{_VERB})(?: or (?:{_VERB}|blocks))?)$"
)
_SPELL_WORD = (
    r"creature|noncreature|instant or sorcery|artifact|enchantment|planeswalker|multicolored|colorless"
    r"|white|blue|black|red|green|legendary|[A-Z][a-z]+"
)
_CAST = re.compile(rf"^(?P<who>you|an opponent|a player) casts? (?:a|an) (?:(?P<word>{_SPELL_WORD}) )?spell$")
_KIND = {"enters": "enters", "attacks": "attacks", "blocks": ""}
_WHO: dict[str | None, Whose] = {
    None: "any",
    "you control": "you",
    "an opponent controls": "opponent",
    "you don't control": "opponent",
}
_CASTER: dict[str, Whose] = {"you": "you", "an opponent": "opponent", "a player": "any"}

_UNRELATED = re.compile(
    r"\b(?:deals? (?:combat )?damage|(?:is|are) dealt damage|becomes? blocked|blocks|gains? life|loses? life"
    r"|draws?|discards?|cycles?|cycle|turned face up|scry|scries|surveils?|mutates|specializes|exploits|monstrous"
    r"|transforms?|commits? a crime|crank|in motion|planeswalk|chaos ensues|rolls?|flips?|unlock|encounter|mills?"
    r"|explores?|sacrifices?|lands? you control enters|lands? enters|play a land|counters? (?:is|are) put)\b"
)
"""Conditions about events none of :data:`EVENTS` is (combat damage, life, cards drawn …) …"""
_EVENT_WORDS = re.compile(
    r"\b(?:enters?|dies|die|attacks?|casts?|leaves?|put into|tapped|untapped|target|triggers?|another)\b"
)
"""… unless they also say a word one of the events could answer to (then the card is left out)."""


def _normal(card: Card, condition: str) -> str:
    """The condition with its "When"/"Whenever" off and the card's own names, and "this creature"
    and the like, written "this permanent"; "enters the battlefield" as "enters"; "enters under
    your control" as "you control enters"."""
    text = re.sub(r"^(?:When|Whenever) ", "", condition)
    for name in sorted({card.name, card.name.split(",")[0], card.name.split(" // ")[0]}, key=len, reverse=True):
        if name:
            text = text.replace(name, "this permanent")
    text = re.sub(
        r"\bthis (?:creature|artifact|enchantment|Vehicle|Equipment|Spacecraft|Class|Case|Saga)\b",
        "this permanent",
        text,
    )
    text = text.replace("enters the battlefield", "enters")
    text = re.sub(r"(\w+) enters under your control$", r"\1 you control enters", text)
    return re.sub(r"(\w+) enters under an opponent's control$", r"\1 an opponent controls enters", text)


def classify(card: Card, text: str) -> Condition | Literal["unrelated"] | None:
    """The condition of the triggered ability ``text`` of ``card``; ``"unrelated"`` when none of the
    events triggers it; ``None`` when the grammar does not know (the card is then left out)."""
    if CHAPTER.match(text):
        return "unrelated"  # 714.2b: a lore counter
    try:
        condition, effect = _effect(text)
    except Unread:
        return None
    if re.match(r"if\b", effect, flags=re.I):  # an intervening "if" (603.4): whether it triggers, the board decides
        return None
    if condition.startswith("At "):
        return "unrelated"  # the beginning of a step or phase
    said = _normal(card, condition)
    if said == "you cast this spell":
        return Condition(frozenset({"cast"}), "self")
    if said == "you attack":
        return Condition(frozenset({"attacks"}), "player", "you")
    cast = _CAST.match(said)
    if cast is not None:
        return Condition(frozenset({"cast"}), "player", _CASTER[cast.group("who")], cast.group("word"))
    m = _ON_BATTLEFIELD.match(said)
    if m is not None:
        kinds = frozenset(_KIND.get(v, "dies") for v in m.group("verbs").split(" or ")) - {""}
        word = m.group("w2") if m.group("self") else m.group("w1")
        whose = _WHO[m.group("o2") if m.group("self") else m.group("o1")]
        if m.group("self"):
            subject: Subject = "self_or_other" if word else "self"
        else:
            subject = "other" if m.group("det") == "another" else "any"
        return Condition(kinds, subject, whose, word)
    if _UNRELATED.search(said) and not _EVENT_WORDS.search(said):
        return "unrelated"
    return None


def fits(word: str | None, fields: dict[str, Any]) -> bool:
    """Whether an object with ``fields`` is what a condition's ``word`` names."""
    types, colors = set(fields.get("types", ())), list(fields.get("colors", ()))
    if word is None or word == "permanent":
        return True
    if word == "nonland permanent":
        return "land" not in types
    if word == "artifact creature":
        return {"artifact", "creature"} <= types
    if word == "noncreature":
        return "creature" not in types
    if word == "instant or sorcery":
        return bool({"instant", "sorcery"} & types)
    if word in COLORS:
        return word in colors
    if word == "multicolored":
        return len(colors) > 1
    if word == "colorless":
        return not colors
    if word == "legendary":
        return "legendary" in fields.get("supertypes", ())
    if word[0].isupper():
        return word.lower() in fields.get("subtypes", ())
    return word in types


# -- which cards ----------------------------------------------------------------------------------

_KEYWORDS = re.compile(
    r"^(?:flying|first strike|double strike|deathtouch|lifelink|vigilance|trample|reach|haste|menace|defender"
    r"|flash|hexproof|hexproof from .*|shroud|protection from .*|ward\b.*|intimidate|fear|shadow|skulk|horsemanship"
    r"|changeling|devoid|equip\b.*|(?:basic )?\w*cycling\b.*|kicker\b.*|multikicker\b.*|flashback\b.*|convoke|delve"
    r"|affinity for .*|improvise|crew \d+|infect|wither|toxic \d+|partner|morph\b.*|megamorph\b.*|disguise\b.*"
    r"|ninjutsu\b.*|\w*walk|reconfigure\b.*|level up\b.*|unearth\b.*|escape\b.*|foretell\b.*|plot\b.*|madness\b.*"
    r"|scavenge\b.*|embalm\b.*|eternalize\b.*|encore\b.*|outlast\b.*|split second|overload\b.*|buyback\b.*"
    r"|entwine\b.*|rebound|retrace|jump-start|spectacle\b.*|surge\b.*|cleave\b.*|evoke\b.*|dash\b.*|emerge\b.*"
    r"|prototype\b.*|bestow\b.*|mutate\b.*|daybound|nightbound|backup \d+|modular \d+|haunt|soulshift \d+)$",
    flags=re.I,
)
"""The keywords a pool card may have on its keyword lines: static, activated or cost keywords, and
the keyword triggers the reader writes out (backup, modular, haunt, soulshift). Any other — prowess,
exalted, undying, persist, annihilator, cascade, storm … — is a triggered ability the reader does not
list, which would wait unseen: the card is left out."""

_LOUD = re.compile(
    r"trigger|hexproof|shroud|protection|\bward\b|can't be the targets?|can't target|must target|\bcop(?:y|ies)\b"
    r"|indestructible|can't attack|phas(?:e|es|ing) (?:in|out)|enters? as\b",
    flags=re.I,
)
"""What a permanent's other lines (neither triggered abilities nor keywords) must not say: they
could change what triggers, what can be targeted, or what the permanent is."""

_PERMANENT = {"creature", "artifact", "enchantment", "planeswalker"}
_LAYOUTS = ("normal", "leveler", "class", "saga", "case")


def _loud_line(card: Card, words: list[str]) -> str | None:
    """The first of the card's lines other than its triggered abilities and keywords (``words``)
    that says something of :data:`_LOUD`; ``None`` when they are quiet."""
    keywords = set(words)
    for line in card.text.split("\n"):
        clean = _REMINDER.sub("", line).strip()
        if line.startswith("•") or _TRIGGER.match(clean) or clean in keywords:
            continue
        if set(re.split(r",\s*|;\s*", clean)) <= keywords:
            continue
        if _LOUD.search(clean):
            return clean
    return None


_EVENT_PLAYER = re.compile(r'"(?:controller|owner)": "event"')


def names_event(fragment: dict[str, Any]) -> bool:
    """Whether a trigger fragment's filters name the event's player (so it needs ``event_player``)."""
    return _EVENT_PLAYER.search(json.dumps(fragment)) is not None


def _abilities(card: Card, texts: list[str]) -> tuple[Trig, ...] | str:
    """The card's abilities that the events trigger (``texts``: its triggered abilities); why not
    when some triggered ability is not classified or not read whole (the card is then left out)."""
    conditions = [classify(card, t) for t in texts]
    unknown = next((n for n, c in enumerate(conditions, 1) if c is None), None)
    if unknown is not None:
        return f"which events trigger its triggered ability {unknown} is not read: {typed(texts[unknown - 1], 80)}"
    out = []
    readings = read(card)
    for ability in readings:  # every one, even those no event triggers: a board names cards read whole
        if ability.fragment is None:
            assert ability.unread is not None
            return f"its triggered ability {ability.index} is not read whole: {ability.unread.reason}"
        if is_template(ability.fragment):  # a board does not complete one yet (model/cards/_board.py)
            said = needs(ability.fragment)[0]
            return f"its triggered ability {ability.index} is a template the board completes: {said}"
    for ability, condition in zip(readings, conditions, strict=True):
        if isinstance(condition, Condition) and ability.fragment is not None:
            out.append(Trig(ability.index, condition, ability.fragment, names_event(ability.fragment)))
    return tuple(out)


def placed(card: Card) -> Entry | str:
    """The card as a pool entry, or why it is left out (see the module's docstring: one line naming
    what, for a judge who named it, ``solver/_boards/_named.py``)."""
    if card.layout not in _LAYOUTS:
        return f"its layout ({card.layout}) is not one a board holds ({', '.join(_LAYOUTS)})"
    words = keyword_lines(card)
    other = next((w for w in words if not _KEYWORDS.match(w)), None)
    if other is not None:
        return f"its keyword {typed(other)} may be a triggered ability the reader does not write out"
    fields, notes = characteristics(card)
    if notes:
        return f"{notes[0][1]}"
    loud = _loud_line(card, words) if _on_battlefield(fields) else None
    if loud is not None:
        return f"its text {typed(loud)} could change what triggers or what can be targeted"
    texts = triggered_lines(card)
    abilities = _abilities(card, texts)
    if isinstance(abilities, str):
        return abilities
    if not _shaped(fields, abilities):
        return "its reading is not one a scenario holds"
    keywords = {k.casefold() for k in card.keywords}
    ward = ward_of(card)
    return Entry(card.name, fields, abilities, "defender" not in keywords, ward, not texts, "flash" in keywords)


def _shaped(fields: dict[str, Any], abilities: tuple[Trig, ...]) -> bool:
    """Whether the object fields and the trigger fragments are what a scenario holds: an Un-card's
    type line ("Summon Goblin") or a reading the scenario would refuse leaves the card out, rather
    than a board that is bad input."""
    from pydantic import ValidationError

    from .._shapes import Object, TriggerBody

    try:
        Object.model_validate({"id": "x", **fields})
        for a in abilities:
            TriggerBody.model_validate(
                {"source": "x", **a.fragment, **({"event_player": "A"} if a.needs_event else {})}
            )
    except ValidationError:
        return False
    return True


def _on_battlefield(fields: dict[str, Any]) -> bool:
    """Whether a card of these fields is a permanent a board may hold (no land, battle or Aura)."""
    types = set(fields["types"])
    return types <= _PERMANENT and bool(types) and "aura" not in fields.get("subtypes", ())


def _build() -> Pool:
    found = Pool()
    for card in corpus().cards():
        if "Land" in card.types or not card.mana_cost:
            continue
        got = placed(card)
        if not isinstance(got, Entry):
            continue
        found.spells.append(got)  # on the stack, only its "When you cast this spell" abilities function
        if not _on_battlefield(got.fields):
            continue
        if got.kinds():
            found.makers.append(got)
        elif got.creature and got.silent:
            found.bodies.append(got)
    found.index()
    return found


def _saved(found: Pool) -> dict[str, Any]:
    """The pool as JSON: every spell (each card of the pool is one), each a row of its fields in
    order and its abilities', with whether it is a maker or a body."""
    makers, bodies = {id(e) for e in found.makers}, {id(e) for e in found.bodies}
    rows = []
    for e in found.spells:
        abilities = [
            [a.index, sorted(a.condition.kinds), *_said(a.condition), a.fragment, a.needs_event] for a in e.abilities
        ]
        rows.append(
            [e.name, e.fields, abilities, e.attacker, e.ward, e.silent, e.flash, id(e) in makers, id(e) in bodies]
        )
    return {"entries": rows}


def _said(condition: Condition) -> tuple[Subject, Whose, str | None]:
    return condition.subject, condition.whose, condition.word


def _loaded(data: dict[str, Any]) -> Pool:
    found = Pool()
    for name, fields, said, attacker, ward, silent, flash, maker, body in data["entries"]:
        abilities = tuple(
            Trig(n, Condition(frozenset(kinds), subject, whose, word), fragment, needs)
            for n, kinds, subject, whose, word, fragment, needs in said
        )
        e = Entry(name, fields, abilities, attacker, ward, silent, flash)
        found.spells.append(e)
        if maker:
            found.makers.append(e)
        if body:
            found.bodies.append(e)
    found.index()
    return found


def _stored_path() -> Path:
    """Where the pool is kept: beside the card index, named by the data's version and a digest of
    this reader's own code (any change to the reading or the grammar builds it anew)."""
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(source.read_bytes())
    return cache_folder() / f"pool-{corpus().version}-{digest.hexdigest()[:16]}.json"


def _stored() -> Pool:
    """The pool from its file, or built (and written there, whole or not at all, where the folder
    allows): a file that is not a pool — corrupt, of another shape, nested past reason, not a regular
    file — is built again over (:func:`.._parts.cached`)."""
    path = _stored_path()
    found = cached(path, lambda raw: _loaded(json.loads(raw)))
    if found is not None:
        return found
    with building(f"the pool of cards boards draw from, {path}"):
        found = _build()
    text = json.dumps(_saved(found), separators=(",", ":")).encode("utf-8")

    def write(_part: str, stream: IO[bytes]) -> None:
        stream.write(text)

    with contextlib.suppress(OSError):  # a full disk, a read-only folder: this process keeps its own
        write_whole(path, write)
        prune(path, "pool-*.json")  # pools of other readers or data, long unused
    return found


_POOL: Pool | None = None
_LOCK = threading.Lock()


def pool() -> Pool:
    """The pool, once per process: read from its file in the cache folder (under a second), or built
    (about ten seconds: every card's triggers classified, and read where they are) and kept there."""
    global _POOL
    with _LOCK:
        if _POOL is None:
            _POOL = _stored()
        return _POOL
