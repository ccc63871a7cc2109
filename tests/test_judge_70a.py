"""What a judge reads, over the shapes no generator of the judge's properties drew.

The judge's properties (tests/test_judge_6*.py: explain's every reason said of every way, its text
against its JSON, step's why-not against check) ran over ``scenarios`` and their own narrow
generators. None drew what :func:`wide` draws (docs/formats.md): players with shroud, protection,
hexproof from and can't-be-targeted-by; spells, abilities and emblems as objects and sources;
numbers, tags, counters; delayed abilities made by a replacement or a static action;
``source_controller``; several "must target" effects over qualities; reactions watching cards,
spells, emblems and players, whose abilities are modal, repeat a mode, divide, differ from their
source or have none; ``target_of`` over those things; ``event_player`` read by ``controller:
event``; mode and requirement texts. Nor did one draw boards of real cards (``rl.boards``:
``card_ability``, X, ward). And step's why-not of a target (tests/test_judge_63a.py) and of a mode
(tests/property/test_literal.py) was held to check in the first pass only, of boards without
reactions. Here each is held in every pass, over those boards (the why-not of a target by
tests/test_judge_63a.py's own helper, which walks every pass); they found no disagreement.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario
from triggerstack.solver import DecisionKind, Stepper, check

from .property.strategies import SETTINGS, _link, scenarios
from .property.test_literal import unusual
from .test_judge_63a import _legal, text_tells_every_exclusion_the_json_gives, why_not_each_target_is_what_check_says
from .test_judge_65a import every_reason_told, wider

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

BODY_FILTERS: list[Any] = [
    "any-target",
    {"kind": "player"},
    {"kind": "ability"},
    {"zone": "stack"},
    {"type": "creature"},
    {"kind": ["spell", "ability"], "controller": "opponent"},
    {"kind": "emblem"},
]


@st.composite
def _body(draw: st.DrawFn, ids: list[str], sources: list[str]) -> dict[str, Any]:
    """A reaction's trigger: with or without a source, modal (repeated, distinct targets) or not,
    dividing or not, its requirements differing from each other or from its source, or not; at
    times triggered by an ability triggering (part 2 of 603.3b), chosen for by another player,
    illegal, or delayed."""
    body: dict[str, Any] = {"text": "R"}
    sourced: bool = draw(st.booleans())
    if sources and sourced:
        body["source"] = draw(st.sampled_from(sources))
    else:
        body["controller"] = draw(st.sampled_from(ids))
    if draw(st.integers(0, 2)) == 0:
        body["condition"] = "ability-triggered"  # part 2 of 603.3b, in a later pass
    if draw(st.integers(0, 4)) == 0:
        body["chooser"] = draw(st.sampled_from(ids))
    if draw(st.integers(0, 7)) == 0:
        body["illegal"] = "an effect"
    elif "source" in body and draw(st.integers(0, 5)) == 0:
        body["delayed"] = {
            "by": draw(st.sampled_from(["ability", "static-action"])),
            "controller": draw(st.sampled_from(ids)),
        }

    def requirement(rid: str) -> dict[str, Any]:
        lo, hi = draw(st.sampled_from([(0, 1), (1, 1), (1, 2)]))
        r: dict[str, Any] = {
            "id": rid,
            "min": lo,
            "max": hi,
            "filter": copy.deepcopy(draw(st.sampled_from(BODY_FILTERS))),
        }
        if lo and draw(st.integers(0, 3)) == 0:
            r["divide"] = draw(st.integers(hi, 3))
        return r

    if draw(st.booleans()):
        body["targets"] = [requirement(f"t{k}") for k in range(draw(st.integers(0, 2)))]
        if len(body["targets"]) == 2 and draw(st.booleans()):
            body["targets"][1]["different_from"] = ["t0"]
        if draw(st.integers(0, 3)) == 0:
            for r in body["targets"]:
                r["other_than_source"] = True
    else:
        repeat = draw(st.integers(0, 2)) == 0
        n = draw(st.integers(1, 2))
        body["modal"] = {
            "choose": sorted({1, draw(st.integers(0, 2 if repeat else n))}),
            "repeat": repeat,
            "distinct_targets": draw(st.booleans()),
        }
        body["modes"] = [
            {"id": f"n{j}", "targets": [requirement("t")] if draw(st.integers(0, 2)) else []} for j in range(n)
        ]
    return body


@st.composite
def wide(draw: st.DrawFn) -> dict[str, Any]:
    """:func:`unusual`'s boards (players with shroud, protection, hexproof from and
    can't-be-targeted-by; spells, abilities and emblems as objects and sources; numbers, tags,
    counters; delayed abilities by a replacement or a static action; "must target" over qualities),
    with what no generator of the judge's properties drew beside them: reactions watching any of
    objects and players, whose abilities are modal (repeated, distinct targets), divide, or have no source;
    requirements reading another's targets (``target_of``) over all of these things; a trigger's
    ``event_player`` read by ``controller: event``; and mode and requirement texts."""
    doc: dict[str, Any] = draw(unusual())
    ids = [p if isinstance(p, str) else p["id"] for p in doc["players"]]
    objects = doc["objects"]
    triggers = doc["triggers"]
    sources = [o["id"] for o in objects if o["kind"] in ("permanent", "card", "emblem")]
    if draw(st.integers(0, 2)):
        watched = [o["id"] for o in objects] + ids
        doc["reactions"] = [
            {
                "id": f"R{i}",
                "object": draw(st.sampled_from(watched)),
                "by": draw(st.sampled_from(["opponent", "you", "any"])),
                "trigger": draw(_body(ids, sources)),
            }
            for i in range(draw(st.integers(1, 2)))
        ]
        event("reactions")
    for t in [*triggers, *(r["trigger"] for r in doc.get("reactions", []))]:
        for reqs in [t.get("targets", []), *(m["targets"] for m in t.get("modes", []))]:
            if len(reqs) >= 2 and draw(st.integers(0, 2)) == 0:
                draw(_link(reqs))  # a requirement reading another's targets (target_of), over these things
                event("target_of")
    for t in triggers:
        if draw(st.integers(0, 3)) == 0:
            t["event_player"] = draw(st.sampled_from(ids))
            reqs = t.get("targets") or [r for m in t.get("modes", []) for r in m["targets"]]
            if reqs:
                r = draw(st.sampled_from(reqs))
                r["filter"] = {
                    "any": [{"kind": "player", "controller": "event"}, {"type": "creature", "controller": "event"}]
                }
                event("event_player read")
        for m in t.get("modes", []):
            if draw(st.integers(0, 3)) == 0:
                m["text"] = f"{m['id']} does it."
        for r in t.get("targets", []) + [r for m in t.get("modes", []) for r in m["targets"]]:
            if draw(st.integers(0, 3)) == 0:
                r["text"] = f"target {r['id']}"
    return doc


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 3, 10))  # each example walks three outcomes
@given(doc=st.one_of(wide(), scenarios(max_abilities=3, reactions=True)))
def test_steps_why_not_a_target_in_any_pass_is_what_check_says_of_the_outcome_taking_it(doc: dict[str, Any]) -> None:
    """docs/python.md, "Why not", in every pass of 603.3b, over boards with reactions and the wide
    ones (tests/test_judge_63a.py's helper, which its own boards without reactions run too): at
    every target a walk to a legal outcome clicks, each thing of that pass it refuses for a rule
    (not "further on") breaks that rule — ``check`` of the outcome with the thing in place of the
    target clicked names that code and rule of that ability."""
    facts, _, found = _legal(doc, 3)
    why_not_each_target_is_what_check_says(facts, found)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 3, 10))
@given(doc=st.one_of(wide(), scenarios(max_abilities=3, reactions=True)))
def test_explain_text_tells_every_exclusion_the_json_gives_in_every_pass(doc: dict[str, Any]) -> None:
    """docs/cli.md, explain: "every excluded candidate and its rule", for the abilities reactions
    fire (explain's ``fired``) as for the first pass's, with modes' and requirements' texts."""
    _, told, _ = _legal(doc, 0)
    text_tells_every_exclusion_the_json_gives(told)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 5, 5))  # each example checks every way
@given(doc=wide())
def test_a_reason_explain_gives_over_the_wide_boards_is_said_of_every_way(doc: dict[str, Any]) -> None:
    """docs/formats.md, "Explanation" (tests/test_judge_65a.py ``every_reason_told``): each reason
    explain gives for a thing no legal outcome takes — of every ability, those reactions fire too —
    is what ``check`` says of every way of choosing it, in its words."""
    facts, told, found = _legal(doc, 200)
    every_reason_told(facts, found, [*told["abilities"], *told.get("fired", [])], wider(facts))


def _card_board(seed: int) -> Scenario:
    """The first board of real cards ``rl.boards`` draws from ``seed`` (docs/rl.md): two to four
    seats, two to five waiting abilities read from Oracle text (``card_ability``, X, "for each
    opponent", ward, the event's player), the generated families without the extra ``[cards]``."""
    from triggerstack.solver import rl

    board: Scenario = next(iter(rl.boards(seed, 1, players=(2, 4), abilities=(2, 5))))
    return board


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 5))  # a board is drawn from the card pool
@given(seed=st.integers(0, 2**30))
def test_what_a_judge_reads_of_a_board_of_real_cards_is_what_check_says(seed: int) -> None:
    """The boards of real cards no judge property drew: explain's every reason of every way, its
    text against its JSON, and step's why-not of each target against check."""
    pytest.importorskip("gymnasium")
    board = _card_board(seed)
    facts, told, found = _legal(board, 200)
    every_reason_told(facts, found, [*told["abilities"], *told.get("fired", [])], wider(facts))
    test_explain_text_tells_every_exclusion_the_json_gives_in_every_pass.hypothesis.inner_test(doc=board)  # type: ignore[attr-defined]
    test_steps_why_not_a_target_in_any_pass_is_what_check_says_of_the_outcome_taking_it.hypothesis.inner_test(doc=board)  # type: ignore[attr-defined]


MODE_CODES = {"mode-unavailable", "mode-repeat", "mode-count", "mode-illegal"}
"""What a mode refused as it is announced breaks for good (docs/formats.md, Violation codes)."""


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 3, 10))  # each example walks three outcomes
@given(doc=st.one_of(wide(), scenarios(max_abilities=3, reactions=True)))
def test_steps_why_not_a_mode_in_any_pass_is_what_check_says_of_choosing_it(doc: dict[str, Any]) -> None:
    """docs/python.md, "Why not", in every pass (tests/property/test_literal.py held the first pass
    to the literal reading, which has no reactions): a mode refused while an ability's modes are
    announced, for one of 700.2's or 603.3c's codes, is refused so by ``check`` of the outcome whose
    entry chooses the modes announced so far and then that mode."""
    facts, _, found = _legal(doc, 3)
    stepper = Stepper(facts)
    for o in found:
        decisions = stepper.decisions_for(Outcome.model_validate(o))
        walk = stepper.start()
        for d in decisions:
            hand = stepper.in_hand(walk) if d.kind in (DecisionKind.MODE, DecisionKind.END_MODES) else None
            if hand is not None:
                i = next(k for k, e in enumerate(o["stack"]) if e["ability"] == hand[0])
                said = sum(1 for x in hand[1] if x.startswith("mode "))
                offered = {x.text for x in stepper.legal(walk)}
                if stepper.pass_number(walk) > 1:
                    event("a later pass's mode refused")
                a = walk.facts.abilities[walk.facts.ability_index[hand[0]]] if walk.facts else None
                assert a is not None
                for m in a.modes:
                    text = f"mode {hand[0]}:{m.id}"
                    if text in offered:
                        continue
                    why = stepper.why_illegal(walk, stepper.decision(text))
                    if why.later or why.code is None or why.code.value not in MODE_CODES:
                        continue
                    changed = copy.deepcopy(o)
                    changed["stack"][i]["modes"] = [*o["stack"][i]["modes"][:said], {"mode": m.id}]
                    verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
                    got = {(v.code, v.rule) for v in verdict.violations if v.ability == hand[0]}
                    assert (why.code, why.rule) in got, (why, [v.message for v in verdict.violations], changed)
            walk = stepper.apply(walk, d)
