"""Across the passes of 603.3b by classes of what the first pass fires (``engines.product.fired``):
the same count as listing every pass, draws that are legal and exactly uniform, and the chain
says when it lists instead (603.3b: "abilities that triggered during this process" go on the
stack in a further pass).

Private unit: the chain across passes by classes (solver/_core/chain, solver/_engines: product, select.chain_for) and explain_chain read off it."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from triggerstack.model import Passes, Scenario, compile_facts, outcome_json
from triggerstack.solver import LegalOutcomes, check, sample
from triggerstack.solver._core.chain import Chain
from triggerstack.solver._engines.product import ProductEngine

from .conftest import EXAMPLES, ROOT

SCENARIOS = ROOT / "benchmarks" / "scenarios"
CHI2_999 = {13: 34.528}  # upper 0.1% point, 13 degrees of freedom (NIST/SEMATECH table 1.3.6.7.4)


def _listed(scenario: Scenario) -> list[str]:
    """Every whole outcome, listing each pass (no classes)."""
    facts = compile_facts(scenario)
    chain = Chain(Passes(facts), ProductEngine, max_listed=10**6)
    return [outcome_json(o) for o in chain.outcomes()]


def _ward(k: int) -> Scenario:
    return Scenario.model_validate(json.loads((SCENARIOS / f"ward-{k}.json").read_text()))


@pytest.mark.parametrize("k", [1, 2, 3])
def test_the_ward_family_counts_as_listed(k: int) -> None:
    scenario = _ward(k)
    legal = LegalOutcomes(scenario)
    every = set(_listed(scenario))
    assert legal.count() == len(every)
    assert legal.counted().path == "product+classes"
    drawn = [outcome_json(o) for o in legal.sample(300, seed=k)]
    assert set(drawn) <= every


def test_classes_reach_past_what_listing_could() -> None:
    # k = 6: 6!·6⁶ first-pass outcomes, 6!·2⁶ ways for what they fire: 1.5·10¹² whole outcomes
    legal = LegalOutcomes(_ward(6))
    assert legal.count() == (720 * 6**6) * (720 * 2**6)
    for outcome in legal.sample(20, seed=3):
        assert check(legal.facts, outcome).legal
        assert outcome.passes == (6, 6)  # every trigger targets a warded creature: six ward triggers


def test_draws_are_uniform() -> None:
    scenario = Scenario.load(str(EXAMPLES / "ward" / "scenario.yaml"))
    assert LegalOutcomes(scenario).counted().path == "product+classes"
    every = set(_listed(scenario))
    per_cell = 200
    drawn = Counter(outcome_json(o) for o in sample(scenario, len(every) * per_cell, seed=20261201))
    assert set(drawn) == every
    chi2 = sum((drawn[o] - per_cell) ** 2 / per_cell for o in every)
    assert chi2 < CHI2_999[len(every) - 1], f"chi-square {chi2:.1f}"


def _targeting(body_targets: list[dict[str, Any]], more: list[dict[str, Any]]) -> Scenario:
    return Scenario.model_validate(
        {
            "players": ["A", "B"],
            "objects": [
                {"id": "src", "controller": "A", "types": ["creature"]},
                {"id": "w", "controller": "B", "types": ["creature"]},
            ],
            "triggers": [{"id": "T", "source": "src", "targets": [{"id": "c", "filter": {"type": "creature"}}]}],
            "reactions": [
                {"id": "W", "object": "w", "by": "opponent", "trigger": {"source": "w", "targets": body_targets}},
                *more,
            ],
        }
    )


@pytest.mark.parametrize(
    ("targets", "more", "why"),
    [
        ([{"id": "a", "filter": {"kind": "ability"}}], [], "may target an ability on the stack"),
        (
            [{"id": "c", "filter": {"type": "creature", "controller": "opponent"}}],
            [{"id": "V", "object": "src", "by": "opponent", "trigger": {"source": "src"}}],
            "may fire a reaction in turn",
        ),
    ],
)
def test_what_classes_cannot_count_is_listed(
    targets: list[dict[str, Any]], more: list[dict[str, Any]], why: str
) -> None:
    scenario = _targeting(targets, more)
    legal = LegalOutcomes(scenario)
    chain = legal._learned.chain()
    assert chain.path == "product+passes"
    assert why in (chain.why_listed() or "")
    assert legal.count() == len(_listed(scenario))


def test_a_draw_is_every_pass_of_one_outcome() -> None:
    legal = LegalOutcomes(_ward(2))
    rng = random.Random(7)
    for _ in range(50):
        outcome = legal._learned.chain().draw(rng)
        assert outcome in legal
        assert legal[legal.index(outcome)] == outcome


def _explained(scenario: Scenario, by_classes: bool) -> dict[str, Any]:
    from triggerstack.model._answer import Spending
    from triggerstack.solver import Options
    from triggerstack.solver._engines.select import chain_for
    from triggerstack.solver._verbs.explain import explain_chain

    facts = compile_facts(scenario)
    chain = chain_for(facts, Options(engine="product"))
    if not by_classes:
        chain._classes = "listed for the test"
    data = explain_chain(facts, chain, Spending(1 << 30)).to_json()
    assert data["plan"].pop("passes") == ("classes" if by_classes else "listed")
    data["plan"].pop("passes_reason")
    for r in data["reactions"]:
        r["fires"].sort()  # the order each way reaches them
    for view in data["fired"]:
        for mode in view["modes"]:
            for r in mode["requirements"]:
                r["excluded"].sort(key=lambda e: e["id"])
    data["fired"].sort(key=lambda v: v["id"])
    return data


@pytest.mark.parametrize("k", [2, 3])
def test_explain_by_classes_says_what_listing_says(k: int) -> None:
    assert _explained(_ward(k), by_classes=True) == _explained(_ward(k), by_classes=False)
