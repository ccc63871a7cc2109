"""The target phrase of a triggered ability read word by word (601.2c): its number, what it
names (types, kinds, qualities, controller, zone) and where it ends. Every word of a phrase is
accounted for by a rule of this reader, and the word after it must be one that ends a phrase;
anything else is refused (:class:`Unread` names the word), never guessed."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ._corpus import Card
from ._ends import ends as _ends
from ._event import event_qualifier, event_refusal
from ._zones import zone_or_counter

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
    r"|one or two |one, two, or three |one, two, three, or four |each of up to (?P<each>\w+) "
    r"|(?P<exact>two|three|four|five|six|seven|eight|nine|ten) )?"
    r"(?P<another>another |other |(?:up to \w+ )?other )?target(?P<plural>s)?\b",
    flags=re.I,
)
_AMOUNTS = {"many", "much", "hundred", "thousand", "x", "all", "more", "fewer", "number", "half"}
_RANGES = {
    "any number": (0, -1),
    "one or two": (1, 2),
    "one, two, or three": (1, 3),
    "one, two, three, or four": (1, 4),
}


def _count(word: str | None) -> int | None:
    if word is None:
        return None
    if word.isdigit():
        return int(word)
    if word.lower() not in _NUMBERS:
        raise Unread(f"an amount this reader does not know: {word!r}", word)
    return _NUMBERS[word.lower()]


def _quantity(m: re.Match[str], text: str) -> tuple[int, int]:
    """(min, max) of the targets, -1 for any number (601.2c); :class:`Unread` for a number the board
    decides ("up to X", "each of up to X", "up to that many", "up to one hundred") or one this reader
    does not read before "target"."""
    q = (m.group("q") or "").lower()
    before = re.findall(r"[\w'/+-]+", text[: m.start()].lower())
    if not q and before and (before[-1] in _AMOUNTS or before[-1].isdigit() or before[-2:] == ["up", "to"]):
        said = " ".join(before[-3:])
        raise Unread(f"a number of targets the board decides or this reader does not know: {said!r}", text)
    if m.group("upto") or m.group("each"):
        top = _count(m.group("upto") or m.group("each"))
        if top is None:
            raise Unread("up to X targets: the number is the board's (give max)", text)
        return 0, top
    if m.group("exact"):
        n = _count(m.group("exact"))
        return (n, n) if n is not None else (1, 1)
    return next((r for k, r in _RANGES.items() if q.startswith(k)), (1, 1))


def _requirement(card: Card, text: str, m: re.Match[str], n: int, condition: str = "") -> dict[str, Any]:
    req: dict[str, Any] = {"id": f"t{n}" if n > 1 else "t"}
    q = (m.group("q") or "").lower()
    low, high = _quantity(m, text)
    if (low, high) != (1, 1):
        req["min"] = low
        req["max"] = None if high == -1 else high
    if m.group("another") and m.group("another").lower().strip() == "other" and n > 1:
        # 115.3: "target X … other target Y" — other than the targets named before it, not the source
        req["different_from"] = ["t"] + [f"t{k}" for k in range(2, n)]
    elif m.group("another"):
        req["other_than_source"] = True
    rest = text[m.end() :]
    before_words = re.findall(r"[\w'/+-]+", text[: m.start()].lower())
    if (before_words[-1:] == ["any"] and not q) or (
        m.group("plural") and re.match(r"\s*(?:[.,;]|$|and\b|instead\b)", rest)
    ):
        req["filter"] = "any-target"  # "any target", "among one, two, or three targets"
        words = re.findall(r"[A-Za-z'/+-]+|\d+|[.,;:]", rest)
        after = [w.lower() for w in words]
        if after[:2] == ["that", "isn't"] and len(words) > 3 and after[2] in ("a", "an") and words[3][:1].isupper():
            # 115.4: "any target that isn't a Dragon" — a player, or a creature, planeswalker or battle that isn't
            objects = {"type": ["creature", "planeswalker", "battle"], "not": {"subtype": after[3]}}
            req["filter"] = {"any": [{"kind": "player"}, objects]}
            words, after = words[4:], after[4:]
        if after and not _ends(after, 0, False):  # "any target that isn't a commander": not guessed
            raise Unread(f"words after a target phrase this reader does not know: {' '.join(after[:3])!r}", text)
        _record(m.group(0), [], [], (0, _ends(after, 0, False)) if after else None)
        req["text"] = f"any {m.group(0).strip()}" if before_words[-1:] == ["any"] else m.group(0).strip()
    else:
        phrase, filt, flags = _noun_phrase(card, rest, m.group(0), (condition, text[: m.start()]))
        req["filter"] = filt
        req.update(flags)
        req["text"] = f"{m.group(0)} {phrase}".strip()
    _divided(req, text[: m.start()].lower(), text, bool(m.group("upto")))
    return req


def _divided(req: dict[str, Any], before: str, text: str, up_to: bool) -> None:
    """601.2d: an amount divided among the targets — read when it is a number, refused when the board
    decides it ("X damage", "that much damage", "damage equal to its power")."""
    divided = re.search(
        r"(\d+|x) (?:damage|\+1/\+1 counters?|-1/-1 counters?)\s+divided (?:as you choose )?among\s*$", before
    )
    if divided is None:
        divided = re.search(r"distribute (\w+) [^.]*?among\s*$", before)
    if divided is None:
        other = re.search(r"([^.,]*?)\s*\b(?:divided|distribute)\b[^.]*?among\s*$", before)
        if other:
            said = " ".join(other.group(1).split()[-4:])
            raise Unread(f"an amount divided that the board decides: {said!r}", text)
        return
    amount = _count(divided.group(1))
    if amount is None:
        raise Unread("an amount X divided: the number is the board's (give divide)", text)
    if up_to:
        # "divided among up to N targets": zero targets divide nothing; the format's divide needs one
        raise Unread("an amount divided among up to N targets: with none chosen nothing is divided", text)
    req["divide"] = amount
    # 601.2d: an amount divided gives each target at least 1, so there is at least one target
    # and at most the amount of them ("among any number of targets": one to five for 5 damage)
    if req.get("min", 1) < 1:
        req["min"] = 1
    if "max" in req and (req["max"] is None or req["max"] > amount):
        req["max"] = amount


@dataclass(frozen=True)
class Account:
    """How one target phrase was read: the words after "target", each span (start, end, rule) of
    them a rule consumed, and the span of the words that end it (``None`` at the end of the text)."""

    head: str  # the quantity and "target" ("up to two other target")
    words: tuple[str, ...]
    spans: tuple[tuple[int, int, str], ...]
    end: tuple[int, int] | None

    def gap(self) -> tuple[str, ...] | None:
        """The words from the first that no rule consumed up to the word that ends the phrase (a
        span out of order or consumed by no named rule counts as none); None: every word accounted for."""
        at = 0
        for start, end, rule in sorted(self.spans):
            if start != at or end <= start or not rule:
                return self.words[at:]
            at = end
        stop = self.end[0] if self.end else len(self.words)
        return self.words[at:stop] if at != stop else None


_RECORD: list[Account] | None = None


@contextmanager
def recording() -> Iterator[list[Account]]:
    """Every target phrase read while the block runs, as an :class:`Account` (for tests)."""
    global _RECORD
    saved, _RECORD = _RECORD, []
    try:
        yield _RECORD
    finally:
        _RECORD = saved


def _record(head: str, words: list[str], spans: list[tuple[int, int, str]], end: tuple[int, int] | None) -> None:
    if _RECORD is not None:
        _RECORD.append(Account(head, tuple(words), tuple(spans), end))


def _noun_phrase(
    card: Card, rest: str, head: str = "target", event: tuple[str, str] = ("", "")
) -> tuple[str, Any, dict[str, Any]]:
    """The filter of the words after "target", and the words it read; :class:`Unread` when they
    are not a phrase this reader knows. ``event``: the trigger condition and the effect before the
    target, which decide whether "that player" is the event's (model/cards/_event.py)."""
    phrase = _TargetPhrase(re.findall(r"[A-Za-z'/+-]+|\d+|[.,;:]", rest), head + " " + rest.strip())
    phrase.event = event
    while phrase.pos < len(phrase.words) and phrase.read_word():
        pass
    if not phrase.alternatives:
        raise Unread("a target phrase without a noun this reader knows", phrase.said)
    return phrase.finish(card, head)


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
        self.spans: list[tuple[int, int, str]] = []  # (start, end, rule): every word read, by what
        self.listed = False
        self.event = ("", "")  # the trigger condition, the effect before the target

    def take(self, k: int, rule: str) -> None:
        """Consume ``k`` words for ``rule``."""
        self.spans.append((self.pos, self.pos + k, rule))
        self.pos += k

    def peek(self, k: int = 0) -> str:
        """The word ``k`` after the current one, lower case ("" past the end)."""
        return self.words[self.pos + k].lower() if self.pos + k < len(self.words) else ""

    def read_word(self) -> bool:
        """Read the current word (and any it takes with it); whether the alternatives go on."""
        w = self.peek()
        if w in ("or", ",", "and/or") and self.alternatives:
            self.take(1, "or")
            return True
        if w in ("or", ",") and self.joins():  # "Elf or Tyvar card", "red, white, or black creature": any of them
            self.take(2 if (w, self.peek(1)) == (",", "or") else 1, "or")
            return True
        if w in ("token", "tokens") and not (_noun(self.peek(1)) or self.peek(1) in _STARTS):
            self.adjectives.setdefault("tag", []).append("token")  # "target Incubator token you control" (111.1)
            self.alternatives.append(_take(self.adjectives))
            self.take(1, "noun")
            return self.more()
        nxt = self.words[self.pos + 2] if self.pos + 2 < len(self.words) else ""
        mixed = w in _SUPERTYPES and self.peek(1) == "or" and nxt[:1].isupper() and nxt.isalpha()
        if mixed and _noun(nxt.lower()) is None and "any" not in self.adjectives:
            self.adjectives["any"] = [{"supertype": w}, {"subtype": nxt.lower()}]  # "legendary or Rat card" (205.4)
            self.take(3, "adjective")
            return True
        if w in _STATES and self.peek(1) == "or" and self.peek(2) in _STATES and "any" not in self.adjectives:
            self.adjectives["any"] = [{"tag": w}, {"tag": self.peek(2)}]  # "attacking or blocking": either (506.4)
            self.take(3, "adjective")
            return True
        if self.adjective(w):
            self.take(1, "adjective")
            return True
        either = (w, self.peek(1), self.peek(2)) == ("activated", "or", "triggered")
        if either and self.peek(3) in ("ability", "abilities"):
            shared = _take(self.adjectives)  # "target activated or triggered ability": either kind
            kinds = ("activated", "triggered")
            self.alternatives += [{"kind": "ability", "ability_kind": k, **shared} for k in kinds]
            self.take(4, "noun")
            return self.more()
        if w in ("activated", "triggered") and self.peek(1) in ("ability", "abilities"):
            self.alternatives.append({"kind": "ability", "ability_kind": w, **_take(self.adjectives)})
            self.take(2, "noun")
            return self.more()
        if w in ("ability", "abilities"):
            self.alternatives.append({"kind": "ability", **_take(self.adjectives)})
            self.take(1, "noun")
            return self.more()  # "target spell or ability to this creature"
        elif w == "," and not self.alternatives and (self.peek(1) in _STARTS or self.peek(1).startswith("non")):
            self.take(1, "adjective")  # "noncreature, nonland permanent"
            return True
        elif _noun(w.removesuffix("'s")) is not None:
            return self.noun(w)
        elif self.words[self.pos][:1].isupper() and w.replace("-", "").isalpha() and w not in ("you", "an", "a", "the"):
            return self.subtype(w)
        else:
            raise Unread(f"a word this reader does not know in a target phrase: {self.words[self.pos]!r}", self.said)
        self.take(1, "noun")
        return True

    def joins(self) -> bool:
        """Whether the "or" (or ",") here joins two adjectives of one kind, either of which the noun
        may have: colors ("red, white, or black"), subtypes ("Elf or Tyvar") — 105.1, 205.3."""
        before = self.words[self.pos - 1] if self.pos else ""
        k = 2 if (self.peek(), self.peek(1)) == (",", "or") else 1
        after = self.words[self.pos + k] if self.pos + k < len(self.words) else ""
        if before.lower() in _COLORS and after.lower() in _COLORS:
            return "color" in self.adjectives
        return (
            self.peek() == "or"
            and before.lower() in self.adjectives.get("subtype", ())
            and after[:1].isupper()
            and after.replace("-", "").isalpha()
            and after not in _CLAUSE_WORDS
            and _noun(after.lower()) is None
            and after.lower() not in _STARTS
        )

    def adjective(self, w: str) -> bool:
        """Note ``w`` if it is an adjective ("red", "legendary", "tapped", "nonland" …)."""
        if w in _COLORS:
            self.adjectives.setdefault("color", []).append(w)
        elif w == "colorless":
            self.adjectives["colorless"] = True
        elif w == "historic" and "any" not in self.adjectives:  # 700.6: artifacts, legendaries and Sagas
            self.adjectives["any"] = [{"type": "artifact"}, {"supertype": "legendary"}, {"subtype": "saga"}]
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
            self.take(1, "noun")
            possessive = self.peek().endswith("'s")
            base = _noun(self.peek().removesuffix("'s")) or {}
        if self.peek(1) in ("card", "cards", "spell", "spells", "permanent", "permanents") and not possessive:
            if base == {"kind": "permanent"} and self.peek(1).startswith("card"):
                base = {"type": list(_PERMANENT_TYPES)}  # "permanent card": a card of a permanent type (110.4)
            base = {**base, **(_noun(self.peek(1)) or {})}
            self.take(1, "noun")
        if both:
            base = {**base, "all": both}
        if not possessive and self.peek(1) in ("token", "tokens"):  # "artifact token", "creature tokens" (111.1)
            self.adjectives.setdefault("tag", []).append("token")
            self.take(1, "noun")
        self.alternatives.append({**base, **_take(self.adjectives)})
        self.take(1, "noun")
        if possessive:  # what of theirs: "hand", "graveyard", "power", "life total" …
            k = 2 if (self.peek(), self.peek(1)) == ("life", "total") else 1 if self.peek() in _POSSESSED else 0
            if not k:
                raise Unread(f"a word this reader does not know after a possessive: {self.peek()!r}", self.said)
            self.take(k, "possessed")
            return False
        return self.more()

    def subtype(self, w: str) -> bool:
        """Read the capitalized word ``w`` as a subtype: an adjective before a noun, or the noun
        itself ("target Equipment"); whether the alternatives go on."""
        self.adjectives.setdefault("subtype", []).append(w)
        following = self.peek(1).removesuffix("s")
        after = self.words[self.pos + 1 : self.pos + 2]
        self.take(1, "subtype")
        if _noun(following) or following in _STARTS or (after and after[0][:1].isupper()):
            return True  # an adjective: its noun follows
        self.alternatives.append(_take(self.adjectives))  # "target Equipment", "target Elf or Tyvar card"
        return self.more()

    def more(self) -> bool:
        """Whether another alternative follows: "or X", ", X" where X begins a noun phrase, or a
        capitalized subtype in a list ("target Vampire, Werewolf, or Zombie")."""
        nxt = self.words[self.pos + 1] if self.pos + 1 < len(self.words) else ""
        if self.peek() == "," and nxt[:1].isupper() and nxt.replace("-", "").isalpha() and nxt not in _CLAUSE_WORDS:
            self.listed = True  # "target attacking Cleric, Rogue, Warrior, or Wizard": "attacking" is every one's
            return any(w in ("or", "and/or") for w in self.words[self.pos : self.pos + 8])
        return _more(self.peek(), self.peek(1))

    def finish(self, card: Card, head: str) -> tuple[str, Any, dict[str, Any]]:
        """The words read, the filter of the alternatives with what qualifies them all, and the
        requirement's flags ("another"); :class:`Unread` when a word follows that does not end it."""
        words = self.words
        qualifiers, spans = _qualifiers(words[self.pos :], card, self.said, self.event)
        self.spans += [(self.pos + i, self.pos + j, rule) for i, j, rule in spans]
        pos = self.pos + (spans[-1][1] if spans else 0)
        players = all(a.get("kind") == "player" for a in self.alternatives)
        end = _ends([w.lower() for w in words], pos, players) if pos < len(words) else 0
        if pos < len(words) and not end:
            tail = " ".join(words[pos : pos + 3])
            raise Unread(f"words after a target phrase this reader does not know: {tail!r}", self.said)
        _record(head, words, self.spans, (pos, pos + end) if end else None)
        shared = {**_take(self.adjectives), **qualifiers}
        flags = {"other_than_source": True} if shared.pop("_other", False) else {}
        nots = self.nots + shared.pop("_nots", [])
        if shared.pop("_not_you", False):
            nots.append({"controller": "you"})
        last = self.alternatives[-1]  # "instant or sorcery card": the last noun's kind is every one's,
        if last.get("kind") in ("card", "spell") and ("type" in last or "subtype" in last):  # not "creature or spell"
            for a in self.alternatives:
                if "kind" not in a and ("type" in a or "subtype" in a):
                    a["kind"] = last["kind"]
        if self.listed:
            shared.update({k: v for k, v in self.alternatives[0].items() if k in ("tag", "color", "supertype")})
        filters = [{**a, **{k: v for k, v in shared.items() if k not in a}} for a in self.alternatives]
        if nots:
            filters = [{**f, "not": nots[0] if len(nots) == 1 else {"any": nots}} for f in filters]
        phrase = re.sub(r" ([,.;:])", r"\1", " ".join(words[:pos]))
        return phrase, filters[0] if len(filters) == 1 else {"any": filters}, flags


_POSSESSED = frozenset({"hand", "graveyard", "library", "power", "toughness", "controller", "owner", "life", "control"})
_CLAUSE_WORDS = frozenset({"Then", "If", "Otherwise", "When", "Whenever", "Until", "You", "It", "Its", "That", "This"})
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
    if w == "," and nxt in ("or", "and/or"):  # "target instant, sorcery, and/or Tamiyo planeswalker cards"
        return True
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


def _refused(low: list[str], words: list[str], said: str) -> None:
    """Qualifiers this reader knows it cannot give: a target another player chooses (700.2e), a
    graveyard whose owner the event or another target decides ("their graveyard")."""
    if low[:3] == ["of", "their", "choice"]:
        raise Unread("a target another player chooses (700.2e): 'of their choice'", said)
    if (
        len(low) > 2
        and low[0] in ("in", "from")
        and low[2] in ("graveyard", "graveyards")
        and low[1] not in ("a", "your")
    ):
        raise Unread(f"a graveyard whose owner the board decides: {' '.join(words[:3])!r}", said)


def _qualifiers(
    words: list[str], card: Card, said: str, event: tuple[str, str] = ("", "")
) -> tuple[dict[str, Any], list[tuple[int, int, str]]]:
    """``you control``, ``an opponent controls``, ``you don't control``, ``in a graveyard``, ``from
    your graveyard``, ``with power 2 or less``, ``that isn't a God`` … after the noun, with the span
    of words each took."""
    out: dict[str, Any] = {}
    spans: list[tuple[int, int, str]] = []
    i = 0
    low = [w.lower() for w in words]

    def at(*seq: str) -> bool:
        return tuple(low[i : i + len(seq)]) == seq

    while i < len(low):
        start = i
        _refused(low[i:], words[i:], said)
        if (named := event_qualifier(low, i)) is not None:  # "that player controls" (603.2)
            refusal = event_refusal(named[2], *event)
            if refusal is not None:
                raise Unread(f"a player the event may not name: {refusal}", said)
            out.update(named[0])
            i += named[1]
        elif at("that", "isn't") and i + 3 < len(low) and low[i + 2] in ("a", "an") and words[i + 3][:1].isupper():
            out.setdefault("_nots", []).append({"subtype": low[i + 3]})  # "that isn't a God"
            i += 4
        elif at("you", "control"):
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
        elif taken := zone_or_counter(low, i, out):
            i += taken
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
        spans.append((start, i, "qualifier"))
    if out.pop("not_controller", None):
        out["_not_you"] = True
    return out, spans
