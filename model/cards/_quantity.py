"""How many targets a phrase asks for (601.2c: "up to two", "any number of", "one or two") and the
amount divided among them (601.2d) — read when the text gives a number, refused when the board
decides it."""

from __future__ import annotations

import re
from typing import Any

from .._text import typed
from ._board import X
from ._unread import Unread

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
        raise Unread(f"an amount this reader does not know: {typed(word)}", word)
    return _NUMBERS[word.lower()]


def _quantity(m: re.Match[str], text: str) -> tuple[Any, Any]:
    """(min, max) of the targets, -1 for any number (601.2c), the marker :data:`~._board.X` for X
    ("up to X", "each of up to X", "tap X target creatures": the number the trigger's x states,
    107.3); :class:`Unread` for another number the board decides ("up to that many", "up to one
    hundred") or one this reader does not read before "target"."""
    q = (m.group("q") or "").lower()
    before = re.findall(r"[\w'/+-]+", text[: m.start()].lower())
    if not q and before[-1:] == ["x"] and before[-2:-1] != ["to"]:
        return dict(X), dict(X)  # "tap X target creatures": exactly X, the number the trigger's x states (107.3)
    if not q and before and (before[-1] in _AMOUNTS or before[-1].isdigit() or before[-2:] == ["up", "to"]):
        said = " ".join(before[-3:])
        raise Unread(f"a number of targets the board decides or this reader does not know: {typed(said)}", text)
    if m.group("upto") or m.group("each"):
        top = _count(m.group("upto") or m.group("each"))
        return 0, dict(X) if top is None else top  # "up to X": X as the trigger's x states it (107.3)
    if m.group("exact"):
        n = _count(m.group("exact"))
        return (n, n) if n is not None else (1, 1)
    return next((r for k, r in _RANGES.items() if q.startswith(k)), (1, 1))


def _divided(req: dict[str, Any], before: str, text: str, up_to: bool, after: str = "") -> None:
    """601.2d: an amount divided among the targets — read when it is a number, refused when the board
    decides it ("X damage", "that much damage", "damage equal to its power"). The division may
    follow the phrase: "prevent the next 5 damage … to any number of targets, divided as you choose"."""
    divided = re.search(
        r"(\d+|x) (?:damage|\+1/\+1 counters?|-1/-1 counters?)\s+divided (?:as you choose )?among\s*$", before
    )
    if divided is None and re.match(r"[^.;]*?,? divided as you choose\b", after):
        divided = re.search(r"(\d+|x) (?:damage|\+1/\+1 counters?|-1/-1 counters?)\b(?!.*\b\d+ damage)", before)
        if divided is None:
            raise Unread("an amount divided that the board decides: 'divided as you choose'", text)
    if divided is None:
        divided = re.search(r"distribute (\w+) [^.]*?among\s*$", before)
        if divided is not None and divided.group(1) == "up":  # "distribute up to that many counters among …"
            said = " ".join(divided.group(0).split()[1:5])
            raise Unread(f"an amount divided that the board decides or the player chooses: {typed(said)}", text)
    if divided is None:
        other = re.search(r"([^.,]*?)\s*\b(?:divided|distribute)\b[^.]*?among\s*$", before)
        if other:
            said = " ".join(other.group(1).split()[-4:])
            raise Unread(f"an amount divided that the board decides: {typed(said)}", text)
        return
    amount: Any = _count(divided.group(1))
    if up_to:
        # "divided among up to N targets": zero targets divide nothing; the format's divide needs one
        raise Unread("an amount divided among up to N targets: with none chosen nothing is divided", text)
    if amount is None:  # "X damage divided": X as the trigger's x states it, bounded once known (_board.py)
        req["divide"] = dict(X)
        return
    req["divide"] = amount
    # 601.2d: an amount divided gives each target at least 1, so there is at least one target
    # and at most the amount of them ("among any number of targets": one to five for 5 damage)
    if req.get("min", 1) == 0:
        req["min"] = 1
    if "max" in req and (req["max"] is None or req["max"] > amount):
        req["max"] = amount
