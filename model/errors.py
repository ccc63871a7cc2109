"""Exceptions for input that cannot be decided on.

::

    ValueError
     └── ScenarioError        bad scenario, proposal or score: unreadable, malformed, over a cap …
          ├── ProposalError   a proposal whose shape does not fit its scenario
          └── EndlessLoop     603.3b's loop never ends: a mandatory loop (104.4b) or an optional one
    RuntimeError
     └── TimeLimitReached     the time limit ran out before the answer was complete (exit 3)

An illegal proposal is not an exception: its violations are data (``Verdict.violations``).
"""

from __future__ import annotations

from .rules import Rule

__all__ = ["EndlessLoop", "ProposalError", "ScenarioError", "TimeLimitReached", "format_loc"]


def format_loc(loc: tuple[str | int, ...]) -> str:
    """``("triggers", 3, "modes", 1)`` → ``triggers[3].modes[1]``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out


class ScenarioError(ValueError):
    """Input that cannot be decided on; ``loc`` names the place in the document.

    ``rule`` is set where a rule makes the input contradictory (603.3a: a given controller that
    is not the one the rule derives).
    """

    def __init__(
        self,
        message: str,
        loc: tuple[str | int, ...] = (),
        rule: Rule | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.loc = loc
        self.rule = rule
        self.source = source
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """``file: place: message (rule N)`` on one line."""
        parts = []
        if self.source:
            parts.append(self.source)
        if self.loc:
            parts.append(format_loc(self.loc))
        text = " ".join(self.message.split())
        if self.rule is not None:
            text += f" (rule {self.rule.value})"
        parts.append(text)
        return ": ".join(parts)

    def located(self, source: str) -> ScenarioError:
        """The same error, naming the file it came from."""
        return type(self)(self.message, self.loc, self.rule, source)


class ProposalError(ScenarioError):
    """A proposal whose shape does not fit its scenario (rule 603.3c–d: modes and targets go
    where the ability has them)."""


class EndlessLoop(ScenarioError):
    """Abilities trigger again and again while the waiting ones are put on the stack: a later pass
    of 603.3b repeats an earlier one (the same waiting abilities, up to their names, on the same
    stack facts), so the passes never end. ``mandatory``: no choice ever ends the loop, and the game
    is a draw (104.4b) — there is no outcome; otherwise the loop is optional and the outcomes are
    unboundedly many (a choice ends it after any number of rounds)."""

    def __init__(
        self,
        message: str,
        mandatory: bool,
        loc: tuple[str | int, ...] = (),
        rule: Rule | None = None,
        source: str | None = None,
    ) -> None:
        self.mandatory = mandatory
        super().__init__(message, loc, rule, source)

    def located(self, source: str) -> ScenarioError:
        return type(self)(self.message, self.mandatory, self.loc, self.rule, source)


class TimeLimitReached(RuntimeError):
    """The time limit ran out: no partial answer is passed off as whole (SPEC §7)."""
