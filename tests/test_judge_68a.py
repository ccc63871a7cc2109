"""A target that is no thing of its pass is told alike by ``check``, ``step`` and ``explain``.

In a later pass of 603.3b the things are the players, the objects and the abilities on the stack
(docs/rules.md). An ability an earlier pass removed, or one a reaction fires that the outcome never
fires, is none of them. ``check`` said of it "T0 is not a player, object or waiting ability of
the scenario" — false of T0, a waiting ability of the scenario's first pass — and ``step`` said of
the same target "T0 is not a thing of this pass: it has not triggered", false too: T0 triggered and
was removed. Mechanism: each door worded a target missing from the pass's things on its own, from
the pass's facts alone. One sentence now (solver/_judge/_targets.py ``not_in_pass``), told with the
pass that removed it, which ``check`` and a walk both know.

And ``explain``'s reasons for the abilities reactions fire (its ``fired`` reports) are held, as the
first pass's are, to what ``check`` says of every way of choosing each thing (tests/test_judge_65a.py
``every_reason_told``): a way exists where the thing is a thing of that pass.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from triggerstack.model import EndlessLoop, Outcome, Scenario, compile_facts
from triggerstack.solver import DecisionKind, Stepper, TimeLimitReached, check, explain, outcomes

from .property.strategies import SETTINGS, scenarios
from .property.test_agreement import size_bound
from .test_judge_65a import every_reason_told, wider

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

REMOVED_THEN_TARGETED: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [{"id": "c0", "controller": "P1", "types": ["creature"]}],
    "triggers": [
        {"id": "T0", "controller": "P0", "modal": {"choose": [0, 1]}, "modes": [{"id": "go"}]},
        {"id": "RT", "controller": "P0", "targets": [{"id": "t", "min": 0, "max": 1, "filter": {"id": "c0"}}]},
    ],
    "reactions": [
        {
            "id": "Q0",
            "object": "c0",
            "by": "opponent",
            "trigger": {"source": "c0", "text": "Q0", "targets": [{"id": "t", "min": 1, "max": 1, "filter": "any-target"}]},
        }
    ],
}
"""T0 may be removed (it may choose no mode, 700.2); RT targeting c0 fires Q0 (its controller's
opponent's ability targets c0), which targets any target in pass 2."""


@st.composite
def removed_then_fired(draw: st.DrawFn) -> dict[str, Any]:
    """One to three first-pass abilities their controllers may remove, and one or two that may
    target creatures whose reactions (any controller's, or an opponent's) fire abilities targeting
    in pass 2: a later pass with things an earlier one removed."""
    players = ["P0", "P1"]
    objects = [{"id": f"c{k}", "controller": draw(st.sampled_from(players)), "types": ["creature"]} for k in range(2)]
    triggers: list[dict[str, Any]] = [
        {"id": f"A{k}", "controller": draw(st.sampled_from(players)), "modal": {"choose": [0, 1]}, "modes": [{"id": "go"}]}
        for k in range(draw(st.integers(1, 3)))
    ]
    for k in range(draw(st.integers(1, 2))):
        reach = {"id": "t", "min": draw(st.integers(0, 1)), "max": 1, "filter": {"type": "creature"}}
        triggers.append({"id": f"R{k}", "controller": draw(st.sampled_from(players)), "targets": [reach]})
    filters = st.sampled_from(["any-target", {"kind": "ability"}, {"any": [{"kind": "ability"}, {"kind": "player"}]}])
    reactions = [
        {
            "id": f"Q{k}",
            "object": f"c{k}",
            "by": draw(st.sampled_from(["any", "opponent"])),
            "trigger": {"source": f"c{k}", "text": f"Q{k}", "targets": [{"id": "t", "min": 1, "max": 1, "filter": draw(filters)}]},
        }
        for k in range(2)
    ]
    return {"players": players, "objects": objects, "triggers": triggers, "reactions": reactions}


def test_a_target_an_earlier_pass_removed_is_told_so_by_check_and_step() -> None:
    facts = compile_facts(Scenario.model_validate(REMOVED_THEN_TARGETED))
    proposal = {"stack": [{"ability": "RT", "targets": {"t": ["c0"]}}, {"ability": "Q0@RT", "targets": {"t": ["T0"]}}],
                "removed": ["T0"]}  # fmt: skip
    said = [(v.code.value, v.message) for v in check(facts, Outcome.model_validate(proposal)).violations]
    sentence = "T0 was removed in pass 1: it is not a player, object or ability of this pass"
    assert said == [("target-unknown", f"Q0@RT, target t: {sentence}")]
    stepper = Stepper(facts)
    walk = stepper.start()
    for d in ("remove T0", "put RT", "target c0", "end targets", "put Q0@RT"):
        walk = stepper.apply(walk, stepper.decision(d))
    why = stepper.why_illegal(walk, stepper.decision("target T0"))
    assert (why.code.value if why.code else None, why.text) == ("target-unknown", sentence)
    not_fired = {"stack": [{"ability": "T0", "modes": [{"mode": "go"}]}, {"ability": "RT", "targets": {"t": ["Q0@RT"]}}],
                 "removed": []}  # fmt: skip
    plain = [v.message for v in check(facts, Outcome.model_validate(not_fired)).violations]
    assert plain == ["RT, target t: Q0@RT is not a thing of this pass: it has not triggered"]


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 5, 5))  # every later-pass target of six outcomes
@given(doc=removed_then_fired() | scenarios(max_abilities=3, reactions=True))
def test_check_and_a_walk_say_one_sentence_of_a_target_no_pass_thing(doc: dict[str, Any]) -> None:
    """Each later-pass target of a legal outcome, changed to an ability an earlier pass removed:
    ``check`` says of it target-unknown in the words ``step``'s ``why_illegal`` says of choosing it
    at that point of the walk, naming the pass that removed it."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    try:
        found = [o for o in outcomes(facts, limit=6, time_limit=20) if len(o.passes or ()) > 1 and o.removed]
    except (TimeLimitReached, EndlessLoop):
        assume(False)
        raise
    stepper = Stepper(facts)
    for o in found:
        first_removed = [r for r in o.removed if r in facts.ability_index]
        walk = stepper.start()
        for d in stepper.decisions_for(o):
            if d.kind is DecisionKind.TARGET and stepper.pass_number(walk) > 1 and first_removed:
                gone = first_removed[0]
                why = stepper.why_illegal(walk, stepper.decision(f"target {gone}"))
                assert why.code is not None and why.code.value == "target-unknown", why
                assert why.text.startswith(f"{gone} was removed in pass 1:"), why.text
                changed = _retargeted(o.model_dump(mode="json", exclude_none=True), d.subject, gone)
                verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
                assert any(v.message.endswith(why.text) for v in verdict.violations), (why.text, verdict.violations)
                event("a later-pass target changed to an ability pass 1 removed")
            walk = stepper.apply(walk, d)


def _retargeted(o: dict[str, Any], target: str, thing: str) -> dict[str, Any]:
    """``o`` with the first later-pass target ``target`` (of an ability ``R@A``) replaced by ``thing``."""
    changed = copy.deepcopy(o)
    for e in changed["stack"]:
        if "@" not in e["ability"]:
            continue
        for where in [e, *e.get("modes", [])]:
            for rid, ids in where.get("targets", {}).items():
                if target in ids:
                    where["targets"][rid] = [thing if t == target else t for t in ids]
                    return changed
    raise AssertionError(f"no later-pass entry targets {target}")


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 5, 5))  # each example checks every way
@given(doc=removed_then_fired() | scenarios(max_abilities=3, reactions=True))
def test_a_reason_explain_gives_a_fired_abilitys_thing_is_said_of_every_way(doc: dict[str, Any]) -> None:
    """docs/formats.md, "Explanation": the fired abilities' reports are judged as the first pass's."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    try:
        told = explain(facts, time_limit=20)
        found = [o.model_dump(mode="json", exclude_none=True) for o in outcomes(facts, limit=200, time_limit=20)]
    except (TimeLimitReached, EndlessLoop):
        assume(False)
        raise
    every_reason_told(facts, found, [*told["abilities"], *told.get("fired", [])], wider(facts))
