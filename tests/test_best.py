"""``best`` (docs/cli.md): the optimum, and an honest answer when the time limit stops CP-SAT first."""

from __future__ import annotations

import json

import pytest
from triggerstack.model import Scenario, Score, facts_of
from triggerstack.solver import best

from .conftest import ROOT, main

WIDE = ROOT / "benchmarks" / "scenarios" / "abilities-16.json"  # 7·10^16 outcomes; CP-SAT proves its optimum in ~20 s


def heights(path: str) -> Score:
    facts = facts_of(Scenario.load(path))
    first = facts.things[0].id
    return Score(
        height={a.id: a.index % 5 + 1 for a in facts.abilities}, target={a.id: {first: 2} for a in facts.abilities}
    )


@pytest.mark.slow  # waits out a time limit (about 3 s)
def test_cpsat_stopped_by_the_time_limit_says_the_optimum_is_not_proven() -> None:
    score = heights(str(WIDE))
    exact = best(Scenario.load(str(WIDE)), score)  # the product engine, part by part: proven
    cut = best(Scenario.load(str(WIDE)), score, engine="cpsat", time_limit=3)  # finds one in ~0.5 s, proves in ~20 s
    assert exact.proven and not cut.proven
    assert cut.score <= exact.score


@pytest.mark.slow  # waits out a time limit (about 3 s)
def test_the_command_line_prints_an_unproven_best_and_exits_3(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    path = f"{tmp_path}/score.json"
    with open(path, "w", encoding="utf-8") as f:
        f.write(heights(str(WIDE)).model_dump_json())
    assert main(["best", str(WIDE), "--score", path, "--engine", "cpsat", "--time-limit", "3"]) == 3
    out, err = capsys.readouterr()
    assert json.loads(out)["proven"] is False
    assert "not proven optimal" in err and err.count("\n") == 1


def test_a_small_pass_whose_score_does_not_split_is_answered_without_or_tools() -> None:
    """Ertai's pass is coupled (E targets the abilities below it), so its score does not split part
    by part; its few outcomes are scored one by one, exactly, and OR-Tools is never imported (its
    import cost ``best`` 3× ``count`` as a process, issue 52)."""
    import subprocess
    import sys

    scenario = str(ROOT / "examples" / "ertai-resurrected" / "scenario.yaml")
    score = Score(height={"E": 5}, target={"E": {"SWA": 3}})
    probe = (
        "import sys; from triggerstack.model import Scenario, Score; from triggerstack.solver import best; "
        f"b = best(Scenario.load({scenario!r}), Score.model_validate_json({score.model_dump_json()!r})); "
        "print(b.score, b.proven, 'ortools' in sys.modules)"
    )
    printed = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    facts = facts_of(Scenario.load(scenario))
    assert printed == [str(best(facts, score, engine="cpsat").score), "True", "False"]
