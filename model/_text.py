"""Text from a scenario or a proposal, made safe to show: one rule for every format
(docs/formats.md, "Every id shows as itself").

A code point is *unsafe* to show when it can change how the text around it looks instead of
showing itself (a control, a bidirectional formatting character, a surrogate, a noncharacter).
An id in a scenario may hold none of them, nor anything else that would make it print like another
id: bad input naming its place (:func:`printable_id`). Everything else — texts, and ids a proposal
names (a proposal is judged, never refused) — is shown with each unsafe code point written as a
JSON escape by :func:`visible`, in every format.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ._numbers import int_said

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_ASTRAL_NONCHARACTERS = "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(1, 17))
_SHOWN_AS_NOTHING_BMP = (
    "\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\ufeff\ufff9-\ufffb"  # format characters (Cf), line and paragraph separators (Zl, Zp)
    "\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"  # default-ignorable
    "\ue000-\uf8ff"  # private use (Co): whatever a font makes of it
)
_SHOWN_AS_NOTHING_ASTRAL = (
    "\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"  # Cf
    "\U000e0000-\U000e0fff"  # tags (Cf) and variation selectors: default-ignorable
    "\U000f0000-\U0010ffff"  # private use planes (Co)
)
"""Code points that show as nothing, or as whatever a font makes of them, in Unicode 14 (Python
3.11's): every format, line separator, paragraph separator and private-use character, and the
default-ignorable ones of other categories. An id may hold none (:func:`printable_id`); in any other
text they are escaped, so that a proposal naming ``SWB`` + U+200B never prints as ``SWB``.
tests/test_text.py holds these lists to Python's Unicode data, code point by code point."""
_BMP = "\x7f-\x9f" + _BIDI + "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff" + _SHOWN_AS_NOTHING_BMP
UNSAFE = re.compile("[\x00-\x1f" + _BMP + _ASTRAL_NONCHARACTERS + _SHOWN_AS_NOTHING_ASTRAL + "]")
"""The code points that are never shown as themselves: controls, bidirectional formatting,
surrogates, noncharacters, and what shows as nothing."""
_UNSAFE_IN_LINES = re.compile("[\x00-\x09\x0b-\x1f" + _BMP + _ASTRAL_NONCHARACTERS + _SHOWN_AS_NOTHING_ASTRAL + "]")

# Searching with the classes above is slow (astral code points put the class on re's slow path:
# ~80 ms a megabyte): what is searched first is the same set without the astral noncharacters, and
# whether there is any astral character at all (each ~8 ms a megabyte).
_UNSAFE_BMP = re.compile("[\x00-\x1f" + _BMP + "]")
_UNSAFE_BMP_IN_LINES = re.compile("[\x00-\x09\x0b-\x1f" + _BMP + "]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_SHOWN = bytes(range(0x20, 0x7F))
"""The ASCII code points that show as themselves (a text of only these holds nothing unsafe)."""
_SHOWN_IN_LINES = _SHOWN + b"\n"


def _holds(text: str, bmp: re.Pattern[str], every: re.Pattern[str]) -> bool:
    if text.isascii():  # every JSON line (ensure_ascii): printable ASCII is safe, found in C far faster than re
        shown = _SHOWN_IN_LINES if every is _UNSAFE_IN_LINES else _SHOWN
        if not text.encode("ascii").translate(None, shown):
            return False
    if bmp.search(text) is not None:
        return True
    return not text.isascii() and _ASTRAL.search(text) is not None and every.search(text) is not None


def _escape(match: re.Match[str]) -> str:
    return _escaped(ord(match.group()))


def _escaped(cp: int) -> str:
    """Code point ``cp`` as its JSON escape."""
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    cp -= 0x10000  # JSON writes an astral code point as a surrogate pair
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def visible(text: str) -> str:
    """``text`` with every unsafe code point written as its JSON escape (``\\u001b``); the same
    string where there is none. Inside a JSON document's strings the escape means the same text."""
    return UNSAFE.sub(_escape, text) if _holds(text, _UNSAFE_BMP, UNSAFE) else text


def typed(text: str, most: int = 80) -> str:
    """Text from outside — a name as a user typed it, a key as a document wrote it — inside a
    message: in single quotes as it is, cut past ``most`` characters, each unsafe code point its
    JSON escape (:func:`visible`, so the message stays one line). Never Python's ``repr``, whose own
    escapes (``\\x1b``) the edges' escaping can't tell from text, nor with its spaces collapsed."""
    shown = text if len(text) <= most else text[: most - 3] + "..."
    return f"'{visible(shown)}'"


def found(value: Any) -> str:
    """What a document or an argument holds, in the format's words: ``'abc'`` (as typed: :func:`typed`),
    ``3``, ``true``, ``null``, a list of 2, a mapping with keys a, b."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        if isinstance(value, int) and not isinstance(value, bool):
            return int_said(value)  # never str() of it: refused past 4,300 digits
        text = getattr(value, "text", None) or str(value)  # as its document wrote it (model/_numbers.py Inexact)
        return text if len(text) <= 40 else text[:37] + "..."
    if isinstance(value, str):
        return typed(value, 40) if value else "empty text"
    if isinstance(value, bytes | bytearray | memoryview):  # a sequence of numbers to Python, never a list a door takes
        return "bytes"
    if isinstance(value, Mapping):
        if not value:
            return "an empty mapping"
        keys = [visible(str(k)) for k in list(value)[:4]]  # a key is the document's text: escaped as every value shown
        more = ", ..." if len(value) > 4 else ""
        return f"a mapping with keys {', '.join(keys)}{more}"
    if isinstance(value, Sequence):
        return f"a list of {len(value)}" if value else "an empty list"
    return f"a {type(value).__name__}"


def shown_lines(lines: Iterable[str]) -> str:
    """Terminal text of several lines: each line :func:`visible` whole — a line break a value holds
    (a proposal's id, a trigger's text, a case's id) is its escape, never a line of its own — then
    joined by the line ends this tool writes. Every verb's text is made by it (a property in
    tests/test_text.py adds line breaks to every value and counts the lines)."""
    return "\n".join(visible(line) for line in lines)


def visible_lines(text: str) -> str:
    """:func:`visible` for text of several lines: its line ends are kept, nothing else unsafe."""
    return _UNSAFE_IN_LINES.sub(_escape, text) if _holds(text, _UNSAFE_BMP_IN_LINES, _UNSAFE_IN_LINES) else text


_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
"""Categories never in an id: controls, format characters (zero-width spaces and joiners, U+2060
WORD JOINER, U+00AD SOFT HYPHEN, U+FEFF, the bidirectional marks), surrogates, private use, line
and paragraph separators."""


def _unshown(cp: int, category: str, first: bool) -> str | None:
    """Why code point ``cp`` (of Unicode ``category``) would not show as itself in an id, or None."""
    if category == "Co":
        return "a private-use character, shown as whatever a font makes of it"
    if category in _REFUSED:
        return "a control, format or separator character, shown as nothing or as something else"
    if category == "Zs" and cp != 0x20:
        return "a space other than U+0020, shown as one"
    if category[0] == "M" and first:
        return "a combining mark with nothing before it in the id to mark"
    if 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE:
        return "a noncharacter"
    if UNSAFE.match(chr(cp)) is not None:  # the default-ignorable code points of other categories: one list
        return "a variation selector or another character shown as nothing"
    return None


def _named(ch: str) -> str:
    """``U+XXXX NAME`` (a control character has no name: ``U+001B <control>``)."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '<control>' if unicodedata.category(ch) == 'Cc' else '<unnamed>')}"


def _shown_id(value: str) -> str:
    """``value`` with every code point an id may not hold, and every combining mark, written as its
    JSON escape: the message shows what the id holds, not what it looks like."""
    return "".join(
        _escaped(ord(c)) if unicodedata.category(c)[0] == "M" or _unshown(ord(c), unicodedata.category(c), False) else c
        for c in value
    )


def printable_id(value: str) -> str:
    """``value`` if it shows as itself, so that no two ids print alike; else ``ValueError`` naming
    the first code point that does not (U+XXXX, its Unicode name) and its position (1-based). The
    one identifier rule (docs/formats.md, "Every id shows as itself"): no control, format, surrogate,
    private-use, line or paragraph separator character (categories Cc, Cf, Cs, Co, Zl, Zp), no
    space but U+0020, no default-ignorable code point (variation selectors, fillers, U+034F), no
    noncharacter, no combining mark first, and the id in Unicode normal form C (an ``é`` written
    as ``e`` + U+0301 is refused: write it composed). And as a whole: not empty, no space at either
    end, no two spaces in a row (a terminal and a page show ``X`` and ``X `` alike, and ``a  b`` as
    ``a b``)."""
    if value.isascii():
        found = UNSAFE.search(value)  # an id is short: one search
        if found is None:
            return _whole_id(value)
        pos = found.start()
        why = _unshown(ord(found.group()), unicodedata.category(found.group()), pos == 0)
        raise ValueError(_refusal(value, pos, why or ""))
    for pos, ch in enumerate(value):
        why = _unshown(ord(ch), unicodedata.category(ch), pos == 0)
        if why is not None:
            raise ValueError(_refusal(value, pos, why))
    if not unicodedata.is_normalized("NFC", value):
        pos = next(i for i in range(len(value)) if not unicodedata.is_normalized("NFC", value[: i + 1]))
        composed = visible(unicodedata.normalize("NFC", value))
        raise ValueError(_refusal(value, pos, f"not in Unicode normal form C (it prints as '{composed}': write it so)"))
    return _whole_id(value)


def mode_id(value: str) -> str:
    """A mode's id: :func:`printable_id`, and no ``:``, which joins an ability's id to its mode's in
    a walk's decision (``mode E:counter``): were ability ``E``'s mode ``x:y`` allowed, it and ability
    ``E:x``'s mode ``y`` would print alike, and ``mode E:x:y`` would name only one of them."""
    printable_id(value)
    if ":" in value:
        raise ValueError(
            f"mode id '{_shown_id(value)}' holds ':', which joins an ability's id to its mode's in a decision "
            "('mode E:counter'): a mode id may not hold it (docs/formats.md)"
        )
    return value


def _whole_id(value: str) -> str:
    """``value`` if, as a whole, it shows as itself: not empty, no space at an end, no two in a row."""
    if not value.strip(" "):
        raise ValueError(f"id '{value}' is empty: it would show as nothing (docs/formats.md)")
    if value != value.strip(" ") or "  " in value:
        shown = _shown_id(" ".join(part for part in value.split(" ") if part))
        raise ValueError(
            f"id '{_shown_id(value)}' has a space at an end or two in a row: it would print like "
            f"'{shown}' (write it so; docs/formats.md)"
        )
    return value


def _refusal(value: str, pos: int, why: str) -> str:
    return (
        f"id '{_shown_id(value)}' holds {_named(value[pos])} at character {pos + 1}, {why}: "
        "an id must show as itself (docs/formats.md)"
    )


_COMPACT = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""One encoder for every line: ``json.dumps`` given options builds a new one per call (3.3 µs
against 1.5 µs a short list)."""


def compact(value: Any) -> str:
    """One line of canonical JSON (keys sorted, no spaces): what ``enumerate`` prints an outcome as,
    and what every verb prints on one line."""
    return _COMPACT.encode(value)


@functools.lru_cache(maxsize=4096)  # a pure function of its two strings; a judge's search names a mode per check
def called(id: str | None, text: str) -> str:
    """How every sentence names a mode or a target requirement: its id, then its own words in
    quotes where it has words that are not its id (:func:`quoted`) — a card's mode is ``m2 “Destroy
    target creature.”``, its requirement ``t “target creature”`` — so a judge reads what the card
    says, not only the reader's ``m2`` or ``t``. (A mode without an id, a non-modal ability's, is
    its words.) The one place: ``check``, ``step``, ``explain`` and the page all name them by it."""
    words = quoted(id, text)
    return " ".join(part for part in (id, words) if part)


def quoted(id: str | None, text: str) -> str:
    """The words :func:`called` shows after an id, in quotes ("" when there are none, or they are
    the id): words of several sentences are named by the first, then "…"."""
    words = " ".join(text.split())
    if not words or words == id:
        return ""
    first = re.match(r"(.+?[.!?])\s+(?=[A-Z])", words)
    return f"“{first[1]} …”" if first else f"“{words}”"
