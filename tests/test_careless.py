"""Careless input (issue 24): every problem of a document at once, each naming its place, what was
found and what the format expects, with "did you mean" for a misspelt key or name — on the command
line (one line each, exit 2) and over JSON-RPC and HTTP (the same lines in the error's data). The
cases are a table: tests/data/careless.yaml.

Private unit: model/_scenario.parse_scenario and model/_problems (MAX_PROBLEMS): every problem of a document at once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from triggerstack.model import ScenarioError
from triggerstack.model._problems import MAX_PROBLEMS
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver.serve import Service

from .conftest import ROOT, main

CASES: list[dict[str, Any]] = yaml.safe_load((ROOT / "tests" / "data" / "careless.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_command_line_says_every_problem_in_the_formats_words(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "scenario.yaml"
    scenario.write_text(case["document"], encoding="utf-8")
    argv = [case.get("verb", "count"), str(scenario)]
    if "proposal" in case:
        proposal = tmp_path / "proposal.json"
        proposal.write_text(case["proposal"], encoding="utf-8")
        argv.append(str(proposal))
    code = main(argv)
    out, err = capsys.readouterr()
    shown = err.replace(str(tmp_path / "proposal.json"), "FILE").replace(str(scenario), "FILE")
    assert (code, out) == (2, "")
    assert shown.splitlines() == ["triggerstack: " + line for line in case["lines"]]
    for line in case["lines"]:  # the format's words, never Python's
        assert not any(word in line for word in ("tuple", "dictionary", "instance", "Input should"))


@pytest.mark.parametrize("case", [c for c in CASES if "proposal" not in c and c["document"]], ids=lambda c: c["name"])
def test_json_rpc_gives_the_same_problems_in_data(case: dict[str, Any]) -> None:
    doc = yaml.safe_load(case["document"])
    answer = json.loads(
        Service().handle(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "count", "params": {"scenario": doc}})) or ""
    )
    error = answer["error"]
    assert error["code"] == -32001
    expected = [
        line.replace("FILE: ", "scenario.", 1).replace("scenario.expected", "scenario: expected")
        for line in case["lines"]
    ]
    messages = [e["message"] for e in error["data"]["errors"]] if "errors" in error["data"] else [error["message"]]
    assert messages == expected
    assert error["message"] == "; ".join(expected)


def test_a_misspelt_param_gets_did_you_mean() -> None:
    answer = json.loads(
        Service().handle('{"jsonrpc": "2.0", "id": 1, "method": "count", "params": {"handel": "x", "divde": true}}')
        or ""
    )
    error = answer["error"]
    assert error["code"] == -32602
    assert [e["message"] for e in error["data"]["errors"]] == [
        "handel: unknown field 'handel': did you mean 'handle'?",
        "divde: unknown field 'divde': did you mean 'divide'?",
    ]


def test_problems_past_the_cap_are_counted_not_listed() -> None:
    objects = [{"id": f"o{i}", "kind": "permanent", "controller": "Z"} for i in range(MAX_PROBLEMS + 5)]
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"players": [{"id": "A"}], "objects": objects, "triggers": [{"id": "T", "controller": "A"}]})
    lines = info.value.lines()
    assert len(lines) == MAX_PROBLEMS + 1
    assert lines[0] == "objects[0].controller: unknown player 'Z'"
    assert lines[-1] == "... and 5 more problems"
