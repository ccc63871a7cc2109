"""One ability's choices: divisions (601.2d), repeats as multisets (700.2d), distinct targets.

Private unit: solver/_core/choices and space's has_legal_choice, one ability's choices."""

from __future__ import annotations

from math import comb

import pytest
from triggerstack.model import Scenario, compile_facts
from triggerstack.solver._core.choices import iter_choices, iter_divisions
from triggerstack.solver._core.space import has_legal_choice


@pytest.mark.parametrize(("amount", "parts"), [(3, 1), (3, 2), (3, 3), (5, 2), (6, 4), (2, 3)])
def test_divisions_are_compositions(amount: int, parts: int) -> None:
    got = list(iter_divisions(amount, parts))
    assert len(got) == (comb(amount - 1, parts - 1) if parts <= amount else 0)
    assert len(set(got)) == len(got)
    assert all(sum(d) == amount and min(d) >= 1 for d in got)


def modal(choose: list[int], repeat: bool, distinct: bool) -> Scenario:
    return Scenario.model_validate(
        {
            "players": ["A", "B", "C"],
            "objects": [{"id": "s", "controller": "A"}],
            "triggers": [
                {
                    "id": "T",
                    "source": "s",
                    "modal": {"choose": choose, "repeat": repeat, "distinct_targets": distinct},
                    "modes": [
                        {"id": "hit", "targets": [{"id": "p", "filter": {"kind": "player", "controller": "opponent"}}]},
                        {"id": "draw"},
                    ],
                }
            ],
        }
    )


def count_choices(s: Scenario) -> int:
    f = compile_facts(s)
    choices = list(iter_choices(f, f.abilities[0], frozenset()))
    assert len(set(choices)) == len(choices), "no choice twice"
    return len(choices)


def test_repeat_is_a_multiset() -> None:
    # choose two with repeats: {hit,hit} over 2 opponents as a multiset = 3, {hit,draw} = 2, {draw,draw} = 1
    assert count_choices(modal([2], True, False)) == 6


def test_distinct_targets_across_repeats() -> None:
    # {hit(B), hit(C)} only, {hit,draw} = 2, {draw,draw} = 1
    assert count_choices(modal([2], True, True)) == 4


def test_no_repeat() -> None:
    assert count_choices(modal([1, 2], False, False)) == 2 + 1 + 2


def test_no_legal_choice() -> None:
    s = Scenario.model_validate(
        {
            "players": ["A"],
            "objects": [{"id": "s", "controller": "A"}],
            "triggers": [
                {
                    "id": "T",
                    "source": "s",
                    "targets": [{"id": "p", "filter": {"kind": "player", "controller": "opponent"}}],
                }
            ],
        }
    )
    f = compile_facts(s)
    assert not has_legal_choice(f, f.abilities[0], frozenset())
