"""A named requirement given an illegal choice: ``check`` reads the description that names it with
that choice, and every door tells the same rule.

docs/formats.md: a filter may read another requirement's targets (``target_of``: "target player
sacrifices target creature that player controls"), and ``target-filter`` of such a description is
read with the targets the proposal chose for what it names — a creature that player controls fits,
even where choosing that player broke another rule (601.2c). ``tests/property/test_literal.py``
holds ``check`` to the literal reading (tests/literal.py) on legal outcomes changed at random, which
reach an illegal choice of a *named* requirement only rarely. Here every proposal makes one on
purpose: a legal outcome's named requirement given a thing that is barred (hexproof, shroud,
protection, a player who left, outside its filter), one that a requirement it must differ from
holds (115.3), an ability not yet on the stack, or a count out of bounds — with, for the requirement
whose description names it, a thing that fits that choice and one that does not. Then:

* ``check`` tells exactly the (ability, code) pairs the literal reading finds, no more, no fewer;
* every reason ``explain`` or ``step``'s why-not gives for either thing that bars it whatever else is
  chosen (its own hexproof, shroud, protection, source, self or a restriction, as the literal reading
  finds it; explain also tells what bars the targets with which it fits) is told by ``check`` of
  that proposal, code and rule; and ``explain``'s "fits r's filter for no legal choice of targets
  for d" of the reader's thing is told (601.2c) where that thing misfits the choice made too.

What ``explain`` and ``step`` say that holds only of legal choices (a misfit of every legal choice
of d, 115.3 against every one) is owed by a proposal with a legal choice of d: tests/test_judge_63a.py.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from hypothesis import assume, event, example, given
from hypothesis import strategies as st
from triggerstack.model import EndlessLoop, Facts, Outcome, Scenario, compile_facts
from triggerstack.solver import DecisionKind, Stepper, TimeLimitReached, check, explain, outcomes

from .literal import Literal
from .property.strategies import LINKED_BOUNDS, NAMED_FILTERS, SETTINGS, after_leaving, scenarios
from .property.strategies import _linked_filter as linked_filter
from .property.test_agreement import size_bound

pytestmark = pytest.mark.usefixtures("cpu_clock")  # its time limits set inputs aside: the same ones on a busy machine

THING_BARS = frozenset(
    {"target-hexproof", "target-shroud", "target-protection", "target-restricted", "target-source", "target-self"}
)
"""Codes that bar a thing from a requirement whatever else the proposal chooses."""

BARS: list[tuple[str, Any] | None] = [
    None,
    None,
    None,
    ("hexproof", True),
    ("shroud", True),
    ("protection", [{}]),
    ("protection", [{"controller": "opponent"}]),
    ("left_game", True),
    ("cant_be_targeted_by", [{"source": {}, "controller": "opponent"}]),
]
"""What may bar a player from being chosen, drawn for each player (800.4a: never the first one's leaving)."""

NAMED: list[Any] = [f for f in NAMED_FILTERS if f != {"supertype": "legendary"}]
"""The generator's filters of a named requirement, but the one with no candidate ever (L never put)."""

PROPOSALS = 4
"""Proposals judged per board (each an illegal named choice with one thing for its reader)."""


@st.composite
def named_boards(draw: st.DrawFn) -> dict[str, Any]:
    """A small board of the project's generator, with one more ability whose description names
    another requirement's targets (``target_of``, in every shape of the generator), the named one
    first or second, sometimes to be different from its reader; players sometimes with shroud."""
    doc: dict[str, Any] = draw(scenarios(max_abilities=1))
    players = [p if isinstance(p, dict) else {"id": p} for p in doc["players"]]
    for i, p in enumerate(players):
        bar = draw(st.sampled_from(BARS))
        if bar is not None and (i or bar[0] != "left_game"):
            p[bar[0]] = copy.deepcopy(bar[1])
    doc["players"] = players
    ids = [p["id"] for p in players]
    for who in sorted({ids[0], ids[-1]}):  # a creature and a card of two players: a choice often fits
        doc["objects"].append({"id": f"c{who}", "controller": who, "types": ["creature"]})
        doc["objects"].append(
            {"id": f"g{who}", "kind": "card", "zone": "graveyard", "owner": who, "types": ["creature"]}
        )
    lo, hi = draw(st.sampled_from(LINKED_BOUNDS))
    named: dict[str, Any] = {"id": "d", "min": lo, "max": hi, "filter": copy.deepcopy(draw(st.sampled_from(NAMED)))}
    lo, hi = draw(st.sampled_from([(1, 1), (1, 1), (0, 1), (1, 2)]))
    reader: dict[str, Any] = {"id": "r", "min": lo, "max": hi, "filter": linked_filter("d", draw(st.integers(0, 7)))}
    if draw(st.integers(0, 3)) == 0:
        reader["different_from"] = ["d"]
    reqs = [named, reader] if draw(st.booleans()) else [reader, named]
    t: dict[str, Any] = {"id": "L", "text": "L", "targets": reqs}
    on_field = [o["id"] for o in doc["objects"] if o.get("kind", "permanent") == "permanent"]
    sourced: bool = draw(st.booleans())
    if on_field and sourced:
        t["source"] = draw(st.sampled_from(on_field))
        reader["other_than_source"] = draw(st.integers(0, 3)) == 0
    else:
        t["controller"] = draw(st.sampled_from([p["id"] for p in players if not p.get("left_game")]))
    doc["triggers"] = [*doc["triggers"], t]
    doc.pop("must_target", None)  # "must target" over a changed choice is test_literal's
    return after_leaving(doc)


def _entry(o: dict[str, Any]) -> dict[str, Any] | None:
    return next((e for e in o["stack"] if e["ability"] == "L"), None)


def _illegal_named(lit: Literal, o: dict[str, Any], rnd: random.Random) -> list[tuple[str, list[str]]]:
    """Choices for ``d`` that break a rule of ``d`` itself (what its reader chose aside), each with
    what it breaks: a bar of the thing, an ability not yet below, a count, or a target ``r`` holds
    where the two must differ."""
    entry = _entry(o)
    assert entry is not None
    reqs = {r["id"]: r for r in lit.by_id["L"]["targets"]}
    below = {e["ability"] for e in o["stack"][: o["stack"].index(entry)]}
    held = list(entry.get("targets", {}).get("d", []))
    out: list[tuple[str, list[str]]] = []
    for x in lit.order:
        bars = lit.bars("L", reqs["d"], lit.things[x], None)
        if x in lit.by_id and x != "L" and x not in below:
            bars.add("target-not-yet-on-stack")
        if bars:
            out.append(("+".join(sorted(bars)), [*held[:-1], x] if held and rnd.random() < 0.5 else [x]))
    if reqs["d"]["min"] >= 1:
        out.append(("none", []))
    top = reqs["d"]["max"]
    pool = [x for x in lit.order if x not in held]
    if top is not None and 0 < top + 1 - len(held) <= len(pool):
        out.append(("too many", [*held, *rnd.sample(pool, top + 1 - len(held))]))
    mine = entry.get("targets", {}).get("r", [])
    if mine and "d" in reqs["r"].get("different_from", []):
        out.append(("the reader's", [rnd.choice(mine)]))
    return out


def _proposal(o: dict[str, Any], d: list[str], r: list[str]) -> dict[str, Any]:
    p = copy.deepcopy(o)
    entry = _entry(p)
    assert entry is not None
    entry["targets"] = {"d": d, "r": r}
    return p


def _readers(lit: Literal, d: list[str], rnd: random.Random) -> list[tuple[str, list[str]]]:
    """For ``r``: one thing that fits its description with ``d`` chosen and one that does not."""
    req = next(r for r in lit.by_id["L"]["targets"] if r["id"] == "r")
    chosen = {"d": set(d)}
    fit = [x for x in lit.order if lit.matches(req["filter"], lit.things[x], lit.controller["L"], chosen)]
    unfit = [x for x in lit.order if x not in fit]
    return [(how, [rnd.choice(group)]) for how, group in (("fits", fit), ("misfits", unfit)) if group]


def _told(facts: Facts, p: dict[str, Any]) -> set[tuple[str, str, str]]:
    verdict = check(facts, Outcome.model_validate(p), time_limit=20)
    return {(v.ability or "", v.code.value, v.rule.value) for v in verdict.violations}


def _why_not(facts: Facts, o: dict[str, Any], things: dict[str, set[str]]) -> dict[tuple[str, str], tuple[str, str]]:
    """What ``step`` says (code, rule) of each thing of ``things`` (requirement id → things) where
    the walk to ``o`` clicks a target of that requirement, refused for a rule and not "further on"."""
    stepper = Stepper(facts)
    entry = _entry(o)
    assert entry is not None
    held = {t: rid for rid, ts in entry.get("targets", {}).items() for t in ts}
    out: dict[tuple[str, str], tuple[str, str]] = {}
    walk = stepper.start()
    for dec in stepper.decisions_for(Outcome.model_validate(o)):
        hand = stepper.in_hand(walk) if dec.kind is DecisionKind.TARGET else None
        rid = held.get(dec.subject, "") if hand is not None and hand[0] == "L" else ""
        offered = {y.text for y in stepper.legal(walk)} if rid in things else set()
        for x in things.get(rid, set()) - {dec.subject}:
            if f"target {x}" not in offered:
                why = stepper.why_illegal(walk, stepper.decision(f"target {x}"))
                if not why.later and why.code is not None and why.rule is not None:
                    out[rid, x] = (why.code.value, why.rule.value)
        walk = stepper.apply(walk, dec)
    return out


def _graveyard_creature(oid: str, *, owner: str = "P0", **more: Any) -> dict[str, Any]:
    return {"id": oid, "kind": "card", "zone": "graveyard", "owner": owner, "types": ["creature"], **more}


_GUARDED: dict[str, Any] = {"hexproof": True, "shroud": True, "protection": [{"color": "red"}]}
LINKED_PLAYER_HEXPROOF: dict[str, Any] = {
    "rules": "seed",
    "players": [
        {"id": "P0", "hexproof": True},
        {"id": "P1", "hexproof": True, "left_game": True},
        {"id": "P2", "hexproof": True, "left_game": True},
        {"id": "P3", "hexproof": True},
    ],
    "objects": [
        _graveyard_creature("o0", **_GUARDED, hexproof_from=[{"color": "red"}]),
        _graveyard_creature("o1", **_GUARDED),
        {"id": "o2", "controller": "P1", "types": ["creature"], "colors": [], "hexproof": True, "shroud": True},
        _graveyard_creature("o3", **_GUARDED),
        {"id": "cP0", "controller": "P0", "types": ["creature"]},
        _graveyard_creature("gP0"),
        {"id": "cP3", "controller": "P3", "types": ["creature"]},
        _graveyard_creature("gP3", owner="P3"),
    ],
    "triggers": [
        {
            "id": "L",
            "text": "L",
            "targets": [
                {"id": "r", "min": 1, "max": 1, "filter": {"type": "creature", "controller": {"target_of": "d"}}},
                {"id": "d", "min": 0, "max": None, "filter": {"any": [{"kind": "player"}, {"type": "creature"}]}},
            ],
            "controller": "P0",
        }
    ],
}
"""Stop 79's CI: o2 (hexproof, 702.11b) for r, whose controller P1 (hexproof as a player, 702.11c)
must be a target of d. Explain tells o2's own hexproof and, of the ways of choosing o2 where d
takes P1, P1's: the same code under another rule, which a proposal with d = [o2] does not break."""


@SETTINGS
@example(doc=LINKED_PLAYER_HEXPROOF, seed=0)
@given(doc=named_boards(), seed=st.integers(0, 2**16))
def test_an_illegal_named_choice_is_judged_as_the_literal_reading_and_every_door_tells_it(
    doc: dict[str, Any], seed: int
) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    assume(size_bound(facts) <= 400)
    try:
        found = [o.model_dump(mode="json", exclude_none=True) for o in outcomes(facts, limit=3, time_limit=20)]
        placed = [o for o in found if _entry(o) is not None]
        assume(placed)  # L is put on the stack in one of the first legal outcomes
        told = explain(facts, time_limit=20)
    except (TimeLimitReached, EndlessLoop):
        assume(False)
        raise
    lit = Literal(doc)
    rnd = random.Random(seed)
    o = rnd.choice(placed)
    report = next(a for a in told["abilities"] if a["id"] == "L")["modes"][0]["requirements"]
    excluded: dict[tuple[str, str], set[tuple[str, str]]] = {}
    for r in report:
        for e in r["excluded"]:
            excluded.setdefault((r["id"], e["id"]), set()).add((e["code"], e["rule"]))
    pairs = [(why, d, how, r) for why, d in _illegal_named(lit, o, rnd) for how, r in _readers(lit, d, rnd)]
    rnd.shuffle(pairs)
    pairs.sort(key=lambda pair: "target-filter" in pair[0])  # the thing's other bars first: its reader may fit it
    pairs = pairs[:PROPOSALS]
    steps = _why_not(facts, o, {"d": {d[-1] for _, d, _, _ in pairs if d}, "r": {r[0] for _, _, _, r in pairs}})
    for why, d, how, r in pairs:
        event(f"named choice: {why}")
        event(f"its reader's thing {how} it")
        p = _proposal(o, d, r)
        said = _told(facts, p)
        literal = lit.violations(p)
        assert {(a, c) for a, c, _ in said} == literal, (p, said, literal)
        # the doors: a reason that bars a thing whatever else is chosen is told of this proposal
        for rid, x in (("d", d[-1] if d else ""), ("r", r[0])):
            step = {steps[rid, x]} if (rid, x) in steps else set()
            req = next(q for q in lit.modes("L")[0][1] if q["id"] == rid)
            own = lit.bar_rules("L", req, lit.things[x], {}) if x in lit.things else set()
            for code, rule in excluded.get((rid, x), set()) | step:
                # the thing's own bar, by code and rule: explain also tells what bars the targets that
                # make it fit (d's hexproof), in some of the ways of choosing it — a player's hexproof
                # is the code of a permanent's own under another rule (702.11c, 702.11b: stop 79's CI)
                if code in THING_BARS and (code, rule) in own:
                    assert ("L", code, rule) in said, (p, rid, x, code, rule, said)
        if ("target-filter", "601.2c") in excluded.get(("r", r[0]), set()) and how == "misfits":
            assert ("L", "target-filter", "601.2c") in said, (p, said)
