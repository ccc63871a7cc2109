"""Past the ways a judge judges, no reason explain gives is one way's words said alone.

The mechanism this holds (stop 74): where a thing can be chosen more ways than explain judges
(512 ways, or 20,000 legal choices read: docs/formats.md, "Explanation"), each reason it told was in
the words of the first way judged that broke it. Five modes that must each target a different
creature among four: every way shares a target (700.2), and explain told a judge asking why c1 is
never chosen for mode m0 "T: c0 is a target of T's mode m1, T's mode m2, T's mode m3 and T's mode
m4" — true of one proposal, where another shares c2. Now a reason is said in the words every way
judged gives, or in its code's clause said of the ways judged, counted ("in each of the 512 ways
judged of choosing c1 (not every way was judged), two modes … share a target").

The boards are drawn past the cut (k modes among k - 1 or k - 2 creatures, k ≥ 5: more than 512
ways), and each reason is held to ``check`` on proposals drawn at random with the thing in place:
a sentence in a way's own words must be what ``check`` says of each of them that breaks its code.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario
from triggerstack.solver import check, explain

from .property.strategies import SETTINGS


def _board(k: int, creatures: int) -> Scenario:
    objects = [{"id": "src", "controller": "A", "types": ["artifact"]}]
    objects += [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(creatures)]
    modes = [{"id": f"m{i}", "targets": [{"id": "t", "text": "target creature", "filter": {"type": "creature"}}]}
             for i in range(k)]  # fmt: skip
    trigger = {"id": "T", "source": "src", "modal": {"choose": [k], "distinct_targets": True}, "modes": modes}
    return Scenario.model_validate({"players": ["A", "B"], "objects": objects, "triggers": [trigger]})


def _clause(sentence: str, what: str) -> bool:
    """A code's clause said of the ways of choosing ``what`` (every way, or the ways judged)."""
    return f": in each way of choosing {what}, " in sentence or (
        f" ways judged of choosing {what} (not every way was judged), " in sentence
    )


def _proposal(targets: list[str]) -> Outcome:
    modes = [{"mode": f"m{i}", "targets": {"t": [t]}} for i, t in enumerate(targets)]
    return Outcome.model_validate({"stack": [{"ability": "T", "modes": modes}]})


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 20, 4))
@given(k=st.integers(5, 6), fewer=st.integers(1, 2), data=st.data())
def test_no_reason_past_the_ways_judged_is_one_ways_words(k: int, fewer: int, data: st.DataObject) -> None:
    creatures = [f"c{i}" for i in range(k - fewer)]
    told = explain(_board(k, len(creatures))).to_json()["abilities"][0]
    assert told["removal"] == "must" and told["removal_rule"] == "603.3d"  # 700.2: k modes, fewer creatures
    for at, mode in enumerate(told["modes"]):
        (req,) = mode["requirements"]
        asked = [(f"T's mode {mode['id']}", None, [mode["reason"]])]
        asked += [(x["id"], x["id"], [x["reason"]]) for x in req["excluded"] if x["id"] in creatures]
        for what, thing, sentences in asked:
            for _ in range(6):  # proposals drawn at random, the thing in place: each a way of choosing it
                targets = data.draw(st.lists(st.sampled_from(creatures), min_size=k, max_size=k), label="targets")
                if thing is not None:
                    targets[at] = thing
                verdict = check(_board(k, len(creatures)), _proposal(targets))
                said = {v.message for v in verdict.violations}
                assert not verdict.legal
                for sentence in sentences:
                    if "each mode must target a different one" in sentence and not _clause(sentence, what):
                        # in a way's own words: what check says of every way that shares a target
                        assert any(s == sentence or s.endswith(": " + sentence) for s in said), (what, sentence, said)
