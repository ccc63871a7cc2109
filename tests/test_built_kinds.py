"""A value a program gives a public model keeps its kind, or is refused naming its place.

pydantic reads a keyword laxly: ``Counted(count=True)`` was a count of 1, ``Counted(count="3")`` 3,
``Counted(count=3.0)`` 3, and ``Entry(ability=b"A")`` the ability "A" — while the same values in a
document are refused (model/_io.py ``check_data``, the readers of numbers). Mechanism: the results of
the verbs (solver/_verbs/base.py ``Result``) were built in pydantic's lax mode, and no constructor
(model/_scenario.py ``Built``) refused bytes, which pydantic takes for text. Fix: results are strict,
as the verbs' parameters are; ``Built`` refuses bytes at any depth, naming the place. The property:
every public model of both packages, each field given any value — bytes inside lists and mappings
too — either refuses it as a ScenarioError or holds it as the kind it was given.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .test_attacks_67b import _ANY, _public_models

_KINDS = {bool: "bool", int: "number", float: "number", str: "text", type(None): "null", bytes: "bytes"}


def _kind(value: Any) -> str:
    return _KINDS.get(type(value), "other")


def _has_bytes(value: Any) -> bool:
    if isinstance(value, bytes | bytearray):
        return True
    if isinstance(value, dict):
        return any(_has_bytes(k) or _has_bytes(v) for k, v in value.items())
    return isinstance(value, list | tuple | frozenset) and any(map(_has_bytes, value))


_WITH_BYTES = st.recursive(
    _ANY,
    lambda inner: (
        st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2) | st.binary(max_size=2), inner, max_size=2)
    ),
    max_leaves=4,
)


def _refused_or_kept(name: str, model: Any, field: str, value: Any) -> None:
    """``model(field=value)`` is a ScenarioError, or holds the value as the kind it was given."""
    from triggerstack.model import ScenarioError

    try:
        built = model(**{field: value})
    except ScenarioError:
        return
    kept = getattr(built, field)
    assert not _has_bytes(value), f"{name}({field}={value!r}) took bytes as {kept!r}"
    if _kind(value) != "other" and _kind(kept) != "other":
        assert _kind(kept) == _kind(value), f"{name}({field}={value!r}) read as {kept!r}"


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_a_value_given_a_public_model_is_refused_or_kept_as_the_kind_it_was(data: Any) -> None:
    name, model = data.draw(st.sampled_from(_public_models()), label="model")
    field = data.draw(st.sampled_from(sorted(model.model_fields)), label="field")
    _refused_or_kept(name, model, field, data.draw(_WITH_BYTES, label="value"))


_CONFUSABLE = [True, False, 0, 3, 3.0, "3", "x", b"x", bytearray(b"x"), None, [b"x"], {"k": b"x"}, {b"k": 1}]
"""Values a lax reading takes for another kind: a bool for a number, text for a number, a whole
float for an integer, bytes for text — at the top and inside a list or a mapping."""


@pytest.mark.parametrize(
    ("name", "field"), [(name, field) for name, model in _public_models() for field in sorted(model.model_fields)]
)
def test_every_field_of_every_public_model_reads_no_value_as_another_kind(name: str, field: str) -> None:
    """Every field, every confusable value: refused, or kept as its kind (an integer field may hold a
    whole float as a document's number does only where the format says so: none of a program's)."""
    model = dict(_public_models())[name]
    for value in _CONFUSABLE:
        _refused_or_kept(name, model, field, value)
