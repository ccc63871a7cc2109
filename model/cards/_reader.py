"""Oracle text read for what 603.3 needs, and nothing else: which of a card's abilities are
triggered abilities (a line beginning "When", "Whenever" or "At", after an ability word and its
dash), and for each, its modes (700.2) and its target requirements (601.2c) with the divided
amounts (601.2d) — in this project's scenario format (docs/formats.md, "Triggers", "Filters").

A targeting sentence the reader does not understand is reported — the card, the ability and the
sentence — never guessed (docs/cards.md lists what is understood). An ability without "target" and
without "choose" is read as one with nothing to choose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ._corpus import Card
from ._keywords import CHAPTER, keyword_triggers
from ._ownership import modes_are_foreign, owned

__all__ = ["Ability", "Unread", "keyword_lines", "read", "triggered_lines"]

_TRIGGER = re.compile(r"^(?:(?:[A-Z][\w' ,-]*?) — )?(When|Whenever|At)\b")
_REMINDER = re.compile(r"\s*\([^()]*\)")
_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "x": None,
}
_COLORS = {"white", "blue", "black", "red", "green"}
_TYPES = {"artifact", "battle", "creature", "enchantment", "land", "planeswalker", "instant", "sorcery", "kindred"}
_SUPERTYPES = {"legendary", "basic", "snow"}
_PERMANENT_TYPES = ("artifact", "battle", "creature", "enchantment", "land", "planeswalker")
_STATES = frozenset({"tapped", "attacking", "blocking"})  # words a permanent's tags hold


class Unread(Exception):
    """A triggered ability whose text the reader does not understand: ``sentence`` is the part."""

    def __init__(self, reason: str, sentence: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.sentence = sentence


@dataclass
class Ability:
    """One triggered ability of a card: its text, and the trigger fragment read from it (``None``
    with ``unread`` when it was not understood)."""

    index: int
    text: str
    fragment: dict[str, Any] | None = None
    unread: Unread | None = None
    notes: list[str] = field(default_factory=list)


def triggered_lines(card: Card) -> list[str]:
    """The card's triggered abilities in Oracle order, reminder text removed; a modal ability's
    bullet lines stay with it."""
    out: list[str] = []
    lines = card.text.split("\n")
    for i, line in enumerate(lines):
        clean = _REMINDER.sub("", line).strip()
        if line.startswith("•"):
            if out and out[-1].startswith("\x00"):
                out[-1] += "\n" + clean
            continue
        keyworded = keyword_triggers(card, clean)  # Modular, Haunt … (702): written out, then read
        if keyworded:
            out.extend(keyworded)
        elif _TRIGGER.match(clean) or ("Saga" in card.subtypes and CHAPTER.match(clean)):
            modal = i + 1 < len(lines) and lines[i + 1].startswith("•")
            out.append(("\x00" if modal else "") + clean)
        elif out and out[-1].startswith("\x00"):
            out[-1] = out[-1][1:]
    return [t.lstrip("\x00") for t in out]


def keyword_lines(card: Card) -> list[str]:
    """The lines that are only keywords (``Flying, hexproof``; ``Protection from red``; ``Ward {2}``)."""
    out = []
    for line in card.text.split("\n"):
        clean = _REMINDER.sub("", line).strip()
        words = [w.strip() for w in re.split(r",\s*|;\s*", clean) if w.strip()]
        if words and all(_is_keyword(w, card) for w in words):
            out.extend(words)
    return out


def _is_keyword(word: str, card: Card) -> bool:
    lowered = word.casefold()
    known = {k.casefold() for k in card.keywords}
    head = lowered.split(" ")[0].split("—")[0]
    protection = lowered.startswith(("protection from", "hexproof from"))
    return head in known or lowered in known or protection or re.match(r"ward\b", lowered) is not None


def read(card: Card) -> list[Ability]:
    """Each triggered ability of ``card`` read (or not, with why)."""
    out = []
    for n, text in enumerate(triggered_lines(card), 1):
        ability = Ability(n, text)
        try:
            ability.fragment = _ability(card, text, ability)
        except Unread as exc:
            ability.unread = exc
        out.append(ability)
    return out


def _effect(text: str) -> tuple[str, str]:
    """(trigger condition, effect) of one ability: the condition runs to the first comma outside
    quotes that is followed by the effect."""
    head = re.sub(r"^[A-Z][\w' ,-]*? — (?=When|Whenever|At)", "", text.split("\n")[0])
    chapter = CHAPTER.match(head)
    if chapter is not None:  # 714.2b: a lore counter reaching the chapter's number
        return f"chapter {chapter.group(1)} (714.2b)", head[chapter.end() :]
    depth = 0
    for i, ch in enumerate(head):
        if ch == '"':
            depth ^= 1
        elif ch == "," and not depth:
            return head[:i], head[i + 1 :].strip()
    raise Unread("no comma ends the trigger condition", head)


def _ability(card: Card, text: str, ability: Ability) -> dict[str, Any]:
    condition, effect = _effect(text)
    effect, notes = owned(effect)  # without the targets of the abilities it grants or makes (603.7, 603.12)
    ability.notes.extend(notes)
    fragment: dict[str, Any] = {"text": text.replace("\n", " ")}
    if re.search(r"triggered ability to trigger|ability triggers|abilities trigger", condition):
        fragment["condition"] = "ability-triggered"
    bullets = [b.lstrip("• ").strip() for b in text.split("\n")[1:]]
    if bullets and modes_are_foreign(_effect(text)[1]):
        bullets = []  # "When you do, choose one —": the modes are the reflexive ability's (603.12)
    choose = re.search(
        r"\bchoose (one or both|one or more|up to one|up to two|up to three|one|two|three|any number)"
        r"(?: that hasn't been chosen)?(?: this turn)?\s*(?:—|\.)",
        effect,
        flags=re.I,
    )
    if bullets:
        if choose is None:
            raise Unread("bullets without a 'choose' this reader knows", effect)
        word = choose.group(1).lower()
        n = len(bullets)
        allowed = {
            "one": [1],
            "two": [2],
            "three": [3],
            "one or both": [1, 2],
            "one or more": list(range(1, n + 1)),
            "up to one": [0, 1],
            "up to two": [0, 1, 2],
            "up to three": [0, 1, 2, 3],
            "any number": list(range(0, n + 1)),
        }[word]
        modal: dict[str, Any] = {"choose": [k for k in allowed if k <= n]}
        if re.search(r"each mode must target a different", effect, flags=re.I):
            modal["distinct_targets"] = True
        if "hasn't been chosen" in effect:
            ability.notes.append("modes chosen earlier are not known: every mode is given as available")
        modes = []
        for i, bullet in enumerate(bullets, 1):
            own, notes = owned(bullet)
            ability.notes.extend(n for n in notes if n not in ability.notes)
            reqs = _requirements(card, own)
            mode: dict[str, Any] = {"id": f"m{i}", "text": bullet}
            if reqs:
                mode["targets"] = reqs
            modes.append(mode)
        fragment["modal"] = modal
        fragment["modes"] = modes
        before = re.sub(r"each mode must target a different \w+", "", effect[: choose.start()], flags=re.I)
        if "target" in before:
            raise Unread("targets before the modes", before)
        return fragment
    if choose is not None:
        raise Unread("'choose' without bullets", effect)
    reqs = _requirements(card, effect)
    if reqs:
        fragment["targets"] = reqs
    return fragment


# -- targets -------------------------------------------------------------------------------------

_IGNORED = (  # "target" that is no requirement of this ability
    r"new targets? for (?:the|that|those|each) cop(?:y|ies)",
    r"becomes? the targets? of",
    r"(?:that|the) (?:spell|ability|spells|abilities)'s targets?",
    r"\bwith a single target\b",
    r"only one target",
    r"targets? (?:of|for) (?:that|the|a|an|each) (?:spell|ability|copy)",
    r"if (?:it|that spell|that ability) has a single target",
    r"that targets? ",
    r"target of (?:a|an|one|spells|abilities)",
    r"its targets? (?:becomes?|is|are)",
)
_REFLEXIVE = re.compile(r"\b(?:when|whenever) (?:you|they|that player|he or she) (?:do|does)\b", flags=re.I)

_QUANTITY = re.compile(
    r"(?P<q>up to (?P<upto>one|two|three|four|five|six|seven|eight|nine|ten|x|\d+) |any number of "
    r"|one or two |one, two, or three |one, two, three, or four |each of up to (?P<each>\w+) )?"
    r"(?P<another>another |other |(?:up to \w+ )?other )?target(?P<plural>s)?\b",
    flags=re.I,
)


def _requirements(card: Card, sentence: str) -> list[dict[str, Any]]:
    """Every target requirement of ``sentence`` (one per instance of "target", 601.2c)."""
    text = _REMINDER.sub("", sentence)
    reflexive = _REFLEXIVE.search(text)
    if reflexive is not None:  # "When you do, … target …": a reflexive ability chooses its targets later (603.12)
        text = text[: reflexive.start()]
    masked = text
    for pattern in _IGNORED:
        masked = re.sub(pattern, lambda m: "·" * len(m.group(0)), masked, flags=re.I)
    out: list[dict[str, Any]] = []
    for m in _QUANTITY.finditer(masked):
        if masked[m.start() : m.end()].count("·"):
            continue
        req = _requirement(card, text, m, len(out) + 1)
        out.append(req)
    if "target" in masked.replace("·", "") and not out:
        raise Unread("'target' where no target requirement was read", sentence)
    return out


def _count(word: str | None) -> int | None:
    if word is None:
        return None
    if word.isdigit():
        return int(word)
    if word.lower() not in _NUMBERS:
        raise Unread(f"an amount this reader does not know: {word!r}", word)
    return _NUMBERS[word.lower()]


def _requirement(card: Card, text: str, m: re.Match[str], n: int) -> dict[str, Any]:
    req: dict[str, Any] = {"id": f"t{n}" if n > 1 else "t"}
    q = (m.group("q") or "").lower()
    low, high = 1, 1
    if m.group("upto"):
        low, top = 0, _count(m.group("upto"))
        if top is None:
            raise Unread("up to X targets: the number is the board's (give max)", text)
        high = top
    elif m.group("each"):
        low, top = 0, _count(m.group("each"))
        high = top if top is not None else 1
    elif q.startswith("any number"):
        low, high = 0, -1
    elif q.startswith("one or two"):
        low, high = 1, 2
    elif q.startswith("one, two, or three"):
        low, high = 1, 3
    elif q.startswith("one, two, three, or four"):
        low, high = 1, 4
    if (low, high) != (1, 1):
        req["min"] = low
        req["max"] = None if high == -1 else high
    if m.group("another"):
        req["other_than_source"] = True
    rest = text[m.end() :]
    before_words = text[: m.start()].rstrip().lower()
    if (before_words.endswith("any") and not q) or (
        m.group("plural") and re.match(r"\s*(?:[.,;]|$|and\b|instead\b)", rest)
    ):
        req["filter"] = "any-target"  # "any target", "among one, two, or three targets"
    else:
        phrase, filt, flags = _noun_phrase(card, rest)
        req["filter"] = filt
        req.update(flags)
        req["text"] = f"{m.group(0)} {phrase}".strip()
    before = text[: m.start()].lower()
    divided = re.search(
        r"(\d+|x) (?:damage|\+1/\+1 counters?|-1/-1 counters?)\s+divided (?:as you choose )?among\s*$", before
    )
    if divided is None:
        divided = re.search(r"distribute (\w+) [^.]*?among\s*$", before)
    if divided:
        amount = _count(divided.group(1))
        if amount is None:
            raise Unread("an amount X divided: the number is the board's (give divide)", text)
        req["divide"] = amount
        # 601.2d: an amount divided gives each target at least 1, so there is at least one target
        # and at most the amount of them ("among any number of targets": one to five for 5 damage)
        if req.get("min", 1) < 1:
            req["min"] = 1
        if "max" in req and (req["max"] is None or req["max"] > amount):
            req["max"] = amount
    return req


_BOUNDARY = re.compile(
    r"^(?:[.,;:]|$| (?:gets?|gains?|has|have|deals?|loses?|can't|cannot|becomes?|to |and (?:put|return|exile|"
    r"that|you|its|it|then|tap|untap|target|each|draw|create|deal|gain|lose|sacrifice|destroy)|into|on top|"
    r"this turn|until|phases?|fights?|is |are |was |were |attacks?|blocks?|doesn't|don't (?!control)|"
    r"perpetually|must|explores?|connives?|mills?|discards?|draws?|reveals?|sacrifices?|shuffles?|puts?|"
    r"returns?|exiles?|searches|scry|surveils?|counts?|chooses|plays?|casts?|pays?|adds?|assigns?|"
    r"may |of their choice|for each|equal|where|instead|unless|as long as|at random|without paying|"
    r"in (?:addition|its owner's)|from (?:among|the top)|or (?:more|less|greater|fewer)|"
    r"twice|copies|onto|attached|for as long|that (?:player|creature|permanent|card|spell)'s))",
)


def _noun_phrase(card: Card, rest: str) -> tuple[str, Any, dict[str, Any]]:
    """The filter of the words after "target", and the words it read; :class:`Unread` when they
    are not a phrase this reader knows."""
    phrase = _TargetPhrase(re.findall(r"[A-Za-z'/+-]+|\d+|[.,;:]", rest), "target " + rest.strip())
    while phrase.pos < len(phrase.words) and phrase.read_word():
        pass
    if not phrase.alternatives:
        raise Unread("a target phrase without a noun this reader knows", phrase.said)
    return phrase.finish(card)


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


class _TargetPhrase:
    """A target phrase being read word by word: the alternatives ("creature or planeswalker")
    read so far, the adjectives waiting for their noun, and what the targets must not be."""

    def __init__(self, words: list[str], said: str) -> None:
        self.words = words
        self.said = said  # the phrase as written, for a problem
        self.pos = 0
        self.alternatives: list[dict[str, Any]] = []
        self.adjectives: dict[str, Any] = {}
        self.nots: list[dict[str, Any]] = []

    def peek(self, k: int = 0) -> str:
        """The word ``k`` after the current one, lower case ("" past the end)."""
        return self.words[self.pos + k].lower() if self.pos + k < len(self.words) else ""

    def read_word(self) -> bool:
        """Read the current word (and any it takes with it); whether the alternatives go on."""
        w = self.peek()
        if (w in ("or", ",") and self.alternatives) or self.adjective(w):
            self.pos += 1
            return True
        if w in ("activated", "triggered") and self.peek(1) in ("ability", "abilities"):
            self.alternatives.append({"kind": "ability", "ability_kind": w, **_take(self.adjectives)})
            self.pos += 2
            return _more(self.peek(), self.peek(1))
        if w in ("ability", "abilities"):
            self.alternatives.append({"kind": "ability"})
        elif w == "," and not self.alternatives and (self.peek(1) in _STARTS or self.peek(1).startswith("non")):
            pass  # "noncreature, nonland permanent"
        elif _noun(w.removesuffix("'s")) is not None:
            return self.noun(w)
        elif self.words[self.pos][:1].isupper() and w.replace("-", "").isalpha() and w not in ("you", "an", "a", "the"):
            return self.subtype(w)
        else:
            raise Unread(f"a word this reader does not know in a target phrase: {self.words[self.pos]!r}", self.said)
        self.pos += 1
        return True

    def adjective(self, w: str) -> bool:
        """Note ``w`` if it is an adjective ("red", "legendary", "tapped", "nonland" …)."""
        if w in _COLORS:
            self.adjectives.setdefault("color", []).append(w)
        elif w == "colorless":
            self.adjectives["colorless"] = True
        elif w in _SUPERTYPES:
            self.adjectives["supertype"] = w
        elif w in _STATES:
            self.adjectives.setdefault("tag", []).append(w)
        elif w == "untapped":
            self.nots.append({"tag": "tapped"})
        elif w == "nontoken":
            self.nots.append({"tag": "token"})
        elif w == "token":
            self.adjectives.setdefault("tag", []).append("token")
        elif w.startswith("non") and len(w) > 4:
            what = w[3:].lstrip("-")
            key = (
                "type"
                if what in _TYPES
                else "color"
                if what in _COLORS
                else "supertype"
                if what in _SUPERTYPES
                else "subtype"
            )
            self.nots.append({key: what})
        else:
            return False
        return True

    def noun(self, w: str) -> bool:
        """Read the noun ``w`` ("artifact creature", "permanent card", "opponent's hand") as an
        alternative; whether another alternative follows."""
        possessive = w.endswith("'s")  # "target opponent's hand", "target creature's power": the target is theirs
        base = _noun(w.removesuffix("'s")) or {}
        both = []
        while (
            not possessive
            and "type" in base
            and _noun(self.peek(1).removesuffix("'s"))
            and "type" in (_noun(self.peek(1).removesuffix("'s")) or {})
        ):
            both.append({"type": base["type"]})  # "artifact creature": both types
            self.pos += 1
            possessive = self.peek().endswith("'s")
            base = _noun(self.peek().removesuffix("'s")) or {}
        if self.peek(1) in ("card", "cards", "spell", "spells", "permanent", "permanents") and not possessive:
            if base == {"kind": "permanent"} and self.peek(1).startswith("card"):
                base = {"type": list(_PERMANENT_TYPES)}  # "permanent card": a card of a permanent type (110.4)
            base = {**base, **(_noun(self.peek(1)) or {})}
            self.pos += 1
        if both:
            base = {**base, "all": both}
        self.alternatives.append({**base, **_take(self.adjectives)})
        self.pos += 1
        if possessive and self.peek().isalpha():
            self.pos += 1  # what of theirs: "hand", "graveyard", "power" …
            return False
        return _more(self.peek(), self.peek(1))

    def subtype(self, w: str) -> bool:
        """Read the capitalized word ``w`` as a subtype: an adjective before a noun, or the noun
        itself ("target Equipment"); whether the alternatives go on."""
        self.adjectives.setdefault("subtype", []).append(w)
        following = self.peek(1).removesuffix("s")
        after = self.words[self.pos + 1 : self.pos + 2]
        self.pos += 1
        if _noun(following) or following in _STARTS or (after and after[0][:1].isupper()):
            return True  # an adjective: its noun follows
        self.alternatives.append(_take(self.adjectives))  # "target Equipment", "target Elf or Tyvar card"
        return _more(self.peek(), self.peek(1))

    def finish(self, card: Card) -> tuple[str, Any, dict[str, Any]]:
        """The words read, the filter of the alternatives with what qualifies them all, and the
        requirement's flags ("another"); :class:`Unread` when words this reader does not know follow."""
        words = self.words
        qualifiers, used = _qualifiers(words[self.pos :], card)
        pos = self.pos + used
        tail = " ".join(words[pos : pos + 3])
        if pos < len(words) and not _BOUNDARY.match((" " + tail) if words[pos] not in ".,;:" else words[pos]):
            raise Unread(f"words after a target phrase this reader does not know: {tail!r}", self.said)
        shared = {**_take(self.adjectives), **qualifiers}
        flags = {"other_than_source": True} if shared.pop("_other", False) else {}
        nots = self.nots
        if shared.pop("_not_you", False):
            nots.append({"controller": "you"})
        head = self.alternatives[-1].get("kind")  # "instant or sorcery card": the last noun's kind is every one's
        for a in self.alternatives:
            if head in ("card", "spell") and "kind" not in a and "type" in a:
                a["kind"] = head
        filters = [{**a, **{k: v for k, v in shared.items() if k not in a}} for a in self.alternatives]
        if nots:
            filters = [{**f, "not": nots[0] if len(nots) == 1 else {"any": nots}} for f in filters]
        phrase = re.sub(r" ([,.;:])", r"\1", " ".join(words[:pos]))
        return phrase, filters[0] if len(filters) == 1 else {"any": filters}, flags


_STARTS = (
    _TYPES
    | _COLORS
    | _SUPERTYPES
    | set(_STATES)
    | {
        "player",
        "opponent",
        "permanent",
        "spell",
        "card",
        "activated",
        "triggered",
        "untapped",
        "token",
        "nontoken",
        "colorless",
        "or",
    }
)


def _more(w: str, nxt: str) -> bool:
    """Whether another alternative follows: "or X", ", X" where X begins a noun phrase."""
    if w not in ("or", ","):
        return False
    return (
        nxt in _STARTS
        or (nxt.startswith("non") and len(nxt) > 4)
        or (
            w == "or"
            and nxt[:1].isalpha()
            and nxt not in ("more", "less", "greater", "fewer", "its", "their", "that", "it", "until", "a", "an", "the")
        )
    )


def _take(adjectives: dict[str, Any]) -> dict[str, Any]:
    out = {k: (v[0] if isinstance(v, list) and len(v) == 1 else v) for k, v in adjectives.items()}
    adjectives.clear()
    return out


_COMPARE = {"less": "lte", "fewer": "lte", "greater": "gte", "more": "gte"}


def _qualifiers(words: list[str], card: Card) -> tuple[dict[str, Any], int]:
    """``you control``, ``an opponent controls``, ``you don't control``, ``in a graveyard``, ``from
    your graveyard``, ``with power 2 or less`` … after the noun."""
    out: dict[str, Any] = {}
    i = 0
    low = [w.lower() for w in words]

    def at(*seq: str) -> bool:
        return tuple(low[i : i + len(seq)]) == seq

    while i < len(low):
        if at("you", "control"):
            out["controller"] = "you"
            i += 2
        elif at("an", "opponent", "controls") or at("your", "opponents", "control"):
            out["controller"] = "opponent"
            i += 3
        elif at("you", "don't", "control"):
            out["not_controller"] = "you"
            i += 3
        elif at("you", "own"):
            out["owner"] = "you"
            i += 2
        elif at("an", "opponent", "owns"):
            out["owner"] = "opponent"
            i += 3
        elif low[i] in ("in", "from") and i + 2 < len(low) and low[i + 2] in ("graveyard", "graveyards"):
            who = low[i + 1]
            out["zone"] = "graveyard"
            if who == "your":
                out["owner"] = "you"
            elif who in ("an", "opponent's"):
                out["owner"] = "opponent"
            i += 3
        elif low[i] in ("in", "from") and i + 3 < len(low) and low[i + 1] == "an" and low[i + 2] == "opponent's":
            out["zone"] = "graveyard" if low[i + 3] == "graveyard" else low[i + 3]
            out["owner"] = "opponent"
            i += 4
        elif low[i] == "with" and i + 4 < len(low) and low[i + 1] in ("power", "toughness") and low[i + 3] == "or":
            key = low[i + 1]
            if not low[i + 2].isdigit() or low[i + 4] not in _COMPARE:
                break
            out[key] = {_COMPARE[low[i + 4]]: int(low[i + 2])}
            i += 5
        elif at("other", "than", "this") and i + 3 < len(low):
            out["_other"] = True
            i += 4
        elif at("other", "than") and " ".join(words[i + 2 :]).startswith(card.name.split(",")[0]):
            out["_other"] = True
            i += 2 + len(card.name.split(",")[0].split())
        elif at("with", "mana", "value") and i + 3 < len(low) and low[i + 3].isdigit() and low[i + 4 : i + 5] != ["or"]:
            out["mana_value"] = {"eq": int(low[i + 3])}
            i += 4
        elif at("with", "mana", "value") and i + 5 < len(low) and low[i + 4] == "or" and low[i + 3].isdigit():
            if low[i + 5] not in _COMPARE:
                break
            out["mana_value"] = {_COMPARE[low[i + 5]]: int(low[i + 3])}
            i += 6
        else:
            break
    if out.pop("not_controller", None):
        out["_not_you"] = True
    return out, i
