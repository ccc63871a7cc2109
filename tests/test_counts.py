"""The examples' counts, derived by hand in the README, on every engine; and the one place where
the order couples the abilities, so the count differs from the naive product.

Private unit: the search and its counting twin (solver/_core/search, must), run without a deadline (model/_limits.NO_DEADLINE)."""

from __future__ import annotations

import json
from math import factorial
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from triggerstack.model import Scenario, compile_facts
from triggerstack.model._limits import NO_DEADLINE
from triggerstack.solver import count
from triggerstack.solver._core.must import iter_legal_choices

from .conftest import EXAMPLE_NAMES, EXAMPLES, ROOT
from .property.strategies import SETTINGS, scenarios
from .property.test_agreement import size_bound
from .simulator import simulate

# README: board-wipe 4!·2⁴·2!; charming-prince scry or gain; inferno-titan 5 + 10·2 + 10·1;
# vindictive-lich 3·2 one mode + 3·2 two modes; ertai-resurrected 5 + 4 + 1.
HAND_COUNTS = {
    "board-wipe": factorial(4) * 2**4 * factorial(2),
    "charming-prince": 2,
    "delayed-end-step": 1,
    "ertai-resurrected": 5 + 4 + 1,
    "flametongue-kavu": 2,
    "inferno-titan": 5 + 10 * 2 + 10 * 1,
    "strict-proctor": factorial(2),
    "vindictive-lich": 3 * 2 + 3 * 2,
    "ward": 6 * 1 + 4 * 2,  # further passes: 4 first-pass outcomes hit the troll, each then 2
}


def test_every_example_has_a_hand_count() -> None:
    assert sorted(HAND_COUNTS) == EXAMPLE_NAMES


@pytest.mark.parametrize("engine", ["auto", "cpsat", "constraint"])
@pytest.mark.parametrize("name", sorted(HAND_COUNTS))
def test_example_count(name: str, engine: str) -> None:
    scenario = Scenario.load(str(EXAMPLES / name / "scenario.yaml"))
    assert count(scenario, engine=engine) == HAND_COUNTS[name]


def test_ertai_count_is_not_the_naive_product() -> None:
    """Naive: each block's orderings times each ability's choices (plus its removal) as if every
    waiting ability were already on the stack. 603.3b and 601.2c say E can target SWA only when
    SWA is below it, so one of those combinations is not an outcome."""
    facts = compile_facts(Scenario.load(str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")))
    everything = frozenset(range(len(facts.abilities)))
    orders = 1
    for block in facts.blocks:
        orders *= factorial(len(block.abilities))
    e = facts.abilities[facts.ability_index["E"]]
    e_options = sum(1 for _ in iter_legal_choices(facts, e, everything))
    # Removing E makes its block's order invisible: the two orders give one outcome.
    naive = (orders * e_options) + 1
    assert (orders, e_options, naive) == (2, 5, 11)
    assert count(facts) == len(simulate(facts)) == 10 != naive


def test_zero_abilities_one_outcome() -> None:
    s = Scenario.model_validate({"players": ["A", "B"]})
    assert count(s) == count(s, engine="constraint") == 1
    assert json.dumps(len(simulate(compile_facts(s)))) == "1"


def test_merge_identical_board_wipe() -> None:
    """The four Blood Artist triggers are identical, as are the two Zulaport triggers: orders that
    swap them are one outcome. A's block: each of 4 positions targets A or B (2⁴); B's block: 1."""
    scenario = Scenario.load(str(EXAMPLES / "board-wipe" / "scenario.yaml"))
    assert count(scenario, merge_identical=True) == 2**4
    assert count(scenario) == 768
    from triggerstack.solver import outcomes

    merged = list(outcomes(scenario, merge_identical=True))
    assert len(merged) == 16
    assert all([e.ability for e in o.stack] == ["BA1", "BA2", "BA3", "BA4", "Z1", "Z2"] for o in merged)


def _coupled_by_the_rules(n: int) -> int:
    """The coupled family (benchmarks/make_scenarios.coupled): n Soul Warden triggers, the even ones
    B's (the active player: B's block first, 603.3b) and the odd ones A's, with A's Ertai trigger
    "choose up to one: counter target ability, or destroy target creature". B's block: its wardens
    in any order. A's block: its wardens in any order, and Ertai either removed (no mode chosen,
    700.2) or put with j of A's wardens below it, then choosing to counter one of the abilities
    below it (B's and those j, 601.2c) or to destroy one of the n + 1 creatures."""
    b, a = (n + 1) // 2, n // 2
    return factorial(b) * factorial(a) * (1 + sum((b + j) + (n + 1) for j in range(a + 1)))


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 10, 12])
def test_the_coupled_family_is_counted_exactly_without_listing(n: int) -> None:
    """Issue 23: a coupled core is counted by dynamic programming over blocks and subsets, not by
    listing its outcomes — 12 abilities that may target each other (80,352,000 outcomes, more than
    --max-outcomes) are counted, and CP-SAT and python-constraint2 agree where they finish."""
    scenario = Scenario.model_validate(json.loads((ROOT / "benchmarks" / "scenarios" / f"coupled-{n}.json").read_text()))
    assert count(scenario) == _coupled_by_the_rules(n)
    if n <= 5:
        assert count(scenario, engine="cpsat") == count(scenario, engine="constraint") == _coupled_by_the_rules(n)


@pytest.mark.slow
@SETTINGS
@given(doc=scenarios(max_abilities=6), data=st.data())
def test_counting_a_pass_by_subsets_is_listing_it(doc: dict[str, Any], data: st.DataObject) -> None:
    """:class:`Counting` (the dynamic program over blocks and subsets) counts the outcomes
    the direct search lists — the outcomes the literal simulator finds — and with weights per block
    and number placed there, the weighted sum over them (the product engine's arrangements of
    independent abilities around a core). Ranks are the search's order: each outcome holds its
    weight's worth of consecutive ranks, starting where the weights of those before it end, and
    unranking any of them gives it back."""
    from triggerstack.model import Limits
    from triggerstack.solver._core.search import Counting

    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 3000)
    listed = list(Counting(facts, Limits(), NO_DEADLINE).outcomes())
    assert Counting(facts, Limits(), NO_DEADLINE).total(0, frozenset()) == len(listed) == len(set(listed))
    assert set(listed) == simulate(facts)
    weights = {
        (b, k): data.draw(st.integers(0, 5)) for b in range(len(facts.blocks)) for k in range(len(facts.abilities) + 1)
    }
    counting = Counting(facts, Limits(), NO_DEADLINE, lambda b, k: weights[(b, k)])
    start = 0
    for outcome in listed:
        placed = [facts.abilities[p.ability].block for p in outcome.stack]
        term = 1
        for b in range(len(facts.blocks)):
            term *= weights[(b, placed.count(b))]
        if term:
            assert counting.rank(outcome) == start
            assert counting.unrank(start) == counting.unrank(start + term - 1) == (outcome, start)
        start += term
    assert counting.total(0, frozenset()) == start


def _targeting_by_the_rules(n: int) -> int:
    """The targeting family (benchmarks/make_scenarios.targeting): A's abilities (the active
    player's block first, 603.3b), then B's, each "target ability or player". An ability's targets
    are the two players and every ability below it (601.2c), so in a block of m abilities over d
    below, any order works and the j-th from the bottom has 2 + d + j choices; none is removed."""
    a, b = n // 2, (n + 1) // 2
    total = factorial(a) * factorial(b)
    for j in range(a):
        total *= 2 + j
    for j in range(b):
        total *= 2 + a + j
    return total


@pytest.mark.parametrize("n", [4, 8, 12])
def test_abilities_that_all_target_each_other_are_counted_and_explained(n: int) -> None:
    from triggerstack.solver import explain

    scenario = Scenario.model_validate(json.loads((ROOT / "benchmarks" / "scenarios" / f"targeting-{n}.json").read_text()))
    assert count(scenario) == explain(scenario)["count"] == _targeting_by_the_rules(n)
    if n == 4:
        assert count(scenario, engine="cpsat") == count(scenario, engine="constraint") == _targeting_by_the_rules(n)
