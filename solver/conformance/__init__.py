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
import os
import queue
import secrets
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from pydantic import ValidationError
from triggerstack.model._errors import PastLimit, ScenarioError, UsageError
from triggerstack.model._io import parse_json_line, parse_text, read_file
from triggerstack.model._limits import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT, Limits
from triggerstack.model._outcome import Entry
from triggerstack.model._text import visible

__all__ = ["Case", "Engine", "Failure", "ProcessEngine", "Report", "SelfEngine", "default_suite", "load_suite", "run"]


class Failure(Exception):
    """An engine's JSON-RPC error, or an answer the protocol does not allow."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


ANSWER_DIGITS = 20_000
"""The most digits of an integer in an engine's answer or a case file (a count of the suite has at
most a few dozen): a longer one is refused before it is converted, so no number can take the
runner's time (Python's own guard is lifted for exact counts)."""
_LIMITS = replace(DEFAULT_LIMITS, digits=ANSWER_DIGITS)
NOISE_SHOWN = 120
"""The characters of a line that answers no request shown in the report."""


def _unread(exc: ScenarioError) -> str:
    """Why a line is not JSON the runner reads, in the words both runners use (docs/conformance.md):
    an integer past the digits, nesting past the depth, or malformed (anything else a strict JSON
    reader refuses: a duplicate key, NaN, a lone surrogate, too many values)."""
    said = str(exc)
    if isinstance(exc, PastLimit) and "digits" in said:
        return f"an integer of more than {ANSWER_DIGITS} digits"
    if isinstance(exc, PastLimit) and "nest" in said:
        return f"nested deeper than {_LIMITS.depth}"
    return "malformed"


@dataclass(frozen=True)
class _Undecoded:
    """A line that is not UTF-8: where it stops being so, and the line with each byte that is not
    written as ``\\xNN`` (its line end left out), as the report shows it."""

    at: int
    text: str


class Engine(Protocol):
    def call(self, method: str, params: dict[str, Any]) -> Any: ...

    def close(self) -> None: ...


def _shown(text: str) -> str:
    return visible(text if len(text) <= NOISE_SHOWN else text[:NOISE_SHOWN] + "…")


class _Lines:
    """JSON-RPC over lines: ``call`` writes a request and reads lines until its answer (the one
    with its id), within ``seconds`` for the whole call; a line that is not that answer — a log
    line, another id, not JSON, not UTF-8 — is noted (:attr:`noise`) and skipped."""

    def __init__(self, seconds: float | None) -> None:
        self._id = 0
        self._noise_at = 0
        self.seconds = seconds
        self.noise: list[str] = []  # what each line that answered no request was, as the report shows it

    def _send(self, line: str) -> None:
        raise NotImplementedError

    def _next(self, timeout: float | None) -> str | _Undecoded:
        raise NotImplementedError

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self._id += 1
        self._noise_at = len(self.noise)  # what this call skipped is said if it gets no answer
        self._send(json.dumps({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params}))
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self._next(left)
            if isinstance(line, _Undecoded):
                self.noise.append(f"not UTF-8 (byte {line.at}): {_shown(line.text)}")
                continue
            line = line.rstrip("\r\n")
            try:
                answer = parse_json_line(line, _LIMITS)
            except ScenarioError as exc:
                self.noise.append(f"not JSON the runner reads ({_unread(exc)}): {_shown(line)}")
                continue
            ident = answer.get("id") if isinstance(answer, dict) else None
            if type(ident) is not int or ident != self._id:
                self.noise.append(f"not the answer to request {self._id}: {_shown(line)}")
                continue
            if "error" in answer:
                error = answer["error"]
                if not isinstance(error, dict):
                    raise Failure(f"an error that is not an object: {_shown(json.dumps(error))}")
                code = error.get("code")
                raise Failure(_shown(str(error.get("message"))), code if type(code) is int else None)
            if "result" not in answer:
                raise Failure(f"an answer with neither result nor error: {_shown(line)}")
            return answer["result"]


class SelfEngine(_Lines):
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

    def _next(self, timeout: float | None) -> str | _Undecoded:  # noqa: ARG002 - the service keeps its own time
        answer, self._answer = self._answer, None
        if answer is None:
            raise Failure("no answer")
        return answer

    def close(self) -> None:
        pass


_END = b""
_TOO_LONG = object()


class ProcessEngine(_Lines):
    """An engine started from a command line, spoken to on its standard input and output, in a
    process group of its own. Each call must be answered within ``seconds`` and each line hold at
    most ``max_bytes``; an engine that is silent longer, writes a longer line, or does not read
    what it is sent is stopped — with every process it started — and the case fails saying so. Its
    output is read line by line into a short queue, so an engine that floods it waits on its pipe
    instead of filling the runner's memory (the runner is bounded whatever the engine does)."""

    def __init__(
        self, command: str | Sequence[str], seconds: float = DEFAULT_TIME_LIMIT, max_bytes: int = DEFAULT_LIMITS.bytes
    ) -> None:
        super().__init__(seconds)
        self.max_bytes = max_bytes
        self._lines: queue.Queue[bytes | object] = queue.Queue(maxsize=16)
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        self._mark = secrets.token_hex(12)  # this run's, in the environment of all it starts
        if not argv:
            raise UsageError("--engine: give the command that starts the engine under test")
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
                env={**os.environ, RUN_MARK: self._mark},
            )
        except OSError as exc:
            raise UsageError(f"--engine: cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        self._ended: str | None = None  # why every later question fails at once
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Each line the engine writes, as it comes (``_END`` once it has ended)."""
        assert self.process.stdout is not None
        with contextlib.suppress(OSError, ValueError):  # its output closed under us
            while line := self.process.stdout.readline(self.max_bytes + 1):
                if len(line) > self.max_bytes:
                    self._lines.put(_TOO_LONG)
                    return
                self._lines.put(line)
        self._lines.put(_END)

    def _stop(self, why: str) -> Failure:
        """Stop the engine and everything it started; the failure that says why."""
        self._ended = f"the engine was stopped: {why}"
        self._kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        return Failure(f"{why} (the engine was stopped)")

    def _kill(self) -> None:
        """SIGKILL the engine's session and process group, every process it started that left them
        (``setsid``) while its parent still lives, and every process that carries this run's mark in
        its environment — a helper that double-forked and left the session, its parent gone, is
        found so — all through /proc, before the group goes."""
        alive = self.process.poll() is None  # its pid is its own until it is waited for
        pids = [*_descendants(self.process.pid), *([self.process.pid] if alive else []), *_marked(self._mark)]
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def _send(self, line: str) -> None:
        if self._ended is not None:  # stopped or ended before: every later question fails at once
            raise Failure(self._ended)
        data = (line + "\n").encode("utf-8")
        failed: list[OSError] = []

        def write() -> None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write(data)
                self.process.stdin.flush()
            except OSError as exc:
                failed.append(exc)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        writer.join(self.seconds)
        if writer.is_alive():
            raise self._stop(f"it did not read its input within {self.seconds:g} s")
        if failed:  # its input closed: it ended (said so, as when its output ends), or closed it and lives on
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(1)
            if self.process.poll() is not None:
                self._ended = f"the engine ended (exit {self.process.poll()})"
                raise Failure(self._ended)
            raise self._stop("it stopped reading its input")

    def _next(self, timeout: float | None) -> str | _Undecoded:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            last = f"; its last line was {self.noise[-1]}" if len(self.noise) > self._noise_at else ""
            raise self._stop(f"no answer within {self.seconds:g} s{last}") from None
        if line is _TOO_LONG:
            raise self._stop(f"an answer of more than {self.max_bytes} bytes")
        assert isinstance(line, bytes)
        if line == _END:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(1)  # its exit status, once it has ended
            self._ended = f"the engine ended (exit {self.process.poll()})"
            raise Failure(self._ended)
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError as exc:  # noted as noise, never JSON
            return _Undecoded(exc.start, line.rstrip(b"\r\n").decode("utf-8", "backslashreplace"))

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # an engine that already ended
                self.process.stdin.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self._kill()  # whatever it started and left running goes with it
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        if self.process.stdout is not None:
            with contextlib.suppress(OSError):
                self.process.stdout.close()


RUN_MARK = "TRIGGERSTACK_CONFORMANCE_RUN"
"""The variable of an engine's environment that names its run: inherited by every process it starts,
forked or exec'd, in its session or out of it."""


def _marked(mark: str) -> list[int]:
    """Every process (of ours: /proc lets us read only those) whose environment says ``mark`` — what
    an engine started, however far it went (Linux; none elsewhere)."""
    needle = f"{RUN_MARK}={mark}".encode()
    found = []
    me = os.getpid()
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == me:
                continue
            with contextlib.suppress(OSError), open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.append(int(entry.name))
    return found


def _descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid`` (Linux's /proc children lists; none elsewhere)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        here = todo.pop()
        try:
            tasks = list(Path(f"/proc/{here}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                kids = [int(k) for k in (task / "children").read_text().split()]
                found.extend(kids)
                todo.extend(kids)
    return found


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
    paths: list[Path] = []
    for root, dirs, files in os.walk(folder, onerror=None, followlinks=False):
        dirs.sort()
        paths.extend(Path(root) / f for f in sorted(files) if f.endswith(".json"))
    cases: list[Case] = []
    problems: list[str] = []
    caps = replace(limits, digits=ANSWER_DIGITS)
    for path in sorted(paths):
        try:
            data = parse_text(read_file(str(path), caps), str(path), "json", limits=caps)
            wrong = _not_a_case(data)
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


def _is_count(value: Any) -> bool:
    return type(value) is int and value >= 0


def _not_a_case(data: Any) -> str:
    """What of the shape the runner reads ``data`` lacks (conformance/schema.json), or ""."""
    if not isinstance(data, dict):
        return "a case is an object"
    if not isinstance(data.get("id"), str) or not data["id"]:
        return "id: a string (the case's name in the report)"
    if not isinstance(data.get("scenario"), dict):
        return "scenario: an object"
    if not _is_count(data.get("count")):
        return "count: a whole number"
    divide = data.get("divide")
    if not isinstance(divide, list) or not all(
        isinstance(d, dict) and (d.get("first") is None or isinstance(d["first"], dict)) and _is_count(d.get("count"))
        for d in divide
    ):
        return "divide: a list of {first: entry or null, count: N}"
    if not isinstance(data.get("legal"), list) or not all(isinstance(p, dict) for p in data["legal"]):
        return "legal: a list of proposals"
    illegal = data.get("illegal")
    if not isinstance(illegal, list) or not all(
        isinstance(w, dict)
        and isinstance(w.get("proposal"), dict)
        and isinstance(w.get("codes"), list)
        and all(isinstance(c, str) for c in w["codes"])
        for w in illegal
    ):
        return "illegal: a list of {proposal, codes}"
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


EXACT_FLOAT = 2**53
"""Below this every whole number is a float of its own; at and above it a float stands for several
integers (19! + 1 is written as 19!), so a float there says no exact count."""


def _whole(value: Any, what: str) -> int:
    """``value`` as a count: an integer, or a whole-number float below 2^53 (``2.0``: JSON writers in
    Java and JavaScript write it so, and it is the same value). Anything else — ``2.5``, ``"2"``,
    ``true``, a float of 2^53 or more (which cannot say which integer it means) — is :class:`_Wrong`
    saying which ``what`` and why."""
    if type(value) is int:
        return value
    shown = _shown(json.dumps(value))
    if type(value) is float and value.is_integer():
        if abs(value) < EXACT_FLOAT:
            return int(value)
        raise _Wrong(f"{what} {shown} is a float of 2^53 or more, which is not an exact count: write it as an integer")
    raise _Wrong(f"{what} {shown} is not a whole number")


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
            return f"under the first entry {shown}: the engine counts {said}, the suite {n}"
    extra = next((k for k in got if k not in expected), None)
    if extra is None:
        return "the divides agree"
    return f"the engine has a first entry the suite does not: {_entry_text(extra)}"


def _entry_text(entry: Entry) -> str:
    return _shown(json.dumps(entry.model_dump(exclude_defaults=True), separators=(",", ":")))


def _verdict(answer: Any) -> tuple[bool, set[str]]:
    """A check's answer: legal (true or false, nothing else) and the codes it names."""
    if not isinstance(answer, dict) or type(answer.get("legal")) is not bool:
        raise _Wrong(f"a verdict is {{legal: true or false, violations: [...]}}, not {_shown(json.dumps(answer))}")
    violations = answer.get("violations", [])
    if not isinstance(violations, list) or not all(isinstance(v, dict) for v in violations):
        raise _Wrong(f"violations is not a list of objects: {_shown(json.dumps(violations))}")
    return answer["legal"], {str(v["code"]) for v in violations if v.get("code")}


def _run_case(engine: Engine, case: Case, report: Report) -> Result:
    data = case.data
    handle: Any = None
    try:
        loaded = engine.call("load", {"scenario": data["scenario"]})
        handle = loaded.get("handle") if isinstance(loaded, dict) else None
        if not isinstance(handle, str):
            return Result(case.id, False, f"load: no handle in {_shown(json.dumps(loaded))}")
    except Failure as exc:
        return Result(case.id, False, f"load: {exc}")
    try:
        divide = None
        if report.divide_supported:
            try:
                answer = engine.call("count", {"handle": handle, "divide": True})
                if isinstance(answer, dict) and answer.get("divide") is not None:
                    divide = _divide(answer["divide"])
            except Failure as exc:
                if exc.code not in (-32601, -32602):
                    raise
                report.divide_supported = False
                answer = engine.call("count", {"handle": handle})
        else:
            answer = engine.call("count", {"handle": handle})
        raw = answer.get("count") if isinstance(answer, dict) else answer
        got = _whole(raw, "count")
        expected = {_entry(d["first"]): d["count"] for d in data["divide"]}
        if got != data["count"]:
            where = _first_difference(expected, divide) if divide is not None else "no divide to say where"
            return Result(case.id, False, f"count {got}, the suite {data['count']}; {where}")
        if divide is not None and divide != expected:
            parted = _first_difference(expected, divide)
            return Result(case.id, False, f"the counts agree, the divides do not: {parted}")
        for i, proposal in enumerate(data["legal"], 1):
            legal, codes = _verdict(engine.call("check", {"handle": handle, "proposal": proposal}))
            if not legal:
                return Result(case.id, False, f"legal proposal {i} judged illegal ({', '.join(sorted(codes))})")
        for i, wrong in enumerate(data["illegal"], 1):
            legal, said = _verdict(engine.call("check", {"handle": handle, "proposal": wrong["proposal"]}))
            if legal:
                return Result(
                    case.id, False, f"illegal proposal {i} judged legal (it breaks {', '.join(wrong['codes'])})"
                )
            if said and said != set(wrong["codes"]):
                theirs, ours = ", ".join(sorted(said)), ", ".join(sorted(wrong["codes"]))
                return Result(case.id, False, f"illegal proposal {i}: the engine names {theirs}, the suite {ours}")
        return Result(case.id, True)
    except Failure as exc:
        return Result(case.id, False, str(exc))
    except _Wrong as exc:
        return Result(case.id, False, str(exc))
    finally:
        with contextlib.suppress(Failure):  # an engine without unload keeps its scenarios: the protocol allows it
            engine.call("unload", {"handle": handle})


def run(engine: Engine, cases: list[Case]) -> Report:
    """Every case put to ``engine``, in order."""
    report = Report()
    for case in cases:
        report.results.append(_run_case(engine, case, report))
    report.noise = list(getattr(engine, "noise", ()))
    return report
