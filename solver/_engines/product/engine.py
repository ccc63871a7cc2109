"""The product engine: exact counting, ranking, unranking and lazy enumeration by product.

When no ability can target another waiting ability (see :mod:`.plan`), each ability's choices are
the same whatever is below it, and a block's outcomes are: which of its optional abilities (those
allowed to choose no mode) are placed, the order of the placed ones, and one choice each. Abilities
that *are* coupled form one core, counted, ranked and unranked by dynamic programming over blocks
and subsets and streamed by a direct search (:mod:`~..._core.search`), never listed; each core
outcome fixes, per block, the coupled abilities placed and their order, and the independent
abilities are interleaved around them.

The order of outcomes (rank order, also the order of enumeration), from most to least significant:

1. the core outcome, when there is a core, in the search's order (per block from the bottom: the
   removed set, fewer first; then from the bottom up which ability is put, by position in its
   block, and its choice, in its space's rank order);
2. for each block from the bottom: which optional abilities are placed (by ability index,
   "removed" before "placed"), then the arrangement of the placed abilities (at each position from
   the bottom: the next core ability first, then the independent ones by index);
3. the choices of the placed independent abilities, position by position from the bottom, each in
   its own rank order (:class:`~triggerstack.solver._core.space.ChoiceSpace`), the top position
   varying fastest.

``count`` is exact with Python integers; ``unrank`` and ``rank`` are a bijection with
``range(count)``; iteration is lazy (memory does not grow with the number of outcomes).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import islice, product, repeat
from typing import TypeVar

from triggerstack.model._facts import Facts, compile_facts
from triggerstack.model._limits import NO_DEADLINE, Deadline
from triggerstack.model._outcome import Score
from triggerstack.model._passes import with_triggers

from ..._core.engine import Found
from ..._core.indexed import Choice, IndexedOutcome, ModeInstance, Placed, score_of
from ..._core.search import Counting
from ..._core.space import ChoiceSpace, Reach, space_for
from ..._errors import EngineCannot
from ..._options import Options
from ._shapes import BlockShapes
from .plan import Plan, plan

T = TypeVar("T")

LISTED_FOR_SAMPLING = 4096  # choices of one ability listed once (and reused) rather than unranked each time
MAX_SCANNED = 200_000
"""The most choices of one ability that ``best`` by parts scans for its best choice."""
MAX_REMAPPED = 1 << 16
"""The most core choices kept remapped while the core is enumerated."""

MAX_BEST_SCANNED = 2_000
"""Most outcomes of a pass whose score does not split part by part that ``best`` scores one by one
rather than hand to CP-SAT: a few tens of milliseconds, against OR-Tools' import and model."""


@dataclass(frozen=True)
class _Core:
    """One outcome of the coupled abilities: per block, their placed entries in order."""

    outcome: IndexedOutcome
    per_block: tuple[tuple[Placed, ...], ...]

    @property
    def k(self) -> tuple[int, ...]:
        return tuple(len(p) for p in self.per_block)


class ProductEngine:
    """Exact counting, ranking, unranking and lazy enumeration of one pass, by product."""

    name = "product"

    def __init__(self, facts: Facts, options: Options | None = None, deadline: Deadline = NO_DEADLINE) -> None:
        self.facts = facts
        self.options = options or Options()
        self.deadline = deadline
        self.plan: Plan = plan(facts)
        self.path = self.plan.path
        coupled = set(self.plan.coupled)
        limits = self.options.limits
        self.spaces: dict[int, ChoiceSpace] = {
            a.index: space_for(facts, a, frozenset(), limits, deadline)
            for a in facts.abilities
            if a.index not in coupled and a.block is not None
        }
        self.never = tuple(a.index for a in facts.abilities if a.block is None)
        self.blocks: list[BlockShapes] = []
        for b in facts.blocks:
            mandatory, optional, removed = [], [], []
            weight = {}
            for k in b.abilities:
                if k in coupled:
                    continue
                a = facts.abilities[k]
                w = weight[k] = self.spaces[k].count
                if a.forced_removal is not None or w == 0:
                    removed.append(k)
                elif a.may_choose_zero:
                    optional.append(k)
                else:
                    mandatory.append(k)
            self.blocks.append(BlockShapes(b.index, tuple(mandatory), tuple(optional), tuple(removed), weight))
        self._coupled = coupled
        self._placed: dict[int, list[Placed]] = {}
        self._suffixes: dict[tuple[int, ...], list[int]] = {}
        self._counts = {a: o.count for a, o in self.spaces.items()}

    # The coupled core's outcomes are never listed: counted, ranked and unranked by dynamic
    # programming over blocks and subsets (core/search.Counting), streamed by its search.

    @property
    def total(self) -> int:
        return self.count()

    def count(self) -> int:
        return self._counted

    @cached_property
    def _counted(self) -> int:
        """Σ over the coupled core's outcomes of the arrangements of every block's independent
        abilities around it, counted without listing the core."""
        return self._arrangements.count_from(0, frozenset())

    def weighted(self, weight: Callable[[int, int], int]) -> int:
        """Σ over the coupled core's outcomes of Π over blocks of ``weight(block, coupled abilities
        placed in it)`` (blocks by their index here), without listing the core
        (:class:`~..._core.search.Counting`)."""
        return self._counter(weight).count_from(0, frozenset())

    def _counter(self, weight: Callable[[int, int], int]) -> _CoreCounter:
        return _CoreCounter(self, weight)

    @cached_property
    def _arrangements(self) -> _CoreCounter:
        """The counter of :meth:`count` (kept: a walk's counts ask it again and again)."""
        return self._counter(lambda b, k: self.blocks[b].total(k))

    def completions(self, below: frozenset[int], done: frozenset[int]) -> int:
        """How many outcomes of the pass extend a walk that has put ``below`` on the stack and
        decided ``done`` (``below`` and the removed; nothing in hand): the ways to decide the rest
        of its block and the blocks after, counted without listing (see :class:`_CoreCounter`)."""
        return self._arrangements.completions(below, done)

    def core_reach(self) -> Iterator[tuple[int, set[bool], Reach]]:
        """Per coupled ability (its index here): whether some outcome places it and some removes
        it, and the modes and targets some outcome chooses (things by their index here) — found
        without listing the core (:meth:`~..._core.search.Counting.reach`)."""
        sub, ability, thing = self._sub
        core = self._arrangements.core
        assert core is not None  # only a pass with coupled abilities has them
        # the count's own programme: its weights (the arrangements around a core outcome) are all
        # at least 1, so what it finds completable is what an unweighted count finds
        placed, reach = core.reach()
        for k in range(len(sub.abilities)):
            targets = {key: {thing[t] for t in ts} for key, ts in reach[k].targets.items()}
            stacks = {frozenset(ability[b] for b in below) for below in reach[k].below}
            mapped = Reach(set(reach[k].modes), targets, stacks)
            yield ability[k], placed[k], mapped

    @cached_property
    def _sub(self) -> tuple[Facts, list[int], list[int]]:
        """The scenario of the coupled abilities alone (every player and object stays), and its
        abilities' and things' indices in the whole scenario."""
        facts = self.facts
        ids: set[str] = {facts.abilities[k].id for k in self._coupled}
        if len(self._coupled) == len(facts.abilities):  # the whole scenario is the core: no restriction to compile
            sub = facts
        else:
            sub = compile_facts(with_triggers(facts.scenario, [t for t in facts.scenario.triggers if t.id in ids]))
        return sub, [facts.ability_index[a.id] for a in sub.abilities], [facts.thing_index[t.id] for t in sub.things]

    @cached_property
    def _no_core(self) -> _Core:
        """The one core outcome of a pass without coupled abilities: nothing."""
        return _Core(IndexedOutcome((), ()), tuple(() for _ in self.blocks))

    def _core_stream(self) -> Iterable[_Core]:
        """The core's outcomes one at a time as its search finds them, in rank order."""
        if not self._coupled:
            return [self._no_core]
        core = self._arrangements.core
        assert core is not None
        return map(self._core_of(), core.outcomes())  # the count's programme: its spaces, listed once

    def _core_of(self, shared: bool = True) -> Callable[[IndexedOutcome], _Core]:
        """The core outcome in this pass's indices of an outcome of the coupled abilities alone.
        ``shared``: each choice object is shared by many outcomes (the search lists choices once,
        and keeps them while it runs; past ``--max-choices`` it walks them, and each is kept here
        with its remapping, so that its id names it) and is remapped once."""
        _, ability, thing = self._sub
        remapped: dict[tuple[int, int], tuple[Choice, Placed]] = {}
        block_of = [a.block for a in self.facts.abilities]

        def placed(p: Placed) -> Placed:
            if not shared:
                return Placed(ability[p.ability], self._remap(p.choice, thing))
            found = remapped.get((p.ability, id(p.choice)))
            if found is None:
                if len(remapped) >= MAX_REMAPPED:  # walked choices are new objects: keep a bounded few
                    remapped.clear()
                # the choice is kept with its remapping, so that its id names it while it is here
                found = remapped[(p.ability, id(p.choice))] = (
                    p.choice,
                    Placed(ability[p.ability], self._remap(p.choice, thing)),
                )
            return found[1]

        def core(outcome: IndexedOutcome) -> _Core:
            stack = [placed(p) for p in outcome.stack]
            removed = tuple(ability[k] for k in outcome.removed)  # the maps keep order: still sorted
            per_block = tuple(tuple(p for p in stack if block_of[p.ability] == b.index) for b in self.blocks)
            return _Core(IndexedOutcome(tuple(stack), removed), per_block)

        return core

    def _in_sub(self, core: IndexedOutcome) -> IndexedOutcome:
        """The inverse of :meth:`_core_of`: a core outcome in the indices of the coupled
        abilities' own scenario (``KeyError`` for a thing that is not in it)."""
        to_ability, to_thing = self._arrangements.to_sub, self._to_sub_thing
        stack = tuple(Placed(to_ability[p.ability], self._remap(p.choice, to_thing)) for p in core.stack)
        return IndexedOutcome(stack, tuple(sorted(to_ability[k] for k in core.removed)))

    @cached_property
    def _to_sub_thing(self) -> dict[int, int]:
        """Each thing's index in the coupled abilities' own scenario, by its index here."""
        return {t: i for i, t in enumerate(self._sub[2])}

    @staticmethod
    def _remap(choice: Choice, thing: Sequence[int] | dict[int, int]) -> Choice:
        return Choice(
            tuple(
                ModeInstance(m.mode, tuple(tuple(thing[t] for t in ts) for ts in m.targets), m.divide)
                for m in choice.modes
            )
        )

    def placed(self, a: int) -> list[Placed]:
        """``a`` placed with each of its choices, in rank order (listed once)."""
        if a not in self._placed:
            self._placed[a] = [Placed(a, c) for c in self.spaces[a].as_list()]
        return self._placed[a]

    # -- unrank / rank ---------------------------------------------------------------------------

    def _suffix(self, ks: tuple[int, ...]) -> list[int]:
        """suffix[b]: the number of ways to complete blocks b… around a core that places ``ks[b]``
        in each block (cached by ``ks``)."""
        cached = self._suffixes.get(ks)
        if cached is None:
            cached = [1] * (len(self.blocks) + 1)
            for b in range(len(self.blocks) - 1, -1, -1):
                cached[b] = cached[b + 1] * self.blocks[b].total(ks[b])
            self._suffixes[ks] = cached
        return cached

    def unrank(self, r: int) -> IndexedOutcome:
        """The outcome of rank ``r`` (0 ≤ r < count)."""
        if not 0 <= r < self.total:
            raise IndexError(f"rank {r} outside [0, {self.total})")
        counter = self._arrangements
        if counter.core is None:
            return self._unrank_in(self._no_core, r, self._suffix(self._no_core.k))
        # The core outcome holding r: each holds (the arrangements around it) consecutive ranks,
        # counter.outside of them for every one of its own (the blocks without a core ability).
        found, first = counter.core.unrank(r // counter.outside)
        core = self._core_of(shared=False)(found)
        return self._unrank_in(core, r - first * counter.outside, self._suffix(core.k))

    def _unrank_in(self, core: _Core, r: int, suffix: list[int]) -> IndexedOutcome:
        """The outcome at ``r`` among those around ``core`` (``suffix[b]``: the ways to complete
        blocks b… around it)."""
        ks = core.k
        c = 1
        stack: list[Placed | None] = []
        digits: list[tuple[int, int]] = []  # (position in stack, ability)
        removed = list(self.never)
        removed.extend(core.outcome.removed)
        for b, block in enumerate(self.blocks):
            unit = c * suffix[b + 1]
            chosen, arrangement, start, weight = block.unrank_shape(ks[b], r // unit)
            r -= unit * start
            c *= weight
            removed.extend(block.removed)
            if len(chosen) != len(block.optional):
                removed.extend(o for o in block.optional if o not in chosen)
            entries = core.per_block[b]
            used = 0
            for a in arrangement:
                if a is None:
                    stack.append(entries[used])
                    used += 1
                else:
                    digits.append((len(stack), a))
                    stack.append(None)
        # r is now the mixed-radix number of the choices, top position least significant.
        counts = self._counts
        for pos, a in reversed(digits):
            n = counts[a]
            r, d = divmod(r, n)
            stack[pos] = self.placed(a)[d] if n <= LISTED_FOR_SAMPLING else Placed(a, self.spaces[a].unrank(d))
        return IndexedOutcome(tuple(stack), tuple(sorted(removed)))  # type: ignore[arg-type]

    def rank(self, outcome: IndexedOutcome) -> int:
        """The rank of ``outcome``: the inverse of :meth:`unrank` (``ValueError`` when it is not
        an outcome of the pass; a value that merely has the shape of one may rank, and
        :meth:`__contains__` tells by unranking it back)."""
        try:
            return self._rank(outcome)
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError("not an outcome of this pass") from exc

    def _rank(self, outcome: IndexedOutcome) -> int:
        coupled = self._coupled
        core = IndexedOutcome(
            tuple(p for p in outcome.stack if p.ability in coupled), tuple(k for k in outcome.removed if k in coupled)
        )
        by_block: dict[int, list[Placed]] = {}
        for p in outcome.stack:
            where = self.facts.abilities[p.ability].block
            if where is None:
                raise ValueError(f"{self.facts.abilities[p.ability].id} is never put on the stack")
            by_block.setdefault(where, []).append(p)
        ks = tuple(sum(1 for p in by_block.get(b.index, []) if p.ability in coupled) for b in self.blocks)
        suffix = self._suffix(ks)
        counter = self._arrangements
        r = 0 if counter.core is None else counter.core.rank(self._in_sub(core)) * counter.outside
        c = 1
        digits = 0
        for b, block in enumerate(self.blocks):
            entries = by_block.get(block.index, [])
            arrangement = tuple(None if p.ability in coupled else p.ability for p in entries)
            chosen = {p.ability for p in entries if p.ability in block.optional}
            start, weight = block.rank_shape(ks[b], chosen, arrangement)
            r += c * suffix[b + 1] * start
            c *= weight
            for p in entries:
                if p.ability not in coupled:
                    space = self.spaces[p.ability]
                    digits = digits * space.count + space.rank(p.choice)
        return r + digits

    def head(self, limit: int) -> Iterator[IndexedOutcome]:
        return islice(self, limit)

    def __contains__(self, outcome: IndexedOutcome) -> bool:
        """Whether ``outcome`` is an outcome of the pass: it ranks, and that rank unranks to it."""
        try:
            return self.unrank(self.rank(outcome)) == outcome
        except (ValueError, IndexError):
            return False

    # -- best -----------------------------------------------------------------------------------

    @cached_property
    def splits(self) -> bool:
        """Whether ``best`` splits part by part: no coupled core, no optional ability (whose
        removal would move every later block), and few enough choices to scan."""
        if self.plan.coupled or any(b.optional for b in self.blocks):
            return False
        return all(
            self.spaces[a].by_parts or self.spaces[a].count <= MAX_SCANNED for b in self.blocks for a in b.mandatory
        )

    @cached_property
    def answers_best(self) -> bool:
        """Whether :meth:`best` is exact here: part by part (:attr:`splits`), or by scoring every
        outcome of a pass of at most :data:`MAX_BEST_SCANNED`."""
        return self.splits or self.count() <= MAX_BEST_SCANNED

    def best(self, score: Score) -> Found:
        """The optimum part by part (see :attr:`splits`): within a block, the heaviest ``height``
        weight goes highest (rearrangement); each ability takes its best-scoring choice. Where the
        score does not split, every outcome of a small pass is scored (ties: the first in order)."""
        if not self.splits:
            if not self.answers_best:
                raise EngineCannot(
                    "the product engine answers best only where the score splits part by part "
                    f"(no coupled core, no optional ability) or the pass has at most {MAX_BEST_SCANNED:,} "
                    "outcomes; use --engine auto or cpsat"
                )
            top = max(self, key=lambda o: score_of(self.facts, o, score))  # the first of the maxima
            return Found(top, score_of(self.facts, top, score))
        facts = self.facts
        stack: list[Placed] = []
        removed = list(self.never)
        for block in self.blocks:
            removed.extend(block.removed)
            height = [(score.height.get(facts.abilities[a].id, 0), a) for a in block.mandatory]
            for _, a in sorted(height):
                stack.append(Placed(a, self._best_choice(a, score)))
        found = IndexedOutcome(tuple(stack), tuple(sorted(removed)))
        return Found(found, score_of(facts, found, score))

    def _best_choice(self, a: int, score: Score) -> Choice:
        """``a``'s best-scoring choice (modes and targets: its height is the block's business),
        read off its choice space by parts, or scanned where the space is listed."""
        facts, ability = self.facts, self.facts.abilities[a]
        space = self.spaces[a]
        modes = score.mode.get(ability.id, {})
        targets = score.target.get(ability.id, {})
        mode_weight = [modes.get(m.id, 0) if m.id is not None else 0 for m in ability.modes]
        found = space.best(mode_weight, lambda t: targets.get(facts.things[t].id, 0))
        if found is not None:
            return found[0]
        alone = [IndexedOutcome((Placed(a, c),), ()) for c in space.as_list()]
        return max(alone, key=lambda o: score_of(facts, o, score)).stack[0].choice  # the first of the maxima

    # -- enumeration ----------------------------------------------------------------------------

    def __iter__(self) -> Iterator[IndexedOutcome]:
        """Every outcome once, in rank order, lazily (the deadline is checked every few thousand)."""
        every = (
            outcome
            for core in self._core_stream()
            for outcome in self._iter_core(core, list(self.never) + list(core.outcome.removed))
        )
        return self._within_deadline(every)

    def lines(self, fragment: Callable[[Placed], str], removed_json: Callable[[tuple[int, ...]], str]) -> Iterator[str]:
        """Every outcome as a canonical JSON line, in rank order, built from each placed ability's
        ``fragment`` (its JSON entry) and each removed set's ``removed_json``: the product of
        strings instead of the product of entries (the lines ``JsonWriter`` would write, byte for byte)."""
        every = (line for core in self._core_stream() for line in self._core_lines(core, fragment, removed_json))
        return self._within_deadline(every)

    def _within_deadline(self, every: Iterator[T]) -> Iterator[T]:
        """``every``, the deadline checked after each few thousand."""
        if self.deadline.at is None:
            yield from every
            return
        while chunk := list(islice(every, 8192)):
            yield from chunk
            self.deadline.check("enumerating outcomes")

    def _core_lines(
        self, core: _Core, fragment: Callable[[Placed], str], removed_json: Callable[[tuple[int, ...]], str]
    ) -> Iterator[str]:
        strings: dict[int, list[str]] = {}
        for shape_lists, removed in self._shapes(core, 0, [], list(self.never) + list(core.outcome.removed)):
            lists = []
            for entry in shape_lists:
                if isinstance(entry, Placed):
                    lists.append([fragment(entry)])
                else:
                    if entry not in strings:
                        strings[entry] = [fragment(p) for p in self.placed(entry)]
                    lists.append(strings[entry])
            head = f'{{"removed":{removed_json(removed)},"stack":['
            yield from (f"{head}{','.join(combo)}]}}" for combo in product(*lists))

    def _shapes(
        self, core: _Core, b: int, lists: list[Placed | int], removed: list[int]
    ) -> Iterator[tuple[list[Placed | int], tuple[int, ...]]]:
        """Per shape of the whole pass (what :meth:`_iter_core` walks): each position's core entry
        or independent ability, and the removed set."""
        if b == len(self.blocks):
            yield lists, tuple(sorted(removed))
            return
        block = self.blocks[b]
        for chosen, arrangement in block.iter_shapes(core.k[b]):
            core_entries = iter(core.per_block[b])
            here: list[Placed | int] = [next(core_entries) if a is None else a for a in arrangement]
            gone = [*block.removed, *(o for o in block.optional if o not in chosen)]
            yield from self._shapes(core, b + 1, lists + here, removed + gone)

    def _iter_core(self, core: _Core, removed: list[int]) -> Iterator[IndexedOutcome]:
        for shape_lists, done in self._shapes(core, 0, [], removed):
            lists = [[entry] if isinstance(entry, Placed) else self.placed(entry) for entry in shape_lists]
            yield from map(IndexedOutcome, product(*lists), repeat(done))


class _CoreCounter:
    """Counts of a pass by the product engine's parts: the coupled core by dynamic programming
    over blocks and subsets (:class:`~..._core.search.Counting` on the core's own scenario), each
    block's independent abilities by their arrangements around it (``weight(block, coupled placed
    in it)``), kept between questions."""

    def __init__(self, engine: ProductEngine, weight: Callable[[int, int], int]) -> None:
        self.engine = engine
        self.weight = weight
        self.core: Counting | None = None
        self.sub_block: list[int] = []  # each core block's index in the whole pass
        self.to_sub: dict[int, int] = {}
        if engine._coupled:
            sub, ability, _ = engine._sub
            self.sub_block = [engine.facts.abilities[ability[b.abilities[0]]].block or 0 for b in sub.blocks]
            self.to_sub = {k: i for i, k in enumerate(ability)}

            def in_sub(b: int, k: int) -> int:
                return weight(self.sub_block[b], k)

            self.core = Counting(sub, engine.options.limits, engine.deadline, in_sub)
        self.outside = 1  # the weight of the blocks without a coupled ability: Π weight(block, 0)
        for b in engine.blocks:
            if b.index not in self.sub_block:
                self.outside *= weight(b.index, 0)

    def count_from(self, block: int, below: frozenset[int]) -> int:
        """Σ over the ways to decide blocks ``block``… with the coupled abilities ``below`` (their
        indices in the pass) on the stack."""
        n = 1
        for b in self.engine.blocks[block:]:
            if b.index not in self.sub_block:
                n *= self.weight(b.index, 0)
        if self.core is None:
            return n
        first = next((i for i, b in enumerate(self.sub_block) if b >= block), len(self.sub_block))
        return n * self.core.total(first, frozenset(self.to_sub[k] for k in below if k in self.to_sub))

    def completions(self, below: frozenset[int], done: frozenset[int]) -> int:
        """The ways to decide the rest of a walk's pass (see :meth:`ProductEngine.completions`): in
        the block under way, the abilities left are put on top of what is there in any order, the
        coupled ones with the choices what is below them allows, or removed where they have no
        legal choice now (or may choose no mode); then the blocks after it."""
        engine = self.engine
        facts = engine.facts
        at = next((b for b in facts.blocks if any(k not in done for k in b.abilities)), None)
        if at is None:
            return 1
        here = engine.blocks[at.index]
        left = [k for k in at.abilities if k not in done and facts.abilities[k].forced_removal is None]
        independent = BlockShapes(
            at.index,
            tuple(k for k in here.mandatory if k in left),
            tuple(k for k in here.optional if k in left),
            (),
            here.weight,
        )
        coupled = [k for k in left if k in self.to_sub]
        if self.core is None or not coupled:
            alone = independent.total(0)
            return alone * self.count_from(at.index + 1, below) if alone else 0
        _, ability, _ = engine._sub
        mine = tuple(self.to_sub[k] for k in coupled)
        stack = frozenset(self.to_sub[k] for k in below if k in self.to_sub)
        return self.core.block(
            mine,
            stack,
            independent.total,
            lambda put: self.count_from(at.index + 1, below | {ability[k] for k in put}),
        )
