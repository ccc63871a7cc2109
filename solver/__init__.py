"""The engines and the verbs: validation, counting, enumeration, optimisation, explanation, stepping.

``from triggerstack.solver import check, count, outcomes, sample, best, explain, step``, or one
object per scenario that answers them all and keeps what it learned: ``LegalOutcomes(scenario)``.

Layers, bottom up (a module imports only from its own layer or below; a test reads the imports):

* ``errors``, ``options`` — the engines' errors, and :class:`Options` with :class:`Engine`;
* ``core/`` — indexed outcomes, the shared search, "must target", removal, choice spaces, the
  engine interface and the chain across passes;
* ``engines/`` — the product engine, CP-SAT, python-constraint2, and ``select`` that picks one;
* ``verbs/`` — one module per public verb;
* ``rl/`` — the PettingZoo and Gymnasium environments (the optional extra ``[rl]``);
* ``cli`` — parsing, I/O and exit codes.
"""

from typing import TYPE_CHECKING

from triggerstack.model.lazy import lazy_exports

if TYPE_CHECKING:
    from .errors import EngineCannot, IllegalDecision, TimeLimitReached
    from .judge import Verdict, Violation
    from .options import Engine, Options
    from .verbs.best import Best
    from .verbs.legal import Counted, LegalOutcomes, best, check, count, explain, outcome_lines, outcomes, sample, step
    from .verbs.step import ActionLayout, Decision, DecisionKind, IllegalOutcome, State, Stepper, Walk

_HOMES = {
    "EngineCannot": ".errors",
    "IllegalDecision": ".errors",
    "ActionLayout": ".verbs.step",
    "IllegalOutcome": ".verbs.step",
    "TimeLimitReached": ".errors",
    "Engine": ".options",
    "Options": ".options",
    "Best": ".verbs.best",
    "best": ".verbs.legal",
    "Verdict": ".judge",
    "Violation": ".judge",
    "check": ".verbs.legal",
    "count": ".verbs.legal",
    "outcome_lines": ".verbs.legal",
    "outcomes": ".verbs.legal",
    "explain": ".verbs.legal",
    "LegalOutcomes": ".verbs.legal",
    "Counted": ".verbs.legal",
    "sample": ".verbs.legal",
    "Decision": ".verbs.step",
    "DecisionKind": ".verbs.step",
    "State": ".verbs.step",
    "Stepper": ".verbs.step",
    "Walk": ".verbs.step",
    "step": ".verbs.legal",
}



__all__ = [
    "ActionLayout",
    "Best",
    "Counted",
    "Decision",
    "DecisionKind",
    "Engine",
    "EngineCannot",
    "IllegalDecision",
    "IllegalOutcome",
    "LegalOutcomes",
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

__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals(), __all__)
