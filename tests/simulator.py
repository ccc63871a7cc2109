"""A literal simulator of one pass of 603.3b, the slow oracle the engines are checked against.

It does what the rule says and nothing clever: block after block (APNAP, part 1 then part 2),
the player picks any of their remaining abilities, and either puts it on the stack with any legal
choice of modes, targets and division *given what is on the stack at that moment*, or removes it
when it has no legal choice at that moment (or its controller chooses no mode where that is
allowed). Choices are found by generating every combination and testing it against the facts.
Distinct outcomes are collected in a set.

It reads only :class:`~triggerstack.model.Facts` (the single home of "may X target Y") and shares
no search code with ``solver/`` (only the outcome types and the engine interface, so that a chain
of passes can run on it): the agreement of different searches is the test.

Private unit: the engine interface it implements (solver/_core/engine.ListedEngine, solver/_core/indexed), so that the chain follows it as it follows an engine; and model/_targeting.Bar, which tells the things a target_of filter left out.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations, combinations_with_replacement, product

from triggerstack.model import AbilityFacts, Facts
from triggerstack.model._targeting import Bar
from triggerstack.solver._core.engine import ListedEngine
from triggerstack.solver._core.indexed import Choice, IndexedOutcome, ModeInstance, Placed

__all__ = ["SimulatedEngine", "legal_choices", "simulate"]


def _compositions(amount: int, parts: int) -> list[tuple[int, ...]]:
    return [c for c in product(range(1, amount + 1), repeat=parts) if sum(c) == amount]


def _instances(facts: Facts, a: AbilityFacts, mode: int, on_stack: frozenset[int]) -> Iterator[ModeInstance]:
    reqs = a.modes[mode].requirements
    pools = []
    for r in reqs:
        # a target_of filter's things are judged on each combination below, not trusted as refined
        fits = sorted((*r.candidates, *(t for t, why in r.excluded.items() if why == (Bar.LINKED,))))
        pool = [t for t in fits if (b := facts.waiting_ability(t)) is None or b in on_stack]
        top = len(pool) if r.max is None else min(r.max, len(pool))
        if r.divide is not None:
            top = min(top, r.divide)
        pools.append([s for n in range(r.min, top + 1) for s in combinations(pool, n)])
    for combo in product(*pools):
        if any(set(combo[i]) & set(combo[d]) for i, r in enumerate(reqs) for d in r.different_from):
            continue
        if any(
            not facts.fits_target_of(a.index, mode, i, t, {d: combo[d] for d in r.depends_on})
            for i, r in enumerate(reqs)
            if r.depends_on
            for t in combo[i]
        ):
            continue
        divisions = [
            _compositions(r.divide, len(ts)) if r.divide is not None and ts else [()]
            for r, ts in zip(reqs, combo, strict=True)
        ]
        for div in product(*divisions):
            yield ModeInstance(mode, tuple(combo), tuple(div) if any(div) else ())


def legal_choices(facts: Facts, a: AbilityFacts, on_stack: frozenset[int]) -> set[Choice]:
    """Every legal complete choice for ``a`` now, by generate-and-test."""
    if a.forced_removal is not None:
        return set()
    available = [m.index for m in a.modes if m.available]
    out: set[Choice] = set()
    for n in sorted(a.choose):
        if n == 0:
            continue
        pick = combinations_with_replacement if a.repeat else combinations
        for modes in pick(available, n):
            for insts in product(*(list(_instances(facts, a, m, on_stack)) for m in modes)):
                if a.distinct_targets:
                    seen: list[int] = []
                    for inst in insts:
                        seen.extend({t for ts in inst.targets for t in ts})
                    if len(seen) != len(set(seen)):
                        continue
                out.add(Choice(tuple(sorted(insts))))
    if a.must:

        def shape(c: Choice) -> tuple[int, ...]:  # the modes: "must target" never forces a mode (601.2b)
            return tuple(m.mode for m in c.modes)

        def obeyed(c: Choice) -> int:
            things = set(c.things())
            return sum(1 for t in a.must if t in things)

        most: dict[tuple[int, ...], int] = {}
        for c in out:
            most[shape(c)] = max(most.get(shape(c), 0), obeyed(c))
        out = {c for c in out if obeyed(c) == most[shape(c)]}
    return out


def simulate(facts: Facts) -> set[IndexedOutcome]:
    """Every distinct outcome of one pass, by trying every sequence of 603.3b."""
    never = frozenset(a.index for a in facts.abilities if a.block is None)
    results: set[IndexedOutcome] = set()

    def block(bi: int, stack: tuple[Placed, ...], removed: frozenset[int]) -> None:
        if bi == len(facts.blocks):
            results.add(IndexedOutcome(stack, tuple(sorted(removed | never))))
            return
        step(bi, frozenset(facts.blocks[bi].abilities), stack, removed)

    def step(bi: int, remaining: frozenset[int], stack: tuple[Placed, ...], removed: frozenset[int]) -> None:
        if not remaining:
            block(bi + 1, stack, removed)
            return
        on_stack = frozenset(p.ability for p in stack)
        for k in sorted(remaining):
            a = facts.abilities[k]
            choices = legal_choices(facts, a, on_stack)
            for c in sorted(choices):
                step(bi, remaining - {k}, (*stack, Placed(k, c)), removed)
            if not choices or 0 in a.choose:
                step(bi, remaining - {k}, stack, removed | {k})

    block(0, (), frozenset())
    return results


class SimulatedEngine(ListedEngine):
    """The simulator behind the engine interface (its outcomes sorted), for chains of passes."""

    name = "simulator"
    path = "simulator"

    def _solve(self, limit: int | None = None) -> Sequence[IndexedOutcome]:
        return sorted(simulate(self.facts))[:limit]
