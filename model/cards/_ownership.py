"""Which words of a triggered ability's effect are its own (113.1a, 603.1, 603.7, 603.12).

An effect may hold the text of other abilities: a quoted ability it grants to a token or a
permanent ('create a token with "{T}: This token deals 1 damage to any target"'), and a reflexive
or delayed triggered ability it creates as it resolves ("When you do, …", "When you sacrifice a
creature this way, …", "When you lose the flip, …", "At the beginning of the next end step, …",
"until end of turn, whenever …"). Their targets are not this ability's: the quoted one's are chosen
when that object's ability is activated or triggers, and the reflexive or delayed one is made only
as this one resolves, so it is no trigger waiting now (603.3) and chooses its own targets when it
triggers. The reader reads an effect without them, and says so in a note.
"""

from __future__ import annotations

import re

_QUOTED = re.compile(r'"[^"]*"|"[^"]*$')
# a triggered ability made by this one: at the start of a sentence of the effect, or after a
# comma ("until end of turn, whenever …", "…, and when you do, …")
_NESTED = re.compile(
    r"(?:(?<=[.!] )|(?<=, )|(?<=\band ))(?:when|whenever|at the beginning of)\b",
    flags=re.I,
)
_REFLEXIVE = re.compile(
    r"^\w+ (?:you|they|that player|he or she) (?:do|does)\b|this way|the flip|this cost|this ability resolves",
    flags=re.I,
)
_DELAYED = re.compile(r"^at the beginning|\bnext\b|this turn|until", flags=re.I)
_CHOOSE = re.compile(r"\bchoose (?:one|two|three|up to|any number)\b[^.]*(?:—|\.)\s*$", flags=re.I)

_QUOTED_NOTE = (
    "a quoted ability is another object's (113.1a): its targets are chosen when that ability is activated or "
    "triggers, not by this one"
)
_REFLEXIVE_NOTE = (
    "a reflexive ability ('{said}') is made as this one resolves and chooses its own targets then (603.12)"
)
_DELAYED_NOTE = (
    "a delayed triggered ability ('{said}') is made as this one resolves and chooses its own targets when it "
    "triggers (603.7): they are not this one's, and it is not waiting now"
)

_MADE_NOTE = (
    "a triggered ability this one makes as it resolves ('{said}') chooses its own targets when it triggers "
    "(603.7, 603.12): they are not this one's, and it is not waiting now"
)


def _masked(text: str) -> tuple[str, bool]:
    """``text`` with each quoted ability emptied (``""``), and whether one of them targets."""
    targets = False

    def empty(m: re.Match[str]) -> str:
        nonlocal targets
        targets = targets or "target" in m.group(0).lower()
        return '""'

    return _QUOTED.sub(empty, text), targets


def owned(text: str) -> tuple[str, list[str]]:
    """The words of an effect (or of one mode) that are the ability's own — without the quoted
    abilities it grants and from the first reflexive or delayed triggered ability it makes on — and
    a note for each other ability's targets left out."""
    own, quoted = _masked(text)
    notes = [_QUOTED_NOTE] if quoted else []
    nested = _NESTED.search(own)
    if nested is not None:
        rest = own[nested.start() :]
        condition = rest.split(",", 1)[0]
        if _REFLEXIVE.search(condition):
            notes.append(_REFLEXIVE_NOTE.format(said=condition.strip()))
        elif "target" in rest.lower() or "choose" in rest.lower():
            delayed = _DELAYED.search(condition)
            notes.append((_DELAYED_NOTE if delayed else _MADE_NOTE).format(said=condition.strip()))
        own = own[: nested.start()].rstrip()
    return own, notes


def modes_are_foreign(effect: str) -> bool:
    """Whether the "choose …" that the bullets follow is a reflexive or delayed ability's ("When
    you do, choose one —"): then the modes are its own, not this ability's (700.2, 603.12)."""
    own, _ = _masked(effect)
    nested = _NESTED.search(own)
    return nested is not None and _CHOOSE.search(own[nested.start() :]) is not None
