"""``sample`` is exactly uniform: it unranks a uniform integer (fast path) or draws from the full
list (solver engines). A chi-square test on a small scenario, with a fixed seed (deterministic)."""

from __future__ import annotations

from collections import Counter

import pytest
from triggerstack.model import Scenario, compile_facts, outcome_json
from triggerstack.solver import count, outcomes, sample

from .conftest import EXAMPLES

# Upper 0.1% points of the chi-square distribution (NIST/SEMATECH e-Handbook, table 1.3.6.7.4).
CHI2_999 = {9: 27.877, 11: 31.264, 34: 65.247}


@pytest.mark.parametrize(
    ("name", "engine"),
    [
        ("vindictive-lich", "auto"),
        ("ertai-resurrected", "auto"),
        ("inferno-titan", "auto"),
        ("ertai-resurrected", "cpsat"),
    ],
)
def test_sampling_is_uniform(name: str, engine: str) -> None:
    scenario = Scenario.load(str(EXAMPLES / name / "scenario.yaml"))
    every = {outcome_json(o) for o in outcomes(scenario)}
    k = len(every)
    per_cell = 200
    drawn = Counter(outcome_json(o) for o in sample(scenario, k * per_cell, seed=20261129, engine=engine))
    assert set(drawn) <= every, "only legal outcomes"
    assert set(drawn) == every, "every outcome drawn"
    chi2 = sum((drawn[o] - per_cell) ** 2 / per_cell for o in every)
    assert chi2 < CHI2_999[k - 1], f"chi-square {chi2:.1f} with {k - 1} degrees of freedom"


def test_seed_repeats_and_differs() -> None:
    scenario = Scenario.load(str(EXAMPLES / "board-wipe" / "scenario.yaml"))
    a = [outcome_json(o) for o in sample(scenario, 20, seed=1)]
    assert a == [outcome_json(o) for o in sample(scenario, 20, seed=1)]
    assert a != [outcome_json(o) for o in sample(scenario, 20, seed=2)]


def test_sample_at_a_size_nothing_could_enumerate() -> None:
    """40 abilities, 4 players: the count has dozens of digits; a sample is still one unrank."""
    players = ["A", "B", "C", "D"]
    doc = {
        "players": players,
        "objects": [{"id": f"c{i}", "controller": players[i % 4], "types": ["creature"]} for i in range(12)],
        "triggers": [
            {
                "id": f"T{i}",
                "controller": players[i % 4],
                "text": "deal 1 damage to any target",
                "targets": [{"id": "t", "filter": "any-target"}],
            }
            for i in range(40)
        ],
    }
    scenario = Scenario.model_validate(doc)
    n = count(scenario)
    assert n == (2 * 3 * 4 * 5 * 6 * 7 * 8 * 9 * 10) ** 4 * 16**40
    (one,) = sample(scenario, 1, seed=3)
    assert len(one.stack) == 40
    from triggerstack.solver import check

    assert check(compile_facts(scenario), one).legal
