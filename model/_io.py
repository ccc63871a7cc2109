"""Reading JSON and YAML documents within the limits, with errors that name the file, line and column.

A named document is read by :func:`read_file`, the one reader of every door (the command line,
``load`` by path, ``rl.env(folder)`` sources, ``--suite`` folders): a regular file only. What is read
stays data: at most ``limits.bytes`` bytes are read (a path to ``/dev/zero`` or gigabytes
on standard input are refused once the cap is passed, never read whole); YAML (:mod:`._yamlio`) is
JSON-compatible and its aliases are counted before they expand; nesting
deeper than ``limits.depth``, an integer of more than ``limits.digits`` digits, or a string that is
not valid Unicode text (a lone surrogate) is an error naming the place.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import sys
from collections.abc import Iterator
from itertools import repeat
from pathlib import Path
from typing import IO, Any, cast

from ._errors import PastLimit, ScenarioError
from ._limits import DEFAULT_LIMITS, Limits, raised_by
from ._limits import too_deep as _too_deep
from ._numbers import Inexact, counted, read_float, text_int
from ._text import found, typed

Loc = tuple[str | int, ...]


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {typed(key)}")
        out[key] = value
    return out


class _Constant(Inexact):
    """``NaN``, ``Infinity`` or ``-Infinity``, which Python's reader takes and JSON has not (RFC 8259,
    section 6): kept with its text so that :func:`check_data` refuses it as not JSON, at its place
    and as written — never as a number past a limit, nor as the ``nan`` the document does not say."""

    __slots__ = ()


class _Long(Inexact):
    """An integer with more digits than ``--max-digits``, never converted (a long one would take the
    reader's time): kept with its count of digits so that :func:`check_data` refuses it at its
    place, once the rest of the document — a JSON-RPC request's id — has been read."""

    __slots__ = ()


def _no_constant(name: str) -> Any:
    found = _Constant(float(name))
    found.text = name
    return found


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def _too_many_values(text: str, limits: Limits, within: int = 0) -> bool:
    """Whether JSON ``text`` certainly holds more than ``limits.values`` values, from its commas
    outside strings (each separates two values): decided before anything is built, so a body of
    millions of tiny values is refused in its own size, not in gigabytes of Python objects. The
    text of an envelope (``within``, :func:`check_data`) may hold :data:`ENVELOPE_VALUES` documents'
    worth, each held to the cap once read."""
    most = limits.values * (ENVELOPE_VALUES if within else 1)
    if text.count(",") < most:
        return False  # the common case: no scan at all
    return _STRINGS.sub("", text).count(",") >= most


def _parse_json(text: str, source: str | None, limits: Limits, one_line: bool = False, within: int = 0) -> Any:
    # A byte order mark before the text is no part of it (RFC 8259, section 8.1, lets a reader ignore
    # it): every JSON door reads it as the YAML reader and standard input always have — a file a
    # Windows editor saved is the same document whichever door it comes through.
    text = text.removeprefix("\ufeff")
    if _too_many_values(text, limits, within):
        raise limits.past("values", f"more than {counted(limits.values, 'values')}", source=source)

    def parse_int(digits: str) -> int:
        n = len(digits.lstrip("-"))
        if n > limits.digits:  # refused at its place by check_data, as the number past the floats
            long = _Long(math.inf)
            long.text = str(n)
            return cast(int, long)
        return text_int(digits)  # at most --max-digits, past Python's own cap where they are more

    try:
        return json.loads(
            text,
            object_pairs_hook=_no_duplicate_keys,
            parse_int=parse_int,
            parse_float=read_float,
            parse_constant=_no_constant,
        )
    except json.JSONDecodeError as exc:
        where = f"column {exc.colno}" if one_line else f"line {exc.lineno} column {exc.colno}"
        raise ScenarioError(f"{where}: malformed JSON: {exc.msg}", source=source) from None
    except RecursionError:
        raise _too_deep(limits, source=source) from None
    except PastLimit:
        raise  # an integer too long, said by parse_int as it read it
    except ValueError as exc:  # a duplicate key
        raise ScenarioError(f"malformed JSON: {exc}", source=source) from None


def _parse_yaml(text: str, source: str, limits: Limits) -> Any:
    from ._yamlio import parse_yaml  # PyYAML is imported only when a YAML document is read

    return parse_yaml(text, source, limits)


def _walk(doc: Any) -> Iterator[tuple[Loc, Any]]:
    """Every value with its place, depth first; a container's children are taken one at a time
    (a list of millions holds one iterator, not a place for each at once). A container that is one
    of its own ancestors — a Python list or mapping holding itself, which no JSON or YAML text can
    write — is :class:`_Cycle`, with both places: walked as a tree, it ran to the depth limit and was
    refused as "nested deeper than the limit", whose advice (raise ``--max-depth``) could never help."""
    yield (), doc
    stack: list[tuple[Loc, Iterator[tuple[str | int, Any]], int]] = []
    open_at: dict[int, Loc] = {}  # the containers on the path walked now, by identity, at their places

    def children(value: Any) -> Iterator[tuple[str | int, Any]] | None:
        if isinstance(value, dict):
            return ((str(k), x) for k, v in value.items() for x in (_text_key(k), v))
        if isinstance(value, list | tuple):
            return iter(enumerate(value))
        return None

    def enter(loc: Loc, value: Any) -> None:
        more = children(value)
        if more is None:
            return
        if id(value) in open_at:
            raise _Cycle(loc, open_at[id(value)], value)
        open_at[id(value)] = loc
        stack.append((loc, more, id(value)))

    enter((), doc)
    while stack:
        loc, items, key = stack[-1]
        step = next(items, None)
        if step is None:
            stack.pop()
            del open_at[key]
            continue
        place, value = step
        here = (*loc, place)
        yield here, value
        enter(here, value)


class _NotText(str):
    """A mapping's key that is no text, met by :func:`_walk` where it stands (see :func:`check_data`)."""

    __slots__ = ("key",)
    key: object


def _text_key(key: object) -> str:
    """A mapping's key as a value to check: itself if it is text, else :class:`_NotText` (JSON's keys
    are text; a program's mapping may be keyed by anything)."""
    if isinstance(key, str):
        return key
    found = _NotText("")
    found.key = key
    return found


class _Cycle(Exception):
    """A container met again inside itself (see :func:`_walk`): at ``loc``, the one at ``outer``."""

    def __init__(self, loc: Loc, outer: Loc, value: Any) -> None:
        super().__init__(loc, outer)
        self.loc, self.outer, self.kind = loc, outer, "mapping" if isinstance(value, dict) else "list"

    def refusal(self, source: str | None) -> ScenarioError:
        from ._errors import format_loc

        where = f"the {self.kind} at {format_loc(self.outer)}" if self.outer else "the whole document"
        said = (
            f"a {self.kind} that holds itself: this is {where}, so it would hold itself for ever; JSON data "
            "has no such value (a document is a tree: copy the inner value, or build it anew)"
        )
        return ScenarioError(said, self.loc, source=source)


def _within(doc: Any, limits: Limits, written: bool = False) -> bool:
    """Whether ``doc`` is within the limits, without building any place (the common case, fast): the
    verdict :func:`_named_place` gives, a key counted as a value as it does. A container's items are
    counted before they are pushed: a Python caller's list of ten million was pushed whole (690 MB
    of pairs) before the count of values refused it. A mapping's keys are checked where the mapping
    is, never pushed, and each value's kind is read once (``type``, the subclasses after): this walk
    was five times pydantic's own validation of the score a reward builds for every new board
    (110 µs against 22, issue 53); ``tests/property/test_data_limits.py`` holds the two walks to one
    verdict."""
    big = 10**limits.digits
    most, deepest = limits.values, limits.depth
    stack: list[tuple[Any, int]] = [(doc, 0)]
    pop, push = stack.pop, stack.append
    values = 0
    while stack:
        value, depth = pop()
        values += 1
        if values > most or depth > deepest:
            return False
        kind = type(value)
        if kind is str or kind is bool or value is None:
            if kind is str and not value.isascii() and not printable(value):
                return False
            continue
        if kind is int:
            if -big < value < big:
                continue
            return False
        inner = depth + 1
        if kind is dict or (kind is not list and kind is not tuple and isinstance(value, dict)):
            if not value:
                continue
            if values + len(stack) + 2 * len(value) > most or inner > deepest:
                return False  # every key and value waiting counts once: past a cap before any is pushed
            for k, v in value.items():
                if type(k) is not str and not isinstance(k, str):
                    return False  # a key that is no text: refused at its place
                if not k.isascii() and not printable(k):
                    return False
                push((v, inner))
            values += len(value)  # the keys, each a value
        elif kind is list or kind is tuple or isinstance(value, list | tuple):
            if values + len(stack) + len(value) > most:
                return False
            stack.extend(zip(value, repeat(inner)))
        elif isinstance(value, str):
            if not value.isascii() and not printable(value):
                return False
        elif isinstance(value, int):  # a bool is read above: no class derives from it
            if abs(value) >= big:
                return False
        elif isinstance(value, float):
            if not (math.isfinite(value) and abs(value) < big) and not (written and _past_floats(value)):
                return False
        else:  # no JSON value (see _DATA)
            return False
    return True


def printable(text: str) -> bool:
    """Whether ``text`` is valid Unicode: it can be written back as UTF-8 (a lone surrogate, which no
    output could print, cannot). The one home of this question (the limits' walk, the RPC server's ids)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_DATA = (dict, list, tuple, str, int, float, bool, type(None))
"""What a document holds: JSON's values (a tuple is a list, as JSON writes it). A document built in
Python and passed to a model's ``model_validate`` may hold anything else; it is refused, never read
as text (bytes) or a list (a set)."""


def check_data(
    doc: Any, source: str | None = None, limits: Limits = DEFAULT_LIMITS, within: int = 0, written: bool = False
) -> Any:
    """``doc`` once it is within the limits: nesting, number of values, integer digits, text that is
    valid Unicode (no lone surrogate, which no output could print), and only JSON's values (a
    document built in Python may hold bytes or a set). A document within them
    is walked once without places; only one that is not is walked again to name the place.

    ``within``: ``doc`` is an envelope — a JSON-RPC request (2: its ``params``' members), a body or
    a program's params (1) — whose values that many levels in are each a document held to the
    limits on its own, as the same document read from a file is: its nesting counted from its own
    root and its values on their own (docs/cli.md, Limits: "nesting of a document", "values of one
    document"). A scenario nested 64 deep was read from a file and refused in a request, whose
    wrapper added two levels and its few values.

    ``written``: a number past the floats (``1e400``) is kept as written (its text, an
    :class:`~._numbers.Inexact` infinity), not refused — for a reader that compares numbers by what
    their text says and computes nothing with them (the conformance runner's answers: a count of
    ``1e400`` is "a float of 2^53 or more" there, as docs/conformance.md says, not "malformed")."""
    if within:
        _check_envelope(doc, source, limits, within)
        return doc
    if _within(doc, limits, written):
        return doc
    try:
        _named_place(doc, source, limits, written)
    except _Cycle as cycle:
        raise cycle.refusal(source) from None
    return doc


ENVELOPE_VALUES = 4
"""How many documents' values the text of an envelope (a request line, a body) may hold before it
is refused unread (:func:`_too_many_values`): each document in it is held to ``--max-values`` on
its own once read, and a request carries a few (``check``: a scenario and a proposal)."""


def _check_envelope(doc: Any, source: str | None, limits: Limits, within: int) -> None:
    """:func:`check_data` of an envelope: its own levels (a few values: a method, an id, the names
    of the params) walked here, each value ``within`` levels in — or a plain value met sooner —
    held to the limits as a document of its own, its refusal placed inside the envelope."""
    envelope = 0
    stack: list[tuple[Loc, Any]] = [((), doc)]
    while stack:
        loc, value = stack.pop()
        envelope += 1
        if envelope > limits.values:
            raise limits.past("values", f"more than {counted(limits.values, 'values')}", source=source)
        if len(loc) < within and isinstance(value, dict | list | tuple):
            if isinstance(value, dict):
                items: list[tuple[str | int, Any]] = []
                for k, v in value.items():
                    if not isinstance(k, str):
                        said = f"a mapping's key is text, not {found(k)} (JSON's keys are text)"
                        raise ScenarioError(said, loc, source=source)
                    _document(k, (*loc, k), source, limits)  # the key's text, as the walk checks it
                    items.append((k, v))
            else:
                items = list(enumerate(value))
            if envelope + len(stack) + len(items) > limits.values:
                raise limits.past("values", f"more than {counted(limits.values, 'values')}", source=source)
            stack.extend(((*loc, k), v) for k, v in reversed(items))
        elif loc:
            _document(value, loc, source, limits)
        else:
            check_data(value, source, limits)


def _document(value: Any, loc: Loc, source: str | None, limits: Limits) -> None:
    """``value`` at ``loc`` of an envelope, held to the limits as a document (:func:`check_data`)."""
    try:
        check_data(value, source, limits)
    except ScenarioError as exc:
        raise exc.within(*loc) from None


def _past_floats(value: float) -> bool:
    """A number past the floats kept with its text (``1e400``), never JSON's ``NaN`` or ``Infinity``
    nor an integer past ``--max-digits`` (:class:`_Long`, whose text is its count of digits)."""
    return isinstance(value, Inexact) and not isinstance(value, _Constant | _Long) and math.isinf(value)


def _named_place(doc: Any, source: str | None, limits: Limits, written: bool = False) -> None:
    """The walk of :func:`check_data` over a document not within the limits, refusing it at the
    first place that is not (a container holding itself: :class:`_Cycle`)."""
    for values, (loc, value) in enumerate(_walk(doc), 1):
        if values > limits.values:
            raise limits.past("values", f"more than {counted(limits.values, 'values')}", source=source)
        if len(loc) > limits.depth:
            raise _too_deep(limits, loc[: limits.depth], source)
        if isinstance(value, _NotText):
            said = f"a mapping's key is text, not {found(value.key)} (JSON's keys are text)"
            raise ScenarioError(said, loc, source=source)
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise limits.past("text", f"not valid Unicode text (character {exc.start})", loc, source) from None
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limits.digits:
            raise limits.past("digits", f"an integer of more than {counted(limits.digits, 'digits')}", loc, source)
        elif isinstance(value, _Long):
            said = f"an integer of {value.text} digits is more than the limit of {limits.digits}"
            raise limits.past("digits", said, loc, source)
        elif isinstance(value, _Constant):
            raise ScenarioError(f"{value.text} is not JSON (a number is written in digits)", loc, source=source)
        elif written and _past_floats(value):
            continue
        elif isinstance(value, float) and not math.isfinite(value):  # 1e400: no JSON writes it back
            # well-formed JSON past a limit, as 1e200 is past --max-digits: bad input with its place
            # (exit 2, -32001, 422), never "not JSON" (which JSON's NaN and Infinity are, above)
            past = " (beyond the range of numbers, about ±1.8e308)" if math.isinf(value) else ""
            raise limits.past("range", f"{found(value)} is not a number this tool can take{past}", loc, source)
        elif isinstance(value, float) and abs(value) >= 10**limits.digits:
            raise limits.past(
                "digits",
                f"{found(value)} is not a number this tool can take (at most {counted(limits.digits, 'digits')})",
                loc,
                source,
            )
        elif not isinstance(value, _DATA):
            said = f"{type(value).__name__} is not JSON data (text, a number, true, false, null, a list or a mapping)"
            raise ScenarioError(said, loc, source=source)


def parse_text(text: str, source: str, fmt: str | None = None, limits: Limits = DEFAULT_LIMITS, within: int = 0) -> Any:
    """Parse ``text`` as JSON (``fmt="json"``), YAML (``"yaml"``), or whichever fits (``None``),
    within ``limits`` (``within``: an envelope of documents, :func:`check_data`)."""
    if fmt == "json" or (fmt is None and text.lstrip().startswith(("{", "["))):
        doc = _parse_json(text, source, limits, within=within)
    else:
        doc = _parse_yaml(text, source, limits)
    return check_data(doc, source, limits, within)


def utf8(data: bytes | str, where: str = " of the line") -> str:
    """``data`` as text; bytes that are not UTF-8 are bad input naming the first bad byte (1-based)."""
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 text (byte {exc.start + 1}{where})") from None


def parse_json_line(
    text: str,
    limits: Limits = DEFAULT_LIMITS,
    one_line: bool = True,
    checked: bool = True,
    within: int = 0,
    written: bool = False,
) -> Any:
    """One JSON Lines line (errors name the column), or a JSON text (the line and the column),
    within ``limits`` (unless not ``checked``: then read whole, its values to be held to them by
    :func:`check_data` — a JSON-RPC line's id is read before its params are refused; ``within``:
    the line is an envelope of documents, as :func:`check_data` takes it)."""
    if len(text) > limits.bytes and len(text.encode("utf-8")) > limits.bytes:
        raise ScenarioError(f"more than {counted(limits.bytes, 'bytes')}{raised_by('bytes')}")
    doc = _parse_json(text, None, limits, one_line=one_line, within=within)
    return check_data(doc, None, limits, within, written) if checked else doc


def json_line(
    line: bytes | str | ScenarioError, limits: Limits = DEFAULT_LIMITS, checked: bool = True, within: int = 0
) -> Any:
    """One line as :func:`iter_lines` gives it — bytes, text, or the error of a line over the cap —
    decoded as UTF-8 and parsed as JSON within ``limits`` (``checked``: :func:`parse_json_line`);
    :class:`ScenarioError` naming the byte or the column otherwise."""
    if isinstance(line, ScenarioError):
        raise line
    return parse_json_line(utf8(line), limits, checked=checked, within=within)


def read_bounded(stream: IO[bytes], source: str, limits: Limits) -> str:
    """At most ``limits.bytes`` bytes of ``stream``, decoded as UTF-8; more is refused unread."""
    data = stream.read(limits.bytes + 1)
    if len(data) > limits.bytes:
        raise ScenarioError(f"more than {counted(limits.bytes, 'bytes')}{raised_by('bytes')}", source=source)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:  # the byte counted from 1, as a line's (utf8) and the runners' are
        raise ScenarioError(f"not UTF-8 text (byte {exc.start + 1})", source=source) from None


def files_under(folder: Path) -> list[tuple[Path, bool]]:
    """Every entry under ``folder`` (itself excluded), at any depth, with whether it is a folder
    (a link to one counts as one, and is not entered: a loop of links is walked once), sorted by
    path; a folder that cannot be listed is passed over. The one walk of a folder of documents —
    ``--suite`` and an environment's folder source — done with a stack of its own: ``os.walk`` and
    ``Path.rglob`` recurse in Python 3.11, and a folder some 1,000 deep ended the conformance run
    as an internal error (exit 70) and ``rl.env(folder)`` as a ``RecursionError``."""
    out: list[tuple[Path, bool]] = []
    stack = [folder]
    while stack:
        here = stack.pop()
        try:
            with os.scandir(here) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            path = here / entry.name
            out.append((path, is_dir))
            if is_dir and not entry.is_symlink():
                stack.append(path)
    return sorted(out)


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def read_file(path: str, limits: Limits = DEFAULT_LIMITS) -> str:
    """The text of the regular file at ``path`` (a link is followed to what it names), at most
    ``limits.bytes`` bytes of UTF-8. Anything else is refused naming the file and its kind, never
    waited on nor read: a FIFO (opening one would wait for a writer for ever), a socket, a device
    (``/dev/zero`` behind a link), a directory. The one way every door reads a named document."""
    try:
        kind = os.stat(path).st_mode
        if not stat.S_ISREG(kind):
            raise ScenarioError(f"is {_kind(kind)}, not a regular file", source=path)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # never waits, if swapped since
    except FileNotFoundError:
        raise ScenarioError("no such file", source=path) from None
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc.strerror}", source=path) from None
    with os.fdopen(fd, "rb") as stream:
        kind = os.fstat(fd).st_mode
        if not stat.S_ISREG(kind):
            raise ScenarioError(f"is {_kind(kind)}, not a regular file", source=path)
        try:
            return read_bounded(stream, path, limits)
        except OSError as exc:
            raise ScenarioError(f"cannot read: {exc.strerror}", source=path) from None


def open_lines(path: str) -> IO[bytes]:
    """The file at ``path`` opened to read lines from: a regular file, or a FIFO (a stream, as
    standard input is: ``--batch <(...)``). A directory, a socket or a device (``/dev/zero``
    would be read for ever) is refused naming the file and its kind."""
    try:
        kind = os.stat(path).st_mode
        if not (stat.S_ISREG(kind) or stat.S_ISFIFO(kind)):
            raise ScenarioError(f"is {_kind(kind)}, not a regular file or a FIFO", source=path)
        return open(path, "rb")  # the caller closes it
    except OSError as exc:
        raise ScenarioError(f"cannot read: {exc.strerror}", source=path) from None


def load_document(path: str, limits: Limits = DEFAULT_LIMITS) -> Any:
    """The parsed document at ``path`` (``.json``, ``.yaml``, ``.yml``), or standard input for ``-``."""
    if path == "-":
        return parse_text(read_bounded(sys.stdin.buffer, "<stdin>", limits), "<stdin>", limits=limits)
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".yaml", ".yml"):
        raise ScenarioError("expected a .json, .yaml or .yml file, or - for standard input", source=path)
    return parse_text(read_file(path, limits), path, "json" if suffix == ".json" else "yaml", limits)


Line = bytes | ScenarioError
"""One line of input as :func:`iter_lines` gives it: its bytes, or the error of a line over the cap."""

BLANK = b" \t\r"
"""JSON's whitespace but the line's end (RFC 8259, section 2): a line of nothing else is blank."""


def iter_lines(stream: IO[bytes], limits: Limits) -> Iterator[tuple[int, Line]]:
    """The lines of ``stream``, split on ``\\n`` only, each numbered as the input numbers it (from 1)
    and at most ``limits.bytes`` bytes (a longer one is read past in pieces and stands as its
    error). A blank line is no request, on every door that reads lines (``serve --stdio``,
    ``batch``, ``check --batch``): it is skipped here, once, and the lines after it keep their numbers."""
    number = 0
    while True:
        line = stream.readline(limits.bytes + 1)
        if not line:
            return
        number += 1
        if len(line) > limits.bytes and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):  # skip the rest of this line, a piece at a time
                line = stream.readline(1 << 20)
            yield number, ScenarioError(f"more than {counted(limits.bytes, 'bytes')}{raised_by('bytes')}")
            continue
        if line.strip(BLANK + b"\n"):
            yield number, line.removesuffix(b"\n")
