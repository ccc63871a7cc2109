"""The engines and the verbs: validation, counting, enumeration, optimisation, explanation, stepping.

``from triggerstack.solver import check, count, outcomes, sample, best, explain, step``

Layers, bottom up (a module imports only from its own layer or below; a test reads the imports):

* ``errors``, ``options`` — the engines' errors, and :class:`Options` with :class:`Engine`;
* ``core/`` — indexed outcomes, the shared search, "must target", removal, choice spaces, the
  engine interface and the chain across passes;
* ``engines/`` — the product engine, CP-SAT, python-constraint2, and ``select`` that picks one;
* ``verbs/`` — one module per public verb;
* ``cli`` — parsing, I/O and exit codes.
"""

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import EngineCannot, TimeLimitReached
    from .options import Engine, Options
    from .verbs.best import Best, best
    from .verbs.check import Verdict, Violation, check
    from .verbs.count import count
    from .verbs.enumerate import outcome_lines, outcomes
    from .verbs.explain import explain
    from .verbs.sample import sample
    from .verbs.step import Decision, DecisionKind, State, Stepper, Walk, step

_HOMES = {
    "EngineCannot": ".errors",
    "TimeLimitReached": ".errors",
    "Engine": ".options",
    "Options": ".options",
    "Best": ".verbs.best",
    "best": ".verbs.best",
    "Verdict": ".verbs.check",
    "Violation": ".verbs.check",
    "check": ".verbs.check",
    "count": ".verbs.count",
    "outcome_lines": ".verbs.enumerate",
    "outcomes": ".verbs.enumerate",
    "explain": ".verbs.explain",
    "sample": ".verbs.sample",
    "Decision": ".verbs.step",
    "DecisionKind": ".verbs.step",
    "State": ".verbs.step",
    "Stepper": ".verbs.step",
    "Walk": ".verbs.step",
    "step": ".verbs.step",
}


def __getattr__(name: str) -> Any:
    """The public names, each imported from its home on first use (a verb imports only its own
    path: ``triggerstack --help`` imports no solver at all)."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(home, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "Best",
    "Decision",
    "DecisionKind",
    "Engine",
    "EngineCannot",
    "Options",
    "State",
    "Stepper",
    "TimeLimitReached",
    "Verdict",
    "Violation",
    "Walk",
    "best",
    "check",
    "count",
    "explain",
    "outcome_lines",
    "outcomes",
    "sample",
    "step",
]
