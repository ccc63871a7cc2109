"""``step``: every walk ends in an outcome that ``check`` accepts, and every outcome is reachable.

Rule 603.3b: each player "puts triggered abilities they control on the stack in any order they
choose"; 603.3c–d: the modes and targets are announced as the ability is put on the stack, and an
ability with no legal choice is removed. A walk decides exactly those things, one at a time.

Private unit: the stepper's walk against the product engine's indexed outcomes (solver/_core/indexed, solver/_engines/product), under a Deadline (model/_limits) the test gives.
"""

from __future__ import annotations

from itertools import islice
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from triggerstack.model import Scenario, ScenarioError, compile_facts, outcome_json
from triggerstack.solver import LegalOutcomes, Stepper, TimeLimitReached, Walk, check
from triggerstack.solver._core.indexed import to_outcome
from triggerstack.solver._engines.product import ProductEngine

from .strategies import SETTINGS, scenarios
from .test_agreement import size_bound

pytestmark = pytest.mark.slow  # hundreds of generated scenarios

SMALL = 120


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 2)
@given(doc=st.one_of(scenarios(), scenarios(linked=True)), data=st.data())
def test_random_walks_end_in_legal_outcomes_and_reach_every_outcome(doc: dict[str, Any], data: st.DataObject) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 4 * SMALL)  # before anything enumerates a coupled core
    fast = ProductEngine(facts)
    assume(fast.count() <= SMALL)
    stepper = Stepper(facts)
    every = {outcome_json(to_outcome(facts, r)) for r in fast}

    for _ in range(3):
        state = stepper.start()
        while True:
            legal = stepper.legal(state)
            if not legal:
                break
            assert [d.id for d in legal] == sorted(d.id for d in legal)
            assert all(0 <= d.id < stepper.size and stepper.decision(d.text) == d for d in legal)
            before = state
            state = stepper.apply(state, data.draw(st.sampled_from(legal)))
            assert state != before and before == stepper.walk(before.decisions), "apply never changes its input"
        assert stepper.is_over(state) and not stepper.legal(state)
        outcome = stepper.outcome(state)
        assert check(facts, outcome).legal
        assert outcome_json(outcome) in every
        assert stepper.outcome_line(state) == outcome_json(outcome), "the line an episode ends with"

    reached: set[str] = set()
    seen: set[tuple[object, ...]] = set()

    def explore(state: Walk) -> None:
        here = state.local
        done = tuple((id(f), st.stack, st.removed) for f, st in state.done)
        key = (done, id(state.facts), here.stack, here.removed, here.current, here.tokens)  # not the path
        if key in seen:
            return
        seen.add(key)
        legal = stepper.legal(state)
        if not legal:
            reached.add(outcome_json(stepper.outcome(state)))
            return
        for d in legal:
            explore(stepper.apply_unchecked(state, d))

    explore(stepper.start())
    assert reached == every


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 3)
@given(doc=scenarios(reactions=True))
def test_decisions_for_reaches_every_outcome_and_refuses_what_check_rejects(doc: dict[str, Any]) -> None:
    """``decisions_for`` inverts the walk: for every legal outcome (every pass), a sequence of
    legal decisions that ends in it; for an outcome ``check`` rejects, the verdict."""
    from triggerstack.model import ScenarioError
    from triggerstack.solver import IllegalOutcome, LegalOutcomes, TimeLimitReached

    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 4 * SMALL)
    legal = LegalOutcomes(facts, time_limit=2)
    try:
        assume(legal.count() <= SMALL)
        every = list(legal)
    except (ScenarioError, TimeLimitReached):  # a loop of reactions, or too long a listing
        assume(False)
    stepper = Stepper(facts)
    for outcome in every:
        assert stepper.outcome(stepper.walk(stepper.decisions_for(outcome))) == outcome
    if every and every[0].stack:
        swapped = every[0].model_copy(update={"stack": every[0].stack[::-1], "removed": ()})
        verdict = check(facts, swapped)
        if not verdict.legal:
            with pytest.raises(IllegalOutcome) as caught:
                stepper.decisions_for(swapped)
            assert caught.value.verdict == verdict


@pytest.mark.slow
@settings(SETTINGS, max_examples=SETTINGS.max_examples // 2)
@given(doc=scenarios(max_abilities=5), data=st.data())
def test_the_count_at_every_prefix_is_the_outcomes_that_extend_it(doc: dict[str, Any], data: st.DataObject) -> None:
    """Issue 23: ``step.count`` is exact at every prefix of a walk, counted (never listed): equal
    to the distinct outcomes reached by walking every continuation (an independent count: the
    walk's own decisions, followed to their ends), the whole count at the start, one at the end."""
    from triggerstack.model._limits import Deadline

    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 2000)
    stepper = Stepper(facts)
    walk = stepper.start()
    assert stepper.count(walk) == ProductEngine(facts).count()
    while True:
        counted = stepper.count(walk)
        assert counted is not None  # one pass: always counted
        assert stepper.reachable(walk, 10**6, Deadline(None)) == (counted, True)
        moves = stepper.legal(walk)
        if not moves:
            assert counted == 1
            break
        assert counted >= 1
        walk = stepper.apply(walk, data.draw(st.sampled_from(moves)))


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 3)
@given(doc=scenarios(reactions=True))
def test_taking_the_forced_decisions_keeps_every_outcome(doc: dict[str, Any]) -> None:
    """``Stepper.forced`` takes only decisions that are the only legal one: exploring every walk
    with the forced decisions taken at each step reaches exactly the outcomes, and every state it
    stops in either is over or offers a real choice (two or more legal decisions)."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 4 * SMALL)
    fast = ProductEngine(facts)
    assume(fast.count() <= SMALL)
    stepper = Stepper(facts)
    try:
        every = {outcome_json(o) for o in islice(LegalOutcomes(facts, time_limit=2), 4 * SMALL + 1)}
    except (ScenarioError, TimeLimitReached):  # 603.3b's passes never end (nothing to walk to), or too long a listing
        assume(False)
    assume(len(every) <= 4 * SMALL)
    reached: set[str] = set()
    taken = 0

    def explore(state: Walk) -> None:
        nonlocal taken
        state, n = stepper.forced(state)
        taken += n
        legal = stepper.legal(state)
        assert len(legal) != 1
        if not legal:
            reached.add(outcome_json(stepper.outcome(state)))
            return
        for d in legal:
            explore(stepper.apply(state, d))

    explore(stepper.start())
    assert reached == every


def test_the_line_of_every_outcome_is_its_canonical_json() -> None:
    """What an episode ends with is ``outcome_json`` of its outcome for each shape of entry:
    modal (a mode dividing among its targets, a mode with none), and a divided non-modal one."""
    doc = {
        "players": ["A", "B"],
        "objects": [{"id": f"c{k}", "controller": "AB"[k % 2], "types": ["creature"]} for k in range(3)],
        "triggers": [
            {
                "id": "M",
                "controller": "A",
                "modal": {"choose": [1, 2]},
                "modes": [
                    {"id": "split", "targets": [{"id": "t", "min": 1, "max": 2, "divide": 3, "filter": {"type": "creature"}}]},
                    {"id": "none", "targets": []},
                ],
            },
            {"id": "D", "controller": "B", "targets": [{"id": "u", "min": 1, "max": 2, "divide": 2, "filter": {"type": "creature"}}]},
        ],
    }
    stepper = Stepper(compile_facts(Scenario.model_validate(doc)))
    lines = 0
    pending = [stepper.start()]
    while pending:
        walk = pending.pop()
        legal = stepper.legal(walk)
        if not legal:
            assert stepper.outcome_line(walk) == outcome_json(stepper.outcome(walk))
            lines += 1
        pending.extend(stepper.apply_unchecked(walk, d) for d in legal)
    assert lines > 50
