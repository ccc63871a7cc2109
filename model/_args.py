"""The one reading of an argument — a seed, a count, a size — at every door that takes one: the
command line's flags, JSON-RPC and HTTP params (through the verbs' parameters), the Python verbs,
the phase.rs adapter's draws, ``rl.boards`` and the environments' ``reset``. (A time limit is read
by ``model/_limits.py`` ``seconds_of``, beside the deadline it makes.)

A whole number is an ``int`` or a NumPy integer (taken as the number it holds), at least the least
the argument allows (0 for a seed). Anything else is refused naming the argument: ``True`` (a bool
is no number here), ``1.5`` or ``2.0`` (``random.Random`` would hash a float), ``"7"`` (it would
hash text), ``nan``, and a negative seed (``random.Random(-k)`` draws what ``random.Random(k)``
draws: two seeds, one stream). Every refusal is in the format's words, the words a document's
problems and the servers' params say (docs/formats.md, "Errors"): ``expected a whole number,
found '7'``, ``expected at least 0, found -3``.

On the wire a value is JSON, where a whole-number float is the integer it writes
(``model/_numbers.py`` ``whole_float``: docs/formats.md reads ``6.0`` as 6). A flag's text is read as the wire reads
the same characters (:func:`from_text`), so ``--seed 1.0`` is what ``"seed": 1.0`` is, and text that
is no JSON number (``١``, ``1_0``, `` 1``, ``inf``) is refused as text sent on the wire is.
"""

from __future__ import annotations

import operator
import os
import re
from collections.abc import Callable
from typing import Any, TypeVar

from ._errors import ScenarioError, UsageError
from ._limits import DEFAULT_TIME_LIMIT, TIME_LIMIT_VARIABLE, seconds_of
from ._text import found, typed


def _whole(value: Any, least: int, most: int | None) -> tuple[int | None, str]:
    """``value`` as an int when it is a whole number from ``least`` to ``most``, else None and why
    (in the format's words, as a document's problem says it: docs/formats.md, "Errors")."""
    number: int | None = None
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        try:
            number = operator.index(value)  # int and NumPy integers; never a float, text or a bool
        except TypeError:
            number = None
    if number is None:
        return None, f"expected a whole number, found {found(value)}"
    if number < least:
        return None, f"expected at least {least}, found {found(number)}"
    if most is not None and number > most:
        return None, f"expected at most {most}, found {found(number)}"
    return number, ""


def _named(name: str, why: str) -> UsageError:
    return UsageError(f"{name}: {why}" if name else why)


def whole_number(value: Any, name: str, least: int = 0, most: int | None = None) -> int:
    """``value`` as an ``int`` when it is a whole number from ``least`` to ``most`` (no upper end
    when None); else :class:`UsageError` naming ``name`` (only why, when ``name`` is empty)."""
    number, why = _whole(value, least, most)
    if number is None:
        raise _named(name, why)
    return number


def seed_of(value: Any, name: str = "seed") -> int:
    """A seed: a whole number 0 or more (:func:`whole_number`)."""
    return whole_number(value, name, 0)


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
"""JSON's number (RFC 8259, section 6): ASCII digits only, no sign +, no underscores, no spaces."""


def from_text(text: str) -> Any:
    """A flag's text as the wire reads the same characters: the JSON number it spells, read by the
    documents' reader (an integer past ``--max-digits``, or ``1e999``, is refused in its words);
    any other text stays text, for the argument's check to refuse naming it."""
    if _JSON_NUMBER.fullmatch(text) is None:
        return text
    from ._io import parse_json_line  # the documents' reader: its caps and its words

    return parse_json_line(text)


def whole_from_text(text: str) -> Any:
    """:func:`from_text` where the argument is a whole number: a whole-number float as the integer
    its text writes, as the wire reads one (``model/_numbers.py`` ``whole_float``: ``1.0`` is 1,
    ``1.0000000000000001`` refused in the wire's words)."""
    from ._numbers import whole_float  # pydantic's side of whole numbers: only when a flag is read

    try:
        return whole_float(from_text(text))
    except ValueError as exc:
        if isinstance(exc, ScenarioError):
            raise
        raise UsageError(str(exc)) from None


T = TypeVar("T")


def flag(check: Callable[[Any], T], whole: bool = False) -> Callable[[str], T]:
    """A command-line flag's type: its text read as the wire reads it (:func:`from_text`; with
    ``whole``, :func:`whole_from_text`), then the argument's one check (``check``:
    :func:`whole_number`, :func:`seed_of`, ``seconds_of`` …, which names no argument: argparse
    names the flag). A refusal is argparse's error, exit 2."""

    def parse(text: str) -> T:
        from argparse import ArgumentTypeError

        try:
            return check(whole_from_text(text) if whole else from_text(text))
        except ScenarioError as exc:
            raise ArgumentTypeError(exc.message) from None

    return parse


def default_time_limit() -> float:
    """The time limit of a call that gives none: ``DEFAULT_TIME_LIMIT``, or the seconds the
    environment's ``TRIGGERSTACK_TIME_LIMIT`` gives (a machine slower or busier than the one the
    default suits: the test suite gives 600, so that no test that does not test the limit depends
    on how busy its machine is), read as ``--time-limit``'s text is (:func:`from_text`, then
    ``seconds_of``); anything else is a :class:`UsageError` naming the variable."""
    text = os.environ.get(TIME_LIMIT_VARIABLE)
    if text is None:
        return DEFAULT_TIME_LIMIT
    try:
        seconds = seconds_of(from_text(text), "")
    except ScenarioError as exc:
        raise UsageError(f"{TIME_LIMIT_VARIABLE}={typed(text)}: {exc.message}") from None
    assert seconds is not None  # text is never None
    return seconds
