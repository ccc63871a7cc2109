"""Every answer is written by one bounded writer (model/_answer.py): counted as it is built, never
past --max-answer, on every surface. The memory of a refused answer is measured (tracemalloc,
not time): under twice the cap plus what the request itself takes.

Private unit: model/_answer, the one bounded writer (Answer, Items, Raw, written), and the lines it writes for each surface (solver/serve/_batch.verdict_line, solver/serve/_jobs.answer_line, the verb table)."""

from __future__ import annotations

import io
import json
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Limits, Outcome, Scenario, ScenarioError
from triggerstack.model._answer import Answer, AnswerTooLarge, Items, Raw, written
from triggerstack.model._text import visible
from triggerstack.solver import Options, check, explain
from triggerstack.solver.serve import Service

from .property.strategies import SETTINGS, scenarios

CAP = 512 * 1024


def _board(abilities: int = 30, things: int = 4) -> dict[str, Any]:
    """A small scenario whose outcomes are each about a kilobyte: 10,000 of them are 300 times the cap."""
    return {
        "players": ["A", "B"],
        "objects": [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(things)],
        "triggers": [
            {"id": f"T{j}", "controller": "A", "targets": [{"id": "t", "filter": {"type": "creature"}}]}
            for j in range(abilities)
        ],
    }


def _options(cap: int = CAP) -> Options:
    return Options(time_limit=60, limits=Limits(answer=cap))


def _traced(run: Callable[[], Any]) -> tuple[int, Any]:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        found = run()
        return tracemalloc.get_traced_memory()[1] - before, found
    finally:
        tracemalloc.stop()


def _peak(run: Callable[[], Any], small: Callable[[], Any]) -> tuple[int, Any]:
    """The most memory ``run`` holds at once beyond what ``small`` — the same request asking for
    a small answer — holds (run first, so that imports and caches are not counted)."""
    small()
    base, _ = _traced(small)
    grown, found = _traced(run)
    return grown - base, found


def _request(method: str, params: dict[str, Any], ident: int = 1) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": method, "params": params}


BOUND = 2 * CAP + 128 * 1024
"""What a refused answer may hold beyond the same request answered small (whose memory is the
scenario's own: its text, its compiled facts): twice the cap, and a little for the error itself."""


def _refused(text: str) -> None:
    assert "more than the limit of" in text and "--max-answer" in text, text[:300]


# -- the surfaces -------------------------------------------------------------------------------------


def test_stdio_refuses_a_large_answer_as_it_is_built() -> None:
    """A small stdio request for 10,000 draws: refused at the cap, holding at most about the cap."""
    from triggerstack.solver.serve import serve

    request = _request("sample", {"scenario": _board(), "n": 10_000, "seed": 1})
    small = _request("sample", {"scenario": _board(), "n": 1, "seed": 1})

    def run(r: dict[str, Any]) -> bytes:
        out = io.BytesIO()
        serve(io.BytesIO(json.dumps(r).encode() + b"\n"), out, _options())
        return out.getvalue()

    grown, said = _peak(lambda: run(request), lambda: run(small))
    _refused(said.decode())
    assert json.loads(said)["id"] == 1 and len(said) < 2048
    assert grown < BOUND, grown


def test_a_batch_array_is_one_answer_held_to_the_cap_as_a_whole() -> None:
    """2,000 rpc.discover in one line: 76 MB out after 95 s. The batch's answers are one line,
    refused as a whole once past the cap — and no request after that point is computed."""
    batch = [_request("rpc.discover", {}, i) for i in range(2_000)]
    service = Service(_options())
    told = [{k: v for k, v in r.items() if k != "id"} for r in batch]  # notifications: the same line, no answer
    grown, said = _peak(lambda: service.handle(json.dumps(batch)), lambda: service.handle(json.dumps(told)))
    answer = json.loads(said)
    assert isinstance(answer, dict) and answer["id"] is None and answer["error"]["code"] == -32001
    _refused(answer["error"]["message"])
    assert "this batch" in answer["error"]["message"] and grown < BOUND, grown
    one = len(service.handle(json.dumps(batch[0])) or "")
    asked: list[Any] = []
    ask = service.ask

    def counted(*args: Any) -> Any:
        asked.append(args)
        return ask(*args)

    service.ask = counted  # type: ignore[method-assign,assignment]
    service.handle(json.dumps(batch))
    assert len(asked) <= CAP // one + 1  # those that fit, and the one past the cap: none after it runs
    small = [_request("count", {"scenario": _board(2)}, i) for i in range(3)]
    assert [a["result"]["count"] for a in json.loads(Service(_options()).handle(json.dumps(small)) or "")] == [32] * 3  # 4 targets each, 2 orders


def test_a_batch_of_many_small_answers_is_held_to_the_cap() -> None:
    """The variant: many small answers that each fit, whose sum does not (count with divide)."""
    batch = [_request("count", {"scenario": _board(3), "divide": True}, i) for i in range(400)]
    said = Service(_options(8 * 1024)).handle(json.dumps(batch))
    assert said is not None and len(said.encode()) < 8 * 1024
    _refused(json.loads(said)["error"]["message"])


def test_http_pages_and_streams_stop_at_the_cap() -> None:
    """POST /v1/sample, /v1/enumerate, /v1/enumerate/lines and, a variant nobody listed,
    /v1/explain of a board with many candidates: each stops at the cap, in memory and in bytes."""
    pytest.importorskip("fastapi")
    import warnings

    from triggerstack.solver.serve import app

    with warnings.catch_warnings():  # starlette would rather have httpx2; httpx is what is installed
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    client = TestClient(app(_options()), base_url="http://127.0.0.1")
    board = _board()
    sample = {"scenario": board, "n": 10_000, "seed": 1}
    grown, response = _peak(
        lambda: client.post("/v1/sample", json=sample),
        lambda: client.post("/v1/sample", json={**sample, "n": 1}),
    )
    assert response.status_code == 422 and grown < BOUND, grown
    _refused(response.json()["detail"])
    page = {"scenario": board, "limit": 10_000}
    grown, response = _peak(
        lambda: client.post("/v1/enumerate", json=page), lambda: client.post("/v1/enumerate", json={**page, "limit": 1})
    )
    assert response.status_code == 422 and grown < BOUND, grown

    def stream(cursor: int = 0) -> bytes:
        with client.stream("POST", "/v1/enumerate/lines", json={"scenario": board, "cursor": str(cursor)}) as r:
            return b"".join(r.iter_bytes())

    grown, streamed = _peak(stream, lambda: stream(4**30 - 1))
    assert grown < BOUND, grown
    *lines, last = streamed.decode().splitlines()
    assert len(streamed) < CAP + 1024 and all("stack" in json.loads(x) for x in lines)
    _refused(json.loads(last)["error"]["message"])
    assert json.loads(last)["error"]["next"] == str(len(lines))
    wide = _board(abilities=60, things=600)
    grown, response = _peak(
        lambda: client.post("/v1/explain", json={"scenario": wide}), lambda: client.post("/v1/count", json={"scenario": wide})
    )
    assert response.status_code == 422, response.text[:300]
    _refused(response.json()["detail"])
    report, _ = _traced(lambda: explain(Scenario.model_validate(wide)).to_json())  # built before it is written
    assert grown < BOUND + report, (grown, report)


def test_batch_lines_are_held_to_the_cap(tmp_path: Any) -> None:
    """A line of ``batch`` and a verdict line of ``check --batch`` (a proposal of many entries:
    a violation each) are each within the cap."""
    from triggerstack.solver.serve._batch import verdict_line
    from triggerstack.solver.serve._jobs import answer_line

    line = json.dumps({"method": "sample", "params": {"scenario": _board(), "n": 10_000, "seed": 1}})
    one = line.replace('"n": 10000', '"n": 1')
    grown, said = _peak(lambda: answer_line(1, line, None, _options()), lambda: answer_line(1, one, None, _options()))
    assert json.loads(said)["line"] == 1 and grown < BOUND, grown
    _refused(json.loads(said)["error"]["message"])
    proposal = {"stack": [{"ability": f"NOPE{i}", "targets": {"t": ["c0"]}} for i in range(900)]}
    check = json.dumps({"scenario": _board(2), "proposal": proposal})
    said = verdict_line(7, check, None, _options(16 * 1024))
    assert json.loads(said)["line"] == 7 and len(said) < 2048
    _refused(json.loads(said)["error"]["message"])


# -- the writer -----------------------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=80) | st.dictionaries(st.text(max_size=5), inner, max_size=80),
    max_leaves=400,
)


@given(_JSON, st.integers(min_value=1, max_value=4000))
def test_the_writer_writes_canonical_json_or_refuses_at_the_cap(value: Any, cap: int) -> None:
    """What the writer writes is exactly the canonical JSON (keys sorted, no spaces, unsafe code
    points escaped), when it fits; otherwise it refuses, and holds nothing."""
    whole = visible(json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False))
    size = len(whole.encode())
    if size <= cap:
        assert written(value, cap) == whole
    else:
        out = Answer(cap)
        with pytest.raises(AnswerTooLarge):
            out.value(value)
        assert out.full and out.encoded() == []


def _as_arrays(value: Any) -> Any:
    """``value`` with each list written as an array of another kind: items drawn lazily, a tuple,
    or a list, by its length."""
    if isinstance(value, dict):
        return {k: _as_arrays(v) for k, v in value.items()}
    if not isinstance(value, list):
        return value
    items = [_as_arrays(v) for v in value]
    return (Items(iter(items)), tuple(items), items)[len(items) % 3]


@given(_JSON)
def test_every_kind_of_array_is_written_as_the_list_it_holds(value: Any) -> None:
    """One way to write an array: items drawn as they come, a tuple and a list of the same values
    are the same canonical JSON, small or walked."""
    assert written(_as_arrays(value), 1 << 30) == written(value, 1 << 30)


def test_items_are_drawn_only_while_they_fit() -> None:
    drawn = []

    def items() -> Iterator[Raw]:
        for i in range(10**9):
            drawn.append(i)
            yield Raw(json.dumps({"i": i}))

    with pytest.raises(AnswerTooLarge):
        written({"outcomes": Items(items())}, 1000)
    assert len(drawn) < 200


@pytest.mark.parametrize("name", ["enumerate", "sample"])
def test_an_answer_written_as_it_comes_is_the_verbs_answer(name: str) -> None:
    """The servers write a page and a sample as they are drawn (the verb's ``parts``): the same
    JSON as the verb's result."""
    from triggerstack.solver import LegalOutcomes
    from triggerstack.solver._verbs.table import verb

    legal = LegalOutcomes(Scenario.model_validate(_board(3)))
    found = verb(name)
    params = found.params.model_validate({"limit": 50, "cursor": "3"} if name == "enumerate" else {"n": 40, "seed": 7})
    assert written(found.json(legal, params), CAP) == written(found.ask(legal, params).to_json(), CAP)


# -- a proposal is bounded like a scenario --------------------------------------------------------------


def _long(n: int, key: str = "stack") -> dict[str, Any]:
    if key == "removed":
        return {"stack": [], "removed": [f"T{i % 3}" for i in range(n)]}
    return {"stack": [{"ability": f"T{i % 3}", "targets": {"t": ["c0"]}} for i in range(n)]}


@pytest.mark.parametrize("key", ["stack", "removed"])
def test_a_proposal_is_held_to_max_abilities_on_every_door(tmp_path: Any, key: str) -> None:
    """A 100,000-entry proposal was judged for 2.6–3.3 s under --time-limit 1: a proposal has no
    more entries per pass than --max-abilities, refused before it is validated — over stdio, in
    a check --batch line, in a batch line, on the command line and, a door nobody listed, draw."""
    from triggerstack.solver.serve._batch import verdict_line
    from triggerstack.solver.serve._jobs import answer_line

    from .conftest import main

    options = Options(time_limit=10, limits=Limits(abilities=50))
    board, proposal = _board(3), _long(51, key)
    for method in ("check", "draw"):
        said = json.loads(Service(options).handle(json.dumps(_request(method, {"scenario": board, "proposal": proposal}))) or "")
        assert said["error"]["code"] == -32001 and "--max-abilities" in said["error"]["message"]
        assert said["error"]["data"]["place"] == "proposal.stack"
    line = json.loads(verdict_line(1, json.dumps({"scenario": board, "proposal": proposal}), None, options))
    assert "51 entries" in line["error"]["message"] and line["error"]["data"]["place"] == "proposal.stack"
    line = json.loads(answer_line(1, json.dumps({"method": "check", "params": {"scenario": board, "proposal": proposal}}), None, options))
    assert "--max-abilities" in line["error"]["message"]
    (tmp_path / "s.json").write_text(json.dumps(board))
    (tmp_path / "p.json").write_text(json.dumps(proposal))
    assert main(["check", str(tmp_path / "s.json"), str(tmp_path / "p.json"), "--max-abilities", "50"]) == 2
    fits = json.loads(Service(options).handle(json.dumps(_request("check", {"scenario": board, "proposal": _long(50, key)}))) or "")
    assert fits["result"]["legal"] is False  # within the cap it is judged


def test_a_later_pass_and_too_many_passes_are_bounded_too() -> None:
    from triggerstack.model._outcome import parse_outcome

    limits = Limits(abilities=5, passes=3)
    later = {"stack": [{"ability": "T0"}] + [{"ability": f"R@T{i}"} for i in range(6)]}
    with pytest.raises(ScenarioError, match="6 entries of pass 2"):
        parse_outcome(later, limits=limits)
    deep = {"stack": [{"ability": "R@R@R@T0"}]}
    with pytest.raises(ScenarioError, match="--max-passes"):
        parse_outcome(deep, limits=limits)


def test_judging_a_long_proposal_keeps_the_deadline() -> None:
    """A proposal handed to the Python API as an Outcome (no document to bound) is judged within
    the time limit: the judge checks the deadline as it goes (its caps raised to take it: check
    holds a built outcome to them as to a document, docs/python.md)."""
    from triggerstack.model._outcome import parse_outcome
    from triggerstack.solver import LegalOutcomes, Options, TimeLimitReached

    facts = LegalOutcomes(Scenario.model_validate(_board(3))).facts
    wide = Limits(abilities=10**6)
    legal = LegalOutcomes(facts, Options(time_limit=0.05, limits=wide))
    proposal = parse_outcome(_long(200_000), limits=wide)
    with pytest.raises(TimeLimitReached):
        legal.check(proposal)


def test_the_command_lines_json_answer_is_held_to_the_cap(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's --json answer is written by the same writer: count --divide of a board
    with many first entries (120 of them, a 7 kB answer) exits 2 and prints nothing one byte below
    its whole JSON, and answers it, byte for byte, at exactly its size."""
    from .conftest import main

    (tmp_path / "s.json").write_text(json.dumps(_board(2, things=60)))
    ask = ["count", str(tmp_path / "s.json"), "--divide", "--json"]
    assert main(ask) == 0
    whole = capsys.readouterr().out
    assert json.loads(whole)["count"] == 2 * 60**2
    size = len(whole.rstrip("\n").encode("utf-8"))  # the answer's JSON; the line's end is not the answer's
    assert main([*ask, "--max-answer", str(size - 1)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"more than the limit of {size - 1} bytes" in err and "--max-answer" in err
    assert main([*ask, "--max-answer", str(size)]) == 0
    assert capsys.readouterr().out == whole


@settings(SETTINGS, max_examples=60)
@given(doc=scenarios(max_abilities=4), data=st.data())
def test_a_report_counted_as_it_is_built_is_refused_only_past_the_cap(doc: dict[str, Any], data: Any) -> None:
    """``Spending`` counts a lower bound of the bytes each part of a verdict or report takes: at any
    cap, explain and check answer what fits whole (its JSON within the cap), and refuse only an
    answer whose JSON is past it (model/_answer.py; docs/server.md)."""
    scenario = Scenario.model_validate(doc)
    proposal = _any_proposal(scenario, data)
    whole = {
        "explain": written(explain(scenario, _options(1 << 30)).to_json(), 1 << 30),
        "check": written(check(scenario, proposal, _options(1 << 30)).as_dict(), 1 << 30),
    }
    for verb, text in whole.items():
        size = len(text.encode("utf-8"))
        cap = data.draw(st.integers(min_value=1, max_value=2 * size), label=f"{verb} cap")
        try:
            got = explain(scenario, _options(cap)) if verb == "explain" else check(scenario, proposal, _options(cap))
        except AnswerTooLarge:
            assert size > cap, f"{verb}: refused at {cap} bytes, but its whole JSON is {size}"
            continue
        shown = got.to_json() if verb == "explain" else got.as_dict()  # type: ignore[union-attr]
        assert written(shown, 1 << 30) == text  # the same answer, whatever the cap


def _any_proposal(scenario: Scenario, data: Any) -> Outcome:
    """A proposal naming the scenario's abilities in a drawn order, with drawn modes and targets
    (most break rules: a verdict with violations to count)."""
    ids = [t.id for t in scenario.triggers]
    things = [p.id for p in scenario.players] + [o.id for o in scenario.objects] + ids
    stack = []
    for aid in data.draw(st.permutations(ids), label="order"):
        entry: dict[str, Any] = {"ability": aid}
        if data.draw(st.booleans(), label="targets"):
            entry["targets"] = {"t": data.draw(st.lists(st.sampled_from(things), max_size=3, unique=True))}
        stack.append(entry)
    return Outcome.model_validate({"stack": stack})
