"""YAML that stays data: JSON-compatible documents only — plain keys, no duplicate keys, no sets,
ordered maps, binary or other tags, timestamps kept as strings — with integers capped by digits and
aliases counted before they expand, so a few hundred bytes can't grow past ``limits.values`` values
or ``limits.bytes`` bytes of text (what the document would be written out without aliases)."""

from __future__ import annotations

import re
from typing import Any

import yaml

from ._errors import DocumentCap, PastLimit, ScenarioError
from ._limits import DEFAULT_LIMITS, Limits
from ._limits import too_deep as _too_deep
from ._numbers import Inexact, counted, read_float
from ._text import typed


class _DataLoader(yaml.SafeLoader):
    """Safe YAML that is JSON data: plain keys, no duplicate keys, no sets, no timestamps."""

    limits: Limits = DEFAULT_LIMITS


# What a plain scalar means is YAML 1.2's JSON-compatible core schema, not PyYAML's YAML 1.1: a
# number is written in decimal as JSON writes it (010 is ten, never octal eight; 1:30, 1_000 and 0x1F
# are text; a float has a point, and a signed exponent if any, where YAML 1.1 and 1.2 agree, so
# 1e3 stays text as PyYAML writes it unquoted), true and false are the only booleans (the player NO
# is a player), null is null, ~ or nothing; timestamps, "=" and "<<" outside a mapping key stay
# text. Only the merge key "<<" is kept.
_DataLoader.yaml_implicit_resolvers = {}
for _tag, _pattern, _first in (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^[-+]?[0-9]+$", "-+0123456789"),
    ("float", r"^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)(?:[eE][-+][0-9]+)?$", "-+.0123456789"),
    ("float", r"^[-+]?\.(?:inf|Inf|INF)$", "-+."),
    ("float", r"^\.(?:nan|NaN|NAN)$", "."),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
    ("merge", r"^(?:<<)$", "<"),
):
    _DataLoader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern, re.X), list(_first))


_KINDS = {type(None): "null", bool: "a boolean"}
"""What a plain key that is not text reads as (any other: a number)."""


def _construct_mapping(loader: _DataLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, str):  # JSON's keys are text: a key is named as written, never as Python shows it
            reads = _KINDS.get(type(key), "a number")
            said = (
                f"a mapping key must be text: {typed(str(key_node.value))} reads as {reads} (quote it to make it text)"
                if isinstance(key_node, yaml.ScalarNode)
                else f"a mapping key must be text, not a {'list' if isinstance(key, list) else 'mapping'}"
            )
            raise yaml.constructor.ConstructorError(None, None, said, key_node.start_mark)
        if key in out:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {typed(key)}", key_node.start_mark)
        out[key] = loader.construct_object(value_node, deep=deep)
    return out


def _construct_int(loader: _DataLoader, node: yaml.ScalarNode) -> int:
    digits = sum(c.isdigit() for c in str(node.value))
    if digits > loader.limits.digits:
        cap = loader.limits.digits
        raise _TooBig("digits", f"an integer of {digits} digits is more than the limit of {cap}", node)
    return int(str(node.value), 10)  # decimal as written (the resolver admits nothing else)


def _construct_bool(_loader: _DataLoader, node: yaml.ScalarNode) -> bool:
    return str(node.value).lower() == "true"


def _construct_float(_loader: _DataLoader, node: yaml.ScalarNode) -> float:
    """A float of the core schema: ``.inf``, ``-.inf``, ``.nan`` (the document limits refuse them, as
    no JSON writes them) or the decimal Python reads, as JSON's reader reads it."""
    text = str(node.value)
    if text.lstrip("+-").lower() in (".inf", ".nan"):
        value = Inexact(text.replace(".", "", 1))  # shown as written: model/_text.py found
        value.text = text
        return value
    return read_float(text)


def _not_data(_loader: _DataLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, f"{node.tag} is not JSON data (use lists, mappings, strings, numbers)", node.start_mark
    )


_DataLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_DataLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)
_DataLoader.add_constructor("tag:yaml.org,2002:bool", _construct_bool)
_DataLoader.add_constructor("tag:yaml.org,2002:float", _construct_float)
for _tag in ("set", "omap", "pairs", "binary", "timestamp"):
    _DataLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _not_data)
_DataLoader.add_constructor(None, _not_data)  # any other tag


class _TooBig(Exception):
    """A document past a cap (an integer's digits, or its values or text once its aliases expand):
    not malformed, too big — said as every reader says it (:meth:`Limits.past`), at its line."""

    def __init__(self, limit: DocumentCap, said: str, node: yaml.Node | None) -> None:
        self.limit = limit
        if node is None:  # past the cap in the values it writes, aliases or not: as the JSON reader says it
            super().__init__(said)
            return
        mark = node.start_mark
        super().__init__(f"line {mark.line + 1} column {mark.column + 1}: {said}")

    def refusal(self, limits: Limits, source: str) -> PastLimit:
        return limits.past(self.limit, str(self), source=source)


_RECURSIVE = (
    "the value anchored {anchor} holds an alias of itself, so it would hold itself for ever; JSON data has no "
    "such value (write the inner value out, or alias another part)"
)


def _anchor_of(node: yaml.Node) -> str:
    """How the anchor of a node is written (``&x``), read from the text at the node's start: PyYAML
    keeps no anchor's name on the node."""
    mark = node.start_mark
    buffer = getattr(mark, "buffer", None)
    if isinstance(buffer, str):
        written = re.match(r"&[^\s,\[\]{}]+", buffer[mark.pointer : mark.pointer + 1024])
        if written:
            return typed(written.group(0))
    return "here"


def _expanded_size(node: yaml.Node, limits: Limits) -> tuple[int, int]:
    """The number of values ``node`` stands for once its aliases are expanded, and the bytes of
    its scalars' text then, counted without expanding them (each node's size once, whatever the
    shape: an alias of a scalar, of a mapping, a chain of aliases of aliases, a merge key ``<<``),
    refused past ``limits.values`` or ``limits.bytes``. Without aliases a scalar's text is never
    longer than the source that wrote it, so a document within ``--max-bytes`` stays within it;
    with them, the document is held to the caps of the document it stands for."""
    sizes: dict[int, tuple[int, int]] = {}
    opened: set[int] = set()  # nodes whose children are being sized: the ancestors of any node popped
    stack: list[tuple[yaml.Node, bool]] = [(node, False)]
    while stack:
        current, done = stack.pop()
        key = id(current)
        if key in sizes:
            continue
        children: list[yaml.Node] = []
        if isinstance(current, yaml.SequenceNode):
            children = list(current.value)
        elif isinstance(current, yaml.MappingNode):
            children = [n for pair in current.value for n in pair]
        if not done and any(id(c) not in sizes for c in children):
            for c in children:
                if id(c) in opened or c is current:  # an alias inside its own anchor: a value holding itself
                    raise yaml.constructor.ConstructorError(
                        None, None, _RECURSIVE.format(anchor=_anchor_of(c)), c.start_mark
                    )
            opened.add(key)
            stack.append((current, True))
            stack.extend((c, False) for c in children if id(c) not in sizes)
            continue
        opened.discard(key)
        own = len(str(current.value).encode("utf-8", "surrogatepass")) if isinstance(current, yaml.ScalarNode) else 0
        values = 1 + sum(sizes.get(id(c), (0, 0))[0] for c in children)
        size = own + sum(sizes.get(id(c), (0, 0))[1] for c in children)
        if values > limits.values and len(sizes) + 1 > limits.values:  # past it in its own values: as JSON says it
            raise _TooBig("values", f"more than {counted(limits.values, 'values')}", None)
        if values > limits.values:
            raise _TooBig("values", f"more than {counted(limits.values, 'values')} once its aliases expand", current)
        if size > limits.bytes:
            raise _TooBig(
                "bytes", f"more than {counted(limits.bytes, 'bytes')} of text once its aliases expand", current
            )
        sizes[key] = (values, size)
    return sizes[id(node)]


def _not_yaml_text(exc: yaml.reader.ReaderError, source: str) -> ScenarioError:
    """A character YAML does not allow, by its position only (the character is not shown)."""
    return ScenarioError(
        f"not YAML text: character {exc.position + 1} is one YAML does not allow (a control character or a "
        "noncharacter)",
        source=source,
    )


def parse_yaml(text: str, source: str, limits: Limits) -> Any:
    try:
        loader = _DataLoader(text)  # its reader refuses characters YAML does not allow, at once
    except yaml.reader.ReaderError as exc:
        raise _not_yaml_text(exc, source) from None
    loader.limits = limits
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _expanded_size(node, limits)
        return loader.construct_document(node)
    except _TooBig as exc:
        raise exc.refusal(limits, source) from None
    except yaml.reader.ReaderError as exc:  # found later in the stream
        raise _not_yaml_text(exc, source) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        where = f"line {mark.line + 1} column {mark.column + 1}: " if mark is not None else ""
        raise ScenarioError(f"{where}malformed YAML: {problem}", source=source) from None
    except RecursionError:
        raise _too_deep(limits, source=source) from None
    finally:
        loader.dispose()
