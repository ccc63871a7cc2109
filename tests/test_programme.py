"""Linked choices counted by a programme, not listed (docs/architecture.md, "How it decides"):
twelve abilities that may target each other, each with linked targets over 400 creatures —
``different_from`` (115.3), ``target_of`` (601.2c), distinct targets across modes (700.2) and a
"must target" effect (601.2c) — hundreds of thousands of choices each, were refused at
``--max-choices``; now they are counted, drawn, ranked and explained exactly.

The count is derived here by hand. With ``j`` waiting abilities below it, an ability's "target
ability or player" has the two players and those ``j`` to choose from (115.5: never itself), and:

* "target creature and another target creature": (2 + j) · N(N − 1);
* "up to two target creatures that player (or that ability's controller) controls": every choice
  of t gives one player, who controls M = N/2 creatures: (2 + j) · (1 + M + C(M, 2));
* "choose two modes, each a different target" (target ability or player; target creature; target
  creature): (2 + j) · N twice, and N(N − 1) for the two creature modes;
* "target ability or player; up to two target creatures", creature c0 must be targeted if able:
  c0 alone or with one other, (2 + j) · N.

No ability can be removed (each always has a choice), so 603.3b's two blocks (A's abilities, then
B's) give Σ over each block's orders of the product of those counts, position by position. The
formula is the engines' count on a small board (the slow test), and each kind's count the
cross-check's listing of that ability's choices at several sizes.

Private unit: solver/_core/space.space_for and the cross-check's ability_choices (solver/_engines/constraint), held to each other.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from itertools import permutations
from math import comb, prod
from typing import Any

import pytest
from triggerstack.model import Scenario, compile_facts
from triggerstack.solver import LegalOutcomes, check, count, explain
from triggerstack.solver._core.space import space_for
from triggerstack.solver._engines.constraint import ability_choices

from .conftest import ROOT


def _generator() -> Callable[[int, int], dict[str, Any]]:
    """``linked(n, creatures)`` of benchmarks/make_scenarios.py, which writes linked-12.json:
    ``n`` abilities L0…, the four kinds above in turn, L-odd A's and L-even B's, over creatures
    c-even A's and c-odd B's; the fourth kind must target c0."""
    spec = importlib.util.spec_from_file_location("make_scenarios", ROOT / "benchmarks" / "make_scenarios.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made: Callable[[int, int], dict[str, Any]] = module.linked
    return made


linked = _generator()


def per_kind(kind: int, j: int, n: int) -> int:
    """The choices of an ability of ``kind`` with ``j`` waiting abilities below, over ``n`` creatures."""
    t, m = 2 + j, n // 2
    return [t * n * (n - 1), t * (1 + m + comb(m, 2)), 2 * t * n + n * (n - 1), t * n][kind]


def formula(n: int, creatures: int) -> int:
    """Σ over the orders of each block (A's, then B's) of the product of the per-position counts."""
    total, below = 1, 0
    for mine in ([i for i in range(n) if i % 2], [i for i in range(n) if not i % 2]):
        total *= sum(
            prod(per_kind(k % 4, below + pos, creatures) for pos, k in enumerate(order)) for order in permutations(mine)
        )
        below += len(mine)
    return total


@pytest.mark.parametrize("creatures", [2, 4, 6])
def test_each_kind_counts_as_the_cross_check_lists_it(creatures: int) -> None:
    """With every other waiting ability below it (``j`` = 3), each ability's programme counts what
    python-constraint2 lists (and "must target" keeps, in the test's words: the most of its
    effects obeyed), which is the formula."""
    facts = compile_facts(Scenario.model_validate(linked(4, creatures)))
    for a in facts.abilities:
        listed = ability_choices(facts, a)
        if a.must:
            most = max(sum(t in set(c.things()) for t in a.must) for c in listed)
            listed = [c for c in listed if sum(t in set(c.things()) for t in a.must) == most]
        space = space_for(facts, a, frozenset(range(4)) - {a.index})
        assert space._listed is None, "counted by a programme"
        assert space.count == len(listed) == per_kind(a.index % 4, 3, creatures)
        assert sorted(space) == sorted(listed)


def test_twelve_linked_abilities_are_counted_drawn_and_ranked() -> None:
    """benchmarks/scenarios/linked-12.json, which ``--max-choices`` refused."""
    doc = json.loads((ROOT / "benchmarks" / "scenarios" / "linked-12.json").read_text())
    assert doc == linked(12, 400)
    scenario = Scenario.model_validate(doc)
    legal = LegalOutcomes(scenario)
    n = legal.count()
    assert n == formula(12, 400) == count(scenario)
    for outcome in legal.sample(3, seed=5):
        assert check(scenario, outcome).legal
        assert legal[legal.index(outcome)] == outcome
    assert legal.index(legal[n - 1]) == n - 1
    assert explain(scenario)["count"] == n


@pytest.mark.slow
def test_the_formula_is_what_the_engines_count() -> None:
    """Four abilities, one of each kind, over two creatures: CP-SAT and python-constraint2 count
    the outcomes the formula gives (17,088), and so does the programme."""
    scenario = Scenario.model_validate(linked(4, 2))
    assert formula(4, 2) == count(scenario) == count(scenario, engine="constraint") == count(scenario, engine="cpsat")
