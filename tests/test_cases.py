"""Runs every rule case in ``tests/cases/<rule>/<name>.yaml``.

A case names its ``source`` (a rule number or a card ruling), gives a scenario (inline, or
``scenario_file`` relative to the repository, with optional ``override`` of top-level keys),
and lists ``proposals`` with the codes ``check`` must report (empty: legal), ``explain`` facts
per ability, the ``count`` every engine must give, a ``scenario_error`` the scenario must raise, or
``count_error``: the error every engine's count must raise (an endless loop of 603.3b), or
``steps``: decisions taken one at a time (``after`` these, ``decision`` is legal, or illegal with
``rule`` or ``illegal: true``, or ``later: true`` — not offered now, but taken by a legal outcome
further on: no rule is broken and "why not" says how to get there; ``decider`` is who decides then).

Private unit: the readers a case's documents go through (model/_scenario.parse_scenario, model/_outcome.parse_outcome, model/_io.load_document, model/_errors.format_loc), whose errors the cases name by place.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from triggerstack.model import Outcome, Scenario, ScenarioError, compile_facts
from triggerstack.model._errors import format_loc
from triggerstack.model._io import load_document
from triggerstack.model._outcome import parse_outcome
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import IllegalDecision, Stepper, check, count, explain

from .conftest import CASES, ROOT

CASE_FILES = sorted(CASES.rglob("*.yaml"))
KNOWN_KEYS = {
    "source",
    "scenario",
    "scenario_file",
    "override",
    "proposals",
    "explain",
    "scenario_error",
    "count",
    "count_error",
    "count_engines",
    "steps",
}
ENGINES = ("auto", "cpsat", "constraint")


def _load(path: Path) -> dict[str, Any]:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(case, dict), f"{path}: a case is a mapping"
    assert case.get("source"), f"{path}: every case names its source (rule number or ruling)"
    assert set(case) <= KNOWN_KEYS, f"{path}: unknown keys {set(case) - KNOWN_KEYS}"
    return case


def _scenario_data(case: dict[str, Any]) -> Any:
    data = load_document(str(ROOT / case["scenario_file"])) if "scenario_file" in case else case["scenario"]
    return {**data, **case.get("override", {})}


def _scenario(case: dict[str, Any]) -> Scenario:
    return parse_scenario(_scenario_data(case))


def _proposal(p: dict[str, Any]) -> Outcome:
    data = load_document(str(ROOT / p["proposal_file"])) if "proposal_file" in p else p["proposal"]
    return parse_outcome(data)


def _params() -> list[Any]:
    out = []
    for path in CASE_FILES:
        case = _load(path)
        rel = path.relative_to(CASES).with_suffix("")
        for i, p in enumerate(case.get("proposals", [])):
            out.append(pytest.param(path, i, id=f"{rel}:{p.get('name', i)}"))
    return out


def _explain_params() -> list[Any]:
    return [
        pytest.param(path, id=str(path.relative_to(CASES).with_suffix("")))
        for path in CASE_FILES
        if "explain" in _load(path)
    ]


def _error_params() -> list[Any]:
    return [
        pytest.param(path, id=str(path.relative_to(CASES).with_suffix("")))
        for path in CASE_FILES
        if "scenario_error" in _load(path)
    ]


def _step_params() -> list[Any]:
    out = []
    for path in CASE_FILES:
        rel = path.relative_to(CASES).with_suffix("")
        for i, step in enumerate(_load(path).get("steps", [])):
            out.append(pytest.param(path, i, id=f"{rel}:{step.get('name', i)}"))
    return out


@pytest.mark.parametrize(("path", "index"), _step_params())
def test_step(path: Path, index: int) -> None:
    """A decision is offered exactly when it is legal; an illegal one raises IllegalDecision (not
    ScenarioError: the scenario is fine) naming the rule it breaks."""
    step = _load(path)["steps"][index]
    stepper = Stepper(compile_facts(_scenario(_load(path))))
    walk = stepper.walk(step.get("after", []))
    if "decider" in step:
        assert stepper.decider(walk) == step["decider"]
    offered = [d.text for d in stepper.legal(walk)]
    if "rule" not in step and not step.get("illegal") and not step.get("later"):
        assert step["decision"] in offered
        stepper.apply(walk, step["decision"])
        return
    assert step["decision"] not in offered
    with pytest.raises(IllegalDecision) as caught:
        stepper.apply(walk, step["decision"])
    assert not isinstance(caught.value, ScenarioError)
    assert caught.value.rule == step.get("rule")
    assert step["decision"] in str(caught.value) and caught.value.reason in str(caught.value)
    assert list(caught.value.legal) == offered
    if step.get("illegal"):
        return  # a name the scenario lacks: no decision to ask about
    why = stepper.why_illegal(walk, stepper.decision(step["decision"]))
    assert why.later == bool(step.get("later")), why
    if "says" in step:
        assert step["says"] in why.text, why.text


def test_there_are_cases() -> None:
    assert len(CASE_FILES) >= 20


@pytest.mark.parametrize(("path", "index"), _params())
def test_proposal(path: Path, index: int) -> None:
    case = _load(path)
    p = case["proposals"][index]
    if "error" in p:  # a proposal whose shape does not fit the scenario: bad input, not a violation
        with pytest.raises(ScenarioError) as info:
            check(_scenario(case), _proposal(p))
        assert format_loc(info.value.loc) == p["error"]["loc"], info.value.one_line()
        assert p["error"]["contains"] in info.value.message
        return
    verdict = check(_scenario(case), _proposal(p))
    expected = Counter(p.get("codes", []))
    got = Counter(v.code.value for v in verdict.violations)
    detail = "\n".join(f"  {v.rule.value} {v.code.value} {v.ability}: {v.message}" for v in verdict.violations)
    assert got == expected, f"{case['source']}\nexpected {sorted(expected.elements())}, got:\n{detail}"
    assert verdict.legal == (not expected)
    for code, rule in p.get("rules", {}).items():
        assert {v.rule.value for v in verdict.violations if v.code.value == code} == {str(rule)}, detail
    for v in verdict.violations:
        assert "\n" not in v.message and v.message


@pytest.mark.parametrize("path", _explain_params())
def test_explain(path: Path) -> None:
    case = _load(path)
    data = explain(_scenario(case))
    abilities = {a["id"]: a for a in data["abilities"]}
    for aid, facts in case["explain"].items():
        if aid == "_":
            continue
        a = abilities[aid]
        for key in ("controller", "controller_rule", "part", "block", "removal", "chooser"):
            if key in facts:
                assert a[key] == facts[key], f"{aid}.{key}: {a[key]!r} ({a.get('controller_reason')})"
        if "removal_says" in facts:  # the words of its removal's reason (603.3c-d) a judge reads
            assert facts["removal_says"] in a["removal_reason"], f"{aid}: {a['removal_reason']}"
        if "assumed" in facts:  # the controller rests on an assumption explain states (603.3a, 603.10a)
            assert bool(a["controller_assumed"]) == facts["assumed"], f"{aid}: {a['controller_assumed']!r}"
        modes = {m["id"]: m for m in a["modes"]}
        for mid, status in facts.get("modes", {}).items():
            assert modes[mid]["status"] == status, f"{aid} mode {mid}: {modes[mid]}"
        for where, legal in facts.get("legal", {}).items():
            assert _requirement(modes, where)["legal"] == legal, f"{aid} {where}"
        for where, legal in facts.get("legal_once_on_stack", {}).items():
            assert _requirement(modes, where)["legal_once_on_stack"] == legal, f"{aid} {where}"
        for where, excluded in facts.get("excluded", {}).items():
            got: dict[str, set[str]] = {}
            for e in _requirement(modes, where)["excluded"]:
                got.setdefault(e["id"], set()).add(e["code"])
            for thing, code in excluded.items():
                assert code in got.get(thing, set()), f"{aid} {where}: {thing} excluded by {got.get(thing)}"
        for where, ignored in facts.get("ignored", {}).items():  # a thing's own properties that do not function
            said = {e["id"]: e["rule"] for e in _requirement(modes, where)["ignored"]}
            assert said == {thing: str(rule) for thing, rule in ignored.items()}, f"{aid} {where}: {said}"
    if "blocks" in case["explain"].get("_", {}):
        assert [b["abilities"] for b in data["blocks"]] == case["explain"]["_"]["blocks"]


def _requirement(modes: dict[Any, Any], where: str) -> dict[str, Any]:
    mode, _, req = where.rpartition(".")
    reqs = {r["id"]: r for r in modes[mode or None]["requirements"]}
    return reqs[req]  # type: ignore[no-any-return]


def _count_params(key: str = "count") -> list[Any]:
    """Every case with ``key``, once per engine: each of :data:`ENGINES`, or those a case names in
    ``count_engines`` (at least two, the product's and a cross-check; why the others are left out
    is said beside it)."""
    params = []
    for path in CASE_FILES:
        case = _load(path)
        if key not in case:
            continue
        engines = case.get("count_engines", ENGINES)
        assert set(engines) <= set(ENGINES) and "auto" in engines and len(engines) >= 2, (path, engines)
        params += [pytest.param(path, e, id=f"{path.relative_to(CASES).with_suffix('')}:{e}") for e in engines]
    return params


@pytest.mark.parametrize(("path", "engine"), _count_params())
def test_count(path: Path, engine: str) -> None:
    case = _load(path)
    assert count(_scenario(case), engine=engine) == case["count"], case["source"]


@pytest.mark.parametrize(("path", "engine"), _count_params("count_error"))
def test_count_error(path: Path, engine: str) -> None:
    """A scenario whose passes never end has no count: every engine names the loop (104.4b or
    603.3b), and explain says it too."""
    case = _load(path)
    expected = case["count_error"]
    with pytest.raises(ScenarioError) as info:
        count(_scenario(case), engine=engine)
    assert expected["contains"] in info.value.message, info.value.one_line()
    assert info.value.rule is not None and info.value.rule.value == str(expected["rule"])
    loop = explain(_scenario(case)).get("loop")
    assert loop is not None and expected["contains"] in loop["message"] and loop["rule"] == str(expected["rule"])


@pytest.mark.parametrize("path", _error_params())
def test_scenario_error(path: Path) -> None:
    case = _load(path)
    expected = case["scenario_error"]
    with pytest.raises(ScenarioError) as info:
        _scenario(case)
    err = info.value
    assert format_loc(err.loc) == expected["loc"], err.one_line()
    assert expected["contains"] in err.message, err.one_line()
    if "rule" in expected:
        assert err.rule is not None and err.rule.value == str(expected["rule"])


def test_every_code_is_produced_and_every_case_file_has_a_lawful_proposal() -> None:
    """Each violation code of docs/formats.md (Violation codes) is expected by at least one case; a case file that expects
    violations also holds a lawful proposal for the same scenario."""
    from triggerstack.model import Code

    seen: set[str] = set()
    for path in CASE_FILES:
        case = _load(path)
        proposals = case.get("proposals", [])
        for p in proposals:
            seen.update(p.get("codes", []))
        if any(p.get("codes") for p in proposals):
            assert any(not p.get("codes") and "error" not in p for p in proposals), f"{path}: no lawful proposal"
    assert {c.value for c in Code} - seen == set()
