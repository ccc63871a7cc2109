"""The target phrase of a triggered ability read word by word (601.2c): its number, what it
names (types, kinds, qualities, controller, zone) and where it ends. Every word of a phrase is
accounted for by a rule of this reader, and the word after it must be one that ends a phrase;
anything else is refused (:class:`Unread` names the word), never guessed."""

from __future__ import annotations

import re
from typing import Any

from ._corpus import Card

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


_QUANTITY = re.compile(
    r"(?P<q>up to (?P<upto>one|two|three|four|five|six|seven|eight|nine|ten|x|\d+) |any number of "
    r"|one or two |one, two, or three |one, two, three, or four |each of up to (?P<each>\w+) )?"
    r"(?P<another>another |other |(?:up to \w+ )?other )?target(?P<plural>s)?\b",
    flags=re.I,
)


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
