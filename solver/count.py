"""``count``: the exact number of legal outcomes (SPEC §3: distinct final stacks and removed sets)."""

from __future__ import annotations

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.scenario import Scenario

from .engines import Engine, pick, raw_outcomes
from .errors import EngineCannot

__all__ = ["count"]


def count(scenario: Scenario | Facts, *, engine: Engine | str = Engine.AUTO, time_limit: float | None = None) -> int:
    """How many legal outcomes ``scenario`` has. A scenario with no waiting ability has one."""
    facts = facts_of(scenario)
    chosen = pick(facts, engine)
    if facts.scenario.reactions:
        raise EngineCannot("reactions (further passes of 603.3b) are not decided by this version", ("reactions",))
    if chosen is Engine.FAST:
        from .fast import FastPass

        return FastPass(facts, time_limit=time_limit).count
    if chosen is Engine.CPSAT:
        from . import cpsat

        return cpsat.count_raw(facts, time_limit=time_limit)
    return sum(1 for _ in raw_outcomes(facts, engine, time_limit=time_limit))
