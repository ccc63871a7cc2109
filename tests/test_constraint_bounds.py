"""The cross-check engine python-constraint2 (``--engine constraint``) lists one ability's choices
within the cap every engine holds itself to (``--max-choices``, docs/cli.md "Limits"), and within the
call's time limit: it listed them whole before (issue 52: a suite worker grew past 3.8 GB listing the
choices of two independent "up to N targets" requirements, each within its per-requirement bound).

Private unit: the constraint engine's per-ability listing (solver/_engines/constraint.ability_choices)."""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Scenario, compile_facts
from triggerstack.model._limits import Limits
from triggerstack.model._numbers import counted
from triggerstack.solver import EngineCannot, count
from triggerstack.solver._engines.constraint import ability_choices

from .property.strategies import SETTINGS


def _board(objects: int, requirements: int, upto: int) -> Scenario:
    """One ability with ``requirements`` independent "up to ``upto`` target creatures" among
    ``objects`` creatures: (sum of C(objects, k), k ≤ upto) ** requirements choices."""
    doc: dict[str, Any] = {
        "players": ["A", "B"],
        "objects": [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(objects)],
        "triggers": [
            {
                "id": "T",
                "controller": "A",
                "text": "T",
                "targets": [
                    {"id": f"r{j}", "text": f"r{j}", "min": 0, "max": upto, "filter": {"type": "creature"}}
                    for j in range(requirements)
                ],
            }
        ],
    }
    return Scenario.model_validate(doc)


@settings(SETTINGS)
@given(objects=st.integers(1, 7), requirements=st.integers(1, 2), upto=st.integers(1, 3), cap=st.integers(1, 400))
def test_the_constraint_engine_lists_within_the_choices_cap(objects: int, requirements: int, upto: int, cap: int) -> None:
    """Within the cap it answers the product engine's count; past it, and only then, it refuses
    naming the flag (one ability, no "must target": its outcomes are its choices, each listed once)."""
    scenario = _board(objects, requirements, upto)
    truth = count(scenario)
    try:
        answered = count(scenario, engine="constraint", limits=Limits(choices=cap))
    except EngineCannot as e:
        assert f"T has more than {counted(cap, 'choices')}" in str(e) and "--max-choices" in str(e)
        assert truth > cap
    else:
        assert answered == truth <= cap


def test_a_product_of_requirements_past_the_cap_is_refused_in_bounded_memory() -> None:
    """Two requirements of 30 creatures, up to 3 each: 4,526 sets each (within the per-requirement
    bound), 20.5 million choices together — listed whole before, now refused once past the cap."""
    facts = compile_facts(_board(30, 2, 3))
    cap = 10_000
    tracemalloc.start()
    try:
        with pytest.raises(EngineCannot, match=f"more than {counted(cap, 'choices')}.*--max-choices"):
            ability_choices(facts, facts.abilities[0], cap)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000 * cap + 50_000_000, f"{peak} bytes traced"
