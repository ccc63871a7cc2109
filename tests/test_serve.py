"""``triggerstack serve --stdio``: every verb as a JSON-RPC 2.0 method, answering exactly what the
command line answers (``check`` the object ``check --json`` prints, ``count`` the count …), errors
with their place, and a server that no request ends: a fuzzed stream gets one answer per request,
in order, and end of input ends it with exit 0. The Java client runs where the JDK is.

Private unit: the server's method table and errors (solver/serve/_rpc: METHODS, RpcError, discover), its pool's caps (solver/serve/_pool) and the published formats' models (model/_reports)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, Score, outcome_dict
from triggerstack.model._reports import Explanation, VerdictReport
from triggerstack.solver import LegalOutcomes, Options, best, check
from triggerstack.solver.serve import Service
from triggerstack.solver.serve._rpc import METHODS, discover

from .conftest import EXAMPLE_NAMES, EXAMPLES, PATIENCE, ROOT

SERVE = [sys.executable, "-m", "triggerstack.solver", "serve", "--stdio"]
ERTAI = str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")


def _call(service: Service, method: str, **params: Any) -> Any:
    answer = json.loads(service.handle(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})) or "")
    assert answer["jsonrpc"] == "2.0" and answer["id"] == 1
    return answer.get("result", answer.get("error"))


def _error(service: Service, method: str, **params: Any) -> dict[str, Any]:
    answer = json.loads(service.handle(json.dumps({"jsonrpc": "2.0", "id": 7, "method": method, "params": params})) or "")
    assert "error" in answer and "result" not in answer, answer
    return dict(answer["error"])


def _cli(*argv: str) -> Any:
    done = subprocess.run([sys.executable, "-m", "triggerstack.solver", *argv], capture_output=True, text=True, check=False)
    return json.loads(done.stdout)


# -- the same answers as the command line ----------------------------------------------------------


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_every_method_answers_what_the_verb_does(name: str) -> None:
    folder = EXAMPLES / name
    service = Service()
    handle = _call(service, "load", path=str(folder / "scenario.yaml"))["handle"]
    scenario = Scenario.load(str(folder / "scenario.yaml"))
    legal = LegalOutcomes(scenario)
    for which in ("legal", "illegal"):
        proposal = json.loads((folder / f"{which}.json").read_text())
        got = _call(service, "check", handle=handle, proposal=proposal)
        assert got == check(scenario, Outcome.model_validate(proposal)).as_dict()
        assert got == _call(service, "check", scenario=json.loads(Scenario.load(str(folder / "scenario.yaml")).model_dump_json(by_alias=True)), proposal=proposal)
        VerdictReport.model_validate(got)
    assert _call(service, "count", handle=handle) == {"count": legal.count()}
    pages: list[Any] = []
    cursor: str | None = "0"
    while cursor is not None and len(pages) < 300:
        page = _call(service, "enumerate", handle=handle, limit=7, cursor=cursor)
        pages += page["outcomes"]
        cursor = page["next"]
    every = [outcome_dict(o) for o in legal.outcomes(limit=len(pages))]
    assert pages == every
    drawn = _call(service, "sample", handle=handle, n=5, seed=3)["outcomes"]
    assert drawn == _call(service, "sample", handle=handle, n=5, seed=3)["outcomes"]
    assert all(check(scenario, Outcome.model_validate(o)).legal for o in drawn)
    score = {"mode": {t.id: {m.id: 1 for m in t.modes} for t in scenario.triggers if t.modes}}
    found = _call(service, "best", handle=handle, score=score)
    want = best(scenario, Score.model_validate(score))
    assert found["score"] == want.score and found["proven"] is True
    explained = _call(service, "explain", handle=handle)
    assert explained == LegalOutcomes(scenario).explain()
    Explanation.model_validate(explained)
    assert _call(service, "unload", handle=handle) == {"unloaded": True}
    assert _error(service, "count", handle=handle)["code"] == -32004


def test_check_answers_the_object_check_json_prints() -> None:
    service = Service()
    handle = _call(service, "load", path=ERTAI)["handle"]
    for which in ("legal", "illegal"):
        path = EXAMPLES / "ertai-resurrected" / f"{which}.json"
        printed = _cli("check", ERTAI, str(path), "--json")
        assert _call(service, "check", handle=handle, proposal=json.loads(path.read_text())) == printed


def test_a_walk_by_steps_ends_in_a_legal_outcome_and_an_illegal_step_says_why() -> None:
    service = Service()
    handle = _call(service, "load", path=ERTAI)["handle"]
    state = _call(service, "step.legal", handle=handle)
    assert state["decider"] == "B" and [d["text"] for d in state["legal"]] == ["put SWB"]
    refused = _error(service, "step.apply", handle=handle, decisions=[], decision="put E")
    assert refused["code"] == -32003 and refused["data"]["rule"] == "603.3b" and refused["data"]["legal"] == ["put SWB"]
    decisions: list[int] = []
    while not state["over"]:
        state = _call(service, "step.apply", handle=handle, decisions=decisions, decision=state["legal"][-1]["id"])
        decisions = state["decisions"]
        mask = _call(service, "step.mask", handle=handle, decisions=decisions)
        assert [i for i, b in enumerate(mask["mask"]) if b] == [d["id"] for d in state["legal"]]
    outcome = _call(service, "step.outcome", handle=handle, decisions=decisions)["outcome"]
    assert check(Scenario.load(ERTAI), Outcome.model_validate(outcome)).legal
    assert _error(service, "step.outcome", handle=handle, decisions=decisions[:1])["code"] == -32001


def test_auto_takes_the_forced_decisions_and_says_how_many() -> None:
    """Ertai (B's SWB, then A's SWA and E): B's block holds one ability — "put SWB" is the only
    legal decision, so auto takes it, and the walk reaches the same outcomes (their count)."""
    service = Service()
    handle = _call(service, "load", path=ERTAI)["handle"]
    state = _call(service, "step.legal", handle=handle, auto=True)
    assert state["auto_applied"] == 1 and state["decider"] == "A" and len(state["legal"]) >= 2
    assert state["decisions"] == [_call(service, "step.legal", handle=handle)["legal"][0]["id"]]
    assert _call(service, "step.count", handle=handle, decisions=state["decisions"])["count"] == 10
    decisions = state["decisions"]
    while not state["over"]:
        state = _call(service, "step.apply", handle=handle, decisions=decisions, decision=state["legal"][0]["id"], auto=True)
        decisions = state["decisions"]
        assert state["over"] or len(state["legal"]) >= 2
    assert check(Scenario.load(ERTAI), Outcome.model_validate(_call(service, "step.outcome", handle=handle, decisions=decisions)["outcome"])).legal
    assert _call(service, "step.legal", handle=handle)["auto_applied"] == 0


# -- errors name their place; nothing ends the server ---------------------------------------------


def test_errors_are_json_rpc_errors_with_the_place() -> None:
    service = Service(Options(time_limit=5))
    assert json.loads(service.handle("{") or "")["error"]["code"] == -32700
    assert json.loads(service.handle(b"\xff\xfe") or "")["error"]["code"] == -32700
    assert json.loads(service.handle('{"id": 1, "method": "count"}') or "")["error"]["code"] == -32600
    assert json.loads(service.handle("[]") or "")["error"]["code"] == -32600
    assert _error(service, "nope")["code"] == -32601
    assert _error(service, "count")["code"] == -32602
    wrong = _error(service, "enumerate", handle="s9", limit=0)
    assert wrong["code"] == -32602 and wrong["data"]["place"] == "limit"
    bad = _error(service, "count", scenario={"players": ["A"], "triggers": [{"id": "T", "controller": "A", "modal": {"choose": [5]}, "modes": [{"id": "m"}]}]})
    assert bad["code"] == -32001 and bad["data"]["place"].startswith("scenario.triggers[0]")
    proposal = _error(service, "check", scenario={"players": ["A"]}, proposal={"stack": 3})
    assert proposal["code"] == -32001 and proposal["data"]["place"].startswith("proposal.stack")
    slow = json.loads((ROOT / "benchmarks" / "scenarios" / "coupled-8.json").read_text())
    late = _error(service, "count", scenario=slow, engine="cpsat", time_limit=0.05)
    assert late["code"] == -32002
    assert service.handle('{"jsonrpc": "2.0", "method": "count", "params": {}}') is None  # a notification
    both = json.loads(service.handle('[{"jsonrpc": "2.0", "id": 1, "method": "rpc.discover"}, {"jsonrpc": "2.0", "id": 2, "method": "nope"}]') or "")
    assert [a["id"] for a in both] == [1, 2] and "result" in both[0] and both[1]["error"]["code"] == -32601


@pytest.mark.parametrize("ident", ["1.5", "1e2", "-3", "0", '"x"', "null", "12345678901234567890"])
def test_an_id_is_echoed_as_the_same_value(ident: str) -> None:
    """JSON-RPC 2.0 §5: the response's id is the request's (a string, a number or null)."""
    service = Service(Options(time_limit=5))
    line = f'{{"jsonrpc": "2.0", "id": {ident}, "method": "rpc.discover"}}'
    answer = json.loads(service.handle(line) or "")
    assert "result" in answer and answer["id"] == json.loads(ident)
    assert type(answer["id"]) is type(json.loads(ident))


@pytest.mark.parametrize("ident", ['{"a": 1}', "[1]", "[]", "true", "false", "1e400"])
def test_a_request_with_an_invalid_id_is_refused_and_never_runs(ident: str) -> None:
    """JSON-RPC 2.0 §4: an id is a string, a number or null; anything else is an invalid request
    (-32600, id null), never run — here a load that would take a handle."""
    service = Service(Options(time_limit=5))
    path = str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")
    line = f'{{"jsonrpc": "2.0", "id": {ident}, "method": "load", "params": {{"path": "{path}"}}}}'
    answer = json.loads(service.handle(line) or "")
    # a number past the floats is JSON past a documented limit, as 1e200 is (docs/server.md: -32001)
    invalid = -32001 if ident == "1e400" else -32600
    assert answer["id"] is None and answer["error"]["code"] == invalid, answer
    batch = json.loads(service.handle(f"[{line}, {line}]") or "")
    codes = [batch["error"]["code"]] * 2 if isinstance(batch, dict) else [a["error"]["code"] for a in batch]
    assert codes == [invalid, invalid]
    assert not service._pool.loaded, "the loads took effect"


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_full_pool_gives_way_least_recently_used_first_and_says_when() -> None:
    """Clients without a token share one pool (issue 39): a load into it when full unloads the
    least recently used handle not asked about for HOLD_SECONDS, or is refused saying when one
    may be; inline requests never take a slot; a token gives a pool of one's own."""
    from triggerstack.solver.serve import _pool as pool
    from triggerstack.solver.serve._rpc import RpcError

    clock = _Clock()
    service = Service(Options(time_limit=5), clock=clock)
    handles = []
    for i in range(pool.HANDLES_PER_CLIENT):
        clock.now = i
        handles.append(service.call("load", {"path": ERTAI})["handle"])
    clock.now = 40.0
    assert service.call("count", {"handle": handles[0]}) == {"count": 10}  # the first is used again
    with pytest.raises(RpcError) as refused:
        service.call("load", {"path": ERTAI})
    wrong = refused.value.as_dict()
    assert wrong["code"] == -32006 and wrong["data"]["retry_after"] == pool.HOLD_SECONDS - 39
    assert "a token of your own" in wrong["message"]
    assert service.call("count", {"scenario": yaml.safe_load(Path(ERTAI).read_text())}) == {"count": 10}  # inline: no slot
    assert "handle" in service.call("load", {"path": ERTAI}, client="alice")  # a pool of one's own
    clock.now = 1 + pool.HOLD_SECONDS
    service.call("load", {"path": ERTAI})  # handles[1] (used at 1 s) gives way, not handles[0]
    with pytest.raises(RpcError):
        service.call("count", {"handle": handles[1]})
    assert service.call("count", {"handle": handles[0]}) == {"count": 10}
    assert service.call("count", {"handle": handles[2]}) == {"count": 10}


def test_rpc_discover_publishes_every_method_from_its_types() -> None:
    document = Service().call("rpc.discover", {})
    assert document == discover() and document["openrpc"].startswith("1.")
    assert [m["name"] for m in document["methods"]] == list(METHODS)
    check_method = next(m for m in document["methods"] if m["name"] == "check")
    assert {p["name"] for p in check_method["params"]} >= {"handle", "scenario", "proposal"}
    assert check_method["result"]["schema"] == VerdictReport.model_json_schema()


LINES = st.one_of(
    st.binary(max_size=60),
    st.text(max_size=60),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8), lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4), max_leaves=12).map(json.dumps),
    st.builds(
        lambda method, params, ident: json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}),
        st.sampled_from([*METHODS, "nope", ""]),
        st.dictionaries(st.sampled_from(["handle", "scenario", "proposal", "limit", "cursor", "n", "decisions", "decision", "score", "path", "x"]), st.none() | st.integers(-3, 3) | st.text(max_size=5) | st.just({"players": ["A"]}), max_size=4),
        st.integers(0, 99),
    ),
)


@settings(max_examples=300, deadline=None)
@given(line=LINES)
def test_any_line_gets_an_answer_and_never_an_exception(line: str | bytes) -> None:
    answer = Service(Options(time_limit=2)).handle(line)
    if answer is not None:
        parsed = json.loads(answer)
        for one in parsed if isinstance(parsed, list) else [parsed]:
            assert one["jsonrpc"] == "2.0" and ("result" in one) != ("error" in one)
            if "error" in one:
                assert isinstance(one["error"]["code"], int) and one["error"]["message"]
                assert one["error"]["code"] != -32603, one  # an internal error is a bug


# -- the process ----------------------------------------------------------------------------------


def test_the_stdio_server_answers_a_hostile_stream_in_order_and_ends_at_eof() -> None:
    server = subprocess.Popen([*SERVE, "--max-bytes", "2000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "load", "params": {"path": ERTAI}}).encode() + b"\n")
    server.stdin.flush()
    first = server.stdout.readline()
    handle = json.loads(first)["result"]["handle"]
    assert handle.startswith("h") and len(handle) >= 20  # unguessable, not s1, s2, ...
    requests = [
        "not json at all",
        '{"jsonrpc": "2.0", "id": 2, "method": "count", "params": {"handle": "s1"}',  # truncated
        {"jsonrpc": "2.0", "id": 3, "method": "count", "params": {"handle": "s1"}},
        "x" * 3000,  # over --max-bytes 2000
        {"jsonrpc": "2.0", "id": 4, "method": "frobnicate"},
        {"jsonrpc": "2.0", "id": 5, "method": "check", "params": {"handle": "s1", "proposal": {"stack": [], "removed": []}}},
        {"jsonrpc": "2.0", "method": "count", "params": {"handle": "s1"}},  # a notification: no answer
        [1, 2],
        {"jsonrpc": "2.0", "id": 6, "method": "unload", "params": {"handle": "s1"}},
    ]
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in requests).replace("s1", handle).encode() + b"\xff\n\n"
    out, err = server.communicate(text, timeout=PATIENCE)  # closes every pipe
    assert server.returncode == 0 and err == b""
    answers = [json.loads(line) for line in [first.decode(), *out.decode().splitlines()]]
    assert len(answers) == 10  # every line but the notification and the blank one
    flat = [a if isinstance(a, dict) else {"id": "batch"} for a in answers]
    assert [a.get("id") for a in flat] == [1, None, None, 3, None, 4, 5, "batch", 6, None]
    assert answers[3]["result"] == {"count": 10}
    assert "2000 bytes" in answers[4]["error"]["message"]
    assert answers[6]["result"]["legal"] is False


# -- the Java client --------------------------------------------------------------------------------


@pytest.mark.skipif(not (shutil.which("javac") and shutil.which("java")), reason="no JDK on this machine")
def test_the_java_client_loads_checks_and_counts(tmp_path: Path) -> None:
    source = ROOT / "clients" / "java" / "TriggerStackClient.java"
    subprocess.run(["javac", "-d", str(tmp_path), str(source)], check=True, timeout=120)
    example = EXAMPLES / "ertai-resurrected"
    done = subprocess.run(
        ["java", "-cp", str(tmp_path), "TriggerStackClient", str(example / "scenario.yaml"), str(example / "legal.json"), str(example / "illegal.json"), *SERVE],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("loaded h")
    assert lines[1] == "legal.json: legal"
    assert lines[2].startswith("illegal.json: illegal, 1 violation: 601.2c target-not-yet-on-stack")
    assert lines[3] == "count: 10"
    assert lines[4] == "inline count: 2"


def test_the_server_docs_list_every_method_and_error_code() -> None:
    import re

    from triggerstack.solver.serve import _rpc as rpc

    text = (ROOT / "docs" / "server.md").read_text(encoding="utf-8")
    methods = re.findall(r"^\| `([a-z.]+)` \|", text.split("## Methods", 1)[1].split("## Errors", 1)[0], flags=re.M)
    assert methods == list(METHODS)
    codes = {int(c) for c in re.findall(r"^\| (-32\d{3}) \|", text, flags=re.M)}
    assert codes == {v for k, v in vars(rpc).items() if k.isupper() and isinstance(v, int) and -32800 < v < -32000}
    for block in re.findall(r"```\n\$ triggerstack serve --stdio\n(.*?)```", text, flags=re.S):
        lines = block.strip().splitlines()
        server = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
        assert server.stdin is not None and server.stdout is not None
        names: dict[str, str] = {}  # the handle the docs show -> the one this server gave (random)
        for asked, shown in zip(lines[0::2], lines[1::2], strict=True):
            for doc, real in names.items():
                asked = asked.replace(doc, real)
            server.stdin.write(asked.encode() + b"\n")
            server.stdin.flush()
            got = server.stdout.readline().decode().rstrip("\n")
            doc_handle = re.search(r'"handle":"(h[\w-]+)"', shown)
            real_handle = re.search(r'"handle":"(h[\w-]+)"', got)
            if doc_handle and real_handle:
                names[doc_handle.group(1)] = real_handle.group(1)
            for doc, real in names.items():
                got = got.replace(real, doc)
            assert got == shown
        server.stdin.close()
        assert server.wait(timeout=PATIENCE) == 0
        server.stdout.close()
