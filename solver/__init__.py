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

from .errors import EngineCannot, TimeLimitReached
from .options import Engine, Options
from .verbs.best import Best, best
from .verbs.check import Verdict, Violation, check
from .verbs.count import count
from .verbs.enumerate import outcome_lines, outcomes
from .verbs.explain import explain
from .verbs.sample import sample
from .verbs.step import Decision, DecisionKind, State, Stepper, Walk, step

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
