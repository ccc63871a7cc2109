"""A judge reads explain's words, and they are true of every way: not only its codes and rules.

Vindictive Lich's shape with a mode chosen three times (700.2d) and two opponents: each mode must
target a different player, so no choice is legal (603.3c-d). ``check`` of "life B, life C, life B"
said "B is a target of both L's mode life and L's mode life" (which two of the three?), and
``explain`` told why C is never chosen: "B is a target of both …", the sentence of the one choice a
judge would propose with C in place — a choice "life C, life C, life B" shares C, not B. Mechanism:
explain kept a reason common to the ways it judged by its code and rule, in the first way's words,
and the judge properties held explain to codes alone; with no legal choice it judged one proposal.
Now (solver/_judge/_never.py ``_in_words``) a reason is told in the sentence every way breaking it
is told, else in its code's clause said of every way; the proposals vary every instance's targets;
and check names the instances of a repeated mode and tells a shared thing once, naming every
instance it is a target of. tests/test_judge_65a.py ``every_way_told`` now holds explain's words too.

Private unit: solver/_judge/_never's EVERY_WAY, the clause of each code.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from triggerstack.model import Code, Outcome, Scenario, compile_facts
from triggerstack.solver import DecisionKind, Stepper, TimeLimitReached, check, explain, outcomes
from triggerstack.solver._judge._never import EVERY_WAY

from .property.strategies import SETTINGS
from .test_judge_65a import clause_of_ways, is_told

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

OPPONENT = {"kind": "player", "controller": "opponent"}

LICH_THRICE: dict[str, Any] = {
    "players": ["A", "B", "C"],
    "objects": [{"id": "lich", "kind": "card", "zone": "graveyard", "owner": "A", "types": ["creature"]}],
    "triggers": [
        {
            "id": "L",
            "source": "lich",
            "source_controller": "A",
            "modal": {"choose": [3], "repeat": True, "distinct_targets": True},
            "modes": [{"id": "life", "targets": [{"id": "opponent", "filter": OPPONENT}]}],
        }
    ],
}
"""Three instances of one mode, each a different opponent's, and two opponents."""


def _lich_choice(*targets: str) -> Outcome:
    modes = [{"mode": "life", "targets": {"opponent": [t]}} for t in targets]
    return Outcome.model_validate({"stack": [{"ability": "L", "modes": modes}]})


def test_check_names_each_instance_a_shared_thing_is_a_target_of_once() -> None:
    facts = compile_facts(Scenario.model_validate(LICH_THRICE))
    verdict = check(facts, _lich_choice("B", "C", "B"))
    shared = [v.message for v in verdict.violations if v.code is Code.MODE_DISTINCT_TARGETS]
    assert shared == [
        "L: B is a target of both L's mode life (1st of 3) and L's mode life (3rd of 3); "
        "each mode must target a different one"
    ]
    thrice = check(facts, _lich_choice("B", "B", "B"))
    assert [v.message for v in thrice.violations if v.code is Code.MODE_DISTINCT_TARGETS] == [
        "L: B is a target of L's mode life (1st of 3), L's mode life (2nd of 3) and L's mode life (3rd of 3); "
        "each mode must target a different one"
    ]


def test_explain_blames_no_other_thing_for_c() -> None:
    facts = compile_facts(Scenario.model_validate(LICH_THRICE))
    told = explain(facts)
    (mode,) = told["abilities"][0]["modes"]
    (req,) = mode["requirements"]
    for thing in ("B", "C"):
        said = {ex["code"]: ex["reason"] for ex in req["excluded"] if ex["id"] == thing}
        assert said["mode-distinct-targets"] == (
            f"L: in each way of choosing {thing}, " + EVERY_WAY[Code.MODE_DISTINCT_TARGETS]
        )
    assert "B is a target" not in mode["reason"]


def test_every_code_has_its_clause() -> None:
    assert set(EVERY_WAY) == set(Code)


@st.composite
def no_legal_choice(draw: st.DrawFn) -> dict[str, Any]:
    """One modal ability with one to two modes of one target each (a player, an opponent, a
    creature or any target), chosen one to three times (repeats allowed or not, distinct targets
    or not), among two or three players, one of them perhaps with hexproof, and up to two
    creatures: often no legal choice."""
    players: list[Any] = ["A", "B", "C"][: draw(st.integers(2, 3))]
    if draw(st.booleans()):
        players[-1] = {"id": players[-1], "hexproof": True}
    objects = [
        {"id": f"c{k}", "controller": draw(st.sampled_from(["A", "B"])), "types": ["creature"]}
        for k in range(draw(st.integers(0, 2)))
    ]
    filters = st.sampled_from([OPPONENT, {"kind": "player"}, {"type": "creature"}, "any-target"])
    modes = [
        {"id": f"m{k}", "targets": [{"id": "r", "filter": draw(filters)}]} for k in range(draw(st.integers(1, 2)))
    ]
    repeat = draw(st.booleans())
    most = 3 if repeat else len(modes)
    choose = [draw(st.integers(1, most))]
    modal = {"choose": choose, "repeat": repeat, "distinct_targets": draw(st.booleans())}
    trigger = {"id": "L", "controller": "A", "modal": modal, "modes": modes}
    return {"players": players, "objects": objects, "triggers": [trigger]}


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 2, 10))
@given(doc=no_legal_choice())
@example(doc=LICH_THRICE)
def test_what_explain_says_of_an_ability_with_no_legal_choice_is_what_check_says_of_every_way(
    doc: dict[str, Any],
) -> None:
    """With no legal choice, a way of choosing a thing is any choice of the fewest modes allowed,
    with the mode and, where modes repeat, it again (700.2d), every instance's target fitting its
    requirement alone, and the thing in place: each breaks one of the reasons explain gives, and a
    sentence explain gives (not its code's clause) is check's own of each way that breaks its code."""
    facts = compile_facts(Scenario.model_validate(doc))
    try:
        told = explain(facts, time_limit=20)
    except TimeLimitReached:
        assume(False)
        raise
    (report,) = told["abilities"]
    assume(report["removal"] == "must")
    a = facts.abilities[0]
    fewest = report["modal"]["choose"][0]
    for m in report["modes"]:
        (r,) = m["requirements"]
        given_: dict[str, set[tuple[str, str, str]]] = {}
        for ex in r["excluded"]:
            given_.setdefault(ex["id"], set()).add((ex["code"], ex["rule"], ex["reason"]))
        others = [x["id"] for x in report["modes"] if x["id"] != m["id"]]
        picks = [m["id"], *others, *([m["id"]] * fewest if doc["triggers"][0]["modal"]["repeat"] else [])][:fewest]
        if len(picks) < fewest:
            continue  # too few modes: 700.2's count, said of the mode alone
        pools = [[facts.things[t].id for t in a.modes[a.mode_index[p]].requirements[0].candidates] for p in picks]
        for thing, words in given_.items():
            codes = {(c, rule) for c, rule, _ in words}
            for at in (i for i, p in enumerate(picks) if p == m["id"]):
                for targets in itertools.product(*(pool if i != at else [thing] for i, pool in enumerate(pools))):
                    verdict = check(facts, _choice(picks, r["id"], targets))
                    got = {(v.code.value, v.rule.value): v for v in verdict.violations}
                    texts = {(v.code.value, v.rule.value, v.message) for v in verdict.violations}
                    assert codes & set(got), (thing, targets, words, texts)
                    for code, rule, sentence in words:
                        if (code, rule) in got and not clause_of_ways(sentence, thing):
                            assert any(is_told(sentence, x) for x in texts if x[:2] == (code, rule)), repr((doc, thing, targets, sentence, texts))


def _choice(picks: list[str], rid: str, targets: tuple[str, ...]) -> Outcome:
    """L choosing the modes ``picks``, each with its one requirement ``rid`` targeting one of ``targets``."""
    modes = [{"mode": p, "targets": {rid: [t]}} for p, t in zip(picks, targets, strict=True)]
    return Outcome.model_validate({"stack": [{"ability": "L", "modes": modes}]})


# -- a decision about an ability a walk met past the abilities laid out ---------------------------

CHAIN: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [{"id": "c0", "controller": "P1", "types": ["creature"]}, {"id": "c1", "controller": "P0", "types": ["creature"]}],
    "triggers": [{"id": "T0", "controller": "P0", "targets": [{"id": "t", "filter": {"id": "c0"}}]}],
    "reactions": [
        {"id": "Q0", "object": "c0", "trigger": {"source": "c0", "targets": [{"id": "t", "filter": {"id": "c1"}}]}},
    ],
}
"""T0 must target c0, which fires Q0@T0 in pass 2; Q0@T0 must target c1 (so it is never removed)."""


@pytest.mark.parametrize("universe", [1, 4096])
def test_a_walk_names_every_decision_about_an_ability_it_met(monkeypatch: pytest.MonkeyPatch, universe: int) -> None:
    """A reaction's ability past the abilities laid out in advance (:data:`UNIVERSE`: 4,096, past
    which a fan of reactions gives the ones a walk meets ids as they appear) had its put made as a
    walk offered it, and its removal — never offered, as it has a legal choice — was "no such
    decision" to ``decision("remove …")``: ``why_illegal`` could not be asked (a drawn 2HG board
    with a chain of seven reactions, tests/test_judge_66a.py). Now each is a decision, refused with
    its rule."""
    from triggerstack.solver._verbs.step import _walk

    monkeypatch.setattr(_walk, "UNIVERSE", universe)
    facts = compile_facts(Scenario.model_validate(CHAIN))
    stepper = Stepper(facts)
    (outcome,) = outcomes(facts)
    walk = stepper.start()
    met = []
    for d in stepper.decisions_for(outcome):
        if d.kind is DecisionKind.PUT:
            instead = stepper.decision(f"remove {d.subject}")
            assert instead not in stepper.legal(walk)
            why = stepper.why_illegal(walk, instead)
            assert why.code == "removed-but-legal" and why.rule == "603.3d", why
            met.append(d.subject)
        walk = stepper.apply(walk, d)
    assert met == ["T0", "Q0@T0"]
