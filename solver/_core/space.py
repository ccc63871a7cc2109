"""An ability's choice space: its legal complete choices, counted, ranked and listed without a
search where the ability's own choices are independent of each other.

An ability whose requirements are independent (no ``different_from``, ``target_of``,
``distinct_targets`` or "must target") has choices that are a product: for each multiset of modes,
the multisets of instances of each mode, each instance a product over its requirements of (a set
of targets, a division). Those are counted with binomials and unranked directly, so a requirement
with sixty candidates and any number of targets costs nothing until one choice is asked for.
Where an ability's own choices are coupled, the shared search lists them
(:func:`~.must.iter_legal_choices`, which applies 601.2c's maximality).

Choices are judged with the given waiting abilities on the stack (``on_stack``); rank order is
the order of :meth:`ChoiceSpace.unrank` and of iteration.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import accumulate
from math import comb

from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._limits import DEFAULT_LIMITS, NO_DEADLINE, Deadline, Limits
from triggerstack.model._modes import iter_mode_choices

from .._errors import EngineCannot
from .indexed import Choice, ModeInstance
from .must import iter_legal_choices

__all__ = ["ChoiceSpace", "Reach", "is_independent", "space_for"]


def is_independent(a: AbilityFacts) -> bool:
    """Whether ``a``'s own choices are a plain product (no coupling between its targets)."""
    if a.must or a.distinct_targets:
        return False
    return not any(r.different_from or r.depends_on for m in a.modes for r in m.requirements)


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
    return total - _multichoose(n - y, r)


SEQUENTIAL_FROM = 64
"""Subsets of more elements than this are unranked element by element, not by binary search."""


def _unrank_combination(n: int, k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th k-subset of range(n) in lexicographic order.

    Subsets whose smallest element is below x number C(n, k) − C(n − x, k); for a few elements
    a binary search finds each one, so the cost does not grow with n; for many (half of ten
    thousand candidates), walking x up once with each binomial stepped from the last is cheaper
    than a fresh binomial of thousands of digits per probe."""
    if k > SEQUENTIAL_FROM:
        return _unrank_combination_walking(n, k, index)
    out: list[int] = []
    x = 0
    for r in range(k, 0, -1):
        total = comb(n - x, r)
        first = _first_reaching(index, x, n, partial(_combinations_below, n, r, total))
        index -= total - comb(n - first, r)
        out.append(first)
        x = first + 1
    return tuple(out)


def _unrank_combination_walking(n: int, k: int, index: int) -> tuple[int, ...]:
    """:func:`_unrank_combination` by one walk over range(n): ``c`` is the number of the
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


def _rank_combination(n: int, subset: Sequence[int]) -> int:
    index, x = 0, 0
    k = len(subset)
    for i, s in enumerate(subset):
        r = k - i
        index += comb(n - x, r) - comb(n - s, r)
        x = s + 1
    return index


def _unrank_composition(amount: int, parts: int, index: int) -> tuple[int, ...]:
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


def _rank_composition(parts: Sequence[int]) -> int:
    index, amount = 0, sum(parts)
    for i, p in enumerate(parts[:-1]):
        left = len(parts) - i
        for first in range(1, p):
            index += comb(amount - first - 1, left - 2)
        amount -= p
    return index


def _multichoose(n: int, k: int) -> int:
    return comb(n + k - 1, k) if n else (1 if k == 0 else 0)


def _unrank_multiset(n: int, k: int, index: int) -> tuple[int, ...]:
    """The ``index``-th non-decreasing k-sequence over range(n) in lexicographic order (sequences
    starting below x number M(n, k) − M(n − x, k); binary search, whatever n)."""
    out: list[int] = []
    x = 0
    for r in range(k, 0, -1):
        total = _multichoose(n - x, r)
        first = _first_reaching(index, x, n, partial(_multisets_below, n, r, total))
        index -= total - _multichoose(n - first, r)
        out.append(first)
        x = first
    return tuple(out)


def _rank_multiset(n: int, seq: Sequence[int]) -> int:
    index, x = 0, 0
    k = len(seq)
    for i, s in enumerate(seq):
        r = k - i
        index += _multichoose(n - x, r) - _multichoose(n - s, r)
        x = s
    return index


RequirementParts = tuple[tuple[int, ...], int, int, int | None]
"""A requirement of a product space: its pool, the fewest and the most targets, the amount divided."""


@dataclass
class Reach:
    """What some legal choices of an ability take: modes, and things per (mode, requirement)."""

    modes: set[int] = field(default_factory=set)
    targets: dict[tuple[int, int], set[int]] = field(default_factory=dict)

    def add(self, choice: Choice) -> None:
        for inst in choice.modes:
            self.modes.add(inst.mode)
            for r, ts in enumerate(inst.targets):
                self.targets.setdefault((inst.mode, r), set()).update(ts)

    def update(self, other: Reach) -> None:
        self.modes |= other.modes
        for key, things in other.targets.items():
            self.targets.setdefault(key, set()).update(things)


@dataclass(frozen=True, slots=True)
class _Requirement:
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
        subset = _unrank_combination(len(self.pool), n, index // d)
        targets = tuple(self.pool[i] for i in subset)
        div = _unrank_composition(self.divide, n, index % d) if self.divide is not None and n else ()
        return targets, div

    def rank(self, targets: Sequence[int], div: Sequence[int]) -> int:
        n = len(targets)
        if not self.low <= n <= self.high:
            raise ValueError(f"{n} targets outside {self.low}..{self.high}")
        ends = self._running()
        index = ends[n - self.low - 1] if n > self.low else 0
        where = {t: i for i, t in enumerate(self.pool)}
        sub = _rank_combination(len(self.pool), [where[t] for t in targets])
        d = self._divisions(n)
        return index + sub * d + (_rank_composition(div) if self.divide is not None and n else 0)


@dataclass(frozen=True)
class _Mode:
    """The instances of one mode: a product over its requirements (the last varies fastest)."""

    mode: int
    reqs: tuple[_Requirement, ...]

    @cached_property
    def count(self) -> int:
        n = 1
        for r in self.reqs:
            n *= r.count
        return n

    def unrank(self, index: int) -> ModeInstance:
        targets: list[tuple[int, ...]] = []
        divs: list[tuple[int, ...]] = []
        for r in reversed(self.reqs):
            index, digit = divmod(index, r.count)
            t, d = r.unrank(digit)
            targets.append(t)
            divs.append(d)
        targets.reverse()
        divs.reverse()
        return ModeInstance(self.mode, tuple(targets), tuple(divs) if any(divs) else ())

    def rank(self, inst: ModeInstance) -> int:
        index = 0
        for i, r in enumerate(self.reqs):
            div = inst.divide[i] if inst.divide else ()
            index = index * r.count + r.rank(inst.targets[i], div)
        return index


@dataclass
class ChoiceSpace:
    """The legal complete choices of one ability, in rank order."""

    ability: AbilityFacts
    limits: Limits = DEFAULT_LIMITS
    deadline: Deadline = NO_DEADLINE
    _modes: dict[int, _Mode] = field(default_factory=dict)
    _multisets: list[tuple[int, ...]] = field(default_factory=list)
    _listed: list[Choice] | None = None
    _index: dict[Choice, int] | None = None

    @cached_property
    def _sizes(self) -> list[int]:
        return [self._multiset_count(ms) for ms in self._multisets]

    def _multiset_count(self, modes: tuple[int, ...]) -> int:
        n = 1
        for m in sorted(set(modes)):
            n *= _multichoose(self._modes[m].count, modes.count(m))
        return n

    @cached_property
    def count(self) -> int:
        """How many choices (fixed once the space is built; listing them does not change it)."""
        if self._listed is not None:
            return len(self._listed)
        return sum(self._sizes)

    def unrank(self, index: int) -> Choice:
        """The ``index``-th choice (0 ≤ index < count)."""
        if self._listed is not None:
            return self._listed[index]
        if not 0 <= index < self.count:
            raise IndexError(index)
        for modes, size in zip(self._multisets, self._sizes, strict=True):
            if index < size:
                return self._unrank_in(modes, index)
            index -= size
        raise IndexError(index)

    def _unrank_in(self, modes: tuple[int, ...], index: int) -> Choice:
        distinct = sorted(set(modes))
        instances: list[ModeInstance] = []
        for m in reversed(distinct):
            mode = self._modes[m]
            copies = modes.count(m)
            radix = _multichoose(mode.count, copies)
            index, digit = divmod(index, radix)
            for i in _unrank_multiset(mode.count, copies, digit):
                instances.append(mode.unrank(i))
        return Choice(tuple(sorted(instances)))

    def rank(self, choice: Choice) -> int:
        """The index of ``choice`` (the inverse of :meth:`unrank`)."""
        if self._listed is not None:
            if self._index is None:
                self._index = {c: i for i, c in enumerate(self._listed)}
            return self._index[choice]
        modes = tuple(sorted(i.mode for i in choice.modes))
        index = sum(self._sizes[: self._multisets.index(modes)])
        within = 0
        for m in sorted(set(modes)):
            mode = self._modes[m]
            ranks = sorted(mode.rank(i) for i in choice.modes if i.mode == m)
            within = within * _multichoose(mode.count, len(ranks)) + _rank_multiset(mode.count, ranks)
        return index + within

    def __iter__(self) -> Iterator[Choice]:
        if self._listed is not None:
            return iter(self._listed)
        return (self.unrank(i) for i in range(self.count))

    def reach(self) -> Reach:
        """The modes and targets some choice of the space takes (without listing a combinatorial
        space: there every mode of an allowed multiset is taken, and every target of its pool)."""
        reach = Reach()
        if self._listed is not None:
            for choice in self._listed:
                reach.add(choice)
            return reach
        for modes in self._multisets:
            for m in modes:
                reach.modes.add(m)
                for r, req in enumerate(self._modes[m].reqs):
                    reach.targets.setdefault((m, r), set()).update(req.pool if req.high >= 1 else ())
        return reach

    def best(self, mode_weight: Sequence[int], thing_weight: Callable[[int], int]) -> tuple[Choice, int] | None:
        """The choice with the highest weight — Σ of each chosen mode instance's ``mode_weight``
        and of each chosen target's ``thing_weight`` (docs/cli.md's mode and target weights) — and
        that weight, found part by part without listing the space: per requirement the heaviest
        targets (at least its minimum, more while they add), per mode its best instance (every
        copy of a repeated mode alike), then the best multiset of modes. ``None`` for a listed
        space or an empty one (scan :meth:`as_list` for a listed one)."""
        if self._listed is not None or not self._multisets:
            return None
        best_instance: dict[int, tuple[ModeInstance, int]] = {}
        for m, mode in self._modes.items():
            targets: list[tuple[int, ...]] = []
            divs: list[tuple[int, ...]] = []
            value = mode_weight[m]
            for r in mode.reqs:
                heaviest = sorted(r.pool, key=lambda t: -thing_weight(t))  # stable: ties keep pool order
                n = r.low + sum(1 for t in heaviest[r.low : r.high] if thing_weight(t) > 0)
                chosen = tuple(sorted(heaviest[:n]))
                value += sum(thing_weight(t) for t in chosen)
                targets.append(chosen)
                divs.append(_unrank_composition(r.divide, n, 0) if r.divide is not None and n else ())
            best_instance[m] = (ModeInstance(m, tuple(targets), tuple(divs) if any(divs) else ()), value)
        top: tuple[Choice, int] | None = None
        for modes in self._multisets:
            value = sum(best_instance[m][1] for m in modes)
            if top is None or value > top[1]:
                top = (Choice(tuple(sorted(best_instance[m][0] for m in modes))), value)
        return top

    def product(self) -> tuple[list[tuple[int, ...]], dict[int, list[RequirementParts]]] | None:
        """The parts of a space that is a product (None: a listed one): its multisets of modes,
        and per mode, per requirement, (pool, fewest targets, most targets, amount divided)."""
        if self._listed is not None:
            return None
        modes = {m: [(r.pool, r.low, r.high, r.divide) for r in mode.reqs] for m, mode in self._modes.items()}
        return list(self._multisets), modes

    def as_list(self) -> list[Choice]:
        """Every choice in rank order (listed once and kept); more than ``limits.choices`` is
        refused before anything is listed."""
        if self._listed is None:
            if self.count > self.limits.choices:
                raise EngineCannot(
                    f"{self.ability.id} has {self.count} legal choices; listing more than {self.limits.choices} is "
                    "refused (raise it with --max-choices)"
                )
            listed = []
            for i in range(self.count):
                if i % 4096 == 4095:
                    self.deadline.check(f"listing the choices of {self.ability.id}")
                listed.append(self.unrank(i))
            self._listed = listed
        return self._listed


def _product(facts: Facts, a: AbilityFacts, on_stack: frozenset[int], space: ChoiceSpace) -> ChoiceSpace:
    """``space`` as the product of ``a``'s modes, requirements and divisions (exact where the
    ability's own choices are independent, an upper bound on them otherwise)."""
    for m in a.modes:
        if not m.available:
            continue
        reqs = []
        for r in m.requirements:
            pool = facts.available(r, on_stack)
            reqs.append(_Requirement(pool, r.min, r.most(len(pool)), r.divide))
        mode = _Mode(m.index, tuple(reqs))
        if mode.count:
            space._modes[m.index] = mode
    space._multisets = sorted(iter_mode_choices(sorted(space._modes), a.choose, a.repeat), key=lambda ms: (len(ms), ms))
    return space


def space_for(
    facts: Facts,
    a: AbilityFacts,
    on_stack: frozenset[int] = frozenset(),
    limits: Limits = DEFAULT_LIMITS,
    deadline: Deadline = NO_DEADLINE,
) -> ChoiceSpace:
    """The choice space of ``a`` with ``on_stack`` below it: combinatorial where its own choices
    are independent; listed where they are coupled — once the product it is drawn from is
    counted and found within ``limits.choices`` (nothing is listed past the cap)."""
    space = ChoiceSpace(a, limits=limits, deadline=deadline)
    if a.forced_removal is not None:
        space._listed = []
        return space
    if is_independent(a):
        return _product(facts, a, on_stack, space)
    bound = _product(facts, a, on_stack, ChoiceSpace(a)).count
    if bound > limits.choices:
        raise EngineCannot(
            f"{a.id}'s choices are listed one by one (its targets are linked by different_from, target_of, "
            f"distinct modes or a must-target effect), and up to {bound} of them could be legal: more than the "
            f"limit of {limits.choices} (raise it with --max-choices)"
        )
    space._listed = sorted(set(iter_legal_choices(facts, a, on_stack, limits.choices, deadline)))
    return space
