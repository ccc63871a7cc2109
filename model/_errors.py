"""Exceptions for input that cannot be decided on.

::

    ValueError
     └── ScenarioError        bad input: a scenario, proposal or score unreadable, malformed, over a cap …
          ├── ProposalError   a proposal whose shape does not fit its scenario
          ├── EndlessLoop     603.3b's loop never ends: a mandatory loop (104.4b) or an optional one
          ├── UsageError      arguments that do not go together, an unknown engine name, a bad flag
          ├── MissingExtra    what was asked needs an optional extra that is not installed
          ├── LayoutOverflow  a scenario that does not fit an action layout's capacities
          └── WalkStateError  a question a walk cannot answer in its state (the outcome of one not over …)
    RuntimeError
     └── TimeLimitReached     the time limit ran out before the answer was complete (exit 3)

An illegal proposal is not an exception: its violations are data (``Verdict.violations``). How each
error is shown — exit code, JSON-RPC code, HTTP status — is decided in one table, ``solver/_errors.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, Self

from ._rules import Rule
from ._text import visible

SHOWN_KEY = 64
"""The most characters of one key a place shows (a longer key is cut, "…" marking the cut)."""


def shown_key(key: str) -> str:
    """``key`` as a message shows it: whole up to :data:`SHOWN_KEY` characters, else cut with "…"
    (a 100 KB key in a document is not echoed whole), each unsafe code point its JSON escape
    (:func:`visible`: a key ``"\x1e"`` is a place ``\u001e``, never a control code on a terminal)."""
    return visible(key if len(key) <= SHOWN_KEY else key[: SHOWN_KEY - 1] + "…")


def format_loc(loc: tuple[str | int, ...]) -> str:
    """``("triggers", 3, "modes", 1)`` → ``triggers[3].modes[1]`` (each key as :func:`shown_key` shows it)."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            part = shown_key(part)
            out += f".{part}" if out else part
    return out


class ScenarioError(ValueError):
    """Input that cannot be decided on; ``loc`` names the place in the document.

    ``rule`` is set where a rule makes the input contradictory (603.3a: a given controller that
    is not the one the rule derives). A document with several problems raises the first, with the
    others in ``also`` (every one of them: :meth:`every`; ``more``: how many past the cap were not
    kept).
    """

    also: tuple[ScenarioError, ...] = ()
    more: int = 0

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
        # its own lines joined (text it quotes keeps its spaces), and any unsafe code point its JSON
        # escape: str.splitlines also breaks at \x1c-\x1e, \x85 and \u2028, which quoted text can hold
        text = visible(" ".join(line.strip() for line in self.message.split("\n")))
        if self.rule is not None:
            text += f" (rule {self.rule.value})"
        parts.append(text)
        return ": ".join(parts)

    def every(self) -> tuple[ScenarioError, ...]:
        """This problem and every other one of the same document, in the document's order."""
        return (self, *self.also)

    def lines(self) -> list[str]:
        """:meth:`one_line` of every problem, and a last line for those past the cap."""
        out = [p.one_line() for p in self.every()]
        if self.more:
            rest = f"... and {self.more} more problem{'s' if self.more != 1 else ''}"
            out.append(f"{self.source}: {rest}" if self.source else rest)
        return out

    @classmethod
    def together(cls, found: list[ScenarioError], cap: int) -> ScenarioError:
        """The first of ``found`` (at least one), holding the others up to ``cap`` in all."""
        if not found:
            return cls("the document does not fit its format")
        first = found[0]
        first.also = tuple(found[1:cap])
        first.more = max(0, len(found) - cap)
        return first

    def _changed(self, change: Callable[[ScenarioError], tuple[tuple[str | int, ...], str | None]]) -> Self:
        """This error, of its own type and with its own fields, and each it holds, at another place."""
        new = type(self).__new__(type(self))
        new.__dict__.update(self.__dict__)
        new.loc, new.source = change(self)
        new.also = tuple(p._changed(change) for p in self.also)
        new.args = (new.one_line(),)
        return new

    def located(self, source: str) -> Self:
        """The same error, naming the file it came from."""
        return self._changed(lambda p: (p.loc, source))

    def within(self, *prefix: str | int) -> Self:
        """The same error (its type kept), its place inside ``prefix``: a scenario's error sent as a
        request's ``scenario`` is at ``scenario.triggers[0]``."""
        return self._changed(lambda p: ((*prefix, *p.loc), p.source))

    def outside(self, parts: int) -> Self:
        """The same error, its place without its first ``parts`` parts (the inverse of :meth:`within`)."""
        return self._changed(lambda p: (p.loc[parts:], p.source))


DocumentCap = Literal["values", "depth", "digits", "bytes", "text", "range"]
"""The caps a document itself can pass, as :class:`PastLimit` names them (docs/cli.md's flags;
"text", no output could print it, and "range", a number past the floats such as ``1e400``, have no
flag: no setting reads them)."""


class PastLimit(ScenarioError):
    """A document well formed as JSON or YAML but past what the tool takes: a documented limit (its
    values, nesting, the digits of an integer, a number's size) or text no output could print. Bad
    input with its place (exit 2, -32001, 422) — never "not JSON", which it is. ``limit`` names which
    one, so a reader that says it in other words (the conformance runner's noise line) asks the error,
    never its message."""

    def __init__(
        self,
        message: str,
        loc: tuple[str | int, ...] = (),
        *,
        limit: DocumentCap,
        source: str | None = None,
    ) -> None:
        self.limit = limit
        super().__init__(message, loc, source=source)


class ProposalError(ScenarioError):
    """A proposal whose shape does not fit its scenario (rule 603.3c–d: modes and targets go
    where the ability has them)."""


class EndlessLoop(ScenarioError):
    """Abilities trigger again and again while the waiting ones are put on the stack: a later pass
    of 603.3b repeats an earlier one (the same waiting abilities, up to their names, on the same
    stack facts), so the passes never end. ``mandatory``: no choice ever ends the loop once it is
    entered, and the game is a draw (104.4b); otherwise the loop is optional and the outcomes are
    unboundedly many (a choice ends it after any number of rounds). ``avoiding``: how many whole
    outcomes end with no pass repeating an earlier one of theirs (for a mandatory loop, every
    outcome ``check`` accepts); None when the count stopped before it was complete (the time limit)."""

    def __init__(
        self,
        message: str,
        mandatory: bool,
        loc: tuple[str | int, ...] = (),
        rule: Rule | None = None,
        source: str | None = None,
        avoiding: int | None = None,
    ) -> None:
        self.mandatory = mandatory
        self.avoiding = avoiding
        super().__init__(message, loc, rule, source)


class PastCompiled(ScenarioError):
    """One call would compile more distinct passes of 603.3b than ``Limits.compiled`` (``--max-compiled``)
    lets it keep: each is kept, with its engine, as long as the scenario is, so following a loop whose
    stack grows is bounded in memory as well as in time (issue 52). Bad input past a cap (exit 2); a
    chain that met a loop before it reads it as the time limit: the count of what avoids the loop is
    not complete."""


class UsageError(ScenarioError):
    """Arguments that do not go together, an unknown engine name, a flag out of range: how the tool
    was called, not what a document says."""


class MissingExtra(ScenarioError):
    """What was asked needs an optional extra (``pip install -e '.[serve]'`` …) that is not
    installed. Every message says how to install it with :func:`install_hint`."""


def install_hint(extra: str) -> str:
    """How to install an extra: from a clone, as the README sets up (the package is not published,
    so ``pip install 'triggerstack[…]'`` would name a package no index has)."""
    return f"pip install -e '.[{extra}]' in a clone of triggerstack"


class LayoutOverflow(ScenarioError):
    """A scenario with more abilities, things, modes or divisions than an action layout has slots."""


class WalkStateError(ScenarioError):
    """A question a walk cannot answer in its state: the outcome of a walk that is not over, a
    decision asked for when none is left to make."""


class TimeLimitReached(RuntimeError):
    """The time limit ran out: no partial answer is passed off as whole (docs/cli.md, "Exit codes")."""
