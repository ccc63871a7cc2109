"""Documented limits, so that hostile or careless input is refused with a clear message instead of
stalling or exhausting memory. One :class:`Limits` object carries the size caps, the same for the
command line (each cap has a flag), ``check --batch`` lines, the Python verbs and the servers;
``Deadline`` carries the time limit of one call.

=================  =========  ============================================================
cap                default    what it bounds (flag)
=================  =========  ============================================================
bytes              16 MiB     bytes read from one document or one batch line (``--max-bytes``)
depth              64         nesting of a document's lists and mappings (``--max-depth``)
digits             100        digits of one integer in a document (``--max-digits``)
values             10⁶        values in one document once YAML aliases are expanded
                              (``--max-values``)
abilities          1,000      waiting abilities in one scenario (``--max-abilities``)
objects            10,000     objects in one scenario (``--max-objects``)
candidates         10,000     things one requirement may choose among (``--max-candidates``)
choices            200,000    choices of one ability that are listed (those that are not
                              counted in closed form) (``--max-choices``)
outcomes           2·10⁶      outcomes a solver engine (cpsat, constraint) enumerates, and
                              outcomes of one pass listed across passes (``--max-outcomes``)
memory             1 GiB      bytes the compiled scenarios a server keeps (loaded handles and
                              its cache) may take together, each measured as it is compiled;
                              one scenario over it is refused as it compiles (``--max-memory``)
answer             16 MiB     bytes of one answer of a server (stdio, HTTP) or one answer line of
                              ``batch`` (``--max-answer``): a small request can ask for a large
                              answer (a divide, ``sample -n``); past the cap it is an error
passes             100        passes of 603.3b's loop while abilities keep triggering
                              (``--max-passes``); a pass that repeats an earlier one is
                              named as a loop whatever the cap. ``check`` follows a
                              proposal's own passes (one more than it lists at most)
=================  =========  ============================================================

The time limit (``--time-limit``, ``Options.time_limit``) is 60 s by default for every verb.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from typing import Any

from .errors import ScenarioError, TimeLimitReached

__all__ = ["DEFAULT_LIMITS", "DEFAULT_TIME_LIMIT", "Abandoned", "Bound", "Deadline", "Limits", "bounded", "too_deep"]

DEFAULT_TIME_LIMIT = 60.0
"""Seconds every verb may take unless told otherwise."""


def _cap(default: int, what: str) -> Any:
    """A cap's field: its default, and what it bounds (the help of its flag, ``--max-<name>``)."""
    return field(default=default, metadata={"what": what})


@dataclass(frozen=True, slots=True)
class Limits:
    """The size caps (see the module docstring); ``Limits(passes=3)`` changes one."""

    bytes: int = _cap(16 * 1024 * 1024, "bytes read from one document or batch line")
    depth: int = _cap(64, "nesting of a document")
    digits: int = _cap(100, "digits of one integer in a document")
    values: int = _cap(1_000_000, "values of one document, YAML aliases expanded")
    abilities: int = _cap(1_000, "waiting abilities")
    objects: int = _cap(10_000, "objects")
    candidates: int = _cap(10_000, "candidates of one requirement")
    choices: int = _cap(200_000, "choices of one ability listed one by one")
    outcomes: int = _cap(2_000_000, "outcomes a solver engine (cpsat, constraint) enumerates, or divide tallies")
    passes: int = _cap(100, "passes of 603.3b when reactions fire further abilities (a loop is named)")
    memory: int = _cap(1024 * 1024 * 1024, "bytes of compiled scenarios a server keeps (serve)")
    answer: int = _cap(16 * 1024 * 1024, "bytes of one answer a server or batch line gives (serve, batch)")

    @staticmethod
    def described() -> list[tuple[str, int, str]]:
        """Each cap: its name (the flag is ``--max-<name>``), its default, and what it bounds."""
        return [(f.name, f.default, f.metadata["what"]) for f in fields(Limits)]  # type: ignore[misc]

    def refuse(self, what: str, count: int, cap: str, loc: tuple[str | int, ...] = ()) -> ScenarioError:
        """The error for ``count`` of ``what`` over cap ``cap`` (its flag named)."""
        return ScenarioError(
            f"{count} {what} is more than the limit of {getattr(self, cap)} (raise it with --max-{cap})", loc
        )

    def check_document(self, doc: Any) -> None:
        """The caps a scenario document can be measured against before it is validated or
        compiled: the numbers of waiting abilities and of objects."""
        if not isinstance(doc, Mapping):
            return
        for key, cap in (("triggers", "abilities"), ("objects", "objects")):
            value = doc.get(key)
            if isinstance(value, (list, tuple)) and len(value) > getattr(self, cap):
                what = "waiting abilities" if cap == "abilities" else "objects"
                raise self.refuse(what, len(value), cap, (key,))


DEFAULT_LIMITS = Limits()


class Deadline:
    """When one call must be done. ``check`` is cheap enough to call in inner loops; it raises
    :class:`TimeLimitReached` naming what was being computed."""

    __slots__ = ("at", "seconds")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.at = None if seconds is None else time.monotonic() + seconds

    def restart(self, seconds: float | None) -> None:
        """Start counting again, ``seconds`` from now: one deadline object kept by engines that
        outlive a call (:class:`~triggerstack.solver.LegalOutcomes`) bounds each call in turn."""
        self.seconds = seconds
        self.at = None if seconds is None else time.monotonic() + seconds

    def remaining(self) -> float | None:
        """Seconds left (never below a millisecond), or None for no limit — within the request's
        bound too, when one is in force (:func:`bounded`)."""
        own = None if self.at is None else max(self.at - time.monotonic(), 0.001)
        outer = _BOUND.get()
        if outer is None or outer is self or outer.at is None:
            return own
        left = max(outer.at - time.monotonic(), 0.001)
        return left if own is None else min(own, left)

    def check(self, what: str) -> None:
        if self.at is not None and time.monotonic() > self.at:
            raise TimeLimitReached(f"ran past the time limit of {self.seconds:g}s while {what}; raise --time-limit")
        outer = _BOUND.get()
        if outer is not None and outer is not self:
            outer.check(what)


class Abandoned(TimeLimitReached):
    """The client that asked went away: the work stops (nobody would read the answer)."""


class Bound(Deadline):
    """One request's bound, whatever the verbs inside it restart: its time limit, and whether the
    client that asked has gone (``gone``, set by the server that saw it hang up)."""

    __slots__ = ("gone",)

    def __init__(self, seconds: float | None, gone: threading.Event | None = None) -> None:
        super().__init__(seconds)
        self.gone = gone

    def check(self, what: str) -> None:
        if self.gone is not None and self.gone.is_set():
            raise Abandoned(f"the client went away while {what}")
        if self.at is not None and time.monotonic() > self.at:
            raise TimeLimitReached(
                f"ran past the request's time limit of {self.seconds:g}s while {what}; raise --time-limit"
            )


_BOUND: ContextVar[Bound | None] = ContextVar("triggerstack_bound", default=None)


@contextmanager
def bounded(bound: Bound) -> Iterator[Bound]:
    """Every :class:`Deadline` checked inside also checks ``bound``: a request that calls several
    verbs (``enumerate``: a count, then an outcome per rank) is bounded as a whole, and stops when
    its client goes away."""
    token = _BOUND.set(bound)
    try:
        yield bound
    finally:
        _BOUND.reset(token)


NO_DEADLINE = Deadline(None)


def too_deep(limits: Limits) -> str:
    """The message for a document nested past ``limits.depth``."""
    return f"nested deeper than the limit of {limits.depth} (raise it with --max-depth)"
