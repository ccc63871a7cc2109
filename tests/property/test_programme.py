"""Linked choices counted by the programme (solver/_core/_programme.py) are the choices the
cross-checks list, on generated boards.

For each ability whose targets are linked — ``different_from`` (115.3), ``target_of`` over a
controller or an owner (601.2c: the named requirement's whole choice), distinct targets across
modes (700.2), a "must target" effect (601.2c: the choices that obey the most effects, per set of
modes) — with every other waiting ability below it and with none: its space counts exactly the
choices python-constraint2 lists (its own formulation; maximality said again here), ``unrank``
and ``rank`` are inverse, the walk is rank order, and what it says some choice takes is what some
listed choice takes. On whole passes, the count is CP-SAT's and python-constraint2's.

Private unit: solver/_core/space and _programme (an ability's choice space, counted), held to the cross-check's listing (solver/_engines/constraint.ability_choices).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given, reject, settings
from hypothesis import strategies as st
from triggerstack.model import AbilityFacts, Facts, Scenario, compile_facts
from triggerstack.solver import EngineCannot, TimeLimitReached, count
from triggerstack.solver._core.indexed import Choice
from triggerstack.solver._core.space import Reach, is_independent, space_for
from triggerstack.solver._engines.constraint import ability_choices

from .strategies import SETTINGS

FILTERS: list[Any] = [
    {"type": "creature"},
    {"type": "creature"},
    {"kind": "player"},
    "any-target",
    {"any": [{"kind": "ability"}, {"kind": "player"}]},
    {"type": ["creature", "land"], "controller": "opponent"},
]
BOUNDS = [(1, 1), (1, 1), (0, 1), (0, 2), (1, 2), (0, None), (2, 2)]
LISTED = 50_000
"""The most choices an ability may have here: python-constraint2 lists them all, and so does the
walk (a board of millions drove CI's machine out of memory)."""


@st.composite
def _requirements(draw: st.DrawFn, most: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, most))):
        lo, hi = draw(st.sampled_from(BOUNDS))
        req: dict[str, Any] = {"id": f"r{i}", "min": lo, "max": hi, "filter": draw(st.sampled_from(FILTERS))}
        if len(out) > 0 and draw(st.booleans()):
            named = draw(st.sampled_from(out))["id"]
            of = {"target_of": named}
            key = draw(st.sampled_from(["controller", "owner"]))
            req["filter"] = draw(
                st.sampled_from(
                    [
                        {"type": "creature", key: of},
                        {"type": "creature", "not": {key: of}},
                        {"kind": "player", "not": {"controller": of}},
                        {"any": [{"kind": "player", "controller": of}, {"type": "land", key: of}]},
                    ]
                )
            )
        if out and draw(st.integers(0, 2)) == 0:
            req["different_from"] = [draw(st.sampled_from(out))["id"]]
        if draw(st.integers(0, 5)) == 0:
            amount = draw(st.integers(1, 3))
            req["divide"] = amount
            req["min"] = min(max(lo, 1), amount)
            req["max"] = None if hi is None else max(hi, req["min"])
        out.append(req)
    return out


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    """Up to three players, seven creatures and lands (controlled by one, owned by another), and
    one to three abilities whose targets are linked, some of them modal with distinct targets,
    some under a "must target" effect."""
    players = ["P0", "P1", "P2"][: draw(st.integers(1, 3))]
    objects = [
        {
            "id": f"o{i}",
            "controller": draw(st.sampled_from(players)),
            "owner": draw(st.sampled_from(players)),
            "types": [draw(st.sampled_from(["creature", "creature", "land"]))],
        }
        for i in range(draw(st.integers(0, 7)))
    ]
    triggers = []
    for k in range(draw(st.integers(1, 3))):
        t: dict[str, Any] = {"id": f"T{k}", "text": f"T{k}", "controller": draw(st.sampled_from(players))}
        if draw(st.booleans()):
            t["targets"] = draw(_requirements(3))
        else:
            n = draw(st.integers(2, 3))
            repeat = draw(st.integers(0, 4)) == 0
            choose = sorted(draw(st.sets(st.integers(0, 3 if repeat else n), min_size=1, max_size=3)) - {0}) or [1]
            t["modal"] = {"choose": choose, "repeat": repeat, "distinct_targets": draw(st.booleans())}
            t["modes"] = [{"id": f"m{j}", "targets": draw(_requirements(2))} for j in range(n)]
        triggers.append(t)
    doc: dict[str, Any] = {"players": players, "objects": objects, "triggers": triggers}
    if draw(st.booleans()):
        things = players + [o["id"] for o in objects] + [t["id"] for t in triggers]
        doc["must_target"] = [{"object": draw(st.sampled_from(things)), "applies_to": {}}]
    return doc


def _obeying(a: AbilityFacts, listed: list[Choice]) -> list[Choice]:
    """The choices that obey as many "must target" effects as any choice of the same modes (601.2c)."""
    if not a.must:
        return listed

    def obeyed(c: Choice) -> int:
        return sum(1 for t in a.must if t in set(c.things()))

    most: dict[tuple[int, ...], int] = {}
    for c in listed:
        modes = tuple(m.mode for m in c.modes)
        most[modes] = max(most.get(modes, 0), obeyed(c))
    return [c for c in listed if obeyed(c) == most[tuple(m.mode for m in c.modes)]]


def _expected(facts: Facts, a: AbilityFacts, below: frozenset[int]) -> list[Choice]:
    """python-constraint2's choices (every waiting ability below), those that target a waiting
    ability not in ``below`` dropped, then 601.2c's maximality."""
    first = facts.first_waiting
    try:  # python-constraint lists before 601.2c's maximality and the waiting abilities' filter: held to LISTED too
        raw = ability_choices(facts, a, LISTED)
    except EngineCannot:
        reject()
    listed = [c for c in raw if all(t < first or t - first in below for t in c.things())]
    return _obeying(a, listed)


@settings(SETTINGS, max_examples=min(SETTINGS.max_examples, 150))  # each lists up to LISTED choices twice
@given(doc=boards())
def test_linked_choices_are_what_python_constraint_lists(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    linked = [a for a in facts.abilities if not is_independent(a) and a.forced_removal is None]
    assume(linked)
    for a in linked:
        for below in (frozenset(range(len(facts.abilities))) - {a.index}, frozenset()):
            try:
                space = space_for(facts, a, below)
            except EngineCannot:  # a repeatable mode with distinct targets past --max-choices: refused by design
                reject()
            if space.count > LISTED:  # both sides list every choice: held to what fits in memory
                reject()
            expected = _expected(facts, a, below)
            assert space.count == len(expected)
            walked = list(space)
            assert sorted(walked) == sorted(expected) and len(set(walked)) == len(walked)
            for i in range(0, space.count, max(1, space.count // 20)):
                assert space.unrank(i) == walked[i], "the walk is in rank order"
                assert space.rank(walked[i]) == i
            reach, want = space.reach(), Reach()
            for c in expected:
                want.add(c)
            assert reach.modes == want.modes
            assert {k: v for k, v in reach.targets.items() if v} == {k: v for k, v in want.targets.items() if v}


@pytest.mark.slow
@settings(SETTINGS, max_examples=min(SETTINGS.max_examples, 100))
@given(doc=boards())
def test_linked_passes_count_as_cpsat_and_python_constraint(doc: dict[str, Any]) -> None:
    """Whole passes: abilities that may target each other below, each with linked choices. A board
    the product engine refuses (a mode it may repeat with distinct targets, past --max-choices:
    docs/architecture.md) or one the enumerating engines cannot list within 5 s is not a case."""
    scenario = Scenario.model_validate(doc)
    facts = compile_facts(scenario)
    assume(any(not is_independent(a) for a in facts.abilities))
    try:
        n = count(scenario)
        assume(n <= 1000)  # the solver engines enumerate
        checks = count(scenario, engine="constraint", time_limit=5), count(scenario, engine="cpsat", time_limit=5)
    except (EngineCannot, TimeLimitReached):
        reject()
    assert (n, n) == checks
