"""The target phrase of a triggered ability read word by word (601.2c): its number, what it
names (types, kinds, qualities, controller, zone) and where it ends. Every word of a phrase is
accounted for by a rule of this reader, and the word after it must be one that ends a phrase;
anything else is refused (:class:`Unread` names the word), never guessed."""

from __future__ import annotations

import re
from itertools import pairwise
from typing import Any

from .._text import typed
from ._board import has_each
from ._corpus import Card
from ._ends import ends as _ends
from ._event import NO_CONTEXT, Context
from ._other import relate
from ._qualifiers import _qualifiers, cause
from ._quantity import _divided, _quantity
from ._states import adjective_tag
from ._subtypes import subtypes_at
from ._unread import Unread
from ._words import _COLORS, _DESIGNATED, _GROUPS, _PERMANENT_TYPES, _STATES, _SUPERTYPES, _TYPES, _non, _noun


def _requirement(
    card: Card, text: str, m: re.Match[str], earlier: list[dict[str, Any]], condition: str = ""
) -> dict[str, Any]:
    """The requirement of the "target" ``m`` matched in ``text``, after the ``earlier`` ones of the sentence."""
    n = len(earlier) + 1
    req: dict[str, Any] = {"id": f"t{n}" if n > 1 else "t"}
    q = (m.group("q") or "").lower()
    low, high = _quantity(m, text)
    if (low, high) != (1, 1):
        req["min"] = low
        req["max"] = None if high == -1 else high
    rest = text[m.end() :]
    before_words = re.findall(r"[\w'/+-]+", text[: m.start()].lower())
    second = ["second"] if before_words[-2:] == ["a", "second"] else []  # "a second target X" (115.3)
    word = (m.group("another") or "").lower().split()[-1:] or second
    if (before_words[-1:] == ["any"] and not q) or (
        m.group("plural") and re.match(r"\s*(?:[.,;]|$|and\b|instead\b)", rest)
    ):
        req["filter"] = "any-target"  # "any target", "among one, two, or three targets"
        words = re.findall(r"[A-Za-z'/+-]+|\d+|[.,;:]", rest)
        after = [w.lower() for w in words]
        isnt = after[:2] == ["that", "isn't"] and len(words) > 3 and after[2] in ("a", "an")
        if isnt and (words[3][:1].isupper() or after[3] == "commander"):
            # 115.4: "any target that isn't a Dragon" — a player, or a creature, planeswalker or battle that
            # isn't; "… a commander" (903.3, a tag: no player is one)
            isnt_a = {"tag": "commander"} if after[3] == "commander" else {"subtype": after[3]}
            objects = {"type": ["creature", "planeswalker", "battle"], "not": isnt_a}
            req["filter"] = {"any": [{"kind": "player"}, objects]}
            words, after = words[4:], after[4:]
        if after[:1] == ["of"] and "choice" in after[:5]:  # "any target of an opponent's choice"
            raise Unread(f"a target another player chooses (700.2e): {typed(' '.join(words[:4]))}", text)
        if after and not _ends(after, 0, False):  # "any target that isn't a commander": not guessed
            raise Unread(cause(words), text)
        _record(m.group(0), [], [], (0, _ends(after, 0, False)) if after else None)
        req["text"] = f"any {m.group(0).strip()}" if before_words[-1:] == ["any"] else m.group(0).strip()
    else:
        players = tuple(
            e["id"] for e in earlier if isinstance(e["filter"], dict) and e["filter"].get("kind") == "player"
        )
        context = Context(condition, text[: m.start()], players)  # who "that player" may be
        phrase, filt, flags = _noun_phrase(card, rest, m.group(0), context)
        who = has_each(filt)
        if who is not None and low != 0:  # the Primordials' ruling: a player with nothing to target gets no target
            raise Unread(
                f"a target required for each {who} ('{m.group(0).strip()} … that player'): one with nothing to "
                "target gets none, an 'if able' a requirement's min cannot say (601.2c)",
                text,
            )
        req["filter"] = filt
        req.update(flags)
        req["text"] = f"{m.group(0)} {phrase}".strip()
    relate(card, req, earlier, "".join(word), text[: m.start()], condition)
    _divided(req, text[: m.start()].lower(), text, bool(m.group("upto")), text[m.end() :].lower())
    return req


Span = tuple[int, int, str]
RECORD: list[tuple[str, tuple[str, ...], tuple[Span, ...], tuple[int, int] | None]] | None = None
"""While a list is set here (by tests/phrases.py ``recording``, for the suite and the coverage
benchmark), every target phrase read is added to it: its head (the quantity and "target"), the
words after it, each span (start, end, rule) of them a rule consumed, and the span of the words
that end it (``None`` at the end of the text)."""


def _record(head: str, words: list[str], spans: list[Span], end: tuple[int, int] | None) -> None:
    if RECORD is not None:
        RECORD.append((head, tuple(words), tuple(spans), end))


def _noun_phrase(
    card: Card, rest: str, head: str = "target", context: Context = NO_CONTEXT
) -> tuple[str, Any, dict[str, Any]]:
    """The filter of the words after "target", and the words it read; :class:`Unread` when they
    are not a phrase this reader knows. ``context``: the trigger condition, the effect before the
    target and the earlier target players, which decide who "that player" is (model/cards/_event.py)."""
    phrase = _TargetPhrase(re.findall(r"[A-Za-z'/+-]+|\d+|[.,;:]", rest), head + " " + rest.strip())
    phrase.context = context
    while phrase.pos < len(phrase.words) and phrase.read_word():
        pass
    if not phrase.alternatives:
        raise Unread("a target phrase without a noun this reader knows", phrase.said)
    return phrase.finish(card, head)


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
        self.spans: list[Span] = []  # (start, end, rule): every word read, by what
        self.shared_nots = 0  # how many of ``nots`` came before the first noun
        self.leading: dict[str, Any] = {}  # the adjectives before the first noun: every alternative's
        self.own_nots: list[list[dict[str, Any]]] = []  # each alternative's own "non…" (after an "or")
        self.state_first = False  # a state word before the first noun ("equipped", "enchanted")
        self.context = NO_CONTEXT  # the trigger condition, the effect before the target, the target players

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
        if w in ("or", ",", "and/or") and self.joins():  # "Elf or Tyvar card", "red, white, or black": any
            self.take(2 if (w, self.peek(1)) == (",", "or") else 1, "or")
            return True
        if w in _DESIGNATED and not (_noun(self.peek(1)) or self.peek(1) in _STARTS):
            self.adjectives.setdefault("tag", []).append(_DESIGNATED[w])  # "target Incubator token" (111.1)
            self.add({})
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
            self.add({"kind": "ability", "ability_kind": "activated"})  # "activated or triggered ability": either
            self.add({"kind": "ability", "ability_kind": "triggered"})
            self.take(4, "noun")
            return self.more()
        if w in ("activated", "triggered") and self.peek(1) in ("ability", "abilities"):
            self.add({"kind": "ability", "ability_kind": w})
            self.take(2, "noun")
            return self.more()
        if w in ("ability", "abilities"):
            self.add({"kind": "ability"})
            self.take(1, "noun")
            return self.more()  # "target spell or ability to this creature"
        elif w == "," and not self.alternatives and (self.peek(1) in _STARTS or self.peek(1).startswith("non")):
            self.take(1, "adjective")  # "noncreature, nonland permanent"
            return True
        elif w.endswith("s'") and _noun(w[:-1]) == {"kind": "player"}:  # "any number of target players' graveyards"
            self.add({"kind": "player"})
            self.take(1, "noun")
            k = 1 if self.peek() in _POSSESSED | {"graveyards", "hands", "libraries"} else 0
            if not k:
                raise Unread(f"a word this reader does not know after a possessive: {typed(self.peek())}", self.said)
            self.take(k, "possessed")
            return False
        elif _noun(w.removesuffix("'s")) is not None:
            return self.noun(w)
        elif self.words[self.pos][:1].isupper() and w.replace("-", "").isalpha() and w not in ("you", "an", "a", "the"):
            return self.subtype()
        else:
            word = typed(self.words[self.pos])
            raise Unread(f"a word this reader does not know in a target phrase: {word}", self.said)
        self.take(1, "noun")
        return True

    def add(self, base: dict[str, Any]) -> None:
        """A new alternative: ``base`` with the adjectives waiting for it. The first alternative's
        adjectives are every alternative's ("tapped creature or Vehicle", "red instant or sorcery
        card": 601.2c reads the phrase whole), as are its "non…" words; a later one's are its own
        ("artifact or nonblack creature": only the creature is nonblack)."""
        own = _take(self.adjectives)
        if own.pop("_state", False) and not self.alternatives:
            self.state_first = True  # "target enchanted creature or enchantment creature": whose is unread
        if not self.alternatives:
            self.leading = {k: v for k, v in own.items() if k in _LEADING}
            self.own_nots.append([])
        else:
            self.own_nots.append(self.nots[self.shared_nots :])
            del self.nots[self.shared_nots :]
        self.alternatives.append(_merge(base, own))
        if len(self.alternatives) == 1:
            self.shared_nots = len(self.nots)

    def joins(self) -> bool:
        """Whether the "or" (or ",") here joins two adjectives of one kind, either of which the noun
        may have: colors ("red, white, or black"), subtypes ("Elf or Tyvar") — 105.1, 205.3."""
        before = self.words[self.pos - 1] if self.pos else ""
        k = 2 if (self.peek(), self.peek(1)) == (",", "or") else 1
        after = self.words[self.pos + k] if self.pos + k < len(self.words) else ""
        if before.lower() in _COLORS and after.lower() in _COLORS:
            return "color" in self.adjectives
        return (
            self.peek() in ("or", "and/or")
            and bool(self.adjectives.get("subtype"))
            and before[:1].isupper()
            and after not in _CLAUSE_WORDS
            and subtypes_at(self.words, self.pos + k) is not None
            and _noun(after.lower()) is None
            and after.lower() not in _STARTS
        )

    def adjective(self, w: str) -> bool:
        """Note ``w`` if it is an adjective ("red", "legendary", "tapped", "nonland" …)."""
        if w in _COLORS:
            self.adjectives.setdefault("color", []).append(w)
        elif w == "colorless":
            self.adjectives["colorless"] = True
        elif w in _GROUPS and "any" not in self.adjectives:  # "historic" (700.6), "outlaw"
            self.adjectives["any"] = list(_GROUPS[w])
        elif w in _SUPERTYPES:
            self.adjectives["supertype"] = w
        elif w in _STATES:
            self.adjectives.setdefault("tag", []).append(w)
        elif w == "untapped":
            self.nots.append({"tag": "tapped"})
        elif adjective_tag(w) is not None:  # "target attacking equipped creature" (301.5, 303.4)
            self.adjectives.setdefault("tag", []).append(adjective_tag(w))
            self.adjectives["_state"] = True
        elif w == "face-up":  # 406.3, 708.2: a face-down card or permanent is carried as the tag "face down"
            self.nots.append({"tag": "face down"})
        elif w == "exiled" and "zone" not in self.adjectives:  # "target exiled card" (406)
            self.adjectives["zone"] = "exile"
        elif w == "suspended" and "zone" not in self.adjectives:  # 702.62b: in exile, with suspend and a time counter
            self.adjectives.update(zone="exile", counter="time")
            self.adjectives.setdefault("tag", []).append("suspend")
        elif w in ("token", "commander"):  # "token creature" (111.1), "commander creature" (903.3)
            self.adjectives.setdefault("tag", []).append(w)
        elif w.startswith("non") and len(w) > 4:
            self.nots.append(_non(w, self.said))
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
        self.add(base)
        self.take(1, "noun")
        if possessive:  # what of theirs: "hand", "graveyard", "power", "life total", "mana value" …
            k = next(
                (
                    len(run)
                    for run in _POSSESSED_RUNS
                    if tuple(map(str.lower, self.words[self.pos : self.pos + len(run)])) == run
                ),
                0,
            )
            k = k or (1 if self.peek() in _POSSESSED else 0)
            if not k:
                raise Unread(f"a word this reader does not know after a possessive: {typed(self.peek())}", self.said)
            self.take(k, "possessed")
            return False
        return self.more()

    def subtype(self) -> bool:
        """Read the subtypes from the capitalized word here ("Equipment", "Sagas", "Time Lord", "Elf
        Warrior": both, 205.3): an adjective before a noun, or the noun itself ("target Equipment");
        whether the alternatives go on. A capitalized word that is no subtype is refused."""
        found = subtypes_at(self.words, self.pos)
        if found is None:
            raise Unread(f"a capitalized word that is no subtype (205.3): {typed(self.words[self.pos])}", self.said)
        names, k, plural = found
        if len(names) == 1:
            self.adjectives.setdefault("subtype", []).append(names[0])
        else:
            self.adjectives.setdefault("all", []).extend({"subtype": n} for n in names)
        self.take(k, "subtype")
        following = self.peek().removesuffix("s")
        either = following in ("or", "and/or") and subtypes_at(self.words, self.pos + 1) is None
        if not plural and not either and (_noun(following) or following in _STARTS):
            return True  # an adjective: its noun follows ("Elf or Tyvar card": joined, 205.3)
        self.add({})  # "target Equipment", "target Sagas", "target Human or artifact": a subtype's own
        return self.more()

    def more(self) -> bool:
        """Whether another alternative follows: "or X", ", X" where X begins a noun phrase, or a
        capitalized subtype in a list ("target Vampire, Werewolf, or Zombie")."""
        nxt = self.words[self.pos + 1] if self.pos + 1 < len(self.words) else ""
        if self.peek() == "," and nxt[:1].isupper() and nxt.replace("-", "").isalpha() and nxt not in _CLAUSE_WORDS:
            return any(w in ("or", "and/or") for w in self.words[self.pos : self.pos + 8])
        return _more(self.peek(), self.peek(1), self.peek(2))

    def one_noun(self, first: int, stop: int) -> bool:
        """Whether the alternatives ``first:stop`` are one noun, whose quality ("with flying") is all
        of theirs: a single one, or types sharing the last one's noun ("instant or sorcery card with a
        cycling ability"); not a list of nouns ("artifact, enchantment, or creature with flying")."""
        if stop - first == 1:
            return True
        shared = all("kind" not in a for a in self.alternatives[first : stop - 1])
        return shared and self.alternatives[stop - 1].get("kind") in ("card", "spell")

    def finish(self, card: Card, head: str) -> tuple[str, Any, dict[str, Any]]:
        """The words read, the filter of the alternatives with what qualifies them, and the
        requirement's flags ("another"); :class:`Unread` when a word follows that does not end it.
        A qualifier qualifies the alternatives of its group: "target opponent, creature an opponent
        controls, or planeswalker an opponent controls" is three alternatives in two groups."""
        words = self.words
        groups: list[tuple[int, dict[str, Any]]] = []  # (the group's first alternative, its qualifiers)
        start = 0
        while True:
            qualifiers, spans = _qualifiers(words[self.pos :], card, self.said, self.context)
            self.spans += [(self.pos + i, self.pos + j, rule) for i, j, rule in spans]
            self.pos += spans[-1][1] if spans else 0
            groups.append((start, qualifiers))
            k = 2 if (self.peek(), self.peek(1)) in ((",", "or"), (",", "and/or")) else 1
            listed = {"or", "and/or"} & {w.lower() for w in words[self.pos : self.pos + 8]}
            joined = self.peek() in (",", "or", "and/or")  # "creatures from the battlefield and/or creature cards …"
            if not (spans and joined and listed and _more(self.peek(k - 1), self.peek(k))):
                break
            if len(self.alternatives) - 1 > start:  # "target player, creature you control, or …": the
                groups[-1:] = [(start, {}), (len(self.alternatives) - 1, qualifiers)]  # qualifier is the creature's
            start = len(self.alternatives)
            self.take(k, "or")
            while self.pos < len(words) and self.read_word():
                pass
            if len(self.alternatives) == start:
                raise Unread("a list after a qualifier without a noun this reader knows", self.said)
        if self.state_first and len(self.alternatives) > 1:
            raise Unread(
                "a state before a list of nouns ('enchanted creature or …'): whose it is is not read", self.said
            )
        pos = self.pos
        players = all(a.get("kind") == "player" for a in self.alternatives)
        end = _ends([w.lower() for w in words], pos, players) if pos < len(words) else 0
        if pos < len(words) and not end:
            raise Unread(cause(words[pos:]), self.said)
        _record(head, words, self.spans, (pos, pos + end) if end else None)
        pending = _take(self.adjectives)
        flags: dict[str, Any] = {}
        qualified: list[tuple[dict[str, Any], list[dict[str, Any]]]] = []  # each group's (shared, nots)
        bounds = [first for first, _ in groups] + [len(self.alternatives)]
        for (first, qualifiers), stop in zip(groups, bounds[1:], strict=True):
            if qualifiers.pop("_keyword", False) and not self.one_noun(first, stop):
                raise Unread("a keyword quality after a list: whose it is is not read", self.said)
            shared = {**pending, **qualifiers}
            if shared.pop("_other", False):
                flags["other_than_source"] = True
            if shared.pop("_chooser", False):
                flags["_chooser"] = True  # the ability's, lifted by the reader (model/cards/_reader.py)
            nots = self.nots + shared.pop("_nots", [])  # the "non…" before the first noun, and the qualifiers'
            if shared.pop("_not_you", False):
                nots.append({"controller": "you"})
            qualified.append((shared, nots))
        for a in self.alternatives[1:]:  # "tapped creature or Vehicle": the Vehicle is tapped too
            if a.get("kind") != "player":  # a player has no color, tag or supertype
                a.update({k: v for k, v in self.leading.items() if k not in a})
        for first, stop in pairwise(bounds):  # "instant or sorcery card": the last noun's
            last = self.alternatives[stop - 1]  # kind is every one's of its group, not "creature or spell"
            if last.get("kind") in ("card", "spell") and ("type" in last or "subtype" in last):
                for a in self.alternatives[first:stop]:
                    if "kind" not in a and ("type" in a or "subtype" in a):
                        a["kind"] = last["kind"]
        filters = []
        for n, (a, own) in enumerate(zip(self.alternatives, self.own_nots, strict=True)):
            shared, nots = qualified[max(g for g, (first, _) in enumerate(groups) if first <= n)]
            tags = shared.get("_tags")
            f = {**a, **{k: v for k, v in shared.items() if k not in a and not k.startswith("_")}}
            if shared.get("_battlefield") and (a.get("kind") not in (None, "permanent") or "zone" in f):
                raise Unread("'on the battlefield' after a noun that is no permanent (110.1)", self.said)
            if shared.get("_all"):  # "with power or toughness 1", "with mana value 2 or 3": each must hold
                f["all"] = [*f.get("all", []), *shared["_all"]]
            if tags:  # "attacking creature with flying": both tags (a filter's tags are all required)
                have = f.get("tag", [])
                f["tag"] = _one([*(have if isinstance(have, list) else [have]), *tags])
            if nots + own:
                f["not"] = (nots + own)[0] if len(nots + own) == 1 else {"any": nots + own}
            filters.append(f)
        phrase = re.sub(r" ([,.;:])", r"\1", " ".join(words[:pos]))
        phrase = re.sub(r"([+-]) (\d+) /([+-]) (\d+)", r"\1\2/\3\4", phrase)  # "+1/+1" as the text says it
        return phrase, filters[0] if len(filters) == 1 else {"any": filters}, flags


_POSSESSED = frozenset({"hand", "graveyard", "library", "power", "toughness", "controller", "owner", "life", "control"})
_POSSESSED_RUNS = (  # the longest first: "target creature's base power and toughness"
    ("base", "power", "and", "toughness"),
    ("power", "and", "toughness"),
    ("base", "power"),
    ("base", "toughness"),
    ("mana", "value"),  # 202.3
    ("life", "total"),
)
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
        "and/or",
    }
)


_NOT_NOUNS = frozenset(
    {"more", "less", "greater", "fewer", "its", "their", "that", "it", "until", "a", "an", "the", "up", "target"}
    | {"any", "each", "another", "other"}
)


def _more(w: str, nxt: str, third: str = "") -> bool:
    """Whether another alternative follows: "or X", ", X" where X begins a noun phrase."""
    if w not in ("or", ",", "and/or"):  # "target creatures and/or planeswalkers": either (Fury)
        return False
    if w == "," and nxt in ("or", "and/or"):  # "target instant, sorcery, and/or Tamiyo planeswalker cards",
        return not third or _more(nxt, third)  # not "target player, and/or up to one target planeswalker"
    return (
        nxt in _STARTS
        or (nxt.startswith("non") and len(nxt) > 4)
        or (w in ("or", "and/or") and nxt[:1].isalpha() and nxt not in _NOT_NOUNS)
    )


_LEADING = frozenset({"tag", "color", "colorless", "supertype", "any"})
"""What the adjectives before the first noun give every alternative ("tapped", "red", "legendary")."""


def _merge(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``base`` with ``own`` over it, their "all" lists joined ("artifact creature" and "Elf Warrior")."""
    both = [*base.get("all", []), *own.get("all", [])]
    return {**base, **own, **({"all": both} if both else {})}


def _one(values: list[Any]) -> Any:
    return values[0] if len(values) == 1 else values


def _take(adjectives: dict[str, Any]) -> dict[str, Any]:
    out = {k: (v[0] if isinstance(v, list) and len(v) == 1 else v) for k, v in adjectives.items()}
    adjectives.clear()
    return out
