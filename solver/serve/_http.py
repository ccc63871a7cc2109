"""``triggerstack serve --http HOST:PORT``: the same methods as JSON endpoints (the extra ``[serve]``).

``POST /v1/<method>`` (``step.apply`` is ``/v1/step/apply``) takes the method's params as its JSON
body and answers its result, exactly as over stdio (:mod:`._rpc`); ``POST /v1/enumerate/lines``
streams every outcome from ``cursor`` as NDJSON, the lines ``triggerstack enumerate`` prints;
``GET /health`` says the service is up; ``GET /v1/openapi.json`` is the OpenAPI document, built
from the same pydantic types. Errors are RFC 9457 problem details (``application/problem+json``)
carrying the JSON-RPC ``code`` and the ``place`` — every error, unknown routes and bugs included.

The security model (docs/server.md): only the ``Host`` names it was started for are answered (a
page on another name that resolves here — DNS rebinding — is refused); a body is read by the same
bounded reader as stdio and batch (bytes, nesting, digits, values, Unicode) and must be JSON; every
request, the page's included, is bounded by ``--time-limit`` as a whole and stops computing when its
client hangs up; handles belong to the client token that loaded them (``Authorization: Bearer``);
one question is computed at a time (they are CPU-bound), and ``/health`` never waits behind them;
a connection must send its headers within :data:`~._connections.HEADER_SECONDS`, and at most
:data:`~._connections.MAX_CONNECTIONS` are open at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response, StreamingResponse
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from triggerstack.model._answer import Answer, AnswerTooLarge
from triggerstack.model._errors import PastLimit, ScenarioError, TimeLimitReached, format_loc
from triggerstack.model._io import parse_text, utf8
from triggerstack.model._limits import Bound, bounded
from triggerstack.model._numbers import counted
from triggerstack.model._outcome import outcome_json
from triggerstack.model._text import typed, visible

from .._errors import KINDS, RequestError, failure
from .._options import Options
from .._version import VERSION
from . import _page
from . import _rpc as rpc
from ._openapi import body_schema, openapi
from ._rpc import METHODS, RpcError, Service

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The ``Host`` names always answered; ``--allow-host`` adds others (a name the service is reached by)."""
QUESTIONS_PER_PEER = 16
"""Questions one address may have waiting for their turn or being answered; one more is 429 at once."""


class Json(JSONResponse):
    """JSON whose unsafe code points (controls, bidi, lone surrogates …) are escapes (model/_text.py):
    the same document, and never a failure to encode one."""

    def render(self, content: Any) -> bytes:
        return visible(json.dumps(content, ensure_ascii=False, separators=(",", ":"))).encode("utf-8")


def _sent(out: Answer) -> Response:
    """An answer written by the bounded writer (``model/_answer.py``), sent as it was written."""
    return Response(b"".join(out.encoded()), media_type="application/json")


def _written(service: Service, value: Any) -> Response:
    """``value`` written by the bounded writer, within ``--max-answer``, and sent."""
    out = service.writer()
    out.value(value)
    return _sent(out)


def problem(error: BaseException) -> Json:
    """The RFC 9457 problem of an error (``RpcError``: as the service mapped it; any other through
    the one table, ``solver/_errors.py``)."""
    found = error.failure if isinstance(error, RpcError) else failure(error)
    wait = found.data.get("retry_after")
    headers = {"Retry-After": str(math.ceil(wait))} if isinstance(wait, int | float) else None
    return Json(found.problem(), status_code=found.kind.http, media_type="application/problem+json", headers=headers)


class _Limited:
    """ASGI middleware: only the allowed ``Host`` names are answered, and a body over ``limit``
    bytes is refused with 413 before it is read whole."""

    def __init__(self, inner: Any, limit: int, hosts: Iterable[str]) -> None:
        self.inner = inner
        self.limit = limit
        self.hosts = frozenset(h.lower() for h in hosts)

    def _host_allowed(self, scope: Any) -> bool:
        raw = dict(scope.get("headers") or []).get(b"host", b"").decode("latin-1").strip().lower()
        name = raw[1 : raw.index("]")] if raw.startswith("[") and "]" in raw else raw.rsplit(":", 1)[0]
        return name in self.hosts

    async def __call__(self, scope: Any, receive: Callable[[], Any], send: Callable[[Any], Any]) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        if not self._host_allowed(scope):
            error = RequestError(
                KINDS.WRONG_HOST, "this service answers only the host names it was started for (--allow-host)"
            )
            await problem(error)(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def bounded_receive() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge(self.limit)
            return message

        try:
            await self.inner(scope, bounded_receive, send)
        except _TooLarge:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Any, receive: Any, send: Any) -> None:
        error = RequestError(
            KINDS.TOO_LARGE, f"the body is more than {counted(self.limit, 'bytes')} (raise it with --max-bytes)"
        )
        await problem(error)(scope, receive, send)


class _TooLarge(RequestError):
    """A body past the cap: where the app is already reading it (a chunked body has no length to
    refuse it by beforehand), its handler answers it as the 413 it is, never as a bug."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            KINDS.TOO_LARGE, f"the body is more than {counted(limit, 'bytes')} (raise it with --max-bytes)"
        )


def _client(request: Request) -> str:
    """The token a client presents (``Authorization: Bearer <token>``): its handles are its own."""
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def _peer(request: Request) -> str:
    """The network address a request comes from: the clients of one address share its shares
    (of handles, and of questions waiting for their turn), whatever tokens they present."""
    return request.client.host if request.client is not None else ""


async def _body(request: Request, service: Service) -> Any:
    """The request's JSON body, read by the bounded reader stdio and batch use."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and not kind.endswith("+json"):
        found = kind or "none"
        said = f"the body must be JSON (Content-Type: application/json, not {typed(found)})"
        raise RequestError(KINDS.NOT_JSON, said)
    data = await request.body()
    try:
        text = utf8(data, "")
        # each of its members a document, held to the limits as the same document read from a file
        return parse_text(text, "body", "json", limits=service.options.limits, within=1) if text.strip() else {}
    except PastLimit:
        raise  # JSON past a documented limit: bad input, with its place (422)
    except ScenarioError as exc:
        raise RequestError(KINDS.NOT_JSON, exc.one_line()) from None


class _Gate:
    """One question computed at a time. Each request has one deadline, its :class:`Bound`, built
    here as it arrives: waiting for a turn and the question alike are held to it (the request's
    time limit, as a whole), and both end when its client hangs up."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.lock = threading.Lock()
        self.asking: Counter[str] = Counter()  # questions waiting or being answered, by address

    @contextlib.contextmanager
    def admitted(self, peer: str) -> Iterator[None]:
        """A question of ``peer`` in the queue, if its address has fewer than
        :data:`QUESTIONS_PER_PEER` there (429 ``pool-full`` at once otherwise): one client queuing
        hundreds of questions behind a slow one holds as many connections, and kept every new
        one — ``/health`` too — out."""
        if self.asking[peer] >= QUESTIONS_PER_PEER:
            raise RequestError(
                KINDS.POOL_FULL,
                f"this address has {self.asking[peer]} questions waiting or being answered, the most it may "
                "(they are answered one at a time): wait for their answers, then ask again",
                {"retry_after": 1},
            )
        self.asking[peer] += 1
        try:
            yield
        finally:
            self.asking[peer] -= 1
            if not self.asking[peer]:
                del self.asking[peer]

    def _turn(self, work: Callable[[Bound], Any], bound: Bound) -> Any:
        with bounded(bound):
            while not self.lock.acquire(timeout=0.05):
                bound.check("waiting for the questions asked before it")
            try:
                return work(bound)
            finally:
                self.lock.release()

    async def run(self, request: Request, seconds: float | None, work: Callable[[Bound], Any]) -> Any:
        """``work`` in a worker thread, given the request's bound (``seconds``), its turn and its
        run bounded by it (see the class)."""
        gone = threading.Event()
        bound = Bound(seconds, gone)
        finished = asyncio.Event()

        async def watch() -> None:
            while not finished.is_set():
                if await request.is_disconnected():
                    gone.set()
                    return
                await asyncio.sleep(0.05)

        with self.admitted(_peer(request)):
            watcher = asyncio.create_task(watch())
            try:
                return await run_in_threadpool(self._turn, work, bound)
            finally:
                finished.set()
                watcher.cancel()


def app(options: Options | None = None, hosts: Iterable[str] = ()) -> Any:
    """The ASGI application (FastAPI, behind the host check and the body-size limit)."""
    service = Service(options)
    gate = _Gate(service)
    api = FastAPI(
        title="triggerstack",
        version=VERSION,
        summary="Which ways of putting waiting triggered abilities on the stack are legal (rule 603.3)",
        openapi_url="/v1/openapi.json",
        docs_url=None,
        redoc_url=None,
        default_response_class=Json,
        redirect_slashes=False,  # /v1/count/ is no route: a 404 problem, never a bare 307 to follow
    )
    _method_routes(api, service, gate)
    _lines_route(api, service, gate)
    openapi(api)
    _page_routes(api, service, gate)

    @api.get("/health", summary="The service is up (answered at once, whatever is being computed)")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @api.get("/v1/discover", summary="The OpenRPC document of the same methods (rpc.discover)")
    async def discover() -> dict[str, Any]:
        return rpc.discover()

    _error_handlers(api)
    allowed = (*LOCAL_HOSTS, *hosts)
    return _Limited(api, service.options.limits.bytes, allowed)


def _method_routes(api: FastAPI, service: Service, gate: _Gate) -> None:
    """``POST /v1/<method>`` for every method but ``rpc.discover``: its params as the body, its result
    exactly as stdio gives it."""

    async def answer(method: str, request: Request) -> Response:
        try:
            params = await _body(request, service)
            if method == "load" and isinstance(params, dict) and params.get("path") is not None:
                raise RequestError(KINDS.INVALID_PARAMS, "path: only over stdio; send the scenario", {"place": "path"})
            client = _client(request)
            asked = service.ask(method, params)
            # the answer exactly as stdio gives it, written within --max-answer as it is built

            def work(bound: Bound) -> Response:
                out = service.writer()
                service.write(asked, bound, out, client, _peer(request))
                return _sent(out)

            result: Response = await gate.run(request, asked.seconds, work)
        except Exception as exc:
            return problem(exc)
        return result

    for name, (params, result, _) in METHODS.items():
        if name == "rpc.discover":
            continue
        api.add_api_route(
            "/v1/" + name.replace(".", "/"),
            _endpoint(name, answer),
            methods=["POST"],
            response_model=None if result is BaseModel else result,
            summary=(params.__doc__ or "").strip().splitlines()[0],
            name=name,
            responses={422: {"description": "Bad input, as an RFC 9457 problem with the place"}},
            openapi_extra=body_schema(params),
        )


def _lines_route(api: FastAPI, service: Service, gate: _Gate) -> None:
    """``POST /v1/enumerate/lines``: every outcome from ``cursor``, one canonical JSON per line (NDJSON)."""
    enumerate_request = METHODS["enumerate"][0]

    async def lines(request: Request) -> Response:
        try:
            body: Any = service.ask("enumerate", await _body(request, service)).params  # as /v1/enumerate reads them
            client = _client(request)

            def first(bound: Bound) -> Any:
                legal = service.legal_for(body, client, _peer(request))
                return legal, legal.count(), bound

            legal, total, stream_bound = await gate.run(request, service.seconds(body.time_limit), first)
        except Exception as exc:
            return problem(exc)
        start = int(body.cursor)

        def stream() -> Iterator[bytes]:
            """One line per outcome; the whole stream within the time limit and ``--max-answer``
            (one answer, counted as it is sent) — past either, a last line says so, so that no
            partial answer passes for a whole one."""
            out = service.writer()
            for i in range(start, total):
                try:
                    with gate.lock, bounded(stream_bound):
                        stream_bound.check(f"streaming outcome {i}")
                        out.line(outcome_json(legal[i]))
                except (TimeLimitReached, AnswerTooLarge) as exc:
                    error = {**failure(exc).rpc_error(), "next": str(i)}
                    yield (json.dumps({"error": error}) + "\n").encode()
                    return
                yield out.take()

        return StreamingResponse(stream(), media_type="application/x-ndjson")

    api.add_api_route(
        "/v1/enumerate/lines",
        lines,
        methods=["POST"],
        summary="Every legal outcome from cursor, one canonical JSON per line (NDJSON)",
        response_class=StreamingResponse,
        openapi_extra=body_schema(enumerate_request),
    )


def _error_handlers(api: FastAPI) -> None:
    """Every error as an RFC 9457 problem: a body FastAPI could not read, an unknown route or HTTP
    method, and a bug (the server goes on)."""

    @api.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0]
        loc = tuple(p for p in first.get("loc", ()) if p != "body")
        place = format_loc(loc)
        if first.get("type") == "json_invalid":
            return problem(RequestError(KINDS.NOT_JSON, f"the body is not JSON: {first.get('msg')}"))
        return problem(RequestError(KINDS.INVALID_PARAMS, f"{place or 'body'}: {first.get('msg')}", {"place": place}))

    @api.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> Response:
        kind = {404: KINDS.NO_METHOD, 405: KINDS.WRONG_HTTP_METHOD}.get(exc.status_code, KINDS.NOT_A_REQUEST)
        answer = problem(RequestError(kind, str(exc.detail)))
        answer.headers.update(exc.headers or {})  # a 405 says which methods are allowed (RFC 9110, 15.5.6)
        return answer

    @api.exception_handler(Exception)
    async def bug(_: Request, exc: Exception) -> Response:  # answered as a problem, and the server goes on
        return problem(exc)


def _endpoint(name: str, answer: Callable[[str, Request], Any]) -> Any:
    async def endpoint(request: Request) -> Any:
        return await answer(name, request)

    endpoint.__name__ = name.replace(".", "_")
    return endpoint


PAGE = Path(__file__).resolve().parent / "page"
ROOT = Path(__file__).resolve().parents[2]
"""The repository, when the package runs from it: its examples and docs are served to the page."""


PAGE_TEXT = 512 * 1024
"""Bytes of YAML the page's ``/page/parse`` reads (JSON is read up to ``--max-bytes``)."""


def _page_routes(api: FastAPI, service: Service, gate: _Gate) -> None:
    """The judge's page at ``/`` and what it reads besides the methods: the examples, YAML or JSON
    parsed with the place of an error, and the rules as HTML with an anchor per rule number."""
    from fastapi.responses import FileResponse, HTMLResponse

    @api.get("/", include_in_schema=False)
    def index() -> Any:
        return FileResponse(PAGE / "index.html", media_type="text/html")

    @api.get("/page.js", include_in_schema=False)
    def script() -> Any:
        return FileResponse(PAGE / "page.js", media_type="text/javascript")

    @api.get("/board.js", include_in_schema=False)
    def board_script() -> Any:
        return FileResponse(PAGE / "board.js", media_type="text/javascript")

    @api.get("/page.css", include_in_schema=False)
    def style() -> Any:
        return FileResponse(PAGE / "page.css", media_type="text/css")

    @api.get("/page/examples", include_in_schema=False)
    def examples() -> list[dict[str, str]]:
        out = []
        for folder in sorted((ROOT / "examples").glob("*/scenario.yaml")):
            entry = {"name": folder.parent.name, "scenario": folder.read_text(encoding="utf-8")}
            for which in ("legal", "illegal"):
                path = folder.parent / f"{which}.json"
                if path.exists():
                    entry[which] = path.read_text(encoding="utf-8")
            out.append(entry)
        return out

    async def parse(request: Request) -> Response:
        """A pasted scenario (YAML or JSON) parsed for the page: the body ``{"text": ...}`` through
        the bounded reader, YAML of at most :data:`PAGE_TEXT` bytes (a YAML parser can't be stopped
        midway), within the time limit, one at a time with the questions."""
        from triggerstack.model._scenario import parse_scenario

        try:
            body = await _body(request, service)
            text = body.get("text") if isinstance(body, dict) and set(body) == {"text"} else None
            if not isinstance(text, str):
                raise RequestError(KINDS.INVALID_PARAMS, 'the body is {"text": "..."}', {"place": "text"})
            if len(text.encode("utf-8")) > PAGE_TEXT and not text.lstrip().startswith(("{", "[")):
                raise ScenarioError(f"a pasted YAML scenario is more than {PAGE_TEXT} bytes: load it as JSON")
        except Exception as exc:
            return problem(exc)
        limits = service.options.limits

        def work(_bound: Bound) -> Response:
            try:
                doc = parse_text(text, "scenario", limits=limits)
                parse_scenario(doc, limits=limits)
            except ScenarioError as exc:  # answered 200: a bad paste is the page's news, not a failed request
                return Json({"problem": failure(exc).problem()})
            return _written(service, {"scenario": doc})  # within --max-answer, as every answer

        try:
            result: Response = await gate.run(request, service.options.time_limit, work)
        except Exception as exc:
            return problem(exc)
        return result

    api.add_api_route("/page/parse", parse, methods=["POST"], include_in_schema=False)

    @api.get("/docs/rules.html", include_in_schema=False)
    def rules() -> Any:
        source = ROOT / "docs" / "rules.md"
        text = source.read_text(encoding="utf-8") if source.exists() else "The rules reference is not installed."
        return HTMLResponse(_page.rules_html(text))

    _board_routes(api, service)


def _query(request: Request, name: str) -> str:
    """The one parameter ``name`` of a query string, read whole as a body is: given once, beside no
    other (``?q=a&q=b`` took the last one, ``?x=1`` was ignored, and no ``q`` was read as ``q=``: a
    missing field is not an empty one) — 422 naming it otherwise."""
    for key in request.query_params:
        if key != name:
            said = f"{typed(key)}: unknown parameter (the one parameter is {name})"
            raise RequestError(KINDS.INVALID_PARAMS, said, {"place": key})
    given = request.query_params.getlist(name)
    if len(given) != 1:
        said = "missing" if not given else f"given {len(given)} times (give it once)"
        raise RequestError(KINDS.INVALID_PARAMS, f"{name}: {said}", {"place": name})
    return given[0]


def _board_routes(api: FastAPI, service: Service) -> None:
    """The page's board from card names (``solver/serve/_page.py``): ``GET /page/cards?q=`` names
    for what is typed (at most ten; a "did you mean" on a miss), and ``POST /page/board`` the
    scenario of the board named. Each is a few milliseconds, read by the bounded reader and capped
    in what it answers, so neither waits its turn behind the questions (a name is typed while a
    count runs)."""

    @api.get("/page/cards", include_in_schema=False)
    async def names(request: Request) -> Response:
        try:
            q = _query(request, "q")
            return _written(service, await run_in_threadpool(_page.card_names, q))
        except Exception as exc:
            return problem(exc)

    async def board(request: Request) -> Response:
        try:
            body = await _body(request, service)
            return _written(service, await run_in_threadpool(_page.named_scenario, body))
        except Exception as exc:
            return problem(exc)

    api.add_api_route("/page/board", board, methods=["POST"], include_in_schema=False)
