"""What a judge is told agrees with a second literal reading of the rules, written from the docs alone.

``tests/literal.py`` reads a scenario document from docs/rules.md and docs/formats.md without the
project's code (its filters, controllers, bars and blocks read again), and tries every sequence of
placements of 603.3b. Over the project's generators and over shapes they never make
(:func:`unusual`: players with shroud, protection, hexproof from and can't-be-targeted-by; spells,
abilities and emblems as objects and sources; delayed abilities with a source; planes with a
planar controller; numbers, tags, counters, subtypes, colorless; "must target" over qualities),
every statement a judge reads is held to it:

* the legal outcomes (``outcomes``) are the literal ones, and every engine's are;
* ``explain``: every reason that bars a thing from a requirement (code for code), the things some
  legal outcome chooses, each mode's status and whether each ability must, may or cannot be removed;
* ``check``: every violation of a legal outcome changed one to three ways, ability and code;
* ``step``: a mode refused while the ability is announced is refused for the reason ``check``
  gives a proposal choosing it — unavailable (700.2), again (700.2d), too many (700.2), or no legal
  targets with what is below (603.3c) — not "no legal choice goes on" under 700.2; and 'end modes'
  or 'end targets' refused with too few chosen, for the count ``check`` gives (700.2, 601.2c).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import assume, example, given
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, compile_facts
from triggerstack.solver import DecisionKind, Stepper, TimeLimitReached, check, count, explain, outcomes

from ..literal import Literal
from ..test_judge_63a import crowded
from .strategies import SETTINGS, after_leaving, scenarios

SMALL = 400
"""Legal outcomes at most of a scenario the literal reading lists (a larger one is set aside)."""

QUALITIES: list[Any] = [
    {},
    {"color": "red"},
    {"controller": "opponent"},
    {"controller": "you"},
    {"type": "creature"},
    {"kind": "card"},
    {"zone": "graveyard"},
    {"colorless": True},
    {"not": {"color": "red"}},
    {"kind": "player"},
]
FILTERS: list[Any] = [
    "any-target",
    {"kind": "player"},
    {"type": "creature"},
    {"kind": "ability"},
    {"kind": ["spell", "ability"]},
    {"zone": "stack"},
    {"kind": "ability", "colorless": True},
    {"kind": "ability", "controller": "you"},
    {"zone": "stack", "any": [{"controller": "opponent"}]},
    {"power": {"lte": 2}},
    {"type": "creature", "tag": "tapped"},
    {"subtype": "Elf"},
    {"supertype": "legendary"},
    {"counter": "+1/+1"},
    {"kind": "emblem"},
    {"zone": "command"},
    {"kind": "ability", "ability_kind": "activated"},
    {"kind": "player", "controller": "opponent"},
    {"any": [{"kind": "player", "controller": "you"}, {"type": "creature", "color": "red"}]},
    {"kind": "card", "owner": "opponent"},
    {"colorless": True},
    {"zone": ["graveyard", "battlefield"]},
    {"kind": ["player", "permanent"], "not": {"controller": "you"}},
    {"all": [{"kind": "player"}, {"not": {"controller": "you"}}]},
]
BOUNDS = [(1, 1), (0, 1), (1, 2), (0, None), (2, 2), (1, None)]


def _protections(draw: st.DrawFn) -> dict[str, Any]:
    p: dict[str, Any] = {}
    if draw(st.integers(0, 4)) == 0:
        p["hexproof"] = True
    if draw(st.integers(0, 5)) == 0:
        p["shroud"] = True
    if draw(st.integers(0, 3)) == 0:
        p["protection"] = [draw(st.sampled_from(QUALITIES))]
    if draw(st.integers(0, 4)) == 0:
        p["hexproof_from"] = [draw(st.sampled_from(QUALITIES))]
    if draw(st.integers(0, 4)) == 0:
        who = draw(st.sampled_from(["you", "opponent", "any"]))
        p["cant_be_targeted_by"] = [{"source": draw(st.sampled_from(QUALITIES)), "controller": who}]
    return p


@st.composite
def _requirements(draw: st.DrawFn, most: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, most))):
        lo, hi = draw(st.sampled_from(BOUNDS))
        r: dict[str, Any] = {
            "id": f"r{i}",
            "min": lo,
            "max": hi,
            "filter": copy.deepcopy(draw(st.sampled_from(FILTERS))),
        }
        if draw(st.integers(0, 4)) == 0:
            r["other_than_source"] = True
        if out and draw(st.integers(0, 3)) == 0:
            r["different_from"] = [out[0]["id"]]
        if draw(st.integers(0, 5)) == 0:
            r["min"] = max(lo, 1)
            r["divide"] = draw(st.integers(r["min"], 3))
        out.append(r)
    return out


@st.composite
def unusual(draw: st.DrawFn) -> dict[str, Any]:
    """A small scenario of the shapes ``scenarios`` never makes (see the module's docstring)."""
    n = draw(st.integers(1, 4))
    ids = [f"P{i}" for i in range(n)]
    rules = draw(st.sampled_from(["seed", "cr-1p"] + (["2hg"] if n == 4 else [])))
    doc: dict[str, Any] = {"rules": rules}
    if rules == "2hg":
        doc["teams"] = [["P0", "P2"], ["P1", "P3"]]
    players: list[Any] = []
    for i, p in enumerate(ids):
        d = {"id": p, **_protections(draw)}
        if i and draw(st.integers(0, 8)) == 0:
            d["left_game"] = True
        players.append(d if len(d) > 1 else p)
    doc["players"] = players
    objects: list[dict[str, Any]] = []
    for j in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["permanent", "permanent", "card", "spell", "ability", "emblem"]))
        o: dict[str, Any] = {"id": f"o{j}", "kind": kind}
        who = draw(st.sampled_from(ids))
        if kind == "card":
            o["zone"] = draw(st.sampled_from(["graveyard", "exile", "hand", "command"]))
            o["owner"] = who
            if o["zone"] == "command" and draw(st.booleans()):  # a plane's planar controller (901.6)
                o["controller"] = draw(st.sampled_from(ids))
        else:
            o["controller"] = who
            if draw(st.integers(0, 3)) == 0:
                o["owner"] = draw(st.sampled_from(ids))
        if kind == "ability":
            o["ability_kind"] = draw(st.sampled_from(["triggered", "activated"]))
        elif kind != "emblem":
            o["types"] = [
                draw(st.sampled_from(["creature", "creature", "land", "artifact", "planeswalker", "battle", "instant"]))
            ]
            o["colors"] = draw(st.lists(st.sampled_from(["red", "green"]), max_size=2, unique=True))
            if draw(st.booleans()):
                o["power"] = draw(st.integers(0, 4))
            for key, value in (
                ("subtypes", ["elf"]),
                ("supertypes", ["legendary"]),
                ("tags", ["tapped"]),
                ("counters", {"+1/+1": 1}),
            ):
                if draw(st.integers(0, 3)) == 0:
                    o[key] = value
        o.update(_protections(draw))
        objects.append(o)
    doc["objects"] = objects
    sources = [o["id"] for o in objects if o["kind"] in ("permanent", "card", "emblem")]
    triggers: list[dict[str, Any]] = []
    for k in range(draw(st.integers(1, 3))):
        t: dict[str, Any] = {"id": f"T{k}", "text": f"T{k}"}
        how = draw(st.integers(0, 5))
        if how == 0 or not sources:
            t["controller"] = draw(st.sampled_from(ids))
        else:
            t["source"] = draw(st.sampled_from(sources))
            if how == 1:  # a delayed ability keeps its source (603.7d-g): its qualities still count
                by = draw(st.sampled_from(["spell", "ability", "replacement", "static-action"]))
                t["delayed"] = {"by": by, "controller": draw(st.sampled_from(ids))}
            elif how == 2:
                t["source_controller"] = draw(st.sampled_from(ids))
        if draw(st.integers(0, 3)) == 0:
            t["condition"] = "ability-triggered"
        if draw(st.integers(0, 5)) == 0:
            t["chooser"] = draw(st.sampled_from(ids))
        if draw(st.booleans()):
            t["targets"] = draw(_requirements(2))
        else:
            n_modes = draw(st.integers(1, 3))
            choose = sorted(draw(st.sets(st.integers(0, n_modes), min_size=1, max_size=2)) | {1})
            t["modal"] = {
                "choose": choose,
                "repeat": draw(st.integers(0, 3)) == 0,
                "distinct_targets": draw(st.integers(0, 2)) == 0,
            }
            t["modes"] = [
                {
                    "id": f"m{j}",
                    "targets": draw(_requirements(1)) if draw(st.integers(0, 3)) else [],
                    "available": draw(st.integers(0, 5)) != 0,
                }
                for j in range(n_modes)
            ]
        triggers.append(t)
    doc["triggers"] = triggers
    if draw(st.integers(0, 2)) == 0:
        things = ids + [o["id"] for o in objects] + [t["id"] for t in triggers]
        ability_ids = [t["id"] for t in triggers]
        doc["must_target"] = [
            {
                "object": draw(st.sampled_from(things)),
                "applies_to": draw(
                    st.one_of(
                        st.lists(st.sampled_from(ability_ids), min_size=1, max_size=2, unique=True),
                        st.sampled_from(QUALITIES),
                    )
                ),
            }
            for _ in range(draw(st.integers(1, 2)))
        ]
    return after_leaving(doc)


DOCS = st.one_of(scenarios(max_abilities=4), scenarios(max_abilities=3, linked=True), crowded(), unusual(), unusual())

NO_TARGETS_YET: dict[str, Any] = {
    "players": ["A"],
    "triggers": [
        {
            "id": "E",
            "controller": "A",
            "modal": {"choose": [1]},
            "modes": [{"id": "counter", "targets": [{"id": "t", "filter": {"kind": "ability"}}]}, {"id": "gain"}],
        }
    ],
}
"""E put with nothing below: its mode counter has no legal target (603.3c). ``check`` and
``explain`` said so; ``step`` refused 'mode E:counter' citing 700.2, no code, and blamed "counts,
different targets, must-target effects or divisions"."""

TWICE: dict[str, Any] = {
    "players": ["A"],
    "triggers": [
        {
            "id": "T",
            "controller": "A",
            "modal": {"choose": [1, 2], "repeat": False},
            "modes": [{"id": "m0"}, {"id": "m1"}],
        }
    ],
}
"""After 'mode T:m0', 'mode T:m0' again: chosen twice where the text does not allow it (700.2d);
``step`` said "no legal choice goes on" under 700.2, no code."""

ENDS: dict[str, Any] = {
    "players": ["A"],
    "objects": [
        {"id": "c", "controller": "A", "types": ["creature"]},
        {"id": "d", "controller": "A", "types": ["creature"]},
    ],
    "triggers": [
        {"id": "T", "controller": "A", "modal": {"choose": [2]}, "modes": [{"id": "m0"}, {"id": "m1"}]},
        {"id": "U", "controller": "A", "targets": [{"id": "t", "min": 2, "max": 2, "filter": {"type": "creature"}}]},
    ],
}
"""'end modes' after one mode of two, 'end targets' after one target of two: ``step`` said "no
legal choice goes on", no code; ``check`` says mode-count (700.2) and target-count (601.2c)."""


def _small(doc: dict[str, Any]) -> tuple[Any, Literal]:
    facts = compile_facts(Scenario.model_validate(doc))
    try:
        n = count(facts, time_limit=20)
    except TimeLimitReached:
        assume(False)
        raise
    assume(n <= SMALL)
    return facts, Literal(doc)


def _listed(facts: Any, engine: str = "auto") -> list[dict[str, Any]]:
    got = outcomes(facts, engine=engine, time_limit=60)
    return [o.model_dump(mode="json", exclude_none=True) for o in got]


@SETTINGS
@given(doc=DOCS)
def test_the_legal_outcomes_are_the_literal_ones_for_every_engine(doc: dict[str, Any]) -> None:
    facts, lit = _small(doc)
    literal = lit.outcomes()
    for engine in ("product", "cpsat", "constraint"):
        assert {lit.outcome(o) for o in _listed(facts, engine)} == literal, engine


@SETTINGS
@given(doc=DOCS)
def test_explain_tells_what_the_literal_reading_finds(doc: dict[str, Any]) -> None:
    """Each barred thing with every reason that bars it, code for code; the things chosen; each
    mode's status; removal as the outcomes remove."""
    facts, lit = _small(doc)
    literal = lit.outcomes()
    told = explain(facts, time_limit=60)
    chosen: dict[tuple[str, Any, str], set[str]] = {}
    modes: set[tuple[str, Any]] = set()
    removed: dict[str, int] = {}
    for stack, gone in literal:
        for a in gone:
            removed[a] = removed.get(a, 0) + 1
        for a, choice in stack:
            for m, inst in choice:
                modes.add((a, m))
                for rid, ts, _ in inst:
                    chosen.setdefault((a, m, rid), set()).update(ts)
    for report in told["abilities"]:
        a = report["id"]
        n = removed.get(a, 0)
        assert report["removal"] == ("must" if n == len(literal) else "may" if n else "cannot"), (
            a,
            report["removal_reason"],
        )
        for mode in report["modes"]:
            m = mode["id"]
            reqs, available = next((rs, av) for k, rs, av in lit.modes(a) if k == m)
            status = "unavailable" if not available else "illegal" if (a, m) not in modes else "legal"
            assert mode["status"].removesuffix("-if") == status, (a, m, mode["status"], mode["reason"])
            by_id = {r["id"]: r for r in reqs}
            for r in mode["requirements"]:
                picked = chosen.get((a, m, r["id"]), set())
                assert set(r["legal"]) | set(r["legal_once_on_stack"]) == picked, (a, m, r["id"])
                cited: dict[str, set[tuple[str, str]]] = {}
                for e in r["excluded"]:
                    cited.setdefault(e["id"], set()).add((e["code"], e["rule"]))
                said = {x: {code for code, _rule in pairs} for x, pairs in cited.items()}
                linked = "target_of" in repr(by_id[r["id"]].get("filter"))
                for x in lit.order:
                    bars = lit.bars(a, by_id[r["id"]], lit.things[x], None)
                    if x in picked or not bars:
                        continue
                    extra = said.get(x, set()) - bars
                    assert said.get(x, set()) >= bars and (not extra or (linked and extra == {"target-filter"})), (
                        a, m, r["id"], x, said.get(x), bars,
                    )  # fmt: skip
                    # and each under its own rule (one code is several: a permanent's hexproof, a player's)
                    rules = lit.bar_rules(a, by_id[r["id"]], lit.things[x], None)
                    assert cited.get(x, set()) >= rules, (a, m, r["id"], x, cited.get(x), rules)


def _changed(lit: Literal, o: dict[str, Any], rnd: random.Random) -> dict[str, Any]:
    """``o`` changed one to three ways: two entries swapped, one removed or put back, a mode
    replaced or added, a target replaced, added or dropped (a name the scenario lacks among them),
    an amount moved, an ability removed twice."""
    o = copy.deepcopy(o)
    things = [*lit.order, "nobody"]
    for _ in range(rnd.randint(1, 3)):
        k = rnd.randint(0, 9)
        stack = o["stack"]
        if k == 0 and len(stack) >= 2:
            i, j = rnd.sample(range(len(stack)), 2)
            stack[i], stack[j] = stack[j], stack[i]
        elif k == 1 and stack:
            o.setdefault("removed", []).append(stack.pop(rnd.randrange(len(stack)))["ability"])
        elif k == 2 and o.get("removed"):
            a = o["removed"].pop(rnd.randrange(len(o["removed"])))
            first = lit.modes(a)[0][0] if a in lit.by_id else None
            stack.insert(rnd.randint(0, len(stack)), {"ability": a, **({"modes": [{"mode": first}]} if first else {})})
        elif k == 9 and lit.triggers:
            o.setdefault("removed", []).append(rnd.choice([t["id"] for t in lit.triggers]))
        elif stack:
            e = rnd.choice(stack)
            if "modes" in e and k == 3:
                names = [m for m, _, _ in lit.modes(e["ability"])]
                if e["modes"] and rnd.random() < 0.5:
                    e["modes"][rnd.randrange(len(e["modes"]))] = {"mode": rnd.choice([*names, "nothing"])}
                else:
                    e["modes"].append({"mode": rnd.choice(names)})
                continue
            insts = e.get("modes", [e])
            if not insts:
                continue
            inst = rnd.choice(insts)
            reqs = next((rs for m, rs, _ in lit.modes(e["ability"]) if m == inst.get("mode")), [])
            if not reqs:
                continue
            r = rnd.choice(reqs)
            ts = inst.setdefault("targets", {}).setdefault(r["id"], [])
            parts = inst.get("divide", {}).get(r["id"])
            x = rnd.choice(things)
            if k in (4, 5) and ts:
                old = ts.pop(rnd.randrange(len(ts)))
                ts.append(x)
                if parts is not None and old in parts:
                    parts[x] = parts.pop(old)
            elif k == 6:
                ts.append(x)
                if parts is not None:
                    parts[x] = 1
            elif k == 7 and ts:
                old = ts.pop()
                if parts is not None:
                    parts.pop(old, None)
            elif k == 8 and parts:
                y = rnd.choice(list(parts))
                parts[y] += rnd.choice([-1, 1])
    return o


MUST_DIFFER_NOT_MISFIT: dict[str, Any] = {
    "players": [{"id": "P0", "hexproof": True}, {"id": "P1", "hexproof": True, "left_game": True}],
    "triggers": [
        {
            "id": "T0",
            "controller": "P0",
            "modal": {"choose": [0, 1], "repeat": True, "distinct_targets": True},
            "modes": [
                {
                    "id": "m0",
                    "available": False,
                    "targets": [
                        {"id": "r0", "min": 1, "max": 2, "filter": {"kind": "player"}},
                        {
                            "id": "r1",
                            "filter": {"any": [{"kind": "player"}, {"type": "creature", "controller": {"target_of": "r0"}}]},
                            "different_from": ["r0"],
                        },
                    ],
                },
                {"id": "m1", "targets": [], "available": False},
            ],
        },
        {"id": "T1", "controller": "P0", "modal": {"choose": [0, 1]}, "modes": [{"id": "m1", "targets": []}]},
    ],
}
"""Helper 71a's hunt: r0's only legal choice is P0, and r1 must differ from it. ``check`` of r1 = P0 with
nothing for r0 said "P0 fits r1's filter for no legal choice of targets for r0" (target-filter): P0 is a
player, which fits whatever r0 holds; the literal reading finds r0's count alone (model/_linked.py read
r1's own 115.3 as part of its filter; tests/cases/115/a-must-differ-is-not-a-misfit-of-a-linked-filter.yaml)."""


@SETTINGS
@given(doc=DOCS, seed=st.integers(0, 2**16))
@example(doc=MUST_DIFFER_NOT_MISFIT, seed=1978)
def test_check_tells_every_violation_the_literal_reading_finds(doc: dict[str, Any], seed: int) -> None:
    """Ability and code for code; which ability an ``order`` violation blames, and whether a
    proposal breaking other rules also falls short of a "must target" effect, are left to ``check``
    — both at once too (a clean-clone run found a proposal where each was, and the property
    forgave one only where it was the only difference)."""
    facts, lit = _small(doc)
    rnd = random.Random(seed)
    for o in _listed(facts)[:6]:
        for _ in range(4):
            p = _changed(lit, o, rnd)
            verdict = check(facts, Outcome.model_validate(p), time_limit=60)
            said = {(v.ability, v.code.value) for v in verdict.violations}
            literal = lit.violations(p)
            assert verdict.legal == (not literal), (p, said, literal)
            if any(c == "order" for _, c in said ^ literal):  # which ability it blames is check's: the code is told
                assert ("order" in {c for _, c in said}) == ("order" in {c for _, c in literal}), (p, said, literal)
                said, literal = ({x for x in told if x[1] != "order"} for told in (said, literal))
            differ = said ^ literal
            codes = {c for _, c in differ}
            if codes == {"target-must"} and any(a == x and c != "target-must" for a, c in said for x, _ in differ):
                continue
            assert not differ, (p, said, literal)


REFUSED: dict[str, Any] = {
    "players": ["A", "B"],
    "objects": [
        {"id": "c", "controller": "B", "types": ["creature"]},
        {"id": "d", "controller": "B", "types": ["creature"]},
    ],
    "triggers": [
        {
            "id": "T",
            "controller": "A",
            "modal": {"choose": [1], "distinct_targets": True},
            "modes": [
                {"id": "used", "available": False, "targets": [{"id": "t", "filter": {"type": "creature"}}]},
                {"id": "abil", "targets": [{"id": "t", "filter": {"kind": "ability"}, "min": 2, "max": 2}]},
            ],
        }
    ],
}
"""A mode chosen before (unavailable) and one with no legal targets (603.3c), each given targets
that break 601.2c as well: ``check`` told only the mode's refusal and each target's own bars — it
judged a refused mode's targets with ``reasons_only``."""


@pytest.mark.parametrize(
    "modes",
    [
        [{"mode": "used", "targets": {"t": ["c", "d"]}}],  # two for "target creature": 601.2c's count
        [{"mode": "used", "targets": {"t": ["c", "c"]}}],  # the same target twice
        [{"mode": "used", "targets": {"t": []}}],  # none for "target creature"
        [{"mode": "abil", "targets": {"t": ["c"]}}],  # one of two, and it is no ability
        [{"mode": "used", "targets": {"t": ["c"]}, "divide": {"t": {"c": 1}}}],  # a division where none is taken
    ],
)
def test_check_judges_a_refused_modes_targets_as_any_modes(modes: list[dict[str, Any]]) -> None:
    """SPEC: every violation. A mode that can't be chosen still has its targets judged: their count,
    repeats and divisions break 601.2c/601.2d whatever the mode's refusal (700.2, 603.3c) says."""
    proposal = {"stack": [{"ability": "T", "modes": modes}]}
    verdict = check(Scenario.model_validate(REFUSED), Outcome.model_validate(proposal))
    said = {(v.ability, v.code.value) for v in verdict.violations}
    assert said == Literal(REFUSED).violations(proposal), [v.message for v in verdict.violations]


@SETTINGS
@given(doc=DOCS, seed=st.integers(0, 2**16))
@example(doc=NO_TARGETS_YET, seed=0)
@example(doc=TWICE, seed=0)
@example(doc=ENDS, seed=0)
@example(doc=ENDS, seed=1)
def test_step_refuses_a_mode_for_the_reason_check_gives(doc: dict[str, Any], seed: int) -> None:
    """At every prefix of a walk to a legal outcome where an ability's modes are being announced,
    every mode of it that is not offered and not legal later is refused with what the literal
    reading says a proposal choosing it breaks for good, when it breaks something for good."""
    facts, lit = _small(doc)
    stepper = Stepper(facts)
    found = list(outcomes(facts, limit=20, time_limit=60))
    goal = rnd_choice(found, seed)
    decisions = stepper.decisions_for(goal)
    for i in range(len(decisions) + 1):
        walk = stepper.walk(decisions[:i])
        offered = stepper.legal(walk)
        if not offered or offered[0].kind in (DecisionKind.PUT, DecisionKind.REMOVE):
            continue
        hand = next(d.subject for d in reversed(decisions[:i]) if d.kind is DecisionKind.PUT)
        since = decisions[_last_put(decisions[:i]) + 1 : i]
        said = [d.mode for d in since if d.kind is DecisionKind.MODE]
        if offered[0].kind not in (DecisionKind.MODE, DecisionKind.END_MODES):
            _ends(stepper, walk, lit, hand, since)
            continue
        end = stepper.decision("end modes")
        if end not in offered and not (why := stepper.why_illegal(walk, end)).later:
            short = not said or len(said) not in lit.by_id[hand]["modal"]["choose"]  # none: removed instead
            assert (why.code is not None and why.code.value == "mode-count") == short, (hand, said, why.text)
        below = {d.subject for d in decisions[:i] if d.kind is DecisionKind.PUT} - {hand}
        spec = lit.by_id[hand]
        for m, reqs, available in lit.modes(hand):
            d = stepper.decision(f"mode {hand}:{m}")
            if d in offered:
                continue
            why = stepper.why_illegal(walk, d)
            if why.later:
                continue
            broken = set()
            if not available:
                broken.add("mode-unavailable")
            if m in said and not spec["modal"].get("repeat"):
                broken.add("mode-repeat")
            if len(said) + 1 > max(spec["modal"]["choose"]):
                broken.add("mode-count")
            if not any(True for _ in lit.instances(hand, reqs, below)):
                broken.add("mode-illegal")
            code = why.code.value if why.code else None
            if broken:
                assert code in broken, (hand, said, m, why.rule, why.text, broken)
            else:
                assert code not in {"mode-unavailable", "mode-repeat", "mode-count", "mode-illegal"}, (
                    hand,
                    said,
                    m,
                    why.text,
                )


def _last_put(decisions: list[Any]) -> int:
    return max(i for i, d in enumerate(decisions) if d.kind is DecisionKind.PUT)


def _ends(stepper: Stepper, walk: Any, lit: Literal, hand: str, since: list[Any]) -> None:
    """'end targets' refused (not later) with fewer targets than the requirement being chosen
    takes is refused for the count (601.2c), as ``check`` says of a proposal ending there."""
    end = stepper.decision("end targets")
    offered = stepper.legal(walk)
    if end in offered or offered[0].kind is DecisionKind.DIVIDE or (why := stepper.why_illegal(walk, end)).later:
        return  # a division comes first: no requirement is being chosen
    kinds = [d.kind for d in since]
    modes = [d.mode for d in since if d.kind is DecisionKind.MODE] or [None]
    sequence = [r for m in modes for r in next(rs for k, rs, _ in lit.modes(hand) if k == m)]
    done = kinds.count(DecisionKind.END_TARGETS)
    if done >= len(sequence):
        return
    last = max((j for j, k in enumerate(kinds) if k in (DecisionKind.END_MODES, DecisionKind.END_TARGETS)), default=-1)
    chosen = sum(1 for k in kinds[last + 1 :] if k is DecisionKind.TARGET)
    short = chosen < sequence[done].get("min", 1)
    assert (why.code is not None and why.code.value == "target-count") == short, (hand, since, why.text)


def rnd_choice(found: list[Outcome], seed: int) -> Outcome:
    return found[random.Random(seed).randrange(len(found))]


SHROUDED_MISFIT: dict[str, Any] = {
    "players": ["P0", "P1"],
    "objects": [
        {"id": "o0", "controller": "P1", "types": ["land"]},
        {"id": "o2", "kind": "card", "zone": "graveyard", "owner": "P0", "types": ["instant"]},
        {"id": "o3", "controller": "P0", "types": ["creature"]},
        {"id": "o4", "controller": "P1", "types": ["kindred"], "shroud": True},
    ],
    "triggers": [
        {
            "id": "T",
            "source": "o0",
            "targets": [
                {"id": "r0", "filter": {"kind": "card", "controller": "opponent"}},
                {"id": "r1", "min": 1, "max": 2, "filter": {"kind": "permanent", "owner": {"target_of": "r0"}}},
            ],
        }
    ],
}
"""r1 is a permanent owned by r0's owner; r0 can only be o2 (P0's), so o4 (P1's, with shroud)
fits r1 for no legal choice of r0. ``explain`` said only "o4 has shroud" and ``check`` of T
targeting o2 and o4 only target-shroud: a thing another rule barred was never asked about the
description that names r0 (model/_facts.py took only candidates to the linked search; check
skipped a barred thing's misfit)."""

LEFT_MISFIT: dict[str, Any] = {
    "players": ["P0", {"id": "P2", "left_game": True}],
    "triggers": [
        {
            "id": "T",
            "controller": "P0",
            "targets": [
                {"id": "r0", "min": 0, "max": None, "filter": {"kind": "player"}},
                {
                    "id": "r1",
                    "filter": {"kind": "player", "not": {"controller": {"target_of": "r0"}}, "controller": "you"},
                    "different_from": ["r0"],
                },
            ],
        }
    ],
}
"""P2 left the game (800.4a) and is no player r1's description fits (not r0's, and T's
controller's): both reasons, not the first."""


@pytest.mark.parametrize(
    ("doc", "thing", "proposal"),
    [
        (SHROUDED_MISFIT, "o4", {"stack": [{"ability": "T", "targets": {"r0": ["o2"], "r1": ["o4"]}}]}),
        (LEFT_MISFIT, "P2", {"stack": [{"ability": "T", "targets": {"r1": ["P2"]}}]}),
    ],
)
def test_a_barred_thing_that_fits_no_choice_of_the_named_targets_is_told_both(
    doc: dict[str, Any], thing: str, proposal: dict[str, Any]
) -> None:
    """docs/formats.md, Verdict: a target that breaks several rules gets one violation for each,
    and ``explain`` lists each reason among the exclusions — the description that names another
    requirement's targets (target_of, 601.2c) is one of them, whatever else bars the thing."""
    scenario = Scenario.model_validate(doc)
    r1 = explain(scenario)["abilities"][0]["modes"][0]["requirements"][1]
    told = {e["code"] for e in r1["excluded"] if e["id"] == thing}
    assert "target-filter" in told and len(told) >= 2, r1["excluded"]
    verdict = check(scenario, Outcome.model_validate(proposal))
    said = {(v.ability, v.code.value) for v in verdict.violations}
    assert said == Literal(doc).violations(proposal), [v.message for v in verdict.violations]
