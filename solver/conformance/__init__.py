"""The 603.3 conformance suite's runner (docs/conformance.md): each case of ``conformance/cases``
put to an engine under test over a small JSON-RPC protocol — ``load`` the scenario, ``count`` it
(with ``divide`` where the engine has it), ``check`` each legal and illegal proposal — and a
report per case: pass, or the first difference, perft-style (under which first stack entry the
counts part).

The engine is a process speaking JSON-RPC 2.0 on standard input and output, one request and one
answer per line (``triggerstack serve --stdio`` is one), or this tool itself in this process
(``--self``).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError
from triggerstack.model._errors import ScenarioError, UsageError
from triggerstack.model._io import check_data, files_under, parse_text, read_file
from triggerstack.model._limits import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT, Limits
from triggerstack.model._numbers import Inexact, exact_whole
from triggerstack.model._outcome import Entry
from triggerstack.model._text import found

from ._lines import ANSWER_DIGITS, LIMITS, Failure, Lines, Undecoded, count_text, whole_number
from ._lines import shown as _shown
from ._process import ProcessEngine

__all__ = [
    "Case",
    "Engine",
    "Failure",
    "ProcessEngine",
    "Report",
    "SelfEngine",
    "default_suite",
    "load_suite",
    "run",
]


class Engine(Protocol):
    def call(self, method: str, params: dict[str, Any]) -> Any: ...

    def close(self) -> None: ...


class SelfEngine(Lines):
    """This tool, in this process: the same protocol, no process in between, each call within
    ``seconds`` (the runner's --time-limit)."""

    def __init__(self, seconds: float | None = DEFAULT_TIME_LIMIT) -> None:
        super().__init__(None)  # the service bounds each call by its own time limit
        from .._options import Options
        from ..serve._rpc import Service

        self.service = Service(Options(time_limit=seconds))
        self._answer: str | None = None

    def _send(self, line: str) -> None:
        self._answer = self.service.handle(line) or ""

    def _next(self, timeout: float | None) -> str | Undecoded:  # noqa: ARG002 - the service keeps its own time
        answer, self._answer = self._answer, None
        if answer is None:
            raise Failure("no answer")
        return answer

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class Case:
    """One case of the suite (conformance/schema.json)."""

    id: str
    data: dict[str, Any]


def default_suite() -> Path:
    """The suite beside this tool's sources (a clone of the repository), or ``./conformance/cases``."""
    for base in (Path.cwd(), *Path(__file__).resolve().parents):
        found = base / "conformance" / "cases"
        if found.is_dir():
            return found
    raise UsageError("no conformance suite found: give --suite DIR (conformance/cases of the repository)")


def load_suite(folder: Path, limits: Limits = DEFAULT_LIMITS) -> list[Case]:
    """Every ``*.json`` case under ``folder`` (symbolic links to folders are not followed), each read
    within ``limits`` (its bytes, nesting, values) and checked for the shape the runner reads; a file
    that is not a case is bad input naming it (exit 2), with every such file said."""
    if not folder.is_dir():
        raise UsageError(f"--suite: {folder} is not a folder of cases")
    paths = [p for p, is_dir in files_under(folder) if not is_dir and p.name.endswith(".json")]
    cases: list[Case] = []
    problems: list[str] = []
    named: dict[str, Path] = {}  # each case's id, and the file that gave it first
    caps = replace(limits, digits=ANSWER_DIGITS)
    for path in sorted(paths):
        try:
            data = parse_text(read_file(str(path), caps), str(path), "json", limits=caps)
            wrong = _not_a_case(data) or _not_in_the_formats(data)
            first = named.setdefault(data["id"], path) if not wrong else path
            if first != path:  # the report names a case by its id: two alike, and a FAIL names neither
                wrong = f"id: the same as {first}'s (the report names each case by its id)"
            if wrong:
                problems.append(f"{path}: not a case of the suite: {wrong}")
            else:
                cases.append(Case(data["id"], data))  # named by its id, as the report and the Java runner name it
        except ScenarioError as exc:
            problems.append(exc.one_line())
        except OSError as exc:
            problems.append(f"{path}: cannot read: {exc.strerror or exc}")
    if problems:
        shown = problems[:10] + ([f"… and {len(problems) - 10} more"] if len(problems) > 10 else [])
        raise UsageError("--suite: " + "; ".join(shown))
    if not cases:
        raise UsageError(f"--suite: {folder} holds no case (*.json)")
    return cases


def _is_count(value: Any, least: int = 0) -> bool:
    return type(value) is int and value >= least


_KEYS = ("version", "id", "source", "peer_issues", "checks", "scenario", "count", "divide", "legal", "illegal")
"""A case's keys (conformance/schema.json ``properties``; ``additionalProperties`` is false)."""


def _texts(value: Any, least: int = 0) -> bool:
    return isinstance(value, list) and len(value) >= least and all(isinstance(t, str) for t in value)


def _stranger(value: dict[str, Any], keys: tuple[str, ...], place: str) -> str:
    """The first key of ``value`` (by code point) that is none of ``keys``, said at ``place``; or ""."""
    extra = sorted(k for k in value if k not in keys)
    return f"{place}{extra[0]}: a key no case has (conformance/schema.json)" if extra else ""


def _not_a_case(data: Any) -> str:
    """What of conformance/schema.json ``data`` breaks, at its place, or "": the whole case read
    strictly, as the Java runner reads it (clients/java/ConformanceRunner.java ``notACase``, the same
    words). tests/test_conformance.py holds it to the schema on generated cases."""
    if not isinstance(data, dict):
        return "a case is an object"
    if wrong := _stranger(data, _KEYS, ""):
        return wrong
    if data.get("version") != "1":
        return 'version: "1" (the case format\'s version)'
    if not isinstance(data.get("id"), str) or not data["id"]:
        return "id: a string (the case's name in the report)"
    if not isinstance(data.get("source"), str) or not data["source"]:
        return "source: a text (what the case restates)"
    if "peer_issues" in data and not _texts(data["peer_issues"]):
        return "peer_issues: a list of texts"
    if not _texts(data.get("checks"), 1):
        return "checks: a list of the rules checked, at least one"
    if not isinstance(data.get("scenario"), dict):
        return "scenario: an object"
    if not _is_count(data.get("count")):
        return "count: a whole number"
    divide = data.get("divide")
    if not isinstance(divide, list):
        return "divide: a list of {first: entry or null, count: N}"
    for i, d in enumerate(divide):
        if isinstance(d, dict) and (wrong := _stranger(d, ("first", "count"), f"divide[{i}].")):
            return wrong
        if not (isinstance(d, dict) and (d.get("first") is None or isinstance(d["first"], dict)) and "first" in d):
            return "divide: a list of {first: entry or null, count: N}"
        if not _is_count(d.get("count"), 1):
            return f"divide[{i}].count: a whole number, at least 1"
    if not isinstance(data.get("legal"), list) or not all(isinstance(p, dict) for p in data["legal"]):
        return "legal: a list of proposals"
    illegal = data.get("illegal")
    if not isinstance(illegal, list):
        return "illegal: a list of {proposal, codes, rules}"
    for i, w in enumerate(illegal):
        if isinstance(w, dict) and (wrong := _stranger(w, ("proposal", "codes", "rules"), f"illegal[{i}].")):
            return wrong
        if not (isinstance(w, dict) and isinstance(w.get("proposal"), dict) and _texts(w.get("codes"), 1)):
            return "illegal: a list of {proposal, codes, rules}"
        if not _texts(w.get("rules")):
            return f"illegal[{i}].rules: a list of texts"
    return ""


def _not_in_the_formats(case: dict[str, Any]) -> str:
    """What of a case of the right shape its formats refuse, at its place, or "": the scenario by the
    scenario format, each proposal and each divide's first entry by the outcome format
    (docs/conformance.md: "``scenario`` is in the scenario format and every proposal in the outcome
    format") — read here, by this tool's own readers, so that a malformed case is bad suite input
    (exit 2 naming it), never an engine's FAIL for refusing what the suite got wrong."""
    from triggerstack.model._outcome import parse_outcome
    from triggerstack.model._scenario import Scenario, read_document

    documents: list[tuple[tuple[str | int, ...], Callable[[Any], object], Any]] = [
        (("scenario",), lambda d: read_document(Scenario, d), case["scenario"])
    ]
    for i, d in enumerate(case["divide"]):
        if d["first"] is not None:
            documents.append((("divide", i, "first"), lambda e: read_document(Entry, e), d["first"]))
    documents += [(("legal", i), parse_outcome, p) for i, p in enumerate(case["legal"])]
    documents += [(("illegal", i, "proposal"), parse_outcome, w["proposal"]) for i, w in enumerate(case["illegal"])]
    for place, read, document in documents:
        try:
            read(document)
        except ScenarioError as exc:
            return exc.within(*place).one_line()
    return ""


@dataclass
class Result:
    case: str
    passed: bool
    difference: str = ""


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)
    divide_supported: bool = True
    noise: list[str] = field(default_factory=list)  # lines the engine wrote that answered no request

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.passed]

    def lines(self) -> Iterator[str]:
        for r in self.results:
            yield f"{'pass' if r.passed else 'FAIL'} {r.case}" + (f": {r.difference}" if r.difference else "")
        passed = len(self.results) - len(self.failed)
        if self.noise:
            first = self.noise[0]
            yield f"the engine wrote {len(self.noise)} line(s) that answer no request (skipped); the first: {first}"
        note = "" if self.divide_supported else " (the engine has no divide: counts compared whole)"
        yield f"{passed} of {len(self.results)} cases pass{note}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": len(self.results),
            "passed": len(self.results) - len(self.failed),
            "divide": self.divide_supported,
            "noise": {"lines": len(self.noise), "first": self.noise[0] if self.noise else None},
            "results": [
                {"case": r.case, "passed": r.passed, **({"difference": r.difference} if r.difference else {})}
                for r in self.results
            ],
        }


def _whole(value: Any, what: str) -> int:
    """``value`` as a count (:func:`whole_number`: an integer, or a whole-number float below 2^53).
    Anything else — ``2.5``, ``"2"``, ``true``, a float of 2^53 or more (which cannot say which
    integer it means) — is :class:`_Wrong` saying which ``what`` and why."""
    n = whole_number(value)
    if n is not None:
        return n
    shown = _shown(value.text if isinstance(value, Inexact) else json.dumps(value))  # as written
    if isinstance(value, float) and (exact_whole(value) is not None or _whole_past_floats(value)):
        raise _Wrong(f"{what} {shown} is a float of 2^53 or more, which is not an exact count: write it as an integer")
    raise _Wrong(f"{what} {shown} is not a whole number")


def _whole_past_floats(value: float) -> bool:
    """A number past the floats whose text is a whole number (``1e400``, ``-2.5e400``): a float of
    2^53 or more as docs/conformance.md says, decided by its text (never made an integer: ``1e999999999``
    would be a billion digits)."""
    if not (isinstance(value, Inexact) and math.isinf(value)):
        return False
    exact = Decimal(value.text)
    return exact.is_finite() and exact == exact.to_integral_value()


class _Wrong(Exception):
    """An answer of the wrong shape: the case fails saying what was wrong."""


def _entry(value: Any) -> Entry | None:
    """A divide's first entry as a value (docs/formats.md: equal as values — targets a set, modes
    a multiset, whole-number floats as integers); None for nothing on the stack."""
    if value is None:
        return None
    try:
        return Entry.model_validate(value)
    except ValidationError:
        raise _Wrong(f"a divide's first entry that is not a stack entry: {_shown(json.dumps(value))}") from None


def _divide(answer: Any) -> dict[Entry | None, int]:
    """An engine's divide, each first entry once, as values."""
    if not isinstance(answer, list):
        raise _Wrong(f"divide is not a list: {_shown(json.dumps(answer))}")
    out: dict[Entry | None, int] = {}
    for d in answer:
        if not isinstance(d, dict) or set(d) - {"first", "count"} or "count" not in d:
            raise _Wrong(f"a divide entry is {{first, count}}, not {_shown(json.dumps(d))}")
        first, n = _entry(d.get("first")), _whole(d["count"], "a divide count")
        if first in out:
            raise _Wrong(f"the divide lists the first entry {_shown(json.dumps(d.get('first')))} twice")
        out[first] = n
    return out


def _first_difference(expected: dict[Entry | None, int], got: dict[Entry | None, int]) -> str:
    """Where two divides part: the first entry (in the suite's order) whose count differs."""
    for first, n in expected.items():
        if got.get(first) != n:
            said = got.get(first, 0)
            shown = "nothing on the stack" if first is None else _entry_text(first)
            return f"under the first entry {shown}: the engine counts {count_text(said)}, the suite {count_text(n)}"
    extra = next((k for k in got if k not in expected), None)
    if extra is None:
        return "the divides agree"
    return f"the engine has a first entry the suite does not: {_entry_text(extra)}"


def _entry_text(entry: Entry) -> str:
    return _shown(json.dumps(entry.model_dump(exclude_defaults=True), separators=(",", ":")))


def _verdict(answer: Any) -> tuple[bool, set[str]]:
    """A check's answer: legal (true or false, nothing else) and the codes it names — each
    violation's ``code``, a string; a violation without one (or with null) names none."""
    if not isinstance(answer, dict) or type(answer.get("legal")) is not bool:
        raise _Wrong(f"a verdict is {{legal: true or false, violations: [...]}}, not {_shown(json.dumps(answer))}")
    violations = answer.get("violations", [])
    if not isinstance(violations, list) or not all(isinstance(v, dict) for v in violations):
        raise _Wrong(f"violations is not a list of objects: {_shown(json.dumps(violations))}")
    codes = [v.get("code") for v in violations if v.get("code") is not None]
    if not all(isinstance(c, str) and c for c in codes):
        wrong = next(c for c in codes if not (isinstance(c, str) and c))
        raise _Wrong(f"a violation's code is the name of a code, not {_shown(json.dumps(wrong))}")
    return answer["legal"], set(codes)


def _asked(engine: Engine, method: str, params: dict[str, Any]) -> Any:
    """``engine``'s answer to ``method``, as JSON data within the limits a line of an engine is read
    by (:data:`~._lines.LIMITS`): what a process engine writes is read from its line so
    (:meth:`Lines.call`); a Python engine's — any object with ``call`` and ``close``, the
    :class:`Engine` protocol — is held here to the same. A value holding itself, a set, bytes, nan,
    more values or bytes than a line holds is the case's failure naming its place, never the
    runner's crash (the report said a wrong answer by ``json.dumps`` of it: "Circular reference
    detected", "Object of type set is not JSON serializable"), nor a value dumped whole to be cut."""
    answer = engine.call(method, params)
    if isinstance(engine, Lines):
        return answer
    try:
        check_data(answer, f"the answer to {method}", LIMITS)
    except ScenarioError as exc:
        raise Failure(f"not JSON data within the limits of a line: {exc.one_line()}") from None
    if (size := _text_size(answer)) > LIMITS.bytes:
        raise Failure(f"more text than a line holds: {size} characters, more than {LIMITS.bytes} bytes")
    if said := _not_text_keys(answer):
        raise Failure(f"not JSON data: {said}")
    return answer


def _containers_of(value: Any) -> Iterator[Any]:
    """Every list and mapping of ``value``, a tree within the values cap (:func:`check_data` passed)."""
    stack = [value]
    while stack:
        here = stack.pop()
        if isinstance(here, dict | list | tuple):
            yield here
            stack.extend(here.values() if isinstance(here, dict) else here)


def _text_size(value: Any) -> int:
    """The characters of every text of ``value`` (keys too): at most the bytes its JSON line has."""
    size = len(value) if isinstance(value, str) else 0
    for c in _containers_of(value):
        items = [*c, *c.values()] if isinstance(c, dict) else c
        size += sum(len(v) for v in items if isinstance(v, str))
    return size


def _not_text_keys(value: Any) -> str:
    """A mapping's key that is not text, said (JSON's keys are text), or ""."""
    for c in _containers_of(value):
        if isinstance(c, dict) and (key := next((k for k in c if not isinstance(k, str)), None)) is not None:
            return f"a mapping's key is text, not {found(key)}"
    return ""


def _run_case(engine: Engine, case: Case, report: Report) -> Result:
    data = case.data
    handle: Any = None
    try:
        loaded = _asked(engine, "load", {"scenario": data["scenario"]})
        handle = loaded.get("handle") if isinstance(loaded, dict) else None
        if not isinstance(handle, str):
            return Result(case.id, False, f"load: no handle in {_shown(json.dumps(loaded))}")
    except Failure as exc:
        return Result(case.id, False, f"load: {exc}")
    try:
        divide = None
        if report.divide_supported:
            try:
                answer = _asked(engine, "count", {"handle": handle, "divide": True})
                if isinstance(answer, dict) and answer.get("divide") is not None:
                    divide = _divide(answer["divide"])
            except Failure as exc:
                if exc.code not in (-32601, -32602):
                    raise
                report.divide_supported = False
                answer = _asked(engine, "count", {"handle": handle})
        else:
            answer = _asked(engine, "count", {"handle": handle})
        raw = answer.get("count") if isinstance(answer, dict) else answer
        got = _whole(raw, "count")
        expected = {_entry(d["first"]): d["count"] for d in data["divide"]}
        if got != data["count"]:
            where = _first_difference(expected, divide) if divide is not None else "no divide to say where"
            return Result(case.id, False, f"count {count_text(got)}, the suite {count_text(data['count'])}; {where}")
        if divide is not None and divide != expected:
            parted = _first_difference(expected, divide)
            return Result(case.id, False, f"the counts agree, the divides do not: {parted}")
        for i, proposal in enumerate(data["legal"], 1):
            legal, codes = _verdict(_asked(engine, "check", {"handle": handle, "proposal": proposal}))
            if not legal:
                return Result(case.id, False, f"legal proposal {i} judged illegal ({', '.join(sorted(codes))})")
        for i, wrong in enumerate(data["illegal"], 1):
            legal, said = _verdict(_asked(engine, "check", {"handle": handle, "proposal": wrong["proposal"]}))
            if legal:
                return Result(
                    case.id, False, f"illegal proposal {i} judged legal (it breaks {', '.join(wrong['codes'])})"
                )
            if said and said != set(wrong["codes"]):
                theirs, ours = ", ".join(sorted(said)), ", ".join(sorted(wrong["codes"]))
                return Result(case.id, False, f"illegal proposal {i}: the engine names {theirs}, the suite {ours}")
        return Result(case.id, True)
    except (Failure, _Wrong) as exc:
        return Result(case.id, False, str(exc))
    finally:
        with contextlib.suppress(Failure):  # an engine without unload keeps its scenarios: the protocol allows it
            _asked(engine, "unload", {"handle": handle})


def run(engine: Engine, cases: list[Case]) -> Report:
    """Every case put to ``engine``, in order."""
    report = Report()
    for case in cases:
        report.results.append(_run_case(engine, case, report))
    report.noise = list(getattr(engine, "noise", ()))
    return report
