"""Whole numbers at the boundary: an integer a JSON writer may spell ``6.0``, and the bounded ones
the formats use (each bound published in the JSON Schema as ``minimum``/``maximum``)."""

from __future__ import annotations

import math
import re
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


_DIGITS = 4000
"""At most this many digits an integer is written by ``str`` at once: Python refuses ``str`` of an
integer past 4,300 digits unless the process lifts that cap (``sys.set_int_max_str_digits``, which
the command line does and a program using the library need not)."""
BIG = 10**_DIGITS
"""The first integer :func:`int_text` writes in parts."""


def int_text(n: int) -> str:
    """``n`` in decimal, exact at any size, whatever the process's cap on ``str`` of an integer:
    every integer an answer writes — a count, a divide's counts, explain's — is written by it (a
    count of 4,301 digits was an internal error at every door but the command line's). Past
    :data:`BIG`, the halves by a power of ten, each written so."""
    if -BIG < n < BIG:
        return str(n)
    if n < 0:
        return "-" + int_text(-n)
    half = int(n.bit_length() * 0.30102999566398120) // 2  # about half its digits
    high, low = divmod(n, 10**half)
    return int_text(high) + int_text(low).rjust(half, "0")


def text_int(digits: str) -> int:
    """The integer ``digits`` writes (an optional ``-`` and decimal digits), at any length, whatever
    the process's cap on ``int`` of text (:func:`int_text`'s inverse): the readers bound the digits
    themselves (``--max-digits``; an engine's answer, 20,000)."""
    if len(digits) <= _DIGITS:
        return int(digits)
    if digits.startswith("-"):
        return -text_int(digits[1:])
    half = len(digits) // 2
    scale: int = 10**half
    return text_int(digits[:-half]) * scale + text_int(digits[-half:])


SAID = 40
"""The most digits of an integer a sentence writes whole (:func:`int_said`)."""


def int_said(n: int) -> str:
    """An integer as a sentence says it — a message, a report line: whole up to :data:`SAID`
    digits, else its first 20 digits and how many it has (``12345678901234567890… (20000
    digits)``), so that no line is longer for a number's size and no ``str`` of it is refused."""
    size = abs(n)
    if size < 10**SAID:
        return str(n)
    digits = int(size.bit_length() * 0.30102999566398120)  # never str() of it
    digits += size >= 10**digits  # the estimate is the count or one less
    return f"{'-' if n < 0 else ''}{size // 10 ** (digits - 20)}… ({digits} digits)"


def counted(n: int, noun: str) -> str:
    """``n`` and a plural ``noun`` as a sentence says them: ``1 value``, ``2 values``, ``0 bytes`` —
    every count of a limit a message names (a limit may be set to 1: "more than 1 values" was
    said). ``noun`` is the plural; its singular drops the last ``s`` (``classes`` → ``class``,
    ``passes`` → ``pass``; ``es`` after s, x, z, ch, sh)."""
    if n != 1:
        return f"{int_said(n)} {noun}"
    stem = noun[:-2] if re.search(r"(s|x|z|ch|sh)es$", noun) else noun[:-1] if noun.endswith("s") else noun
    return f"1 {stem}"


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
            raise ValueError(f"{value.text} is not a whole number (its nearest float, {float(value)}, is)")
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
