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
import queue
import shlex
import subprocess
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from triggerstack.model.errors import UsageError
from triggerstack.model.limits import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT

__all__ = ["Case", "Engine", "Failure", "ProcessEngine", "Report", "SelfEngine", "default_suite", "load_suite", "run"]


class Failure(Exception):
    """An engine's JSON-RPC error, or an answer the protocol does not allow."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


class Engine(Protocol):
    def call(self, method: str, params: dict[str, Any]) -> Any: ...

    def close(self) -> None: ...


class _Lines:
    """JSON-RPC over lines: ``call`` writes a request and reads its answer."""

    def __init__(self) -> None:
        self._id = 0

    def _exchange(self, line: str) -> str:
        raise NotImplementedError

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self._id += 1
        request = json.dumps({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params})
        answer = json.loads(self._exchange(request))
        if "error" in answer:
            error = answer["error"]
            raise Failure(str(error.get("message")), error.get("code"))
        if answer.get("id") != self._id or "result" not in answer:
            raise Failure(f"not an answer to request {self._id}: {str(answer)[:200]}")
        return answer["result"]


class SelfEngine(_Lines):
    """This tool, in this process: the same protocol, no process in between."""

    def __init__(self) -> None:
        super().__init__()
        from ..serve.rpc import Service

        self.service = Service()

    def _exchange(self, line: str) -> str:
        return self.service.handle(line) or ""

    def close(self) -> None:
        pass


class ProcessEngine(_Lines):
    """An engine started from a command line, spoken to on its standard input and output. Each
    answer must come within ``seconds`` and hold at most ``max_bytes``; an engine that is silent
    longer, or writes more, is stopped and the case fails saying so (the runner is bounded whatever
    the engine does)."""

    def __init__(
        self, command: str | Sequence[str], seconds: float = DEFAULT_TIME_LIMIT, max_bytes: int = DEFAULT_LIMITS.bytes
    ) -> None:
        super().__init__()
        self.seconds = seconds
        self.max_bytes = max_bytes
        self._answers: queue.Queue[str] = queue.Queue()
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise UsageError("--engine: give the command that starts the engine under test")
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1
            )
        except OSError as exc:
            raise UsageError(f"--engine: cannot start {argv[0]!r}: {exc.strerror or exc}") from None
        self._ended = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        """Each line the engine writes, as it comes ("" once it has ended)."""
        assert self.process.stdout is not None
        with contextlib.suppress(OSError, ValueError):  # its output closed under us
            while line := self.process.stdout.readline(self.max_bytes + 1):
                self._answers.put(line)
        self._answers.put("")

    def _exchange(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        if self._ended:  # stopped or ended before: every later question fails at once, whatever the load
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(1)  # its exit status, once the kill has landed
            raise Failure(f"the engine ended (exit {self.process.poll()})")
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except OSError as exc:
            raise Failure(f"the engine stopped reading: {exc}") from None
        try:
            answer = self._answers.get(timeout=self.seconds)
        except queue.Empty:
            self._ended = True
            self.process.kill()
            raise Failure(f"no answer within {self.seconds:g} s (the engine was stopped)") from None
        if len(answer) > self.max_bytes:
            self._ended = True
            self.process.kill()
            raise Failure(f"an answer of more than {self.max_bytes} bytes (the engine was stopped)")
        if not answer:
            self._ended = True
            raise Failure(f"the engine ended (exit {self.process.poll()})")
        return answer

    def close(self) -> None:
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # an engine that already ended
                self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


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


def load_suite(folder: Path) -> list[Case]:
    if not folder.is_dir():
        raise UsageError(f"--suite: {folder} is not a folder of cases")
    cases = [
        Case(str(p.relative_to(folder).with_suffix("")), json.loads(p.read_text(encoding="utf-8")))
        for p in sorted(folder.rglob("*.json"))
    ]
    if not cases:
        raise UsageError(f"--suite: {folder} holds no case (*.json)")
    return cases


@dataclass
class Result:
    case: str
    passed: bool
    difference: str = ""


@dataclass
class Report:
    results: list[Result] = field(default_factory=list)
    divide_supported: bool = True

    @property
    def failed(self) -> list[Result]:
        return [r for r in self.results if not r.passed]

    def lines(self) -> Iterator[str]:
        for r in self.results:
            yield f"{'pass' if r.passed else 'FAIL'} {r.case}" + (f": {r.difference}" if r.difference else "")
        passed = len(self.results) - len(self.failed)
        note = "" if self.divide_supported else " (the engine has no divide: counts compared whole)"
        yield f"{passed} of {len(self.results)} cases pass{note}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "cases": len(self.results),
            "passed": len(self.results) - len(self.failed),
            "divide": self.divide_supported,
            "results": [
                {"case": r.case, "passed": r.passed, **({"difference": r.difference} if r.difference else {})}
                for r in self.results
            ],
        }


def _key(entry: Any) -> str:
    return json.dumps(entry, sort_keys=True, separators=(",", ":"))


def _first_difference(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> str:
    """Where two divides part: the first entry (in the suite's order) whose count differs."""
    theirs = {_key(d.get("first")): int(d["count"]) for d in got}
    for d in expected:
        k = _key(d["first"])
        if theirs.get(k) != int(d["count"]):
            said = theirs.get(k, 0)
            shown = "nothing on the stack" if d["first"] is None else k
            return f"under the first entry {shown}: the engine counts {said}, the suite {d['count']}"
    ours = {_key(d["first"]) for d in expected}
    extra = next((k for k in theirs if k not in ours), None)
    return f"the engine has a first entry the suite does not: {extra}" if extra else "the divides agree"


def _run_case(engine: Engine, case: Case, report: Report) -> Result:
    data = case.data
    try:
        handle = engine.call("load", {"scenario": data["scenario"]})["handle"]
    except (Failure, KeyError, TypeError) as exc:
        return Result(case.id, False, f"load: {exc}")
    try:
        divide = None
        if report.divide_supported:
            try:
                answer = engine.call("count", {"handle": handle, "divide": True})
                divide = answer.get("divide")
            except Failure as exc:
                if exc.code not in (-32601, -32602):
                    raise
                report.divide_supported = False
                answer = engine.call("count", {"handle": handle})
        else:
            answer = engine.call("count", {"handle": handle})
        got = int(answer["count"])
        if got != int(data["count"]):
            where = _first_difference(data["divide"], divide) if divide is not None else "no divide to say where"
            return Result(case.id, False, f"count {got}, the suite {data['count']}; {where}")
        if divide is not None and {_key(d.get("first")): int(d["count"]) for d in divide} != {
            _key(d["first"]): int(d["count"]) for d in data["divide"]
        }:
            return Result(
                case.id, False, f"the counts agree, the divides do not: {_first_difference(data['divide'], divide)}"
            )
        for i, proposal in enumerate(data["legal"]):
            verdict = engine.call("check", {"handle": handle, "proposal": proposal})
            if not verdict.get("legal"):
                codes = sorted({v.get("code") for v in verdict.get("violations", ())})
                return Result(case.id, False, f"legal proposal {i} judged illegal ({', '.join(map(str, codes))})")
        for i, wrong in enumerate(data["illegal"]):
            verdict = engine.call("check", {"handle": handle, "proposal": wrong["proposal"]})
            if verdict.get("legal"):
                return Result(
                    case.id, False, f"illegal proposal {i} judged legal (it breaks {', '.join(wrong['codes'])})"
                )
            said = {str(v.get("code")) for v in verdict.get("violations", ()) if v.get("code")}
            if said and said != set(wrong["codes"]):
                return Result(case.id, False, f"illegal proposal {i}: codes {sorted(said)}, the suite {wrong['codes']}")
        return Result(case.id, True)
    except (Failure, KeyError, TypeError, ValueError) as exc:
        return Result(case.id, False, f"{type(exc).__name__}: {exc}")
    finally:
        with contextlib.suppress(Failure):  # an engine without unload keeps its scenarios: the protocol allows it
            engine.call("unload", {"handle": handle})


def run(engine: Engine, cases: list[Case]) -> Report:
    """Every case put to ``engine``, in order."""
    report = Report()
    for case in cases:
        report.results.append(_run_case(engine, case, report))
    return report
