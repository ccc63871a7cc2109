""""Must target" maximality (601.2c), solver/_core/must.py: worked out once per shape and bounded
by the effects the shape could obey at all — the same answers as searching every choice afresh.

Private unit: solver/_core/must and choices: must-target maximality."""

from __future__ import annotations

import runpy
from itertools import combinations_with_replacement
from typing import Any

from hypothesis import given, settings
from triggerstack.model import AbilityFacts, Facts, Outcome, Scenario, compile_facts
from triggerstack.solver._core.choices import iter_mode_targets
from triggerstack.solver._core.must import count_obeyed, most_obeyed

from .conftest import ROOT
from .property.strategies import scenarios


def _searched(facts: Facts, a: AbilityFacts, modes: tuple[int, ...], below: frozenset[int]) -> int:
    """The greatest number of effects obeyed, by trying every choice of the shape (the definition)."""

    def rec(k: int, used: frozenset[int]) -> int:
        if k == len(modes):
            return count_obeyed(a, used)
        forbidden = used if a.distinct_targets else frozenset()
        best = -1
        for targets in iter_mode_targets(facts, a, modes[k], below, forbidden):
            best = max(best, rec(k + 1, used | {t for ts in targets for t in ts}))
        return best

    return max(rec(0, frozenset()), 0)


def _agree(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    everything = frozenset(range(len(facts.abilities)))
    for a in facts.abilities:
        if not a.must:
            continue
        for size in (1, 2, 3):
            for modes in combinations_with_replacement(range(len(a.modes)), size):
                for below in (frozenset(), everything - {a.index}):
                    assert most_obeyed(facts, a, modes, below) == _searched(facts, a, modes, below), (a.id, modes)
                    assert most_obeyed(facts, a, modes[::-1], below) == _searched(facts, a, modes, below)


def _board(*args: Any, **kwargs: Any) -> dict[str, Any]:
    """The benchmark's board (benchmarks/bench_must.py)."""
    found: dict[str, Any] = runpy.run_path(str(ROOT / "benchmarks" / "bench_must.py"))["board"](*args, **kwargs)
    return found


def test_an_effect_nothing_can_obey_and_its_variants() -> None:
    """The board of issue 51 (an effect on a land no requirement takes: 40 ms a check), and the
    variants nobody listed: an effect only the linked mode can obey, and two effects one of which
    no choice can obey."""
    board = _board
    _agree(board(True, creatures=4, most=3))
    only_linked = board(True, creatures=4, most=3)
    only_linked["must_target"] = [{"object": "B", "applies_to": {}}]  # a player: only the linked mode takes one
    _agree(only_linked)
    half = board(True, creatures=4, most=3)
    half["must_target"].append({"object": "c1", "applies_to": ["T"]})
    _agree(half)


def test_check_answers_as_before_on_the_slow_board() -> None:
    """Every legal outcome is still legal, and one that skips an obeyable effect is still told."""

    from triggerstack.solver import LegalOutcomes

    doc = _board(True, creatures=4, most=2)
    doc["must_target"].append({"object": "c1", "applies_to": ["T"]})
    legal = LegalOutcomes(Scenario.model_validate(doc))
    assert all(legal.check(legal[i]).legal for i in range(0, legal.count(), 7))
    skipping = Outcome.model_validate({"stack": [{"ability": "T", "modes": [{"mode": "any", "targets": {"c": ["c0"]}}]}]})
    assert [v.code.value for v in legal.check(skipping).violations] == ["target-must"]


@settings(max_examples=150, deadline=None)
@given(scenarios(max_abilities=3, linked=True))
def test_most_obeyed_is_the_most_any_choice_obeys(doc: dict[str, Any]) -> None:
    _agree(doc)


def test_legal_choices_under_a_must_target_effect_come_one_at_a_time(monkeypatch: Any) -> None:
    """``iter_legal_choices`` of an ability under a must-target effect listed every choice before
    giving the first (to find the most its shape obeys among them): a test's generated board with
    millions of choices grew one xdist worker past 12 GB (issue 52: two OOM-killed at 23 GB). Now
    each is held to ``most_obeyed`` as it comes: the first legal choice costs a few choices drawn,
    not all 27,000 of three requirements of thirty things."""
    from triggerstack.solver._core import choices, must

    things = [{"id": f"o{k}", "controller": "P1", "types": ["creature"]} for k in range(28)]
    reqs = [{"id": f"r{k}", "filter": "any-target"} for k in range(3)]
    doc = {
        "players": ["P0", "P1"],
        "objects": things,
        "triggers": [{"id": "T0", "controller": "P0", "targets": reqs}],
        "must_target": [{"object": "P0", "applies_to": ["T0"]}],
    }
    facts = compile_facts(Scenario.model_validate(doc))
    drawn = 0
    listing = choices.iter_choices  # what must.iter_legal_choices draws from

    def counted(*args: Any, **kwargs: Any) -> Any:
        nonlocal drawn
        for choice in listing(*args, **kwargs):
            drawn += 1
            yield choice

    monkeypatch.setattr(must, "iter_choices", counted)
    a = facts.abilities[0]
    first = next(must.iter_legal_choices(facts, a, frozenset()))
    assert count_obeyed(a, first.things()) == 1  # P0, as the effect demands
    assert drawn < 100, drawn
