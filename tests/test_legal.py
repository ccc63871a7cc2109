"""``LegalOutcomes``: one object per scenario that answers every verb the way the free functions
do, keeps what it learned, and whose outcomes are values (hashable, equal by value).

Private unit: model/_limits (Deadline, RUNNING, deadline_for), the per-call deadlines LegalOutcomes builds."""

from __future__ import annotations

import json
import threading
import time

import pytest
from triggerstack.model import Outcome, Scenario, outcome_json
from triggerstack.solver import LegalOutcomes, Options, TimeLimitReached, check, count, outcomes, sample, step

from .conftest import EXAMPLE_NAMES, EXAMPLES, PATIENCE

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
    illegal = Outcome.model_validate(json.loads((EXAMPLES / name / "illegal.json").read_text()))
    assert not check(scenario, illegal).legal
    assert illegal not in legal
    with pytest.raises(ValueError):
        legal.index(illegal)
    proposal = Outcome.model_validate(json.loads((EXAMPLES / name / "legal.json").read_text()))
    assert proposal in legal
    assert legal[legal.index(proposal)] in legal


def test_outcomes_are_hashable_values() -> None:
    legal = LegalOutcomes(_scenario("ward"))  # across passes: 14 whole outcomes
    every = list(legal)
    assert len(set(every)) == len(every) == 14
    for o in every:
        again = Outcome.model_validate(json.loads(outcome_json(o)))  # made by validation, not by an engine
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


class _Clock:
    """The deadlines' clock, moved by the test alone: a time limit runs out when the test says so,
    never because the machine is busy (a 0.2 s limit on a 14-outcome count ran out under load)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    from triggerstack.model import _limits

    fake = _Clock()
    monkeypatch.setattr(_limits, "clock", fake.monotonic)
    return fake


def test_each_call_has_its_own_time_limit(clock: _Clock) -> None:
    legal = LegalOutcomes(_scenario("ward"), Options(time_limit=0.2))
    legal.count()
    clock.now += 0.3  # longer than the limit: a deadline that were not restarted would have passed
    assert legal.count() == 14
    assert len(list(legal.sample(3, seed=1))) == 3


def test_a_call_keeps_its_own_deadline_while_another_runs(clock: _Clock) -> None:
    """A lazy call (a generator) keeps the deadline it started with: another call of the same
    scenario meanwhile, with a time limit of its own, neither moves it nor shares it (one deadline
    shared by every call, restarted by each, gave the sample the other call's 0.2 s)."""
    scenario = _scenario("ward")
    draws = LegalOutcomes(scenario, time_limit=60).sample(None, seed=1)
    next(draws)
    assert LegalOutcomes(scenario, time_limit=0.2).count() == 14  # the same scenario, what it learned shared
    clock.now += 0.3
    assert next(draws) is not None  # within its own 60 s
    clock.now += 60
    with pytest.raises(TimeLimitReached):  # and it is its own: past 60 s, this one runs out
        for _ in range(100):
            next(draws)


def test_two_threads_asking_one_scenario_never_share_a_deadline() -> None:
    """Each call builds one deadline from its own time limit as it starts, and it is what the call
    checks: two threads inside calls of one scenario at the same moment hold two deadlines, and a
    tiny limit runs out in its own call alone while the other finishes."""
    from triggerstack.model._limits import RUNNING, Deadline, deadline_for
    from triggerstack.solver import TimeLimitReached

    seen: dict[str, Deadline] = {}
    both_inside = threading.Barrier(2, timeout=PATIENCE)

    def next_pass(_scenario: Scenario, _placed: Outcome) -> list[dict[str, object]]:  # runs inside each call
        me = threading.current_thread().name
        if me not in seen:
            seen[me] = deadline_for(None)  # the deadline in force: this call's
            both_inside.wait()
            if me == "quick":
                time.sleep(0.3)
        RUNNING.check("asking what fires next")  # what a kept engine checks: this call's deadline
        return []

    scenario = _scenario("ertai-resurrected")
    proposal = Outcome.load(str(EXAMPLES / "ertai-resurrected" / "legal.json"))
    answers: dict[str, object] = {}

    def ask(seconds: float) -> None:
        legal = LegalOutcomes(scenario, time_limit=seconds, next_pass=next_pass)
        try:
            answers[threading.current_thread().name] = legal.check(proposal).legal
        except TimeLimitReached as exc:
            answers[threading.current_thread().name] = exc

    threads = [threading.Thread(target=ask, args=(s,), name=n) for n, s in (("quick", 0.1), ("slow", 60.0))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=PATIENCE)
    assert seen["quick"] is not seen["slow"]
    assert (seen["quick"].seconds, seen["slow"].seconds) == (0.1, 60.0)
    assert isinstance(answers["quick"], TimeLimitReached) and "0.1s" in str(answers["quick"])
    assert answers["slow"] is True


def test_reprs_say_what_a_value_is() -> None:
    """A judge or an agent's author printing a verdict, a walk, a stepper or a decision reads what
    it is (not a dataclass dump of frozensets and facts)."""
    from triggerstack.solver import Decision, DecisionKind

    ertai = EXAMPLES / "ertai-resurrected"
    scenario = Scenario.load(str(ertai / "scenario.yaml"))
    assert repr(check(scenario, Outcome.load(str(ertai / "illegal.json")))) == (
        "<Verdict: illegal, 1 violation (601.2c target-not-yet-on-stack)>"
    )
    assert repr(check(scenario, Outcome.load(str(ertai / "legal.json")))) == "<Verdict: legal>"
    legal = LegalOutcomes(scenario)
    stepper = legal.stepper()
    walk = stepper.walk(["put SWB"])
    assert repr(stepper) == f"<Stepper of 3 waiting abilities: {stepper.size} decision ids>"
    assert repr(walk) == "<Walk in pass 1: 1 decision, 1 placed and 0 removed in this pass>"
    put = stepper.decision("put SWA")
    assert repr(put) == f"<Decision {put.id}: put SWA>" and str(put) == "put SWA"
    assert Decision.parse(str(put)) == put.key == (DecisionKind.PUT, "SWA", "", 0)
    for d in stepper.legal(stepper.walk(["put SWB", "put SWA", "put E"])):
        assert stepper.decision(str(d)) == d and Decision.parse(str(d)) == d.key  # the parser reads every form back
    assert repr(legal.explain()) == "<Explanation: 3 waiting abilities, 10 legal outcomes>"
