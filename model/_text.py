"""Text from a scenario or a proposal, made safe to show: one rule for every format.

A code point is *unsafe* to show when it can change how the text around it looks instead of
showing itself: a control character (category Cc: escape sequences can erase a line and write
another verdict in a terminal, and XML cannot hold most of them), a bidirectional formatting
character (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: ``U+202E BWS`` looks like ``SWB``),
a surrogate or a noncharacter (U+FDD0–U+FDEF, U+xFFFE, U+xFFFF).

* An **id** in a scenario (of a player, object, trigger, mode, requirement or reaction) may hold
  none of them: it is bad input naming its place (:func:`printable_id`).
* Everything else — texts, and ids a proposal names (a proposal is judged, never refused) — is
  shown with each unsafe code point written as a JSON escape (``\\u202e``) by :func:`visible`,
  in every format: terminal text, SVG, the page, and JSON (where the escape means the same
  string).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["UNSAFE", "called", "compact", "printable_id", "quoted", "visible", "visible_lines"]

_BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_ASTRAL_NONCHARACTERS = "".join(f"{chr(p * 0x10000 + 0xFFFE)}{chr(p * 0x10000 + 0xFFFF)}" for p in range(1, 17))
_BMP = "\x7f-\x9f" + _BIDI + "\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff"
UNSAFE = re.compile("[\x00-\x1f" + _BMP + _ASTRAL_NONCHARACTERS + "]")
"""The code points that are never shown as themselves."""
_UNSAFE_IN_LINES = re.compile("[\x00-\x09\x0b-\x1f" + _BMP + _ASTRAL_NONCHARACTERS + "]")

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
    cp = ord(match.group())
    if cp <= 0xFFFF:
        return f"\\u{cp:04x}"
    cp -= 0x10000  # JSON writes an astral code point as a surrogate pair
    return f"\\u{0xD800 + (cp >> 10):04x}\\u{0xDC00 + (cp & 0x3FF):04x}"


def visible(text: str) -> str:
    """``text`` with every unsafe code point written as its JSON escape (``\\u001b``); the same
    string where there is none. Inside a JSON document's strings the escape means the same text."""
    return UNSAFE.sub(_escape, text) if _holds(text, _UNSAFE_BMP, UNSAFE) else text


def visible_lines(text: str) -> str:
    """:func:`visible` for text of several lines: its line ends are kept, nothing else unsafe."""
    return _UNSAFE_IN_LINES.sub(_escape, text) if _holds(text, _UNSAFE_BMP_IN_LINES, _UNSAFE_IN_LINES) else text


def printable_id(value: str) -> str:
    """``value`` if it holds no unsafe code point; else ``ValueError`` naming the first."""
    found = UNSAFE.search(value)  # an id is short: one search
    if found is not None:
        cp = ord(found.group())
        raise ValueError(
            f"id '{visible(value)}' holds U+{cp:04X}, a control, bidirectional or noncharacter code point: "
            "an id must show as itself (docs/formats.md)"
        )
    return value


_COMPACT = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
"""One encoder for every line: ``json.dumps`` given options builds a new one per call (3.3 µs
against 1.5 µs a short list)."""


def compact(value: Any) -> str:
    """One line of canonical JSON (keys sorted, no spaces): what ``enumerate`` prints an outcome as,
    and what every verb prints on one line."""
    return _COMPACT.encode(value)


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
