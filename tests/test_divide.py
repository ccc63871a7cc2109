"""``count --divide``, perft's divide: the count under each first (bottom) stack entry, with its
choices. The entries partition the outcomes — every outcome has one bottom entry or an empty
stack — so the counts sum to ``count`` on every surface (Python, the command line, JSON-RPC,
HTTP), and each count is the number of simulated outcomes with that bottom entry.

Private unit: solver/_core/indexed (IndexedOutcome, to_outcome), the outcomes a divide is tallied from."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from triggerstack.model import Scenario, ScenarioError, compile_facts, outcome_dict
from triggerstack.solver import LegalOutcomes, Options, TimeLimitReached, count
from triggerstack.solver._core.indexed import IndexedOutcome, to_outcome
from triggerstack.solver.serve import Service

from .conftest import EXAMPLE_NAMES, EXAMPLES, main
from .property.strategies import SETTINGS, scenarios
from .property.test_agreement import size_bound
from .simulator import simulate


def _first(entry: dict[str, Any] | None) -> str:
    return "" if entry is None else json.dumps(entry, sort_keys=True)


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_divide_sums_to_count_on_every_surface(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / name / "scenario.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    legal = LegalOutcomes(Scenario.model_validate(doc))
    total = legal.count()
    divided = legal.divide()
    assert sum(n for _, n in divided) == total and all(n > 0 for _, n in divided)
    assert [_first(e) for e, _ in divided] == sorted(_first(e) for e, _ in divided)  # sorted, nothing twice
    assert len({_first(e) for e, _ in divided}) == len(divided)

    # the command line: a line per first entry, then the total alone
    assert main(["count", str(path), "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == str(total) and lines[-2] == ""
    assert sum(int(line.rpartition(": ")[2]) for line in lines[:-2]) == total
    assert main(["count", str(path), "--divide", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["count"] == total and [(d["first"], d["count"]) for d in shown["divide"]] == divided

    # JSON-RPC, and the same request's answer without divide is unchanged
    answered = Service().call("count", {"scenario": doc, "divide": True})
    assert answered == {"count": total, "divide": [{"first": e, "count": n} for e, n in divided]}
    assert Service().call("count", {"scenario": doc}) == {"count": total}


def test_divide_beyond_the_outcome_cap_says_which_flag(capsys: pytest.CaptureFixture[str]) -> None:
    path = EXAMPLES / "board-wipe" / "scenario.yaml"
    total = count(Scenario.model_validate(yaml.safe_load(path.read_text(encoding="utf-8"))))
    assert main(["count", str(path), "--divide", "--max-outcomes", str(total - 1)]) == 2
    err = capsys.readouterr().err
    assert "--max-outcomes" in err and str(total) in err


@pytest.mark.slow
@settings(SETTINGS, max_examples=max(10, SETTINGS.max_examples // 3))
@given(doc=scenarios(max_abilities=4))
def test_divide_counts_the_simulated_outcomes_by_their_bottom_entry(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    simulated = simulate(facts)
    assume(len(simulated) <= 400)
    by_first: Counter[str] = Counter()
    for indexed in simulated:
        outcome = to_outcome(facts, IndexedOutcome(indexed.stack, indexed.removed))
        by_first[_first(outcome_dict(outcome)["stack"][0] if outcome.stack else None)] += 1
    for engine in ("product", "cpsat"):
        divided = LegalOutcomes(facts, Options(engine=engine)).divide()
        assert {_first(e): n for e, n in divided} == dict(by_first)
        assert sum(n for _, n in divided) == count(facts)


@pytest.mark.slow
@pytest.mark.usefixtures("cpu_clock")  # its time limit sets inputs aside: the same ones on a busy machine
@settings(SETTINGS, max_examples=max(10, SETTINGS.max_examples // 3))
@given(doc=scenarios(max_abilities=3, reactions=True))
def test_divide_sums_to_count_across_passes(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    legal = LegalOutcomes(facts, time_limit=5)
    try:
        total = legal.count()
    except (ScenarioError, TimeLimitReached):  # an endless loop, past a cap, or too long to list here
        assume(False)
        return
    assume(total <= 300)
    firsts = Counter(_first(outcome_dict(o)["stack"][0] if o.stack else None) for o in legal.outcomes())
    assert {_first(e): n for e, n in legal.divide()} == dict(firsts)
    assert sum(firsts.values()) == total
