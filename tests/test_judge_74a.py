"""No reason explain gives is one way's words said of ways it is not true of.

The mechanisms this holds (stop 74), each found where explain says why a mode or a thing is never
chosen (docs/formats.md, "Explanation"):

* Past the ways a judge judges (512, or 20,000 legal choices read), each reason was told in the
  words of the first way judged that broke it. Five modes that must each target a different
  creature among four: explain told a judge asking why c1 is never chosen for m0 "T: c0 is a
  target of T's mode m1, T's mode m2, T's mode m3 and T's mode m4" — true of one proposal, where
  another shares c2.
* Words every way judged gives are no better there: the first 512 ways of a product keep its first
  instance's target, so "c0 is a target of T's mode m0, T's mode m1 and T's mode m2" was common to
  them, and false of m0 on c5 beside m1 and m2 on c0 (found by a helper's audit).
* With no legal choice, a judge's proposals took the mode with the first other modes only, and
  called them every way: three modes that each target only c0, two chosen, and m0's reason was
  "c0 is a target of both T's mode m0 and T's mode m1", where m0 with m2 is told m2.

Now past the ways judged a reason is said in its code's clause, counted ("in each of the 512 ways
judged of choosing c1 (not every way was judged), two modes … share a target"), and the proposals
take the mode with each set of the others. Each sentence still in a way's own words is held to
``check`` on ways drawn at random — the mode with any others, each target fitting its mode.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario
from triggerstack.solver import check, explain

from .property.strategies import SETTINGS
from .test_judge_65a import clause_of_ways

FILTERS = ("any", "only", "but")
"""A mode's filter: any creature, only creature c0, or any creature but c0."""


def _filter(kind: str) -> dict[str, Any]:
    filters: dict[str, dict[str, Any]] = {
        "any": {"type": "creature"},
        "only": {"type": "creature", "id": "c0"},
        "but": {"type": "creature", "not": {"id": "c0"}},
    }
    return filters[kind]


def _fits(kind: str, creatures: list[str]) -> list[str]:
    return {"any": creatures, "only": creatures[:1], "but": creatures[1:]}[kind]


def _board(kinds: list[str], choose: int, creatures: int) -> Scenario:
    """Modes of "target creature" (each its filter), ``choose`` of them, each a different target (700.2)."""
    objects = [{"id": "src", "controller": "A", "types": ["artifact"]}]
    objects += [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(creatures)]
    modes = [{"id": f"m{i}", "targets": [{"id": "t", "text": "target creature", "filter": _filter(kind)}]}
             for i, kind in enumerate(kinds)]  # fmt: skip
    trigger = {"id": "T", "source": "src", "modal": {"choose": [choose], "distinct_targets": True}, "modes": modes}
    return Scenario.model_validate({"players": ["A", "B"], "objects": objects, "triggers": [trigger]})


def _proposal(chosen: list[tuple[int, str]]) -> Outcome:
    modes = [{"mode": f"m{k}", "targets": {"t": [t]}} for k, t in sorted(chosen)]
    return Outcome.model_validate({"stack": [{"ability": "T", "modes": modes}]})


@st.composite
def boards(draw: st.DrawFn) -> tuple[list[str], int, int]:
    """Either every mode alike, more of them chosen than creatures (past the ways judged: more than 512
    ways where five modes share four creatures), or modes of mixed filters, some of them chosen."""
    if draw(st.booleans()):
        k = draw(st.integers(5, 6))
        return ["any"] * k, k, k - draw(st.integers(1, 2))
    kinds = draw(st.lists(st.sampled_from(FILTERS), min_size=3, max_size=6))
    return kinds, draw(st.integers(2, len(kinds))), draw(st.integers(2, 6))


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 4))  # each explains a board past 512 ways or not
@given(board=boards(), data=st.data())
def test_no_reason_explain_gives_is_one_ways_words(board: tuple[list[str], int, int], data: st.DataObject) -> None:
    kinds, choose, n = board
    scenario = _board(kinds, choose, n)
    creatures = [f"c{i}" for i in range(n)]
    told = explain(scenario).to_json()["abilities"][0]
    for at, mode in enumerate(told["modes"]):
        (req,) = mode["requirements"]
        asked: list[tuple[str, str | None, str]] = []
        if mode["status"] == "illegal":
            asked.append((f"T's mode {mode['id']}", None, mode["reason"]))
        asked += [(x["id"], x["id"], x["reason"]) for x in req["excluded"] if x["id"] in creatures]
        for what, thing, sentence in asked:
            if "each mode must target a different one" not in sentence or clause_of_ways(sentence, what):
                continue
            # in a way's own words: what check says of every way of choosing it that shares a target —
            # the mode with any others, each target fitting its mode (docs/formats.md, "Explanation")
            for _ in range(6):
                others = [k for k in range(len(kinds)) if k != at and _fits(kinds[k], creatures)]
                with_it = data.draw(st.permutations(others), label="others")[: choose - 1]
                chosen = [(at, thing or data.draw(st.sampled_from(_fits(kinds[at], creatures))))]
                chosen += [(k, data.draw(st.sampled_from(_fits(kinds[k], creatures)), label=f"m{k}")) for k in with_it]
                verdict = check(scenario, _proposal(chosen))
                if "mode-distinct-targets" in {v.code.value for v in verdict.violations}:
                    said = {v.message for v in verdict.violations}
                    assert any(s == sentence or s.endswith(": " + sentence) or _names_all(s, sentence) for s in said), (
                        what, sentence, said,
                    )  # fmt: skip


def _names_all(said: str, sentence: str) -> bool:
    """Whether check's ``said`` of a way tells the thing explain's ``sentence`` names shared by every
    instance it names, and more: explain's ways are legal choices with the thing in place (m5 may
    take only c0, so c0 is always m5's), and this draws any others too (m1–m4 on c0 beside them), of
    which the sentence is true but not whole ("c0 is a target of both T's mode m0 and T's mode m5"
    beside "c0 is a target of T's mode m0, …, m5"; a clean-clone run drew it)."""
    head, _, _ = sentence.partition(" is a target of ")
    named = re.findall(r"T's mode m\d+(?: \(\w+ of \d+\))?", sentence)
    return said.startswith(head + " is a target of ") and bool(named) and all(n in said for n in named)
