"""JSON-RPC over lines, as the conformance runner reads an engine (docs/conformance.md, "How answers
are compared"): a request written, lines read until the one that answers it, every other line
skipped and noted as noise in the words both runners print (clients/java/ConformanceRunner.java
says the same), numbers read as values — the id ``1.0`` is the id 1, as a count ``2.0`` is 2."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from triggerstack.model._errors import PastLimit, ScenarioError
from triggerstack.model._io import parse_json_line
from triggerstack.model._limits import DEFAULT_LIMITS, seconds_of
from triggerstack.model._numbers import SAID, exact_whole, int_said
from triggerstack.model._text import visible


class Failure(Exception):
    """An engine's JSON-RPC error, or an answer the protocol does not allow."""

    def __init__(self, message: str, code: int | None = None) -> None:
        super().__init__(message)
        self.code = code


ANSWER_DIGITS = 20_000
"""The most digits of an integer in an engine's answer or a case file (a count of the suite has at
most a few dozen): a longer one is refused before it is converted, so no number can take the
runner's time (Python's own guard is lifted for exact counts)."""
LIMITS = replace(DEFAULT_LIMITS, digits=ANSWER_DIGITS)
NOISE_SHOWN = 120
"""The characters of a line that answers no request shown in the report."""
EXACT_FLOAT = 2**53
"""Below this every whole number is a float of its own; at and above it a float stands for several
integers (19! + 1 is written as 19!), so a float there says no exact count."""
BOM = b"\xef\xbb\xbf"
"""A byte order mark, which some writers (.NET's UTF-8 console) put before their first line: ignored there."""


def whole_number(value: Any) -> int | None:
    """``value`` as a whole number — an integer, or a float with no fraction below 2^53 (``2.0``:
    JSON writers in Java and JavaScript write it so) — or None. How the runner reads every number
    it compares: a count, an id, an error's code."""
    if type(value) is int:
        return value
    n = exact_whole(value) if isinstance(value, float) else None  # as written: 1.0000000000000001 is none
    return n if n is not None and abs(n) < EXACT_FLOAT else None


COUNT_SHOWN = SAID
"""The most digits of a count a report writes whole; a longer one is its first digits and its length."""


def count_text(n: int) -> str:
    """A count as a report line writes it: whole up to :data:`COUNT_SHOWN` digits, else its first
    20 digits and how many it has (``12345678901234567890… (20000 digits)``) — every count a FAIL
    line names, the engine's and the suite's, so that no line is longer for a number's size. The
    Java runner's ``countText``; every sentence's integer (model/_numbers.py ``int_said``)."""
    return int_said(n)


def shown(text: str) -> str:
    """``text`` as a report shows it: cut at :data:`NOISE_SHOWN` characters, each that would not
    show as itself written as its JSON escape."""
    return visible(text if len(text) <= NOISE_SHOWN else text[:NOISE_SHOWN] + "…")


def seconds_text(seconds: float) -> str:
    """A time limit as the reports write it: its decimal digits, no exponent (``0.5``, ``60``)."""
    return format(Decimal(str(float(seconds))).normalize(), "f")


def exit_text(code: int) -> str:
    """An engine's exit status as a shell says it: a signal N is 128 + N (Python says -N)."""
    return f"the engine ended (exit {128 - code if code < 0 else code})"


def _unread(exc: ScenarioError) -> str:
    """Why a line is not JSON the runner reads, in the words both runners use (docs/conformance.md):
    an integer past the digits, nesting past the depth, or malformed (anything else a strict JSON
    reader refuses: a duplicate key, NaN, a lone surrogate, too many values)."""
    if isinstance(exc, PastLimit) and exc.limit == "digits":
        return f"an integer of more than {ANSWER_DIGITS} digits"
    if isinstance(exc, PastLimit) and exc.limit == "depth":
        return f"nested deeper than {LIMITS.depth}"
    return "malformed"


@dataclass(frozen=True)
class Undecoded:
    """A line that is not UTF-8: where it stops being so, and the line with each byte that is not
    written as ``\\xNN`` (its line end left out), as the report shows it."""

    at: int
    text: str


def _error(answer: dict[str, Any]) -> Failure:
    """An answer's ``error``: its message (text, or the whole error as JSON when its message is
    not text) and its code read as a whole number."""
    error = answer["error"]
    if not isinstance(error, dict):
        return Failure(f"an error that is not an object: {shown(json.dumps(error))}")
    message = error.get("message")
    said = message if isinstance(message, str) else f"an error with no message text: {json.dumps(error)}"
    return Failure(shown(said), whole_number(error.get("code")))


class Lines:
    """JSON-RPC over lines: ``call`` writes a request and reads lines until its answer (the one
    with its id), within ``seconds`` for the whole call; a line that is not that answer — a log
    line, another id, not JSON, not UTF-8 — is noted (:attr:`noise`) and skipped."""

    def __init__(self, seconds: float | None) -> None:
        self._id = 0
        self._noise_at = 0
        self.seconds = seconds_of(seconds, "seconds")  # as every door reads a time limit: nan never ends
        self.noise: list[str] = []  # what each line that answered no request was, as the report shows it

    def _send(self, line: str) -> None:
        raise NotImplementedError

    def _next(self, timeout: float | None) -> str | Undecoded:
        raise NotImplementedError

    def call(self, method: str, params: dict[str, Any]) -> Any:
        self._id += 1
        self._noise_at = len(self.noise)  # what this call skipped is said if it gets no answer
        self._send(json.dumps({"jsonrpc": "2.0", "id": self._id, "method": method, "params": params}))
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            line = self._next(left)
            if isinstance(line, Undecoded):
                self.noise.append(f"not UTF-8 (byte {line.at}): {shown(line.text)}")
                continue
            line = line.rstrip("\r\n")
            try:
                answer = parse_json_line(line, LIMITS, written=True)  # 1e400 as written: compared, not computed
            except ScenarioError as exc:
                self.noise.append(f"not JSON the runner reads ({_unread(exc)}): {shown(line)}")
                continue
            ident = answer.get("id") if isinstance(answer, dict) else None
            if whole_number(ident) != self._id:
                self.noise.append(f"not the answer to request {self._id}: {shown(line)}")
                continue
            if "error" in answer:
                raise _error(answer)
            if "result" not in answer:
                raise Failure(f"an answer with neither result nor error: {shown(line)}")
            return answer["result"]
