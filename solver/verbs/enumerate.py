"""``outcomes``: every legal outcome once, canonical, in a deterministic order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Unpack

from triggerstack.model.facts import Facts
from triggerstack.model.outcome import Outcome
from triggerstack.model.scenario import Scenario

from ..engines.select import chain_for
from ..options import OptionChanges, Options, prepare

__all__ = ["outcome_lines", "outcomes"]


def outcomes(
    scenario: Scenario | Facts,
    options: Options | None = None,
    *,
    limit: int | None = None,
    **changes: Unpack[OptionChanges],
) -> Iterator[Outcome]:
    """Each legal outcome of ``scenario`` once, in canonical form (SPEC §5); at most ``limit``.

    The product engine (``auto``) yields lazily in its rank order; the solver engines find every
    outcome first and yield them sorted — or, with ``limit``, stop after the first ``limit`` they
    find and yield those sorted. Across passes, each first-pass outcome is followed by
    the outcomes of what it fired. ``merge_identical`` yields one outcome per class of outcomes
    that only swap identical abilities (the product engine only)."""
    facts, opts, deadline = prepare(scenario, options, changes)
    return chain_for(facts, opts, limit=limit, deadline=deadline).outcomes(limit)


def outcome_lines(
    scenario: Scenario | Facts,
    options: Options | None = None,
    *,
    limit: int | None = None,
    **changes: Unpack[OptionChanges],
) -> Iterator[str]:
    """:func:`outcomes` as canonical JSON lines (byte-identical to ``outcome_json``), made fast
    enough to stream millions: fragments are reused across outcomes."""
    facts, opts, deadline = prepare(scenario, options, changes)
    return chain_for(facts, opts, limit=limit, deadline=deadline).lines(limit)
