"""Errors of the engines (the input was fine, the question could not be answered as asked).

::

    ValueError
     ├── ScenarioError (model)
     │    └── EngineCannot      this engine does not handle this scenario (exit 2): use another
     └── IllegalDecision        a walk was asked to take a decision that is not legal now (the
                                scenario is fine; the decision is not)
    RuntimeError
     └── TimeLimitReached       (model) the time limit ran out before the answer was complete (exit 3)
    OSError
     └── OutputFailed           an answer could not be written (disk full, a device error …: exit 74)
"""

from __future__ import annotations

from triggerstack.model.errors import ScenarioError, TimeLimitReached
from triggerstack.model.rules import Rule

__all__ = ["EngineCannot", "IllegalDecision", "OutputFailed", "TimeLimitReached"]


class EngineCannot(ScenarioError):
    """The chosen engine cannot decide this scenario exactly; it says so rather than guess (SPEC §7)."""


class IllegalDecision(ValueError):
    """A decision that is not legal in the state it was applied to, with why: ``decision`` is
    its readable form, ``reason`` one sentence, ``rule`` the rule it breaks where one does, and
    ``legal`` the readable forms of the decisions that are legal there."""

    def __init__(self, decision: str, reason: str, rule: Rule | None = None, legal: tuple[str, ...] = ()) -> None:
        self.decision = decision
        self.reason = reason
        self.rule = rule
        self.legal = legal
        text = f"{decision!r} is not a legal decision now: {reason}"
        if rule is not None:
            text += f" ({rule})"
        super().__init__(text)


class OutputFailed(OSError):
    """An output file could not be written once the work had begun (the disk filled up, a device
    failed): nothing half-written is left, and the command line exits 74, never 0 or 1."""
