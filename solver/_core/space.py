"""An ability's choice space: its legal complete choices, counted, ranked and listed without a
search.

An ability whose requirements are independent (no ``different_from``, ``target_of``,
``distinct_targets`` or "must target") has choices that are a product: for each multiset of modes,
the multisets of instances of each mode, each instance a product over its requirements of (a set
of targets, a division). Those are counted with binomials and unranked directly, so a requirement
with sixty candidates and any number of targets costs nothing until one choice is asked for.
Where its requirements are linked within a mode (``different_from``, ``target_of``), each group of
linked requirements is one part of that product, counted, ranked and walked by a programme
(:mod:`._programme`); where its mode instances bear on each other (distinct targets, "must
target"), each multiset of modes is one programme. Only what no programme takes — a mode that may
be repeated, with distinct targets or a must-target effect, or a programme too large — is listed
by the shared search (:func:`~.must.iter_legal_choices`, which applies 601.2c's maximality),
within ``--max-choices``.

Choices are judged with the given waiting abilities on the stack (``on_stack``); rank order is
the order of :meth:`ChoiceSpace.unrank` and of iteration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations_with_replacement
from typing import TypeVar

from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._limits import DEFAULT_LIMITS, NO_DEADLINE, Deadline, Limits, raised_by
from triggerstack.model._modes import iter_mode_choices
from triggerstack.model._numbers import int_said

from .._errors import EngineCannot
from ._programme import MAX_GUESSES, MAX_STATES, Programme, SlotChoice, linked_groups, part_of
from ._ranks import TargetSets, multichoose, rank_multiset, unrank_composition, unrank_multiset
from .choices import first_legal_choice
from .indexed import Choice, ModeInstance
from .must import iter_legal_choices


def is_independent(a: AbilityFacts) -> bool:
    """Whether ``a``'s own choices are a plain product (no coupling between its targets)."""
    if a.must or a.distinct_targets:
        return False
    return not any(r.different_from or r.depends_on for m in a.modes for r in m.requirements)


RequirementParts = tuple[tuple[int, ...], int, int, int | None]
"""A requirement of a product space: its pool, the fewest and the most targets, the amount divided."""


@dataclass
class Reach:
    """What some legal choices of an ability take: modes, and things per (mode, requirement); and,
    across a pass's outcomes, each set of the waiting abilities it could target that some outcome
    puts below it (by ability index; none known for an ability that targets none)."""

    modes: set[int] = field(default_factory=set)
    targets: dict[tuple[int, int], set[int]] = field(default_factory=dict)
    below: set[frozenset[int]] = field(default_factory=set)

    def add(self, choice: Choice) -> None:
        for inst in choice.modes:
            self.modes.add(inst.mode)
            for r, ts in enumerate(inst.targets):
                self.targets.setdefault((inst.mode, r), set()).update(ts)

    def update(self, other: Reach) -> None:
        self.modes |= other.modes
        self.below |= other.below
        for key, things in other.targets.items():
            self.targets.setdefault(key, set()).update(things)


_Part = TargetSets | Programme
"""The choices of some of a mode's requirements: one requirement alone (binomials), or several
linked to each other (a programme, :mod:`._programme`)."""


def _part_choices(part: _Part, index: int) -> tuple[SlotChoice, ...]:
    return (part.unrank(index),) if isinstance(part, TargetSets) else part.unrank(index)


def _part_rank(part: _Part, chosen: Sequence[SlotChoice]) -> int:
    return part.rank(*chosen[0]) if isinstance(part, TargetSets) else part.rank(chosen)


def _part_list(part: _Part) -> Iterator[tuple[SlotChoice, ...]]:
    if isinstance(part, TargetSets):
        return ((part.unrank(i),) for i in range(part.count))
    return iter(part)


T = TypeVar("T")


def _walk_product(walks: Sequence[Callable[[], Iterator[T]]]) -> Iterator[tuple[T, ...]]:
    """The product of the walks in order (the last fastest), each walked again under the ones before
    it instead of listed first (:func:`itertools.product` lists them)."""
    if not walks:
        yield ()
        return
    for x in walks[0]():
        for rest in _walk_product(walks[1:]):
            yield (x, *rest)


def _part_reach(part: _Part) -> list[set[int]]:
    if isinstance(part, TargetSets):
        return [set(part.pool) if part.high >= 1 else set()]
    return part.reach()


@dataclass(frozen=True)
class _Mode:
    """The instances of one mode: a product over its parts (the last varies fastest), each part
    the choices of some of its requirements (``parts``: their indices, and their choices)."""

    mode: int
    parts: tuple[tuple[tuple[int, ...], _Part], ...]

    @cached_property
    def count(self) -> int:
        n = 1
        for _, part in self.parts:
            n *= part.count
        return n

    @property
    def reqs(self) -> tuple[TargetSets, ...] | None:
        """Its requirements in order when each is a part of its own (then best is found by parts)."""
        found = tuple(p for _, p in self.parts if isinstance(p, TargetSets))
        return found if len(found) == len(self.parts) else None

    def _instance(self, chosen: Sequence[tuple[tuple[int, ...], tuple[SlotChoice, ...]]]) -> ModeInstance:
        width = sum(len(ix) for ix, _ in self.parts)
        targets: list[tuple[int, ...]] = [()] * width
        divs: list[tuple[int, ...]] = [()] * width
        for ix, got in chosen:
            for i, (t, d) in zip(ix, got, strict=True):
                targets[i], divs[i] = t, d
        return ModeInstance(self.mode, tuple(targets), tuple(divs) if any(divs) else ())

    def unrank(self, index: int) -> ModeInstance:
        chosen = []
        for ix, part in reversed(self.parts):
            index, digit = divmod(index, part.count)
            chosen.append((ix, _part_choices(part, digit)))
        return self._instance(chosen)

    def rank(self, inst: ModeInstance) -> int:
        index = 0
        for ix, part in self.parts:
            got = [(inst.targets[i], inst.divide[i] if inst.divide else ()) for i in ix]
            index = index * part.count + _part_rank(part, got)
        return index

    def instances(self) -> Iterator[ModeInstance]:
        """Every instance in rank order, lazily (each part walked again under the one before)."""
        walks = [lambda p=p: _part_list(p) for _, p in self.parts]
        for combo in _walk_product(walks):
            yield self._instance([(ix, got) for (ix, _), got in zip(self.parts, combo, strict=True)])

    def reach(self) -> dict[int, set[int]]:
        """Per requirement, the things some instance takes."""
        out: dict[int, set[int]] = {}
        for ix, part in self.parts:
            for i, things in zip(ix, _part_reach(part), strict=True):
                out[i] = things
        return out


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
    _joint: dict[tuple[int, ...], Programme] = field(default_factory=dict)
    """Per multiset of modes, one programme over all its instances' requirements (distinct
    targets across modes, or "must target" effects: its instances bear on each other)."""

    @property
    def by_parts(self) -> bool:
        """Whether it is a product of requirements each on its own (:meth:`best` reads it by parts)."""
        return self._listed is None and not self._joint and all(m.reqs is not None for m in self._modes.values())

    @cached_property
    def _sizes(self) -> list[int]:
        return [self._multiset_count(ms) for ms in self._multisets]

    def _multiset_count(self, modes: tuple[int, ...]) -> int:
        if self._joint:
            return self._joint[modes].count
        n = 1
        for m in sorted(set(modes)):
            n *= multichoose(self._modes[m].count, modes.count(m))
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
        if self._joint:
            return self._joint_choice(modes, self._joint[modes].unrank(index))
        distinct = sorted(set(modes))
        instances: list[ModeInstance] = []
        for m in reversed(distinct):
            mode = self._modes[m]
            copies = modes.count(m)
            radix = multichoose(mode.count, copies)
            index, digit = divmod(index, radix)
            for i in unrank_multiset(mode.count, copies, digit):
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
        if self._joint:
            reqs = [(inst, i) for inst in choice.modes for i in range(len(self.ability.modes[inst.mode].requirements))]
            got = [(inst.targets[i], inst.divide[i] if inst.divide else ()) for inst, i in reqs]
            return index + self._joint[modes].rank(got)
        within = 0
        for m in sorted(set(modes)):
            mode = self._modes[m]
            ranks = sorted(mode.rank(i) for i in choice.modes if i.mode == m)
            within = within * multichoose(mode.count, len(ranks)) + rank_multiset(mode.count, ranks)
        return index + within

    def __iter__(self) -> Iterator[Choice]:
        if self._listed is not None:
            return iter(self._listed)
        if self._joint:
            return (self._joint_choice(ms, got) for ms in self._multisets for got in self._joint[ms])
        if not self.by_parts:
            return self._by_modes()
        return (self.unrank(i) for i in range(self.count))

    def _by_modes(self) -> Iterator[Choice]:
        """Every choice in rank order, lazily: per multiset of modes, the product of each mode's
        instances (by its parts' walks; a repeated mode's instances listed, to choose several)."""
        for modes in self._multisets:
            walks = [self._copies(m, modes.count(m)) for m in sorted(set(modes))]
            for combo in _walk_product(walks):
                yield Choice(tuple(sorted(inst for group in combo for inst in group)))

    def _copies(self, m: int, copies: int) -> Callable[[], Iterator[tuple[ModeInstance, ...]]]:
        mode = self._modes[m]
        if copies == 1:
            return lambda: ((inst,) for inst in mode.instances())
        return lambda: combinations_with_replacement(list(mode.instances()), copies)

    def _joint_choice(self, modes: tuple[int, ...], got: Sequence[SlotChoice]) -> Choice:
        """The choice a joint programme's slots make (slots: per instance, its requirements in order)."""
        out: list[ModeInstance] = []
        k = 0
        for m in modes:
            n = len(self.ability.modes[m].requirements)
            mine = got[k : k + n]
            k += n
            divs = tuple(d for _, d in mine)
            out.append(ModeInstance(m, tuple(t for t, _ in mine), divs if any(divs) else ()))
        return Choice(tuple(sorted(out)))

    def reach(self) -> Reach:
        """The modes and targets some choice of the space takes (without listing a combinatorial
        space: there every mode of an allowed multiset is taken, and every target of its pool)."""
        reach = Reach()
        if self._listed is not None:
            for choice in self._listed:
                reach.add(choice)
            return reach
        if self._joint:
            for modes, size in zip(self._multisets, self._sizes, strict=True):
                if size:
                    reach.modes.update(modes)
                    slots = [(m, r.index) for m in modes for r in self.ability.modes[m].requirements]
                    for key, things in zip(slots, self._joint[modes].reach(), strict=True):
                        reach.targets.setdefault(key, set()).update(things)
            return reach
        for modes in self._multisets:
            for m in modes:
                reach.modes.add(m)
                for r, things in self._modes[m].reach().items():
                    reach.targets.setdefault((m, r), set()).update(things)
        return reach

    def best(self, mode_weight: Sequence[int], thing_weight: Callable[[int], int]) -> tuple[Choice, int] | None:
        """The choice with the highest weight — Σ of each chosen mode instance's ``mode_weight``
        and of each chosen target's ``thing_weight`` (docs/cli.md's mode and target weights) — and
        that weight, found part by part without listing the space: per requirement the heaviest
        targets (at least its minimum, more while they add), per mode its best instance (every
        copy of a repeated mode alike), then the best multiset of modes. ``None`` for a listed
        space or an empty one (scan :meth:`as_list` for a listed one)."""
        if not self.by_parts or not self._multisets:
            return None
        best_instance: dict[int, tuple[ModeInstance, int]] = {}
        for m, mode in self._modes.items():
            targets: list[tuple[int, ...]] = []
            divs: list[tuple[int, ...]] = []
            value = mode_weight[m]
            for r in mode.reqs or ():
                heaviest = sorted(r.pool, key=lambda t: -thing_weight(t))  # stable: ties keep pool order
                n = r.low + sum(1 for t in heaviest[r.low : r.high] if thing_weight(t) > 0)
                chosen = tuple(sorted(heaviest[:n]))
                value += sum(thing_weight(t) for t in chosen)
                targets.append(chosen)
                divs.append(unrank_composition(r.divide, n, 0) if r.divide is not None and n else ())
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
        modes: dict[int, list[RequirementParts]] = {}
        for m, mode in self._modes.items():
            reqs = mode.reqs
            if reqs is None:  # linked requirements, counted by a programme: not a plain product
                return None
            modes[m] = [(r.pool, r.low, r.high, r.divide) for r in reqs]
        return list(self._multisets), modes

    def as_list(self) -> list[Choice]:
        """Every choice in rank order (listed once and kept); more than ``limits.choices`` is
        refused before anything is listed."""
        if self._listed is None:
            if self.count > self.limits.choices:
                raise EngineCannot(
                    f"{self.ability.id} has {int_said(self.count)} legal choices; listing more than "
                    f"{self.limits.choices} is refused" + raised_by("choices")
                )
            listed = []
            for i, choice in enumerate(self):
                if i % 4096 == 4095:
                    self.deadline.check(f"listing the choices of {self.ability.id}")
                listed.append(choice)
            self._listed = listed
        return self._listed


def _product(facts: Facts, a: AbilityFacts, on_stack: frozenset[int], space: ChoiceSpace) -> ChoiceSpace:
    """``space`` as the product of ``a``'s modes, requirements and divisions (exact where the
    ability's own choices are independent)."""
    for m in a.modes:
        if m.available:
            parts = []
            for i, r in enumerate(m.requirements):
                pool = facts.available(r, on_stack)
                parts.append(((i,), TargetSets(pool, r.min, r.most(len(pool)), r.divide)))
            _keep(space, _Mode(m.index, tuple(parts)))
    return _shapes(a, space)


def _keep(space: ChoiceSpace, mode: _Mode) -> None:
    if mode.count:
        space._modes[mode.mode] = mode


def _shapes(a: AbilityFacts, space: ChoiceSpace) -> ChoiceSpace:
    space._multisets = sorted(iter_mode_choices(sorted(space._modes), a.choose, a.repeat), key=lambda ms: (len(ms), ms))
    return space


def _linked(facts: Facts, a: AbilityFacts, on_stack: frozenset[int], space: ChoiceSpace) -> ChoiceSpace | None:
    """``space`` by programmes where ``a``'s requirements are linked only within a mode: each
    mode a product of its groups of linked requirements. None where a group is too large."""
    for m in a.modes:
        if not m.available:
            continue
        parts: list[tuple[tuple[int, ...], _Part]] = []
        for g in linked_groups(m):
            if len(g) == 1:
                r = m.requirements[g[0]]
                pool = facts.available(r, on_stack)
                parts.append((g, TargetSets(pool, r.min, r.most(len(pool)), r.divide)))
                continue
            part = part_of(facts, a, (m.index,), g, False)
            if part is None:
                return None
            parts.append((g, part.at(on_stack)))
        _keep(space, _Mode(m.index, tuple(parts)))
    return _shapes(a, space)


def _joined(facts: Facts, a: AbilityFacts, on_stack: frozenset[int], space: ChoiceSpace) -> ChoiceSpace | None:
    """``space`` by one programme per multiset of modes, where the instances bear on each other
    (distinct targets, "must target"): a mode can be chosen when it has targets alone (603.3c).
    None with repeated modes, or where a programme is too large."""
    if a.repeat:
        return None
    legal = []
    for m in a.modes:
        if m.available:
            alone = part_of(facts, a, (m.index,), None, False)
            if alone is None:
                return None
            if alone.at(on_stack).count:
                legal.append(m.index)
    space._multisets = sorted(iter_mode_choices(legal, a.choose, False), key=lambda ms: (len(ms), ms))
    for modes in space._multisets:
        part = part_of(facts, a, modes, None, True)
        if part is None:
            return None
        space._joint[modes] = part.at(on_stack)
    return space


def space_for(
    facts: Facts,
    a: AbilityFacts,
    on_stack: frozenset[int] = frozenset(),
    limits: Limits = DEFAULT_LIMITS,
    deadline: Deadline = NO_DEADLINE,
) -> ChoiceSpace:
    """The choice space of ``a`` with ``on_stack`` below it: combinatorial where its own choices
    are independent; counted by programmes where they are linked; listed only where a programme
    cannot take them (repeated modes with distinct targets or "must target", or a programme too
    large) — once the product it is drawn from is counted and found within ``limits.choices``."""
    space = ChoiceSpace(a, limits=limits, deadline=deadline)
    if a.forced_removal is not None:
        space._listed = []
        return space
    if is_independent(a):
        return _product(facts, a, on_stack, space)
    counted = (_joined if a.must or a.distinct_targets else _linked)(facts, a, on_stack, space)
    if counted is not None:
        return counted
    space = ChoiceSpace(a, limits=limits, deadline=deadline)
    bound = _product(facts, a, on_stack, ChoiceSpace(a)).count
    if bound > limits.choices:
        raise EngineCannot(
            f"{a.id}'s choices are listed one by one ({_why_listed(a)}), and up to {bound} of them could be "
            f"legal: more than the limit of {limits.choices}{raised_by('choices')}"
        )
    space._listed = sorted(set(iter_legal_choices(facts, a, on_stack, limits.choices, deadline)))
    return space


def has_legal_choice(
    facts: Facts,
    a: AbilityFacts,
    on_stack: frozenset[int],
    limits: Limits = DEFAULT_LIMITS,
    deadline: Deadline = NO_DEADLINE,
    built: Callable[[frozenset[int]], ChoiceSpace] | None = None,
) -> bool:
    """Whether ``a`` has a legal choice with ``on_stack`` below it (603.3c–d): its choice space's
    count, which programmes give without a search (ten modes that must target ten different
    creatures among nine: none, said at once, where a search tries every partial choice first);
    where the space would be listed past ``limits.choices``, a search for one choice, within the
    call's deadline. The one home of this question for check, explain, step and the removals'
    engines (kept per scenario on the waiting abilities ``a`` could target); ``built``: how the
    asker builds the space (one it keeps: step's), else :func:`space_for`."""
    if a.forced_removal is not None:
        return False
    key = ("has-choice", a.index, on_stack & a.waiting_targets)
    found: bool | None = facts.memo.get(key)
    if found is None:
        try:
            space = space_for(facts, a, key[2], limits, deadline) if built is None else built(key[2])
            found = space.count > 0
        except EngineCannot:
            found = first_legal_choice(facts, a, key[2], deadline) is not None
        facts.memo[key] = found
    return found


def _why_listed(a: AbilityFacts) -> str:
    if a.repeat and (a.must or a.distinct_targets):
        return "a mode it may repeat, with distinct targets or a must-target effect"
    return f"its linked targets need more than {MAX_STATES} states or {MAX_GUESSES} guesses to count"
