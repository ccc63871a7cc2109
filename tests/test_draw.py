"""Pictures of the stack (``check --format svg``, ``explain --format svg``, the ``draw`` method the
page shows): well-formed SVG with one box per entry, top first, each violation in the box of the
entry it concerns, the passes separated and the blocks of 603.3b listed.

Private unit: model/_limits.Deadline, which Stepper.reachable takes from its caller."""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from triggerstack.model import Outcome, Scenario, outcome_json
from triggerstack.solver import check
from triggerstack.solver.serve import Service

from .conftest import EXAMPLE_NAMES, EXAMPLES

NS = {"svg": "http://www.w3.org/2000/svg"}


def _cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "triggerstack.solver", *argv], capture_output=True, text=True, check=False)


def _entries(svg: str) -> list[tuple[str, list[str]]]:
    root = ET.fromstring(svg)
    out = []
    for g in root.findall(".//svg:g", NS):
        texts = ["".join(t.itertext()) for t in g.findall("svg:text", NS)]
        out.append((g.get("data-ability") or "", texts))
    return out


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_check_draws_the_proposal_top_first_with_each_violation_in_its_entry(name: str) -> None:
    scenario = str(EXAMPLES / name / "scenario.yaml")
    proposal = str(EXAMPLES / name / "illegal.json")
    done = _cli("check", scenario, proposal, "--format", "svg")
    assert done.returncode == 1
    entries = _entries(done.stdout)
    outcome = Outcome.load(proposal)
    assert [a for a, _ in entries] == [e.ability for e in reversed(outcome.stack)]  # top first
    verdict = check(Scenario.load(scenario), outcome)
    drawn = " ".join(t for _, texts in entries for t in texts) + " ".join(ET.fromstring(done.stdout).itertext())
    for v in verdict.violations:
        assert f"{v.rule.value} {v.code.value}" in drawn
    for ability, texts in entries:
        mine = [v for v in verdict.violations if v.ability == ability]
        assert sum(t.startswith(f"{v.rule.value} {v.code.value}") for v in mine for t in texts) == len(mine)
    assert "blocks (603.3b, APNAP)" in drawn


def test_explain_draws_one_legal_outcome_and_the_page_draws_with_the_same_code() -> None:
    done = _cli("explain", str(EXAMPLES / "ward" / "scenario.yaml"), "--format", "svg")
    assert done.returncode == 0
    text = " ".join(ET.fromstring(done.stdout).itertext())
    assert "one legal outcome of 14" in text
    service = Service()
    handle = service.call("load", {"path": str(EXAMPLES / "ward" / "scenario.yaml")})["handle"]
    walk = service.call("step.legal", {"handle": handle})
    while not walk["over"]:
        walk = service.call("step.apply", {"handle": handle, "decisions": walk["decisions"], "decision": walk["legal"][0]["id"]})
    svg = service.call("draw", {"handle": handle, "decisions": walk["decisions"]})["svg"]
    assert "pass 2 above, pass 1 below" in " ".join(ET.fromstring(svg).itertext())
    reachable = service.call("step.count", {"handle": handle, "decisions": walk["decisions"][:1]})
    assert reachable["exact"] and 1 <= reachable["count"] <= 14
    assert service.call("step.count", {"handle": handle})["count"] == 14


@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "board-wipe" else n for n in EXAMPLE_NAMES]
)  # the board wipe: 768 outcomes, each asked for its decisions (about 1 s)
def test_the_reachable_count_from_the_start_is_the_count(name: str) -> None:
    from triggerstack.model._limits import Deadline
    from triggerstack.solver import LegalOutcomes

    legal = LegalOutcomes(Scenario.load(str(EXAMPLES / name / "scenario.yaml")))
    stepper = legal.stepper()
    assert stepper.reachable(stepper.start(), 100_000, Deadline(60)) == (legal.count(), True)
    first = stepper.legal(stepper.start())[0]
    after = stepper.apply(stepper.start(), first)
    count, exact = stepper.reachable(after, 100_000, Deadline(60))
    ends = _ends(stepper, after)
    assert exact and count == sum(1 for o in legal if stepper.decisions_for(o)[0].id == first.id or outcome_json(o) in ends)


def _ends(stepper: object, walk: object) -> set[str]:
    """The outcomes some walk from ``walk`` ends in, as JSON (a search, for the test): an outcome is
    reached from ``walk`` exactly when it is in this set. The search was made again for each outcome
    of the example (board-wipe: 13 s); made once, it is the same set."""
    ends: set[str] = set()
    pending = [walk]
    while pending:
        w = pending.pop()
        legal = stepper.legal(w)  # type: ignore[attr-defined]
        if not legal:
            ends.add(outcome_json(stepper.outcome(w)))  # type: ignore[attr-defined]
            continue
        pending.extend(stepper.apply_unchecked(w, d) for d in legal)  # type: ignore[attr-defined]
    return ends
