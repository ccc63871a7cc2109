"""Canonical outcome form (docs/formats.md, Proposal and outcome): idempotent, independent of listing order, byte-identical JSON.

Private unit: model/_outcome.py built_outcome, built_entry and built_mode, the engines' constructors from parts
already built, held to pydantic's model_construct; model/_passes.py _with_triggers, the "must target" effects
kept with some of a scenario's triggers; model/_shapes.py Filter, the keys a filter gives."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, canonical, outcome_json
from triggerstack.model._outcome import Entry, ModeChoice, built_entry, built_mode, built_outcome
from triggerstack.model._passes import _with_triggers
from triggerstack.model._shapes import Filter
from triggerstack.solver import count

from .conftest import EXAMPLES
from .property.strategies import FILTERS, scenarios

SCENARIO = Scenario.load(str(EXAMPLES / "vindictive-lich" / "scenario.yaml"))
TARGETS = ["D", "C", "B", "A", "lich", "L", "zz"]


@st.composite
def outcomes(draw: st.DrawFn) -> Outcome:
    modes = draw(
        st.lists(
            st.fixed_dictionaries(
                {
                    "mode": st.sampled_from(["sacrifice", "discard", "life", "other"]),
                    "targets": st.fixed_dictionaries({"opponent": st.lists(st.sampled_from(TARGETS), max_size=3)}),
                }
            ),
            max_size=4,
        )
    )
    removed = draw(st.lists(st.sampled_from(["L", "X", "A1"]), max_size=3))
    return Outcome.model_validate({"stack": [{"ability": "L", "modes": modes}], "removed": removed})


def _shuffled(outcome: Outcome, rnd: Any, empty: str | None = None) -> Outcome:
    """``outcome`` listed in another order: its modes, each requirement's targets and the removed
    abilities shuffled (and, with ``empty``, a requirement of that name listed with no target)."""
    data = json.loads(outcome.model_dump_json())
    for entry in data["stack"]:
        rnd.shuffle(entry["modes"])
        for m in entry["modes"]:
            for ts in m["targets"].values():
                rnd.shuffle(ts)
            if empty is not None:
                m["targets"][empty] = []
    rnd.shuffle(data["removed"])
    return Outcome.model_validate(data)


@settings(max_examples=settings().max_examples * 2 // 3, deadline=None)
@given(outcomes(), st.randoms())
def test_canonical_is_idempotent_and_order_free(outcome: Outcome, rnd: object) -> None:
    once = canonical(SCENARIO, outcome)
    assert canonical(SCENARIO, once) == once
    shuffled = _shuffled(outcome, rnd)
    assert outcome_json(canonical(SCENARIO, shuffled)) == outcome_json(once)


def test_canonical_order() -> None:
    raw = Outcome.model_validate(
        {
            "stack": [
                {
                    "ability": "L",
                    "modes": [
                        {"mode": "life", "targets": {"opponent": ["C"]}},
                        {"mode": "sacrifice", "targets": {"opponent": ["B"]}},
                    ],
                }
            ],
            "removed": [],
        }
    )
    assert outcome_json(canonical(SCENARIO, raw)) == (
        '{"removed":[],"stack":[{"ability":"L","modes":[{"mode":"sacrifice","targets":{"opponent":["B"]}},'
        '{"mode":"life","targets":{"opponent":["C"]}}]}]}'
    )


@settings(max_examples=settings().max_examples * 2 // 3, deadline=None)
@given(outcomes(), st.randoms())
def test_equal_by_value_however_listed(outcome: Outcome, rnd: object) -> None:
    """README, docs/python.md: outcomes are values — equal and hashed alike whatever order the
    targets, modes and removed abilities are listed in, and equal to their canonical form (issue
    20 item 4: a reordered outcome was != and hashed apart while check and `in` accepted it)."""
    shuffled = _shuffled(outcome, rnd, empty="unused")  # an empty requirement may be omitted or [] (docs/formats.md, Proposal and outcome)
    assert shuffled == outcome and hash(shuffled) == hash(outcome)
    assert canonical(SCENARIO, outcome) == outcome and hash(canonical(SCENARIO, outcome)) == hash(outcome)
    assert len({outcome, shuffled, canonical(SCENARIO, shuffled)}) == 1


@settings(max_examples=settings().max_examples // 2, deadline=None)
@given(outcomes(), outcomes(), st.booleans())
def test_a_copy_with_changes_is_the_value_it_lists_even_after_the_original_was_hashed(
    outcome: Outcome, other: Outcome, deep: bool
) -> None:
    """A value is computed once and kept (model/_outcome.py ``_cached``); pydantic's
    ``model_copy(update=...)`` copied that kept value with the fields, so a renamed copy of an
    entry hashed before was equal to the original. Every kind of value, copied with the fields of
    another, is what validating its fields gives."""
    pairs = [(outcome, other), (outcome.stack[0], other.stack[0])]
    if outcome.stack[0].modes and other.stack[0].modes:
        pairs.append((outcome.stack[0].modes[0], other.stack[0].modes[0]))
    for one, two in pairs:
        hash(one), hash(two)  # each keeps its value
        fields = dict(two)
        copied = one.model_copy(update=fields, deep=deep)
        fresh = type(one).model_validate(two.model_dump())
        assert copied == fresh and hash(copied) == hash(fresh)
        assert (copied == one) == (fresh == one)


@settings(max_examples=settings().max_examples // 2, deadline=None)
@given(scenarios(max_abilities=4), st.data())
def test_a_scenario_copied_with_changes_is_the_scenario_its_fields_make(doc: dict[str, Any], data: st.DataObject) -> None:
    """The same mechanism on a scenario: what is derived from its fields once (the facts
    ``facts_of`` keeps, each waiting ability's controller) was copied by ``model_copy(update=...)``
    with the fields the update replaced, so ``count`` of a copy with fewer triggers gave the
    original's count. A copy with some of the triggers is counted and controlled as the document
    of its fields validated anew."""
    scenario = Scenario.model_validate(doc)
    count(scenario)  # its facts compiled and kept
    mask = data.draw(st.lists(st.booleans(), min_size=len(scenario.triggers), max_size=len(scenario.triggers)))
    kept = [t for t, keep in zip(scenario.triggers, mask, strict=True) if keep]
    must = _with_triggers(scenario.model_dump(by_alias=True), kept)["must_target"]  # those still naming what is there
    copied = scenario.model_copy(update={"triggers": kept, "must_target": must})
    fresh = Scenario.model_validate({**doc, "triggers": [t.model_dump(by_alias=True) for t in kept], "must_target": must})
    assert count(copied) == count(fresh)
    assert copied.controls == fresh.controls


@given(st.sampled_from(FILTERS), st.sampled_from(FILTERS))
def test_a_filter_copied_with_changes_gives_the_keys_it_now_has(one: Any, two: Any) -> None:
    """A filter keeps the keys it gives (``Filter.given_keys``, read when compiling), which
    pydantic's copy copied as they were: a copy with another's fields gives that one's keys."""
    if isinstance(one, str) or isinstance(two, str):
        return  # a named filter ("any-target") is no mapping of keys
    first, second = Filter.model_validate(one), Filter.model_validate(two)
    fields = {name: getattr(second, name) for name in type(second).model_fields}
    copied = first.model_copy(update=fields)
    assert copied.given_keys == second.given_keys and copied == second  # equal: pydantic compares what each keeps


def test_what_differs_is_unequal() -> None:
    """Another target, another mode, a repeated mode, another stack order or removed set is
    another outcome."""
    base = {"stack": [{"ability": "L", "modes": [{"mode": "life", "targets": {"opponent": ["B"]}}]}], "removed": []}
    one = Outcome.model_validate(base)
    others = [
        {"stack": [{"ability": "L", "modes": [{"mode": "life", "targets": {"opponent": ["C"]}}]}], "removed": []},
        {"stack": [{"ability": "L", "modes": [{"mode": "discard", "targets": {"opponent": ["B"]}}]}], "removed": []},
        {
            "stack": [{"ability": "L", "modes": [{"mode": "life", "targets": {"opponent": ["B"]}}] * 2}],
            "removed": [],
        },
        {**base, "removed": ["X"]},
        {"stack": [{"ability": "L", "targets": {"opponent": ["B"]}}], "removed": []},
    ]
    for other in others:
        assert Outcome.model_validate(other) != one, other


def test_omitted_passes_are_the_ones_the_ids_say() -> None:
    """docs/formats.md, Proposal and outcome: a proposal may omit passes; it is then the same outcome as the one that lists them
    (an ability fired in pass n + 1 has n '@'), and a different split is another outcome."""
    ward = Scenario.load(str(EXAMPLES / "ward" / "scenario.yaml"))
    from triggerstack.solver import LegalOutcomes

    legal = LegalOutcomes(ward)
    multi = [o for o in legal if o.passes is not None]
    assert multi
    for o in multi:
        bare = Outcome.model_validate({"stack": [e.model_dump() for e in o.stack], "removed": list(o.removed)})
        assert bare.passes is None and bare == o and hash(bare) == hash(o) and bare in legal
        assert bare in set(legal)
        split = Outcome.model_validate({**o.model_dump(), "passes": [len(o.stack)]})
        assert split != o and split not in legal


@given(outcome=outcomes(), passes=st.sampled_from([(), (None,), ((1, 2),)]))
def test_an_outcome_built_from_parts_is_what_model_construct_gives(outcome: Outcome, passes: tuple[Any, ...]) -> None:
    """The engines' outcomes (``built_outcome``) are ``Outcome.model_construct`` 's in every respect a
    model has — fields, fields set, private state, extra — and so equal, hash, dump and compare alike."""
    built = built_outcome(outcome.stack, outcome.removed, *passes)
    named = {"passes": passes[0]} if passes else {}
    made = Outcome.model_construct(stack=outcome.stack, removed=outcome.removed, **named)
    assert built.__dict__ == made.__dict__ and built.model_fields_set == made.model_fields_set
    assert built.__pydantic_private__ == made.__pydantic_private__ and built.__pydantic_extra__ == made.__pydantic_extra__
    assert built == made and hash(built) == hash(made) and outcome_json(built) == outcome_json(made)
    assert built.model_dump(exclude_unset=True) == made.model_dump(exclude_unset=True)


def _alike(built: Any, made: Any) -> None:
    assert built.__dict__ == made.__dict__ and built.model_fields_set == made.model_fields_set
    assert built.__pydantic_private__ == made.__pydantic_private__ and built.__pydantic_extra__ == made.__pydantic_extra__
    assert built == made and hash(built) == hash(made)


@given(outcome=outcomes())
def test_an_entry_and_a_mode_built_from_parts_are_what_model_construct_gives(outcome: Outcome) -> None:
    for e in outcome.stack:
        modes = None if e.modes is None else tuple(built_mode(m.mode, m.targets, m.divide) for m in e.modes)
        for m, b in zip(e.modes or (), modes or (), strict=True):
            _alike(b, ModeChoice.model_construct(mode=m.mode, targets=m.targets, divide=m.divide))
        _alike(built_entry(e.ability, modes, e.targets, e.divide), Entry.model_construct(ability=e.ability, modes=modes, targets=e.targets, divide=e.divide))
