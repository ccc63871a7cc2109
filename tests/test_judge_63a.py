"""What ``explain`` tells a judge about a "why not?" is what ``check`` says of a proposal that does it.

docs/rules.md and docs/formats.md: ``explain`` lists, for each requirement, the things that are
not legal targets with the violation code and rule that bar each, each mode's status with its
reason, and whether an ability must, may or cannot be removed; ``check`` lists *every* violation of
a proposal. Both ask the judge room (docs/architecture.md, "Where each rule is decided"), so for
generated scenarios, each legal outcome is changed the way a judge's "why not X?" asks, and the
verdict must name what ``explain`` said:

* a thing ``explain`` excludes from a requirement (code C, rule R), chosen instead of one of that
  requirement's targets (or as its only one): ``check`` finds the proposal illegal, with a
  violation of that ability of code C and rule R;
* a mode ``explain`` calls illegal or unavailable, chosen instead of one the entry chose:
  ``check`` says ``mode-illegal`` or ``mode-unavailable`` as ``explain`` did;
* an ability ``explain`` says cannot be removed, removed instead of put: ``removed-but-legal``;
* two such changes at once, to two abilities: ``check`` names both (every violation, not the first);
* a mode explain says "has no legal targets" (603.3c) has none: the literal simulator finds none
  with every ability it could target below;
* explain's text tells every exclusion the JSON gives, but those of things that do not fit the filter;
* at every target a walk to a legal outcome clicks, in every pass of 603.3b, each thing ``step``
  refuses (not even later) breaks the rule ``why_illegal`` cites: ``check`` says so of the outcome
  with it in that place (one helper, which tests/test_judge_70a.py runs over its boards too);
* an entry targeting an ability not below it is told 601.2c's ``target-not-yet-on-stack`` where the
  ability is one of its pass, and ``target-unknown`` where no thing of its pass (603.3b).

Set aside: boards too large to answer in time, and boards whose passes loop (mandatory or optional).

Private unit: the literal simulator's search for one mode's targets (tests/simulator._instances).
"""

from __future__ import annotations

import copy
import json
import re
import time
from itertools import combinations, product
from typing import Any

import pytest
from hypothesis import assume, event, example, given
from hypothesis import strategies as st
from triggerstack.model import EndlessLoop, Facts, Outcome, Scenario, compile_facts
from triggerstack.solver import DecisionKind, Stepper, TimeLimitReached, check, explain, outcomes

from .literal import Literal
from .property.strategies import SETTINGS, linked_boards, scenarios
from .property.test_agreement import size_bound
from .simulator import _instances as mode_instances
from .simulator import legal_choices

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

OUTCOMES = 6
"""Legal outcomes changed per scenario (the first ones the engine gives)."""

Change = tuple[str, str, str, dict[str, Any], str]  # ability, code, rule, proposal, the requirement changed
"""One change of a legal outcome: the ability changed, the code and rule ``explain`` gave, and the
changed outcome's JSON."""


@st.composite
def crowded(draw: st.DrawFn) -> dict[str, Any]:
    """A scenario where a candidate is often never chosen for a reason of the whole choice, not of
    the thing: requirements that must differ (115.3) with few things, modes that must target
    different things (700.2), "must target" effects (601.2c), abilities that target abilities."""
    doc: dict[str, Any] = draw(scenarios(max_abilities=3, linked=draw(st.booleans())))
    doc["objects"] = doc["objects"][: draw(st.integers(0, 2))]
    kept = {o["id"] for o in doc["objects"]}
    for t in doc["triggers"]:
        if t.get("source") is not None and t["source"] not in kept:
            del t["source"]
            t["controller"] = "P0"
        lists = [t.get("targets", [])] + [m["targets"] for m in t.get("modes", [])]
        for reqs in lists:
            if len(reqs) == 1 and draw(st.booleans()):
                reqs.append({"id": "r9", "min": 1, "max": 1, "filter": "any-target"})
            if len(reqs) >= 2 and draw(st.booleans()):
                reqs[-1]["different_from"] = [reqs[0]["id"]]
                reqs[-1]["min"] = max(reqs[-1]["min"], 1)
                if draw(st.booleans()):  # wider than the one it differs from, whose one candidate it never takes
                    reqs[-1]["filter"] = "any-target"
                    reqs[0].update({"min": 1, "max": 1, "filter": {"type": "creature"}})
                    reqs[0].pop("divide", None)
        if "modal" in t and draw(st.booleans()):
            t["modal"]["distinct_targets"] = True
    if doc["triggers"] and draw(st.booleans()):
        things = [p if isinstance(p, str) else p["id"] for p in doc["players"]] + sorted(kept)
        doc["must_target"] = [{"object": draw(st.sampled_from(things)), "applies_to": {}}]
    for m in doc.get("must_target", []):
        if m["object"] not in kept and m["object"].startswith("o"):
            doc.pop("must_target")
            break
    return doc


DIFFER = {
    "players": ["P0"],
    "objects": [
        {"id": "o0", "controller": "P0", "types": ["creature"]},
        {"id": "o1", "controller": "P0", "types": ["land"]},
    ],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "targets": [
                {"id": "r1", "min": 1, "max": 1, "filter": {"type": "creature"}},
                {"id": "r2", "min": 1, "max": 1, "filter": "any-target", "different_from": ["r1"]},
            ],
        }
    ],
}
"""o0 fits r2's filter, but it is r1's only candidate and r2 must differ from r1: explain said
"o0 fits no legal choice of the other targets" (target-filter), check says 115.3."""


ONE_CHOICE_ALONE = {
    "rules": "seed",
    "players": [{"id": "P0", "hexproof": True}, {"id": "P1", "hexproof": True, "left_game": True}],
    "objects": [
        {
            "id": "o0",
            "kind": "card",
            "zone": "graveyard",
            "owner": "P0",
            "types": ["creature"],
            "hexproof": True,
            "shroud": True,
            "hexproof_from": [{"color": "red"}],
        },
        {"id": "o1", "controller": "P0", "types": ["creature"], "colors": [], "hexproof": True},
    ],
    "triggers": [
        {
            "id": "T0",
            "text": "T0",
            "controller": "P0",
            "condition": "ability-triggered",
            "targets": [
                {"id": "r0", "min": 0, "max": None, "filter": {"kind": "player"}, "other_than_source": True},
                {
                    "id": "r1",
                    "min": 1,
                    "max": 1,
                    "filter": {"type": "creature", "not": {"controller": {"target_of": "r0"}}},
                    "different_from": ["r0"],
                    "other_than_source": True,
                },
                {
                    "id": "r2",
                    "min": 1,
                    "max": 1,
                    "filter": "any-target",
                    "different_from": ["r0"],
                    "other_than_source": True,
                },
            ],
        }
    ],
    "must_target": [{"object": "P1", "applies_to": {}}],
}
"""explain gave P0, never chosen for r0, two reasons: r1's description (a creature not controlled by
r0's target fits none) and 115.3 "P0 chosen for both r2 and r0" — true only of the one legal choice
it substituted into (r2 took P0 there; r2 = o1 is as legal). A reason is one every choice with P0
in place breaks (found by a search of crowded() scenarios with must-target effects)."""


ALWAYS_REMOVED_BELOW = {
    "rules": "seed",
    "players": [
        {"id": "P0", "hexproof": True},
        {"id": "P1", "hexproof": True, "left_game": True},
        {"id": "P2", "hexproof": True, "left_game": True},
    ],
    "objects": [],
    "triggers": [
        {
            "id": "T0",
            "text": "T0",
            "controller": "P0",
            "condition": "ability-triggered",
            "targets": [
                {"id": "r0", "min": 1, "max": 1, "filter": "any-target", "other_than_source": True},
                {"id": "r9", "min": 1, "max": 1, "filter": "any-target", "different_from": ["r0"]},
            ],
        },
        {
            "id": "T1",
            "text": "T0",
            "controller": "P0",
            "condition": "ability-triggered",
            "targets": [
                {"id": "r0", "min": 1, "max": 1, "filter": "any-target", "other_than_source": True},
                {"id": "r9", "min": 1, "max": 1, "filter": "any-target", "different_from": ["r0"]},
            ],
        },
        {
            "id": "T2",
            "text": "T2",
            "controller": "P0",
            "condition": "ability-triggered",
            "chooser": "P0",
            "modal": {"choose": [0, 1], "repeat": True, "distinct_targets": True},
            "modes": [
                {"id": "m0", "targets": [], "available": True},
                {
                    "id": "m1",
                    "targets": [
                        {"id": "r0", "min": 1, "max": 1, "filter": {"kind": "ability"}, "other_than_source": True},
                        {"id": "r9", "min": 1, "max": 1, "filter": "any-target"},
                    ],
                    "available": True,
                },
            ],
        },
    ],
}
"""T2's mode m1 needs an ability as r0's target, and T0 and T1, the only ones, are always removed:
m1 can't be chosen (603.3c). explain gave P0 in m1's r9 "fits no legal choice of the other
targets" (target-filter), asking what check says with every ability that *may* precede T2 below —
T0 and T1 among them; check of m1 with P0 says mode-illegal. explain now takes as possibly below
only the abilities some legal outcome puts on the stack (found replaying the suite's database)."""


SPEND = 15.0
"""The most CPU seconds (as these tests' limits read time: ``cpu_clock``) one example spends where a
property says so (``by``), every verb it calls sharing them: with a limit of 20 s for each call, an
example's worst case was their sum, and one idle run's slowest test took 118.6 s (issue 52)."""


def _left(by: float | None) -> float:
    """The time limit of a call an example makes: 20 s, and no more than the CPU seconds it has left
    before ``by`` (None: no budget); past ``by``, it is set aside."""
    if by is None:
        return 20.0
    left = by - time.process_time()
    assume(left > 0)
    return min(20.0, left)


def _legal(
    doc: dict[str, Any] | Scenario, listed: int = OUTCOMES, by: float | None = None
) -> tuple[Facts, Any, list[dict[str, Any]]]:
    """The scenario's facts, what explain says of it and its first ``listed`` legal outcomes (as
    JSON). Set aside: a scenario too large to answer in time (20 s a call, or past ``by``), and one
    whose passes loop, mandatory or optional (docs/rules.md, 603.3b and 104.4b: explain names the
    loop at once; ``outcomes`` raises ``EndlessLoop``, after counting the outcomes that avoid it
    within its time limit)."""
    facts = compile_facts(doc if isinstance(doc, Scenario) else Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    try:
        told = explain(facts, time_limit=_left(by))
        assume("loop" not in told)
        found = [_json(o) for o in outcomes(facts, limit=listed, time_limit=_left(by))] if listed else []
    except (TimeLimitReached, EndlessLoop):
        assume(False)
        raise
    return facts, told, found


def _json(o: Outcome) -> dict[str, Any]:
    d: dict[str, Any] = o.model_dump(mode="json", exclude_none=True)
    return d


def _instances(entry: dict[str, Any]) -> list[tuple[str | None, dict[str, Any]]]:
    """An entry's mode instances (None: an ability that is not modal), each the dict holding its targets."""
    if "modes" in entry:
        return [(mc["mode"], mc) for mc in entry["modes"]]
    return [(None, entry)]


def _mode_report(report: dict[str, Any], mode: str | None) -> dict[str, Any]:
    return next(m for m in report["modes"] if m["id"] == mode) if mode is not None else report["modes"][0]


def _copy(o: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(o)


def _target_changes(told: dict[str, Any], o: dict[str, Any]) -> list[Change]:
    """Each excluded thing chosen instead of the last target of its requirement, in each entry; and
    in a mode no legal outcome chooses, instead of the entry's last mode."""
    reports = {a["id"]: a for a in told["abilities"]}
    out: list[Change] = []
    for i, entry in enumerate(o["stack"]):
        report = reports.get(entry["ability"])
        if report is None:
            continue  # an ability of a later pass
        for j, (mode, _) in enumerate(_instances(entry)):
            for r in _mode_report(report, mode)["requirements"]:
                for ex in r["excluded"]:
                    changed = _copy(o)
                    where = _instances(changed["stack"][i])[j][1]
                    chosen = list(where.get("targets", {}).get(r["id"], []))
                    old = chosen.pop() if chosen else None
                    where.setdefault("targets", {})[r["id"]] = [*chosen, ex["id"]]
                    parts = where.get("divide", {}).get(r["id"])
                    if parts is not None and old is not None:
                        parts[ex["id"]] = parts.pop(old)
                    out.append((entry["ability"], ex["code"], ex["rule"], changed, r["id"]))
        if "modes" not in entry:
            continue
        for m in report["modes"]:
            if m["status"] not in ("illegal", "unavailable"):
                continue  # a mode no legal outcome chooses: its excluded thing chosen in it, instead of the last mode
            for r in m["requirements"]:
                for ex in r["excluded"]:
                    changed = _copy(o)
                    changed["stack"][i]["modes"][-1] = {"mode": m["id"], "targets": {r["id"]: [ex["id"]]}}
                    out.append((entry["ability"], ex["code"], ex["rule"], changed, r["id"]))
    return out


def _said(facts: Facts, changed: dict[str, Any], ability: str) -> set[tuple[str, str]]:
    verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
    assert not verdict.legal, f"explain says no legal outcome does this, check accepts it: {changed}"
    return {(v.code.value, v.rule.value) for v in verdict.violations if v.ability == ability}


NAMED_LEFT_EMPTY: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [{"id": "o0", "controller": "P0", "types": ["creature"]}],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [1]},
            "modes": [
                {"id": "m0", "targets": [{"id": "r0", "filter": "any-target"}]},
                {
                    "id": "m1",
                    "targets": [
                        {"id": "r0", "filter": {"type": "creature"}},
                        {"id": "r1", "filter": {"type": "creature", "not": {"controller": {"target_of": "r0"}}}},
                    ],
                },
            ],
        }
    ],
}
"""Helper 72a's hunt: m1 is "target creature, and target creature not controlled by the first one's
controller", with one creature (P0's), so m1 has no legal targets. explain excludes o0 from r1 as it
"fits r1's filter for no legal choice of targets for r0" (true: r0's only choice is o0). The change
of an illegal mode chose o0 for r1 and nothing for r0, and check reads r1's description with that
choice (docs/formats.md, target-filter): with no creature chosen, o0 fits, and what is wrong is r0's
count (and the mode, 603.3c). The property asked check for the filter, which holds only of a legal
choice of what the description names."""


EXCLUDED_WHERE_NAMED: dict[str, Any] = {
    "players": [{"id": "P0", "hexproof": True}, "P1", "P2"],
    "objects": [
        {"id": "o0", "controller": "P0", "types": ["creature"], "shroud": True},
        {"id": "o1", "controller": "P1", "types": ["creature"]},
    ],
    "triggers": [
        {
            "id": "T0",
            "controller": "P1",
            "targets": [
                {"id": "r0", "filter": {"type": "creature", "not": {"controller": {"target_of": "r1"}}}},
                {"id": "r1", "min": 0, "filter": {"kind": "player"}, "different_from": ["r0"]},
            ],
        }
    ],
}
"""A clean-clone draw's shape: "target creature not controlled by target player, and up to one
target player". P1 for r1 leaves r0 only o0, which has shroud, and explain says so. The property's
proposal chose P1 for r1 with the legal choice's o1 for r0, which misfits; it then chose again the
targets linked to r0, which are r1's, and found P2 there, a legal outcome without P1. The targets
chosen again are those linked to the requirement the excluded thing went to: r0's, here."""


NAMES_NO_CHOICE: dict[str, Any] = {
    "players": ALWAYS_REMOVED_BELOW["players"],
    "triggers": [
        {
            "id": "T2",
            "controller": "P0",
            "modal": {"choose": [0, 1], "repeat": True, "distinct_targets": True},
            "modes": [
                {"id": "m0", "targets": []},
                {
                    "id": "m1",
                    "available": False,
                    "targets": [
                        {
                            "id": "r0",
                            "filter": {
                                "any": [{"kind": "player"}, {"type": "creature", "controller": {"target_of": "r1"}}]
                            },
                        },
                        {"id": "r1", "min": 1, "max": 2, "filter": {"type": "creature"}, "different_from": ["r0"]},
                    ],
                },
            ],
        }
    ],
}
"""Found by this property in a clean-clone run (the board trimmed to the ability it is about): r0 is "a player, or
a creature controlled by r1's target", and r1
(a creature) has no candidate. explain told P0 "fits r0's filter for no legal choice of targets for r1" (true only as
r1 has none), where check of P0 for r0 finds r1's count: a requirement with no legal choice at all is read as choosing
nothing (model/_linked.py; tests/cases/601.2c/a-linked-filter-naming-a-requirement-with-no-choice.yaml)."""


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=4), scenarios(max_abilities=4, linked=True), crowded()))
@example(doc=EXCLUDED_WHERE_NAMED)
@example(doc=NAMES_NO_CHOICE)
@example(doc=NAMED_LEFT_EMPTY)
@example(doc=DIFFER)
@example(doc=ONE_CHOICE_ALONE)
@example(doc=ALWAYS_REMOVED_BELOW)
def test_an_exclusion_explain_gives_is_what_check_says_of_choosing_it(doc: dict[str, Any]) -> None:
    facts, told, found = _legal(doc)
    for o in found:
        given: dict[tuple[str, str, str], set[tuple[str, str]]] = {}
        for ability, code, rule, changed, rid in _target_changes(told, o):
            given.setdefault((ability, rid, json.dumps(changed, sort_keys=True)), set()).add((code, rule))
        for (ability, rid, text), reasons in given.items():
            said = _said(facts, json.loads(text), ability)
            # a thing barred for several reasons breaks each (every violation: test_two_changes and the
            # literal reading hold that); one no choice takes may break one way or another by the choice
            changed = json.loads(text)
            assert (
                reasons & said
                or _fits_the_choice_made(doc, changed, ability, reasons)
                or _told_of_the_linked(doc, facts, changed, ability, rid, reasons)
            ), (ability, reasons, said, text)


def _told_of_the_linked(
    doc: dict[str, Any], facts: Facts, changed: dict[str, Any], ability: str, rid: str, reasons: set[Any]
) -> bool:
    """Whether the change misfits a description linked to another requirement by ``target_of``,
    and choosing those targets again so that every description fits breaks what explain said: its
    ways are those (docs/formats.md, explain), each held to it by
    :func:`test_every_way_of_choosing_an_excluded_thing_with_its_linked_targets_breaks_what_explain_says`."""
    lit = Literal(doc)
    entry = next(e for e in changed["stack"] if e["ability"] == ability)
    for mode, holder in _instances(entry):
        reqs = next(rs for m, rs, _ in lit.modes(ability) if m == mode)
        # the targets linked to the requirement the excluded thing was chosen for: choosing again
        # that requirement's own (or one it names) would take the thing out again (a clean-clone draw
        # chose P2 for r1, named by r0, and relinked r0's link, r1, to a legal P3)
        for r in (r for r in reqs if r["id"] == rid):
            for way in _relinked(lit, ability, reqs, holder, r["id"])[:8] if _linked_to(reqs, r["id"]) else []:
                proposal = _copy(changed)
                where = next(h for m, h in _instances(next(e for e in proposal["stack"] if e["ability"] == ability)) if m == mode)
                where.setdefault("targets", {}).update(way)
                if reasons & _said(facts, proposal, ability):
                    return True
    return False


def _fits_the_choice_made(doc: dict[str, Any], changed: dict[str, Any], ability: str, reasons: set[Any]) -> bool:
    """Whether explain's one reason is "fits r's filter for no legal choice of targets for" what r's
    description names (601.2c), and the change chose for those no legal choice (an illegal mode's
    change chooses nothing else), with which every target fits its description, as the literal
    reading (tests/literal.py) reads it: docs/formats.md, target-filter, reads a description that
    names another's targets with the targets the proposal chose, so check tells that choice's fault
    instead (:data:`NAMED_LEFT_EMPTY`)."""
    if reasons != {("target-filter", "601.2c")}:
        return False
    lit = Literal(doc)
    entry = next(e for e in changed["stack"] if e["ability"] == ability)
    for mode, holder in _instances(entry):
        reqs = next(rs for m, rs, _ in lit.modes(ability) if m == mode)
        chosen = {r["id"]: set(holder.get("targets", {}).get(r["id"], [])) for r in reqs}
        if not any("target_of" in repr(r.get("filter")) for r in reqs):
            return False
        for r in reqs:
            if any("target-filter" in lit.bars(ability, r, lit.things[x], chosen) for x in chosen[r["id"]]):
                return False
    return True


LINKED_ELSEWHERE: dict[str, Any] = {
    "players": ["A", "B", "C"],
    "objects": [
        {"id": "acre", "types": ["creature"], "controller": "A"},
        {"id": "bcre", "types": ["creature"], "controller": "B", "hexproof": True},
        {"id": "ccre", "types": ["creature"], "controller": "C"},
    ],
    "triggers": [
        {
            "id": "T",
            "controller": "A",
            "targets": [
                {"id": "p", "filter": {"kind": "player", "not": {"controller": "you"}}},
                {"id": "q", "filter": {"type": "creature", "controller": {"target_of": "p"}}},
            ],
        }
    ],
}
"""Stop 76's audit: "target opponent and target creature that player controls", B's only creature
with hexproof. explain excluded B from p as "ccre does not fit the filter given the targets of p":
it judged the legal choice (C, ccre) with B in place, keeping C's creature. A proposal taking B and
bcre is told only bcre's hexproof."""


def _named(filt: Any) -> set[str]:
    """The requirements a description names with ``target_of``, anywhere in it."""
    if isinstance(filt, dict):
        return {v for k, v in filt.items() if k == "target_of" and isinstance(v, str)} | {
            x for v in filt.values() for x in _named(v)
        }
    if isinstance(filt, list):
        return {x for v in filt for x in _named(v)}
    return set()


def _linked_to(reqs: list[dict[str, Any]], rid: str) -> list[str]:
    """The requirements linked to ``rid`` by ``target_of``, either way and through others."""
    names = {r["id"]: _named(r.get("filter")) for r in reqs}
    seen, pending = {rid}, [rid]
    while pending:
        k = pending.pop()
        for q, named in names.items():
            if q not in seen and (k in named or q in names[k]):
                seen.add(q)
                pending.append(q)
    return [r["id"] for r in reqs if r["id"] in seen and r["id"] != rid]


def _relinked(lit: Literal, ability: str, reqs: list[dict[str, Any]], holder: dict[str, Any], rid: str) -> list[Any]:
    """Every way of choosing again the targets of the requirements linked to ``rid`` (as many of
    each), found by trying every thing, with which every target of those and of ``rid`` fits its
    description read with the others' targets (601.2c; the literal reading)."""
    linked = _linked_to(reqs, rid)
    targets: dict[str, list[str]] = holder.get("targets", {})
    pools = [list(combinations(lit.order, len(targets.get(q, [])))) for q in linked]
    ways = []
    for picks in product(*pools):
        chosen = {r["id"]: set(targets.get(r["id"], [])) for r in reqs}
        chosen.update({q: set(pick) for q, pick in zip(linked, picks, strict=True)})
        fit = all(
            "target-filter" not in lit.bars(ability, r, lit.things[x], chosen)
            for r in reqs
            if r["id"] in (rid, *linked)
            for x in chosen[r["id"]]
        )
        if fit:
            ways.append({q: list(pick) for q, pick in zip(linked, picks, strict=True)})
    return ways


@SETTINGS
@given(doc=st.one_of(linked_boards(), scenarios(max_abilities=3, linked=True)))
@example(doc=LINKED_ELSEWHERE)
def test_every_way_of_choosing_an_excluded_thing_with_its_linked_targets_breaks_what_explain_says(
    doc: dict[str, Any],
) -> None:
    """explain's reasons for a thing no legal outcome takes (its "why not") are what every way of
    taking it breaks (docs/formats.md: each reason every way breaks, or each way's): so a proposal
    taking it with the targets its requirement is linked to by ``target_of`` chosen again, so that
    every description there fits, breaks one of them. Judged ways are made from legal choices: one
    kept the linked targets of the choice it came from, and blamed a filter no such proposal breaks
    (:data:`LINKED_ELSEWHERE`)."""
    facts, told, found = _legal(doc, listed=3)
    lit = Literal(doc)
    reports = {a["id"]: a for a in told["abilities"]}
    tried = 0
    for o in found:
        for i, entry in enumerate(o["stack"]):
            report = reports.get(entry["ability"])
            if report is None:
                continue
            for j, (mode, _) in enumerate(_instances(entry)):
                reqs = next(rs for m, rs, _ in lit.modes(entry["ability"]) if m == mode)
                for r in _mode_report(report, mode)["requirements"]:
                    if not _linked_to(reqs, r["id"]):
                        continue
                    said_of: dict[str, set[tuple[str, str]]] = {}
                    for ex in r["excluded"]:
                        if "not every way was judged" not in ex["reason"]:
                            said_of.setdefault(ex["id"], set()).add((ex["code"], ex["rule"]))
                    for thing, reasons in said_of.items():
                        changed = _copy(o)
                        where = _instances(changed["stack"][i])[j][1]
                        chosen = list(where.get("targets", {}).get(r["id"], []))
                        if not chosen or thing in chosen:
                            continue
                        where["targets"][r["id"]] = [*chosen[:-1], thing]
                        for way in _relinked(lit, entry["ability"], reqs, where, r["id"])[:8]:
                            proposal = _copy(changed)
                            _instances(proposal["stack"][i])[j][1]["targets"].update(way)
                            said = _said(facts, proposal, entry["ability"])
                            tried += 1
                            assert reasons & said, (entry["ability"], r["id"], thing, reasons, said, proposal)
    event(f"linked ways tried: {min(tried, 10)}")


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=4), scenarios(max_abilities=4, linked=True), crowded()))
def test_two_changes_are_both_told(doc: dict[str, Any]) -> None:
    """Every violation, not the first: two abilities' targets changed at once, each as explain excludes."""
    facts, told, found = _legal(doc)
    for o in found:
        changes = _target_changes(told, o)
        firsts: dict[str, Change] = {}
        for c in changes:
            firsts.setdefault(c[0], c)
        picked = list(firsts.values())[:2]
        if len(picked) < 2:
            continue
        (a, ca, ra, one, _), (b, cb, rb, other, _) = picked
        both = _copy(one)
        j = next(k for k, e in enumerate(other["stack"]) if e["ability"] == b)
        both["stack"][j] = other["stack"][j]
        verdict = check(facts, Outcome.model_validate(both), time_limit=20)
        said = {(v.ability, v.code.value, v.rule.value) for v in verdict.violations}
        assert {(a, ca, ra), (b, cb, rb)} <= said, (said, both)


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=4), scenarios(max_abilities=4, linked=True), crowded()))
def test_a_mode_explain_refuses_is_refused_by_check_for_the_same_reason(doc: dict[str, Any]) -> None:
    facts, told, found = _legal(doc)
    reports = {a["id"]: a for a in told["abilities"]}
    code_of = {"illegal": "mode-illegal", "unavailable": "mode-unavailable"}
    for o in found:
        for i, entry in enumerate(o["stack"]):
            report = reports.get(entry["ability"])
            if report is None or "modes" not in entry:
                continue
            for m in report["modes"]:
                if m["status"] not in code_of:
                    continue
                changed = _copy(o)
                changed["stack"][i]["modes"][-1] = {"mode": m["id"]}
                said = _said(facts, changed, entry["ability"])
                assert code_of[m["status"]] in {c for c, _ in said}, (m, said, changed)


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=4), scenarios(max_abilities=4, linked=True), crowded()))
def test_an_ability_explain_says_cannot_be_removed_is_refused_removed(doc: dict[str, Any]) -> None:
    facts, told, found = _legal(doc)
    reports = {a["id"]: a for a in told["abilities"]}
    for o in found:
        for i, entry in enumerate(o["stack"]):
            report = reports.get(entry["ability"])
            if report is None or report["removal"] != "cannot":
                continue
            changed = _copy(o)
            del changed["stack"][i]
            changed["removed"] = [*changed.get("removed", []), entry["ability"]]
            changed.pop("passes", None)
            said = _said(facts, changed, entry["ability"])
            assert "removed-but-legal" in {c for c, _ in said}, (report["removal_reason"], said, changed)


UNFIT = re.compile(r"(\S+) does not fit (\S+)'s filter")
"""The one exclusion explain's text counts among "N others" instead of telling it."""


def text_tells_every_exclusion_the_json_gives(told: Any) -> None:
    """docs/cli.md, explain: "every excluded candidate and its rule", of the first pass's abilities
    and those reactions fire (explain's ``fired``). The text counts the things that do not fit a
    filter at all, whatever else bars them (stop 76: "excluded bcre: bcre has hexproof" was told
    under "target opponent", where bcre is no player), and tells every reason of every other thing
    as the JSON gives it."""
    text = told.text()
    body = told.to_json()
    for a in [*body["abilities"], *body.get("fired", [])]:
        for m in a["modes"]:
            for r in m["requirements"]:
                unfit = {
                    ex["id"]
                    for ex in r["excluded"]
                    if (plain := UNFIT.fullmatch(ex["reason"])) and plain.groups() == (ex["id"], r["id"])
                }
                for ex in r["excluded"]:
                    if ex["id"] in unfit:  # counted: tests/property/test_explain.py holds it is not listed
                        continue
                    told_as = f"{ex['reason']} (rule {ex['rule']}, {ex['code']})"
                    assert f"excluded {ex['id']}: " in text and told_as in text, (a["id"], r["id"], ex, text)


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=3, linked=True), crowded()))
def test_explain_text_tells_every_exclusion_the_json_gives(doc: dict[str, Any]) -> None:
    """:func:`text_tells_every_exclusion_the_json_gives`: a thing that fits the filter and no legal
    choice of the rest was once counted as one that "does not fit"."""
    _, told, _ = _legal(doc, listed=0)
    text_tells_every_exclusion_the_json_gives(told)


def _replaced(o: dict[str, Any], ability: str, old: str, new: str) -> dict[str, Any]:
    """``o`` with ``new`` in place of the target ``old`` of ``ability``'s entry (and its part, if divided)."""
    changed = _copy(o)
    entry = next(e for e in changed["stack"] if e["ability"] == ability)
    for _, holder in _instances(entry):
        for rid, things in holder.get("targets", {}).items():
            if old in things:
                holder["targets"][rid] = [new if t == old else t for t in things]
                parts = holder.get("divide", {}).get(rid)
                if parts is not None and old in parts:
                    parts[new] = parts.pop(old)
                return changed
    raise AssertionError(f"{ability} does not target {old}")


def why_not_each_target_is_what_check_says(facts: Facts, found: list[dict[str, Any]]) -> None:
    """docs/python.md, "Why not", in every pass of 603.3b: at every target a walk to each outcome of
    ``found`` clicks, each thing of that pass it refuses for a rule (not "further on") breaks that
    rule — ``check`` of the outcome with the thing in place of the target clicked names that code
    and rule of that ability (a reason with no code: that rule)."""
    stepper = Stepper(facts)
    for o in found:
        decisions = stepper.decisions_for(Outcome.model_validate(o))
        walk = stepper.start()
        for d in decisions:
            hand = stepper.in_hand(walk) if d.kind is DecisionKind.TARGET else None
            if hand is not None:
                entry = next(e for e in o["stack"] if e["ability"] == hand[0])
                held = [t for _, h in _instances(entry) for ts in h.get("targets", {}).values() for t in ts]
                assert walk.facts is not None
                if held.count(d.subject) == 1:  # which of its places the walk is at is not read here
                    offered = {x.text for x in stepper.legal(walk)}
                    if stepper.pass_number(walk) > 1:
                        event("a later pass's target refused")
                    for x in [t.id for t in walk.facts.things]:
                        if f"target {x}" in offered:
                            continue
                        why = stepper.why_illegal(walk, stepper.decision(f"target {x}"))
                        if why.later or why.rule is None:
                            continue
                        changed = _replaced(o, hand[0], d.subject, x)
                        verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
                        mine = [v for v in verdict.violations if v.ability == hand[0]]
                        said = {(v.code, v.rule) for v in mine}
                        ruled = why.code is None and why.rule in {r for _, r in said}
                        assert (why.code, why.rule) in said or ruled, (why, [v.message for v in mine], changed)
            walk = stepper.apply(walk, d)


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=3), scenarios(max_abilities=3, linked=True), crowded()))
@example(doc=DIFFER)
def test_steps_why_not_a_target_is_what_check_says_of_the_outcome_taking_it(doc: dict[str, Any]) -> None:
    """docs/python.md, "Why not", over these boards (tests/test_judge_70a.py holds it over reactions'
    later passes, wide boards and real cards): :func:`why_not_each_target_is_what_check_says` of
    the first three legal outcomes."""
    facts, _, found = _legal(doc, 3)
    why_not_each_target_is_what_check_says(facts, found)


SHARED = {
    "players": ["P0"],
    "objects": [{"id": "o0", "controller": "P0", "types": ["creature"]}],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [2], "distinct_targets": True},
            "modes": [
                {"id": "m0", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"type": "creature"}}]},
                {"id": "m1", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"type": "creature"}}]},
            ],
        }
    ],
}
"""Choose two modes that each target a different creature, with one creature: each mode has a legal
target alone; 700.2 keeps them apart. explain said 603.3c ("it has no legal targets")."""


NEVER_PLACED = {
    "players": ["P0"],
    "objects": [],
    "triggers": [
        {"id": "T0", "controller": "P0", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"type": "creature"}}]},
        {
            "id": "T1",
            "controller": "P0",
            "modal": {"choose": [1]},
            "modes": [{"id": "m0", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"kind": "ability"}}]}],
        },
    ],
}
"""T1's one mode can target only T0, and T0, with no creature to target, is never put on the stack:
m0 has no legal targets, though T0 may precede T1 (the property took every ability that may precede
as one that can be below, and failed on a right answer)."""


PUT_ONLY_ABOVE = {
    "players": ["P0"],
    "objects": [],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [0, 1]},
            "modes": [
                {"id": "m0", "targets": [], "available": False},
                {"id": "m1", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"kind": "ability"}}]},
            ],
        },
        {
            "id": "T1",
            "controller": "P0",
            "modal": {"choose": [0, 1]},
            "modes": [
                {"id": "m0", "targets": []},
                {"id": "m1", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"kind": "ability"}}]},
            ],
        },
    ],
}
"""T1's m1 can target only T0. T0 may precede T1 and is put on the stack in a legal outcome, but
only above T1: put first, T0 has nothing to target with m1 (its m0 unavailable) and is removed.
So m1 has no legal targets whenever T1 is put (603.3c), as explain says; the property took T0 as
possibly below T1 (it may precede, and it is put in some outcome: two facts of different
sequences) and failed on the right answer (a full-profile run of the suite drew it)."""


def _stacks_met(facts: Facts) -> dict[int, set[frozenset[int]]]:
    """For each ability of the pass, every set of abilities on the stack when it is put or removed,
    in every sequence of 603.3b the literal simulator follows (tests/simulator.py ``simulate``:
    each step a legal choice of one ability of the block, or its removal where it has none or may
    choose no mode). A state is what is left of the block and which abilities are on the stack:
    those alone decide what can be chosen next."""
    met: dict[int, set[frozenset[int]]] = {}
    seen: set[tuple[int, frozenset[int], frozenset[int]]] = set()

    def step(bi: int, remaining: frozenset[int], on_stack: frozenset[int]) -> None:
        if not remaining:
            if bi + 1 < len(facts.blocks):
                step(bi + 1, frozenset(facts.blocks[bi + 1].abilities), on_stack)
            return
        if (bi, remaining, on_stack) in seen:
            return
        seen.add((bi, remaining, on_stack))
        for k in remaining:
            a = facts.abilities[k]
            met.setdefault(k, set()).add(on_stack)
            choices = legal_choices(facts, a, on_stack)
            if choices:
                step(bi, remaining - {k}, on_stack | {k})
            if not choices or 0 in a.choose:
                step(bi, remaining - {k}, on_stack)

    if facts.blocks:
        step(0, frozenset(facts.blocks[0].abilities), frozenset())
    return met


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=3), crowded()))
@example(doc=SHARED)
@example(doc=NEVER_PLACED)
@example(doc=PUT_ONLY_ABOVE)
def test_a_mode_said_to_have_no_legal_targets_has_none(doc: dict[str, Any]) -> None:
    """603.3c, as explain words a mode no legal outcome chooses: "can't be chosen: it has no legal
    targets when A is put on the stack". The literal simulator (tests/simulator.py) looks for targets
    of that mode alone with each stack A meets in a sequence of 603.3b (:func:`_stacks_met`): it
    must find none on any."""
    facts, told, _ = _legal(doc)
    met = _stacks_met(facts)
    for report in told["abilities"]:
        a = facts.abilities[facts.ability_index[report["id"]]]
        for k, m in enumerate(report["modes"]):
            if m["status"] == "illegal" and "it has no legal targets" in m["reason"]:
                for below in met.get(a.index, set()):
                    assert next(mode_instances(facts, a, k, below), None) is None, (a.id, m, below)


BARRED_AND_WAITING = {
    "players": ["P0"],
    "objects": [],
    "triggers": [
        {"id": "T0", "controller": "P0"},
        {"id": "T1", "controller": "P0", "targets": [{"id": "r", "min": 0, "max": 1, "filter": {"type": "creature"}}]},
    ],
}
"""T1 may target a creature; T0 is an ability, so it fits no filter of T1, and it is not on the stack
when T1 is put there first: check told only the filter (601.2c) and not that T0 is not yet on the stack."""


REMOVED_EARLIER = {
    "players": ["P0", "P1"],
    "objects": [{"id": "c0", "controller": "P0", "types": ["creature"]}],
    "triggers": [
        {"id": "T0", "controller": "P0", "targets": [{"id": "t", "min": 1, "max": 1, "filter": {"id": "c0"}}]},
        {"id": "T1", "controller": "P0", "targets": [{"id": "t", "min": 1, "max": 1, "filter": {"type": "land"}}]},
    ],
    "reactions": [
        {
            "id": "R0",
            "object": "c0",
            "by": "any",
            "trigger": {"source": "c0", "targets": [{"id": "t", "min": 0, "max": 1, "filter": {"kind": "player"}}]},
        }
    ],
}
"""T0 targets c0, which fires R0@T0 in pass 2; T1 has no land to target and is removed in pass 1. In
pass 2 T1 is no thing of the pass (docs/formats.md, Explanation: "removed in pass 1",
``target-unknown``), so R0@T0 targeting it is not told ``target-not-yet-on-stack``: the property
expected that of every ability of the first pass not below, and failed on the right answer; and
T0 targeting R0@T0, which has not triggered when T0 is put, is ``target-unknown`` too."""


OPTIONAL_LOOP = {
    "players": ["A", "B"],
    "objects": [{"id": "c0", "controller": "A", "types": ["creature"]}],
    "triggers": [{"id": "T0", "controller": "A", "targets": [{"id": "t", "min": 0, "max": 1, "filter": {"id": "c0"}}]}],
    "reactions": [
        {
            "id": "R0",
            "object": "c0",
            "by": "any",
            "trigger": {"source": "c0", "targets": [{"id": "t", "min": 0, "max": 1, "filter": {"id": "c0"}}]},
        }
    ],
}
"""An optional loop (docs/rules.md, 603.3b): R0's ability may target c0 again, firing R0 again, round
after round, and a choice ends it. explain names the loop; ``outcomes`` raises ``EndlessLoop``,
which the harness did not set aside (it asked the outcomes before it read explain's loop)."""


def _pass_of(ability: str) -> int:
    """The pass of 603.3b an ability is put in: an ability fired in pass n + 1 has n ``@`` in its
    id (docs/formats.md, Outcome)."""
    return ability.count("@") + 1


def _not_yet_or_unknown(entry: str, w: str, removed: set[str]) -> tuple[str, str]:
    """What ``check`` says of ``entry`` targeting the ability ``w``, which is not below it, and the
    sentence it says it in (docs/formats.md, Explanation; docs/rules.md, 601.2c and 603.3b): an
    ability of its own pass, put above it or removed, is a thing of the pass that is not yet on
    the stack; one an earlier pass removed never reached the stack and one of a later pass has not
    triggered — neither is a thing of the pass (``target-unknown``)."""
    if _pass_of(w) == _pass_of(entry):
        return "target-not-yet-on-stack", f"{w} is not on the stack when {entry} is put there"
    if _pass_of(w) > _pass_of(entry):
        return "target-unknown", f"{w} is not a thing of this pass: it has not triggered"
    assert w in removed, (entry, w)
    return "target-unknown", f"{w} was removed in pass {_pass_of(w)}"


@SETTINGS
@given(
    doc=st.one_of(
        scenarios(max_abilities=3),
        scenarios(max_abilities=3, linked=True),
        crowded(),
        scenarios(max_abilities=3, reactions=True),
    )
)
@example(doc=BARRED_AND_WAITING)
@example(doc=REMOVED_EARLIER)
@example(doc=OPTIONAL_LOOP)
def test_a_target_not_yet_on_the_stack_is_told_whatever_else_it_breaks(doc: dict[str, Any]) -> None:
    """docs/rules.md (601.2c, 603.3b): a waiting ability is a legal target only once it is on the
    stack, and check lists every violation. Each legal outcome is changed so that an entry targets an
    ability of the outcome that is not below it (not itself: 115.5 alone), in place of a target it
    chose or as the only one of a requirement: check says ``target-not-yet-on-stack`` of that entry
    where the ability is one of its own pass, whatever else (filter, hexproof, 115.3) the choice
    breaks; where it is one an earlier pass removed or a later pass fires, no thing of the entry's
    pass, ``target-unknown`` with its sentence, and not the other. An example spends
    :data:`SPEND` CPU seconds at most."""
    by = time.process_time() + SPEND
    facts, _, found = _legal(doc, by=by)
    for o in found:
        named = [e["ability"] for e in o["stack"]] + o["removed"]
        removed = set(o["removed"])
        for i, entry in enumerate(o["stack"]):
            below = {e["ability"] for e in o["stack"][:i]}
            later = [w for w in named if w not in below and w != entry["ability"]]
            same = [w for w in later if _pass_of(w) == _pass_of(entry["ability"])]
            tried = same[:2] + [w for w in later if w not in same][:1]  # two of its pass, one of another
            for _, holder in _instances(entry):
                for rid, things in holder.get("targets", {}).items():
                    for w in tried:
                        changed = _copy(o)
                        held = _instances(changed["stack"][i])[[h for _, h in _instances(entry)].index(holder)][1]
                        held["targets"][rid] = [w, *things[1:]] if things else [w]
                        held.pop("divide", None)
                        try:
                            verdict = check(facts, Outcome.model_validate(changed), time_limit=_left(by))
                        except TimeLimitReached:
                            assume(False)
                            raise
                        mine = [v for v in verdict.violations if v.ability == entry["ability"]]
                        said = {v.code.value for v in mine}
                        code, sentence = _not_yet_or_unknown(entry["ability"], w, removed)
                        other = ({"target-unknown", "target-not-yet-on-stack"} - {code}).pop()
                        assert code in said and other not in said, (entry["ability"], w, said, changed)
                        assert any(sentence in v.message for v in mine if v.code.value == code), (
                            sentence,
                            [v.message for v in mine],
                        )


SPACED = re.compile(r"  | [,.:;)]|\( |^ | $")
"""A sentence with a part missing: two spaces, a space before punctuation or at an end (a
non-modal ability's mode, which has no name, was told as "T0's mode  can't be chosen")."""


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=3), scenarios(max_abilities=3, linked=True), crowded()))
@example(doc=NEVER_PLACED)
def test_no_sentence_a_judge_reads_has_a_part_missing(doc: dict[str, Any]) -> None:
    """Every reason explain gives (exclusions, mode statuses, removals) and every violation check
    tells of the legal outcomes changed as the other properties change them reads whole."""
    facts, told, found = _legal(doc)
    said: list[str] = []
    for a in told["abilities"]:
        said += [a.get("removal_reason") or ""]
        for m in a["modes"]:
            said += [m.get("reason") or ""]
            for r in m["requirements"]:
                said += [ex["reason"] for ex in r["excluded"]]
    for o in found[:2]:
        for _, _, _, changed, _ in _target_changes(told, o)[:4]:
            verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
            said += [v.message for v in verdict.violations]
    for text in said:
        if text:
            assert not SPACED.search(text), repr(text)


PUT_WITH_NOTHING = {
    "players": ["P0"],
    "objects": [],
    "triggers": [
        {"id": "T0", "controller": "P0", "targets": [{"id": "r", "min": 1, "max": 1, "filter": {"type": "creature"}}]},
        {"id": "T1", "controller": "P0"},
    ],
}
"""T0 must target a creature and there is none: step refuses ``put T0`` under 603.3d
(placed-but-illegal); check of T0 put with no target said only 601.2c target-count."""


@SETTINGS
@given(doc=st.one_of(scenarios(max_abilities=3), scenarios(max_abilities=3, linked=True), crowded()))
@example(doc=PUT_WITH_NOTHING)
def test_a_put_step_refuses_under_603_3d_is_told_by_check_of_putting_it_there(doc: dict[str, Any]) -> None:
    """docs/python.md, "Why not": where a walk to a legal outcome removes X and ``step`` refuses
    ``put X`` because X has no legal choice with what is on the stack (603.3d, placed-but-illegal),
    check of that outcome with X put there instead (its choice left empty) names the same code and
    rule of X, beside what its empty choice breaks."""
    facts, _, found = _legal(doc)
    assume(not doc.get("reactions"))
    stepper = Stepper(facts)
    for o in found[:3]:
        decisions = stepper.decisions_for(Outcome.model_validate(o))
        placed = 0
        for k, d in enumerate(decisions):
            if d.kind is DecisionKind.PUT:
                placed += 1
            if d.kind is not DecisionKind.REMOVE:
                continue
            walk = stepper.walk(decisions[:k])
            why = stepper.why_illegal(walk, stepper.decision(f"put {d.subject}"))
            if why.code is None or why.code.value != "placed-but-illegal" or why.rule is None:
                continue
            changed = _copy(o)
            changed.pop("passes", None)
            changed["stack"].insert(placed, {"ability": d.subject})
            changed["removed"] = [x for x in changed["removed"] if x != d.subject]
            verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
            said = {(v.code, v.rule) for v in verdict.violations if v.ability == d.subject}
            assert (why.code, why.rule) in said, (why, said, changed)
