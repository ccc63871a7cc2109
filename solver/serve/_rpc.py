"""The methods of the server, transport-free: JSON-RPC 2.0 requests in, responses out.

Every verb is a method. A scenario is sent once with ``load`` and named by its ``handle`` after
that (its :class:`~.._verbs.legal.LegalOutcomes` — compiled facts, choice spaces, solved cores,
next passes, the stepper — is kept), or sent inline as ``scenario`` with each request. Params and
results are pydantic models: the same types validate requests, build results and publish the JSON
Schema that ``rpc.discover`` returns (an OpenRPC document).

The verbs' methods are generated from the table of verbs (``verbs/table.py``): each method's
params are the verb's own and how the scenario is named. Errors are JSON-RPC errors, mapped in
the one table of errors (``solver/_errors.py``; docs/server.md lists the codes); ``data`` names
the place (``triggers[3].modes[1]``) where there is one.
"""

from __future__ import annotations

import contextlib
import functools
import json
import math
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Annotated, Any, NamedTuple, cast

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    create_model,
    field_validator,
    model_validator,
)
from triggerstack.model._answer import Answer, AnswerTooLarge, Raw
from triggerstack.model._errors import ScenarioError
from triggerstack.model._facts import Facts
from triggerstack.model._io import load_document, printable
from triggerstack.model._limits import Bound, bounded, deadline_for, seconds_field
from triggerstack.model._numbers import counted, text_int
from triggerstack.model._text import typed, visible

from .._errors import KINDS, Failure, Kind, RequestError, failure, params_error
from .._options import Engine, Options, resolve
from .._verbs.base import Params, Result
from .._verbs.legal import LegalOutcomes
from .._verbs.table import VERBS, Verb
from ._batch import check_value, read_line
from ._cache import CACHE_ENTRIES, Compiled
from ._pool import IDLE_SECONDS, Pool

_ABOUT_THE_FILE = ("more than", "expected a .json", "not UTF-8", "cannot read", "not a regular file")
"""The beginnings of a reading error about a file itself, not what it holds (said as it is)."""
_ASK_FOR_LESS = "ask for less: a smaller n or limit, the count without divide"
"""How an answer past ``--max-answer`` can be made smaller."""
_CLIENT: ContextVar[tuple[str, str]] = ContextVar("triggerstack_client", default=("", ""))
"""Who asks: the token a client presents (over HTTP), or nobody's in particular (stdio), and the
network address it asks from (over HTTP; stdio: none)."""

globals().update({name: kind.rpc for name, kind in vars(KINDS).items() if isinstance(kind, Kind) and kind.rpc})
"""The JSON-RPC error codes by name (``BAD_INPUT`` …), for clients that read this module; the table is
``solver/_errors.py``."""


class RpcError(Exception):
    """A JSON-RPC error: what a call failed with, as a client reads it (``code``, one-line
    ``message``, ``data``: the place, the rule …)."""

    def __init__(self, found: Failure) -> None:
        super().__init__(found.message)
        self.failure = found
        self.code = found.kind.rpc
        self.message = found.message
        self.data = found.data

    def as_dict(self) -> dict[str, Any]:
        return self.failure.rpc_error()


# -- params -----------------------------------------------------------------------------------------


def _one_of(*names: str) -> dict[str, Any]:
    """The JSON Schema of "exactly one of these is given (not null)": what a model validator says
    in Python, said in the published schema too, so that a client generating requests from the
    schema (a fuzzer among them) never sends a valid-looking request refused for its form."""
    return {"oneOf": [{"required": [n], "properties": {n: {"not": {"type": "null"}}}} for n in names]}


class Load(Params):
    """Send a scenario once; later requests name it by the handle returned."""

    model_config = ConfigDict(json_schema_extra=_one_of("scenario", "path"))

    scenario: Any = Field(
        None,
        description="The scenario (the scenario format of docs/formats.md)",
        json_schema_extra={"document": "scenario"},
    )
    path: str | None = Field(
        None,
        description="Or a scenario file the server reads (.json, .yaml, .yml): over stdio only",
        json_schema_extra={"stdio": True},
    )

    @model_validator(mode="after")
    def _one(self) -> Load:
        if (self.scenario is None) == (self.path is None):
            raise ValueError("give one of scenario and path")
        return self


class Unload(Params):
    """Forget a loaded scenario and what was learned about it."""

    handle: str = Field(description="A handle that load returned")


class Asks(Params):
    """How a question names its scenario, and the options it may change."""

    model_config = ConfigDict(json_schema_extra=_one_of("handle", "scenario"))

    handle: str | None = Field(None, description="A handle that load returned")
    scenario: Any = Field(None, description="Or the scenario itself", json_schema_extra={"document": "scenario"})
    engine: str | None = Field(
        None, description="The engine (auto by default)", json_schema_extra={"enum": list[Any](Engine.names())}
    )
    time_limit: Annotated[float | None, BeforeValidator(seconds_field)] = Field(
        None,
        description="Seconds this request may take, at most the server's --time-limit",
        json_schema_extra={"exclusiveMinimum": 0},
    )

    @field_validator("engine")
    @classmethod
    def _engine(cls, value: str | None) -> str | None:
        if value is not None and value not in Engine.names():
            raise ValueError(f"unknown engine {typed(str(value))}: one of {', '.join(Engine.names())}")
        return value

    @model_validator(mode="after")
    def _one(self) -> Asks:
        if (self.handle is None) == (self.scenario is None):
            raise ValueError("give one of handle and scenario")
        return self


def request_model(verb: Verb) -> type[Params]:
    """A verb's params as a request: its own, and :class:`Asks` (a verb that takes no scenario: its own),
    under the params' published name."""
    if not verb.scenario:
        return verb.params
    bases: tuple[type[Params], ...] = (verb.params, Asks)
    name = verb.params.model_config.get("title") or verb.params.__name__
    return cast(type[Params], create_model(name, __base__=bases, __doc__=verb.params.__doc__))


class Discover(Params):
    """The methods, their params and results, as an OpenRPC document."""


class HandleResult(Result):
    handle: str = Field(description="Names the scenario in later requests")


class UnloadResult(Result):
    unloaded: bool = Field(description="True")


# -- the service ------------------------------------------------------------------------------------


class Service:
    """Answers requests; keeps the loaded scenarios. ``options`` are the server's: each request's
    engine and time limit may change them, its time limit only downwards.

    A handle is unguessable (128 random bits) and belongs to the client that loaded it — the token
    it presents (``client``; over HTTP ``Authorization: Bearer <token>``): another client asking by
    it hears that no such scenario is loaded. Which handle gives way to a load is the pool's one
    fairness rule (``_pool.py``: shares per token and per network address, the largest holder
    first). Inline requests never take a slot.
    Every compiled scenario (loaded, or cached from a request that sent it inline) is measured as
    it compiles, and together they stay within ``limits.memory`` bytes: the cache gives way first,
    then a load is refused."""

    def __init__(self, options: Options | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.options = options or Options()
        self._pool = Pool(clock)
        self._cache = Compiled(CACHE_ENTRIES, measure=True)  # inline scenarios, by their text, within limits.memory
        self._clock = clock

    def __repr__(self) -> str:
        return f"<Service: {len(self._pool)} loaded, {self.held_bytes()} bytes compiled>"

    # -- scenarios

    def held_bytes(self) -> int:
        """The bytes the loaded and cached compiled scenarios take, as measured."""
        return self._pool.bytes() + self._cache.bytes()

    def _room(self, cost: int) -> bool:
        """Make room for ``cost`` more bytes by dropping cached scenarios (oldest first)."""
        return self._cache.make_room(cost, self.options.limits.memory - self._pool.bytes())

    def _compile(self, doc: Any, place: str = "scenario", cache: bool = True) -> tuple[Facts, int]:
        """``doc`` compiled (or found compiled) within the request's deadline and the server's caps."""
        deadline = deadline_for(self.options.time_limit)  # the request's, in force: nothing new is built
        room = self.options.limits.memory - self._pool.bytes()
        try:
            return self._cache.from_document(doc, self.options, deadline, room, cache)
        except ScenarioError as exc:
            raise exc.within(place) from None

    def seconds(self, asked: float | None) -> float | None:
        """A request's time limit: the server's, lowered (never raised) to what the request asks."""
        limit = self.options.time_limit
        if asked is not None:
            limit = asked if limit is None else min(limit, asked)
        return limit

    def _options(self, p: Asks) -> Options:
        engine = Engine.parse(p.engine or self.options.engine)
        return resolve(self.options, {"engine": engine, "time_limit": self.seconds(p.time_limit)})

    def legal_for(self, p: Asks, client: str = "", peer: str = "") -> LegalOutcomes:
        """The scenario a request names, under its options; :class:`RpcError` as :meth:`call` gives."""
        token = _CLIENT.set((client, peer))
        try:
            return self._legal(p)
        except Exception as exc:
            raise RpcError(failure(exc)) from None
        finally:
            _CLIENT.reset(token)

    def _held(self, handle: str) -> LegalOutcomes:
        found = self._pool.find(handle, _CLIENT.get()[0])
        if found is None:
            raise RequestError(
                KINDS.NO_HANDLE,
                f"no scenario is loaded as {typed(handle)} for this client (never loaded, unloaded, or idle for "
                f"{IDLE_SECONDS:g} s)",
                {"handle": handle},
            )
        legal: LegalOutcomes = found.legal
        return legal

    def _legal(self, p: Asks) -> LegalOutcomes:
        options = self._options(p)
        if p.handle is not None:
            found = self._held(p.handle)
            if found.options == options:
                return found
            return LegalOutcomes(found.facts, options)
        return LegalOutcomes(self._compile(p.scenario)[0], options)

    # -- the methods that are not verbs

    def load(self, p: Load) -> HandleResult:
        client, peer = _CLIENT.get()
        self._pool.admit(client, peer)
        if p.path is not None:
            facts, cost = self._load_path(p.path)
        else:
            facts, cost = self._compile(p.scenario, cache=False)
        while not self._room(cost) and self._pool:
            self._pool.make_way(
                client,
                peer,
                f"this scenario takes {cost} bytes compiled and the loaded ones {self.held_bytes()}, more than "
                f"the limit of {self.options.limits.memory} together (--max-memory)",
            )
        if not self._room(cost):
            raise RequestError(
                KINDS.BAD_INPUT,
                f"this scenario takes {cost} bytes compiled and the loaded ones {self.held_bytes()}, more than the "
                f"limit of {self.options.limits.memory} together (unload some, or raise --max-memory)",
            )
        return HandleResult(handle=self._pool.add(LegalOutcomes(facts, self.options), client, peer, cost))

    def _load_path(self, path: str) -> tuple[Facts, int]:
        """A scenario file the client names: a regular file only (not standard input, a device, a
        pipe or a folder), and an error never shows what the file holds — only where its problems
        are (the client may not be allowed to read it: the server reads it for them)."""
        try:
            if path == "-" or not stat.S_ISREG(os.stat(path).st_mode):
                raise ScenarioError("not a regular file (a scenario file is .json, .yaml or .yml)", source=path)
        except OSError as exc:
            raise ScenarioError(f"cannot read: {exc.strerror or exc}", source=path) from None
        try:
            return self._compile(load_document(path, self.options.limits), "path", cache=False)
        except ScenarioError as exc:
            if exc.message.startswith(_ABOUT_THE_FILE):
                raise  # about the file itself (its size, its name, its encoding), not what it holds
            n = len(list(exc.every())) + exc.more
            raise ScenarioError(
                f"not a scenario: {n} problem{'s' if n != 1 else ''} (neither they nor what the file holds are "
                f"shown to a client: read it with triggerstack explain {path})",
                source=path,
            ) from None

    def unload(self, p: Unload) -> UnloadResult:
        self._held(p.handle)
        del self._pool.loaded[p.handle]
        return UnloadResult(unloaded=True)

    def discover(self, _: Discover) -> Raw:
        return _discovered()

    # -- the protocol

    def call(
        self, method: str, params: Any, gone: threading.Event | None = None, client: str = "", peer: str = ""
    ) -> Any:
        """The result of one method call (a JSON-ready value, read back from what :meth:`answer`
        wrote), or :class:`RpcError`. The whole call is bounded by its time limit (however many
        verbs it asks) and stops once ``gone`` is set (the server saw its client hang up);
        ``client`` is the token the caller presented, ``peer`` the address it asked from. ``params``
        — a program's values, not a line's — are held first to what every line and body is
        (:func:`~._batch.check_value`): a scenario holding itself was "internal error: Circular
        reference detected", a set was read as a list, a seed of 5,000 digits taken past
        ``--max-digits``."""
        with self._failures():
            check_value(params, self.options.limits, within=1)  # each param a document, as a file is
        asked = self.ask(method, params)
        return json.loads(self.answer(asked, Bound(asked.seconds, gone), client, peer), parse_int=text_int)

    def writer(self) -> Answer:
        """A new answer of at most ``--max-answer`` bytes (``model/_answer.py``): one per response
        line, page or stream."""
        return Answer(self.options.limits.answer, _ASK_FOR_LESS)

    def ask(self, method: str, params: Any) -> Asked:
        """A method call read (its params validated) before it runs, with its time limit: a
        transport that waits for its turn (HTTP) builds the request's one :class:`Bound` from it
        and bounds the wait and :meth:`answer` alike. :class:`RpcError` as :meth:`call` gives."""
        with self._failures():
            entry = METHODS.get(method)
            if entry is None:
                raise RequestError(KINDS.NO_METHOD, f"no method {typed(method)}", {"methods": sorted(METHODS)})
            model, _, run = entry
            if not isinstance(params, dict):  # null too: params left out are {} (JSON-RPC 2.0 §4.2)
                said = f"params must be an object (by name), not {_json_kind(params)}"
                raise RequestError(KINDS.INVALID_PARAMS, said)
            try:
                parsed = model.model_validate(params)
            except ValidationError as exc:
                raise params_error(exc, model) from None
            return Asked(parsed, run, self.seconds(getattr(parsed, "time_limit", None)))

    def answer(self, asked: Asked, bound: Bound, client: str = "", peer: str = "") -> Raw:
        """The JSON text of a call :meth:`ask` read, written by a new :meth:`writer` (:meth:`write`)."""
        out = self.writer()
        self.write(asked, bound, out, client, peer)
        return Raw(out.text())

    def write(self, asked: Asked, bound: Bound, out: Answer, client: str = "", peer: str = "") -> None:
        """Write the result of a call :meth:`ask` read by ``out`` — the answer held to its cap as it
        is built — within the request's ``bound``: the one deadline every verb it asks and every
        scenario it compiles is held to. On an error (:class:`RpcError`), ``out`` holds what it held
        before."""
        mark = out.mark()
        token = _CLIENT.set((client, peer))
        try:
            with self._failures(out, mark), bounded(bound):
                result = asked.run(self, asked.params)
                out.value(result.model_dump(mode="json") if isinstance(result, BaseModel) else result)
        finally:
            _CLIENT.reset(token)

    @contextlib.contextmanager
    def _failures(self, out: Answer | None = None, mark: tuple[int, int] = (0, 0)) -> Iterator[None]:
        """Whatever goes wrong inside is an :class:`RpcError` (a bug too, unless TRIGGERSTACK_DEBUG),
        and ``out`` forgets what was written since ``mark``."""
        try:
            yield
        except Exception as exc:
            if out is not None:
                out.undo(mark)
            if os.environ.get("TRIGGERSTACK_DEBUG") and failure(exc).kind is KINDS.INTERNAL:
                raise
            raise RpcError(failure(exc)) from None

    def handle(self, line: str | bytes) -> str | None:
        """The response line (no newline) to one request line; None for a notification. A batch's
        answers are one line, held to ``--max-answer`` as a whole: past it, the line is one error."""
        pieces = self.respond(line)
        return None if pieces is None else b"".join(pieces).decode("utf-8")

    def respond(self, line: str | bytes) -> list[bytes] | None:
        """:meth:`handle`'s response line as UTF-8 pieces (written out one by one), or None."""
        out = self.writer()
        try:
            request = read_line(line, self.options.limits, checked=False, within=3)  # each request checked in _one
            if isinstance(request, list):
                if not request:
                    raise RequestError(KINDS.NOT_A_REQUEST, "an empty batch")
                out.write("[")
                any_answer = False
                for r in request:
                    mark = out.mark()
                    if any_answer:
                        out.write(",")
                    if self._one(r, out, batch=True):
                        any_answer = True
                    else:
                        out.undo(mark)
                if not any_answer:
                    return None
                out.write("]")
            elif not self._one(request, out):
                return None
            return out.encoded()
        except AnswerTooLarge:
            said = (
                f"the answers of this batch are more than the limit of {counted(out.cap, 'bytes')} together (one "
                "line, one answer): raise it with --max-answer, or send fewer requests at once"
            )
            return [error_line(failure(AnswerTooLarge(said))).encode("utf-8")]
        except Exception as exc:
            return [error_line(failure(exc)).encode("utf-8")]

    def _one(self, request: Any, out: Answer, batch: bool = False) -> bool:
        """Write the response to one request (True), or nothing for a notification (False). A
        response past the cap is its request's error; in a ``batch``, the line's (raised)."""
        # JSON-RPC 2.0 §4: an id is a string, a number or null, echoed as sent (§5); a request
        # with any other id is invalid (-32600, id null) and never runs
        sent = request.get("id") if isinstance(request, dict) else None
        valid_id = _is_id(sent)
        ident = sent if valid_id else None
        notification = isinstance(request, dict) and "id" not in request
        mark = out.mark()
        try:
            try:  # past a limit, NaN …: said with the id it was sent with
                check_value(request, self.options.limits, within=2)  # each of its params' values a document
            except Exception as unread:
                raise RpcError(failure(unread)) from None
            if not valid_id:
                said = f"an id is a string, a number or null, not {_json_kind(sent)}"
                raise RpcError(failure(RequestError(KINDS.NOT_A_REQUEST, said)))
            if (
                not isinstance(request, dict)
                or request.get("jsonrpc") != "2.0"
                or not isinstance(request.get("method"), str)
                or not set(request) <= {"jsonrpc", "method", "params", "id"}
            ):
                said = 'a request is {"jsonrpc": "2.0", "method": ..., "params": {...}, "id": ...}'
                raise RpcError(failure(RequestError(KINDS.NOT_A_REQUEST, said)))
            asked = self.ask(request["method"], request.get("params", {}))
            if notification:  # no answer: what it would be is written nowhere, within the cap all the same
                self.write(asked, Bound(asked.seconds), self.writer())
                return False
            out.write('{"jsonrpc":"2.0","id":' + json.dumps(ident, ensure_ascii=False) + ',"result":')
            self.write(asked, Bound(asked.seconds), out)
            out.write("}")
            return True
        except (RpcError, AnswerTooLarge) as caught:
            too_large = caught if isinstance(caught, AnswerTooLarge) else caught.__context__
            if batch and not notification and isinstance(too_large, AnswerTooLarge):
                raise too_large from None  # the line as a whole is past the cap
            exc = caught if isinstance(caught, RpcError) else RpcError(failure(caught))
            out.undo(mark)
            if valid_id and notification and isinstance(request.get("method"), str):
                return False
            error = _dumps({"jsonrpc": "2.0", "id": ident, "error": exc.as_dict()})
            if not batch:  # a request's error is said whole, with its id, whatever the cap: the cap
                out.cap = max(out.cap, out.size + len(error.encode("utf-8")))  # bounds work, not this
            out.write(error)
            return True


def _is_id(value: Any) -> bool:
    """A JSON-RPC id: a string, a number (never a boolean) or null (JSON-RPC 2.0 §4) — a number
    JSON can write back (``1e400`` reads as infinity, which it cannot)."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, str):
        return value.isascii() or printable(value)
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def _json_kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if value is None:
        return "null"
    if isinstance(value, float) and not math.isfinite(value):
        return "a number too large to write back"
    if isinstance(value, int | float | str):
        return "a number" if not isinstance(value, str) else "a string"
    return "an object" if isinstance(value, dict) else "an array" if isinstance(value, list) else "that"


def _dumps(answer: Any) -> str:
    return visible(json.dumps(answer, separators=(",", ":"), ensure_ascii=False))


def error_line(found: Failure) -> str:
    """A JSON-RPC response that answers no request in particular (``id`` null)."""
    return json.dumps({"jsonrpc": "2.0", "id": None, "error": found.rpc_error()}, separators=(",", ":"))


Runner = Callable[[Service, Any], Any]


class Asked(NamedTuple):
    """A method call read before it runs (:meth:`Service.ask`): its params, what runs it, and its
    time limit (the server's, lowered to what the call asks)."""

    params: BaseModel
    run: Runner
    seconds: float | None


def _verb_runner(verb: Verb) -> Runner:
    def run(service: Service, p: Any) -> Any:
        return verb.json(service._legal(p) if verb.scenario else None, p)

    return run


METHODS: dict[str, tuple[type[BaseModel], type[BaseModel], Runner]] = {
    "load": (Load, HandleResult, Service.load),
    "unload": (Unload, UnloadResult, Service.unload),
    **{verb.name: (request_model(verb), verb.result, _verb_runner(verb)) for verb in VERBS},
    "rpc.discover": (Discover, BaseModel, Service.discover),
}
"""Each method: its params model, its result model (the schema ``rpc.discover`` publishes), and what
runs it — the verbs' from the table of verbs."""


@functools.cache
def _discovered() -> Raw:
    """The OpenRPC document's text, written once: the methods do not change while a server runs."""
    return Raw(json.dumps(discover(), sort_keys=True, separators=(",", ":"), ensure_ascii=False))


def discover() -> dict[str, Any]:
    """The OpenRPC document: every method with its params and result as JSON Schema."""
    from .._version import VERSION

    methods = []
    for name, (params, result, _) in METHODS.items():
        schema = params.model_json_schema()
        required = set(schema.get("required", []))
        methods.append(
            {
                "name": name,
                "summary": (params.__doc__ or "").strip().splitlines()[0],
                "paramStructure": "by-name",
                "params": [
                    {"name": k, "required": k in required, "schema": v} for k, v in schema.get("properties", {}).items()
                ],
                "result": {
                    "name": "result",
                    "schema": {"type": "object"} if result is BaseModel else result.model_json_schema(),
                },
            }
        )
    return {
        "openrpc": "1.3.2",
        "info": {"title": "triggerstack", "version": VERSION, "description": (__doc__ or "").strip().splitlines()[0]},
        "methods": methods,
    }
