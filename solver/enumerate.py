"""``outcomes``: every legal outcome once, canonical, in a deterministic order."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.limits import DEFAULT_LIMITS
from triggerstack.model.outcome import Outcome, outcome_json
from triggerstack.model.scenario import Scenario

from .engines import Engine, pick, raw_outcomes
from .errors import EngineCannot
from .passes import DEFAULT_MAX_PASSES, NextPass
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


def _across_passes(
    facts: Facts,
    engine: Engine | str,
    limit: int | None,
    time_limit: float | None,
    merge_identical: bool,
    max_outcomes: int,
    next_pass: NextPass | None,
    max_passes: int,
) -> Iterator[Outcome] | None:
    """Whole outcomes over every pass, or None when the scenario has a single pass."""
    if not facts.scenario.reactions and next_pass is None:
        return None
    if merge_identical:
        raise EngineCannot("--merge-identical does not cover further passes of 603.3b")
    from .passes import PassChain, join

    def one_pass(f: Facts) -> Iterator[RawOutcome]:
        return raw_outcomes(f, engine, time_limit=time_limit, max_outcomes=max_outcomes)

    return islice((join(whole) for whole in PassChain(facts, next_pass, max_passes, one_pass)), limit)


def outcomes(
    scenario: Scenario | Facts,
    *,
    engine: Engine | str = Engine.AUTO,
    limit: int | None = None,
    time_limit: float | None = None,
    merge_identical: bool = False,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
    next_pass: NextPass | None = None,
    max_passes: int = DEFAULT_MAX_PASSES,
) -> Iterator[Outcome]:
    """Each legal outcome of ``scenario`` once, in canonical form (SPEC §5); at most ``limit``.

    The fast path (``auto``) yields lazily in its rank order (:mod:`fast`); the solver engines
    find every outcome first and yield them sorted. ``merge_identical`` yields one outcome per
    class of outcomes that only swap identical abilities (fast path only)."""
    facts = facts_of(scenario)
    whole = _across_passes(facts, engine, limit, time_limit, merge_identical, max_outcomes, next_pass, max_passes)
    if whole is not None:
        yield from whole
        return
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
    max_passes: int = DEFAULT_MAX_PASSES,
) -> Iterator[str]:
    """:func:`outcomes` as canonical JSON lines (byte-identical to ``outcome_json``), made fast
    enough to stream millions: fragments are reused across outcomes."""
    facts = facts_of(scenario)
    whole = _across_passes(facts, engine, limit, time_limit, merge_identical, max_outcomes, None, max_passes)
    if whole is not None:
        return map(outcome_json, whole)
    return map(JsonWriter(facts), _raws(facts, engine, limit, time_limit, merge_identical, max_outcomes))
