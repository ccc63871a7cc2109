"""The same pass as a python-constraint2 problem: the independent second solver (``--engine constraint``).

Two levels, both python-constraint problems:

* per ability, its own choices: one variable per (mode instance, requirement) whose values are
  sets of targets within the bounds, with ``different_from``, ``target_of``, ``distinct_targets``
  and the multiset order of repeated modes as constraints; divisions are then spread over the
  targets. Waiting abilities count as candidates here; whether they are below comes next.
* the pass: one variable per ability whose values are "removed" or (slot in its block, choice),
  with the block's slots filled from the bottom, targeted waiting abilities placed below, lawful
  removal (no choice would be legal with the earlier blocks' placed abilities on the stack), and
  "must target" maximality judged with what is actually below.

This is the cross-check, on purpose: it reads the shared facts and the shared outcome types, but
imports none of the search code (``core.choices``, ``core.must``, ``core.removal``, ``core.space``,
the product engine or CP-SAT) and states every stack-dependent rule in its own words, so that its
agreement with the other engines on generated scenarios means something. A test reads its imports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, combinations_with_replacement, islice, product
from math import comb
from typing import Any

from constraint import Problem
from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._limits import DEFAULT_LIMITS, NO_DEADLINE, Deadline, raised_by
from triggerstack.model._numbers import counted, int_said

from .._core.engine import ListedEngine
from .._core.indexed import Choice, IndexedOutcome, ModeInstance, Placed
from .._errors import EngineCannot
from .._options import Options

MAX_SUBSETS = 50_000
REMOVED = ("removed",)


def _subsets(pool: Sequence[int], lo: int, hi: int) -> list[tuple[int, ...]]:
    """Every set of targets within the bounds: counted first, listed only if there are few enough."""
    n = sum(comb(len(pool), k) for k in range(lo, hi + 1))
    if n > MAX_SUBSETS:
        said = f"a requirement has {int_said(n)} possible target sets; the constraint engine stops at {MAX_SUBSETS}"
        raise EngineCannot(said)
    return [s for k in range(lo, hi + 1) for s in combinations(pool, k)]


def _mode_multisets(a: AbilityFacts) -> Iterator[tuple[int, ...]]:
    available = [m.index for m in a.modes if m.available]
    pick = combinations_with_replacement if a.repeat else combinations
    for n in sorted(a.choose - {0}):
        yield from pick(available, n)


def ability_choices(
    facts: Facts, a: AbilityFacts, cap: int = DEFAULT_LIMITS.choices, on_time: Callable[[], None] = lambda: None
) -> list[Choice]:
    """Every choice of ``a`` that is legal once every waiting ability it names is below it: at most
    ``cap`` (``limits.choices``, the cap every engine lists one ability's choices within), else
    :class:`EngineCannot` naming it, and ``on_time`` asked as they are found (the call's deadline)."""
    if a.forced_removal is not None:
        return []
    out: set[Choice] = set()
    for modes in _mode_multisets(a):
        problem = Problem()
        names: list[tuple[int, int]] = []  # (instance, requirement)
        domains = {
            (i, r.index): _subsets(r.candidates, r.min, r.upper)
            for i, mode in enumerate(modes)
            for r in a.modes[mode].requirements
        }
        if not all(domains.values()):
            continue  # a mode with no possible targets can't be chosen (603.3c)
        for name, values in domains.items():
            problem.addVariable(name, values)
            names.append(name)
        for i, mode in enumerate(modes):
            reqs = a.modes[mode].requirements
            for r in reqs:
                for d in r.different_from:
                    problem.addConstraint(lambda x, y: not set(x) & set(y), [(i, r.index), (i, d)])
                if r.depends_on:
                    deps = [(i, d) for d in r.depends_on]

                    def fits(x: tuple[int, ...], *ys: tuple[int, ...], _r: Any = r, _m: int = mode) -> bool:
                        chosen = dict(zip(_r.depends_on, ys, strict=True))
                        return all(facts.fits_target_of(a.index, _m, _r.index, t, chosen) for t in x)

                    problem.addConstraint(fits, [(i, r.index), *deps])
        if a.distinct_targets and len(modes) > 1:
            per_instance = [[n for n in names if n[0] == i] for i in range(len(modes))]
            shape = tuple(len(p) for p in per_instance)

            def distinct(*values: tuple[int, ...], _shape: tuple[int, ...] = shape) -> bool:
                seen: set[int] = set()
                k = 0
                for size in _shape:
                    mine = {t for v in values[k : k + size] for t in v}
                    k += size
                    if mine & seen:
                        return False
                    seen |= mine
                return True

            flat = [n for p in per_instance for n in p]
            if flat:
                problem.addConstraint(distinct, flat)
        for i in range(1, len(modes)):
            if modes[i] == modes[i - 1]:
                this = [n for n in names if n[0] == i]
                prev = [n for n in names if n[0] == i - 1]
                if this:
                    problem.addConstraint(_ordered(len(prev)), [*prev, *this])
        for sol in problem.getSolutionIter() if names else iter([{}]):
            insts = []
            for i, mode in enumerate(modes):
                reqs = a.modes[mode].requirements
                insts.append([tuple(sol[i, r.index]) for r in reqs])
            out.update(_with_divisions(a, modes, insts))
            if len(out) > cap:
                said = f"{a.id} has more than {counted(cap, 'choices')}; the constraint engine lists at most that many"
                raise EngineCannot(said + raised_by("choices"))
            on_time()
    return sorted(out)


def _ordered(n: int) -> Any:
    """Repeated instances of a mode are a multiset (700.2d): keep copy i ≤ copy i+1."""

    def ordered(*values: tuple[int, ...]) -> bool:
        return tuple(values[:n]) <= tuple(values[n:])

    return ordered


def _compositions(amount: int, parts: int) -> list[tuple[int, ...]]:
    """601.2d: every way to give ``parts`` targets at least 1 each of ``amount``."""
    if parts == 1:
        return [(amount,)]
    return [
        (first, *rest) for first in range(1, amount - parts + 2) for rest in _compositions(amount - first, parts - 1)
    ]


def _with_divisions(a: AbilityFacts, modes: tuple[int, ...], insts: list[list[tuple[int, ...]]]) -> Iterator[Choice]:
    per_instance = []
    for mode, targets in zip(modes, insts, strict=True):
        reqs = a.modes[mode].requirements
        options = [
            _compositions(r.divide, len(ts)) if r.divide is not None and ts else [()]
            for r, ts in zip(reqs, targets, strict=True)
        ]
        per_instance.append(
            [ModeInstance(mode, tuple(targets), tuple(div) if any(div) else ()) for div in product(*options)]
        )
    for combo in product(*per_instance):
        yield Choice(tuple(sorted(combo)))


def _waiting(facts: Facts, c: Choice) -> frozenset[int]:
    return frozenset(b for t in c.things() if (b := facts.waiting_ability(t)) is not None)


def _obeyed(a: AbilityFacts, c: Choice) -> int:
    things = set(c.things())
    return sum(1 for t in a.must if t in things)


def _shape(c: Choice) -> tuple[int, ...]:
    """601.2b–c: modes come first; a "must target" effect compares target choices for the same modes."""
    return tuple(m.mode for m in c.modes)


def iter_solutions(
    facts: Facts, *, deadline: Deadline = NO_DEADLINE, cap: int = DEFAULT_LIMITS.choices
) -> Iterator[IndexedOutcome]:
    """The outcomes in python-constraint's own order, as it finds them (each solution of the
    problem is a distinct outcome), within the call's ``deadline`` (no clock of its own) and each
    ability's choices within ``cap``."""

    def on_time() -> None:
        deadline.check("python-constraint was finding the outcomes")

    problem = Problem()
    choices = {}
    for a in facts.abilities:
        choices[a.index] = ability_choices(facts, a, cap, on_time)
    needs = {k: frozenset().union(*(_waiting(facts, c) for c in cs)) for k, cs in choices.items()}
    active = [a for a in facts.abilities if a.block is not None]
    for a in active:
        size = len(facts.blocks[a.block].abilities)  # type: ignore[index]
        domain: list[Any] = [(k, i) for k in range(size) for i in range(len(choices[a.index]))]
        domain.append(REMOVED)  # whether removal is lawful is a constraint below
        problem.addVariable(a.index, domain)
    for block in facts.blocks:
        members = list(block.abilities)

        def fill(*values: Any) -> bool:
            slots = sorted(v[0] for v in values if v != REMOVED)
            return slots == list(range(len(slots)))

        problem.addConstraint(fill, members)
    for a in active:
        me = a.index
        for b in sorted(needs[me]):
            if facts.abilities[b].block is None:
                problem.addConstraint(
                    lambda v, _m=me, _b=b: v == REMOVED or _b not in _waiting(facts, choices[_m][v[1]]), [me]
                )
                continue

            def below(v: Any, w: Any, _m: int = me, _b: int = b) -> bool:
                if v == REMOVED or _b not in _waiting(facts, choices[_m][v[1]]):
                    return True
                if w == REMOVED:
                    return False
                blk_a, blk_b = facts.abilities[_m].block, facts.abilities[_b].block
                assert blk_a is not None and blk_b is not None
                return blk_b < blk_a or (blk_b == blk_a and w[0] < v[0])

            problem.addConstraint(below, [me, b])
        earlier = sorted(b for b in needs[me] if (blk := facts.abilities[b].block) is not None and blk < a.block)  # type: ignore[operator]
        if a.forced_removal is None and not a.may_choose_zero:

            def lawful(v: Any, *ws: Any, _m: int = me, _e: list[int] = earlier) -> bool:
                if v != REMOVED:
                    return True
                on = {b for b, w in zip(_e, ws, strict=True) if w != REMOVED}
                return not any(_waiting(facts, c) <= on for c in choices[_m])

            problem.addConstraint(lawful, [me, *earlier])
        if a.must:
            same_or_earlier = sorted(b for b in needs[me] if facts.abilities[b].block is not None)  # others: never

            def must(v: Any, *ws: Any, _m: int = me, _o: list[int] = same_or_earlier) -> bool:
                if v == REMOVED:
                    return True
                mine = choices[_m][v[1]]
                on = {b for b, w in zip(_o, ws, strict=True) if w != REMOVED and _is_below(facts, b, w, _m, v)}
                rivals = [c for c in choices[_m] if _shape(c) == _shape(mine) and _waiting(facts, c) <= on]
                return _obeyed(facts.abilities[_m], mine) >= max(_obeyed(facts.abilities[_m], c) for c in rivals)

            problem.addConstraint(must, [me, *same_or_earlier])
    if not active:  # nothing to decide: python-constraint has no variable to report a solution for
        yield IndexedOutcome((), tuple(a.index for a in facts.abilities))
        return
    for i, sol in enumerate(problem.getSolutionIter()):
        yield _raw(facts, choices, sol)
        if i % 256 == 0:
            on_time()


def _is_below(facts: Facts, b: int, w: Any, a: int, v: Any) -> bool:
    blk_a, blk_b = facts.abilities[a].block, facts.abilities[b].block
    assert blk_a is not None and blk_b is not None
    return blk_b < blk_a or (blk_b == blk_a and w[0] < v[0])


def _raw(facts: Facts, choices: dict[int, list[Choice]], sol: dict[Any, Any]) -> IndexedOutcome:
    stack: list[Placed] = []
    for block in facts.blocks:
        placed = sorted((k for k in block.abilities if sol[k] != REMOVED), key=lambda k: sol[k][0])
        stack.extend(Placed(k, choices[k][sol[k][1]]) for k in placed)
    removed = tuple(a.index for a in facts.abilities if a.block is None or sol[a.index] == REMOVED)
    return IndexedOutcome(tuple(stack), removed)


class ConstraintEngine(ListedEngine):
    """The engine interface from the python-constraint2 problem: every solution found and sorted
    (raises :class:`~triggerstack.model._errors.TimeLimitReached` once the time limit has passed)."""

    name = "constraint"
    path = "constraint"

    def __init__(self, facts: Facts, options: Options | None = None, deadline: Deadline | None = None) -> None:
        options = options or Options()
        super().__init__(facts, deadline or Deadline(options.time_limit))
        self.cap = options.limits.choices

    def _solve(self, limit: int | None = None) -> Sequence[IndexedOutcome]:
        return sorted(set(islice(iter_solutions(self.facts, deadline=self.deadline, cap=self.cap), limit)))
