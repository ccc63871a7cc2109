"""An engine for the conformance runner's attack tests: triggerstack's own JSON-RPC server whose
answers are rewritten one way, on standard input and output. Some ways are wrong and must fail
every case they touch; some only write the same values differently and must pass.

    python tests/doubles/mangling_engine.py WAY

Wrong: ``half`` (every count +0.5), ``text`` (counts as strings), ``true`` (a count of 1 as
``true``), ``twice`` (the first divide entry listed twice), ``legal-yes`` (``"legal": "yes"``).
Noisy but right: ``log`` (a log line before every answer), ``utf8`` (a line that is not UTF-8
before every answer). Broken answers: ``shape`` (the result a list), ``nested`` (an answer nested
100,000 deep), ``digits`` (a count of a million digits). Right, written otherwise: ``reorder``
(each divide entry's targets, repeated modes and the divide list itself in reverse order, whole
numbers as ``2.0``). Without divide: ``whole`` (the count alone, as asked without divide) and
``whole-float`` (the same written as a float: exact below 2^53 only).

The protocol's other points (tests/data/runner_variations.yaml runs every way against both
runners): ``empty-first`` (each first entry with its defaults written out: ``"targets": {}``,
``"divide": {}``, ``"modes": null``), ``bare-count`` (the count alone, not an object),
``no-unload`` (``unload`` answers -32601), ``no-divide`` (``count`` with divide answers -32601, and
the count alone without), ``stderr-log`` (logs on standard error), ``other-id`` (an answer to
another id first); wrong: ``plus-one`` (every count one more), ``accept-illegal`` (every proposal
judged legal), ``no-codes`` (illegal, with no codes named), ``extra-code`` (one code more),
``load-error`` (``load`` answers -32602), ``crash`` (the engine exits at its first ``check``),
``silent`` (it never answers ``check``); noisy but right: ``nested-noise`` and ``digits-noise`` (the
``count`` answer first written nested 100,000 deep, or with a count of 30,000 digits, then right).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from triggerstack.solver.serve._rpc import Service


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


def _checked(way: str, result: dict[str, Any]) -> dict[str, Any]:
    if way == "legal-yes":
        return {**result, "legal": "yes" if result["legal"] else ""}
    if way == "accept-illegal":
        return {"legal": True, "violations": []}
    if way == "no-codes" and not result["legal"]:
        return {"legal": False, "violations": []}
    if way == "extra-code" and not result["legal"]:
        return {**result, "violations": [*result["violations"], {"code": "zz-extra", "rule": "0"}]}
    return result


def mangle(way: str, method: str, result: Any) -> Any:
    if method != "count" or not isinstance(result, dict):
        if method == "check" and isinstance(result, dict):
            return _checked(way, result)
        return result
    count, divide = result["count"], result.get("divide")
    if way == "empty-first" and divide:
        return {**result, "divide": [{**d, "first": _defaults_written(d["first"])} for d in divide]}
    if way == "bare-count":
        return count
    if way == "plus-one":
        return {"count": count + 1, **({"divide": [{**d, "count": d["count"] + (i == 0)} for i, d in enumerate(divide)]}
                                       if divide else {})}  # fmt: skip
    if way == "half":
        return {"count": count + 0.5, **({"divide": [{**d, "count": d["count"] + 0.5} for d in divide]} if divide else {})}
    if way == "text":
        return {**result, "count": str(count)}
    if way == "true" and count == 1:
        return {**result, "count": True}
    if way == "twice" and divide:
        return {**result, "divide": [divide[0], *divide]}
    if way == "digits":
        return {**result, "count": "DIGITS"}
    if way == "whole-float":
        return {"count": float(count)}
    if way == "reorder":
        out: dict[str, Any] = {"count": float(count)}
        if divide is not None:
            out["divide"] = [{"first": _reversed_entry(d["first"]), "count": float(d["count"])} for d in reversed(divide)]
        return out
    return result


def main() -> int:
    way = sys.argv[1]
    service = Service()
    out = sys.stdout.buffer
    for line in sys.stdin:
        request = json.loads(line)
        method, ident = request.get("method"), request.get("id")
        refused = {"no-unload": "unload", "load-error": "load"}.get(way)
        if method == refused or (way == "no-divide" and method == "count" and request["params"].get("divide")):
            code = -32602 if way == "load-error" else -32601
            error = {"code": code, "message": f"{method}: not here (a test double)"}
            out.write(json.dumps({"jsonrpc": "2.0", "id": ident, "error": error}).encode() + b"\n")
            out.flush()
            continue
        if method == "check" and way in ("crash", "silent"):
            if way == "crash":
                return 3
            continue  # never answered
        if way == "stderr-log":
            sys.stderr.write(f"engine: {method}\n")
        if way == "other-id":
            out.write(json.dumps({"jsonrpc": "2.0", "id": (ident or 0) + 1000, "result": None}).encode() + b"\n")
        if way.startswith("whole") and request.get("method") == "count":
            request["params"].pop("divide", None)  # counted whole: no tally of outcomes one by one
            line = json.dumps(request)
        answer = json.loads(service.handle(line) or "null")
        if answer is None:
            continue
        if "result" in answer:
            answer["result"] = mangle(way, request["method"], answer["result"])
            if way == "shape":
                answer["result"] = [answer["result"]]
        text = json.dumps(answer)
        if way == "digits":
            text = text.replace('"DIGITS"', "9" * 1_000_000)
        if way in ("nested", "nested-noise") and request["method"] == "count":
            bad = f'{{"jsonrpc": "2.0", "id": {answer["id"]}, "result": {"[" * 100_000}{"]" * 100_000}}}'
            text = bad if way == "nested" else bad + "\n" + text  # -noise: the right answer after it
        if way == "digits-noise" and request["method"] == "count":
            text = f'{{"jsonrpc": "2.0", "id": {answer["id"]}, "result": {{"count": {"9" * 30_000}}}}}\n{text}'
        if way == "log":
            out.write(b"INFO engine: answering\n")
        if way == "utf8":
            out.write(b"\xff\xfe not utf-8\n")
        out.write(text.encode() + b"\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
