"""Documented limits, so that hostile or careless input is refused with a clear message instead of
stalling or exhausting memory. One :class:`Limits` carries the size caps, the same on every surface
(each cap a flag, ``--max-<name>``: the table is docs/cli.md's "Limits", held to :class:`Limits` by
the suite); one :class:`Deadline` carries the time limit of one call, built as the call starts.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field, fields
from itertools import islice
from typing import Any, TypeVar

from ._errors import DocumentCap, PastLimit, ScenarioError, TimeLimitReached, UsageError
from ._text import found

clock: Callable[[], float] = time.monotonic
"""The clock every deadline reads, in seconds. The test suite's properties read the process's CPU
time instead (tests/property/conftest.py): a property that sets aside the inputs too large to
list within a time limit then sets aside the same ones on a saturated machine as on an idle one,
where wall time made hypothesis replay a case as another (issue 52)."""

DEFAULT_TIME_LIMIT = 60.0
"""Seconds every verb may take unless told otherwise (or :data:`TIME_LIMIT_VARIABLE` says otherwise:
``model/_args.py`` ``default_time_limit``)."""
TIME_LIMIT_VARIABLE = "TRIGGERSTACK_TIME_LIMIT"
"""The environment variable that sets the default time limit of a machine: docs/cli.md, Limits."""
MOST_JOBS = 64
"""The most worker processes of a batch (``check --batch --jobs``, ``batch --jobs``): each is a process
and a pipe made before any line is read, so a larger ``--jobs`` (``--jobs 100000`` would fork until the
machine ran out of processes) is refused naming the flag; more processes than cores only wait."""


FLAGS: ContextVar[frozenset[str] | None] = ContextVar("triggerstack_limit_flags", default=None)
"""The flags of the command line's command that is running (solver/_cli.py sets it from the options
it parsed): a refusal names the flag that raises its cap only where the command has that flag
(``conformance run`` reads its suite within fixed caps, and has none). None where no command line
runs (the servers' and batch's flags are every cap's): the flag is named."""


def seconds_said(seconds: float) -> str:
    """A time limit as a message says it: the shortest text that reads back as the same number
    (``0.1234567``, ``1e-320``, ``60``), never rounded to six digits as ``:g`` does."""
    text = str(float(seconds))  # the shortest digits that read back as it (a float's str is its repr)
    return text.removesuffix(".0")


def raised_by(cap: str) -> str:
    """The hint after a refusal past cap ``cap``: `` (raise it with --max-CAP)``, or "" where the
    running command has no such flag (:data:`FLAGS`). Every refusal past a cap words its hint here."""
    flag = f"--max-{cap}"
    flags = FLAGS.get()
    return f" (raise it with {flag})" if flags is None or flag in flags else ""


MOST_DEPTH = 256
"""The most ``--max-depth`` may be: the readers (Python's JSON parser, PyYAML's composer) and the
validation of a document recurse a frame or more per level, within Python's recursion limit (about
1,000 frames, some already in use: a server's thread, a verb's). A JSON scenario 600 deep read with
``--max-depth 100000`` was exit 70 (an internal RecursionError), and one 1,200 deep was refused as
"nested deeper than the limit of 100000 (raise it with --max-depth)": a cap whose advice could not
help. 256 is four times the default, and read at every door with room to spare
(tests/test_attacks_67b.py)."""


def _cap(default: int, what: str, most: int | None = None) -> Any:
    """A cap's field: its default, and what it bounds (the help of its flag, ``--max-<name>``); ``most``:
    the largest value it may be given (no end when None)."""
    return field(default=default, metadata={"what": what, "most": most})


def most_of(cap: str) -> int | None:
    """The largest value cap ``cap`` may be given (:data:`MOST_DEPTH` for ``depth``), or None."""
    most: int | None = next(f.metadata["most"] for f in fields(Limits) if f.name == cap)
    return most


@dataclass(frozen=True, slots=True)
class Limits:
    """The size caps (see the module docstring); ``Limits(passes=3)`` changes one."""

    bytes: int = _cap(16 * 1024 * 1024, "bytes read from one document or batch line, YAML aliases expanded")
    depth: int = _cap(64, "nesting of a document, from its own root (in a request too)", MOST_DEPTH)
    digits: int = _cap(100, "digits of one integer in a document")
    values: int = _cap(1_000_000, "values of one document, YAML aliases expanded (in a request too)")
    abilities: int = _cap(1_000, "waiting abilities (and entries of one pass of a proposal)")
    objects: int = _cap(10_000, "objects")
    candidates: int = _cap(10_000, "candidates of one requirement")
    choices: int = _cap(200_000, "choices of one ability listed one by one")
    outcomes: int = _cap(2_000_000, "outcomes a solver engine (cpsat, constraint) enumerates, or divide tallies")
    passes: int = _cap(100, "passes of 603.3b when reactions fire further abilities (a loop is named)")
    compiled: int = _cap(
        1_000, "distinct passes of 603.3b one call compiles, each kept with its engine (a loop is named)"
    )
    memory: int = _cap(1024 * 1024 * 1024, "bytes of compiled scenarios a server keeps (serve)")
    answer: int = _cap(
        16 * 1024 * 1024, "bytes of one answer, counted as written (a verdict or report as built, text too)"
    )

    @staticmethod
    def described() -> list[tuple[str, int, str]]:
        """Each cap: its name (the flag is ``--max-<name>``), its default, and what it bounds."""
        return [(f.name, f.default, f.metadata["what"]) for f in fields(Limits)]  # type: ignore[misc]

    def refuse(self, what: str, count: int, cap: str, loc: tuple[str | int, ...] = ()) -> ScenarioError:
        """The error for ``count`` of ``what`` over cap ``cap`` (its flag named)."""
        return ScenarioError(f"{count} {what} is more than the limit of {getattr(self, cap)}{raised_by(cap)}", loc)

    def past(
        self,
        limit: DocumentCap,
        said: str,
        loc: tuple[str | int, ...] = (),
        source: str | None = None,
    ) -> PastLimit:
        """The one refusal of a document past one of its caps, whichever reader found it (JSON, YAML,
        a line, the walk over a built document): ``said`` is what was found, the flag that raises
        that cap follows it, and the error names ``limit`` so nobody reads it off the words. "text"
        (no output could print it) and "range" (a number past the floats) have no flag."""
        flag = "" if limit in ("text", "range") else raised_by(limit)
        return PastLimit(f"{said}{flag}", loc, limit=limit, source=source)

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


# A time limit, read alike at every door (the command line's --time-limit, a request's time_limit,
# Options and the Python verbs' keyword): None, or a finite number of seconds more than 0, in the
# format's words when refused (model/_args.py reads the other arguments so).


def seconds_of(value: Any, name: str = "time_limit") -> float | None:
    """A time limit: ``None`` (no limit), or a finite number of seconds more than 0 as a float;
    else :class:`UsageError` naming ``name`` (only why, when ``name`` is empty)."""
    if value is None:
        return None
    why = ""
    if isinstance(value, bool) or not isinstance(value, int | float):
        why = f"expected a number, found {found(value)}"
    else:
        try:
            seconds = float(value)
        except OverflowError:  # an int past the largest float
            seconds = math.inf
        if not math.isfinite(seconds):
            why = f"expected a finite number of seconds, found {found(value)}"
        elif seconds <= 0:
            why = f"expected more than 0 seconds, found {found(value)}"
    if why:
        raise UsageError(f"{name}: {why}" if name else why)
    return seconds


def seconds_field(value: Any) -> float | None:
    """:func:`seconds_of` as a field's validator, naming nothing (the field's place names it): its
    ``UsageError`` is a ``ValueError``, which pydantic reports there."""
    return seconds_of(value, "")


class Deadline:
    """When one call must be done: built once, at the start of the call, from its time limit
    (:func:`deadline_for`), and passed down to whatever the call runs — never shared by two calls,
    never moved. ``check`` is cheap enough to call in inner loops; it raises
    :class:`TimeLimitReached` naming what was being computed. A deadline made while another is in
    force (a request's :class:`Bound`, the call that made this one) is checked within it too."""

    __slots__ = ("at", "compiled", "outer", "seconds")

    def __init__(self, seconds: float | None) -> None:
        self.compiled = 0  # distinct passes of 603.3b compiled within this call (compiled_one)
        # the one place every time limit passes (nan would never end): a float already in range —
        # Options' own, read once per call of a stepper, an environment's every step — is taken as it is
        ok = type(seconds) is float and 0.0 < seconds < math.inf
        self.seconds = seconds if ok else seconds_of(seconds)
        self.at = None if self.seconds is None else clock() + self.seconds
        self.outer = _IN_FORCE.get()

    def remaining(self) -> float | None:
        """Seconds left (never below a millisecond), or None for no limit — within the deadline
        it was made in too."""
        own = None if self.at is None else max(self.at - clock(), 0.001)
        left = None if self.outer is None else self.outer.remaining()
        return left if own is None else own if left is None else min(own, left)

    def check(self, what: str) -> None:
        if self.at is not None and clock() > self.at:
            said = seconds_said(self.seconds or 0.0)  # a deadline that is set has its seconds
            raise TimeLimitReached(f"ran past the time limit of {said}s while {what}; raise --time-limit")
        if self.outer is not None:
            self.outer.check(what)

    def compiled_one(self) -> int:
        """Count one more distinct pass of 603.3b compiled within this call (verbs that run within a
        request's bound and take it count together): how many it has compiled now.
        ``model/_passes.py`` ``Passes.reach`` holds it to ``Limits.compiled``. Only the call's own
        deadline counts: an outer one spans other calls, whose passes are not this call's to keep."""
        self.compiled += 1
        return self.compiled


class Abandoned(TimeLimitReached):
    """The client that asked went away: the work stops (nobody would read the answer)."""


class Bound(Deadline):
    """One request's deadline, however many verbs it asks: its time limit, and whether the client
    that asked has gone (``gone``, set by the server that saw it hang up). Built once per request by
    the surface that reads it (the HTTP gate, ``Service.call``, the command line)."""

    __slots__ = ("gone",)

    def __init__(self, seconds: float | None, gone: threading.Event | None = None) -> None:
        super().__init__(seconds)
        self.outer = None  # a request is the outermost bound
        self.gone = gone

    def check(self, what: str) -> None:
        if self.gone is not None and self.gone.is_set():
            raise Abandoned(f"the client went away while {what}")
        if self.at is not None and clock() > self.at:
            raise TimeLimitReached(
                f"ran past the request's time limit of {self.seconds:g}s while {what}; raise --time-limit"
            )


_IN_FORCE: ContextVar[Deadline | None] = ContextVar("triggerstack_deadline", default=None)
"""The deadline of the call (or request) running in this context: each thread has its own."""


class _InForce:
    """The context manager :func:`bounded` gives (a class: it is entered once per call)."""

    __slots__ = ("deadline", "token")

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline

    def __enter__(self) -> Deadline:
        self.token = _IN_FORCE.set(self.deadline)
        return self.deadline

    def __exit__(self, *_: object) -> None:
        _IN_FORCE.reset(self.token)


def in_force() -> Deadline | None:
    """The deadline of the call running in this context (None: no call is running)."""
    return _IN_FORCE.get()


def bounded(deadline: Deadline) -> _InForce:
    """``deadline`` in force inside (``with bounded(d):``): a call made inside ends within it
    (:func:`deadline_for`), and what is kept across calls (:data:`RUNNING`) checks it — a request
    that calls several verbs (``enumerate``: a count, then an outcome per rank) is bounded as a
    whole, and stops when its client goes away."""
    return _InForce(deadline)


def deadline_for(seconds: float | None) -> Deadline:
    """The deadline of a call that may take ``seconds`` (None: no limit), checked once as it
    starts: the deadline in force when that ends no later than ``seconds`` from now (a request's
    bound, or the call that makes this one — nothing new is built), else a new one within it."""
    outer = _IN_FORCE.get()
    if outer is not None and (seconds is None or (outer.at is not None and outer.at <= clock() + seconds)):
        deadline = outer
    else:
        deadline = Deadline(seconds)
    deadline.check("starting")  # within a request's bound: one more call may be one too many
    return deadline


T = TypeVar("T")


def lazily(seconds: float | None, make: Callable[[], Iterator[T]], ahead: int = 256) -> Iterator[T]:
    """A lazy call that may take ``seconds``: its deadline built as its first item is asked for
    (:func:`deadline_for`), and in force while ``make()`` runs and while each item is computed — a
    generator runs in the context of whoever resumes it, so it sets its own deadline again each
    time (two generators of one scenario, or one resumed between other calls, keep their own).
    So that this costs nothing per item of a long stream, items are computed a few at a time — one,
    then twice as many each time, up to ``ahead`` — and those computed before an error come first."""
    deadline = deadline_for(seconds)
    with bounded(deadline):
        items = make()
    failed: list[Exception] = []

    def guarded() -> Iterator[T]:  # what was computed before an error is still the answer's
        try:
            yield from items
        except Exception as exc:
            failed.append(exc)

    source = guarded()
    size = 1
    while True:
        token = _IN_FORCE.set(deadline)
        try:
            batch = list(islice(source, size))  # taken in C: an item costs no Python step here
        finally:
            _IN_FORCE.reset(token)
        yield from batch
        if failed:
            raise failed[0]
        if len(batch) < size:
            return
        size = min(2 * size, ahead)


class _Running(Deadline):
    """No deadline of its own: the one in force — the running call's, or a request's — when it is
    checked. What is kept across calls (a scenario's chains and engines, a stepper's choice spaces)
    holds this, so that each call that runs it is bounded by that call's own deadline, in its own
    thread, and none keeps an earlier call's."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(None)
        self.outer = None

    @property
    def at(self) -> float | None:
        found = _IN_FORCE.get()
        return None if found is None else found.at

    @at.setter
    def at(self, value: float | None) -> None:  # built without a time of its own
        pass

    def remaining(self) -> float | None:
        found = _IN_FORCE.get()
        return None if found is None else found.remaining()

    def check(self, what: str) -> None:
        found = _IN_FORCE.get()
        if found is not None:
            found.check(what)


RUNNING: Deadline = _Running()
"""The deadline of whichever call runs it (see :class:`_Running`)."""
NO_DEADLINE = RUNNING
"""No deadline of one's own (the default of everything that takes one): the one in force, if any."""


def too_deep(limits: Limits, loc: tuple[str | int, ...] = (), source: str | None = None) -> PastLimit:
    """The refusal of a document nested past ``limits.depth``."""
    return limits.past("depth", f"nested deeper than the limit of {limits.depth}", loc, source)
