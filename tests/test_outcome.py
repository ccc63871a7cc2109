"""Canonical outcome form (SPEC §5): idempotent, independent of listing order, byte-identical JSON."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, canonical, outcome_json

from .conftest import EXAMPLES

SCENARIO = Scenario.load(str(EXAMPLES / "vindictive-lich" / "scenario.yaml"))
TARGETS = ["D", "C", "B", "A", "lich", "L", "zz"]


@st.composite
def outcomes(draw: st.DrawFn) -> Outcome:
    modes = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "mode": st.sampled_from(["sacrifice", "discard", "life", "other"]),
                    "targets": st.fixed_dictionaries({"opponent": st.lists(st.sampled_from(TARGETS), max_size=3)}),
                }
            ),
            max_size=4,
        )
    )
    removed = draw(st.lists(st.sampled_from(["L", "X", "A1"]), max_size=3))
    return Outcome.model_validate({"stack": [{"ability": "L", "modes": modes}], "removed": removed})


@settings(max_examples=settings().max_examples * 2 // 3, deadline=None)
@given(outcomes(), st.randoms())
def test_canonical_is_idempotent_and_order_free(outcome: Outcome, rnd: object) -> None:
    once = canonical(SCENARIO, outcome)
    assert canonical(SCENARIO, once) == once
    data = json.loads(outcome.model_dump_json())
    for entry in data["stack"]:
        rnd.shuffle(entry["modes"])  # type: ignore[attr-defined]
        for m in entry["modes"]:
            for ts in m["targets"].values():
                rnd.shuffle(ts)  # type: ignore[attr-defined]
    rnd.shuffle(data["removed"])  # type: ignore[attr-defined]
    shuffled = Outcome.model_validate(data)
    assert outcome_json(canonical(SCENARIO, shuffled)) == outcome_json(once)


def test_canonical_order() -> None:
    raw = Outcome.model_validate(
        {
            "stack": [
                {
                    "ability": "L",
                    "modes": [
                        {"mode": "life", "targets": {"opponent": ["C"]}},
                        {"mode": "sacrifice", "targets": {"opponent": ["B"]}},
                    ],
                }
            ],
            "removed": [],
        }
    )
    assert outcome_json(canonical(SCENARIO, raw)) == (
        '{"removed":[],"stack":[{"ability":"L","modes":[{"mode":"sacrifice","targets":{"opponent":["B"]}},'
        '{"mode":"life","targets":{"opponent":["C"]}}]}]}'
    )
