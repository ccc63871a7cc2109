"""Mode options (700.2): allowed numbers of modes, and the mode multisets a choice may take."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement

from ._shapes import Modal


def allowed_counts(modal: Modal | None) -> frozenset[int]:
    """How many modes may be chosen; a non-modal ability is one implicit mode chosen once."""
    return frozenset({1}) if modal is None else frozenset(modal.choose)


def iter_mode_choices(choosable: Sequence[int], counts: frozenset[int], repeat: bool) -> Iterator[tuple[int, ...]]:
    """Each multiset of modes (sorted mode indices) with an allowed, non-zero size.

    ``choosable`` are the modes that can be chosen at all; with ``repeat`` a mode may be chosen
    more than once (700.2d), each instance with its own targets.
    """
    pick = combinations_with_replacement if repeat else combinations
    for n in sorted(counts):
        if n == 0:
            continue
        yield from pick(sorted(choosable), n)
