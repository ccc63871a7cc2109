"""A reason ``explain`` gives is judged on every stack the ability is put on, however many there are.

docs/formats.md, "Explanation": a thing no legal outcome chooses is excluded with what ``check``
says of every choice that takes it, on each stack some legal outcome puts the ability on — what
all of them break, or where nothing is common, each way one of them breaks. Past 32 stacks it
judged one stack holding every ability any of them held: the largest, where a must-target ability
is below and the thing shares it (115.3) — said of a proposal put where that ability is not below,
which breaks only 601.2c (the thing is not on the stack). So, for generated scenarios with six to
nine abilities that may be below an ability or not (64 to 512 stacks): each reason explain gives is
one ``check`` says of every way of choosing the thing, the ways drawn from uniformly sampled
outcomes (every kind of stack, not the first ones listed).

Stacks that differ only by abilities every rule sees alike are judged once
(``stack_kinds``): the ways of choosing a thing on a stack break the same rules, way for way, as
on the one of its kind judged.

An ability no legal outcome puts on the stack: each reason explain gives a thing of it, and its
mode's reason (the heading of its targets on the page), is one ``check`` says of it put there with
that thing — a non-modal ability's "mode can't be chosen" (603.3c) is not: check says it has no
legal choice, so it is removed (603.3d). And an ``illegal`` mode's reason, judged on the largest
stack, is what the judge says of it on each stack the ability is put on (that stack is one of them).

Private unit: solver/_judge/_never's stack_kinds and _never_on (with a Reading of its own), one kind of
stack judged for all.
"""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, compile_facts
from triggerstack.solver import LegalOutcomes, Options, TimeLimitReached, check, explain
from triggerstack.solver._engines.product import ProductEngine
from triggerstack.solver._engines.product.projection import project
from triggerstack.solver._judge import mode_never_chosen
from triggerstack.solver._judge._never import Reading, _never_on, stack_kinds

from .property.strategies import SETTINGS
from .test_judge_65a import every_reason_told, excluded_reasons

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

DRAWN = 24
"""Outcomes drawn per scenario, uniformly: each a way of choosing each excluded thing."""

WIDER = 2000
"""Outcomes drawn further where explain says nothing is common to the ways: one of them misses each
reason every way of the first draw breaks."""

OPTIONAL = {"modal": {"choose": [0, 1]}, "modes": [{"id": "go", "targets": []}]}
"""An ability its controller may remove whatever the board (it may choose no mode, 700.2)."""


@st.composite
def many_below(draw: st.DrawFn) -> dict[str, Any]:
    """Six to nine abilities of P0's that may or may not be below (optional, or needing an ability
    below them), and one or two of P1's — or of P0's, in the same block — that target abilities or
    players, two requirements that must differ, modal or not; must-target effects on a player or an
    ability: dozens to hundreds of stacks each ability may be put on."""
    players = ["P0", "P1"]
    triggers: list[dict[str, Any]] = []
    for k in range(draw(st.integers(6, 9))):
        kind = draw(st.sampled_from(["optional", "optional", "needs"]))
        if kind == "optional":
            triggers.append({"id": f"A{k}", "controller": "P0", **OPTIONAL})
        else:
            need = {"id": "x", "min": 1, "max": 1, "filter": {"kind": "ability"}}
            triggers.append({"id": f"A{k}", "controller": "P0", "targets": [need]})
    either = {"any": [{"kind": "player"}, {"kind": "ability"}]}
    for k in range(draw(st.integers(1, 2))):
        r0 = {"id": "r0", "min": 1, "max": 1, "filter": draw(st.sampled_from([either, {"kind": "ability"}]))}
        r1: dict[str, Any] = {"id": "r1", "min": 0, "max": 1, "filter": {"kind": "ability"}}
        if draw(st.booleans()):
            r1["different_from"] = ["r0"]
        t: dict[str, Any] = {"id": f"T{k}", "controller": draw(st.sampled_from(players))}
        if draw(st.booleans()):
            player = {"id": "p", "min": 1, "max": 1, "filter": {"kind": "player"}}
            t["modal"] = {"choose": [1]}
            t["modes"] = [{"id": "m0", "targets": [r0, r1]}, {"id": "m1", "targets": [player]}]
        else:
            t["targets"] = [r0, r1]
        triggers.append(t)
    ids = [t["id"] for t in triggers]
    musts = draw(st.lists(st.sampled_from(players + ids), max_size=2, unique=True))
    doc: dict[str, Any] = {"players": players, "objects": [], "triggers": triggers}
    if musts:
        doc["must_target"] = [{"object": x, "applies_to": {}} for x in musts]
    return doc


SIX_BELOW: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [],
    "triggers": [
        *({"id": f"A{k}", "controller": "P0", **OPTIONAL} for k in range(6)),
        {
            "id": "T0",
            "controller": "P1",
            "targets": [
                {"id": "r0", "min": 1, "max": 1, "filter": {"any": [{"kind": "player"}, {"kind": "ability"}]}},
                {"id": "r1", "min": 0, "max": 1, "filter": {"kind": "ability"}, "different_from": ["r0"]},
            ],
        },
    ],
    "must_target": [{"object": "P0", "applies_to": ["T0"]}, {"object": "A0", "applies_to": ["T0"]}],
}
"""T0 must target P0 and A0 where it can (601.2c): r0 = P0 always, and r1 = A0 where A0 is below.
Six optional abilities below T0 make 64 stacks. explain said A0 is never r0 because "A0 chosen for
both r1 and r0" (115.3) and T0 "obeys 1 of the effects … 2 can be obeyed" — true only with A0 below
(the one stack it judged held all six); with A0 removed, check says of r0 = A0 only that A0 is not
on the stack. With five (32 stacks) it said all three reasons, each way one of them."""


NEED = [{"id": "x", "min": 1, "max": 1, "filter": {"kind": "ability"}}]
ABOVE_IN_EACH_DRAWN: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [],
    "triggers": [
        *({"id": f"A{k}", "controller": "P0", **({**OPTIONAL} if k == 2 else {"targets": NEED})} for k in range(8)),
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [1]},
            "modes": [
                {"id": "m0", "targets": [
                    {"id": "r0", "min": 1, "max": 1, "filter": {"any": [{"kind": "player"}, {"kind": "ability"}]}},
                    {"id": "r1", "min": 0, "max": 1, "filter": {"kind": "ability"}, "different_from": ["r0"]},
                ]},
                {"id": "m1", "targets": [{"id": "p", "min": 1, "max": 1, "filter": {"kind": "player"}}]},
            ],
        },
    ],
    "must_target": [{"object": "A7", "applies_to": {}}, {"object": "P0", "applies_to": {}}],
}
"""Seven abilities of P0's each needing an ability below it, one optional, and T0 (P0's) that must
target A7 and P0. A7 is never T0's r0: above T0 it is not yet on the stack (601.2c), below it T0
must take P0 for r0 and A7 for r1 (601.2c, 115.3) — about one outcome in 200 puts A7 below T0, so
each of the 24 drawn with seed 65535 put it above, and the property's old oracle held explain to the
one reason those shared."""


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 30, 5))  # each example checks every way: ~100
@given(doc=many_below(), seed=st.integers(0, 2**16))
@example(doc=SIX_BELOW, seed=0)
@example(doc=ABOVE_IN_EACH_DRAWN, seed=65535)
def test_a_reason_explain_gives_is_said_of_every_way_on_every_stack(doc: dict[str, Any], seed: int) -> None:
    """docs/formats.md, "Explanation": each reason explain gives a thing no legal outcome chooses
    is said by ``check`` of every way of choosing it (each drawn outcome with the thing in place)
    where some reason is said of every way, else one of explain's reasons of each."""
    facts = compile_facts(Scenario.model_validate(doc))
    legal = LegalOutcomes(facts, Options(time_limit=30))
    try:
        told = legal.explain()
        found = [o.model_dump(mode="json", exclude_none=True) for o in legal.sample(DRAWN, seed=seed)]
    except TimeLimitReached:
        assume(False)
        raise
    more = lambda: (o.model_dump(mode="json", exclude_none=True) for o in legal.sample(WIDER, seed=seed + 1))  # noqa: E731
    every_reason_told(facts, found, told["abilities"], more)


def _codes(facts: Any, a: Any, m: Any, r: Any, t: int, below: frozenset[int]) -> Counter[frozenset[tuple[str, str]]]:
    """The rules each way of choosing ``t`` on ``below`` breaks, as a multiset over the ways."""
    told = itertools.islice(_never_on(facts, a, m, r, t, below, True, Reading()), 200)
    return Counter(frozenset((x.code.value if x.code else "", x.rule.value if x.rule else "") for x in w) for w in told)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 60, 5))  # every stack of every candidate
@given(doc=many_below())
@example(doc=SIX_BELOW)
def test_a_stack_breaks_what_the_one_of_its_kind_breaks(doc: dict[str, Any]) -> None:
    """Each stack an ability is put on, and the one of its kind judged in its place: the ways of
    choosing each candidate there break the same rules, way for way (code and rule)."""
    facts = compile_facts(Scenario.model_validate(doc))
    seen = project(ProductEngine(facts))  # what explain reads
    for a in facts.abilities:
        stacks = sorted(seen[a.index].reach.below, key=sorted)
        if len(stacks) < 2:
            continue
        for m in a.modes:
            for r in m.requirements:
                for t in r.candidates[-3:]:  # the waiting abilities come last
                    kinds = stack_kinds(facts, a, stacks, t)
                    for below in stacks[:: max(1, len(stacks) // 16)]:
                        same = next(k for k in kinds if stack_kinds(facts, a, [k, below], t) == [k])
                        assert _codes(facts, a, m, r, t, below) == _codes(facts, a, m, r, t, same), (
                            a.id,
                            m.id,
                            r.id,
                            facts.things[t].id,
                            sorted(below),
                            sorted(same),
                        )


def test_explain_judges_one_stack_of_each_kind() -> None:
    """Nine optional abilities alike below T0: 512 stacks, of at most 36 kinds for any thing
    judged (A0, a must-target object, and the thing itself apart), explained as the six of
    SIX_BELOW are."""
    alike = [{"id": f"A{k}", "controller": "P0", **OPTIONAL} for k in range(9)]
    doc = {**SIX_BELOW, "triggers": [*alike, SIX_BELOW["triggers"][-1]]}

    def excluded(told: Any) -> set[tuple[str, str]]:
        r0 = told["abilities"][-1]["modes"][0]["requirements"][0]
        return {(e["id"], e["code"]) for e in r0["excluded"] if e["id"] in ("A0", "A1", "P1")}

    nine = excluded(explain(Scenario.model_validate(doc)))
    assert nine == excluded(explain(Scenario.model_validate(SIX_BELOW)))
    assert {("A0", "target-not-yet-on-stack"), ("A0", "target-not-distinct"), ("A0", "target-must")} <= nine


@st.composite
def never_put(draw: st.DrawFn) -> dict[str, Any]:
    """An ability (modal or not) with a requirement that often has no candidate ("target creature
    an opponent controls", none there), so it is never put on the stack (603.3c), and another over
    players, creatures or abilities; beside it, abilities it may target, one put only above it."""
    players = ["P0", "P1"][: draw(st.integers(1, 2))]
    objects = [{"id": f"o{k}", "controller": "P0", "types": ["creature"]} for k in range(draw(st.integers(0, 2)))]
    if len(players) == 2 and draw(st.integers(0, 3)) == 0:
        objects.append({"id": "theirs", "controller": "P1", "types": ["creature"]})
    theirs = {"id": "r0", "min": 1, "max": 1, "filter": {"type": "creature", "controller": "opponent"}}
    f = draw(st.sampled_from(["any-target", {"kind": "ability"}, {"any": [{"kind": "ability"}, {"kind": "player"}]}]))
    other: dict[str, Any] = {"id": "r1", "min": draw(st.integers(0, 1)), "max": 1, "filter": f}
    if draw(st.booleans()):
        other["different_from"] = ["r0"]
    t: dict[str, Any] = {"id": "T0", "controller": "P0"}
    if draw(st.booleans()):
        player = {"id": "p", "min": 1, "max": 1, "filter": {"kind": "player"}}
        t["modal"] = {"choose": draw(st.sampled_from([[1], [1, 2]]))}
        t["modes"] = [{"id": "m0", "targets": [theirs, other]}, {"id": "m1", "targets": [player]}]
    else:
        t["targets"] = [theirs, other]
    below = [{"id": f"A{k}", "controller": "P0", **OPTIONAL} for k in range(draw(st.integers(0, 2)))]
    above = {"id": "B", "controller": "P0", "targets": [{"id": "x", "min": 1, "max": 1, "filter": {"kind": "ability"}}]}
    doc: dict[str, Any] = {"players": players, "objects": objects, "triggers": [*below, t, above]}
    if draw(st.booleans()):
        doc["must_target"] = [{"object": draw(st.sampled_from(players)), "applies_to": {}}]
    return doc


NOT_MODAL: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "targets": [
                {"id": "r0", "min": 1, "max": 1, "filter": {"type": "creature", "controller": "opponent"}},
                {"id": "r1", "min": 0, "max": 1, "filter": "any-target"},
            ],
        }
    ],
}
"""P1 controls no creature: T0 has no legal choice and is removed (603.3c). explain excluded P0 and
P1 from r1 because "T0's mode can't be chosen" (mode-illegal, 603.3c), a modal ability's refusal:
check says of T0 put with r1 = P1 that r0 has 0 targets (601.2c) and T0 has no legal choice, so it
is removed (603.3d) — never that a mode is illegal; and its targets' heading on the page said the same."""


def _put_instead(facts: Any, o: dict[str, Any], ability: str, mode: str | None, rid: str, thing: str) -> dict[str, Any]:
    """``o`` with ``ability`` — which it removes — put instead, choosing ``thing`` alone for ``rid``
    (in ``mode``), on top of its block (below every later block's)."""
    a = facts.abilities[facts.ability_index[ability]]
    changed = {**o, "removed": [x for x in o.get("removed", []) if x != ability]}
    entry: dict[str, Any] = {"ability": ability}
    if mode is None:
        entry["targets"] = {rid: [thing]}
    else:
        entry["modes"] = [{"mode": mode, "targets": {rid: [thing]}}]
    stack = list(o["stack"])
    at = sum(1 for e in stack if facts.abilities[facts.ability_index[e["ability"]]].block <= a.block)
    changed["stack"] = [*stack[:at], entry, *stack[at:]]
    return changed


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 5))
@given(doc=never_put(), seed=st.integers(0, 2**16))
@example(doc=NOT_MODAL, seed=0)
def test_a_reason_explain_gives_of_an_ability_never_put_is_one_check_says(doc: dict[str, Any], seed: int) -> None:
    """docs/formats.md, "Explanation": an ability no legal outcome puts on the stack chooses
    nothing; each thing its requirement allows is excluded with what ``check`` says of putting it
    there with that thing: each reason explain gives is one check says of it put on top of its
    block in each drawn outcome (the stack it would be put on), by code and rule."""
    facts = compile_facts(Scenario.model_validate(doc))
    legal = LegalOutcomes(facts, Options(time_limit=30))
    told = legal.explain()
    found = [o.model_dump(mode="json", exclude_none=True) for o in legal.sample(8, seed=seed)]
    for report in told["abilities"]:
        a = facts.abilities[facts.ability_index[report["id"]]]
        if report["removal"] != "must" or a.forced_removal is not None:
            continue
        for m, r, thing, given_ in excluded_reasons(report):
            if given_ <= {("target-self", "115.5"), ("target-filter", "601.2c")}:
                continue  # barred by the thing's own rules: test_literal holds those
            for o in found:
                changed = _put_instead(facts, o, a.id, m["id"] if a.modal else None, r["id"], thing)
                verdict = check(facts, Outcome.model_validate(changed))
                mine = [v for v in verdict.violations if v.ability == a.id]
                got = {(v.code.value, v.rule.value) for v in mine}
                assert given_ <= got, (a.id, r["id"], thing, given_ - got, "is not said of", changed["stack"])
                # the mode's reason (the page's heading of its targets) is one check gives too
                assert m["reason"] in {v.message for v in mine}, (a.id, m["reason"], mine)


@st.composite
def modal_over(draw: st.DrawFn) -> dict[str, Any]:
    """A modal ability choosing one to three of two to four modes (repeated or not, with different
    targets or not) over abilities, players and creatures, above one to three optional abilities;
    sometimes a must-target effect: modes no legal outcome chooses, on stacks of every size."""
    players = ["P0", "P1"][: draw(st.integers(1, 2))]
    objects = [{"id": "o0", "controller": "P0", "types": ["creature"]}] if draw(st.booleans()) else []
    below = [{"id": f"A{k}", "controller": "P0", **OPTIONAL} for k in range(draw(st.integers(1, 3)))]
    either = {"any": [{"kind": "player"}, {"kind": "ability"}]}
    filters: list[Any] = [{"kind": "ability"}, {"kind": "player"}, {"type": "creature"}, either, "any-target"]
    modes = []
    for j in range(draw(st.integers(2, 4))):
        most = draw(st.integers(1, 2))
        r = {"id": "r0", "min": draw(st.integers(1, most)), "max": most, "filter": draw(st.sampled_from(filters))}
        modes.append({"id": f"m{j}", "targets": [r]})
    repeat = draw(st.booleans())
    choose = draw(st.sampled_from([[1], [2], [1, 2]] + ([[2, 3], [3]] if repeat or len(modes) >= 3 else [])))
    modal = {"choose": choose, "repeat": repeat, "distinct_targets": draw(st.booleans())}
    t = {"id": "T0", "controller": draw(st.sampled_from(players)), "modal": modal, "modes": modes}
    doc: dict[str, Any] = {"players": players, "objects": objects, "triggers": [*below, t]}
    if draw(st.booleans()):
        doc["must_target"] = [{"object": draw(st.sampled_from(players + [x["id"] for x in below])), "applies_to": {}}]
    return doc


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 5))
@given(doc=st.one_of(modal_over(), many_below()))
def test_a_modes_reason_is_what_each_stack_says(doc: dict[str, Any]) -> None:
    """docs/formats.md, "Explanation": an ``illegal`` mode's reason is judged with every ability the
    ability can target below it — the largest stack some legal outcome puts it on, which is one of
    them (603.3b: abilities below it in one outcome and in another are below it together in a
    third), and 603.3c's legal targets only grow with the stack. So it is what the judge says of
    the mode on each stack it is put on, one by one."""
    facts = compile_facts(Scenario.model_validate(doc))
    told = explain(facts)
    seen = project(ProductEngine(facts))
    for report in told["abilities"]:
        a = facts.abilities[facts.ability_index[report["id"]]]
        stacks = seen[a.index].reach.below
        if stacks:
            assert frozenset().union(*stacks) in stacks, (a.id, sorted(map(sorted, stacks)))
        for m, said in zip(a.modes, report["modes"], strict=True):
            if said["status"] == "illegal":
                for below in stacks:
                    assert mode_never_chosen(facts, a, m, below).text == said["reason"], (a.id, m.id, sorted(below))
