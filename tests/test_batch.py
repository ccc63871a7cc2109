"""``check --batch``: exactly one verdict line per input line (a blank one skipped), in input order, a verdict for each
malformed line (its error and line number), the same with ``--jobs``."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import EXAMPLES, main

ERTAI = EXAMPLES / "ertai-resurrected"
LEGAL = (ERTAI / "legal.json").read_text().strip().replace("\n", " ")
ILLEGAL = (ERTAI / "illegal.json").read_text().strip().replace("\n", " ")
SHAPES = [
    LEGAL,
    ILLEGAL,
    "{not json",
    '{"stack": [{"abilty": "NOPE"}]}',
    "\f",  # a form feed is no JSON whitespace: not blank (a blank line is skipped, tests/test_attacks_65b.py)
    '{"stack": [], "removed": ["SWB", "SWA", "E"]}',
]
EXPECT = ["legal", "illegal", "error", "error", "error", "illegal"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def kind(v: dict[str, Any]) -> str:
    return "error" if "error" in v else "legal" if v["legal"] else "illegal"


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_twenty_thousand_lines_every_one_judged_in_order(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    """Every line judged, in order: 20,000 lines are 79 messages of 256 lines (solver/serve/_batch.py
    ``CHUNK``), dealt in turn to the workers. The 100,000-line figure is the
    benchmark's (docs/benchmarks.md): at that size this test judged the same thing five times over."""
    n = 20_000
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(SHAPES[i % len(SHAPES)] for i in range(n)) + "\n")
    code, verdicts, err = run(
        capsys, "check", "--batch", str(path), "--scenario", str(ERTAI / "scenario.yaml"), "--jobs", jobs
    )
    assert (code, err) == (1, "")
    assert len(verdicts) == n
    assert [v["line"] for v in verdicts] == list(range(1, n + 1))
    assert [kind(v) for v in verdicts[:12]] == EXPECT * 2
    assert all(kind(v) == EXPECT[i % len(EXPECT)] for i, v in enumerate(verdicts))


def test_errors_name_the_line_and_place(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text("\n".join(SHAPES) + "\n")
    _, verdicts, _ = run(capsys, "check", "--batch", str(path), "--scenario", str(ERTAI / "scenario.yaml"))
    assert verdicts[2] == {  # one shape of error line, check --batch and batch alike (issue 34)
        "line": 3,
        "error": {"code": -32700, "message": "column 2: malformed JSON: Expecting property name enclosed in double quotes"},
    }
    said = "stack[0].abilty: unknown field 'abilty': did you mean 'ability'? ('ability' is missing)"
    assert verdicts[3]["line"] == 4 and verdicts[3]["error"]["code"] == -32001
    assert verdicts[3]["error"]["message"] == said and verdicts[3]["error"]["data"]["place"] == "stack[0].abilty"
    assert verdicts[4]["line"] == 5 and "malformed JSON" in verdicts[4]["error"]["message"]


def test_a_proposal_naming_what_did_not_trigger_is_judged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "b.jsonl"
    path.write_text('{"stack": [{"ability": "NOPE"}]}\n')
    code, (verdict,), _ = run(capsys, "check", "--batch", str(path), "--scenario", str(ERTAI / "scenario.yaml"))
    assert code == 1 and verdict["legal"] is False
    codes = sorted(v["code"] for v in verdict["violations"])
    assert codes == ["missing-ability"] * 3 + ["unknown-ability"]


def test_scenario_per_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import yaml

    scenario = yaml.safe_load((ERTAI / "scenario.yaml").read_text())
    lines = [
        json.dumps({"scenario": scenario, "proposal": json.loads(LEGAL)}),
        json.dumps({"scenario": {**scenario, "players": []}, "proposal": json.loads(LEGAL)}),
        json.dumps({"proposal": json.loads(LEGAL)}),
        json.dumps({"scenario": scenario, "proposal": {"stack": [], "passes": [1]}}),
    ]
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(("\n".join(lines) + "\n").encode())))
    code, verdicts, _ = run(capsys, "check", "--batch", "-")
    assert code == 1 and [v["line"] for v in verdicts] == [1, 2, 3, 4]
    assert verdicts[0]["legal"] is True
    assert verdicts[1]["error"]["message"].startswith("scenario.players: ")
    assert "expected {" in verdicts[2]["error"]["message"]
    assert verdicts[3]["error"]["message"].startswith("proposal.passes: passes add up to 1 entries")


def test_batch_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", "--batch", str(tmp_path / "missing.jsonl"))
    assert code == 2 and "cannot read" in err
    code, _, err = run(capsys, "check", str(ERTAI / "scenario.yaml"), str(ERTAI / "legal.json"), "--jobs", "2")
    assert code == 2 and "go with --batch" in err
