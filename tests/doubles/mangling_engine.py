"""An engine for the conformance runners' tests: triggerstack's own JSON-RPC answers, rewritten one
way, on standard input and output. Some ways are wrong and must fail every case they touch; some
only write the same values differently, or add noise the protocol allows, and must pass.

    python tests/doubles/mangling_engine.py WAY [ANSWERS.json]

Without ANSWERS the answers are triggerstack's server's, in this process; with it they are the
server's answers recorded beforehand by :func:`record` (tests/test_runner_parity.py), read from the
file — the same lines, without importing triggerstack (a start of ~50 ms instead of ~0.8 s).

Every way is in tests/data/runner_variations.yaml (run against both runners), with what it does and
the sentence of docs/conformance.md it tests; ``nested`` and ``digits`` (an answer nested 100,000
deep, a count of a million digits, after which the engine ends) are test_conformance.py's alone.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, BinaryIO


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def record(cases: Iterable[dict[str, Any]], path: Path) -> None:
    """Write to ``path`` the server's answer to every request a runner makes of ``cases`` (each a
    case of the suite): ``load``, ``count`` with divide and without, ``check`` of each proposal."""
    from triggerstack.solver.serve import Service

    service = Service()
    table = []
    for case in cases:
        handle = json.loads(service.handle(_request("load", {"scenario": case["scenario"]})) or "")["result"]["handle"]
        asked = [{"divide": True}, {}] + [{"proposal": p} for p in case["legal"]]
        asked += [{"proposal": w["proposal"]} for w in case["illegal"]]
        answers = {}
        for params in asked:
            method = "check" if "proposal" in params else "count"
            answer = json.loads(service.handle(_request(method, {"handle": handle, **params})) or "")
            answers[_key([method, params])] = {k: v for k, v in answer.items() if k in ("result", "error")}
        table.append({"scenario": _key(case["scenario"]), "answers": answers})
    path.write_text(json.dumps(table), encoding="utf-8")


def _request(method: str, params: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})


class Recorded:
    """The answers :func:`record` wrote, given as the server gives them: a handle per ``load``, the
    recorded answer to ``count`` and ``check``; a request not recorded is an error saying so."""

    def __init__(self, path: str) -> None:
        self.table = json.loads(Path(path).read_text(encoding="utf-8"))
        self.scenarios = {entry["scenario"]: k for k, entry in enumerate(self.table)}

    def handle(self, line: str) -> str | None:
        request = json.loads(line)
        method, params = request["method"], dict(request["params"])
        answer: dict[str, Any]
        if method == "load":
            k = self.scenarios.get(_key(params["scenario"]))
            answer = {"result": {"handle": f"h{k}-{os.getpid()}"}} if k is not None else _not_recorded(method)
        elif method == "unload":
            answer = {"result": {"unloaded": True}}
        else:
            k = int(params.pop("handle")[1:].split("-")[0])
            answer = self.table[k]["answers"].get(_key([method, params])) or _not_recorded(method)
        return json.dumps({"jsonrpc": "2.0", "id": request["id"], **answer})


def _not_recorded(method: str) -> dict[str, Any]:
    return {"error": {"code": -32602, "message": f"{method}: not recorded (a test double)"}}


# -- the ways: each answer rewritten ------------------------------------------------------------


def _reversed_entry(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    if "targets" in out:
        out["targets"] = {k: list(reversed(v)) for k, v in reversed(list(out["targets"].items()))}
    if "divide" in out:
        out["divide"] = {k: {t: float(n) for t, n in v.items()} for k, v in out["divide"].items()}
    if out.get("modes"):
        out["modes"] = [_reversed_entry(m) for m in reversed(out["modes"])]
    return out


def _defaults_written(entry: Any) -> Any:
    if not isinstance(entry, dict):
        return entry
    out = {"modes": None, **entry, "targets": entry.get("targets", {}), "divide": entry.get("divide", {})}
    if out["modes"]:
        out["modes"] = [{"targets": {}, "divide": {}, **m} for m in out["modes"]]
    return out


def _keys_reversed(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _keys_reversed(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_keys_reversed(v) for v in value]
    return value


def _floats(value: Any) -> Any:
    """Every whole number written as a float (as Gson writes a Java engine's numbers)."""
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return float(value) if type(value) is int else value


def _escaped(value: Any) -> str:
    """JSON text with every character of every string (keys too) written as a ``\\uXXXX`` escape."""
    if isinstance(value, str):
        units = value.encode("utf-16-be")
        return '"' + "".join(f"\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2)) + '"'
    if isinstance(value, dict):
        return "{" + ",".join(f"{_escaped(k)}:{_escaped(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_escaped(v) for v in value) + "]"
    return json.dumps(value)


_CHECKED: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "legal-yes": lambda r: {**r, "legal": "yes" if r["legal"] else ""},
    "accept-illegal": lambda r: {"legal": True, "violations": []},
    "reject-legal": lambda r: (
        r if not r["legal"] else {"legal": False, "violations": [{"code": "order", "rule": "603.3b"}]}
    ),
    "no-codes": lambda r: r if r["legal"] else {"legal": False, "violations": []},
    "extra-code": lambda r: (
        r if r["legal"] else {**r, "violations": [*r["violations"], {"code": "zz-extra", "rule": "0"}]}
    ),
    "code-number": lambda r: r if r["legal"] else {**r, "violations": [{**v, "code": 5} for v in r["violations"]]},
    "extra-fields": lambda r: {**r, "x-took": 0.25, "violations": [{**v, "x-where": [1, 2]} for v in r["violations"]]},
}
"""How each way rewrites a ``check`` result."""


def _divided(way: str, result: dict[str, Any], divide: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How each way rewrites a ``count`` result with a divide (None: as it is)."""
    if way == "empty-first":
        return {**result, "divide": [{**d, "first": _defaults_written(d["first"])} for d in divide]}
    if way == "twice":
        return {**result, "divide": [divide[0], *divide]}
    if way == "renamed":  # the last first entry named otherwise, its count kept: the total agrees
        return {**result, "divide": [*divide[:-1], {**divide[-1], "first": {"ability": "ZZ"}}]}
    if way == "extra-in-entry":
        return {**result, "divide": [{**d, "first": d["first"] and {**d["first"], "text": "shown"}} for d in divide]}
    return None


def mangle(way: str, method: str, result: Any) -> Any:
    if method == "check" and isinstance(result, dict):
        return _CHECKED[way](result) if way in _CHECKED else result
    if method != "count" or not isinstance(result, dict):
        return result
    count, divide = result["count"], result.get("divide")
    if divide and (rewritten := _divided(way, result, divide)) is not None:
        return rewritten
    if way == "bare-count":
        return count
    if way == "plus-one":
        return {"count": count + 1, **({"divide": [{**d, "count": d["count"] + (i == 0)} for i, d in enumerate(divide)]}
                                       if divide else {})}  # fmt: skip
    if way == "half":
        return {
            "count": count + 0.5,
            **({"divide": [{**d, "count": d["count"] + 0.5} for d in divide]} if divide else {}),
        }
    if way == "text":
        return {**result, "count": str(count)}
    if way == "true" and count == 1:
        return {**result, "count": True}
    if way == "digits":
        return {**result, "count": "DIGITS"}
    if way == "whole-float":
        return {"count": float(count)}
    if way == "extra-fields":
        return {**result, "x-note": {"engine": "mangling"}}
    if way == "reorder":
        out: dict[str, Any] = {"count": float(count)}
        if divide is not None:
            out["divide"] = [
                {"first": _reversed_entry(d["first"]), "count": float(d["count"])} for d in reversed(divide)
            ]
        return out
    return result


REFUSED = {
    "no-unload": ("unload", -32601),
    "load-error": ("load", -32602),
    "no-divide": ("count", -32601),
    "doubles": ("count", -32601.0),
}
"""Ways whose engine answers one method with an error (its code as written); ``count`` only when
asked with divide."""
LOAD_ERRORS = {
    "error-text": "not an error object",
    "no-message": {"code": -32602},
    "odd-message": {"code": -32602, "message": {"why": "no such rules variant"}},
}
"""Ways whose engine answers ``load`` with this ``error`` member."""
NOISE = {
    "log": b"INFO engine: answering\n",
    "utf8": b"\xff\xfe not utf-8\n",
    "blank": b"\n",
    "ansi-log": b"\x1b[2m12:00:01\x1b[0m\tINFO\tcounting 50%\rcounting 100%\r\n",
    "long-log": ("é" * 60 + "\U0001f0a1" * 100 + "\n").encode(),
}
"""Ways whose engine writes this line before every answer."""


def _text(way: str, method: str, answer: dict[str, Any]) -> str:
    """The answer's line (no line end), written the way's way."""
    if way == "keys":
        return json.dumps(_keys_reversed(answer))
    if way == "spaced":
        return " \t" + json.dumps(answer, separators=(" ,\t", " :  ")) + " \r"
    if way == "escaped":
        return _escaped(answer)
    if way == "doubles":
        return json.dumps(_floats(answer))
    if way == "near-whole":  # every count a hair above its number: 1.0000000000000001, whose nearest double is 1
        return re.sub(r'"count": (\d+)', r'"count": \g<1>.0000000000000001', json.dumps(answer))
    if way == "exponent":  # every count as 10 tenths: 10E-1 for 1
        return re.sub(r'"count": (\d+)', r'"count": \g<1>0E-1', json.dumps(answer))
    if way == "extra-fields":
        return json.dumps({"x-engine": {"version": [1, 2]}, **answer})
    text = json.dumps(answer)
    if way == "digits":
        text = text.replace('"DIGITS"', "9" * 1_000_000)
    if way in ("nested", "nested-noise") and method == "count":
        bad = f'{{"jsonrpc": "2.0", "id": {answer["id"]}, "result": {"[" * 100_000}{"]" * 100_000}}}'
        text = bad if way == "nested" else bad + "\n" + text  # -noise: the right answer after it
    if way == "digits-noise" and method == "count":
        text = f'{{"jsonrpc": "2.0", "id": {answer["id"]}, "result": {{"count": {"9" * 30_000}}}}}\n{text}'
    if way == "pretty" and method == "load":
        text = json.dumps(answer, indent=2)
    return text


def _stops(way: str, method: str, out: BinaryIO) -> int | None:
    """At its first ``check`` an engine of some ways ends, is killed, closes its output or falls
    silent: its exit code, or None to go on (not answering)."""
    if way == "crash":
        return 3
    if way == "garbled-crash":  # a line the runner cannot read, then the end
        out.write(b"panic: index out of range\n")
        out.flush()
        return 3
    if way == "killed":
        os.kill(os.getpid(), signal.SIGKILL)
    if way == "closed":  # its output's end, the process alive
        out.flush()
        os.close(out.fileno())
        time.sleep(600)
    return None


WAYS = (
    *("reorder", "whole-float", "empty-first", "bare-count", "whole", "no-divide", "no-unload", "stderr-log", "keys"),
    *("spaced", "escaped", "exponent", "extra-fields", "doubles", "bom", "no-codes"),
    *("log", "utf8", "other-id", "nested-noise", "digits-noise", "blank", "ansi-log", "long-log"),
    *("half", "near-whole", "text", "true", "twice", "plus-one", "renamed", "legal-yes", "accept-illegal", "reject-legal"),
    *("extra-code", "code-number", "extra-in-entry", "load-error", "error-text", "no-message", "odd-message"),
    *("shape", "crash", "garbled-crash", "killed", "exit-at-once", "closed", "silent", "pretty", "nested", "digits"),
)
"""Every way this engine knows; another is refused (exit 2)."""


def main() -> int:
    way = sys.argv[1] if len(sys.argv) > 1 else ""
    if way not in WAYS:
        sys.stderr.write(f"mangling_engine.py: no way {way!r}; the ways: {', '.join(WAYS)}\n")
        return 2
    if way == "exit-at-once":
        return 3
    if len(sys.argv) > 2:
        service: Any = Recorded(sys.argv[2])
    else:
        from triggerstack.solver.serve import Service

        service = Service()
    out = sys.stdout.buffer
    if way == "bom":
        out.write(b"\xef\xbb\xbf")
    for line in sys.stdin:
        request = json.loads(line)
        method, ident = request.get("method"), request.get("id")
        refused, code = REFUSED.get(way, (None, 0))
        if (method == refused and (method != "count" or request["params"].get("divide"))) or (
            method == "load" and way in LOAD_ERRORS
        ):
            error = LOAD_ERRORS.get(way, {"code": code, "message": f"{method}: not here (a test double)"})
            out.write(_text(way, method, {"jsonrpc": "2.0", "id": ident, "error": error}).encode() + b"\n")
            out.flush()
            continue
        if method == "check" and way in ("crash", "garbled-crash", "killed", "closed", "silent"):
            if (stopped := _stops(way, method, out)) is not None:
                return stopped
            continue  # never answered
        if way == "stderr-log":
            sys.stderr.write(f"engine: {method}\n")
        if way == "other-id":
            out.write(json.dumps({"jsonrpc": "2.0", "id": (ident or 0) + 1000, "result": None}).encode() + b"\n")
        if way.startswith("whole") and method == "count":
            request["params"].pop("divide", None)  # counted whole: no tally of outcomes one by one
            line = json.dumps(request)
        answer = json.loads(service.handle(line) or "null")
        if answer is None:
            continue
        if "result" in answer:
            answer["result"] = mangle(way, method, answer["result"])
            if way == "shape":
                answer["result"] = [answer["result"]]
        out.write(NOISE.get(way, b"") + _text(way, method, answer).encode() + b"\n")
        out.flush()
        if way in ("nested", "digits") and method == "count":
            return 0  # ends after its one unreadable answer: the runner says so with no limit to wait out
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
