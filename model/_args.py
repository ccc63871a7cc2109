"""The one reading of an argument — a seed, a count, a size — at every door that takes one: the
command line's flags, JSON-RPC and HTTP params (through the verbs' parameters), the Python verbs,
the phase.rs adapter's draws, ``rl.boards`` and the environments (their factories' arguments,
``reset``'s seed and options, a vector's size and seeds). (A time limit is read by
``model/_limits.py`` ``seconds_of``, beside the deadline it makes.)

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

Beside whole numbers, the other shapes a Python door's argument takes, each read whole or refused
naming it, never converted: a truth (:func:`truth_of`: ``True`` or ``False``, never ``1`` or
``"no"``), a finite number (:func:`finite_of`), one of a few names (:func:`choice_of`), a range
(:func:`span_of`: a whole number or a pair low, high), a list in its order (:func:`listed`: never a
set, whose order is its hashes', nor bytes or text), options (:func:`options_of`: a mapping of
the documented keys only — a misspelt key is refused, never ignored), and a name among known ones
(:func:`name_of`: an agent's, a player's — an id no board has is refused, never scored 0).
"""

from __future__ import annotations

import math
import numbers
import operator
import os
import re
from collections.abc import Callable, Collection, Iterable, Mapping, Set
from dataclasses import fields
from typing import Any, TypeVar

from ._errors import ScenarioError, UsageError
from ._limits import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT, TIME_LIMIT_VARIABLE, Limits, seconds_of
from ._text import found, typed


def _whole(value: Any, least: int, most: int | None) -> tuple[int | None, str]:
    """``value`` as an int when it is a whole number from ``least`` to ``most``, else None and why
    (in the format's words, as a document's problem says it: docs/formats.md, "Errors")."""
    number: int | None = None
    if not _is_bool(value):
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


def _is_bool(value: Any) -> bool:
    """A bool, Python's or NumPy's (``np.bool_``, named ``bool`` since NumPy 2)."""
    return isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"))


def _named(name: str, why: str) -> UsageError:
    return UsageError(f"{name}: {why}" if name else why)


def whole_number(value: Any, name: str, least: int = 0, most: int | None = None) -> int:
    """``value`` as an ``int`` when it is a whole number from ``least`` to ``most`` (no upper end
    when None); else :class:`UsageError` naming ``name`` (only why, when ``name`` is empty)."""
    number, why = _whole(value, least, most)
    if number is None:
        raise _named(name, why)
    return number


MOST_SLICED = 10_000
"""The most items a slice of a sequence the Python API hands out takes at once (a server's page,
``MAX_PAGE``): past it, iterate."""


def position(index: Any, n: int, what: str) -> int | range:
    r"""Where ``index`` points in a sequence of ``n`` ``what``\ s, read as a list reads an index, for
    every sequence the Python API hands out (``LegalOutcomes``, phase's ``answers`` and ``Rest``):
    an integer (NumPy's too; negative counts from the end) is the place from 0, a slice the range of
    places it takes (at most :data:`MOST_SLICED`; a step of 0 is ``ValueError``, as a list's).
    Anything else is ``TypeError`` naming it; a place past either end ``IndexError`` naming the
    index as given and the range — never the place it stood for."""
    if isinstance(index, slice):
        taken = range(*index.indices(n))
        if len(taken) > MOST_SLICED:
            said = f"a slice of {found(len(taken))} {what}s is more than {MOST_SLICED}"
            raise ValueError(f"{said}: iterate over them instead")
        return taken
    if _is_bool(index) or not hasattr(type(index), "__index__"):
        raise TypeError(f"an index of {what}s is an integer or a slice, not {found(index)}")
    i = operator.index(index)
    if not -n <= i < n:
        said = f"{found(n)} {what}s, {found(-n)} to {found(n - 1)}" if n else f"no {what}s"
        raise IndexError(f"{what} index {found(i)} is out of range: {said}")
    return i + n if i < 0 else i


FEWEST = 1
"""The least a count of things asked for may be, on every door: ``sample``'s ``n`` (a field of the
verb table, so every surface), the page caps of the command line (``-n``, ``--limit``), ``boards
-n`` and ``rl.boards``' ``n`` — asking for none is refused, never answered with silence."""


def how_many(value: Any, name: str = "n") -> int:
    """How many things are asked for: a whole number :data:`FEWEST` or more (:func:`whole_number`)."""
    return whole_number(value, name, FEWEST)


def seed_of(value: Any, name: str = "seed") -> int:
    """A seed: a whole number 0 or more (:func:`whole_number`)."""
    return whole_number(value, name, 0)


def truth_of(value: Any, name: str) -> bool:
    """``True`` or ``False`` (a NumPy bool as its truth); anything else — ``1``, ``"no"``, None — is
    refused naming ``name``, never taken for its truthiness."""
    if _is_bool(value):
        return bool(value)
    raise _named(name, f"expected true or false, found {found(value)}")


def finite_of(value: Any, name: str) -> float:
    """A finite number (an int, a float or a NumPy number, never a bool, text, nan or infinity) as a
    float; else :class:`UsageError` naming ``name``."""
    number: float | None = None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):  # NumPy's numbers are Real, its bool not
        try:
            number = float(value)
        except OverflowError:  # an int past the largest float
            number = math.inf
    if number is None:
        raise _named(name, f"expected a number, found {found(value)}")
    if not math.isfinite(number):
        raise _named(name, f"expected a finite number, found {found(value)}")
    return number


def choice_of(value: Any, name: str, choices: Collection[str]) -> str:
    """One of ``choices`` (names, compared as written); else :class:`UsageError` naming ``name`` and
    every choice."""
    if isinstance(value, str) and value in choices:
        return value
    said = ", ".join(typed(c) for c in choices)
    raise _named(name, f"expected one of {said}, found {found(value)}")


def listed(value: Any, name: str) -> list[Any]:
    """A list of values in its order: a list, a tuple, a range or a one-dimensional NumPy array (its
    items as Python values); never a set or a mapping (their order is not the caller's), text or
    bytes (characters and numbers, not values), an iterator (read once) or an array of another shape."""
    if isinstance(value, list | tuple | range):
        return list(value)
    if type(value).__module__ == "numpy" and type(value).__name__ == "ndarray":
        if value.ndim == 1:
            return list(value.tolist())
        shape = "×".join(str(n) for n in value.shape) or "()"
        raise _named(name, f"expected a list (a one-dimensional array), found an array of shape {shape}")
    raise _named(name, f"expected a list, found {found(value)}")


def instance_of(value: Any, name: str, kind: type[T] | tuple[type, ...], what: str) -> T:
    """``value`` when it is a ``kind`` — the document or the object a Python door documents (a
    ``Scenario``, an ``Outcome``, a ``Score``, compiled ``Facts``) —; else :class:`UsageError` naming
    ``name`` and what it takes (``what``: how to make one), never an ``AttributeError`` from deep
    inside (``count({"players": ["A"]})`` was "'dict' object has no attribute '_facts'")."""
    if isinstance(value, kind):
        return value  # type: ignore[return-value]
    raise _named(name, f"expected {what}, found {found(value)}")


def limits_of(value: Any, name: str = "limits") -> Limits:
    """The size caps a Python door is given (``Options(limits=...)``, every verb's ``limits=``): a
    :class:`Limits` whose every cap is a whole number 1 or more, as ``--max-…`` is on the command
    line (docs/cli.md, "Limits"). ``Limits(answer=nan)`` was no cap at all (no count is more than
    nan), ``Limits(abilities="5")`` or ``-1`` a refusal nobody could meet, a dict an AttributeError."""
    if value is DEFAULT_LIMITS:  # the caps' defaults, each within its bounds (tests/test_options.py): every
        return value  # Options() is built with them, a board's draw several times, and checking 13 caps was 6% of it
    return checked_limits(value, name)


def checked_limits(value: Any, name: str = "limits") -> Limits:
    """:func:`limits_of` 's whole check, cap by cap (what it gives the default caps without asking)."""
    limits = instance_of(value, name, Limits, "Limits(...) (model/_limits.py), one whole number 1 or more per cap")
    caps = {
        f.name: whole_number(getattr(limits, f.name), f"{name}.{f.name}", least=1, most=f.metadata["most"])
        for f in fields(Limits)
    }
    return limits if all(type(getattr(limits, k)) is int for k in caps) else Limits(**caps)


def in_order(value: Any, name: str) -> Iterable[Any]:
    """Values in the caller's order: any iterable but text or bytes (whose items are characters
    and numbers: ``step(s, "put SWB")`` was the decision ``'p'``), a set (its order is its hashes')
    or a mapping (see :func:`listed`, which also refuses an iterator: it must be read twice)."""
    if isinstance(value, str | bytes | bytearray | Set | Mapping) or not isinstance(value, Iterable):
        listed(value, name)  # refuses it, in listed's words
    return value  # type: ignore[no-any-return]


def span_of(value: Any, name: str, least: int = 0, most: int | None = None) -> tuple[int, int]:
    """A range of whole numbers: one number (``lo = hi``) or a pair low, high (:func:`listed`: never
    a set, whose order is not the caller's), each :func:`whole_number` from ``least`` to ``most``."""
    if isinstance(value, str | bytes | bytearray | Mapping) or not hasattr(value, "__iter__"):
        lo = hi = whole_number(value, name, least, most)
        return lo, hi
    pair = listed(value, name)
    if len(pair) != 2:
        raise _named(name, f"expected a whole number or a pair (low, high), found {found(value)}")
    lo, hi = (whole_number(v, name, least, most) for v in pair)
    if lo > hi:
        raise _named(name, f"the low end {lo} is above the high end {hi}")
    return lo, hi


def options_of(
    value: Any, known: Collection[str], name: str = "options", inert: Collection[str] = ()
) -> Mapping[str, Any]:
    """Options: None (none given: an empty mapping) or a mapping whose keys are among ``known``; a
    key the door does not read — a misspelt one — is refused naming it and the keys it reads, never
    ignored. ``inert``: keys the door documents as taken and meaning nothing (a conformance test's
    probe), left out of what is returned."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _named(name, f"expected a mapping with keys among {', '.join(known)}, found {found(value)}")
    given: Mapping[Any, Any] = value
    if inert and any(k in inert for k in given):
        given = {k: v for k, v in given.items() if k not in inert}
    for key in given:
        name_of(key, name, known, "option")
    return given


def name_of(value: Any, name: str, known: Collection[str], what: str, whats: str = "") -> str:
    """One of the names ``known`` (an agent's, a player's, an option's), compared as written; else
    :class:`UsageError` naming ``name``, the name typed, the nearest known one and every one (``whats``:
    ``what`` 's plural, if not ``what`` + s) — an id
    no board has is refused, never taken for one whose score or mask is nothing."""
    if isinstance(value, str) and value in known:
        return value
    shown = typed(value) if isinstance(value, str) else found(value)
    from ._problems import suggest  # only for a miss

    near = suggest(value, known) if isinstance(value, str) else None
    hint = f" (did you mean {typed(near)}?)" if near else ""
    listed = ", ".join(known) if known else "none"
    raise _named(name, f"no {what} is named {shown}{hint}; the {whats or what + 's'} are: {listed}")


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
