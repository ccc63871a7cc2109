"""``triggerstack serve --http HOST:PORT``: the same methods as JSON endpoints (the extra ``[serve]``).

``POST /v1/<method>`` (``step.apply`` is ``/v1/step/apply``) takes the method's params as its JSON
body and answers its result, exactly as over stdio (:mod:`.rpc`); ``POST /v1/enumerate/lines``
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
a connection must send its headers within :data:`HEADER_SECONDS`, and at most
:data:`MAX_CONNECTIONS` are open at once.
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
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from triggerstack.model._answer import Answer, AnswerTooLarge
from triggerstack.model._errors import ScenarioError, TimeLimitReached, format_loc
from triggerstack.model._io import parse_text, utf8
from triggerstack.model._limits import Bound, bounded
from triggerstack.model._outcome import outcome_json
from triggerstack.model._text import visible

from .._errors import KINDS, RequestError, failure, params_error
from .._options import Options
from .._version import VERSION
from . import _rpc as rpc
from ._connections import HEADER_SECONDS, MAX_CONNECTIONS, protocol
from ._rpc import METHODS, RpcError, Service

__all__ = [
    "HEADER_SECONDS",
    "LOCAL_HOSTS",
    "MAX_CONNECTIONS",
    "PAGE_TEXT",
    "QUESTIONS_PER_PEER",
    "app",
    "problem",
    "protocol",
]

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
        error = RequestError(KINDS.TOO_LARGE, f"the body is more than {self.limit} bytes (raise it with --max-bytes)")
        await problem(error)(scope, receive, send)


class _TooLarge(RequestError):
    """A body past the cap: where the app is already reading it (a chunked body has no length to
    refuse it by beforehand), its handler answers it as the 413 it is, never as a bug."""

    def __init__(self, limit: int) -> None:
        super().__init__(KINDS.TOO_LARGE, f"the body is more than {limit} bytes (raise it with --max-bytes)")


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
        raise RequestError(KINDS.NOT_JSON, f"the body must be JSON (Content-Type: application/json, not {found!r})")
    data = await request.body()
    try:
        text = utf8(data, "")
        return parse_text(text, "body", "json", limits=service.options.limits) if text.strip() else {}
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
    )
    _method_routes(api, service, gate)
    _lines_route(api, service, gate)
    _openapi(api)
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
            openapi_extra=_body_schema(params),
        )


def _lines_route(api: FastAPI, service: Service, gate: _Gate) -> None:
    """``POST /v1/enumerate/lines``: every outcome from ``cursor``, one canonical JSON per line (NDJSON)."""
    enumerate_request = METHODS["enumerate"][0]

    async def lines(request: Request) -> Response:
        try:
            params = await _body(request, service)
            try:
                body: Any = enumerate_request.model_validate(params)
            except ValidationError as exc:  # the params' shape
                raise params_error(exc, enumerate_request) from None
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
        openapi_extra=_body_schema(enumerate_request),
    )


def _openapi(api: FastAPI) -> None:
    """FastAPI's document, with each method's params schema among the components (the bodies are
    read by our bounded reader, so FastAPI does not see their types)."""
    generated = api.openapi

    def openapi() -> dict[str, Any]:
        if api.openapi_schema is None:
            document = generated()
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            for params, _, _ in METHODS.values():
                schema = params.model_json_schema(ref_template="#/components/schemas/{model}")
                schemas.update(schema.pop("$defs", {}))
                schemas[params.__name__] = schema
        return api.openapi_schema or generated()

    api.openapi = openapi  # type: ignore[method-assign]


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
        return problem(RequestError(kind, str(exc.detail)))

    @api.exception_handler(Exception)
    async def bug(_: Request, exc: Exception) -> Response:  # answered as a problem, and the server goes on
        return problem(exc)


def _body_schema(params: type[BaseModel]) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{params.__name__}"}}},
        }
    }


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
            out = service.writer()
            out.value({"scenario": doc})  # within --max-answer, as every answer
            return _sent(out)

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
        return HTMLResponse(_rules_html(text))


def _rules_html(markdown: str) -> str:
    """docs/rules.md as HTML: a paragraph per block (bold, italics and code rendered), and an
    anchor ``r<rule>`` for every rule number the page mentions — where a paragraph's bold heading
    names it, else at its first mention — and for its parents (601.2c also anchors 601.2 and 601):
    every rule the tool cites lands on the paragraph that says it."""
    import html
    import re

    def rules_in(text: str) -> list[str]:
        """The rule numbers ``text`` names, a range's ends both (601.2c–d: 601.2c and 601.2d)."""
        found = []
        for rule, last in re.findall(r"(\d{3}(?:\.\d+[a-z]?)?)(?:[–-]([a-z])\b)?", text):
            found.append(rule)
            if last and rule[-1].isalpha():
                found.extend(rule[:-1] + chr(c) for c in range(ord(rule[-1]) + 1, ord(last) + 1))
        return found

    blocks = [b.strip() for b in markdown.split("\n\n") if b.strip()]
    where: dict[str, int] = {}
    for i, block in enumerate(blocks):  # headings first: the paragraph about a rule is its home
        heading = re.match(r"\*\*(.+?)\*\*", block)
        for rule in rules_in(heading.group(1)) if heading else ():
            where.setdefault(rule, i)
    for i, block in enumerate(blocks):
        for rule in rules_in(block):
            where.setdefault(rule, i)
    for rule in list(where):
        for parent in (rule.rstrip("abcdefghijklmnopqrstuvwxyz"), rule.split(".")[0]):
            where.setdefault(parent, where[rule])
    ids: dict[int, list[str]] = {}
    for name, i in where.items():
        ids.setdefault(i, []).append(name)
    parts = []
    for i, block in enumerate(blocks):
        text = html.escape(block)
        text = re.sub(r"`(.+?)`", r"<code>\1</code>", text)
        text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"<em>\1</em>", text)
        if text.startswith("# "):
            parts.append(f"<h1>{text[2:]}</h1>")
            continue
        anchors = "".join(f'<a id="r{name}"></a>' for name in ids.get(i, []))
        parts.append(f"<p>{anchors}{text}</p>")
    body = "\n".join(parts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>The rules as applied</title>'
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/page.css"></head>'
        f'<body><p><a href="/">Back to the page</a></p>{body}</body></html>'
    )
