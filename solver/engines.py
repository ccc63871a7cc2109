"""Which engine answers: one table from :class:`Engine` to the function that enumerates.

``auto`` takes the fastest exact engine for the scenario; every engine gives the same answers
(the property tests hold them to it), so choosing one is for comparing and debugging.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from enum import StrEnum
from itertools import islice

from triggerstack.model.facts import Facts
from triggerstack.model.limits import DEFAULT_LIMITS

from .errors import EngineCannot
from .raw import RawOutcome

__all__ = ["Engine", "guard_solver", "pick", "raw_outcomes"]


class Engine(StrEnum):
    AUTO = "auto"
    FAST = "fast"
    CPSAT = "cpsat"
    CONSTRAINT = "constraint"


def pick(facts: Facts, engine: Engine | str) -> Engine:
    """The engine that will answer for ``facts`` when ``engine`` is asked for: ``auto`` is the
    fast path, which is exact on every pass (its coupled core, if any, goes through CP-SAT)."""
    engine = Engine(engine)
    return Engine.FAST if engine is Engine.AUTO else engine


def _fast(facts: Facts, limit: int | None, time_limit: float | None) -> Iterator[RawOutcome]:
    from .fast import FastPass

    return islice(FastPass(facts, time_limit=time_limit), limit)


def _cpsat(facts: Facts, limit: int | None, time_limit: float | None) -> Iterator[RawOutcome]:
    from . import cpsat  # ortools is imported only when a CP-SAT path is taken

    return cpsat.enumerate_raw(facts, limit=limit, time_limit=time_limit)


def _constraint(facts: Facts, limit: int | None, time_limit: float | None) -> Iterator[RawOutcome]:
    from . import crosscheck

    return iter(list(crosscheck.enumerate_raw(facts, limit=limit, time_limit=time_limit)))


_ENUMERATORS: dict[Engine, Callable[[Facts, int | None, float | None], Iterator[RawOutcome]]] = {
    Engine.FAST: _fast,
    Engine.CPSAT: _cpsat,
    Engine.CONSTRAINT: _constraint,
}


def guard_solver(facts: Facts, max_outcomes: int) -> None:
    """Refuse, with a clear message, to let a solver engine enumerate more than ``max_outcomes``
    (it would stall); the fast path tells how many there are without enumerating."""
    from .fast import FastPass
    from .plan import plan

    if plan(facts).coupled:
        return  # the count itself needs CP-SAT's core; the time limit bounds it
    n = FastPass(facts).count
    if n > max_outcomes:
        raise EngineCannot(
            f"this pass has {n} outcomes; a solver engine enumerates them one by one and stops at "
            f"{max_outcomes} (raise it with --max-outcomes, or use --engine auto)"
        )


def raw_outcomes(
    facts: Facts,
    engine: Engine | str = Engine.AUTO,
    *,
    limit: int | None = None,
    time_limit: float | None = None,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
) -> Iterator[RawOutcome]:
    """The distinct outcomes of one pass of ``facts`` from ``engine``: the fast path in its rank
    order (documented in :mod:`fast`), the solvers in sorted order. Further passes are
    :mod:`passes`' business."""
    chosen = pick(facts, engine)
    if chosen is not Engine.FAST:
        guard_solver(facts, max_outcomes)
    return _ENUMERATORS[chosen](facts, limit, time_limit)
