"""What ``check`` says of a division (601.2d) is true of the proposal as written: a name the
proposal chose as a target is never said to be "divided but not targeted", and one it did not
choose is never "targeted but given nothing" — the scenario knowing the name or not.

Found: with targets ``[elf, ghost]`` (no ghost in the scenario) and ``{elf: 2, ghost: 1}``, check
said "ghost divided but not targeted": the division was judged against the known targets only,
unknown names dropped before it (they are told apart, 601.2c ``target-unknown``), so a part given
to one read as a part given to a thing not chosen. Such a part is now said to be given to no
player, object or ability of the scenario; the codes are unchanged (the things targeted do not
get that part: the division is wrong).
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario
from triggerstack.solver import check

from .property.strategies import SETTINGS
from .test_judge_65a import divided

UNKNOWN = ("ghost", "wraith")


@st.composite
def proposals(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """A scenario dividing amounts, and a proposal putting each ability with targets and parts
    drawn among its things and names the scenario lacks."""
    doc = draw(divided())
    names = [p for p in doc["players"]] + [o["id"] for o in doc["objects"]] + list(UNKNOWN)
    stack = []
    for t in doc["triggers"]:
        targets = draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True))
        parts = draw(st.dictionaries(st.sampled_from(names), st.integers(0, 4), min_size=1, max_size=3))
        where = {"targets": {"r0": targets}, "divide": {"r0": parts}}
        stack.append({"ability": t["id"], **({"modes": [{"mode": "m0", **where}]} if "modes" in t else where)})
    return doc, {"stack": stack}


TARGETED_GHOST = (
    {
        "players": ["P0", "P1"],
        "objects": [{"id": "o0", "controller": "P1", "types": ["creature"]}],
        "triggers": [
            {
                "id": "T0",
                "controller": "P0",
                "targets": [{"id": "r0", "min": 1, "max": 2, "filter": "any-target", "divide": 3}],
            }
        ],
    },
    {"stack": [{"ability": "T0", "targets": {"r0": ["o0", "ghost"]}, "divide": {"r0": {"o0": 2, "ghost": 1}}}]},
)


@SETTINGS
@given(case=proposals())
@example(case=TARGETED_GHOST)
def test_what_check_says_of_a_division_is_true_of_the_names_the_proposal_chose(
    case: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    doc, proposal = case
    verdict = check(Scenario.model_validate(doc), Outcome.model_validate(proposal))
    chosen = {e["ability"]: set((e.get("modes") or [e])[0]["targets"]["r0"]) for e in proposal["stack"]}
    for v in verdict.violations:
        if v.code != "division":
            continue
        named = chosen[v.ability]
        for said in re.findall(r"(?:: |; )([\w, ]+?) divided but not targeted", v.message):
            assert not set(said.split(", ")) & named, v.message
        for said in re.findall(r"(?:: |; )([\w, ]+?) targeted but given nothing", v.message):
            assert set(said.split(", ")) <= named, v.message
