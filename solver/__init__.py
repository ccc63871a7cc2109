"""The engines and the verbs: validation, counting, enumeration, optimisation, explanation, stepping.

``from triggerstack.solver import check, count, outcomes, sample, best, explain, step``, or one
object per scenario that answers them all and keeps what it learned: ``LegalOutcomes(scenario)``.
Its rooms, their layers and how to add a verb or an engine: docs/architecture.md; the public
names: docs/python.md.
"""

from typing import TYPE_CHECKING

from triggerstack.model._lazy import lazy_exports

if TYPE_CHECKING:  # the public names, each once; each imported on first use (model/_lazy.py)
    from ..model._errors import TimeLimitReached as TimeLimitReached
    from ._errors import EngineCannot as EngineCannot
    from ._errors import IllegalDecision as IllegalDecision
    from ._judge import Reason as Reason
    from ._judge import Verdict as Verdict
    from ._judge import Violation as Violation
    from ._options import Engine as Engine
    from ._options import Options as Options
    from ._verbs.best import Best as Best
    from ._verbs.count import Counted as Counted
    from ._verbs.legal import LegalOutcomes as LegalOutcomes
    from ._verbs.legal import best as best
    from ._verbs.legal import check as check
    from ._verbs.legal import count as count
    from ._verbs.legal import explain as explain
    from ._verbs.legal import outcome_lines as outcome_lines
    from ._verbs.legal import outcomes as outcomes
    from ._verbs.legal import sample as sample
    from ._verbs.legal import step as step
    from ._verbs.step import ActionLayout as ActionLayout
    from ._verbs.step import Decision as Decision
    from ._verbs.step import DecisionKind as DecisionKind
    from ._verbs.step import IllegalOutcome as IllegalOutcome
    from ._verbs.step import State as State
    from ._verbs.step import Stepper as Stepper
    from ._verbs.step import Walk as Walk

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
