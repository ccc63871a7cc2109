"""Reading JSON and YAML documents, with errors that name the file, line and column."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from .errors import ScenarioError

__all__ = ["load_document", "parse_text"]


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r}")
        out[key] = value
    return out


class _StrictLoader(yaml.SafeLoader):
    """Safe YAML that refuses duplicate keys instead of keeping the last one."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, f"a mapping key must be a plain value, not {type(key).__name__}", key_node.start_mark
            )
        if key in out:
            mark = key_node.start_mark
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", mark)
        out[key] = loader.construct_object(value_node, deep=deep)
    return out


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def _parse_json(text: str, source: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as exc:
        raise ScenarioError(f"line {exc.lineno} column {exc.colno}: malformed JSON: {exc.msg}", source=source) from None
    except ValueError as exc:  # duplicate key
        raise ScenarioError(f"malformed JSON: {exc}", source=source) from None


def _parse_yaml(text: str, source: str) -> Any:
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        where = f"line {mark.line + 1} column {mark.column + 1}: " if mark is not None else ""
        raise ScenarioError(f"{where}malformed YAML: {problem}", source=source) from None


def parse_text(text: str, source: str, fmt: str | None = None) -> Any:
    """Parse ``text`` as JSON (``fmt="json"``), YAML (``"yaml"``), or whichever fits (``None``)."""
    if fmt == "json":
        return _parse_json(text, source)
    if fmt == "yaml":
        return _parse_yaml(text, source)
    if text.lstrip().startswith(("{", "[")):
        return _parse_json(text, source)
    return _parse_yaml(text, source)


def load_document(path: str) -> Any:
    """The parsed document at ``path`` (``.json``, ``.yaml``, ``.yml``), or standard input for ``-``."""
    if path == "-":
        return parse_text(sys.stdin.read(), "<stdin>")
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        raise ScenarioError("expected a .json, .yaml or .yml file, or - for standard input", source=path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError("no such file", source=path) from None
    except IsADirectoryError:
        raise ScenarioError("is a directory, not a file", source=path) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 text (byte {exc.start})", source=path) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc.strerror}", source=path) from None
    return parse_text(text, path, "json" if suffix == ".json" else "yaml")
