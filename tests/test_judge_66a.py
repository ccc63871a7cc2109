"""What ``step`` refuses, walking a proposal decision by decision, is what ``check`` says of it.

docs/python.md, "Why not": ``why_illegal`` cites a rule only when no legal outcome takes the
decision after what the walk has decided, and then the violation ``check`` gives a proposal that
makes it; docs/rules.md, 700.2d: a mode chosen more than once is one choice whatever order its
instances come in, each with its own targets (and its own division, 601.2d). So, for generated
scenarios with modes chosen more than once — targets, divisions, modes that must target different
things, "must target" effects — each legal outcome is changed the way a judge's "why not?" asks:

* its instances of a mode announced in another order (the same outcome);
* a target moved from one instance to another (of the same mode or not), or two swapped;
* an amount given to the wrong instance, or a part moved from one instance's division to another's;

and the changed outcome is spelled as a walk (each entry put, its modes, each instance's targets
and parts in the order the outcome lists them). The first decision ``step`` refuses cites a rule
only where ``check`` finds the proposal illegal, and then a rule (and code) ``check`` says of that
ability; where ``check`` accepts the proposal, the walk reaches it or its refusal cites no rule; a
walk that is never refused reaches the proposal, which ``check`` accepts.

``explain`` judges a thing no legal outcome chooses on each stack a legal outcome puts the ability
on: a reason it gives is one ``check`` says of every way of choosing it there (or, where nothing is
common, each way is told one), whatever is below in each — it judged them with every ability some
outcome put on the stack, below the ability or not.

And 603.3d's "has a legal choice" is one question with one home: ``step`` offers a put or a removal
exactly as ``has_legal_choice`` (which ``check`` and ``explain`` ask) answers it, at every point of
random walks and at later passes, at any ``--max-choices``.

Private unit: solver/_core/space's has_legal_choice, the one home of 603.3d's question.
"""

from __future__ import annotations

import copy
import itertools
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st
from triggerstack.model import EndlessLoop, Facts, Limits, Outcome, Scenario, canonical, compile_facts
from triggerstack.solver import (
    Decision,
    DecisionKind,
    EngineCannot,
    IllegalDecision,
    Options,
    Stepper,
    TimeLimitReached,
    Walk,
    check,
    explain,
    outcomes,
)
from triggerstack.solver._core.space import has_legal_choice

from .property.strategies import SETTINGS, scenarios
from .property.test_agreement import size_bound
from .property.test_literal import unusual
from .test_judge_65a import WAYS, divided, every_reason_told, many_choices, wider

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

OUTCOMES = 8
"""Legal outcomes changed per scenario (the first ones the engine gives)."""


@st.composite
def repeated(draw: st.DrawFn) -> dict[str, Any]:
    """One or two abilities, one with a mode it may choose more than once (700.2d): modes of none,
    one or two requirements over up to three players and three permanents, divided or not, that
    must differ or target different things across modes; sometimes a "must target" effect, and a
    second ability that may target the first."""
    players = ["P0", "P1", "P2"][: draw(st.integers(1, 3))]
    objects = [
        {
            "id": f"o{k}",
            "controller": draw(st.sampled_from(players)),
            "types": [draw(st.sampled_from(["creature", "land"]))],
        }
        | ({"hexproof": True} if draw(st.integers(0, 4)) == 0 else {})
        for k in range(draw(st.integers(0, 3)))
    ]

    def requirement(rid: str, earlier: list[dict[str, Any]]) -> dict[str, Any]:
        low = draw(st.integers(0, 1))
        high = low + draw(st.integers(0, 1)) or 1
        f = draw(st.sampled_from(["any-target", {"type": "creature"}, {"kind": "player"}, {"not": {"type": "land"}}]))
        r: dict[str, Any] = {"id": rid, "min": low, "max": high, "filter": f}
        if draw(st.integers(0, 2)) == 0:
            r["min"] = max(low, 1)
            r["divide"] = draw(st.integers(max(r["min"], high), 3))
        if earlier and draw(st.integers(0, 3)) == 0:
            r["different_from"] = [earlier[-1]["id"]]
        return r

    def requirements(n: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for i in range(n):
            out.append(requirement(f"r{i}", out))
        return out

    choose = draw(st.sampled_from([[1, 2], [2], [1, 2, 3], [2, 3], [3]]))
    modal = {"choose": choose, "repeat": True, "distinct_targets": draw(st.integers(0, 2)) == 0}
    modes = [{"id": f"m{j}", "targets": requirements(draw(st.integers(0, 2)))} for j in range(draw(st.integers(1, 2)))]
    if not any(m["targets"] for m in modes):
        modes[0]["targets"] = requirements(1)
    triggers: list[dict[str, Any]] = [{"id": "T0", "controller": "P0", "modal": modal, "modes": modes}]
    if draw(st.booleans()):
        f = draw(
            st.sampled_from(["any-target", {"kind": "ability"}, {"any": [{"kind": "ability"}, {"kind": "player"}]}])
        )
        triggers.append(
            {
                "id": "T1",
                "controller": draw(st.sampled_from(players)),
                "targets": [{"id": "t", "min": 1, "max": 1, "filter": f}],
            }
        )
    doc: dict[str, Any] = {"players": players, "objects": objects, "triggers": triggers}
    if draw(st.integers(0, 3)) == 0:
        things = players + [o["id"] for o in objects]
        doc["must_target"] = [{"object": draw(st.sampled_from(things)), "applies_to": {}}]
    return doc


TWO_OF_A_MODE: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [{"id": "o0", "controller": "P1", "types": ["creature"]}],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [1, 2], "repeat": True, "distinct_targets": True},
            "modes": [
                {"id": "m0", "targets": [{"id": "r0", "min": 1, "max": 2, "filter": "any-target", "divide": 3}]},
                {"id": "m1", "targets": [{"id": "r1", "min": 1, "max": 1, "filter": "any-target"}]},
            ],
        }
    ],
}
"""m0 chosen twice, one instance dealing 3 to P1 and the other 3 to P0: ``check`` accepts it (the
instances are a multiset, 700.2d). Walked in that order, ``step`` refused 'target P0' for the second
instance citing 601.2c ("no legal choice of T0 goes on with 'target P0' …"): a walk announces the
instances in order (P0's first), and "why not" read that order as a rule."""


def _instances(entry: dict[str, Any]) -> list[dict[str, Any]]:
    modes: list[dict[str, Any]] = entry.get("modes", [entry])
    return modes


def _changes(facts: Facts, o: dict[str, Any]) -> list[dict[str, Any]]:
    """``o`` changed at the instances of its modal entries: same-mode instances in another order,
    a target moved or swapped between two instances, an amount given to the wrong instance."""
    out: list[dict[str, Any]] = []
    for i, entry in enumerate(o["stack"]):
        if "modes" not in entry or len(entry["modes"]) < 2:
            continue
        n = len(entry["modes"])
        by_mode: dict[str, list[int]] = {}
        for k, mc in enumerate(entry["modes"]):
            by_mode.setdefault(mc["mode"], []).append(k)
        for ks in by_mode.values():
            if len(ks) > 1:  # the same instances, in another order: the same outcome
                changed = copy.deepcopy(o)
                modes = changed["stack"][i]["modes"]
                for k, j in zip(ks, reversed(ks), strict=True):
                    modes[k] = copy.deepcopy(entry["modes"][j])
                out.append(changed)
        for j, k in itertools.permutations(range(n), 2):
            a, b = entry["modes"][j], entry["modes"][k]
            for ra, rb in itertools.product(a.get("targets", {}), b.get("targets", {})):
                ta, tb = a["targets"][ra], b["targets"][rb]
                if not ta or not tb:
                    continue
                # swap one target each way, each keeping the part it was given
                changed = copy.deepcopy(o)
                ca, cb = changed["stack"][i]["modes"][j], changed["stack"][i]["modes"][k]
                x, y = ta[-1], tb[-1]
                if y in ta or x in tb:
                    continue
                ca["targets"][ra] = [*ta[:-1], y]
                cb["targets"][rb] = [*tb[:-1], x]
                for c, r, old, new in ((ca, ra, x, y), (cb, rb, y, x)):
                    parts = c.get("divide", {}).get(r)
                    if parts is not None and old in parts:
                        parts[new] = parts.pop(old)
                out.append(changed)
                # move the last target of one instance to the other (its part, if any, with it)
                if len(ta) > 1:
                    moved = copy.deepcopy(o)
                    ma, mb = moved["stack"][i]["modes"][j], moved["stack"][i]["modes"][k]
                    ma["targets"][ra] = ta[:-1]
                    mb["targets"][rb] = [*tb, x]
                    part = ma.get("divide", {}).get(ra, {}).pop(x, None)
                    if part is not None and rb in mb.get("divide", {}):
                        mb["divide"][rb][x] = part
                    out.append(moved)
            for r in set(a.get("divide", {})) & set(b.get("divide", {})):
                pa, pb = a["divide"][r], b["divide"][r]
                # each instance given the other's amounts, in its targets' order
                if list(pa.values()) != list(pb.values()) and len(pa) == len(pb):
                    changed = copy.deepcopy(o)
                    ca, cb = changed["stack"][i]["modes"][j], changed["stack"][i]["modes"][k]
                    ca["divide"][r] = dict(zip(pa, pb.values(), strict=True))
                    cb["divide"][r] = dict(zip(pb, pa.values(), strict=True))
                    out.append(changed)
                # one more to one instance's first target, one less to the other's
                changed = copy.deepcopy(o)
                ca, cb = changed["stack"][i]["modes"][j], changed["stack"][i]["modes"][k]
                first, other = next(iter(pa)), next(iter(pb))
                ca["divide"][r][first] += 1
                cb["divide"][r][other] -= 1
                if cb["divide"][r][other] >= 0:
                    out.append(changed)
    return out


def _spelled(facts: Facts, entry: dict[str, Any]) -> list[str]:
    """The decisions that put ``entry`` on the stack as it lists its choices: its modes, then each
    instance (grouped by mode, in the ability's order of modes; within a mode, as listed), each
    requirement's targets in the scenario's order of things, then its parts."""
    a = facts.abilities[facts.ability_index[entry["ability"]]]
    out = [f"put {a.id}"]
    where = facts.thing_index
    instances = _instances(entry)
    if a.modal:
        index = a.mode_index
        instances = sorted(instances, key=lambda mc: index[mc["mode"]])  # stable: as listed within a mode
        out += [f"mode {a.id}:{mc['mode']}" for mc in instances] + ["end modes"]
    for mc in instances:
        k = a.mode_index[mc["mode"]] if a.modal else 0
        for r in a.modes[k].requirements:
            things = sorted(mc.get("targets", {}).get(r.id, []), key=lambda t: where.get(t, len(where)))
            out += [f"target {t}" for t in things] + ["end targets"]
            parts = mc.get("divide", {}).get(r.id, {})
            if r.divide:
                out += [f"divide {parts.get(t, 0)}" for t in things]
    return out


def _walked(stepper: Stepper, o: dict[str, Any]) -> tuple[Walk, Decision | str | None]:
    """The walk that makes ``o`` (one pass) as spelled, up to the first decision ``step`` refuses
    (its text where no decision says it: a part of 0; None: none is). A removal ``o`` lists is made
    as soon as it is legal."""
    facts = stepper.facts
    walk = stepper.start()
    removed = set(o.get("removed", []))
    entries = list(o["stack"])
    while not stepper.is_over(walk):
        legal = stepper.legal(walk)
        drop = next((d for d in legal if d.kind is DecisionKind.REMOVE and d.subject in removed), None)
        if drop is not None:
            walk = stepper.apply(walk, drop)
            continue
        texts = _spelled(facts, entries.pop(0)) if entries else [f"remove {sorted(removed)[0]}" if removed else ""]
        for text in texts:
            try:
                d = stepper.decision(text)
            except IllegalDecision:
                return walk, text
            if d not in stepper.legal(walk):
                return walk, d
            walk = stepper.apply(walk, d)
    return walk, None


def _judged(facts: Facts, stepper: Stepper, changed: dict[str, Any]) -> None:
    proposal = Outcome.model_validate(changed)
    verdict = check(facts, proposal, time_limit=20)
    walk, refused = _walked(stepper, changed)
    if isinstance(refused, str):
        assert not verdict.legal, (refused, changed)
        return
    if refused is None:
        assert stepper.is_over(walk), changed
        assert stepper.outcome(walk) == canonical(facts, proposal), changed
        assert verdict.legal, (verdict, changed)
        return
    why = stepper.why_illegal(walk, refused)
    path = [stepper.decision(i).text for i in walk.decisions]
    if verdict.legal:
        assert why.rule is None and why.code is None, (refused.text, path, why, changed)
        return
    if why.rule is None:
        return  # a decision of the walk's own order, or later: the proposal breaks a rule further on
    ability = stepper.in_hand(walk)
    subject = ability[0] if ability is not None else refused.subject
    said = {(v.code, v.rule) for v in verdict.violations if v.ability == subject}
    assert why.rule in {r for _, r in said}, (refused.text, path, why, said, changed)
    if why.code is not None:
        assert (why.code, why.rule) in said, (refused.text, path, why, said, changed)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 3, 10))  # each example walks every change
@given(doc=st.one_of(repeated(), scenarios(max_abilities=3)))
@example(doc=TWO_OF_A_MODE)
def test_a_walk_of_a_proposal_is_refused_only_as_check_refuses_it(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400 and not facts.scenario.reactions)
    try:
        found = [o.model_dump(mode="json", exclude_none=True) for o in outcomes(facts, limit=OUTCOMES, time_limit=20)]
    except TimeLimitReached:
        assume(False)
        raise
    stepper = Stepper(facts)
    for o in found:
        for changed in _changes(facts, o):
            _judged(facts, stepper, changed)


LISTED_PAST_THE_CAP: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [{"id": "o0", "controller": "P1", "types": ["creature"]}],
    "triggers": [
        {"id": "T0", "controller": "P0", "targets": []},
        {
            "id": "T1",
            "controller": "P0",
            "modal": {"choose": [1, 2], "repeat": True, "distinct_targets": True},
            "modes": [{"id": "m0", "targets": [{"id": "r0", "min": 1, "max": 1, "filter": "any-target"}]}],
        },
    ],
}
"""T1's choices are listed one by one (a mode it may repeat, with distinct targets), up to 9 of them:
past ``--max-choices 3``. ``check`` asks 603.3d of it by a search for one choice; step asked its own
home, the listed space, and refused the whole block — 'put T0' and 'remove T1' too — with the cap's
error."""


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 3, 10))  # walks at two caps
@given(
    doc=st.one_of(scenarios(max_abilities=4, reactions=True), repeated(), many_choices(), divided(), unusual()),
    cap=st.sampled_from([3, 200_000]),
    data=st.data(),
)
@example(doc=LISTED_PAST_THE_CAP, cap=3, data=None)  # no decision drawn: each walk takes the first legal one
def test_step_asks_603_3d_where_check_and_explain_ask_it(doc: dict[str, Any], cap: int, data: Any) -> None:
    """docs/rules.md, 603.3c–d: an ability is put when it has a legal choice at the start of its
    block and may be removed when it has none. ``check`` and ``explain`` ask that of
    ``has_legal_choice``; at every point between abilities of random walks — later passes too, a
    reaction's abilities among them — ``step`` offers 'put X' exactly where it says X has a legal
    choice, and 'remove X' exactly where it says none or X may choose no mode, at any
    ``--max-choices`` (the choices of an ability are listed only once it is put)."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    stepper = Stepper(facts, Options(time_limit=20, limits=Limits(choices=cap)))
    walk = stepper.start()
    for _ in range(200):
        try:
            legal = stepper.legal(walk)
        except TimeLimitReached:
            assume(False)
            raise
        if not legal:
            return
        f = walk.facts
        assert f is not None
        if stepper.in_hand(walk) is None:
            texts = {d.text for d in legal}
            for k in {k for d in legal if (k := f.ability_index.get(d.subject)) is not None}:
                a = f.abilities[k]
                has = has_legal_choice(f, a, walk.local.placed)
                assert (f"put {a.id}" in texts) == has, (a.id, has, sorted(texts))
                assert (f"remove {a.id}" in texts) == (not has or a.may_choose_zero), (a.id, has, sorted(texts))
        d = legal[0] if data is None else data.draw(st.sampled_from(legal))
        try:
            walk = stepper.apply(walk, d)
        except EngineCannot:  # the ability put is listed past the cap: refused, naming it
            assert cap == 3
            return
        except (EndlessLoop, TimeLimitReached):
            return


@st.composite
def stacked(draw: st.DrawFn) -> dict[str, Any]:
    """Two or three abilities that target abilities (one an opponent's, or an ability or a player),
    up to two requirements each (the second sometimes differing from the first), some modal, some
    triggered by abilities triggering (603.3b's second part); sometimes a "must target" effect on a
    player, a creature or an ability: what may be below an ability differs from outcome to outcome
    (put before it, after it, or removed)."""
    players = ["P0", "P1"][: draw(st.integers(1, 2))]
    objects = [
        {"id": f"o{k}", "controller": draw(st.sampled_from(players)), "types": ["creature"]}
        for k in range(draw(st.integers(0, 2)))
    ]
    filters: list[Any] = [
        {"kind": "ability"},
        {"kind": "ability", "controller": "opponent"},
        "any-target",
        {"type": "creature"},
        {"any": [{"kind": "ability"}, {"kind": "player"}]},
    ]
    triggers: list[dict[str, Any]] = []
    for k in range(draw(st.integers(2, 3))):
        t: dict[str, Any] = {"id": f"T{k}", "controller": draw(st.sampled_from(players))}
        if draw(st.booleans()):
            t["condition"] = "ability-triggered"
        reqs: list[dict[str, Any]] = []
        for i in range(draw(st.integers(1, 2))):
            low = draw(st.integers(0, 1))
            r: dict[str, Any] = {"id": f"r{i}", "min": low, "max": max(low, draw(st.integers(1, 2)))}
            r["filter"] = copy.deepcopy(draw(st.sampled_from(filters)))
            if len(reqs) > 0 and draw(st.booleans()):
                r["different_from"] = [reqs[-1]["id"]]
            reqs.append(r)
        if draw(st.integers(0, 2)) == 0:
            t["modal"] = {"choose": [1], "repeat": False, "distinct_targets": False}
            player = {"id": "x", "min": 1, "max": 1, "filter": {"kind": "player"}}
            t["modes"] = [{"id": "m0", "targets": reqs}, {"id": "m1", "targets": [player]}]
        else:
            t["targets"] = reqs
        triggers.append(t)
    doc: dict[str, Any] = {"players": players, "objects": objects, "triggers": triggers}
    if draw(st.booleans()):
        things = players + [o["id"] for o in objects] + [t["id"] for t in triggers]
        applies = draw(st.sampled_from([{}, [draw(st.sampled_from([t["id"] for t in triggers]))]]))
        doc["must_target"] = [{"object": draw(st.sampled_from(things)), "applies_to": applies}]
    return doc


NEVER_BELOW: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [1], "repeat": False, "distinct_targets": False},
            "modes": [
                {
                    "id": "m0",
                    "targets": [
                        {"id": "r0", "min": 0, "max": 1, "filter": {"kind": "ability"}},
                        {"id": "r1", "min": 0, "max": 1, "filter": {"kind": "ability"}, "different_from": ["r0"]},
                    ],
                },
                {"id": "m1", "targets": [{"id": "x", "min": 1, "max": 1, "filter": {"kind": "player"}}]},
            ],
        },
        {"id": "T1", "controller": "P0", "targets": [{"id": "r0", "min": 1, "max": 1, "filter": {"kind": "ability"}}]},
    ],
}
"""T1 must target an ability: never put first, so never below T0 (tests/cases/601.2c/never-below-it.yaml).
explain said T1 is never T0's r0 because "T1 chosen for both r1 and r0" (115.3), judging T0 with
every ability some outcome puts on the stack below it; check says of every proposal taking it that
T1 is not on the stack when T0 is put there."""

UP_TO_ONE_ABILITY: dict[str, Any] = {
    "controller": "P0",
    "modal": {"choose": [1], "repeat": False, "distinct_targets": False},
    "modes": [
        {"id": "m0", "targets": [{"id": "r0", "min": 0, "max": 1, "filter": {"kind": "ability"}}]},
        {"id": "m1", "targets": [{"id": "x", "min": 1, "max": 1, "filter": {"kind": "player"}}]},
    ],
}
MUST_BELOW: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [],
    "triggers": [
        {"id": "T0", **UP_TO_ONE_ABILITY},
        {"id": "T1", **UP_TO_ONE_ABILITY},
        {"id": "T2", "controller": "P0", "targets": [{"id": "r0", "min": 1, "max": 1, "filter": {"kind": "ability"}}]},
    ],
    "must_target": [{"object": "T0", "applies_to": {}}],
}
"""Every ability must target T0 where it can (601.2c); T2 must target an ability, so it is below T1
only above T0, and then T1 must target T0: no legal outcome has T2 below T1. explain said T2 is
never T1's r0 because T1 must target T0 — check says, of each proposal a judge makes from a legal
outcome, that T2 is not on the stack when T1 is put there."""


EVERY_INSTANCE: dict[str, Any] = {
    "players": ["P0"],
    "objects": [
        {"id": "o0", "controller": "P0", "types": ["creature"], "hexproof": True},
        {"id": "o1", "controller": "P0", "types": ["creature"], "hexproof": True},
        {"id": "o2", "controller": "P0", "types": ["land"]},
    ],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [3], "repeat": True, "distinct_targets": True},
            "modes": [{"id": "m0", "targets": [
                {"id": "r0", "min": 0, "max": 1, "filter": "any-target"},
                {"id": "r1", "min": 1, "max": 1, "filter": "any-target", "different_from": ["r0"]},
            ]}],
        }
    ],
}
"""m0 chosen three times (700.2), its targets distinct across them: the one legal outcome gives r1
P0, o0 and o1 and r0 nothing. P0 for r0 breaks 115.3 in the instance whose r1 is P0, and only
700.2's distinct targets in the two others. explain judged the first instance of the mode alone and
said 115.3 of every way (drawn under load, issue 52's run, this stop)."""


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 5, 5))  # each example checks every way: up to 200
@given(doc=st.one_of(stacked(), repeated()))
@example(doc=NEVER_BELOW)
@example(doc=MUST_BELOW)
@example(doc=EVERY_INSTANCE)
def test_a_reason_explain_gives_is_said_of_every_way_whatever_is_below(doc: dict[str, Any]) -> None:
    """docs/rules.md, 603.3b–c: ``explain`` judges a thing no legal outcome chooses with what can be
    below the ability; an outcome may have fewer below it (one removed, or put above it). Each way
    of choosing the thing — every legal outcome with it in place of the requirement's last target
    (tests/test_judge_65a.py) — is one ``check`` refuses, and it says explain's reason of every way
    where some reason is said of every way, else one of explain's reasons of each."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    try:
        told = explain(facts, time_limit=20)
        found = [o.model_dump(mode="json", exclude_none=True) for o in outcomes(facts, limit=WAYS, time_limit=20)]
    except TimeLimitReached:
        assume(False)
        raise
    every_reason_told(facts, found, told["abilities"], wider(facts))


def _removed_instead(o: dict[str, Any], ability: str) -> dict[str, Any]:
    """``o`` with ``ability`` (put in a pass of 603.3b) removed instead, and the passes after it gone
    (what they held was fired by the pass as it was)."""
    changed = copy.deepcopy(o)
    at = next(i for i, e in enumerate(o["stack"]) if e["ability"] == ability)
    ends = list(itertools.accumulate(o["passes"]))
    k = next(i for i, end in enumerate(ends) if at < end)
    n = o["passes"][k]
    start = ends[k] - n
    changed["stack"] = o["stack"][:at] + o["stack"][at + 1 : start + n]
    changed["passes"] = [*o["passes"][:k], n - 1] if n > 1 else o["passes"][:k]
    kept = {e["ability"] for e in changed["stack"]}
    changed["removed"] = sorted({*o.get("removed", []), ability} - kept)
    return changed


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 5, 5))  # every put of every later pass
@given(doc=scenarios(max_abilities=3, reactions=True))
def test_a_removal_step_refuses_in_a_later_pass_is_one_check_refuses(doc: dict[str, Any]) -> None:
    """docs/rules.md, 603.3b–d: the passes after the first are put on the stack as the first is, so
    an ability put in the second or a later pass that ``step`` will not let be removed (citing a
    rule: 603.3d's legal choice, 800.4d, a forced removal) is one ``check`` refuses removed there,
    with a violation of that rule."""
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    try:
        found = [o for o in outcomes(facts, limit=6, time_limit=20) if len(o.passes or ()) > 1]
    except (TimeLimitReached, EndlessLoop):
        assume(False)
        raise
    stepper = Stepper(facts)
    for o in found:
        walk = stepper.start()
        for d in stepper.decisions_for(o):
            if stepper.pass_number(walk) > 1 and d.kind is DecisionKind.PUT:
                instead = stepper.decision(f"remove {d.subject}")
                why = stepper.why_illegal(walk, instead)
                if instead not in stepper.legal(walk) and why.rule is not None:
                    changed = _removed_instead(o.model_dump(mode="json", exclude_none=True), d.subject)
                    verdict = check(facts, Outcome.model_validate(changed), time_limit=20)
                    said = {v.rule for v in verdict.violations if v.ability == d.subject}
                    assert why.rule in said, (d.subject, why, verdict.violations, changed)
            walk = stepper.apply(walk, d)
