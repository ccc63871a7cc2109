"""The engines: validation, explanation and the command line.

``from triggerstack.solver import check, explain``
"""

from .check import Verdict, Violation, check
from .explain import explain

__all__ = ["Verdict", "Violation", "check", "explain"]
