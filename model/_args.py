"""The one check of a whole-number argument — a seed, a count, a size — at every door that takes
one: the command line and JSON-RPC (through the verbs' parameters), the Python verbs, the phase.rs
adapter's draws, ``rl.boards`` and the environments' ``reset``.

A whole number is an ``int`` or a NumPy integer (taken as the number it holds), at least the least
the argument allows (0 for a seed). Anything else is refused naming the argument: ``True`` (a bool
is no number here), ``1.5`` or ``2.0`` (``random.Random`` would hash a float), ``"7"`` (it would
hash text), ``nan``, and a negative seed (``random.Random(-k)`` draws what ``random.Random(k)``
draws: two seeds, one stream).
"""

from __future__ import annotations

import operator
from typing import Any

from ._errors import UsageError


def _whole(value: Any, least: int, most: int | None) -> tuple[int | None, str]:
    """``value`` as an int when it is a whole number from ``least`` to ``most``, else None and why."""
    number: int | None = None
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        try:
            number = operator.index(value)  # int and NumPy integers; never a float, text or a bool
        except TypeError:
            number = None
    if number is not None and number >= least and (most is None or number <= most):
        return number, ""
    top = f" to {most}" if most is not None else " or more"
    shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:59] + "…"
    return None, f"expected a whole number {least}{top}, not {shown}"


def whole_number(value: Any, name: str, least: int = 0, most: int | None = None) -> int:
    """``value`` as an ``int`` when it is a whole number from ``least`` to ``most`` (no upper end
    when None); else :class:`UsageError` naming ``name``."""
    number, why = _whole(value, least, most)
    if number is None:
        raise UsageError(f"{name}: {why}")
    return number


def seed_of(value: Any, name: str = "seed") -> int:
    """A seed: a whole number 0 or more (:func:`whole_number`)."""
    return whole_number(value, name, 0)


def seed_field(value: Any) -> int:
    """:func:`seed_of` as a field's validator (the field's place names it): ``ValueError`` saying why."""
    number, why = _whole(value, 0, None)
    if number is None:
        raise ValueError(why)
    return number
