"""Which engine answers: the one place that reads the options and the facts and decides.

Every verb asks :func:`chain_for` (or :func:`engine_for` for one pass), so ``--engine``,
``--time-limit``, the size caps and ``next_pass`` reach every verb the same way:

* ``auto`` is the product engine, exact on every pass (its coupled core, if any, found by the
  direct search of ``core.search``, measured faster than CP-SAT and python-constraint2 on the
  coupled family of ``benchmarks/``); across passes it counts and draws by classes of what the
  first pass fires where that applies (``product.fired``); for ``best`` it is the product engine
  where the score splits part by part, and CP-SAT's whole model otherwise;
* a solver engine (``cpsat``, ``constraint``) enumerates, so it is refused, with a clear message,
  a pass with more outcomes than ``limits.outcomes`` (the product engine counts them first);
* ``merge_identical`` is the product engine's merged view of one pass.

Engine modules are imported only when chosen: ``count`` of an independent pass never imports
OR-Tools.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum

from triggerstack.model._facts import Facts
from triggerstack.model._limits import NO_DEADLINE, Deadline
from triggerstack.model._numbers import int_said
from triggerstack.model._passes import Passes

from .._core.chain import Chain
from .._core.engine import PassEngine
from .._errors import EngineCannot
from .._options import Engine, Options


class Task(Enum):
    """What the engine is asked: any of the enumeration questions, or an optimum."""

    ENUMERATE = "enumerate"
    BEST = "best"


def _product(facts: Facts, options: Options, deadline: Deadline) -> PassEngine:
    from .product import MergedEngine, ProductEngine

    engine = ProductEngine(facts, options, deadline)
    return MergedEngine(engine) if options.merge_identical else engine


def _refuse_too_many(facts: Facts, options: Options, deadline: Deadline) -> None:
    """A solver engine enumerates one outcome at a time: refuse a pass it would stall on."""
    from .product import ProductEngine, plan

    if plan(facts).coupled:
        return  # counting would search the core itself; the time limit bounds the solver
    n = ProductEngine(facts, options, deadline).count()
    if n > options.limits.outcomes:
        raise EngineCannot(
            f"this pass has {int_said(n)} outcomes; a solver engine enumerates them one by one and stops at "
            f"{options.limits.outcomes} (raise it with --max-outcomes, or use --engine auto)"
        )


def _cpsat(facts: Facts, options: Options, deadline: Deadline) -> PassEngine:
    from .cpsat import CpsatEngine  # ortools is imported only when a CP-SAT path is taken

    return CpsatEngine(facts, options, deadline)


def _constraint(facts: Facts, options: Options, deadline: Deadline) -> PassEngine:
    from .constraint import ConstraintEngine

    return ConstraintEngine(facts, options, deadline)


_SOLVERS: dict[Engine, Callable[[Facts, Options, Deadline], PassEngine]] = {
    Engine.CPSAT: _cpsat,
    Engine.CONSTRAINT: _constraint,
}


def engine_for(
    facts: Facts,
    options: Options,
    task: Task = Task.ENUMERATE,
    limit: int | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> PassEngine:
    """The engine that answers ``task`` for one pass of ``facts`` under ``options``; ``limit``:
    only that many outcomes are asked for (a solver engine then stops there, so it is not refused
    a pass with more outcomes than ``limits.outcomes``)."""
    engine = Engine.parse(options.engine)  # an Engine already: Options parses its name
    if options.merge_identical and engine not in (Engine.AUTO, Engine.PRODUCT):
        raise EngineCannot("--merge-identical is answered by the product engine only (--engine auto or product)")
    if engine in (Engine.AUTO, Engine.PRODUCT):
        from .product import ProductEngine

        chosen = _product(facts, options, deadline)
        best = task is Task.BEST and engine is Engine.AUTO
        if best and not (isinstance(chosen, ProductEngine) and chosen.answers_best):
            return _cpsat(facts, options, deadline)  # a large pass whose score does not split: one model
        return chosen
    bounded = limit is not None and limit <= options.limits.outcomes
    if (task is not Task.BEST or engine is Engine.CONSTRAINT) and not bounded:  # CP-SAT optimises without listing
        _refuse_too_many(facts, options, deadline)
    return _SOLVERS[engine](facts, options, deadline)


def chain_for(
    facts: Facts,
    options: Options,
    task: Task = Task.ENUMERATE,
    limit: int | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> Chain:
    """The chain of passes of ``facts`` (one pass without reactions or ``next_pass``), each pass
    answered by :func:`engine_for` (``limit`` reaches the first pass's engine when it is the only one)."""
    passes = Passes.within(facts, options.next_pass, options.limits)
    if options.merge_identical and not passes.single:
        raise EngineCannot(
            "--merge-identical merges identical abilities within one pass of 603.3b, and this scenario's reactions "
            "fire further passes (the scenario is fine: count it without --merge-identical)"
        )
    if passes.single:
        return Chain(passes, lambda f: engine_for(f, options, task, limit, deadline), options.limits.outcomes, deadline)
    # across passes, best scores whole outcomes, and a limit on whole outcomes bounds no one pass
    classes = None
    if options.engine in (Engine.AUTO, Engine.PRODUCT):
        from .product.fired import fired_classes

        classes = fired_classes
    return Chain(
        passes,
        lambda f: engine_for(f, options, Task.ENUMERATE, None, deadline),
        options.limits.outcomes,
        deadline,
        classes,
    )
