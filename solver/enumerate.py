"""``outcomes``: every legal outcome once, canonical, in a deterministic order."""

from __future__ import annotations

from collections.abc import Iterator

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.outcome import Outcome
from triggerstack.model.scenario import Scenario

from .engines import Engine, raw_outcomes
from .raw import to_outcome

__all__ = ["outcomes"]


def outcomes(
    scenario: Scenario | Facts,
    *,
    engine: Engine | str = Engine.AUTO,
    limit: int | None = None,
    time_limit: float | None = None,
) -> Iterator[Outcome]:
    """Each legal outcome of ``scenario`` once, in canonical form (SPEC §5); at most ``limit``."""
    facts = facts_of(scenario)
    for raw in raw_outcomes(facts, engine, limit=limit, time_limit=time_limit):
        yield to_outcome(facts, raw)
