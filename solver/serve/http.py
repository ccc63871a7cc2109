"""``triggerstack serve --http HOST:PORT``: the same methods as JSON endpoints (the extra ``[serve]``).

``POST /v1/<method>`` (``step.apply`` is ``/v1/step/apply``) takes the method's params as its JSON
body and answers its result, exactly as over stdio (:mod:`.rpc`); ``POST /v1/enumerate/lines``
streams every outcome from ``cursor`` as NDJSON, the lines ``triggerstack enumerate`` prints;
``GET /health`` says the service is up; ``GET /v1/openapi.json`` is the OpenAPI document, built
from the same pydantic types. Errors are RFC 9457 problem details (``application/problem+json``)
carrying the JSON-RPC ``code`` and the ``place``. Bodies over ``--max-bytes`` are refused (413)
before they are read whole; each request has ``--time-limit``. One request is answered at a time
(the questions are CPU-bound: a second would only share the core).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel
from triggerstack.model.errors import format_loc
from triggerstack.model.outcome import outcome_json

from ..options import Options
from . import rpc
from .rpc import METHODS, RpcError, Service

__all__ = ["PROBLEM_TYPES", "app"]

STATUS = {
    rpc.PARSE_ERROR: 400,
    rpc.INVALID_REQUEST: 400,
    rpc.NO_METHOD: 404,
    rpc.INVALID_PARAMS: 422,
    rpc.BAD_INPUT: 422,
    rpc.TIME_LIMIT: 504,
    rpc.ILLEGAL_DECISION: 422,
    rpc.NO_HANDLE: 404,
    rpc.ENGINE_CANNOT: 422,
    rpc.INTERNAL: 500,
}
"""The HTTP status of each JSON-RPC error code."""

PROBLEM_TYPES = {
    rpc.PARSE_ERROR: "not-json",
    rpc.INVALID_REQUEST: "not-a-request",
    rpc.NO_METHOD: "no-method",
    rpc.INVALID_PARAMS: "invalid-params",
    rpc.BAD_INPUT: "bad-input",
    rpc.TIME_LIMIT: "time-limit",
    rpc.ILLEGAL_DECISION: "illegal-decision",
    rpc.NO_HANDLE: "no-handle",
    rpc.ENGINE_CANNOT: "engine-cannot",
    rpc.INTERNAL: "internal",
}
"""Each error's problem ``type``, relative to ``/v1/problems/`` (docs/server.md lists them)."""


def problem(error: RpcError) -> JSONResponse:
    status = STATUS.get(error.code, 500)
    body: dict[str, Any] = {
        "type": f"/v1/problems/{PROBLEM_TYPES.get(error.code, 'internal')}",
        "title": PROBLEM_TYPES.get(error.code, "internal").replace("-", " "),
        "status": status,
        "detail": error.message,
        "code": error.code,
    }
    if error.data:
        body.update({k: v for k, v in error.data.items() if k not in body})
    return JSONResponse(body, status_code=status, media_type="application/problem+json")


class _Limited:
    """ASGI middleware: a body over ``limit`` bytes is refused with 413 before it is read whole."""

    def __init__(self, inner: Any, limit: int) -> None:
        self.inner = inner
        self.limit = limit

    async def __call__(self, scope: Any, receive: Callable[[], Any], send: Callable[[Any], Any]) -> None:
        if scope["type"] != "http":
            await self.inner(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.limit:
            await self._refuse(scope, receive, send)
            return
        seen = 0

        async def bounded() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        try:
            await self.inner(scope, bounded, send)
        except _TooLarge:
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Any, receive: Any, send: Any) -> None:
        error = RpcError(rpc.PARSE_ERROR, f"the body is more than {self.limit} bytes (raise it with --max-bytes)")
        response = problem(error)
        response.status_code = 413
        await response(scope, receive, send)


class _TooLarge(Exception):
    pass


def app(options: Options | None = None) -> Any:
    """The ASGI application (FastAPI, wrapped in the body-size limit)."""
    service = Service(options)
    lock = threading.Lock()
    api = FastAPI(
        title="triggerstack",
        version="0.1.0",
        summary="Which ways of putting waiting triggered abilities on the stack are legal (rule 603.3)",
        openapi_url="/v1/openapi.json",
        docs_url=None,
        redoc_url=None,
    )

    def answer(method: str, body: BaseModel) -> Any:
        if isinstance(body, rpc.Load) and body.path is not None:  # the service reads no file a client names
            return problem(RpcError(rpc.INVALID_PARAMS, "path: only over stdio; send the scenario", {"place": "path"}))
        with lock:
            try:  # the answer exactly as stdio gives it (the response model documents it, never reshapes it)
                return JSONResponse(service.call(method, body.model_dump(exclude_unset=True)))
            except RpcError as exc:
                return problem(exc)

    for name, (params, result, _) in METHODS.items():
        if name == "rpc.discover":
            continue
        api.post(
            "/v1/" + name.replace(".", "/"),
            response_model=None if result is BaseModel else result,
            summary=(params.__doc__ or "").strip().splitlines()[0],
            name=name,
            responses={422: {"description": "Bad input, as an RFC 9457 problem with the place"}},
        )(_endpoint(name, params, answer))

    def lines(body: rpc.Enumerate) -> Any:
        with lock:
            try:
                legal = service.legal_for(body)
                total = legal.count()
            except RpcError as exc:
                return problem(exc)
        start = int(body.cursor)

        def stream() -> Iterator[bytes]:
            for i in range(start, total):
                with lock:
                    line = outcome_json(legal[i])
                yield line.encode("utf-8") + b"\n"

        return StreamingResponse(stream(), media_type="application/x-ndjson")

    lines.__annotations__ = {"body": rpc.Enumerate, "return": Any}
    api.post(
        "/v1/enumerate/lines",
        summary="Every legal outcome from cursor, one canonical JSON per line (NDJSON)",
        response_class=StreamingResponse,
    )(lines)

    _page_routes(api, service)

    @api.get("/health", summary="The service is up")
    def health() -> dict[str, str]:
        return {"status": "ok"}

    @api.get("/v1/discover", summary="The OpenRPC document of the same methods (rpc.discover)")
    def discover() -> dict[str, Any]:
        return rpc.discover()

    @api.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0]
        loc = tuple(p for p in first.get("loc", ()) if p != "body")
        place = format_loc(loc)
        if first.get("type") == "json_invalid":
            return problem(RpcError(rpc.PARSE_ERROR, f"the body is not JSON: {first.get('msg')}"))
        return problem(RpcError(rpc.INVALID_PARAMS, f"{place or 'body'}: {first.get('msg')}", {"place": place}))

    limit = service.options.limits.bytes
    return _Limited(api, limit)


def _endpoint(name: str, params: type[BaseModel], answer: Callable[[str, BaseModel], Any]) -> Any:
    def endpoint(body: Any) -> Any:
        return answer(name, body)

    endpoint.__annotations__ = {"body": params, "return": Any}
    endpoint.__name__ = name.replace(".", "_")
    return endpoint



PAGE = Path(__file__).resolve().parent / "page"
ROOT = Path(__file__).resolve().parents[2]
"""The repository, when the package runs from it: its examples and docs are served to the page."""


def _page_routes(api: FastAPI, service: Service) -> None:
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

    class Text(BaseModel):
        text: str

    def parse(body: Text) -> Any:
        from triggerstack.model.errors import ScenarioError
        from triggerstack.model.io import parse_text
        from triggerstack.model.scenario import parse_scenario

        limits = service.options.limits
        try:
            doc = parse_text(body.text, "scenario", limits=limits)
            parse_scenario(doc, limits=limits)
        except ScenarioError as exc:  # answered 200: a bad paste is the page's news, not a failed request
            data = {"place": format_loc(exc.loc)} if exc.loc else None
            answer = problem(RpcError(rpc.BAD_INPUT, exc.one_line(), data))
            return JSONResponse({"problem": json.loads(bytes(answer.body))})
        return JSONResponse({"scenario": doc})

    parse.__annotations__ = {"body": Text, "return": Any}
    api.post("/page/parse", include_in_schema=False)(parse)

    @api.get("/docs/rules.html", include_in_schema=False)
    def rules() -> Any:
        source = ROOT / "docs" / "rules.md"
        text = source.read_text(encoding="utf-8") if source.exists() else "The rules reference is not installed."
        return HTMLResponse(_rules_html(text))


def _rules_html(markdown: str) -> str:
    """docs/rules.md as HTML: a paragraph per block, anchors ``r<rule>`` for each rule number a
    paragraph's bold heading names (and its parents: 601.2c also anchors 601.2 and 601)."""
    import html
    import re

    anchored: set[str] = set()
    parts = []
    for block in markdown.split("\n\n"):
        text = html.escape(block.strip())
        heading = re.match(r"\*\*(.+?)\*\*", block.strip())
        ids = []
        for rule in re.findall(r"\d{3}(?:\.\d+[a-z]?)?", heading.group(1) if heading else block):
            for name in (rule, rule.rstrip("abcdefghijklmnopqrstuvwxyz"), rule.split(".")[0]):
                if name not in anchored:
                    anchored.add(name)
                    ids.append(name)
        text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"`(.+?)`", r"<code>\1</code>", text)
        if text.startswith("# "):
            parts.append(f"<h1>{text[2:]}</h1>")
            continue
        anchors = "".join(f'<a id="r{i}"></a>' for i in ids)
        parts.append(f"<p>{anchors}{text}</p>")
    body = "\n".join(parts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>The rules as applied</title>'
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/page.css"></head>'
        f'<body><p><a href="/">Back to the page</a></p>{body}</body></html>'
    )
