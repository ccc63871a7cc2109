"""The engines agree with each other and with ``check`` on generated scenarios.

Rule 603.3b: "each player, in APNAP order, puts triggered abilities they control on the stack
in any order they choose ... Second, each player, in APNAP order, puts all remaining triggered
abilities they control on the stack in any order they choose." 603.3c–d: modes and targets are
chosen as the ability is put on the stack; "if a choice is required ... but no legal choices can
be made for it, ... the ability is simply removed from the stack."

For each generated scenario: the outcome sets of the fast path, CP-SAT, python-constraint2 and
the literal simulator are identical; the fast path enumerates in rank order and ``rank`` inverts
``unrank``; merging identical abilities counts and enumerates one outcome per class of outcomes
that differ only by swapping them; ``count`` equals their size; CP-SAT reports no duplicate solution;
every outcome passes ``check``; and a random mutation of a legal outcome fails ``check`` unless
it is itself an outcome — and CP-SAT, with the proposal fixed, agrees.

Private unit: the engines and the search they share (solver/_core, solver/_engines: product, CP-SAT, python-constraint2), each held to the others and to check.
"""

from __future__ import annotations

import json
from math import factorial
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from triggerstack.model import (
    EndlessLoop,
    Facts,
    Outcome,
    Passes,
    PastCompiled,
    ProposalError,
    Scenario,
    ScenarioError,
    Score,
    canonical,
    compile_facts,
    outcome_json,
)
from triggerstack.model._limits import Deadline, bounded
from triggerstack.solver import EngineCannot, TimeLimitReached, best, check, count, outcomes, sample
from triggerstack.solver._core.chain import Chain
from triggerstack.solver._core.indexed import Choice, IndexedOutcome, Placed, from_outcome, score_of, to_outcome
from triggerstack.solver._core.must import iter_legal_choices
from triggerstack.solver._engines import cpsat
from triggerstack.solver._engines.constraint import ConstraintEngine
from triggerstack.solver._engines.product import ProductEngine
from triggerstack.solver._engines.product.merge import identical_groups, iter_merged, merged_count

from ..simulator import SimulatedEngine, simulate
from .strategies import SETTINGS, scenarios

pytestmark = pytest.mark.slow  # hundreds of generated scenarios

MAX_BOUND = 3000
PASS_BOUND = 400
"""The most outcomes (by :func:`size_bound`) of one pass of a multi-pass scenario the literal simulator lists."""


def size_bound(facts: Facts) -> int:
    """An upper bound on the outcomes (orders × choices with everything on the stack)."""
    everything = frozenset(range(len(facts.abilities)))
    bound = 1
    for b in facts.blocks:
        bound *= factorial(len(b.abilities))
    for a in facts.abilities:
        n = 1
        for _ in iter_legal_choices(facts, a, everything):
            n += 1
            if n > MAX_BOUND:
                return n
        bound *= n
    return bound


@st.composite
def scores(draw: st.DrawFn, facts: Facts) -> Score:
    """Small integer weights, negative too, on some abilities, modes and targets."""
    weight = st.integers(-3, 3)
    ids = [a.id for a in facts.abilities]
    things = list(facts.thing_index)
    return Score(
        height={a: draw(weight) for a in draw(st.lists(st.sampled_from(ids), max_size=3)) if ids} if ids else {},
        mode={
            a.id: {m.id: draw(weight) for m in a.modes if m.id is not None}
            for a in facts.abilities
            if a.modal and draw(st.booleans())
        },
        target={a: {t: draw(weight) for t in draw(st.lists(st.sampled_from(things), max_size=2))} for a in ids[:2]},
        removed={a: draw(weight) for a in ids if draw(st.integers(0, 3)) == 0},
    )


def mutate(data: st.DataObject, doc: dict[str, Any], facts: Facts) -> dict[str, Any]:
    stack: list[dict[str, Any]] = doc["stack"]
    removed: list[str] = doc["removed"]
    things = list(facts.thing_index)
    kind = data.draw(st.integers(0, 6), label="mutation")
    if kind == 0 and len(stack) > 1:
        i = data.draw(st.integers(0, len(stack) - 2))
        stack[i], stack[i + 1] = stack[i + 1], stack[i]
    elif kind == 1 and stack:
        removed.append(stack.pop(data.draw(st.integers(0, len(stack) - 1)))["ability"])
    elif kind == 2 and removed and all(r in facts.ability_index for r in removed):
        aid = removed.pop(data.draw(st.integers(0, len(removed) - 1)))
        a = facts.abilities[facts.ability_index[aid]]
        entry: dict[str, Any] = {"ability": aid}
        if a.modal:
            mode = a.modes[data.draw(st.integers(0, len(a.modes) - 1))]
            entry["modes"] = [
                {"mode": mode.id, "targets": {r.id: [data.draw(st.sampled_from(things))] for r in mode.requirements}}
            ]
        else:
            entry["targets"] = {r.id: [data.draw(st.sampled_from(things))] for r in a.modes[0].requirements}
        stack.insert(data.draw(st.integers(0, len(stack))), entry)
    elif stack:
        entry = stack[data.draw(st.integers(0, len(stack) - 1))]
        holders = entry.get("modes") or [entry]
        holder = data.draw(st.sampled_from(holders))
        if kind == 3 and holder.get("targets"):
            rid = data.draw(st.sampled_from(sorted(holder["targets"])))
            ts = holder["targets"][rid]
            ts[data.draw(st.integers(0, len(ts) - 1))] = data.draw(st.sampled_from(things))
        elif kind == 4 and holder.get("targets"):
            rid = data.draw(st.sampled_from(sorted(holder["targets"])))
            holder["targets"][rid] = []
            holder.get("divide", {}).pop(rid, None)
        elif kind == 5 and "modes" in entry and entry["ability"] in facts.ability_index:
            a = facts.abilities[facts.ability_index[entry["ability"]]]
            if data.draw(st.booleans()) and len(entry["modes"]) > 1:
                entry["modes"].pop()
            else:
                entry["modes"].append({"mode": data.draw(st.sampled_from([m.id for m in a.modes]))})
        elif kind == 6 and holder.get("divide"):
            rid = data.draw(st.sampled_from(sorted(holder["divide"])))
            tid = data.draw(st.sampled_from(sorted(holder["divide"][rid])))
            holder["divide"][rid][tid] += data.draw(st.sampled_from([-1, 1]))
    return doc


@SETTINGS
@given(doc=scenarios(), data=st.data())
def test_engines_agree_and_check_agrees(doc: dict[str, Any], data: st.DataObject) -> None:
    _agree(doc, data)


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 2)
@given(doc=scenarios(linked=True), data=st.data())
def test_linked_targets_agree_with_the_literal_simulator(doc: dict[str, Any], data: st.DataObject) -> None:
    """601.2c: a requirement whose filter reads another's targets ("target creature that player
    controls") is judged against the whole choice of that requirement — none, one or several
    targets, read forwards or backwards, under not/any/all. The simulator tries every choice."""
    _agree(doc, data)


def _agree(doc: dict[str, Any], data: st.DataObject) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= MAX_BOUND)
    simulated = simulate(facts)
    solved = cpsat.solve_all(facts)
    assert set(solved.outcomes) == simulated
    assert set(ConstraintEngine(facts)) == simulated
    assert count(facts) == count(facts, engine="cpsat") == len(simulated)
    fast = ProductEngine(facts)
    listed = list(fast)
    assert len(listed) == fast.count() == len(simulated) and set(listed) == simulated
    for r in range(0, fast.count(), max(1, fast.count() // 25)):
        assert fast.unrank(r) == listed[r], "enumeration runs in rank order"
        assert fast.rank(listed[r]) == r
    if cpsat.build(facts).symmetry_broken:
        assert solved.solutions == len(simulated), "CP-SAT repeated an outcome"

    groups = [g for g in identical_groups(fast) if len(g) > 1]
    label = {a: ("group", g[0]) for g in groups for a in g}

    def merged_key(raw: IndexedOutcome) -> tuple[object, ...]:
        stack = tuple((label.get(p.ability, p.ability), p.choice) for p in raw.stack)
        return stack, tuple(sorted(map(str, (label.get(k, k) for k in raw.removed))))

    classes = {merged_key(r) for r in simulated}
    representatives = [merged_key(r) for r in iter_merged(fast)]
    assert merged_count(fast) == len(classes) == len(representatives) == len(set(representatives))

    score = data.draw(scores(facts), label="score")
    found = best(facts, score)
    assert found.score == max(score_of(facts, r, score) for r in simulated)
    assert found.score == score_of(facts, next(r for r in simulated if to_outcome(facts, r) == found.outcome), score)
    if fast.answers_best and not fast.splits:  # scored one by one: ties go to the first in the engine's order
        first = next(r for r in listed if score_of(facts, r, score) == found.score)
        assert to_outcome(facts, first) == found.outcome

    legal = {outcome_json(to_outcome(facts, r)) for r in simulated}
    checked_by_cpsat = 0
    for raw in sorted(simulated)[:: max(1, len(simulated) // 8)]:
        outcome = to_outcome(facts, raw)
        verdict = check(facts, outcome)
        assert verdict.legal, [v.message for v in verdict.violations]
        assert outcome_json(canonical(facts.scenario, outcome)) == outcome_json(outcome)
        mutated = mutate(data, json.loads(outcome_json(outcome)), facts)
        try:
            proposal = Outcome.model_validate(mutated)
            verdict = check(facts, proposal)
        except (ProposalError, ScenarioError):
            continue  # a shape the scenario can't read: bad input, not a verdict
        in_set = outcome_json(canonical(facts.scenario, proposal)) in legal
        assert verdict.legal == in_set, (mutated, [v.message for v in verdict.violations])
        if checked_by_cpsat < 3:  # the slow oracle: the CP-SAT model with every variable fixed
            checked_by_cpsat += 1
            try:
                raw_proposal = from_outcome(facts, proposal)
            except KeyError:
                continue  # names something the scenario lacks: only check can say what
            assert cpsat.validate(facts, raw_proposal) == in_set


SET_ASIDE = 6.0
"""CPU seconds after which a pass-spanning example is set aside (a count, a loop's proof): the ones
answered take well under a second; at 20 s the examples set aside were most of the test's 76 s."""


LOOP_MET = 2.0
"""CPU seconds for CP-SAT to meet a loop whose count stopped at :data:`SET_ASIDE` (``avoiding`` None):
such an example ran both counts to their 6 s limits, 12 of its 17 s, and was a fifth of the test's CPU in
runs where it was drawn; CP-SAT met each of those loops within 1.3 s (the rest counts what avoids it)."""


def _small_simulated(facts: Facts) -> SimulatedEngine:
    """The literal simulator of one pass, for a pass it can list: on the way to a loop, a later pass
    may be far larger than the first (one example listed 16 GB before it reached the repeat)."""
    assume(size_bound(facts) <= PASS_BOUND)
    return SimulatedEngine(facts)


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 2)  # each solves every pass three ways: ~0.3 s
@given(doc=scenarios(max_abilities=4, reactions=True), data=st.data())
def test_passes_agree_across_engines_and_check(doc: dict[str, Any], data: st.DataObject) -> None:
    """603.3b's loop: "the game ... puts any abilities that triggered during this process on the
    stack" in a further pass. Whole outcomes over every pass are the same whether each pass is
    solved by the fast path, CP-SAT or the literal simulator; count is their number; check accepts
    each and rejects every mutation that is not one."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= PASS_BOUND)
    try:
        n = count(facts, time_limit=SET_ASIDE)  # counted by classes of passes: cheap where listing is not
    except EndlessLoop as loop:  # a pass repeats an earlier one: every engine, and the simulator, says so
        # Within the same time as the product's count (unbounded, it followed passes to 13.7 GB under
        # load), or LOOP_MET where that count stopped at its limit: it met the loop and spent the rest
        # counting what avoids it, which CP-SAT would too, and this asserts only that CP-SAT meets it.
        confirm = SET_ASIDE if loop.avoiding is not None else LOOP_MET
        try:
            with pytest.raises(EndlessLoop):
                count(facts, engine="cpsat", time_limit=confirm)
        except (TimeLimitReached, PastCompiled):
            assume(False)  # a loop CP-SAT's passes take longer to reach: the case is set aside, as below
        try:  # the literal simulator lists the passes until one repeats: bounded, as every listing is
            with bounded(Deadline(SET_ASIDE)):
                listed = len(list(Chain(Passes(facts), _small_simulated, max_listed=20_000).outcomes()))
        except EndlessLoop:
            return  # the simulator says so too
        except (EngineCannot, TimeLimitReached, PastCompiled):
            assume(False)  # a loop too long for it to list here (unbounded, it listed 8 GB under load)
            raise
        raise AssertionError(f"both engines find an endless loop; the simulator lists {listed} outcomes") from None
    except (ScenarioError, TimeLimitReached):
        assume(False)  # past the pass cap without a repeat (the stack grows), or too large to list here
        raise
    relay = any(r["id"].startswith("Q") for r in doc.get("reactions", ()))
    assume(n <= (300 if relay else 2000))  # a relay's outcomes run up to 11 passes, each solved by every engine
    fast = [outcome_json(o) for o in outcomes(facts)]
    assert len(set(fast)) == len(fast) == count(facts)
    by_cpsat = sorted(outcome_json(o) for o in outcomes(facts, engine="cpsat"))
    simulated = sorted(
        outcome_json(o) for o in Chain(Passes(facts), SimulatedEngine, max_listed=10**6).outcomes()
    )
    assert sorted(fast) == by_cpsat == simulated
    seed = data.draw(st.integers(0, 2**32), label="seed")
    assert {outcome_json(o) for o in sample(facts, 30, seed)} <= set(fast), "every draw is a whole outcome"
    score = data.draw(scores(facts), label="score")
    top = best(facts, score)  # decided by the first pass when the score names no fired ability
    assert outcome_json(top.outcome) in set(fast)
    assert top.score == score.of(top.outcome) == max(score.of(Outcome.model_validate_json(line)) for line in fast)

    def key(o: Outcome) -> tuple[object, ...]:
        """Order-free identity of a whole outcome: canonical entries, removed as a set, passes."""
        c = canonical(facts.scenario, o)
        return outcome_json(c.model_copy(update={"removed": ()})), tuple(sorted(o.removed)), o.passes

    legal = {key(Outcome.model_validate_json(line)) for line in fast}
    for line in fast[:: max(1, len(fast) // 6)]:
        outcome = Outcome.model_validate_json(line)
        assert check(facts, outcome).legal
        mutated = mutate(data, json.loads(line), facts)
        try:
            proposal = Outcome.model_validate(mutated)
            verdict = check(facts, proposal)
        except (ProposalError, ScenarioError):
            continue
        assert verdict.legal == (key(proposal) in legal), (mutated, [v.message for v in verdict.violations])


def test_cpsat_validate_accepts_repeated_instances_in_any_order() -> None:
    """700.2d: repeated instances of a mode are a multiset. The CP-SAT model orders them to make
    each multiset one solution; validating a fixed proposal must not demand that order (a
    generated scenario found validate rejecting 272 of 722 legal outcomes)."""
    doc = {
        "players": ["A", "B"],
        "objects": [{"id": "o1", "controller": "B", "types": ["creature"]}, {"id": "o2", "controller": "B", "types": ["creature"]}],
        "triggers": [
            {
                "id": "T",
                "controller": "A",
                "modal": {"choose": [2], "repeat": True},
                "modes": [{"id": "m", "targets": [{"id": "r", "min": 1, "max": 2, "filter": "any-target"}]}],
            }
        ],
    }
    facts = compile_facts(Scenario.model_validate(doc))
    every = list(ProductEngine(facts))
    assert len(every) == 55  # 10 target sets (4 things: 4 singles, 6 pairs), multisets of 2: 10·11/2
    assert all(cpsat.validate(facts, r) for r in every)
    reversed_instances = [
        IndexedOutcome(tuple(Placed(p.ability, Choice(p.choice.modes[::-1])) for p in r.stack), r.removed) for r in every
    ]
    assert all(cpsat.validate(facts, r) for r in reversed_instances)
    too_many = IndexedOutcome(
        (Placed(0, Choice(every[0].stack[0].choice.modes * 2)),), every[0].removed
    )
    assert not cpsat.validate(facts, too_many)  # four instances where the text chooses two
