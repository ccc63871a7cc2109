"""``count``: the exact number of legal outcomes (SPEC §3: distinct final stacks and removed sets)."""

from __future__ import annotations

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.limits import DEFAULT_LIMITS
from triggerstack.model.scenario import Scenario

from .engines import Engine, guard_solver, pick, raw_outcomes
from .errors import EngineCannot

__all__ = ["count"]


def count(
    scenario: Scenario | Facts,
    *,
    engine: Engine | str = Engine.AUTO,
    time_limit: float | None = None,
    merge_identical: bool = False,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
) -> int:
    """How many legal outcomes ``scenario`` has. A scenario with no waiting ability has one.

    ``merge_identical`` counts outcomes that differ only by swapping identical abilities once
    (:mod:`merge`; the fast path only)."""
    facts = facts_of(scenario)
    chosen = pick(facts, engine)
    if facts.scenario.reactions:
        raise EngineCannot("reactions (further passes of 603.3b) are not decided by this version", ("reactions",))
    if merge_identical and chosen is not Engine.FAST:
        raise EngineCannot("--merge-identical is answered by the fast path only (--engine auto or fast)")
    if chosen is Engine.FAST:
        from .fast import FastPass

        fast = FastPass(facts, time_limit=time_limit)
        if merge_identical:
            from .merge import merged_count

            return merged_count(fast)
        return fast.count
    if chosen is Engine.CPSAT:
        from . import cpsat

        guard_solver(facts, max_outcomes)
        return cpsat.count_raw(facts, time_limit=time_limit)
    return sum(1 for _ in raw_outcomes(facts, engine, time_limit=time_limit, max_outcomes=max_outcomes))
