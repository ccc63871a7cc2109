"""The examples' counts, derived by hand in the README, on every engine; and the one place where
the order couples the abilities, so the count differs from the naive product."""

from __future__ import annotations

import json
from math import factorial

import pytest
from triggerstack.model import Scenario, compile_facts
from triggerstack.solver import count
from triggerstack.solver.core.must import iter_legal_choices

from .conftest import EXAMPLE_NAMES, EXAMPLES
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
