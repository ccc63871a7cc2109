"""Errors of the engines and the services, and the one table that says how every error is shown.

::

    ValueError
     ├── ScenarioError (model)  bad input, with its place (see model/_errors.py for its kinds)
     │    ├── EngineCannot      this engine does not handle this scenario (exit 2): use another
     │    └── RequestError      a request the service cannot take (not JSON, no such method …)
     └── IllegalDecision        a walk was asked to take a decision that is not legal now (the
                                scenario is fine; the decision is not)
    RuntimeError
     └── TimeLimitReached       (model) the time limit ran out before the answer was complete (exit 3)
     └── ClusterLost            the Dask cluster a batch runs on is gone: no worker for too long,
                                or the scheduler lost (exit 69)
    OSError
     └── OutputFailed           an answer could not be written (disk full, a device error …: exit 74)

:func:`failure` is the only place an exception becomes what a user sees: its :class:`Kind` (exit
code, JSON-RPC code, HTTP status and problem type), one line of message, and the data a client
reads (the place, the rule …). The command line, JSON-RPC, HTTP and both batch forms render it.
"""

from __future__ import annotations

import signal
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from triggerstack.model._errors import ScenarioError, TimeLimitReached, format_loc
from triggerstack.model._rules import Rule
from triggerstack.model._text import typed

if TYPE_CHECKING:  # pydantic is imported where a request's params are judged, not to start the CLI
    from pydantic import BaseModel, ValidationError


@dataclass(frozen=True, slots=True)
class Kind:
    """How one kind of error is shown: the command line's exit code, the JSON-RPC error code
    (None: not an answer a server gives), the HTTP status and the problem type (RFC 9457) under
    ``/v1/problems/``."""

    name: str
    exit: int
    rpc: int | None
    http: int

    @property
    def title(self) -> str:
        return self.name.replace("-", " ")


class _Kinds:
    """Every kind, by name (docs/server.md and docs/cli.md list them)."""

    NOT_JSON = Kind("not-json", 2, -32700, 400)
    TOO_LARGE = Kind("not-json", 2, -32700, 413)
    NOT_A_REQUEST = Kind("not-a-request", 2, -32600, 400)
    WRONG_HOST = Kind("not-a-request", 2, -32600, 421)
    NO_METHOD = Kind("no-method", 2, -32601, 404)
    WRONG_HTTP_METHOD = Kind("no-method", 2, -32601, 405)
    INVALID_PARAMS = Kind("invalid-params", 2, -32602, 422)
    BAD_INPUT = Kind("bad-input", 2, -32001, 422)
    TIME_LIMIT = Kind("time-limit", 3, -32002, 504)
    ILLEGAL_DECISION = Kind("illegal-decision", 2, -32003, 422)
    NO_HANDLE = Kind("no-handle", 2, -32004, 404)
    ENGINE_CANNOT = Kind("engine-cannot", 2, -32005, 422)
    POOL_FULL = Kind("pool-full", 2, -32006, 429)
    INTERNAL = Kind("internal", 70, -32603, 500)
    OUTPUT_FAILED = Kind("output-failed", 74, None, 500)
    CLUSTER_LOST = Kind("cluster-lost", 69, None, 503)
    INTERRUPTED = Kind("interrupted", 130, None, 503)
    TERMINATED = Kind("terminated", 143, None, 503)
    HUNG_UP = Kind("hung-up", 129, None, 503)


KINDS = _Kinds
"""The kinds of error (``KINDS.BAD_INPUT`` …)."""


class EngineCannot(ScenarioError):
    """The chosen engine cannot decide this scenario exactly; it says so rather than guess
    (docs/cli.md, "count, enumerate, sample, best")."""


class RequestError(ScenarioError):
    """A request a service cannot take as sent: not JSON, not a request, no such method, params of
    the wrong shape, no such handle, too many loaded. ``kind`` says which; ``data`` what a client
    reads besides the message (the place, the methods there are …)."""

    def __init__(self, kind: Kind, message: str, data: dict[str, Any] | None = None) -> None:
        self.kind = kind
        self.data = data
        super().__init__(message)


class IllegalDecision(ValueError):
    """A decision that is not legal in the state it was applied to, with why: ``decision`` is
    its readable form (an id that names no decision: that id, an ``int``), ``reason`` one
    sentence, ``rule`` the rule it breaks where one does (None for an id or form that names no
    decision: no rule is broken, the action is not one), and ``legal`` the readable forms of the
    decisions that are legal there."""

    def __init__(
        self, decision: str | int, reason: str, rule: Rule | None = None, legal: tuple[str, ...] = ()
    ) -> None:
        self.decision = decision
        self.reason = reason
        self.rule = rule
        self.legal = legal
        shown = f"id {decision}" if isinstance(decision, int) else typed(decision)
        text = f"{shown} is not a legal decision now: {reason}"
        if rule is not None:
            text += f" ({rule})"
        super().__init__(text)


class OutputFailed(OSError):
    """An output could not be written once the work had begun (standard output closed or full, the
    reader gone, a disk that filled up): nothing half-written is left, and the command line exits
    74, never 0 or 1."""


class ClusterLost(RuntimeError):
    """The Dask cluster a batch runs on can no longer answer: it has had no worker for longer than
    the batch waits for one, or its scheduler is gone. Nothing is half-written; the command line
    exits 69 (sysexits' "service unavailable") whatever the moment it happened."""


class Terminated(BaseException):
    """SIGTERM or SIGHUP (``signum``), raised where the program is so that it ends like an interrupt:
    cleanly, what it was writing removed (exit 143, or 129 for a hang-up). Not an ``Exception``, as
    ``KeyboardInterrupt`` is not: a batch or a server that answers each line whatever goes wrong with
    it (``except Exception``) must not answer this one and go on."""

    def __init__(self, signum: int = signal.SIGTERM) -> None:
        super().__init__(signum)
        self.signum = signum


ENDING = (signal.SIGTERM, signal.SIGHUP)
"""The signals that end a run as :class:`Terminated` where it is (SIGINT is Python's
KeyboardInterrupt), so what it was writing is removed on the way out; SIGHUP only where it is not
ignored (``nohup``)."""


def _on_signal(signum: int, _frame: object) -> None:
    raise Terminated(signum)


def catch_ending() -> dict[int, Any]:
    """Turn each of :data:`ENDING` into :class:`Terminated` (the main thread only: elsewhere Python
    cannot); the handlers they had, for :func:`restore`."""
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.signal(sig, _on_signal) for sig in ENDING if signal.getsignal(sig) is not signal.SIG_IGN}


def restore(previous: dict[int, Any]) -> None:
    for sig, handler in previous.items():
        signal.signal(sig, handler)


@dataclass(frozen=True, slots=True)
class Failure:
    """What a user sees of an error: its kind, one line of message, and data for a client."""

    kind: Kind
    message: str
    data: dict[str, Any] = field(default_factory=dict)
    lines: tuple[str, ...] = ()
    """The message as the command line shows it, one line per problem (empty: ``message``)."""

    def rpc_error(self) -> dict[str, Any]:
        """The JSON-RPC ``error`` member."""
        out: dict[str, Any] = {"code": self.kind.rpc if self.kind.rpc is not None else KINDS.INTERNAL.rpc}
        out["message"] = self.message
        if self.data:
            out["data"] = self.data
        return out

    def problem(self) -> dict[str, Any]:
        """The RFC 9457 problem document (the JSON-RPC code and the data besides)."""
        body: dict[str, Any] = {
            "type": f"/v1/problems/{self.kind.name}",
            "title": self.kind.title,
            "status": self.kind.http,
            "detail": self.message,
            "code": self.kind.rpc if self.kind.rpc is not None else KINDS.INTERNAL.rpc,
        }
        body.update({k: v for k, v in self.data.items() if k not in body})
        return body


def params_error(exc: ValidationError, model: type[BaseModel], what: str = "params") -> RequestError:
    """A request whose params do not fit ``model``: every problem, in the format's words, with
    "did you mean" for a misspelt name (``handel`` → ``handle``)."""
    from triggerstack.model._problems import MAX_PROBLEMS, problems

    found = problems(exc, frozenset(), model, f"{what}: a mapping of names to values")
    lines = [f"{format_loc(p.loc) or what}: {p.message}" for p in found[:MAX_PROBLEMS]]
    data: dict[str, Any] = {"place": format_loc(found[0].loc)}
    data["errors"] = [{"place": format_loc(p.loc), "message": line} for p, line in zip(found, lines, strict=False)]
    return RequestError(KINDS.INVALID_PARAMS, "; ".join(lines), data)


def _problem(exc: ScenarioError, message: bool = False) -> dict[str, Any]:
    """What a client reads of one problem: its place, its rule, and (in a list of them) its message."""
    data: dict[str, Any] = {"place": format_loc(exc.loc)} if exc.loc else {}
    if exc.rule is not None:
        data["rule"] = exc.rule.value
    if message:
        data["message"] = exc.one_line()
    return data


def failure(exc: BaseException) -> Failure:
    """How ``exc`` is shown (the one mapping from errors to output; see the module)."""
    if isinstance(exc, RequestError):
        return Failure(exc.kind, exc.message, dict(exc.data or {}))
    if isinstance(exc, IllegalDecision):
        data: dict[str, Any] = {"decision": exc.decision, "reason": exc.reason, "legal": list(exc.legal)}
        if exc.rule is not None:
            data["rule"] = exc.rule.value
        return Failure(KINDS.ILLEGAL_DECISION, str(exc), data)
    if isinstance(exc, EngineCannot):
        return Failure(KINDS.ENGINE_CANNOT, exc.one_line())
    if isinstance(exc, ScenarioError):
        data = _problem(exc)
        lines = tuple(exc.lines())
        data["errors"] = [_problem(p, message=True) for p in exc.every()]  # each with its place and rule
        if exc.more:
            data["more"] = exc.more
        return Failure(KINDS.BAD_INPUT, "; ".join(lines), data, lines)
    if isinstance(exc, TimeLimitReached):
        return Failure(KINDS.TIME_LIMIT, f"time limit reached: {exc}")
    if isinstance(exc, ClusterLost):
        return Failure(KINDS.CLUSTER_LOST, f"the Dask cluster is lost: {exc}")
    if isinstance(exc, OutputFailed):
        return Failure(KINDS.OUTPUT_FAILED, f"cannot write the output: {exc.strerror or exc}")
    if isinstance(exc, KeyboardInterrupt):
        return Failure(KINDS.INTERRUPTED, "interrupted")
    if isinstance(exc, Terminated):
        hung_up = exc.signum == signal.SIGHUP
        return Failure(KINDS.HUNG_UP if hung_up else KINDS.TERMINATED, "hung up" if hung_up else "terminated")
    if isinstance(exc, MemoryError):
        return Failure(KINDS.INTERNAL, "out of memory (lower the limits, or split the work)")
    return Failure(KINDS.INTERNAL, f"internal error: {type(exc).__name__}: {exc}")
