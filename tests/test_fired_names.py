"""A name told "has not triggered" is one a reaction could fire: a chain ``R@…@A`` of reactions down
to an ability of the first pass (docs/formats.md, reactions: "fires the reaction as the ability
``REACTION@ABILITY``"). ``check`` told ``WARD@troll`` (an object), ``WARD@X`` (no ability) and
``WARD@`` "not a thing of this pass: it has not triggered", reading only the part before the first
``@`` (found by helper 70a). Now such a name is no thing of the scenario, said as any unknown name is.

Private unit: none (the public ``check`` on the ward example).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario
from triggerstack.solver import check

from .conftest import EXAMPLES

WARD = Scenario.load(str(EXAMPLES / "ward" / "scenario.yaml"))


@given(parts=st.lists(st.sampled_from(["WARD", "T", "troll", "X", ""]), min_size=2, max_size=4))
def test_a_name_is_told_not_triggered_only_where_a_reaction_could_fire_it(parts: list[str]) -> None:
    name = "@".join(parts)
    could = all(p == "WARD" for p in parts[:-1]) and parts[-1] == "T"
    proposal = Outcome.model_validate(
        {"stack": [{"ability": "T", "targets": {"c": [name]}, "divide": {"c": {name: 2}}}]}
    )
    texts = [v.message for v in check(WARD, proposal).violations if v.code == "target-unknown"]
    assert texts, name
    assert any("has not triggered" in t for t in texts) == could, (name, texts)
