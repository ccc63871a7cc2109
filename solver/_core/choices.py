"""The search for one ability's choices as it is put on the stack (603.3c–d, 601.2c–d, 700.2).

A choice (:class:`~.indexed.Choice`) is the modes and, per chosen mode instance, the targets of
each requirement and the division of each divided requirement. What is legal depends on which
waiting abilities are already on the stack (``on_stack``, ability indices): the facts answer it
(:meth:`~triggerstack.model.Facts.available`). "Must target" maximality (601.2c) is applied on
top of this search by :mod:`.must`, whose :func:`~.must.iter_legal_choices` gives an ability's
complete legal choices.

The search is plain backtracking over the facts. It stops at the first solution when only
existence is asked, and checks the deadline of the call running it at every step: a search that
finds nothing may visit every partial choice (ten modes that must target ten different creatures
among nine), so it ends within the call's time limit, never past it. Whether an ability has a legal
choice at all is asked of its counted choice space (:func:`~.space.has_legal_choice`), which
answers that without this search.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, product

from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts
from triggerstack.model._limits import NO_DEADLINE, Deadline
from triggerstack.model._modes import iter_mode_choices

from ._programme import part_of
from .indexed import Choice, ModeInstance


def _order(m: ModeFacts) -> list[int]:
    """Requirements in an order where each ``target_of`` comes before those that read it."""
    done: list[int] = []
    pending = list(range(len(m.requirements)))
    while pending:
        for i in pending:
            if all(d in done for d in m.requirements[i].depends_on):
                done.append(i)
                pending.remove(i)
                break
        else:  # a cycle; the scenario validator refuses them
            raise ValueError(f"target_of is cyclic in mode {m.id}")
    return done


def iter_mode_targets(
    facts: Facts,
    a: AbilityFacts,
    mode: int,
    on_stack: frozenset[int],
    forbidden: frozenset[int] = frozenset(),
    counts: Sequence[int] | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every legal assignment of targets to the requirements of one mode.

    ``forbidden`` things may not be chosen (other modes' targets under ``distinct_targets``);
    ``counts``, if given, fixes how many targets each requirement takes.
    """
    m = a.modes[mode]
    order = _order(m)
    pools = [facts.available(r, on_stack) for r in m.requirements]
    chosen: dict[int, tuple[int, ...]] = {}
    what = f"looking for targets of {a.id}"

    def rec(depth: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        deadline.check(what)
        if depth == len(order):
            yield tuple(chosen[i] for i in range(len(m.requirements)))
            return
        i = order[depth]
        r = m.requirements[i]
        others = set(forbidden)
        for d in r.different_from:
            others.update(chosen.get(d, ()))
        for j, other in enumerate(m.requirements):
            if i in other.different_from and j in chosen:
                others.update(chosen[j])
        pool = [t for t in pools[i] if t not in others]
        if r.depends_on:
            pool = [t for t in pool if facts.fits_target_of(a.index, mode, i, t, {d: chosen[d] for d in r.depends_on})]
        top = r.most(len(pool))
        if counts is not None:
            n = counts[r.index]
            sizes = range(n, n + 1) if r.min <= n <= top else range(0)
        else:
            sizes = range(r.min, top + 1)
        for n in sizes:
            for pick in combinations(pool, n):
                chosen[i] = pick
                yield from rec(depth + 1)
                del chosen[i]

    yield from rec(0)


def is_mode_legal(
    facts: Facts, a: AbilityFacts, mode: int, on_stack: frozenset[int], deadline: Deadline = NO_DEADLINE
) -> bool:
    """Whether the mode can be chosen at all: available, and its targets can be chosen (603.3c).

    Each requirement must have its fewest targets among its candidates; where none of the mode's
    requirements is linked to another (``different_from``, ``target_of``) that is the answer, else
    the mode's choices are counted by a programme (:mod:`._programme`, as ``count`` counts them:
    twelve targets that must all differ, among eleven creatures, are none at once, where a search
    tries every partial assignment first) — or, past a programme's size, looked for."""
    m = a.modes[mode]
    if not m.available:
        return False
    if any(r.min > r.most(len(facts.available(r, on_stack))) for r in m.requirements):
        return False
    if not any(r.different_from or r.depends_on for r in m.requirements):
        return True
    part = part_of(facts, a, (mode,), None, False)
    if part is not None:
        return part.at(on_stack).count > 0
    return next(iter_mode_targets(facts, a, mode, on_stack, deadline=deadline), None) is not None


def iter_choices(
    facts: Facts,
    a: AbilityFacts,
    on_stack: frozenset[int],
    deadline: Deadline = NO_DEADLINE,
    having: int | None = None,
) -> Iterator[Choice]:
    """Every legal choice of modes and targets for ``a`` with ``on_stack`` below it (``having``: only
    those that choose that mode)."""
    if a.forced_removal is not None:
        return
    legal = [m.index for m in a.modes if is_mode_legal(facts, a, m.index, on_stack, deadline)]
    for modes in iter_mode_choices(legal, a.choose, a.repeat):
        if having is not None and having not in modes:
            continue
        yield from _assign(facts, a, modes, on_stack, 0, (), frozenset(), deadline)


def _assign(
    facts: Facts,
    a: AbilityFacts,
    modes: tuple[int, ...],
    on_stack: frozenset[int],
    k: int,
    done: tuple[ModeInstance, ...],
    used: frozenset[int],
    deadline: Deadline,
) -> Iterator[Choice]:
    # the deadline is read at every step of iter_mode_targets, which each level below the last calls
    if k == len(modes):
        yield Choice(done)
        return
    forbidden = used if a.distinct_targets else frozenset()
    previous = done[-1] if k and modes[k - 1] == modes[k] else None
    for targets in iter_mode_targets(facts, a, modes[k], on_stack, forbidden, deadline=deadline):
        # Repeated instances of a mode are a multiset: keep their targets in sorted order
        # (equal targets stay, as each instance may still divide differently).
        if previous is not None and targets < previous.targets:
            continue
        inst = ModeInstance(modes[k], targets)
        yield from _assign(
            facts, a, modes, on_stack, k + 1, (*done, inst), used | frozenset(t for ts in targets for t in ts), deadline
        )


def iter_divided(a: AbilityFacts, choice: Choice) -> Iterator[Choice]:
    """``choice`` with each way of dividing the amounts of its divided requirements (601.2d)."""
    if not any(inst.divide for inst in choice.modes) and not any(
        a.modes[inst.mode].divided for inst in choice.modes
    ):  # nothing to divide: the choice itself (a judge's proposals, 147,000 in one explain)
        yield choice
        return
    options: list[list[tuple[tuple[int, ...], ...]]] = []
    for inst in choice.modes:
        reqs = a.modes[inst.mode].requirements
        per_req = [
            list(iter_divisions(r.divide, len(ts))) if r.divide is not None and ts else [()]
            for r, ts in zip(reqs, inst.targets, strict=True)
        ]
        options.append([tuple(p) for p in product(*per_req)])
    for combo in product(*options):
        modes = tuple(
            ModeInstance(inst.mode, inst.targets, div if any(div) else ())
            for inst, div in zip(choice.modes, combo, strict=True)
        )
        # Repeated instances of a mode stay a multiset: keep them sorted with their divisions.
        if all(modes[i] <= modes[i + 1] for i in range(len(modes) - 1) if modes[i].mode == modes[i + 1].mode):
            yield Choice(modes)


def first_legal_choice(
    facts: Facts, a: AbilityFacts, on_stack: frozenset[int], deadline: Deadline = NO_DEADLINE
) -> Choice | None:
    """A legal choice of modes and targets with ``on_stack`` below, or None when there is none
    (then 603.3c–d remove the ability). Ask :func:`~.space.has_legal_choice` first where there
    may be none: this search may visit every partial choice before it says so."""
    return next(iter_choices(facts, a, on_stack, deadline), None)


def iter_divisions(amount: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Each way to divide ``amount`` among ``parts`` targets, each getting at least 1 (601.2d)."""
    if parts == 0:
        if amount == 0:
            yield ()
        return
    if parts == 1:
        if amount >= 1:
            yield (amount,)
        return
    for first in range(1, amount - parts + 2):
        for rest in iter_divisions(amount - first, parts - 1):
            yield (first, *rest)
