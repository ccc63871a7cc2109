"""Every published schema speaks JSON Schema (2020-12): a generator or a client built from it sees
every constraint the tool enforces (issue 56).

pydantic writes a bound it cannot place (``Field(ge=0)`` on a field typed ``int | None``) as
``"ge"``, which no JSON Schema reader knows: the constraint was enforced but unpublished, so a
client — or a fuzzer generating from the schema — sent what the schema called valid and was
refused. Every schema the tool publishes (``triggerstack schema FORMAT``, the OpenAPI document
of ``serve --http``, the OpenRPC document of ``rpc.discover``) is walked here: each keyword is
one of the vocabulary's, or one of the project's own annotations, listed below with its meaning.

Private unit: where the published schemas are made (model/_reports: SCHEMAS, published_schema; solver/serve/_rpc.discover), read for every constraint they state.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from triggerstack.model._reports import SCHEMAS, published_schema
from triggerstack.solver.serve import _rpc as rpc
from triggerstack.solver.serve import app

VOCABULARY = frozenset(
    ["$schema", "$id", "$ref", "$defs", "$comment", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary", "type", "enum", "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxContains", "minContains", "maxProperties", "minProperties", "required", "dependentRequired", "properties", "patternProperties", "additionalProperties", "propertyNames", "items", "prefixItems", "contains", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties", "title", "description", "default", "deprecated", "readOnly", "writeOnly", "examples", "format", "contentEncoding", "contentMediaType", "contentSchema", "discriminator"]
)
"""JSON Schema 2020-12's keywords (core, applicator, validation, meta-data, format, content) and
OpenAPI's ``discriminator``."""

OURS = {
    "document": "a parameter that is a document (a file on the command line)",
    "option": "a parameter the command line takes as an option",
    "stdio": "a field only the stdio transport reads (HTTP's document leaves it out)",
}
"""The project's own annotations (docs/server.md): they inform, they constrain nothing."""

_NAMED = {"properties", "$defs", "patternProperties", "dependentSchemas", "definitions"}
_LISTS = {"allOf", "anyOf", "oneOf", "prefixItems"}
_ONE = {"items", "not", "if", "then", "else", "contains", "additionalProperties", "propertyNames",
        "unevaluatedItems", "unevaluatedProperties", "contentSchema"}


def _keywords(schema: Any, where: str) -> Iterator[tuple[str, str]]:
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        yield key, where
        if key in _NAMED and isinstance(value, dict):
            for name, sub in value.items():
                yield from _keywords(sub, f"{where}.{key}.{name}")
        elif key in _LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _keywords(sub, f"{where}.{key}[{i}]")
        elif key in _ONE:
            yield from _keywords(value, f"{where}.{key}")


def _published() -> Iterator[tuple[str, Any]]:
    for name in SCHEMAS:  # the formats `triggerstack schema` prints
        yield f"schema {name}", published_schema(name)
    document = app().inner.openapi()  # what GET /v1/openapi.json answers
    yield "openapi", {"$defs": document["components"]["schemas"]}
    for method in rpc.discover()["methods"]:
        for p in method.get("params", []):
            yield f"openrpc {method['name']}.{p['name']}", p.get("schema", {})
        yield f"openrpc {method['name']} result", method.get("result", {}).get("schema", {})


def test_every_published_schema_speaks_json_schema() -> None:
    unknown = sorted(
        {f"{key!r} at {where}" for label, schema in _published() for key, where in _keywords(schema, label)
         if key not in VOCABULARY and key not in OURS}
    )
    assert not unknown, "keywords no JSON Schema reader knows:\n" + "\n".join(unknown[:40])
