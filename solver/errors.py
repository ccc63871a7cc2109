"""Errors of the engines (the input was fine, the question could not be answered as asked).

::

    ValueError
     └── ScenarioError (model)
          └── EngineCannot      this engine does not handle this scenario (exit 2): use another
    RuntimeError
     └── TimeLimitReached       (model) the time limit ran out before the answer was complete (exit 3)
"""

from __future__ import annotations

from triggerstack.model.errors import ScenarioError, TimeLimitReached

__all__ = ["EngineCannot", "TimeLimitReached"]


class EngineCannot(ScenarioError):
    """The chosen engine cannot decide this scenario exactly; it says so rather than guess (SPEC §7)."""
