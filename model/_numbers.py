"""Whole numbers at the boundary: an integer a JSON writer may spell ``6.0``, and the bounded ones
the formats use (each bound published in the JSON Schema as ``minimum``/``maximum``)."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, StrictInt


class Inexact(float):
    """A number a document writes with a point or an exponent whose nearest float is a whole number
    the text is not (``1.0000000000000001``, ``9007199254740993.0``), or no number at all (``1e400``,
    past the largest float, is infinity to Python): the float, with the ``text`` it was written as,
    so that a whole number is read as written — never as its nearest float — and a number is shown
    as written (``model/_text.py`` ``found``) — never as an ``inf`` the document does not say."""

    __slots__ = ("text",)
    text: str


def read_float(text: str) -> float:
    """A JSON or YAML float literal, as every document reader reads it (``parse_float``): the float,
    or an :class:`Inexact` one where that float is whole and the text is not that number, or where
    the text is past the floats (``1e400``: infinity, which the document limits refuse as written)."""
    value = float(text)
    if not math.isfinite(value) or (value.is_integer() and Decimal(text) != int(value)):
        found = Inexact(value)
        found.text = text
        return found
    return value


def exact_whole(value: float) -> int | None:
    """The whole number a float read from a document says — by its text where its float is not
    that number (:class:`Inexact`) — or None (a fraction, an infinity, not a number)."""
    if not math.isfinite(value):
        return None
    exact = Decimal(value.text) if isinstance(value, Inexact) else Decimal(value)
    return int(exact) if exact == exact.to_integral_value() else None


def whole_float(value: Any) -> Any:
    """A whole-number float (``6.0``, what JSON writers in JavaScript and Java emit) is an integer:
    the one its text says (:class:`Inexact`); a text that is no whole number is refused."""
    if isinstance(value, float):
        n = exact_whole(value)
        if n is not None:
            return n
        if isinstance(value, Inexact) and math.isfinite(value):
            raise ValueError(f"{value.text} is not a whole number (its nearest float, {value!r}, is)")
    return value


Whole = Annotated[StrictInt, BeforeValidator(whole_float)]
"""An integer; ``6.0`` is accepted as 6 (JSON Schema calls it an integer too), ``6.5``, ``"6"`` and
``true`` are not."""

AtLeast0 = Annotated[StrictInt, Field(ge=0), BeforeValidator(whole_float)]
"""A whole number 0 or more. A bound stands beside the type, before the validator: placed after it
(``Annotated[Whole, Field(ge=0)]``) or on a field whose type is a union (``Whole | None =
Field(ge=0)``), pydantic enforces it but publishes ``"ge"``, which no JSON Schema reader knows, so
a client built from the schema would not see it (tests/fuzz/test_schema_vocabulary.py)."""
AtLeast1 = Annotated[StrictInt, Field(ge=1), BeforeValidator(whole_float)]
"""A whole number 1 or more (see :data:`AtLeast0`)."""
Weight = Annotated[StrictInt, Field(ge=-(10**9), le=10**9), BeforeValidator(whole_float)]
"""A score's weight, at most a billion either way (see :data:`AtLeast0`)."""
