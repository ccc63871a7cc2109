"""A named card's modes and targets are named by their own words wherever a sentence names them.

Issue 50: a card read by name gets the reader's ids, ``m1``/``m2``/``m3`` for its modes and ``t`` for
its targets, and "P's mode m3 can't be chosen" sent a judge back to the Oracle text to learn what m3
is. docs/formats.md (``modes``, ``text``): every sentence that names a mode or a requirement shows its
own words after its id (the first sentence of several, then "…") — ``explain``'s text and dict,
``check``'s messages, ``step``'s decisions and reasons alike, by one function
(:func:`triggerstack.model._text.called`).

Private unit: the step verbs' answers (solver/_verbs/step: StepLegal, StepWhy, legal, why) and model/_text.called, the words a mode is named by.
"""

from __future__ import annotations

import re
from itertools import product
from typing import Any

import pytest
from triggerstack.model import Outcome, Scenario
from triggerstack.solver import LegalOutcomes, check
from triggerstack.solver._verbs.step import StepLegal, StepWhy, legal, why

from .conftest import EXAMPLES

pytest.importorskip("triggerstack.model.cards")

ERTAI = {
    "players": ["A", "B"],
    "objects": [
        {"id": "ertai", "controller": "A", "card": "Ertai Resurrected"},
        {"id": "bear", "controller": "B", "types": ["creature"]},
    ],
    "triggers": [{"id": "E", "source": "ertai"}],
}
"""Not an example: a second modal card, read by name, with a mode that targets an ability."""

MODE = re.compile(r"(?:mode |:)(m\d+)\b'?")
TARGET = re.compile(r"target (t\d*)\b")


def boards() -> list[tuple[str, Scenario]]:
    return [
        ("Charming Prince", Scenario.load(str(EXAMPLES / "charming-prince" / "named.yaml"))),
        ("Ertai Resurrected", Scenario.model_validate(ERTAI)),
    ]


def unnamed(sentence: str) -> list[str]:
    """The mode and requirement ids ``sentence`` names without their words right after them."""
    return [
        m.group(0)
        for pattern in (MODE, TARGET)
        for m in pattern.finditer(sentence)
        if not sentence[m.end() :].startswith(" “")
    ]


@pytest.mark.parametrize(("name", "scenario"), boards(), ids=[n for n, _ in boards()])
def test_every_sentence_names_a_mode_by_its_words(name: str, scenario: Scenario) -> None:
    legal_outcomes = LegalOutcomes(scenario)
    facts = legal_outcomes.facts
    (a,) = [a for a in facts.abilities if a.modal]
    assert [m.id for m in a.modes][:2] == ["m1", "m2"], "the reader's ids: what the words explain"
    # explain: every mode and requirement line, and every reason on them
    data = legal_outcomes.explain()
    text = data.text()
    assert "mode m1 “" in text
    said = [line for line in text.splitlines() if MODE.search(line) or TARGET.search(line)]
    assert said and all(not unnamed(line) for line in said), [unnamed(line) for line in said]
    for mode in next(x for x in data["abilities"] if x["id"] == a.id)["modes"]:
        assert mode["called"].startswith(f"{mode['id']} “"), mode["called"]
    # check: a proposal choosing each mode with every target, lawful or not, and each mode twice
    things = [t.id for t in facts.things]
    messages: list[str] = []
    for m in a.modes:
        for targets in product(things, repeat=len(m.requirements)):
            chosen: dict[str, Any] = {"mode": m.id, "targets": {r.id: [t] for r, t in zip(m.requirements, targets, strict=True)}}
            for picks in ([chosen], [chosen, chosen]):
                proposal = Outcome.model_validate({"stack": [{"ability": a.id, "modes": picks}]})
                messages += [v.message for v in check(scenario, proposal).violations]
    named = [msg for msg in messages if MODE.search(msg) or TARGET.search(msg)]
    assert named and all(not unnamed(msg) for msg in named), sorted({u for msg in named for u in unnamed(msg)})
    # step: the mode decisions offered carry their words; every reason naming a mode shows them
    state = legal(legal_outcomes, StepLegal(decisions=[f"put {a.id}"]))
    offered = [d for d in state.legal if d.kind == "mode"]
    assert offered and all(d.words and d.words.startswith("“") for d in offered), offered
    reasons = [
        why(legal_outcomes, StepWhy(decisions=walk, decision=f"mode {a.id}:{m.id}")).reason or ""
        for walk in list[list[int | str]]([[], [f"put {a.id}"], [f"put {a.id}", offered[0].text]])
        for m in a.modes
    ]
    named = [r for r in reasons if MODE.search(r)]
    assert named and all(not unnamed(r) for r in named), named


def test_a_scenario_without_words_names_by_id() -> None:
    """A hand-written mode with no text (or text that is its id) is named by its id alone."""
    from triggerstack.model._text import called

    assert called("counter", "") == "counter"
    assert called("m1", "m1") == "m1"
    assert called("m3", "Exile target creature.  Return it.") == "m3 “Exile target creature. …”"
    assert called(None, "Scry 2.") == "“Scry 2.”"
