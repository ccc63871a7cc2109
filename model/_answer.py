"""Bounded writing: every answer of every surface is written by one :class:`Answer`, which counts
the bytes as it builds the answer's JSON and stops at the cap (``--max-answer``) with
:class:`AnswerTooLarge` — never an answer serialized whole and measured afterwards.

What an answer holds is given as JSON-ready values, where two kinds of part are written as they
come rather than built first: :class:`Items`, an array whose items an iterator yields (a page of
outcomes, a sample's draws: each drawn, written and dropped before the next is drawn), and
:class:`Raw`, JSON text already written (an outcome's canonical line). So the memory of an answer
refused at the cap is the text written so far — at most the cap — and the one item being written.
A JSON-RPC batch, a stream of lines, a batch file's line: each is one :class:`Answer`, counted
as a whole.

The JSON is canonical (keys sorted, no spaces, docs/formats.md) and every unsafe code point is
written as its escape (:func:`~._text.visible`): the bytes counted are the bytes sent.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from ._errors import ScenarioError
from ._limits import RUNNING, Deadline, raised_by
from ._numbers import BIG, counted, int_text
from ._text import visible

_ENCODE = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
_SMALL = 64
"""A part of at most this many values is encoded at once (in C); a larger one is walked."""
_PIECE = 1 << 16
"""Bytes of text gathered before they are kept as one UTF-8 piece (no string per value is kept)."""


class AnswerTooLarge(ScenarioError):
    """An answer that would be more than ``--max-answer`` bytes: refused as it reaches the cap."""


def too_large(cap: int, advice: str) -> AnswerTooLarge:
    """The one refusal of an answer past ``cap`` bytes, whether written or being built."""
    flag = raised_by("answer")
    hint = f"{flag[:-1]}, or {advice})" if flag else f" ({advice})"
    return AnswerTooLarge(f"the answer is more than the limit of {counted(cap, 'bytes')}{hint}")


class Spending:
    """An answer built as values before it is written (a verdict's violations, explain's report):
    the text of each part is counted as the part is made — its length, which its JSON only
    lengthens — so one that would pass ``cap`` bytes is refused as it reaches the cap, with the
    :class:`Answer`'s words, never built whole first; and every 64 parts the call's ``deadline``
    is looked at, so the time limit holds while it is built."""

    __slots__ = ("advice", "cap", "deadline", "parts", "size", "what")

    def __init__(
        self, cap: int, deadline: Deadline = RUNNING, what: str = "building the answer", advice: str = "ask for less"
    ) -> None:
        self.cap = cap
        self.deadline = deadline
        self.what = what
        self.advice = advice
        self.size = 0
        self.parts = 0

    def spend(self, *texts: str | None) -> None:
        """Count one part made of ``texts``."""
        self.size += sum(len(x) for x in texts if x)
        if self.size > self.cap:
            raise too_large(self.cap, self.advice)
        self.parts += 1
        if not self.parts % 64:
            self.deadline.check(self.what)


class Raw(str):
    """JSON text already written (canonical), spliced into an answer as it is."""

    __slots__ = ()


class Items:
    """A JSON array whose items ``source`` yields, each written as it comes (never listed first)."""

    __slots__ = ("source",)

    def __init__(self, source: Iterable[Any]) -> None:
        self.source = source

    def __iter__(self) -> Iterator[Any]:
        return iter(self.source)


class Answer:
    """One answer's JSON text, counted in UTF-8 bytes as it is written; past ``cap`` bytes it
    raises :class:`AnswerTooLarge` (``advice``: how to ask for less), drops what it holds and
    writes nothing more (:attr:`full`). What it holds is kept as UTF-8 in pieces of about
    :data:`_PIECE` bytes: the memory of an answer is its size."""

    __slots__ = ("advice", "cap", "full", "pending", "pending_size", "pieces", "size")

    def __init__(self, cap: int, advice: str = "ask for less") -> None:
        self.cap = cap
        self.advice = advice
        self.pieces: list[bytes] = []
        self.pending: list[str] = []
        self.pending_size = 0
        self.size = 0
        self.full = False

    def __repr__(self) -> str:
        return f"<Answer: {self.size} of {self.cap} bytes>"

    def line(self, text: str) -> None:
        """Add one line of JSON text (a stream's, NDJSON) and its end, counted."""
        self.write(text, "\n")

    def write(self, text: str, end: str = "") -> None:
        """Add JSON text (already canonical) to the answer, counted."""
        if self.full:
            raise self._refusal()
        text = visible(text) + end
        size = len(text) if text.isascii() else len(text.encode("utf-8"))
        self.size += size
        if self.size > self.cap:
            self.full = True
            self.pieces.clear()  # what was written goes with the answer
            self.pending.clear()
            raise self._refusal()
        self.pending.append(text)
        self.pending_size += size
        if self.pending_size >= _PIECE:
            self._settle()

    def _refusal(self) -> AnswerTooLarge:
        return too_large(self.cap, self.advice)

    def _settle(self) -> None:
        if self.pending:
            self.pieces.append("".join(self.pending).encode("utf-8"))
            self.pending.clear()
            self.pending_size = 0

    def mark(self) -> tuple[int, int]:
        """Where the answer is now: :meth:`undo` takes it back there (a call that failed midway)."""
        self._settle()
        return len(self.pieces), self.size

    def undo(self, mark: tuple[int, int]) -> None:
        """Forget what was written since ``mark`` (and that it was full)."""
        self.pending.clear()
        self.pending_size = 0
        del self.pieces[mark[0] :]
        self.size = mark[1]
        self.full = False

    def take(self) -> bytes:
        """What was written since the last :meth:`take`, as UTF-8 (a stream sends it as it goes;
        the count goes on)."""
        self._settle()
        found = b"".join(self.pieces)
        self.pieces.clear()
        return found

    def value(self, value: Any) -> None:
        """Write ``value``'s canonical JSON, walking it so that no part larger than :data:`_SMALL`
        values is encoded before it is counted, and consuming :class:`Items` one at a time."""
        if isinstance(value, Raw):
            self.write(value)
        elif isinstance(value, int) and not -BIG < value < BIG:  # no str() past Python's cap: exact at any size
            self.write(int_text(value))
        elif isinstance(value, Mapping | list | tuple) and _small(value):
            self.write(_ENCODE(value))
        elif isinstance(value, Mapping):
            self.write("{")
            for i, key in enumerate(sorted(value)):
                self.write(("," if i else "") + _ENCODE(str(key)) + ":")
                self.value(value[key])
            self.write("}")
        elif isinstance(value, Items | list | tuple):
            self.write("[")
            for i, item in enumerate(value):
                if i:
                    self.write(",")
                self.value(item)
            self.write("]")
        else:
            self.write(_ENCODE(value))

    def encoded(self) -> list[bytes]:
        """The answer as UTF-8 pieces (written out one by one: no copy of it whole)."""
        self._settle()
        return self.pieces

    def text(self) -> str:
        return b"".join(self.encoded()).decode("utf-8")


def _small(value: Any) -> bool:
    """Whether ``value`` holds at most :data:`_SMALL` values and nothing written lazily (it is
    then encoded at once: its text is at most a few kilobytes past what it holds)."""
    left = _SMALL
    stack = [value]
    while stack:
        found = stack.pop()
        left -= 1
        if left < 0 or isinstance(found, Items | Raw):
            return False
        if isinstance(found, Mapping):
            stack.extend(found.values())
        elif isinstance(found, list | tuple):
            stack.extend(found)
        elif isinstance(found, str) and len(found) > 4096:
            return False
        elif isinstance(found, int) and not -BIG < found < BIG:
            return False  # written by int_text
    return True


def written(value: Any, cap: int, advice: str = "ask for less") -> str:
    """``value``'s canonical JSON, written by one :class:`Answer` of ``cap`` bytes."""
    out = Answer(cap, advice)
    out.value(value)
    return out.text()
