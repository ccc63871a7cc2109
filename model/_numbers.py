"""Whole numbers at the boundary: an integer a JSON writer may spell ``6.0``, and the bounded ones
the formats use (each bound published in the JSON Schema as ``minimum``/``maximum``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator, Field, StrictInt

from ._args import whole_float as _whole

Whole = Annotated[StrictInt, BeforeValidator(_whole)]
"""An integer; ``6.0`` is accepted as 6 (JSON Schema calls it an integer too), ``6.5``, ``"6"`` and
``true`` are not."""

AtLeast0 = Annotated[StrictInt, Field(ge=0), BeforeValidator(_whole)]
"""A whole number 0 or more. A bound stands beside the type, before the validator: placed after it
(``Annotated[Whole, Field(ge=0)]``) or on a field whose type is a union (``Whole | None =
Field(ge=0)``), pydantic enforces it but publishes ``"ge"``, which no JSON Schema reader knows, so
a client built from the schema would not see it (tests/fuzz/test_schema_vocabulary.py)."""
AtLeast1 = Annotated[StrictInt, Field(ge=1), BeforeValidator(_whole)]
"""A whole number 1 or more (see :data:`AtLeast0`)."""
Weight = Annotated[StrictInt, Field(ge=-(10**9), le=10**9), BeforeValidator(_whole)]
"""A score's weight, at most a billion either way (see :data:`AtLeast0`)."""
