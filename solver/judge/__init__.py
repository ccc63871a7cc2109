"""The judge room: whether a proposal, one decision of a walk, or one candidate is legal, and if not
which rule it breaks and why, in one vocabulary of codes and rules (docs/architecture.md, the rule
map). ``check``, ``step`` and ``explain`` ask here; CP-SAT and python-constraint2 state the same
rules again on purpose, as independent cross-checks."""

from __future__ import annotations

from ._proposal import Verdict, Violation, judge

__all__ = ["Verdict", "Violation", "judge"]
