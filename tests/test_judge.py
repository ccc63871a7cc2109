"""The judge room is the one home of each rule's reason: ``check`` (a whole proposal), ``step``
(one decision of a walk) and ``explain`` (each mode and candidate) say the same sentence for the
same rule, because each asks the same function of ``solver/_judge/``; and nothing outside the judge
room words a reason."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import yaml
from triggerstack.model import Scenario
from triggerstack.model._outcome import parse_outcome
from triggerstack.solver import LegalOutcomes
from triggerstack.solver import _judge as judge

from .conftest import ROOT


def _case(path: str) -> tuple[LegalOutcomes, dict[str, Any]]:
    doc = yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))
    proposals = {p["name"]: p["proposal"] for p in doc.get("proposals", [])}
    return LegalOutcomes(Scenario.model_validate(doc["scenario"])), proposals


def _example(name: str) -> tuple[LegalOutcomes, dict[str, Any]]:
    folder = ROOT / "examples" / name
    scenario = yaml.safe_load((folder / "scenario.yaml").read_text(encoding="utf-8"))
    proposal = yaml.safe_load((folder / "illegal.json").read_text(encoding="utf-8"))
    return LegalOutcomes(Scenario.model_validate(scenario)), proposal


def _why(legal: LegalOutcomes, taken: list[str], asked: str) -> judge.Reason:
    stepper = legal.stepper()
    walk = stepper.walk(taken)
    decision = stepper.decision(asked)
    assert decision.id not in {d.id for d in stepper.legal(walk)}, f"{asked} is legal after {taken}"
    return stepper.why_illegal(walk, decision)


def _ability(legal: LegalOutcomes, aid: str) -> Any:
    return legal.facts.abilities[legal.facts.ability_index[aid]]


def _explained(legal: LegalOutcomes, aid: str) -> dict[str, Any]:
    explained = legal.explain().to_json()
    return next(a for a in explained["abilities"] if a["id"] == aid)


def test_a_mode_not_available_is_one_sentence_in_check_step_and_explain() -> None:
    """700.2: TWO's mode scry is marked unavailable."""
    legal, proposals = _case("tests/cases/603.3c/modes.yaml")
    two = _ability(legal, "TWO")
    said = judge.mode_unavailable(two, two.modes[two.mode_index["scry"]])
    (violation,) = legal.check(parse_outcome(proposals["unavailable-mode"])).violations
    assert (violation.code, violation.rule, violation.message) == (said.code, said.rule, said.text)
    stepped = _why(legal, ["put TWO"], "mode TWO:scry")
    assert stepped == said
    mode = next(m for m in _explained(legal, "TWO")["modes"] if m["id"] == "scry")
    assert (mode["status"], mode["reason"]) == ("unavailable", said.text)


def test_a_target_not_yet_on_the_stack_is_one_sentence_in_check_and_step() -> None:
    """601.2c: Ertai's ability E can target SWA only once SWA is on the stack below it."""
    legal, proposal = _example("ertai-resurrected")
    e = _ability(legal, "E")
    said = judge.not_on_stack(legal.facts, e, legal.facts.thing_index["SWA"])
    (violation,) = legal.check(parse_outcome(proposal)).violations
    assert violation.code is said.code and violation.rule is said.rule
    assert violation.message.endswith(": " + said.text)
    assert _why(legal, ["put SWB", "put E", "mode E:counter", "end modes"], "target SWA") == said


def test_an_excluded_candidate_gives_one_reason_in_check_step_and_explain() -> None:
    """702.11b: Flametongue Kavu's trigger can't target B's hexproof Gladecover Scout."""
    legal, _ = _example("flametongue-kavu")
    ftk = _ability(legal, "FTK")
    requirement = ftk.modes[0].requirements[0]
    (said,) = judge.excluded(legal.facts, ftk, requirement, legal.facts.thing_index["scout"])
    proposal = {"stack": [{"ability": "FTK", "targets": {requirement.id: ["scout"]}}]}
    (violation,) = legal.check(parse_outcome(proposal)).violations
    assert (violation.code, violation.rule) == (said.code, said.rule)
    assert violation.message.endswith(": " + said.text)
    stepped = _why(legal, ["put FTK"], "target scout")
    assert (stepped.code, stepped.rule) == (said.code, said.rule) and stepped.text.endswith(": " + said.text)
    (shown,) = [
        x for x in _explained(legal, "FTK")["modes"][0]["requirements"][0]["excluded"] if x["id"] == "scout"
    ]
    assert (shown["code"], shown["rule"], shown["reason"]) == (said.code, said.rule, said.text)


def _words_a_reason(path: Path) -> list[str]:
    """Where a module outside the judge room builds a reason or a violation itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in ("Reason", "Violation") or (
                isinstance(f, ast.Attribute) and f.attr == "of" and isinstance(f.value, ast.Name) and f.value.id == "Reason"
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_only_the_judge_room_words_a_reason() -> None:
    room = ROOT / "solver" / "_judge"
    inside = [w for p in sorted(room.glob("*.py")) for w in _words_a_reason(p)]
    assert len(inside) > 30  # the check is not vacuous: the judge room words every reason
    outside = [
        w
        for folder in ("model", "solver", "adapters")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if room not in p.parents
        for w in _words_a_reason(p)
    ]
    assert not outside, "a reason worded outside solver/_judge/: " + ", ".join(outside)
