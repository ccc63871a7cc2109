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
from copy import deepcopy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .._text import typed
from ._board import CHOOSER, X, reads_x, the_source_for_x
from ._corpus import Card
from ._keywords import CHAPTER, keyword_triggers
from ._ownership import modes_are_foreign, owned
from ._phrase import _requirement
from ._quantity import _QUANTITY
from ._unread import Unread

_ABILITY_WORD = r"[A-Z][\w' ,!?-]*? — "
"""An ability word and its dash before a trigger ("Landfall — ", "Exterminate! — "), 207.2c."""
_TRIGGER = re.compile(rf"^(?:{_ABILITY_WORD})?(When|Whenever|At)\b")
_EXERTED = re.compile(r"\bexert [^.]* as (?:it|he|she|they) attacks?\. (When you do, .*)$")
"""Exert's reflexive trigger (701.43, 603.12): "You may exert this creature as it attacks. When you do, …"
triggers as attackers are declared and waits like any other, with its own targets."""
_REMINDER = re.compile(r"\s*\([^()]*\)")


@dataclass
class Ability:
    """One triggered ability of a card: its text, and the trigger fragment read from it (``None``
    with ``unread`` when it was not understood)."""

    index: int
    text: str
    fragment: dict[str, Any] | None = None
    unread: Unread | None = None
    notes: list[str] = field(default_factory=list)

    def copy(self) -> Ability:
        """Another reading of the same ability, sharing nothing that can change."""
        return Ability(self.index, self.text, deepcopy(self.fragment), self.unread, list(self.notes))


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
        elif (exerted := _EXERTED.search(clean)) is not None:
            out.append(exerted.group(1))
        elif out and out[-1].startswith("\x00"):
            out[-1] = out[-1][1:]
    return [t.lstrip("\x00") for t in out]


def keyword_lines(card: Card) -> list[str]:
    """The lines that are only keywords (``Flying, hexproof``; ``Protection from red``; ``Ward {2}``)."""
    out = []
    for line in card.text.split("\n"):
        clean = _REMINDER.sub("", line).strip()
        if re.match(r"Ward\b", clean):  # its cost may hold commas: "Ward—{2}, Pay 2 life." (702.21a)
            out.append(clean)
            continue
        words = [w.strip() for w in re.split(r",\s*|;\s*", clean) if w.strip()]
        if words and all(_is_keyword(w, card) for w in words):
            out.extend(words)
    return out


def _is_keyword(word: str, card: Card) -> bool:
    lowered = word.casefold()
    known = {k.casefold() for k in card.keywords}
    head = lowered.split(" ")[0].split("—")[0]
    protection = lowered.startswith(("protection from", "hexproof from"))
    typecycling = lowered.startswith("basic landcycling ") and "basic landcycling" in known  # 702.29e
    return head in known or lowered in known or protection or typecycling or re.match(r"ward\b", lowered) is not None


def read(card: Card) -> list[Ability]:
    """Each triggered ability of ``card`` read (or not, with why): the caller's to change (read
    once per card, :data:`KEPT` cards kept, and copied)."""
    return [a.copy() for a in _read(card)]


KEPT = 8192
"""How many cards' readings :func:`read` keeps (a board generator asks for the same cards again
and again: reading one costs about 100 µs, copying its reading a few)."""


@lru_cache(maxsize=KEPT)
def _read(card: Card) -> tuple[Ability, ...]:
    out = []
    for n, text in enumerate(triggered_lines(card), 1):
        ability = Ability(n, text)
        try:
            ability.fragment = _ability(card, text, ability)
        except Unread as exc:
            ability.unread = exc
        out.append(ability)
    return tuple(out)


def _effect(text: str) -> tuple[str, str]:
    """(trigger condition, effect) of one ability: the condition runs to the first comma outside
    quotes that is followed by the effect."""
    first = text.split("\n")[0]
    chapter = CHAPTER.match(first)  # before an ability word's dash is taken off: "II, III — When…" is a chapter
    if chapter is not None:  # 714.2b: a lore counter reaching the chapter's number
        return f"chapter {chapter.group(1)} (714.2b)", first[chapter.end() :]
    head = re.sub(rf"^{_ABILITY_WORD}(?=When|Whenever|At)", "", first)
    depth = 0
    for i, ch in enumerate(head):
        if ch == '"':
            depth ^= 1
        elif ch == "," and not depth:
            return head[:i], head[i + 1 :].strip()
    raise Unread("no comma ends the trigger condition", head)


def _ability(card: Card, text: str, ability: Ability) -> dict[str, Any]:
    condition, effect = _effect(text)
    if condition.startswith("chapter") and re.match(r"(?:When|Whenever|At)\b", effect):
        # "II, III — Whenever you cast a spell this turn, …": the chapter makes a triggered ability
        # that waits for its own event and chooses its own targets then (603.7a); the chapter has none
        made = effect.split(",")[0]
        ability.notes.append(f"{typed(made)} is an ability the chapter makes (603.7a): its targets are its own")
        effect = ""
    effect, notes = owned(effect)  # without the targets of the abilities it grants or makes (603.7, 603.12)
    ability.notes.extend(notes)
    fragment: dict[str, Any] = {"text": text.replace("\n", " ")}
    if re.search(r"triggered ability to trigger|ability triggers|abilities trigger", condition):
        fragment["condition"] = "ability-triggered"
    bullets = [b.lstrip("• ").strip() for b in text.split("\n")[1:]]
    if bullets and modes_are_foreign(_effect(text)[1]):
        bullets = []  # "When you do, choose one —": the modes are the reflexive ability's (603.12)
    choose = re.search(
        r"\bchoose (one or both|one or more|up to one|up to two|up to three|up to x|one|two|three|any number)"
        r"(?: that hasn't been chosen)?(?: this turn)?(?:, where X is [^—.]*)?\s*(?:—|\.)",
        effect,
        flags=re.I,
    )
    if bullets:
        if choose is None:
            raise Unread("bullets without a 'choose' this reader knows", effect)
        instead = re.search(r"\bchoose [\w ]{1,20}? instead", effect, flags=re.I)
        if instead:  # "choose one. If …, choose both instead": the board decides how many modes (700.2)
            raise Unread(f"a number of modes the board decides: {typed(instead.group(0))}", effect)
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
            "up to x": [],  # none to X (107.3): the trigger's x, once the scenario states it
        }[word]
        modal: dict[str, Any] = {"choose": [k for k in allowed if k <= n] if allowed else dict(X)}
        _mode_header(effect, choose, modal)
        if re.search(r"each mode must target a different", effect, flags=re.I):
            modal["distinct_targets"] = True
        if "hasn't been chosen" in effect:
            ability.notes.append("modes chosen earlier are not known: every mode is given as available")
        modes = []
        for i, bullet in enumerate(bullets, 1):
            own, notes = owned(bullet)
            ability.notes.extend(n for n in notes if n not in ability.notes)
            reqs = _requirements(card, own, condition)
            if any(r.get("_chooser") for r in reqs):  # the modes are the controller's (700.2e)
                raise Unread("a target another player chooses in one mode (700.2e): 'of their choice'", bullet)
            mode: dict[str, Any] = {"id": f"m{i}", "text": bullet}
            if reqs:
                mode["targets"] = reqs
            modes.append(mode)
        fragment["modal"] = modal
        fragment["modes"] = modes
        before = re.sub(r"each mode must target a different \w+", "", effect[: choose.start()], flags=re.I)
        if "target" in before:
            raise Unread("targets before the modes", before)
        return _x_whose(fragment, effect)
    if choose is not None:
        raise Unread("'choose' without bullets", effect)
    reqs = _requirements(card, effect, condition)
    if reqs:
        fragment["targets"] = reqs
    if any([r.pop("_chooser", False) for r in reqs]):  # "target creature of their choice" (700.2e)
        fragment["chooser"] = dict(CHOOSER)
    return _x_whose(fragment, effect)


_X_OWN = re.compile(r"\bwhere X is this (?:creature|permanent)'s (power|toughness)\b", flags=re.I)
"""X defined as a number of the source: "where X is this creature's power" (Guardian Scalelord)."""


def _x_whose(fragment: dict[str, Any], effect: str) -> dict[str, Any]:
    """``fragment``, its X (107.3) the source's number where the text says so ("where X is this
    creature's power"), else the trigger's x, which the scenario states whatever the text counts
    ("where X is the number of Faeries you control", "the number of times it was kicked": its
    writer counts, the reader does not, docs/cards.md) — unless X is paid as the ability resolves,
    after its targets are chosen ("you may pay {X}. If you do, return … with mana value X")."""
    if not reads_x(fragment):
        return fragment
    own = _X_OWN.search(effect)
    if own is not None:
        return the_source_for_x(fragment, own.group(1).lower())
    if re.search(r"\bpay \{X\}", effect):
        raise Unread("X is paid as the ability resolves, after its targets are chosen: 'pay {X}'", effect)
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
    r"\b(?:could|would) target\b",  # "each other creature that spell could target"
    r"\b(?:its|their) targets?\b",  # "reselect its target at random": the targets of another spell or ability
    r"target of (?:a|an|one|spells|abilities)\b(?! opponent's choice)",  # not "any target of an opponent's choice"
    r"its targets? (?:becomes?|is|are)",
    r"changes? (?:a|the) targets? of (?=target\b)",  # "change a target of target spell": one target, the spell
    r"\bthe target or targets\b|\bchanges? the targets? (?=to\b)",  # another spell's ("change the target to …")
    r"\btargeting\b",  # "cast it … targeting that Sol Ring": the spell cast chooses it (601.2c), not this ability
)
_ONCE = re.compile(r"\bYou can't choose (?:any|the same) (?:player|opponent|creature) as a target more than once")
"""Every requirement of the ability differs from every other (115.3 lets one object be chosen for each)."""
_PAID = re.compile(r"\bif\b[^,]*\b(?:kicked|bargained|cast|promised|collected|paid)\b", flags=re.I)
"""A condition on how the source was cast ("If this spell was kicked, … target …"): the target exists
only then (601.2c, 603.3d)."""
_IF_X = re.compile(r"\bif x is [^,]*", flags=re.I)
"""A condition on X before a target in its sentence: whether the target exists is the board's."""
_REFLEXIVE = re.compile(r"\b(?:when|whenever) (?:you|they|that player|he or she) (?:do|does)\b", flags=re.I)


_ACTIONS = re.compile(r"\b(earthbend|support) (\d+|X)\b", flags=re.I)
"""The keyword actions whose target their words do not print (the data drops their reminder text),
each read as its rule's words, one requirement each time it is said: "earthbend N" is "target land
you control becomes a 0/0 creature with haste that's still a land. Put N +1/+1 counters on it";
"support N" (701.41a) is "put a +1/+1 counter on each of up to N other target creatures" on a
permanent — other than that permanent, each support of a sentence alike (so written "other than
this permanent", not "other", which after a target would differ from it, 115.3) — and "… up to N
target creatures" on an instant or sorcery."""


def _actions(card: Card, text: str) -> str:
    """``text`` with each keyword action of :data:`_ACTIONS` written out in its rule's words."""
    spell = {"Instant", "Sorcery"} & set(card.types)

    def said(m: re.Match[str]) -> str:
        n = m.group(2)
        if m.group(1).lower() == "earthbend":
            return f"put {n} +1/+1 counters on target land you control"
        other = "" if spell else " other than this permanent"
        return f"put a +1/+1 counter on each of up to {n} target creatures{other}"

    return _ACTIONS.sub(said, text)


def _requirements(card: Card, sentence: str, condition: str = "") -> list[dict[str, Any]]:
    """Every target requirement of ``sentence`` (one per instance of "target", 601.2c)."""
    text = _actions(card, _REMINDER.sub("", sentence))
    reflexive = _REFLEXIVE.search(text)
    if reflexive is not None:  # "When you do, … target …": a reflexive ability chooses its targets later (603.12)
        text = text[: reflexive.start()]
    masked = text
    for pattern in _IGNORED:
        masked = re.sub(pattern, lambda m: "·" * len(m.group(0)), masked, flags=re.I)
    for m in _QUANTITY.finditer(masked):  # "targets" with no number before it is a verb ("The copy targets
        bare = m.group("plural") and not (m.group("q") or m.group("another"))  # Ivy") or a noun ("new targets
        if bare and not re.search(r"\b(?:any|among|of)\s*$", masked[: m.start()], flags=re.I):  # for"): none
            masked = masked[: m.start()] + "·" * (m.end() - m.start()) + masked[m.end() :]
    once = _ONCE.search(masked)  # "You can't choose any player as a target more than once" (115.3)
    if once is not None:
        masked = masked[: once.start()] + "·" * (once.end() - once.start()) + masked[once.end() :]
    out: list[dict[str, Any]] = []
    for m in _QUANTITY.finditer(masked):
        if masked[m.start() : m.end()].count("·"):
            continue
        sentences = re.split(r"[.;]\s", text[: m.start()])  # the effect's first "if" is intervening (603.4)
        paid = _PAID.search(sentences[-1]) if len(sentences) > 1 else None
        if paid is not None:  # 601.2c, 603.3d: a target only if a cost was paid, which the board does not say
            raise Unread(f"a target required only {typed(paid.group(0))} (601.2c, 603.3d)", sentence)
        if_x = _IF_X.search(sentences[-1])
        if if_x is not None:  # "If X is 10 or more, … any number of other target creatures": not decided here
            raise Unread(f"a target required only {typed(if_x.group(0))} (601.2c)", sentence)
        out.append(_requirement(card, text, m, out, condition))
    if "target" in masked.replace("·", "") and not out:
        raise Unread("'target' where no target requirement was read", sentence)
    if re.search(r"\bdivided\b", masked) and out and not any("divide" in r for r in out):  # 601.2d: never dropped
        raise Unread("an amount divided among targets this reader did not place", sentence)
    for n, req in enumerate(out[1:] if once is not None else []):  # each differs from every one before it
        req["different_from"] = sorted({*req.get("different_from", []), *(r["id"] for r in out[: n + 1])})
    return out


_SAME_MODE = re.compile(r"\s*You may choose the same mode more than once\.", re.I)
_DIFFERENT = re.compile(r"\s*Each mode must target a different \w+\.?", re.I)


def _mode_header(effect: str, choose: re.Match[str], modal: dict[str, Any]) -> None:
    """Account for every word around "choose N —" (700.2): "You may choose the same mode more than
    once" (repeat, 700.2d), "you may choose N" (or none: the ability is then removed, 603.3c), "Each
    mode must target a different player"; a condition on the modes ("if it's equipped, choose one")
    or any other sentence there is refused, naming it."""
    after = _DIFFERENT.sub("", effect[choose.end() :].split("\n")[0])
    if _SAME_MODE.match(after):
        modal["repeat"] = True
        after = _SAME_MODE.sub("", after, count=1)
    if after.strip():
        raise Unread(f"words beside the modes this reader does not know: {typed(after.strip(), 40)}", effect)
    before = _DIFFERENT.sub("", effect[: choose.start()]).strip()
    if before.lower() == "you may" and isinstance(modal["choose"], list):
        modal["choose"] = sorted({0, *modal["choose"]})
    elif before.lower().startswith("if "):
        raise Unread(f"a condition on the modes: {typed(before)}", effect)
