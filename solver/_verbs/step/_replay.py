"""The walk replaying an outcome: the decisions that reach a legal outcome (``Stepper.decisions_for``),
for imitation learning or to replay an engine's log. Moved out of ``_walk.py`` (at its 600-line cap),
which keeps the walk itself; this reads the walk only through the stepper's own methods."""

from __future__ import annotations

from typing import Protocol

from triggerstack.model._facts import Facts
from triggerstack.model._limits import Deadline
from triggerstack.model._outcome import Outcome, canonical
from triggerstack.model._passes import Passes

from ..._judge import Verdict, judge
from ._decision import PUT, REMOVE, Decision
from ._pass import PassStepper
from ._state import Walk


class Stepper(Protocol):
    """What the replay asks of ``_walk.Stepper`` (named by what it asks: ``_walk`` imports this module)."""

    facts: Facts
    passes: Passes

    def start(self) -> Walk: ...
    def is_over(self, walk: Walk) -> bool: ...
    def pass_stepper(self, facts: Facts) -> PassStepper: ...
    def apply_unchecked(self, walk: Walk, ref: Decision | int | str) -> Walk: ...
    def outcome(self, walk: Walk) -> Outcome: ...
    def decision(self, ref: Decision | int | str) -> Decision: ...


class IllegalOutcome(ValueError):
    """:meth:`Stepper.decisions_for` was given an outcome that ``check`` rejects: ``verdict`` says why."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        why = "; ".join(f"{v.message} ({v.rule})" for v in verdict.violations[:3])
        more = len(verdict.violations) - 3
        super().__init__(f"no walk reaches an illegal outcome: {why}" + (f"; and {more} more" if more > 0 else ""))


def decisions_for(stepper: Stepper, outcome: Outcome, deadline: Deadline) -> list[Decision]:
    """A sequence of decisions whose walk ends in ``outcome`` (:meth:`Stepper.decisions_for`, within
    ``deadline``). Within a block, the removals come as early as they are legal."""
    verdict = judge(stepper.passes, outcome, deadline)
    if not verdict.legal:
        raise IllegalOutcome(verdict)
    walk = stepper.start()
    removed = set(outcome.removed)
    placed = 0
    while not stepper.is_over(walk):
        facts = walk.facts
        assert facts is not None
        local = stepper.pass_stepper(facts)
        legal = local.legal(walk.local)
        drop = next((d for d in legal if d.kind is REMOVE and d.subject in removed), None)
        if drop is not None:
            walk = stepper.apply_unchecked(walk, drop)
            continue
        entry = outcome.stack[placed] if placed < len(outcome.stack) else None
        put = None if entry is None else local.find((PUT, entry.ability, "", 0))
        if entry is None or put is None or put not in legal:
            raise AssertionError(f"check accepts the outcome but no walk reaches it (at entry {placed})")
        a = facts.abilities[facts.ability_index[entry.ability]]
        tokens = local.tokens_for(a, walk.local.placed, entry)
        if tokens is None:
            raise AssertionError(f"check accepts the outcome but no walk announces entry {placed}'s choices")
        walk = stepper.apply_unchecked(walk, put)
        for t in tokens:
            walk = stepper.apply_unchecked(walk, local.decisions[t])
        placed += 1
    reached = stepper.outcome(walk)
    if placed != len(outcome.stack) or reached.stack != canonical(stepper.facts, outcome).stack:
        raise AssertionError("check accepts the outcome but the walk reached another one")
    return [stepper.decision(i) for i in walk.decisions]
