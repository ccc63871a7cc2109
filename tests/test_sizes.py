"""Every verb on every example and benchmark family (issue 23): count, explain and the walk's
exact counts answer at every size the families reach; a verb that still lists outcomes one by one
refuses only past a cap, and says which cap, what it would take and how to raise it."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from triggerstack.model import Scenario, ScenarioError
from triggerstack.solver import LegalOutcomes, check

from .conftest import EXAMPLE_NAMES, EXAMPLES, ROOT

FAMILIES = ["coupled-8", "coupled-12", "targeting-8", "targeting-12", "wipe-10"]


def _doc(name: str) -> Any:
    if name in EXAMPLE_NAMES:
        return yaml.safe_load((EXAMPLES / name / "scenario.yaml").read_text(encoding="utf-8"))
    return json.loads((ROOT / "benchmarks" / "scenarios" / f"{name}.json").read_text(encoding="utf-8"))


def _says_how(exc: ScenarioError) -> bool:
    """A refusal for size names its flag, the limit, and what it would take."""
    text = exc.one_line()
    return bool(re.search(r"--max-[a-z]+", text)) and bool(re.search(r"\d", text))


@pytest.mark.parametrize("name", [*EXAMPLE_NAMES, *FAMILIES])
def test_every_verb_answers_or_says_which_cap(name: str) -> None:
    legal = LegalOutcomes(Scenario.model_validate(_doc(name)))
    total = legal.count()
    explained = legal.explain()
    assert explained["count"] == total

    stepper = legal.stepper()
    walk = stepper.start()
    for _ in range(4):  # the walk's count is exact at every prefix, and shrinks as it goes
        counted = stepper.count(walk)
        if counted is None:  # further passes may follow: counted by walking, capped
            break
        assert 1 <= counted <= total
        moves = stepper.legal(walk)
        if not moves:
            break
        walk = stepper.apply(walk, moves[-1])

    try:
        first = next(legal.outcomes())
        assert check(legal.facts, first).legal
        drawn = next(legal.sample(1, seed=1))
        assert check(legal.facts, drawn).legal
    except ScenarioError as exc:  # the outcomes are listed one by one past a cap: it says which
        assert _says_how(exc), exc.one_line()
        assert total > legal.options.limits.outcomes


def test_outcomes_of_a_core_too_large_to_list_are_ranked() -> None:
    """The 80,352,000 outcomes of twelve abilities that may target each other are ranked without
    listing them: ``legal[i]`` is the i-th the enumeration streams, ``index`` inverts it at the
    first, the last and in between, each is legal, and samples are legal and varied."""
    legal = LegalOutcomes(Scenario.model_validate(_doc("coupled-12")))
    total = legal.count()
    assert total == 80_352_000
    streamed = list(legal.outcomes(limit=50))
    assert [legal[i] for i in range(50)] == streamed and len(set(streamed)) == 50
    for i in (0, 49, 12_345_678, total // 2, total - 1):
        outcome = legal[i]
        assert legal.index(outcome) == i and check(legal.facts, outcome).legal
    assert legal[-1] == legal[total - 1]
    drawn = list(legal.sample(20, seed=1))
    assert all(check(legal.facts, o).legal for o in drawn) and len(set(drawn)) > 1


def test_sampling_is_exactly_uniform() -> None:
    """A draw is a uniform rank unranked: Ertai's 10 outcomes, 20,000 draws, each drawn (2,000
    expected; ±20% is far beyond chance, ~11 σ), and repeatable with a seed."""
    from collections import Counter

    scenario = Scenario.model_validate(_doc("ertai-resurrected"))
    legal = LegalOutcomes(scenario)
    every = set(legal)
    drawn = Counter(legal.sample(20_000, seed=7))
    assert set(drawn) == every and len(every) == 10
    assert all(1600 <= n <= 2400 for n in drawn.values()), drawn
    assert list(legal.sample(5, seed=3)) == list(legal.sample(5, seed=3))
