"""Every verb on every example and benchmark family (issue 23): count, explain and the walk's
exact counts answer at every size the families reach; a verb that still lists outcomes one by one
refuses only past a cap, and says which cap, what it would take and how to raise it."""

from __future__ import annotations

import json
import re
from pathlib import Path
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


def test_a_refusal_to_list_comes_before_listing(tmp_path: Path) -> None:
    """Ranking 80,352,000 outcomes (``legal[i]``) would list them: that is refused at once, with the
    number, not after minutes; enumerating streams them and sampling draws them instead."""
    import time

    legal = LegalOutcomes(Scenario.model_validate(_doc("coupled-12")))
    start = time.monotonic()
    with pytest.raises(ScenarioError) as info:
        legal[0]
    assert "80352000" in info.value.one_line() and "--max-outcomes" in info.value.one_line()
    assert time.monotonic() - start < 30  # bounds the test; it times nothing
    streamed = list(legal.outcomes(limit=50))
    assert len(set(streamed)) == 50 and all(check(legal.facts, o).legal for o in streamed)
    drawn = list(legal.sample(20, seed=1))
    assert all(check(legal.facts, o).legal for o in drawn) and len(set(drawn)) > 1


def test_a_core_too_large_to_list_is_sampled_exactly_uniformly() -> None:
    """Past --max-outcomes (here 1) a draw does not rank: the core outcome is drawn with the weight
    of the outcomes around it, then one of those uniformly — every outcome equally likely. Ertai's
    10 outcomes, 20,000 draws: each is drawn (2,000 expected; ±20% is far beyond chance, ~11 σ)."""
    from collections import Counter

    from triggerstack.model import Limits

    scenario = Scenario.model_validate(_doc("ertai-resurrected"))
    tight = LegalOutcomes(scenario, limits=Limits(outcomes=1))
    every = set(LegalOutcomes(scenario))
    drawn = Counter(tight.sample(20_000, seed=7))
    assert set(drawn) == every and len(every) == 10
    assert all(1600 <= n <= 2400 for n in drawn.values()), drawn
    assert list(tight.sample(5, seed=3)) == list(tight.sample(5, seed=3))  # repeatable with a seed
