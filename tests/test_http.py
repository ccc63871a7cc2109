"""``triggerstack serve --http``: the same methods as ``/v1/`` endpoints, tested against a real
uvicorn on 127.0.0.1 — the answers are the stdio server's, errors are RFC 9457 problems with the
place, bodies over the cap get 413, enumerate streams the lines ``enumerate`` prints, and eight
concurrent clients lose no response."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from triggerstack.model import Scenario  # noqa: E402
from triggerstack.solver.serve import Service  # noqa: E402

from .conftest import EXAMPLE_NAMES, EXAMPLES, PATIENCE, answers_health, wait_until  # noqa: E402

ERTAI = EXAMPLES / "ertai-resurrected"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "triggerstack.solver", "serve", "--http", str(port), "--max-bytes", "200000", "--time-limit", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    wait_until(lambda: server.poll() is not None or answers_health(url), "the server answers /health")
    if server.poll() is not None:
        raise AssertionError(server.stderr.read() if server.stderr else "the server did not start")
    yield url
    server.terminate()
    server.wait(timeout=PATIENCE)
    for stream in (server.stdout, server.stderr):
        if stream is not None:
            stream.close()


def _doc(name: str) -> Any:
    return json.loads(Scenario.load(str(EXAMPLES / name / "scenario.yaml")).model_dump_json(by_alias=True))


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_the_endpoints_answer_what_the_stdio_server_does(base: str, name: str) -> None:
    scenario = _doc(name)
    stdio = Service()
    handle = httpx.post(base + "/v1/load", json={"scenario": scenario}).json()["handle"]
    for which in ("legal", "illegal"):
        proposal = json.loads((EXAMPLES / name / f"{which}.json").read_text())
        got = httpx.post(base + "/v1/check", json={"scenario": scenario, "proposal": proposal})
        assert got.status_code == 200
        assert got.json() == stdio.call("check", {"scenario": scenario, "proposal": proposal})
        assert httpx.post(base + "/v1/check", json={"handle": handle, "proposal": proposal}).json() == got.json()
    assert httpx.post(base + "/v1/count", json={"handle": handle}).json() == stdio.call("count", {"scenario": scenario})
    page = httpx.post(base + "/v1/enumerate", json={"handle": handle, "limit": 5}).json()
    assert page == stdio.call("enumerate", {"scenario": scenario, "limit": 5})
    assert httpx.post(base + "/v1/explain", json={"handle": handle}).json() == stdio.call("explain", {"scenario": scenario})
    assert httpx.post(base + "/v1/unload", json={"handle": handle}).json() == {"unloaded": True}


def test_enumerate_lines_stream_what_enumerate_prints(base: str) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "enumerate", str(ERTAI / "scenario.yaml")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    with httpx.stream("POST", base + "/v1/enumerate/lines", json={"scenario": _doc("ertai-resurrected")}) as r:
        assert r.headers["content-type"].startswith("application/x-ndjson")
        streamed = "".join(r.iter_text())
    assert streamed == printed


def test_every_problem_of_a_document_is_in_the_problem_details(base: str) -> None:
    """The same lines as JSON-RPC (tests/test_careless.py): each with its place, in ``errors``."""
    scenario = {"players": [{"id": "A"}], "objects": [{"id": "x", "controller": "Q"}], "triggers": [{"id": "T", "controler": "A"}]}
    got = httpx.post(base + "/v1/count", json={"scenario": scenario, "divde": True})
    assert got.status_code == 422 and got.json()["errors"][0]["message"] == "divde: unknown field 'divde': did you mean 'divide'?"
    bad = httpx.post(base + "/v1/count", json={"scenario": scenario})
    body = bad.json()
    assert bad.status_code == 422 and body == {**body, "code": -32001, "place": "scenario.triggers[0].controler"}
    assert [e["message"] for e in body["errors"]] == [
        "scenario.triggers[0].controler: unknown field 'controler': did you mean 'controller'?",
        "scenario.objects[0].controller: unknown player 'Q'",
    ]
    stdio = json.loads(Service().handle(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "count", "params": {"scenario": scenario}})) or "")
    assert stdio["error"]["data"]["errors"] == body["errors"] and stdio["error"]["message"] == body["detail"]


def test_errors_are_problem_details_with_the_place(base: str) -> None:
    wrong = httpx.post(base + "/v1/enumerate", json={"handle": "s1", "limit": 0})
    assert wrong.status_code == 422 and wrong.headers["content-type"] == "application/problem+json"
    assert wrong.json()["place"] == "limit" and wrong.json()["code"] == -32602 and wrong.json()["type"].startswith("/v1/problems/")
    bad = httpx.post(base + "/v1/count", json={"scenario": {"players": ["A"], "triggers": [{"id": "T", "controller": "Z"}]}})
    assert bad.status_code == 422 and bad.json()["place"] == "scenario.triggers[0].controller"
    assert httpx.post(base + "/v1/count", json={"handle": "nope"}).status_code == 404
    notjson = httpx.post(base + "/v1/count", content=b"{", headers={"content-type": "application/json"})
    assert notjson.status_code == 400 and notjson.json()["code"] == -32700
    assert httpx.post(base + "/v1/load", json={"path": "/etc/passwd"}).json()["place"] == "path"
    huge = httpx.post(base + "/v1/count", content=b" " * 300_000, headers={"content-type": "application/json"})
    assert huge.status_code == 413 and "200000 bytes" in huge.json()["detail"]
    illegal = httpx.post(base + "/v1/step/apply", json={"scenario": _doc("ertai-resurrected"), "decision": "put E"})
    assert illegal.status_code == 422 and illegal.json()["rule"] == "603.3b"


def test_the_openapi_document_has_every_method_and_its_types(base: str) -> None:
    document = httpx.get(base + "/v1/openapi.json").json()
    paths = set(document["paths"])
    methods = [m["name"] for m in Service().call("rpc.discover", {})["methods"]]  # every method the server publishes
    assert len(methods) > 10 and {"/v1/" + m.replace(".", "/") for m in methods if m != "rpc.discover"} <= paths
    assert {"/health", "/v1/enumerate/lines", "/v1/discover"} <= paths
    schemas = document["components"]["schemas"]
    assert "Check" in schemas and "proposal" in schemas["Check"]["properties"]
    assert "VerdictReport" in schemas and "CountResult" in schemas


def test_eight_concurrent_clients_lose_no_response(base: str) -> None:
    scenario = _doc("ertai-resurrected")
    proposal = json.loads((ERTAI / "illegal.json").read_text())
    want = Service().call("check", {"scenario": scenario, "proposal": proposal})

    def client(i: int) -> list[Any]:
        with httpx.Client(base_url=base) as c:
            return [c.post("/v1/check", json={"scenario": scenario, "proposal": proposal}).json() for _ in range(10)]

    with ThreadPoolExecutor(8) as pool:
        answers = [a for batch in pool.map(client, range(8)) for a in batch]
    assert len(answers) == 80 and all(a == want for a in answers)


def test_count_divide_over_http(base: str) -> None:
    """``count`` with ``divide`` (tests/test_divide.py holds it on the other surfaces)."""
    doc = _doc("flametongue-kavu")
    answer = httpx.post(base + "/v1/count", json={"scenario": doc, "divide": True}).json()
    assert sum(d["count"] for d in answer["divide"]) == answer["count"] == Service().call("count", {"scenario": doc})["count"]
    schemas = httpx.get(base + "/v1/openapi.json").json()["components"]["schemas"]
    assert "divide" in schemas["Count"]["properties"] and "divide" in schemas["CountResult"]["properties"]
