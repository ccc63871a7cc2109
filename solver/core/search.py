"""Every outcome of a pass by direct search, each once: for the abilities that may target each
other (the product engine's coupled core), where what one may choose depends on what is below it.

Block by block (603.3b), the search first decides which abilities are removed — only those that
may be (603.3c–d: no legal choice at the start of the block, where only earlier blocks are on the
stack, or zero modes allowed, or never put on the stack at all) — and then puts the others on the
stack in every order, each with every legal choice given what is below it at that moment
(:func:`~.must.iter_legal_choices`, "must target" included). A removed set and a sequence of
placed choices is one outcome and no two are the same, so nothing is deduplicated; an order in
which some ability finds no legal choice where it stands leads to no outcome. Choices are listed
once per ability and per set of the waiting abilities it could target that are below it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations
from random import Random
from typing import TypeVar

from triggerstack.model.facts import Facts
from triggerstack.model.limits import DEFAULT_LIMITS, NO_DEADLINE, Deadline, Limits

from ..errors import EngineCannot
from .choices import has_legal_choice
from .indexed import Choice, IndexedOutcome, Placed
from .must import iter_legal_choices
from .space import Reach, space_for

__all__ = ["Counting", "count_outcomes", "iter_outcomes", "pick", "reach_outcomes", "search_outcomes"]

T = TypeVar("T")


class _Search:
    def __init__(self, facts: Facts, max_choices: int, deadline: Deadline) -> None:
        self.facts = facts
        self.max_choices = max_choices
        self.deadline = deadline
        self._choices: dict[tuple[int, frozenset[int]], tuple[Choice, ...]] = {}
        self.steps = 0

    def choices(self, k: int, below: frozenset[int]) -> tuple[Choice, ...]:
        a = self.facts.abilities[k]
        key = (k, below & a.waiting_targets)  # only the waiting abilities it could target matter
        found = self._choices.get(key)
        if found is None:
            listed = iter_legal_choices(self.facts, a, key[1], self.max_choices, self.deadline)
            found = self._choices[key] = tuple(sorted(listed))
        return found

    def removable(self, k: int, below: frozenset[int]) -> bool:
        a = self.facts.abilities[k]
        return a.forced_removal is not None or a.may_choose_zero or not has_legal_choice(self.facts, a, below)

    def blocks(self, b: int, stack: tuple[Placed, ...], removed: tuple[int, ...]) -> Iterator[IndexedOutcome]:
        facts = self.facts
        if b == len(facts.blocks):
            yield IndexedOutcome(stack, tuple(sorted(removed)))
            return
        below = frozenset(p.ability for p in stack)
        mine = facts.blocks[b].abilities
        may_go = [k for k in mine if self.removable(k, below)]
        for n in range(len(may_go) + 1):
            for gone in combinations(may_go, n):
                placed = [k for k in mine if k not in gone]
                for rest in self.orders(placed, stack, below):
                    yield from self.blocks(b + 1, rest, (*removed, *gone))

    def orders(
        self, left: list[int], stack: tuple[Placed, ...], below: frozenset[int]
    ) -> Iterator[tuple[Placed, ...]]:
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


def iter_outcomes(facts: Facts, max_choices: int, deadline: Deadline = NO_DEADLINE) -> Iterator[IndexedOutcome]:
    """Every outcome of the pass of ``facts`` once, as the search finds them (not sorted), lazily."""
    never = tuple(a.index for a in facts.abilities if a.block is None)
    return _Search(facts, max_choices, deadline).blocks(0, (), never)


def search_outcomes(
    facts: Facts, max_outcomes: int, max_choices: int, deadline: Deadline = NO_DEADLINE
) -> list[IndexedOutcome]:
    """Every outcome of the pass of ``facts``, sorted; more than ``max_outcomes`` is refused
    (:class:`EngineCannot`, naming ``--max-outcomes``)."""
    never = tuple(a.index for a in facts.abilities if a.block is None)
    out: list[IndexedOutcome] = []
    for outcome in _Search(facts, max_choices, deadline).blocks(0, (), never):
        out.append(outcome)
        if len(out) > max_outcomes:
            raise EngineCannot(
                f"the abilities that may target each other have more than {max_outcomes} outcomes together, "
                "listed one by one (raise it with --max-outcomes)"
            )
    out.sort()
    return out


MAX_BLOCK = 16
"""The most abilities of one block that :func:`count_outcomes` counts over the subsets of (2^n)."""


class Counting:
    """The outcomes of a pass counted by dynamic programming over blocks and subsets, nothing listed.

    An ability's choices depend on what is below it only through which of the waiting abilities it
    could target are on the stack (its ``waiting_targets``), and whether it may be removed only on
    what is below at its block's start (603.3c–d). So, block by block, with ``B`` the abilities
    placed in earlier blocks: ``f(S)`` — the ways to put exactly the set ``S`` of the block's
    abilities on the stack, in some order, each with a legal choice given what is below it — is a
    sum over the last one put, ``f(S) = Σ_{k∈S} f(S−k)·c(k, B ∪ S−k)``; the block's outcomes with
    the removable set ``G`` removed are ``f(mine − G)``; and what follows depends on ``B`` only
    through the abilities later blocks could target. ``c`` is a choice space's count (listed only
    for an ability whose own choices are linked, within ``--max-choices``)."""

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
        blocks = facts.blocks
        self.later: list[frozenset[int]] = []
        seen: frozenset[int] = frozenset()
        for b in reversed(blocks):
            self.later.append(seen)
            for k in b.abilities:
                seen |= facts.abilities[k].waiting_targets
        self.later.reverse()
        # What of ``below`` a block's count depends on: what it or a later block could target.
        self.keep = [
            self.later[i] | frozenset(t for k in b.abilities for t in facts.abilities[k].waiting_targets)
            for i, b in enumerate(blocks)
        ]

    def choices(self, k: int, below: frozenset[int]) -> int:
        a = self.facts.abilities[k]
        key = (k, below & a.waiting_targets)
        found = self._counts.get(key)
        if found is None:
            found = self._counts[key] = space_for(self.facts, a, key[1], self.limits, self.deadline).count
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
        facts = self.facts
        weight = self.weight
        if b == len(facts.blocks):
            return 1
        key = (b, below & self.keep[b])
        found = self._memo.get(key)
        if found is not None:
            return found
        mine = tuple(k for k in facts.blocks[b].abilities if facts.abilities[k].forced_removal is None)
        if len(mine) > MAX_BLOCK:
            raise EngineCannot(
                f"{len(mine)} abilities that may target each other in one block are more than this count "
                f"handles ({MAX_BLOCK}: it sums over their subsets)"
            )
        out = self.block(mine, below, lambda k: weight(b, k), lambda put: self.total(b + 1, below | put))
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

    def placements(
        self, mine: tuple[int, ...], below: frozenset[int]
    ) -> tuple[list[int], list[tuple[int, int, frozenset[int]]]]:
        """``f`` over the subsets of ``mine`` on ``below`` (see :meth:`orders`), and each lawful
        end of the block: (the mask of those put, the ways to put them, the set put) — the removed
        are some of those that may be removed, and the others can be put in some order."""
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
        return f, ends

    def draw(self, rng: Random) -> IndexedOutcome:
        """One outcome of the pass drawn with probability proportional to its weight (Π over
        blocks of ``weight``), by the same programme: per block, the removed set with the weight
        of what follows it, then the abilities put from the top down, each with the ways to put
        the rest below it, and its choice uniformly among those it has there."""
        facts = self.facts
        below: frozenset[int] = frozenset()
        stack: list[Placed] = []
        removed = [a.index for a in facts.abilities if a.block is None or a.forced_removal is not None]
        for b in range(len(facts.blocks)):
            mine = tuple(k for k in facts.blocks[b].abilities if facts.abilities[k].forced_removal is None)
            f, ends = self.placements(mine, below)
            weighed = [(m, n * self.weight(b, len(put)) * self.total(b + 1, below | put)) for m, n, put in ends]
            mask = pick(rng, weighed)
            top_down: list[Placed] = []
            left = mask
            while left:
                here = [i for i in range(len(mine)) if left >> i & 1]
                rest = {i: below | {mine[j] for j in here if j != i} for i in here}
                last = pick(rng, [(i, f[left ^ 1 << i] * self.choices(mine[i], rest[i])) for i in here])
                a = facts.abilities[mine[last]]
                space = space_for(facts, a, rest[last] & a.waiting_targets, self.limits, self.deadline)
                top_down.append(Placed(a.index, space.unrank(rng.randrange(space.count))))
                left ^= 1 << last
            stack.extend(reversed(top_down))
            removed.extend(mine[i] for i in range(len(mine)) if not mask >> i & 1)
            below = below | {mine[i] for i in range(len(mine)) if mask >> i & 1}
        return IndexedOutcome(tuple(stack), tuple(sorted(removed)))

    def reach(self) -> tuple[list[set[bool]], list[Reach]]:
        """What the outcomes do with each ability, without listing them: per ability, whether
        some outcome places it (True) and some removes it (False), and the modes and targets some
        outcome chooses. An ability put with ``X`` below it in some outcome takes every choice of
        its space on ``X`` in some outcome (the others' choices depend on sets, not on its choice),
        so this is the union of those spaces' reach over the places it can stand."""
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
            mine = tuple(k for k in facts.blocks[b].abilities if facts.abilities[k].forced_removal is None)
            f = self.orders(mine, below)
            may_go = {i for i, k in enumerate(mine) if self.removable(k, below)}
            n = len(mine)
            good = [False] * (1 << n)
            for mask in range(1 << n):
                gone = ((1 << n) - 1) ^ mask
                if f[mask] and all(i in may_go for i in range(n) if gone >> i & 1):
                    put = frozenset(mine[i] for i in range(n) if mask >> i & 1)
                    if self.total(b + 1, below | put):
                        good[mask] = True
                        pending.append((b + 1, below | put))
                        for i in range(n):
                            if gone >> i & 1:
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
                    if at not in spaces:
                        spaces.add(at)
                        reach[k].update(space_for(facts, facts.abilities[k], at[1], self.limits, self.deadline).reach())
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


def reach_outcomes(
    facts: Facts, limits: Limits = DEFAULT_LIMITS, deadline: Deadline = NO_DEADLINE
) -> tuple[list[set[bool]], list[Reach]]:
    """Per ability of the pass of ``facts``: whether some outcome places it and some removes it,
    and the modes and targets some outcome chooses — without listing the outcomes."""
    return Counting(facts, limits, deadline).reach()


def count_outcomes(
    facts: Facts,
    weight: Callable[[int, int], int] = lambda _b, _k: 1,
    limits: Limits = DEFAULT_LIMITS,
    deadline: Deadline = NO_DEADLINE,
) -> int:
    """Σ over the outcomes of the pass of ``facts`` of Π over blocks of ``weight(block, placed in
    it)`` — with the default weight, how many outcomes there are — without listing any (see
    :class:`Counting`). Exactly :func:`search_outcomes`' outcomes, counted."""
    return Counting(facts, limits, deadline, weight).total(0, frozenset())
