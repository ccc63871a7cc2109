"""Every outcome of a pass by direct search, each once: for the abilities that may target each
other (the product engine's coupled core), where what one may choose depends on what is below it.

Block by block (603.3b), the search first decides which abilities are removed — only those that
may be (603.3c–d: no legal choice at the start of the block, where only earlier blocks are on the
stack, or zero modes allowed, or never put on the stack at all) — and then puts the others on the
stack in every order, each with every legal choice given what is below it at that moment
(its choice space, :func:`~.space.space_for`, "must target" included). A removed set and a
sequence of placed choices is one outcome and no two are the same, so nothing is deduplicated; an
order in which some ability finds no legal choice where it stands leads to no outcome. Choices are
listed once per ability and per set of the waiting abilities it could target that are below it.

:class:`Counting` counts the same outcomes by dynamic programming, and ranks and unranks them in
the order the search finds them, without listing any.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import combinations
from random import Random
from typing import TypeVar

from triggerstack.model._facts import Facts
from triggerstack.model._limits import Deadline, Limits

from .._errors import EngineCannot
from .indexed import Choice, IndexedOutcome, Placed
from .space import ChoiceSpace, Reach, space_for

T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")
_Placements = tuple[list[int], list[tuple[int, int, frozenset[int]]]]


class _Listing:
    """Choices listed as they are first walked: the first outcome needs one of them, not all."""

    def __init__(self, walk: Iterator[Choice]) -> None:
        self.walk: Iterator[Choice] | None = walk
        self.listed: list[Choice] = []

    def __iter__(self) -> Iterator[Choice]:
        i = 0
        while True:
            if i == len(self.listed):
                if self.walk is None:
                    return
                more = next(self.walk, None)
                if more is None:
                    self.walk = None
                    return
                self.listed.append(more)
            yield self.listed[i]
            i += 1


class _Search:
    """The outcomes of a pass one by one, in the order :class:`Counting` ranks them."""

    def __init__(self, counting: Counting) -> None:
        self.counting = counting
        self.deadline = counting.deadline
        self._choices: dict[tuple[int, frozenset[int]], _Listing] = {}
        self.steps = 0

    def choices(self, k: int, below: frozenset[int]) -> Iterable[Choice]:
        """``k``'s choices with ``below`` on the stack, in rank order: listed as the search first
        walks them and kept while it runs (each choice object then names one choice) when there
        are at most ``--max-choices`` of them, else walked afresh each time (nothing listed)."""
        key = (k, below & self.counting.facts.abilities[k].waiting_targets)
        found = self._choices.get(key)
        if found is None:
            space = self.counting.space(k, key[1])
            if space.count > self.counting.limits.choices:
                return space
            found = self._choices[key] = _Listing(iter(space))
        return found

    def blocks(self, b: int, stack: tuple[Placed, ...], removed: tuple[int, ...]) -> Iterator[IndexedOutcome]:
        counting = self.counting
        if b == len(counting.mine):
            yield IndexedOutcome(stack, tuple(sorted(removed)))
            return
        below = frozenset(p.ability for p in stack)
        mine = counting.mine[b]
        for placed, gone in counting.endings(mine, below):
            for rest in self.orders(placed, stack, below):
                yield from self.blocks(b + 1, rest, (*removed, *gone))

    def orders(self, left: list[int], stack: tuple[Placed, ...], below: frozenset[int]) -> Iterator[tuple[Placed, ...]]:
        if not left:
            yield stack
            return
        self.steps += 1
        if self.steps % 1024 == 0:
            self.deadline.check("searching the abilities that may target each other")
        for i, k in enumerate(left):
            others = left[:i] + left[i + 1 :]
            for choice in self.choices(k, below):
                yield from self.orders(others, (*stack, Placed(k, choice)), below | {k})


class _Kept(dict[K, V]):
    """A dict that keeps at most ``size`` entries, dropping the oldest (what a rank or a draw
    asks again and again stays; memory does not grow with how many are asked)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: K, value: V) -> V:
        if len(self) >= self.size:
            del self[next(iter(self))]
        self[key] = value
        return value


MAX_BLOCK = 16
"""The most abilities of one block that :class:`Counting` counts over the subsets of (2^n)."""


class Counting:
    """The outcomes of a pass counted, ranked and unranked by dynamic programming over blocks and
    subsets, nothing listed.

    An ability's choices depend on what is below it only through which of the waiting abilities it
    could target are on the stack (its ``waiting_targets``), and whether it may be removed only on
    what is below at its block's start (603.3c–d). So, block by block, with ``B`` the abilities
    placed in earlier blocks: ``f(S)`` — the ways to put exactly the set ``S`` of the block's
    abilities on the stack, in some order, each with a legal choice given what is below it — is a
    sum over the last one put, ``f(S) = Σ_{k∈S} f(S−k)·c(k, B ∪ S−k)``; the block's outcomes with
    the removable set ``G`` removed are ``f(mine − G)``; and what follows depends on ``B`` only
    through the abilities later blocks could target. ``c`` is a choice space's count (counted
    by binomials or by a programme; listed, within ``--max-choices``, only where no programme
    takes an ability's linked choices: :func:`~.space.space_for`).

    The rank order is the direct search's (:meth:`Counting.outcomes`), from most to least
    significant: per block from the bottom, the removed set (fewer first, then by position in the
    block), then the abilities put from the bottom up — which one (by position in the block),
    its choice (in its space's rank order) — then the next block. With ``weight``, each outcome
    holds ``Π weight(block, placed in it)`` consecutive ranks (the product engine's arrangements
    of independent abilities around a core outcome)."""

    def __init__(
        self,
        facts: Facts,
        limits: Limits,
        deadline: Deadline,
        weight: Callable[[int, int], int] = lambda _b, _k: 1,
    ) -> None:
        self.facts = facts
        self.weight = weight
        self.limits = limits
        self.deadline = deadline
        self._counts: dict[tuple[int, frozenset[int]], int] = {}
        self._memo: dict[tuple[int, frozenset[int]], int] = {}
        self._spaces: _Kept[tuple[int, frozenset[int]], ChoiceSpace] = _Kept(4096)
        self._placements: _Kept[tuple[tuple[int, ...], frozenset[int]], _Placements] = _Kept(64)
        self._onward: _Kept[tuple[tuple[int, ...], frozenset[int], int], list[int]] = _Kept(64)
        blocks = facts.blocks
        self.never = tuple(a.index for a in facts.abilities if a.block is None or a.forced_removal is not None)
        self.mine = [tuple(k for k in b.abilities if facts.abilities[k].forced_removal is None) for b in blocks]
        self.later: list[frozenset[int]] = []
        seen: frozenset[int] = frozenset()
        for b in reversed(blocks):
            self.later.append(seen)
            for k in b.abilities:
                seen |= facts.abilities[k].waiting_targets
        self.later.reverse()
        # What of ``below`` a block's abilities depend on, and what its count depends on (that and
        # what a later block could target).
        self.near = [frozenset(t for k in b.abilities for t in facts.abilities[k].waiting_targets) for b in blocks]
        self.keep = [self.later[i] | self.near[i] for i in range(len(blocks))]
        self._near = {mine: near for mine, near in zip(self.mine, self.near, strict=True)}

    def outcomes(self) -> Iterator[IndexedOutcome]:
        """Every outcome once, lazily, by the direct search, in rank order (its choices listed
        within ``limits.choices``, from the spaces this counting keeps)."""
        return _Search(self).blocks(0, (), self.never)

    def space(self, k: int, below: frozenset[int]) -> ChoiceSpace:
        """``k``'s choice space with ``below`` on the stack (kept while asked)."""
        key = (k, below & self.facts.abilities[k].waiting_targets)
        found = self._spaces.get(key)
        if found is None:
            a = self.facts.abilities[k]
            found = self._spaces.keep(key, space_for(self.facts, a, key[1], self.limits, self.deadline))
        return found

    def choices(self, k: int, below: frozenset[int]) -> int:
        a = self.facts.abilities[k]
        key = (k, below & a.waiting_targets)
        found = self._counts.get(key)
        if found is None:
            found = self._counts[key] = self.space(k, key[1]).count
        return found

    def removable(self, k: int, below: frozenset[int]) -> bool:
        a = self.facts.abilities[k]
        return a.forced_removal is not None or a.may_choose_zero or self.choices(k, below) == 0

    def orders(self, mine: tuple[int, ...], below: frozenset[int]) -> list[int]:
        """``f`` over the subsets of ``mine`` (bit i: ``mine[i]``), on ``below``."""
        n = len(mine)
        f = [0] * (1 << n)
        f[0] = 1
        for mask in range(1 << n):
            if not f[mask]:
                continue
            if mask & 1023 == 1023:
                self.deadline.check("counting the orders of a block")
            here = below | {mine[i] for i in range(n) if mask >> i & 1}
            for i in range(n):
                if not mask >> i & 1:
                    c = self.choices(mine[i], here)
                    if c:
                        f[mask | 1 << i] += f[mask] * c
        return f

    def total(self, b: int, below: frozenset[int]) -> int:
        """Σ over the ways to decide blocks ``b``… with ``below`` on the stack of Π ``weight``."""
        if b == len(self.mine):
            return 1
        key = (b, below & self.keep[b])
        found = self._memo.get(key)
        if found is not None:
            return found
        mine = self.mine[b]
        if len(mine) > MAX_BLOCK:
            raise EngineCannot(
                f"{len(mine)} abilities that may target each other in one block are more than this count "
                f"handles ({MAX_BLOCK}: it sums over their subsets)"
            )
        out = self.block(mine, below, lambda k: self.weight(b, k), lambda put: self.total(b + 1, below | put))
        self._memo[key] = out
        return out

    def block(
        self,
        mine: tuple[int, ...],
        below: frozenset[int],
        weight: Callable[[int], int],
        after: Callable[[frozenset[int]], int],
    ) -> int:
        """Σ over the ways to decide the abilities ``mine`` of a block on ``below`` — which of the
        removable ones are removed, then the others put in some order, each with a legal choice —
        of ``weight(how many are put) · after(the set put)``."""
        return sum(ways * weight(len(put)) * after(put) for _, ways, put in self.placements(mine, below)[1])

    def placements(self, mine: tuple[int, ...], below: frozenset[int]) -> _Placements:
        """``f`` over the subsets of ``mine`` on ``below`` (see :meth:`orders`), and each lawful
        end of the block in rank order: (the mask of those put, the ways to put them, the set
        put) — the removed are some of those that may be removed (fewer first), and the others
        can be put in some order."""
        key = (mine, below & self.near_of(mine))
        found = self._placements.get(key)
        if found is not None:
            return found
        f = self.orders(mine, below)
        may_go = [i for i, k in enumerate(mine) if self.removable(k, below)]
        full = (1 << len(mine)) - 1
        ends = []
        for n in range(len(may_go) + 1):
            for gone in combinations(may_go, n):
                placed = full
                for i in gone:
                    placed ^= 1 << i
                if f[placed]:
                    ends.append((placed, f[placed], frozenset(mine[i] for i in range(len(mine)) if placed >> i & 1)))
        return self._placements.keep(key, (f, ends))

    def endings(self, mine: tuple[int, ...], below: frozenset[int]) -> Iterator[tuple[list[int], list[int]]]:
        """Each lawful end of the block, in rank order: (those put, in block order; those removed)."""
        for mask, _, _ in self.placements(mine, below)[1]:
            yield [k for i, k in enumerate(mine) if mask >> i & 1], [k for i, k in enumerate(mine) if not mask >> i & 1]

    def _onward_ways(self, mine: tuple[int, ...], below: frozenset[int], placed: int) -> list[int]:
        """t[U]: the ways to put the rest of ``placed`` (a mask over ``mine``) once the subset
        ``U`` of it is on ``below`` — the block's orders counted from the bottom up (``t[0]`` is
        ``f[placed]``), for ranking the order in which they are put."""
        key = (mine, below & self.near_of(mine), placed)
        found = self._onward.get(key)
        if found is not None:
            return found
        n = len(mine)
        t = [0] * (1 << n)
        t[placed] = 1
        sub = placed
        while sub:
            sub = (sub - 1) & placed
            here = below | {mine[i] for i in range(n) if sub >> i & 1}
            t[sub] = sum(
                self.choices(mine[i], here) * t[sub | 1 << i] for i in range(n) if placed >> i & 1 and not sub >> i & 1
            )
        return self._onward.keep(key, t)

    def near_of(self, mine: tuple[int, ...]) -> frozenset[int]:
        """What of ``below`` the abilities ``mine`` depend on: the waiting abilities they could target."""
        near = self._near.get(mine)
        if near is None:
            near = self._near[mine] = frozenset(t for k in mine for t in self.facts.abilities[k].waiting_targets)
        return near

    def _weighed(self, b: int, below: frozenset[int]) -> Iterator[tuple[int, int, frozenset[int], int, int]]:
        """Block ``b``'s lawful ends on ``below`` in rank order, each with its weight and the
        ranks one of its orders holds: (mask, ways, set put, weight, unit)."""
        for mask, ways, put in self.placements(self.mine[b], below)[1]:
            w = self.weight(b, len(put))
            yield mask, ways, put, w, w * self.total(b + 1, below | put)

    def unrank(self, r: int) -> tuple[IndexedOutcome, int]:
        """The outcome holding weighted rank ``r`` (0 ≤ r < ``total(0, ∅)``) and the first rank
        it holds: per block, the ending whose ranks hold ``r``, then the order and the choices
        within it, from the bottom up — the inverse of :meth:`rank`."""
        below: frozenset[int] = frozenset()
        stack: list[Placed] = []
        removed = list(self.never)
        start, scale = 0, 1
        for b, mine in enumerate(self.mine):
            for end in self._weighed(b, below):
                if r < end[1] * end[4]:
                    break
                r -= end[1] * end[4]
                start += scale * end[1] * end[4]
            else:
                raise IndexError("rank past the count")
            mask, _, put, w, unit = end
            q, r = divmod(r, unit)
            start += scale * q * unit
            t = self._onward_ways(mine, below, mask)
            here, done = below, 0
            while done != mask:
                for i, k in enumerate(mine):
                    if not mask >> i & 1 or done >> i & 1:
                        continue
                    rest = t[done | 1 << i]
                    span = self.choices(k, here) * rest
                    if q < span:
                        c, q = divmod(q, rest)
                        stack.append(Placed(k, self.space(k, here).unrank(c)))
                        done |= 1 << i
                        here = here | {k}
                        break
                    q -= span
            removed.extend(k for i, k in enumerate(mine) if not mask >> i & 1)
            below = below | put
            scale *= w
            r //= w
        return IndexedOutcome(tuple(stack), tuple(sorted(removed))), start

    def rank(self, outcome: IndexedOutcome) -> int:
        """The first weighted rank ``outcome`` holds (``ValueError`` when it is not an outcome of
        the pass: an ability in the wrong block, a choice not in its space, an end not lawful)."""
        block_of = [a.block for a in self.facts.abilities]
        by_block: dict[int | None, list[Placed]] = {}
        for p in outcome.stack:
            by_block.setdefault(block_of[p.ability], []).append(p)
        below: frozenset[int] = frozenset()
        start, scale = 0, 1
        for b, mine in enumerate(self.mine):
            entries = by_block.pop(self.facts.blocks[b].index, [])
            where = {k: i for i, k in enumerate(mine)}
            mask = 0
            for p in entries:
                if p.ability not in where or mask >> where[p.ability] & 1:
                    raise ValueError(f"{self.facts.abilities[p.ability].id} is not put once in its block")
                mask |= 1 << where[p.ability]
            skip = 0
            for end in self._weighed(b, below):
                if end[0] == mask:
                    break
                skip += end[1] * end[4]
            else:
                raise ValueError("not a lawful end of the block")
            _, _, put, w, unit = end
            t = self._onward_ways(mine, below, mask)
            here, done, q = below, 0, 0
            for p in entries:
                for i, k in enumerate(mine[: where[p.ability]]):  # those put first at this height
                    if mask >> i & 1 and not done >> i & 1:
                        q += self.choices(k, here) * t[done | 1 << i]
                j = where[p.ability]
                try:
                    q += self.space(p.ability, here).rank(p.choice) * t[done | 1 << j]
                except (KeyError, IndexError) as exc:
                    raise ValueError(f"{self.facts.abilities[p.ability].id} has no such choice there") from exc
                done |= 1 << j
                here = here | {p.ability}
            start += scale * (skip + q * unit)
            below = below | put
            scale *= w
        if by_block:
            raise ValueError("an ability is put on the stack that is never put there")
        return start

    def reach(self) -> tuple[list[set[bool]], list[Reach]]:
        """What the outcomes do with each ability, without listing them: per ability, whether
        some outcome places it (True) and some removes it (False), and the modes and targets some
        outcome chooses. An ability put with ``X`` below it in some outcome takes every choice of
        its space on ``X`` in some outcome (the others' choices depend on sets, not on its choice),
        so this is the union of those spaces' reach over the places it can stand — and those ``X``
        (of what it could target) are what the outcomes put below it (``Reach.below``)."""
        facts = self.facts
        placed: list[set[bool]] = [set() for _ in facts.abilities]
        reach = [Reach() for _ in facts.abilities]
        seen: set[tuple[int, frozenset[int]]] = set()
        spaces: set[tuple[int, frozenset[int]]] = set()
        for a in facts.abilities:
            if a.block is None or a.forced_removal is not None:
                placed[a.index].add(False)
        pending = [(0, frozenset[int]())]
        while pending:
            b, below = pending.pop()
            key = (b, below & self.keep[b]) if b < len(facts.blocks) else (b, below)
            if b == len(facts.blocks) or key in seen:
                continue
            seen.add(key)
            mine = self.mine[b]
            f, ends = self.placements(mine, below)
            n = len(mine)
            good = [False] * (1 << n)
            for mask, _, put in ends:  # a lawful end of the block that the blocks after can complete
                if self.total(b + 1, below | put):
                    good[mask] = True
                    pending.append((b + 1, below | put))
                    for i in range(n):
                        if not mask >> i & 1:
                            placed[mine[i]].add(False)
            for mask in range((1 << n) - 1, -1, -1):  # good: some valid set of placed extends it
                if not good[mask]:
                    here = below | {mine[i] for i in range(n) if mask >> i & 1}
                    good[mask] = any(
                        not mask >> i & 1 and good[mask | 1 << i] and self.choices(mine[i], here) > 0 for i in range(n)
                    )
            for mask in range(1 << n):
                if not f[mask]:
                    continue
                here = below | {mine[i] for i in range(n) if mask >> i & 1}
                for i in range(n):
                    k = mine[i]
                    if mask >> i & 1 or not good[mask | 1 << i] or not self.choices(k, here):
                        continue
                    placed[k].add(True)
                    at = (k, here & facts.abilities[k].waiting_targets)
                    reach[k].below.add(at[1])
                    if at not in spaces:
                        spaces.add(at)
                        reach[k].update(self.space(k, at[1]).reach())
        return placed, reach


def pick(rng: Random, weighted: Sequence[tuple[T, int]]) -> T:
    """One of ``weighted``'s items (item, weight), with probability proportional to its weight
    (one ``randrange`` over the sum, the items in order)."""
    x = rng.randrange(sum(w for _, w in weighted))
    for item, w in weighted:
        if x < w:
            return item
        x -= w
    raise AssertionError("unreachable: x is below the sum of the weights")
