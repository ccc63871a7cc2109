"""The OpenAPI document of ``serve --http``: FastAPI's, with every method's params schema as HTTP
takes them, every status the one table of errors answers with, and links from load's handle to
the operations that take one (docs/server.md). A client — or a fuzzer — built from the document
meets no status, field or rule it does not list (tests/fuzz/)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel

from .._errors import KINDS
from ._rpc import METHODS


def openapi(api: FastAPI) -> None:
    """FastAPI's document, with each method's params schema among the components (the bodies are
    read by our bounded reader, so FastAPI does not see their types), and every status the one
    table of errors (``solver/_errors.py``) can answer a request with, on every operation: a
    client written from the document meets no status it does not list."""
    generated = api.openapi

    def document() -> dict[str, Any]:
        if api.openapi_schema is None:
            document = generated()
            schemas = document.setdefault("components", {}).setdefault("schemas", {})
            formats = _formats(schemas)
            for params, _, _ in METHODS.values():
                schema = params.model_json_schema(ref_template="#/components/schemas/{model}")
                schemas.update(schema.pop("$defs", {}))
                schemas[params.__name__] = _documents(_over_http(schema), formats)
            schemas["Problem"] = PROBLEM
            for path in document.get("paths", {}).values():
                for operation in path.values():
                    responses = operation.setdefault("responses", {})
                    for status, title in _statuses().items():
                        responses.setdefault(str(status), _problem_response(title))
            _handle_links(document)
        return api.openapi_schema or generated()

    api.openapi = document  # type: ignore[method-assign]


def _formats(schemas: dict[str, Any]) -> dict[str, str]:
    """Put the published formats a request carries (scenario, outcome, score: docs/formats.md) among
    the components, and say each one's name there."""
    from triggerstack.model._outcome import Outcome, Score
    from triggerstack.model._scenario import Scenario

    names = {}
    for kind, model in (("scenario", Scenario), ("outcome", Outcome), ("score", Score)):
        schema = model.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}")
        for name, sub in schema.pop("$defs", {}).items():
            assert schemas.get(name, sub) == sub, f"two schemas are named {name}"
            schemas[name] = sub
        schemas[model.__name__] = schema
        names[kind] = model.__name__
    return names


def _documents(schema: dict[str, Any], formats: dict[str, str]) -> dict[str, Any]:
    """A params schema whose document fields (a scenario, a proposal, a score) name their format's
    schema: a client sees what a scenario is, and a generator makes ones that are scenarios in form."""
    properties = dict(schema.get("properties", {}))
    for name, field in properties.items():
        kind = field.get("document")
        if kind in formats:
            ref = {"$ref": f"#/components/schemas/{formats[kind]}"}
            nullable = "default" in field and field["default"] is None
            typed = {"anyOf": [ref, {"type": "null"}]} if nullable else ref
            properties[name] = {**field, **typed}
    return {**schema, "properties": properties}


def _over_http(schema: dict[str, Any]) -> dict[str, Any]:
    """A method's params as HTTP takes them: a field only stdio reads (a file the server opens) is
    not offered, nor a choice of "one of" that names it."""
    properties = schema.get("properties", {})
    stdio = {name for name, field in properties.items() if field.get("stdio")}
    if not stdio:
        return schema
    out = {**schema, "properties": {k: v for k, v in properties.items() if k not in stdio}}
    if "oneOf" in out:
        left = [c for c in out.pop("oneOf") if not stdio & set(c.get("required", ()))]
        if len(left) == 1:
            out["required"] = sorted({*out.get("required", ()), *left[0]["required"]})
            out["properties"] = {
                k: {**v, **left[0]["properties"].get(k, {})} if k in left[0]["properties"] else v
                for k, v in out["properties"].items()
            }
        elif left:
            out["oneOf"] = left
    return out


def _handle_links(document: dict[str, Any]) -> None:
    """OpenAPI links from load's answer to every operation that names a scenario by its handle:
    the handle a load returns is what they send (a client, or a stateful fuzzer, follows them)."""
    paths = document.get("paths", {})
    load = paths.get("/v1/load", {}).get("post")
    if load is None:
        return
    links: dict[str, Any] = {}
    for route, item in paths.items():
        operation = item.get("post", {})
        ref = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
        name = str(ref.get("$ref", "")).rpartition("/")[2]
        body = document["components"]["schemas"].get(name, {})
        if route != "/v1/load" and "handle" in body.get("properties", {}) and "operationId" in operation:
            links[route.removeprefix("/v1/").replace("/", "_")] = {
                "operationId": operation["operationId"],
                "requestBody": {"handle": "$response.body#/handle"},
            }
    load["responses"]["200"]["links"] = links


PROBLEM: dict[str, Any] = {
    "type": "object",
    "description": "An RFC 9457 problem: every error of the service (docs/server.md)",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "code": {"type": "integer"},
    },
    "required": ["type", "title", "status", "detail"],
}


def _statuses() -> dict[int, str]:
    """Every HTTP status an error of the one table answers a request with, and its kinds' titles."""
    out: dict[int, list[str]] = {}
    for kind in vars(KINDS).values():
        if hasattr(kind, "http") and kind.rpc is not None:  # the kinds a server answers
            out.setdefault(kind.http, []).append(kind.title)
    return {status: ", ".join(dict.fromkeys(titles)) for status, titles in sorted(out.items())}


def _problem_response(title: str) -> dict[str, Any]:
    return {
        "description": f"A problem: {title}",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
    }


def body_schema(params: type[BaseModel]) -> dict[str, Any]:
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{params.__name__}"}}},
        }
    }
