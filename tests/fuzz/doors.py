"""The doors the fuzzers attack, named in one place (docs/architecture.md, "The doors attacked by
generators"). A verb added to the verb table is attacked on every surface below without new code
(the surfaces take a method and its params); a field added to a format or a method is generated
from the published OpenAPI document (:func:`requests`); a reader added to ``model/`` is fuzzed by
naming it in ``fuzz_readers.py``'s table.

Private unit: the server's method table (solver/serve/_rpc.METHODS) and batch's line answerer (solver/serve/_jobs: answer_line, BATCH_METHODS), the doors attacked in this process.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from hypothesis import strategies as st
from triggerstack.model import Limits
from triggerstack.solver import Options
from triggerstack.solver.serve import Service
from triggerstack.solver.serve._jobs import BATCH_METHODS, answer_line
from triggerstack.solver.serve._rpc import METHODS

OPTIONS = Options(time_limit=2.0, limits=Limits(answer=1_000_000))
"""What every door runs with here: small enough that a generated request ends quickly."""

FORM = {-32700, -32600, -32601, -32602}
"""JSON-RPC codes that refuse a request for its form: never the answer to one generated from the
published schemas."""
NEVER = {-32603}
"""An internal error: never the answer to anything."""


@dataclass(frozen=True)
class Answer:
    """What a door said: a result, or an error's JSON-RPC code and message."""

    result: Any = None
    code: int | None = None
    message: str = ""
    raw: str = field(default="", repr=False)


def _stdio(method: str, params: Any) -> Answer:
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    raw = Service(OPTIONS).handle(line) or ""
    sent = json.loads(raw)
    error = sent.get("error")
    if error is not None:
        return Answer(code=error["code"], message=error["message"], raw=raw)
    return Answer(result=sent["result"], raw=raw)


def _batch(method: str, params: Any) -> Answer | None:
    if method not in BATCH_METHODS:
        return None  # batch files hold the methods docs/server.md lists
    raw = answer_line(1, json.dumps({"method": method, "params": params}), None, OPTIONS)
    sent = json.loads(raw)
    error = sent.get("error")
    if error is not None:
        return Answer(code=error["code"], message=error["message"], raw=raw)
    return Answer(result=sent["result"], raw=raw)


SURFACES: dict[str, Callable[[str, Any], Answer | None]] = {"stdio": _stdio, "batch": _batch}
"""Every surface a request reaches the verbs through, in process (HTTP: Schemathesis, from the
OpenAPI document, tests/fuzz/test_http_schemathesis.py; the command line: tests/fuzz/test_doors.py
runs a sample as processes). None: the surface does not serve that method."""

SCENARIO_METHODS = sorted(m for m, (params, _, _) in METHODS.items() if "scenario" in params.model_fields)
"""The methods asked about a scenario (the verb table's, as JSON-RPC serves them)."""


@lru_cache(maxsize=1)
def _document() -> Any:
    import schemathesis
    from triggerstack.solver.serve import app

    return schemathesis.openapi.from_dict(app().inner.openapi())


def requests(method: str) -> st.SearchStrategy[dict[str, Any]]:
    """A method's params, generated from the published OpenAPI document (Schemathesis's generator:
    every field as its schema says, a scenario, proposal or score as its format's schema says) —
    the document every client reads, so a door is attacked with what it says it takes."""
    from schemathesis import GenerationMode

    operation = _document()[f"/v1/{method.replace('.', '/')}"]["POST"]
    strategy: st.SearchStrategy[Any] = operation.as_strategy(generation_mode=GenerationMode.POSITIVE)
    return strategy.map(lambda case: dict(case.body) if isinstance(case.body, dict) else {})


def mutations(doc: Any) -> Iterator[Any]:
    """Documents one change away from ``doc``: each mapping's keys dropped or given another kind of
    value, each list emptied or given a stray item (a door must answer each with a clear error or
    an answer, never a failure of its own)."""
    strays: list[Any] = [None, True, -1, 1.5, "", "x" * 300, [], {}, {"id": "?"}]
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield {k: v for k, v in doc.items() if k != key}
            for stray in strays:
                yield {**doc, key: stray}
            for inner in mutations(value):
                yield {**doc, key: inner}
    elif isinstance(doc, list):
        yield []
        yield [*doc, doc[0] if doc else None]
        for i, value in enumerate(doc):
            for inner in mutations(value):
                yield [*doc[:i], inner, *doc[i + 1 :]]


def command_line(verb: Any, params: dict[str, Any], folder: Any) -> tuple[int, str, str]:
    """``params`` asked of ``verb`` on the command line, as its parser takes them (the same rules as
    ``solver/_cli.py`` ``_fields``: a document is a file, positional or ``--name FILE``; a flag per
    other field), run in process: its exit code, standard output and standard error."""
    import contextlib
    import io
    from pathlib import Path

    from ..conftest import main

    cmd = verb.cli
    folder = Path(folder)
    argv = [verb.name]
    if verb.scenario:
        path = folder / "scenario.json"
        path.write_text(json.dumps(params.get("scenario")), encoding="utf-8")
        argv.append(str(path))
    for name, info in verb.params.model_fields.items():
        if name in cmd.skip or name not in params or params[name] is None:
            continue
        value = params[name]
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if "document" in extra:
            path = folder / f"{name}.json"
            path.write_text(json.dumps(value), encoding="utf-8")
            argv += [f"--{name}", str(path)] if extra.get("option") else [str(path)]
        elif name in cmd.positional:
            argv.append(str(value))
        elif isinstance(value, bool):
            argv += [f"--{name.replace('_', '-')}"] if value else []
        else:
            argv += [f"-{name}" if len(name) == 1 else "--" + name.replace("_", "-"), str(value)]
    if cmd.limits:
        argv += ["--time-limit", str(OPTIONS.time_limit)]
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refuses a usage error with exit 2
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()
