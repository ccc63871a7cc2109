"""Ranking and unranking the pieces of a choice: k-subsets, multisets and the divisions of an
amount (601.2d), each in lexicographic order, counted with binomials, nothing listed; and
:class:`TargetSets`, one requirement's choices (a set of targets within its bounds, and a
division) built from them."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate
from math import comb, factorial


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


def unrank_permutation(items: Sequence[int], index: int) -> list[int]:
    """The ``index``-th ordering of ``items`` (sorted) in lexicographic order: the factorial number system."""
    left, out = list(items), []
    for k in range(len(left) - 1, -1, -1):
        q, index = divmod(index, factorial(k))
        out.append(left.pop(q))
    return out


def rank_permutation(seq: Sequence[int]) -> int:
    left, index = sorted(seq), 0
    for k, x in enumerate(seq):
        i = left.index(x)
        index += i * factorial(len(seq) - 1 - k)
        left.pop(i)
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
    """The ``index``-th non-decreasing k-sequence over range(n) in lexicographic order: the
    k-subset of range(n + k − 1) of that rank, its i-th element less i (a bijection that keeps the
    order, so M(n, k) = C(n + k − 1, k) and ranks carry over)."""
    return tuple(c - i for i, c in enumerate(unrank_combination(n + k - 1, k, index)))


def rank_multiset(n: int, seq: Sequence[int]) -> int:
    return rank_combination(n + len(seq) - 1, [s + i for i, s in enumerate(seq)])


@dataclass(frozen=True, slots=True)
class TargetSets:
    """The choices of one requirement: a set of targets within the bounds, and a division.

    Its choices come by number of targets (``low`` … ``high``), each number's block holding
    C(pool, n) target sets times the divisions of the amount among n targets. The count is summed
    with binomials stepped one from the next; the blocks' running totals are kept only once
    something is unranked or ranked (a big pool's totals are big integers)."""

    pool: tuple[int, ...]
    low: int
    high: int
    divide: int | None
    count: int = field(init=False)
    _ends: list[int] | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "count", sum(self._sizes()))

    def _divisions(self, n: int) -> int:
        if self.divide is None or n == 0:
            return 1
        return comb(self.divide - 1, n - 1)

    def _sizes(self) -> Iterator[int]:
        """The size of each block, n = low … high."""
        size = len(self.pool)
        if self.low > self.high or self.low > size:
            return
        sets = comb(size, self.low)
        for n in range(self.low, self.high + 1):
            yield sets * self._divisions(n)
            sets = sets * (size - n) // (n + 1)

    def _running(self) -> list[int]:
        if self._ends is None:
            object.__setattr__(self, "_ends", list(accumulate(self._sizes())))
        assert self._ends is not None
        return self._ends

    def unrank(self, index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        ends = self._running()
        k = bisect_right(ends, index)
        if k == len(ends):
            raise IndexError(index)
        n = self.low + k
        index -= ends[k - 1] if k else 0
        d = self._divisions(n)
        subset = unrank_combination(len(self.pool), n, index // d)
        targets = tuple(self.pool[i] for i in subset)
        div = unrank_composition(self.divide, n, index % d) if self.divide is not None and n else ()
        return targets, div

    def rank(self, targets: Sequence[int], div: Sequence[int]) -> int:
        n = len(targets)
        if not self.low <= n <= self.high:
            raise ValueError(f"{n} targets outside {self.low}..{self.high}")
        ends = self._running()
        index = ends[n - self.low - 1] if n > self.low else 0
        where = {t: i for i, t in enumerate(self.pool)}
        sub = rank_combination(len(self.pool), [where[t] for t in targets])
        d = self._divisions(n)
        return index + sub * d + (rank_composition(div) if self.divide is not None and n else 0)
