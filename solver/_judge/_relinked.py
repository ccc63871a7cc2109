"""The ways a judge would propose of choosing a thing for a requirement whose description is
linked to others by ``target_of`` (601.2c: a description naming another requirement reads its
targets): the targets of those chosen again, from every thing, so that every description there fits
(:func:`relinked`), and whether any choice of them makes the thing fit at all (:func:`refits`).
:mod:`._never` judges those ways."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product
from typing import Protocol

from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model._targeting import Bar

from .._core.choices import _order
from .._core.indexed import Choice, ModeInstance


class Told(Protocol):
    """What :func:`relinked` tells the reading of ways it serves (:class:`._never.Reading`)."""

    cut: bool
    refit: bool


def linked_to(m: ModeFacts, r: RequirementFacts) -> frozenset[int]:
    """The requirements of ``m`` linked to ``r`` by ``target_of``, either way and through others
    (``r``'s filter names them, or theirs names ``r``, or one they are linked to): those whose
    filters read the targets of another of them, ``r`` not among them."""
    seen = {r.index}
    pending = [r.index]
    while pending:
        k = pending.pop()
        for q in m.requirements:
            if (k in q.depends_on or q.index in m.requirements[k].depends_on) and q.index not in seen:
                seen.add(q.index)
                pending.append(q.index)
    return frozenset(seen - {r.index})


RELINKED = 16
"""The most ways :func:`relinked` makes of one way: past them, not every way is judged (``cut``)."""


def relinked(
    facts: Facts,
    a: AbilityFacts,
    m: ModeFacts,
    r: RequirementFacts,
    t: int,
    way: Choice,
    at: int,
    reading: Told,
) -> Iterator[Choice]:
    """The ways a judge would propose from ``way`` (a legal choice with ``t`` in place of ``r``'s
    last target in mode instance ``at``): the targets of the requirements linked to ``r`` by
    ``target_of`` (:func:`linked_to`), and ``r``'s others, chosen again, as many of each, so that
    every one fits its filter given the others (601.2c: a filter naming another requirement reads
    its targets) — the legal choice's own targets first, where they fit. ``way`` itself where no
    choice makes them all fit (then a filter is what it breaks). "Target opponent and target
    creature that player controls" with B in place of C: the way that kept C's creature told "ccre
    does not fit the filter given the targets of p", where B's only creature has hexproof, and a
    proposal taking B and it is told so (:data:`RELINKED` at most, past them ``reading.cut``)."""
    if not linked_to(m, r):
        yield way
        return
    inst = way.modes[at]
    counts = tuple(len(ts) for ts in inst.targets)
    made = 0
    if _fitting(facts, a, m, r, t, counts):
        for chosen in _fits(facts, a, m, r, t, inst.targets):
            if made == RELINKED:
                reading.cut = True
                return
            made += 1
            reading.refit = True
            yield Choice((*way.modes[:at], ModeInstance(inst.mode, chosen, inst.divide), *way.modes[at + 1 :]))
    if not made:
        yield way


def refits(facts: Facts, a: AbilityFacts, m: ModeFacts, r: RequirementFacts, t: int) -> bool:
    """Whether some choice of the targets of the requirements linked to ``r`` by ``target_of``
    (each as many as it may take, up to two past its fewest; ``r`` at least ``t``) makes ``t`` and
    every one of them fit its filter (:func:`relinked` then has ways to judge)."""
    linked = linked_to(m, r)
    if not linked:
        return False
    ranges = [range(1)] * len(m.requirements)
    for q in m.requirements:
        if q is r or q.index in linked:  # the fewest it may take and two more, at most
            lo = max(q.min, 1 if q is r else 0)
            ranges[q.index] = range(lo, min(q.most(len(facts.things)), lo + 2) + 1)
    return any(_fitting(facts, a, m, r, t, counts) for counts in product(*ranges))


def _fitting(
    facts: Facts, a: AbilityFacts, m: ModeFacts, r: RequirementFacts, t: int, counts: tuple[int, ...]
) -> bool:
    """Whether :func:`_fits` finds any choice with ``counts`` targets of each requirement: it
    depends on nothing else, and is asked once (kept with the facts)."""
    linked = linked_to(m, r)
    read = tuple(n for k, n in enumerate(counts) if k in linked or k == r.index)
    key = ("refits", a.index, m.index, r.index, t, read)
    found: bool | None = facts.memo.get(key)
    if found is None:
        empty = tuple(tuple(range(-n, 0)) for n in counts)  # no thing is preferred: only the counts are read
        found = facts.memo[key] = next(_fits(facts, a, m, r, t, empty), None) is not None
    return found


def _fits(
    facts: Facts, a: AbilityFacts, m: ModeFacts, r: RequirementFacts, t: int, base: tuple[tuple[int, ...], ...]
) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Each choice of targets of ``m`` that is ``base`` but for the requirements linked to ``r``
    (and ``r``'s others), chosen again from every thing, as many of each as in ``base`` (``r``
    taking ``t`` last), with which each of them fits its filter read with the others — those of
    ``base`` first, where they fit."""
    linked = linked_to(m, r)
    order = [k for k in _order(m) if k in linked or k == r.index]
    targets = list(base)
    things = range(len(facts.things))

    def fits(k: int, x: int) -> bool:
        q = m.requirements[k]
        if Bar.FILTER in q.excluded.get(x, ()):
            return False
        return facts.fits_target_of(a.index, m.index, k, x, {d: targets[d] for d in q.depends_on})

    def assign(depth: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if depth == len(order):
            yield tuple(targets)
            return
        k = order[depth]
        mine = base[k]
        fixed = (t,) if k == r.index else ()
        if fixed and not fits(k, t):
            return
        n = len(mine) - len(fixed)
        rest = [x for x in mine if x not in fixed and x >= 0][:n]
        pool = [x for x in dict.fromkeys([*rest, *things]) if x not in fixed and fits(k, x)]
        for pick in combinations(pool, n):
            targets[k] = (*pick, *fixed)
            yield from assign(depth + 1)
        targets[k] = mine

    yield from assign(0)
