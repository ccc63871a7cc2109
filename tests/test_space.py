"""Per-ability options by combinatorics (601.2c–d, 700.2): the same set as the choices search, a
rank/unrank bijection, and counts at sizes nothing could list.

Private unit: solver/_core/space and _ranks: an ability's options by combinatorics."""

from __future__ import annotations

from typing import Any

import pytest
from triggerstack.model import Scenario, compile_facts
from triggerstack.solver._core.must import iter_legal_choices
from triggerstack.solver._core.space import is_independent, space_for


def ability(trigger: dict[str, Any], creatures: int = 5) -> tuple[Any, Any]:
    doc = {
        "players": ["A", "B"],
        "objects": [{"id": f"c{i}", "controller": "AB"[i % 2], "types": ["creature"]} for i in range(creatures)],
        "triggers": [{"id": "T", "controller": "A", **trigger}],
    }
    facts = compile_facts(Scenario.model_validate(doc))
    return facts, facts.abilities[0]


CASES = [
    {"targets": [{"id": "t", "min": 0, "max": None, "filter": {"type": "creature"}}]},
    {"targets": [{"id": "d", "min": 1, "max": 3, "divide": 4, "filter": "any-target"}]},
    {
        "targets": [
            {"id": "x", "filter": {"type": "creature"}},
            {"id": "y", "min": 0, "max": 2, "filter": {"kind": "player"}},
        ]
    },
    {
        "modal": {"choose": [1, 2, 3], "repeat": True},
        "modes": [
            {"id": "hit", "targets": [{"id": "t", "min": 1, "max": 2, "divide": 2, "filter": "any-target"}]},
            {"id": "draw"},
        ],
    },
    {
        "modal": {"choose": [0, 2]},
        "modes": [
            {"id": "a"},
            {"id": "b", "targets": [{"id": "t", "filter": {"type": "creature"}}]},
            {"id": "c", "available": False},
        ],
    },
]


@pytest.mark.parametrize("trigger", CASES)
def test_options_match_the_search_and_rank_inverts_unrank(trigger: dict[str, Any]) -> None:
    facts, a = ability(trigger)
    assert is_independent(a)
    opts = space_for(facts, a)
    listed = [opts.unrank(i) for i in range(opts.count)]
    assert len(set(listed)) == len(listed) == opts.count
    assert set(listed) == set(iter_legal_choices(facts, a, frozenset()))
    assert [opts.rank(c) for c in listed] == list(range(opts.count))
    assert list(opts) == listed


def test_counted_without_listing() -> None:
    """Any number of targets among sixty creatures: 2⁶⁰ options, counted and unranked at once."""
    facts, a = ability({"targets": [{"id": "t", "min": 0, "max": None, "filter": {"type": "creature"}}]}, creatures=60)
    opts = space_for(facts, a)
    assert opts.count == 2**60
    last = opts.unrank(2**60 - 1)
    assert len(last.modes[0].targets[0]) == 60 and opts.rank(last) == 2**60 - 1


def test_coupled_options_come_from_python_constraint() -> None:
    facts, a = ability(
        {
            "targets": [
                {"id": "x", "filter": {"type": "creature"}},
                {"id": "y", "filter": {"type": "creature"}, "different_from": ["x"]},
            ]
        }
    )
    assert not is_independent(a)
    opts = space_for(facts, a)
    assert opts.count == 5 * 4
    assert set(opts) == set(iter_legal_choices(facts, a, frozenset()))


def test_many_element_subsets_unrank_by_walking_as_by_binary_search() -> None:
    """Both ways of unranking a k-subset give the lexicographic order, and rank inverts them."""
    from itertools import combinations
    from math import comb

    from triggerstack.solver._core._ranks import rank_combination, unrank_combination, unrank_combination_walking

    for n in range(1, 9):
        for k in range(1, n + 1):
            listed = list(combinations(range(n), k))
            assert [unrank_combination_walking(n, k, i) for i in range(len(listed))] == listed
    n, k = 400, 200  # past SEQUENTIAL_FROM: the walking way
    for i in (0, 1, comb(n, k) // 3, comb(n, k) - 1):
        subset = unrank_combination(n, k, i)
        assert len(subset) == k and list(subset) == sorted(set(subset)) and rank_combination(n, subset) == i


def test_multisets_unrank_in_lexicographic_order_and_rank_inverts_them() -> None:
    """A mode chosen more than once (700.2d) is a multiset of copies: its ranks are those of
    ``combinations_with_replacement``, counted by ``multichoose``, past 64 copies too."""
    from itertools import combinations_with_replacement

    from triggerstack.solver._core._ranks import multichoose, rank_multiset, unrank_multiset

    for n in range(0, 6):
        for k in range(0, 6):
            listed = list(combinations_with_replacement(range(n), k))
            assert multichoose(n, k) == len(listed)
            assert [unrank_multiset(n, k, i) for i in range(len(listed))] == listed
            assert [rank_multiset(n, m) for m in listed] == list(range(len(listed)))
    n, k = 7, 90  # more copies than SEQUENTIAL_FROM
    for i in (0, 1, multichoose(n, k) // 3, multichoose(n, k) - 1):
        m = unrank_multiset(n, k, i)
        assert len(m) == k and list(m) == sorted(m) and max(m) < n and rank_multiset(n, m) == i
