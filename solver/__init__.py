"""The engines: validation, counting, enumeration, optimisation, explanation, the command line.

``from triggerstack.solver import check, count, outcomes, sample, best, explain, step``
"""

from .best import Best, best
from .check import Verdict, Violation, check
from .count import count
from .engines import Engine
from .enumerate import outcomes
from .errors import EngineCannot, TimeLimitReached
from .explain import explain
from .sample import sample
from .step import Decision, State, Stepper, step

__all__ = [
    "Best",
    "Decision",
    "Engine",
    "EngineCannot",
    "State",
    "Stepper",
    "TimeLimitReached",
    "Verdict",
    "Violation",
    "best",
    "check",
    "count",
    "explain",
    "outcomes",
    "sample",
    "step",
]
