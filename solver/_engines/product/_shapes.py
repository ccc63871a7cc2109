"""A block's shapes, for the product engine: which of its optional independent abilities are
placed, and the arrangement of the placed ones around the core abilities it holds — counted with
the abilities' weights, ranked, unranked and listed in rank order (see :mod:`.engine`, "The order
of outcomes", 2)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from math import perm

from ..._core._ranks import unrank_permutation

Arrangement = tuple[int | None, ...]  # None: the next core ability; else an independent ability


def arrangements(k: int, items: Sequence[int]) -> Iterator[Arrangement]:
    """Every arrangement of ``items`` (distinct) around ``k`` core slots kept in order."""
    if k == 0 and not items:
        yield ()
        return
    if k:
        for rest in arrangements(k - 1, items):
            yield (None, *rest)
    for i, a in enumerate(items):
        for rest in arrangements(k, [*items[:i], *items[i + 1 :]]):
            yield (a, *rest)


def unrank_arrangement(k: int, items: Sequence[int], x: int) -> Arrangement:
    """The arrangement of rank ``x`` among :func:`arrangements` ``(k, items)``, ``items`` sorted."""
    if k == 0:  # a plain permutation
        return tuple(unrank_permutation(items, x))
    left = list(items)
    out: list[int | None] = []
    while k or left:
        if k:
            c = perm(k - 1 + len(left), len(left))
            if x < c:
                out.append(None)
                k -= 1
                continue
            x -= c
        size = perm(k + len(left) - 1, len(left) - 1)
        i, x = divmod(x, size)
        out.append(left.pop(i))
    return tuple(out)


def rank_arrangement(k: int, seq: Arrangement) -> int:
    """The rank of ``seq`` among the arrangements of its abilities around ``k`` core slots."""
    left = sorted(a for a in seq if a is not None)
    x = 0
    for a in seq:
        if a is None:
            k -= 1
            continue
        if k:
            x += perm(k - 1 + len(left), len(left))
        size = perm(k + len(left) - 1, len(left) - 1)
        x += left.index(a) * size
        left.remove(a)
    return x


@dataclass
class BlockShapes:
    """One block's independent abilities: placed always, placed or removed, removed always."""

    index: int
    mandatory: tuple[int, ...]
    optional: tuple[int, ...]
    removed: tuple[int, ...]
    weight: dict[int, int]
    _g: dict[int, list[list[int]]] = field(default_factory=dict)

    @cached_property
    def base(self) -> int:
        n = 1
        for a in self.mandatory:
            n *= self.weight[a]
        return n

    def g(self, k: int) -> list[list[int]]:
        """g[i][t]: Σ over which of optional[i:] are placed, with t placed before, of the
        arrangements times the weights of those placed."""
        if k not in self._g:
            n, m = len(self.optional), len(self.mandatory)
            table = [[0] * (n + 1) for _ in range(n + 1)]
            for t in range(n + 1):
                table[n][t] = perm(k + m + t, m + t)
            for i in range(n - 1, -1, -1):
                w = self.weight[self.optional[i]]
                for t in range(i + 1):
                    table[i][t] = table[i + 1][t] + w * table[i + 1][t + 1]
            self._g[k] = table
        return self._g[k]

    def total(self, k: int) -> int:
        return self.base * self.g(k)[0][0]

    def unrank_shape(self, k: int, x: int) -> tuple[tuple[int, ...], Arrangement, int, int]:
        """The shape holding weighted index ``x``: (placed optional, arrangement, start, weight)."""
        g = self.g(k)
        base, start, t = self.base, 0, 0
        chosen: list[int] = []
        for i, o in enumerate(self.optional):
            skip = base * g[i + 1][t]
            if x < skip:
                continue
            x -= skip
            start += skip
            base *= self.weight[o]
            t += 1
            chosen.append(o)
        arrangement = x // base
        placed = sorted((*self.mandatory, *chosen))
        return tuple(chosen), unrank_arrangement(k, placed, arrangement), start + arrangement * base, base

    def rank_shape(self, k: int, chosen: set[int], arrangement: Arrangement) -> tuple[int, int]:
        """(start, weight) of a shape: the inverse of :meth:`unrank_shape`."""
        g = self.g(k)
        base, start, t = self.base, 0, 0
        for i, o in enumerate(self.optional):
            if o in chosen:
                start += base * g[i + 1][t]
                base *= self.weight[o]
                t += 1
        return start + rank_arrangement(k, arrangement) * base, base

    def iter_shapes(self, k: int) -> Iterator[tuple[tuple[int, ...], Arrangement]]:
        """Shapes in rank order: (placed optional abilities, arrangement)."""
        n = len(self.optional)

        def subsets(i: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if i == n:
                yield chosen
                return
            yield from subsets(i + 1, chosen)
            yield from subsets(i + 1, (*chosen, self.optional[i]))

        for chosen in subsets(0, ()):
            placed = sorted((*self.mandatory, *chosen))
            for arrangement in arrangements(k, placed):
                yield chosen, arrangement
