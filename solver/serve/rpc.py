"""The methods of the server, transport-free: JSON-RPC 2.0 requests in, responses out.

Every verb is a method. A scenario is sent once with ``load`` and named by its ``handle`` after
that (its :class:`~..verbs.legal.LegalOutcomes` — compiled facts, choice spaces, solved cores,
next passes, the stepper — is kept), or sent inline as ``scenario`` with each request. Params and
results are pydantic models: the same types validate requests, build results and publish the JSON
Schema that ``rpc.discover`` returns (an OpenRPC document).

Errors are JSON-RPC errors; ``data`` names the place (``triggers[3].modes[1]``) where there is
one. Codes: -32700 not JSON, -32600 not a request, -32601 no such method, -32602 params of the
wrong shape, and for the questions themselves:

=======  =================================================================================
-32001   the scenario or proposal is bad input (the CLI's exit 2); ``data.place``, ``data.rule``
-32002   the time limit ran out (the CLI's exit 3)
-32003   an illegal decision (``step.apply``): ``data.reason``, ``data.rule``, ``data.legal``
-32004   no such handle (never loaded, or unloaded)
-32005   the chosen engine cannot decide this scenario
-32603   an internal error (a bug: it is reported, and the server goes on)
=======  =================================================================================
"""

from __future__ import annotations

import json
import os
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from triggerstack.model.errors import ScenarioError, TimeLimitReached, format_loc
from triggerstack.model.facts import Facts, check_limits
from triggerstack.model.io import load_document, parse_json_line
from triggerstack.model.limits import Bound, Deadline, Limits, bounded
from triggerstack.model.outcome import outcome_dict, parse_outcome, parse_score
from triggerstack.model.reports import Explanation, VerdictReport
from triggerstack.model.text import visible

from ..errors import EngineCannot, IllegalDecision
from ..options import Engine, Options, resolve
from ..verbs.batch import measured_facts
from ..verbs.legal import LegalOutcomes

__all__ = ["HANDLES_PER_CLIENT", "IDLE_SECONDS", "MAX_HANDLES", "METHODS", "RpcError", "Service", "discover"]

MAX_HANDLES = 256
"""Scenarios loaded at once in a server; ``load`` beyond it is refused until some are unloaded."""
HANDLES_PER_CLIENT = 32
"""Scenarios one client may hold loaded at once."""
IDLE_SECONDS = 900.0
"""A loaded scenario not asked about for this long is unloaded."""
CACHE_ENTRIES = 64
"""Scenarios sent inline kept compiled (within ``limits.memory`` with the loaded ones)."""

_CLIENT: ContextVar[str] = ContextVar("triggerstack_client", default="")
"""Who asks: the token a client presents (over HTTP), or nobody's in particular (stdio)."""
MAX_PAGE = 10_000
"""The most outcomes one ``enumerate`` or ``sample`` answer carries."""

PARSE_ERROR, INVALID_REQUEST, NO_METHOD, INVALID_PARAMS, INTERNAL = -32700, -32600, -32601, -32602, -32603
BAD_INPUT, TIME_LIMIT, ILLEGAL_DECISION, NO_HANDLE, ENGINE_CANNOT = -32001, -32002, -32003, -32004, -32005


class RpcError(Exception):
    """A JSON-RPC error: ``code``, one-line ``message``, and ``data`` (the place, the rule …)."""

    def __init__(self, code: int, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data:
            out["data"] = self.data
        return out


# -- params -----------------------------------------------------------------------------------------


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Load(_Params):
    """Send a scenario once; later requests name it by the handle returned."""

    scenario: Any = Field(None, description="The scenario (the scenario format of docs/formats.md)")
    path: str | None = Field(None, description="Or a scenario file the server reads (.json, .yaml, .yml)")

    @model_validator(mode="after")
    def _one(self) -> Load:
        if (self.scenario is None) == (self.path is None):
            raise ValueError("give one of scenario and path")
        return self


class Unload(_Params):
    """Forget a loaded scenario and what was learned about it."""

    handle: str = Field(description="A handle that load returned")


class _Asks(_Params):
    """A question about one scenario: named by ``handle`` or sent as ``scenario``."""

    handle: str | None = Field(None, description="A handle that load returned")
    scenario: Any = Field(None, description="Or the scenario itself")
    engine: Literal["auto", "product", "fast", "cpsat", "constraint"] | None = Field(
        None, description="The engine (auto by default)"
    )
    time_limit: float | None = Field(
        None, gt=0, description="Seconds this request may take, at most the server's --time-limit"
    )

    @model_validator(mode="after")
    def _one(self) -> _Asks:
        if (self.handle is None) == (self.scenario is None):
            raise ValueError("give one of handle and scenario")
        return self


class Check(_Asks):
    """Judge a proposal: the object ``check --json`` prints."""

    proposal: Any = Field(description="The proposal (the outcome format)")


class Count(_Asks):
    """How many legal outcomes there are."""


class Enumerate(_Asks):
    """A page of the legal outcomes, in the engine's order."""

    limit: int = Field(100, ge=1, le=MAX_PAGE, description="How many outcomes at most")
    cursor: str = Field("0", pattern=r"^[0-9]{1,4300}$", description="Where the page starts: next from the last page")


class Sample(_Asks):
    """Uniformly random legal outcomes (with replacement)."""

    n: int = Field(1, ge=1, le=MAX_PAGE, description="How many")
    seed: int | None = Field(None, description="The seed: the same seed, the same outcomes")


class BestParams(_Asks):
    """The legal outcome with the highest score."""

    score: Any = Field(description="The score (the score format)")


class Explain(_Asks):
    """What explain --json prints."""


class Steps(_Asks):
    """A walk, decision by decision: the decisions so far (ids or readable forms)."""

    decisions: list[int | str] = Field(default_factory=list, description="The decisions taken so far, in order")


class StepApply(Steps):
    """Take one more decision."""

    decision: int | str = Field(description="The decision to take: its id or readable form")


class StepCount(Steps):
    """How many outcomes the walk can still end in."""

    cap: int = Field(10_000, ge=1, le=100_000, description="Stop counting past this many (then exact is false)")


class Draw(Steps):
    """The stack as an SVG picture: the walk so far, or a proposal with its violations."""

    proposal: Any = Field(None, description="A proposal to draw with check's violations, instead of the walk")


class Discover(_Params):
    """The methods, their params and results, as an OpenRPC document."""


# -- results ----------------------------------------------------------------------------------------


class HandleResult(_Params):
    handle: str = Field(description="Names the scenario in later requests")


class UnloadResult(_Params):
    unloaded: bool = Field(description="True")


class CountResult(_Params):
    count: int = Field(description="The exact number of legal outcomes (any size)")


class Page(_Params):
    outcomes: list[dict[str, Any]] = Field(description="Outcomes in the outcome format, canonical")
    next: str | None = Field(description="The cursor of the next page; null after the last")


class Outcomes(_Params):
    outcomes: list[dict[str, Any]] = Field(description="Outcomes in the outcome format, canonical")


class BestResult(_Params):
    score: int = Field(description="Its score")
    proven: bool = Field(description="False when the time limit stopped the search before optimality was proven")
    outcome: dict[str, Any] = Field(description="The outcome, canonical")


class DecisionItem(_Params):
    id: int = Field(description="Its fixed id")
    text: str = Field(description="Its readable form, e.g. 'put E', 'mode E:counter', 'target SWB'")
    kind: str = Field(description="put, remove, mode, end modes, target, end targets or divide")


class StepState(_Params):
    decisions: list[int] = Field(description="The decisions taken, by id")
    legal: list[DecisionItem] = Field(description="The legal next decisions (empty: the walk is over)")
    decider: str | None = Field(description="The player who decides next (700.2e, 603.3b); null once over")
    over: bool = Field(description="Whether the walk is over")


class MaskResult(_Params):
    size: int = Field(description="How many decision ids there are")
    mask: list[int] = Field(description="1 for each legal decision id, 0 otherwise")


class Reachable(_Params):
    count: int = Field(description="Distinct outcomes the walk can still end in")
    exact: bool = Field(description="False when counting stopped at cap")


class Picture(_Params):
    svg: str = Field(description="An SVG document: the stack top first, each entry's choices, blocks, violations")


class OutcomeResult(_Params):
    outcome: dict[str, Any] = Field(description="The outcome the finished walk reached")


# -- the service ------------------------------------------------------------------------------------


@dataclass
class _Held:
    """A loaded scenario: its answers, the client it belongs to, what it costs, when last asked."""

    legal: LegalOutcomes
    client: str
    cost: int
    used: float


class Service:
    """Answers requests; keeps the loaded scenarios. ``options`` are the server's: each request's
    engine and time limit may change them, its time limit only downwards.

    A handle is unguessable (128 random bits) and belongs to the client that loaded it — the token
    it presents (``client``; over HTTP ``Authorization: Bearer <token>``): another client asking by
    it hears that no such scenario is loaded. Each client holds at most :data:`HANDLES_PER_CLIENT`,
    the server :data:`MAX_HANDLES`; a handle not asked about for :data:`IDLE_SECONDS` is unloaded.
    Every compiled scenario (loaded, or cached from a request that sent it inline) is measured as
    it compiles, and together they stay within ``limits.memory`` bytes: the cache gives way first,
    then a load is refused."""

    def __init__(self, options: Options | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.options = options or Options()
        self._loaded: dict[str, _Held] = {}
        self._cache: OrderedDict[str, tuple[Facts, int]] = OrderedDict()  # inline scenarios, by their text
        self._clock = clock

    # -- scenarios

    def held_bytes(self) -> int:
        """The bytes the loaded and cached compiled scenarios take, as measured."""
        return sum(h.cost for h in self._loaded.values()) + sum(cost for _, cost in self._cache.values())

    def _room(self, cost: int) -> bool:
        """Make room for ``cost`` more bytes by dropping cached scenarios (oldest first)."""
        cap = self.options.limits.memory
        while self._cache and self.held_bytes() + cost > cap:
            self._cache.popitem(last=False)
        return self.held_bytes() + cost <= cap

    def _compile(self, doc: Any, place: str = "scenario", cache: bool = True) -> tuple[Facts, int]:
        limits = self.options.limits
        key = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        try:
            facts, cost = measured_facts(doc, self.options)
            check_limits(facts, limits)
        except ScenarioError as exc:
            raise ScenarioError(exc.message, (place, *exc.loc), exc.rule) from None
        if cache and len(self._cache) < CACHE_ENTRIES and self._room(cost):
            self._cache[key] = (facts, cost)
        return facts, cost

    def seconds(self, asked: float | None) -> float | None:
        """A request's time limit: the server's, lowered (never raised) to what the request asks."""
        limit = self.options.time_limit
        if asked is not None:
            limit = asked if limit is None else min(limit, asked)
        return limit

    def _options(self, p: _Asks) -> Options:
        engine = Engine.parse(p.engine or self.options.engine)
        return resolve(self.options, {"engine": engine, "time_limit": self.seconds(p.time_limit)})

    def legal_for(self, p: _Asks, client: str = "") -> LegalOutcomes:
        """The scenario a request names, under its options; :class:`RpcError` as :meth:`call` gives."""
        token = _CLIENT.set(client)
        try:
            return self._legal(p)
        except (ScenarioError, TimeLimitReached) as exc:
            raise self.error(exc) from None
        finally:
            _CLIENT.reset(token)

    def _held(self, handle: str) -> _Held:
        self._expire()
        found = self._loaded.get(handle)
        if found is None or found.client != _CLIENT.get():
            raise RpcError(
                NO_HANDLE,
                f"no scenario is loaded as {handle!r} for this client (never loaded, unloaded, or idle for "
                f"{IDLE_SECONDS:g} s)",
                {"handle": handle},
            )
        found.used = self._clock()
        return found

    def _expire(self) -> None:
        now = self._clock()
        for handle in [h for h, held in self._loaded.items() if now - held.used > IDLE_SECONDS]:
            del self._loaded[handle]

    def _legal(self, p: _Asks) -> LegalOutcomes:
        options = self._options(p)
        if p.handle is not None:
            found = self._held(p.handle).legal
            if found.options == options:
                return found
            return LegalOutcomes(found.facts, options)
        return LegalOutcomes(self._compile(p.scenario)[0], options)

    # -- methods

    def load(self, p: Load) -> HandleResult:
        self._expire()
        client = _CLIENT.get()
        mine = sum(1 for h in self._loaded.values() if h.client == client)
        if mine >= HANDLES_PER_CLIENT or len(self._loaded) >= MAX_HANDLES:
            held = f"this client holds {mine}" if mine >= HANDLES_PER_CLIENT else f"the server holds {MAX_HANDLES}"
            raise RpcError(BAD_INPUT, f"{held} loaded scenarios, the most it may: unload one first")
        if p.path is not None:
            try:
                facts, cost = self._compile(load_document(p.path, self.options.limits), "path", cache=False)
            except ScenarioError as exc:
                raise ScenarioError(exc.message, exc.loc[1:], exc.rule, source=p.path) from None
        else:
            facts, cost = self._compile(p.scenario, cache=False)
        if not self._room(cost):
            raise RpcError(
                BAD_INPUT,
                f"this scenario takes {cost} bytes compiled and the loaded ones {self.held_bytes()}, more than the "
                f"limit of {self.options.limits.memory} together (unload some, or raise --max-memory)",
            )
        handle = "h" + secrets.token_urlsafe(16)
        self._loaded[handle] = _Held(LegalOutcomes(facts, self.options), client, cost, self._clock())
        return HandleResult(handle=handle)

    def unload(self, p: Unload) -> UnloadResult:
        self._held(p.handle)
        del self._loaded[p.handle]
        return UnloadResult(unloaded=True)

    def check(self, p: Check) -> dict[str, Any]:
        legal = self._legal(p)
        proposal = _within("proposal", parse_outcome, p.proposal)
        return legal.check(proposal).as_dict()

    def count(self, p: Count) -> CountResult:
        return CountResult(count=self._legal(p).count())

    def enumerate(self, p: Enumerate) -> Page:
        legal = self._legal(p)
        total = legal.count()
        start = int(p.cursor)
        end = min(total, start + p.limit)
        outcomes = [outcome_dict(legal[i]) for i in range(start, end)]
        return Page(outcomes=outcomes, next=str(end) if end < total else None)

    def sample(self, p: Sample) -> Outcomes:
        return Outcomes(outcomes=[outcome_dict(o) for o in self._legal(p).sample(p.n, p.seed)])

    def best(self, p: BestParams) -> BestResult:
        legal = self._legal(p)
        score = _within("score", parse_score, p.score)
        found = legal.best(score)
        return BestResult(score=found.score, proven=found.proven, outcome=outcome_dict(found.outcome))

    def explain(self, p: Explain) -> dict[str, Any]:
        return self._legal(p).explain()

    def _walk(self, p: Steps) -> tuple[Any, Any]:
        stepper = self._legal(p).stepper()
        return stepper, stepper.walk(p.decisions)

    def _state(self, stepper: Any, walk: Any) -> StepState:
        legal = stepper.legal(walk)
        return StepState(
            decisions=list(walk.decisions),
            legal=[DecisionItem(id=d.id, text=d.text, kind=d.kind.value) for d in legal],
            decider=stepper.decider(walk),
            over=not legal,
        )

    def step_legal(self, p: Steps) -> StepState:
        return self._state(*self._walk(p))

    def step_apply(self, p: StepApply) -> StepState:
        stepper, walk = self._walk(p)
        return self._state(stepper, stepper.apply(walk, p.decision))

    def step_mask(self, p: Steps) -> MaskResult:
        stepper, walk = self._walk(p)
        return MaskResult(size=stepper.size, mask=[int(b) for b in stepper.mask(walk)])

    def step_outcome(self, p: Steps) -> OutcomeResult:
        stepper, walk = self._walk(p)
        return OutcomeResult(outcome=outcome_dict(stepper.outcome(walk)))

    def step_count(self, p: StepCount) -> Reachable:
        legal = self._legal(p)
        if not p.decisions:
            return Reachable(count=legal.count(), exact=True)
        stepper = legal.stepper()
        count, exact = stepper.reachable(stepper.walk(p.decisions), p.cap, Deadline(legal.options.time_limit))
        return Reachable(count=count, exact=exact)

    def draw(self, p: Draw) -> Picture:
        from ..verbs.draw import outcome_svg, verdict_svg

        legal = self._legal(p)
        if p.proposal is not None:
            proposal = _within("proposal", parse_outcome, p.proposal)
            return Picture(svg=verdict_svg(legal.facts, proposal, legal.check(proposal)))
        stepper = legal.stepper()
        walk = stepper.walk(p.decisions)
        title = "the stack built so far" if stepper.legal(walk) else "the stack built: over"
        return Picture(svg=outcome_svg(legal.facts, stepper.so_far(walk), (), title))

    def discover(self, _: Discover) -> dict[str, Any]:
        return discover()

    # -- the protocol

    def call(self, method: str, params: Any, gone: threading.Event | None = None, client: str = "") -> Any:
        """The result of one method call (a JSON-ready value), or :class:`RpcError`. The whole call
        is bounded by its time limit (however many verbs it asks) and stops once ``gone`` is set
        (the server saw its client hang up); ``client`` is the token the caller presented."""
        token = _CLIENT.set(client)
        try:
            return self._call(method, params, gone)
        finally:
            _CLIENT.reset(token)

    def _call(self, method: str, params: Any, gone: threading.Event | None) -> Any:
        entry = METHODS.get(method)
        if entry is None:
            raise RpcError(NO_METHOD, f"no method {method!r}", {"methods": sorted(METHODS)})
        model, _, run = entry
        if params is None:
            params = {}
        if not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, "params must be an object (by name)")
        try:
            parsed = model.model_validate(params)
        except ValidationError as exc:
            first = exc.errors()[0]
            place = format_loc(tuple(first["loc"]))
            raise RpcError(INVALID_PARAMS, f"{place or 'params'}: {first['msg']}", {"place": place}) from None
        try:
            with bounded(Bound(self.seconds(getattr(parsed, "time_limit", None)), gone)):
                result = run(self, parsed)
        except (IllegalDecision, ScenarioError, TimeLimitReached, RecursionError) as exc:
            raise self.error(exc) from None
        return result.model_dump(mode="json") if isinstance(result, BaseModel) else result

    def error(self, exc: IllegalDecision | ScenarioError | TimeLimitReached | RecursionError) -> RpcError:
        """The JSON-RPC error of what a question raised (the one mapping; see the module)."""
        if isinstance(exc, IllegalDecision):
            data: dict[str, Any] = {"decision": exc.decision, "reason": exc.reason, "legal": list(exc.legal)}
            if exc.rule is not None:
                data["rule"] = exc.rule.value
            return RpcError(ILLEGAL_DECISION, str(exc), data)
        if isinstance(exc, EngineCannot):
            return RpcError(ENGINE_CANNOT, exc.one_line())
        if isinstance(exc, ScenarioError):
            data = {"place": format_loc(exc.loc)} if exc.loc else {}
            if exc.rule is not None:
                data["rule"] = exc.rule.value
            return RpcError(BAD_INPUT, exc.one_line(), data or None)
        if isinstance(exc, TimeLimitReached):
            return RpcError(TIME_LIMIT, f"time limit reached: {exc}")
        return RpcError(BAD_INPUT, f"nested deeper than the limit of {self.options.limits.depth}")

    def handle(self, line: str | bytes) -> str | None:
        """The response line (no newline) to one request line; None for a notification."""
        request: Any = None
        try:
            request = read_line(line, self.options.limits)
            if isinstance(request, list):
                if not request:
                    raise RpcError(INVALID_REQUEST, "an empty batch")
                answers = [a for a in (self._one(r) for r in request) if a is not None]
                return visible(json.dumps(answers, separators=(",", ":"), ensure_ascii=False)) if answers else None
            answer = self._one(request)
            return None if answer is None else visible(json.dumps(answer, separators=(",", ":"), ensure_ascii=False))
        except RpcError as exc:
            return json.dumps({"jsonrpc": "2.0", "id": None, "error": exc.as_dict()}, separators=(",", ":"))

    def _one(self, request: Any) -> dict[str, Any] | None:
        ident = request.get("id") if isinstance(request, dict) else None
        if not isinstance(ident, str | int) or isinstance(ident, bool):
            ident = None
        try:
            if (
                not isinstance(request, dict)
                or request.get("jsonrpc") != "2.0"
                or not isinstance(request.get("method"), str)
                or not set(request) <= {"jsonrpc", "method", "params", "id"}
            ):
                raise RpcError(
                    INVALID_REQUEST, 'a request is {"jsonrpc": "2.0", "method": ..., "params": {...}, "id": ...}'
                )
            result = self.call(request["method"], request.get("params"))
            if "id" not in request:
                return None  # a notification: no answer
            return {"jsonrpc": "2.0", "id": ident, "result": result}
        except RpcError as exc:
            if isinstance(request, dict) and "id" not in request and isinstance(request.get("method"), str):
                return None
            return {"jsonrpc": "2.0", "id": ident, "error": exc.as_dict()}
        except MemoryError:
            error = RpcError(INTERNAL, "out of memory on this request (lower the limits)")
            return {"jsonrpc": "2.0", "id": ident, "error": error.as_dict()}
        except Exception as exc:  # a bug: answered, and the server goes on
            if os.environ.get("TRIGGERSTACK_DEBUG"):
                raise
            error = RpcError(INTERNAL, f"internal error: {type(exc).__name__}: {exc}")
            return {"jsonrpc": "2.0", "id": ident, "error": error.as_dict()}


T = TypeVar("T")


def _within(param: str, parse: Callable[[Any], T], doc: Any) -> T:
    """``parse(doc)``, a bad document's place named from the request's ``param``."""
    try:
        return parse(doc)
    except ScenarioError as exc:
        raise ScenarioError(exc.message, (param, *exc.loc), exc.rule) from None


def read_line(line: str | bytes, limits: Limits) -> Any:
    """One line of JSON, decoded and parsed within ``limits``, or :class:`RpcError` (-32700)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RpcError(PARSE_ERROR, f"not UTF-8 text (byte {exc.start + 1} of the line)") from None
    try:
        return parse_json_line(line, limits)
    except ScenarioError as exc:
        raise RpcError(PARSE_ERROR, exc.one_line()) from None
    except RecursionError:
        raise RpcError(PARSE_ERROR, f"nested deeper than the limit of {limits.depth}") from None


Runner = Callable[[Service, Any], Any]

METHODS: dict[str, tuple[type[BaseModel], type[BaseModel], Runner]] = {
    "load": (Load, HandleResult, Service.load),
    "unload": (Unload, UnloadResult, Service.unload),
    "check": (Check, VerdictReport, Service.check),
    "count": (Count, CountResult, Service.count),
    "enumerate": (Enumerate, Page, Service.enumerate),
    "sample": (Sample, Outcomes, Service.sample),
    "best": (BestParams, BestResult, Service.best),
    "explain": (Explain, Explanation, Service.explain),
    "step.legal": (Steps, StepState, Service.step_legal),
    "step.apply": (StepApply, StepState, Service.step_apply),
    "step.mask": (Steps, MaskResult, Service.step_mask),
    "step.outcome": (Steps, OutcomeResult, Service.step_outcome),
    "step.count": (StepCount, Reachable, Service.step_count),
    "draw": (Draw, Picture, Service.draw),
    "rpc.discover": (Discover, BaseModel, Service.discover),
}
"""Each method: its params model, its result model (the schema ``rpc.discover`` publishes), and what runs it."""


def discover() -> dict[str, Any]:
    """The OpenRPC document: every method with its params and result as JSON Schema."""
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
                    {"name": k, "required": k in required, "schema": v}
                    for k, v in schema.get("properties", {}).items()
                ],
                "result": {
                    "name": "result",
                    "schema": {"type": "object"} if result is BaseModel else result.model_json_schema(),
                },
            }
        )
    return {
        "openrpc": "1.3.2",
        "info": {"title": "triggerstack", "version": "0.1.0", "description": (__doc__ or "").strip().splitlines()[0]},
        "methods": methods,
    }

