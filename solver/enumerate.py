"""``outcomes``: every legal outcome once, canonical, in a deterministic order."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.limits import DEFAULT_LIMITS
from triggerstack.model.outcome import Outcome
from triggerstack.model.scenario import Scenario

from .engines import Engine, pick, raw_outcomes
from .errors import EngineCannot
from .raw import JsonWriter, RawOutcome, to_outcome

__all__ = ["outcome_lines", "outcomes"]


def _raws(
    facts: Facts,
    engine: Engine | str,
    limit: int | None,
    time_limit: float | None,
    merge_identical: bool,
    max_outcomes: int,
) -> Iterator[RawOutcome]:
    if not merge_identical:
        return raw_outcomes(facts, engine, limit=limit, time_limit=time_limit, max_outcomes=max_outcomes)
    if pick(facts, engine) is not Engine.FAST:
        raise EngineCannot("--merge-identical is answered by the fast path only (--engine auto or fast)")
    from .fast import FastPass
    from .merge import iter_merged

    return islice(iter_merged(FastPass(facts, time_limit=time_limit)), limit)


def outcomes(
    scenario: Scenario | Facts,
    *,
    engine: Engine | str = Engine.AUTO,
    limit: int | None = None,
    time_limit: float | None = None,
    merge_identical: bool = False,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
) -> Iterator[Outcome]:
    """Each legal outcome of ``scenario`` once, in canonical form (SPEC §5); at most ``limit``.

    The fast path (``auto``) yields lazily in its rank order (:mod:`fast`); the solver engines
    find every outcome first and yield them sorted. ``merge_identical`` yields one outcome per
    class of outcomes that only swap identical abilities (fast path only)."""
    facts = facts_of(scenario)
    for raw in _raws(facts, engine, limit, time_limit, merge_identical, max_outcomes):
        yield to_outcome(facts, raw)


def outcome_lines(
    scenario: Scenario | Facts,
    *,
    engine: Engine | str = Engine.AUTO,
    limit: int | None = None,
    time_limit: float | None = None,
    merge_identical: bool = False,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
) -> Iterator[str]:
    """:func:`outcomes` as canonical JSON lines (byte-identical to ``outcome_json``), made fast
    enough to stream millions: fragments are reused across outcomes."""
    facts = facts_of(scenario)
    return map(JsonWriter(facts), _raws(facts, engine, limit, time_limit, merge_identical, max_outcomes))
