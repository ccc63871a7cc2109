"""A requirement's candidates and its exclusions are two readings of the same rules (601.2c's
filter, 115.3 "another", 115.5 itself, 702 hexproof, shroud, protection, ward's kin): compiling
finds the candidates fast, without reasons, and the reasons are told only when ``check``,
``explain`` or an illegal decision asks (model/_facts.py, ``_requirement`` and ``_exclusions``).
They must partition the things, and every thing left out must have a reason: a fast path that
forgets a restriction, or a reason that names a candidate, fails here."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from triggerstack.model import Scenario, compile_facts

from .strategies import SETTINGS, scenarios


@SETTINGS
@given(doc=st.one_of(scenarios(), scenarios(max_abilities=4, reactions=True), scenarios(linked=True)))
def test_candidates_and_exclusions_partition_the_things(doc: dict[str, Any]) -> None:
    facts = compile_facts(Scenario.model_validate(doc))
    everything = set(range(len(facts.things)))
    for a in facts.abilities:
        for m in a.modes:
            for r in m.requirements:
                candidates, excluded = set(r.candidates), set(r.excluded)
                where = f"{a.id}, mode {m.index}, {r.id}"
                assert not candidates & excluded, f"{where}: excluded candidates {sorted(candidates & excluded)}"
                assert candidates | excluded == everything, (
                    f"{where}: neither {sorted(everything - candidates - excluded)}"
                )
                assert all(r.excluded[i] for i in excluded), f"{where}: an exclusion without a reason"
