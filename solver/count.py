"""``count``: the exact number of legal outcomes (SPEC §3: distinct final stacks and removed sets)."""

from __future__ import annotations

from collections.abc import Iterator

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.limits import DEFAULT_LIMITS
from triggerstack.model.scenario import Scenario

from .engines import Engine, guard_solver, pick, raw_outcomes
from .errors import EngineCannot
from .passes import DEFAULT_MAX_PASSES, NextPass
from .raw import RawOutcome

__all__ = ["count"]


def count(
    scenario: Scenario | Facts,
    *,
    engine: Engine | str = Engine.AUTO,
    time_limit: float | None = None,
    merge_identical: bool = False,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
    next_pass: NextPass | None = None,
    max_passes: int = DEFAULT_MAX_PASSES,
) -> int:
    """How many legal outcomes ``scenario`` has. A scenario with no waiting ability has one.

    ``merge_identical`` counts outcomes that differ only by swapping identical abilities once
    (:mod:`merge`; the fast path only). With ``reactions`` in the scenario, or a ``next_pass``
    function (:mod:`passes`), the count covers every further pass of 603.3b."""
    facts = facts_of(scenario)
    chosen = pick(facts, engine)
    if facts.scenario.reactions or next_pass is not None:
        if merge_identical:
            raise EngineCannot("--merge-identical does not cover further passes of 603.3b")
        from .passes import PassChain

        def one_pass(f: Facts) -> Iterator[RawOutcome]:
            return raw_outcomes(f, engine, time_limit=time_limit, max_outcomes=max_outcomes)

        return PassChain(facts, next_pass, max_passes, one_pass).count()
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
