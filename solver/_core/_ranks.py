"""Ranking and unranking the pieces of a choice: k-subsets, multisets and the divisions of an
amount (601.2d), each in lexicographic order, counted with binomials, nothing listed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from math import comb


def _first_reaching(index: int, lo: int, hi: int, below: Callable[[int], int]) -> int:
    """The smallest x in [lo, hi) with index < below(x + 1), ``below`` increasing (binary search)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if index < below(mid + 1):
            hi = mid
        else:
            lo = mid + 1
    return lo


def _combinations_below(n: int, r: int, total: int, y: int) -> int:
    return total - comb(n - y, r)


def _multisets_below(n: int, r: int, total: int, y: int) -> int:
    return total - multichoose(n - y, r)


SEQUENTIAL_FROM = 64
"""Subsets of more elements than this are unranked element by element, not by binary search."""


def unrank_combination(n: int, k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th k-subset of range(n) in lexicographic order.

    Subsets whose smallest element is below x number C(n, k) − C(n − x, k); for a few elements
    a binary search finds each one, so the cost does not grow with n; for many (half of ten
    thousand candidates), walking x up once with each binomial stepped from the last is cheaper
    than a fresh binomial of thousands of digits per probe."""
    if k > SEQUENTIAL_FROM:
        return unrank_combination_walking(n, k, index)
    out: list[int] = []
    x = 0
    for r in range(k, 0, -1):
        total = comb(n - x, r)
        first = _first_reaching(index, x, n, partial(_combinations_below, n, r, total))
        index -= total - comb(n - first, r)
        out.append(first)
        x = first + 1
    return tuple(out)


def unrank_combination_walking(n: int, k: int, index: int) -> tuple[int, ...]:
    """:func:`unrank_combination` by one walk over range(n): ``c`` is the number of the
    remaining subsets that take ``x`` next, C(m, r − 1) with m = n − x − 1 elements after x."""
    out: list[int] = []
    r = k
    c = comb(n - 1, r - 1)
    for x in range(n):
        m = n - x - 1
        if index < c:  # take x
            out.append(x)
            r -= 1
            if r == 0:
                break
            c = c * r // m  # C(m - 1, r - 1) from C(m, r): taking x leaves r to choose among m
        else:
            index -= c
            c = c * (m - r + 1) // m  # C(m - 1, r - 1) from C(m, r - 1)
    return tuple(out)


def rank_combination(n: int, subset: Sequence[int]) -> int:
    index, x = 0, 0
    k = len(subset)
    for i, s in enumerate(subset):
        r = k - i
        index += comb(n - x, r) - comb(n - s, r)
        x = s + 1
    return index


def unrank_composition(amount: int, parts: int, index: int) -> tuple[int, ...]:
    """The ``index``-th way to divide ``amount`` into ``parts`` parts ≥ 1, first part ascending."""
    out: list[int] = []
    for left in range(parts, 1, -1):
        first = 1
        while True:
            c = comb(amount - first - 1, left - 2)
            if index < c:
                break
            index -= c
            first += 1
        out.append(first)
        amount -= first
    out.append(amount)
    return tuple(out)


def rank_composition(parts: Sequence[int]) -> int:
    index, amount = 0, sum(parts)
    for i, p in enumerate(parts[:-1]):
        left = len(parts) - i
        for first in range(1, p):
            index += comb(amount - first - 1, left - 2)
        amount -= p
    return index


def multichoose(n: int, k: int) -> int:
    return comb(n + k - 1, k) if n else (1 if k == 0 else 0)


def unrank_multiset(n: int, k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th non-decreasing k-sequence over range(n) in lexicographic order (sequences
    starting below x number M(n, k) − M(n − x, k); binary search, whatever n)."""
    out: list[int] = []
    x = 0
    for r in range(k, 0, -1):
        total = multichoose(n - x, r)
        first = _first_reaching(index, x, n, partial(_multisets_below, n, r, total))
        index -= total - multichoose(n - first, r)
        out.append(first)
        x = first
    return tuple(out)


def rank_multiset(n: int, seq: Sequence[int]) -> int:
    index, x = 0, 0
    k = len(seq)
    for i, s in enumerate(seq):
        r = k - i
        index += multichoose(n - x, r) - multichoose(n - s, r)
        x = s
    return index
