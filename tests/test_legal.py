"""``LegalOutcomes``: one object per scenario that answers every verb the way the free functions
do, keeps what it learned, and whose outcomes are values (hashable, equal by value)."""

from __future__ import annotations

import json
import time

import pytest
from triggerstack.model import Outcome, Scenario, outcome_json
from triggerstack.model.outcome import parse_outcome
from triggerstack.solver import LegalOutcomes, Options, check, count, outcomes, sample, step

from .conftest import EXAMPLE_NAMES, EXAMPLES

NAMES = EXAMPLE_NAMES


def _scenario(name: str) -> Scenario:
    return Scenario.load(str(EXAMPLES / name / "scenario.yaml"))


@pytest.mark.parametrize("name", NAMES)
def test_answers_as_the_free_functions(name: str) -> None:
    scenario = _scenario(name)
    legal = LegalOutcomes(scenario)
    every = list(outcomes(scenario))
    assert legal.count() == count(scenario) == len(every) == len(legal)
    assert list(legal) == every
    assert [outcome_json(o) for o in legal.sample(7, seed=5)] == [outcome_json(o) for o in sample(scenario, 7, 5)]
    assert list(legal.sample_lines(7, seed=5)) == [outcome_json(o) for o in sample(scenario, 7, 5)]
    assert legal.stepper() is legal.stepper()
    assert [d.text for d in legal.stepper().legal(legal.stepper().start())] == [d.text for d in step(scenario)]


@pytest.mark.parametrize("name", NAMES)
def test_rank_and_unrank_are_inverse(name: str) -> None:
    legal = LegalOutcomes(_scenario(name))
    n = legal.count()
    for i, outcome in enumerate(legal):
        assert legal[i] == outcome
        assert legal.index(outcome) == i
        assert outcome in legal
    assert legal[-1] == legal[n - 1]
    with pytest.raises(IndexError):
        legal[n]


@pytest.mark.parametrize("name", NAMES)
def test_an_illegal_proposal_is_not_in_it(name: str) -> None:
    scenario = _scenario(name)
    legal = LegalOutcomes(scenario)
    illegal = parse_outcome(json.loads((EXAMPLES / name / "illegal.json").read_text()))
    assert not check(scenario, illegal).legal
    assert illegal not in legal
    with pytest.raises(ValueError):
        legal.index(illegal)
    proposal = parse_outcome(json.loads((EXAMPLES / name / "legal.json").read_text()))
    assert proposal in legal
    assert legal[legal.index(proposal)] in legal


def test_outcomes_are_hashable_values() -> None:
    legal = LegalOutcomes(_scenario("ward"))  # across passes: 14 whole outcomes
    every = list(legal)
    assert len(set(every)) == len(every) == 14
    for o in every:
        again = parse_outcome(json.loads(outcome_json(o)))  # made by validation, not by an engine
        assert again == o and hash(again) == hash(o)
        shuffled = Outcome.model_validate(
            {
                "stack": [
                    {**e.model_dump(exclude_none=True), "targets": dict(reversed(e.targets.items()))} for e in o.stack
                ],
                "removed": list(o.removed),
                "passes": o.passes,
            }
        )
        assert shuffled == o and hash(shuffled) == hash(o)
    assert every[0] != every[1] and every[0] in set(every) and every[1] not in {every[0]}


def test_what_is_learned_is_kept_with_the_scenario() -> None:
    scenario = _scenario("inferno-titan")
    first, second = LegalOutcomes(scenario), LegalOutcomes(scenario, time_limit=5)
    assert first._learned is second._learned  # the time limit is per call, not a different question
    assert LegalOutcomes(scenario, engine="cpsat")._learned is not first._learned
    first.count()
    assert second._learned.chains, "the chain first.count() built is there for the second"


def test_each_call_has_its_own_time_limit() -> None:
    legal = LegalOutcomes(_scenario("ward"), Options(time_limit=0.2))
    legal.count()
    time.sleep(0.3)  # longer than the limit: a deadline that were not restarted would have passed
    assert legal.count() == 14
    assert len(list(legal.sample(3, seed=1))) == 3
