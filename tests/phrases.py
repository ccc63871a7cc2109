"""How each target phrase was read, word by word: the accounting the card suite and the coverage
benchmark hold the reader to (every word of a phrase read whole is consumed by a named rule).

Private unit: model/cards/_phrase, whose ``RECORD`` hook lists the phrases it reads, which no public name says."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from triggerstack.model.cards import _phrase


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


@contextmanager
def recording() -> Iterator[list[Account]]:
    """Every target phrase read while the block runs, as an :class:`Account` once it ends."""
    saved, _phrase.RECORD = _phrase.RECORD, []
    accounts: list[Account] = []
    try:
        yield accounts
    finally:
        accounts.extend(Account(*read) for read in _phrase.RECORD)
        _phrase.RECORD = saved
