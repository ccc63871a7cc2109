"""Whether an ability has a legal choice is answered without a search that visits every partial
choice, and every search that remains ends within the call's time limit.

The mechanism this holds (stop 65): ``check`` asked 603.3d of a placed entry, and of a removed one,
by a backtracking search that stopped only at the first legal choice and never read the deadline,
so where there is none it visited every partial choice: eleven modes that must target eleven
different creatures among ten took 82 s of ``check --time-limit 5``, twelve never ended, and
``explain`` of the same scenario the same (its "why never chosen" listed the choices the same
way). ``count`` answered in half a second: a programme counts such choices. Now the question has
one home that counts (``has_legal_choice``, a mode's legality by its programme), and the search
left for an example choice reads the deadline at every step.

The shapes are the three ways a search meets a pigeonhole — modes that must target different
things, requirements that must differ, and independent requirements before one with no candidate —
at sizes drawn by hypothesis; what each verb says is what the rules demand of them (700.2, 115.3,
603.3c–d), not a recorded answer. None of this times anything: the CPU bound is a bound that a
search visiting every partial choice runs far past (minutes), and a busy machine does not move.
"""

from __future__ import annotations

from math import perm
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, compile_facts
from triggerstack.solver import Options, Stepper, check, count, explain

from .conftest import cpu_within

CPU_SECONDS = 60.0
"""Every verb on one scenario, together: a search over the partial choices of the largest drawn
shape takes minutes. The slowest shape drawn, modes_that_differ(9, 7), took 15 s of CPU on an
idle machine (explain judging why no thing is chosen, 17,761 proposals), 5.4 s since each proposal
is judged once, from an entry made for it alone (stop 74); CPU time grows on a busy machine too
(shared caches and cores: 22.7 s there against 20 s allowed, one loaded run, stop 73), so the bound
is far above the idle figure: still far from minutes."""


def _board(k: int, creatures: int, trigger: dict[str, Any]) -> Scenario:
    objects = [{"id": "src", "controller": "A", "types": ["artifact"]}]
    objects += [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(creatures)]
    return Scenario.model_validate({"players": ["A", "B"], "objects": objects, "triggers": [trigger]})


def _target(rid: str, **more: Any) -> dict[str, Any]:
    return {"id": rid, "text": "target creature", "filter": {"type": "creature"}, **more}


def modes_that_differ(k: int, creatures: int) -> tuple[Scenario, int]:
    """Choose ``k`` modes, each "target creature", each a different target (700.2): k! choices
    among k creatures, none among fewer."""
    modes = [{"id": f"m{i}", "targets": [_target("t")]} for i in range(k)]
    trigger = {"id": "T", "source": "src", "modal": {"choose": [k], "distinct_targets": True}, "modes": modes}
    return _board(k, creatures, trigger), perm(creatures, k) if creatures >= k else 0


def targets_that_differ(k: int, creatures: int) -> tuple[Scenario, int]:
    """``k`` requirements, each different from every one before it (115.3 "another target")."""
    reqs = [_target(f"r{i}", different_from=[f"r{j}" for j in range(i)]) for i in range(k)]
    return _board(k, creatures, {"id": "T", "source": "src", "targets": reqs}), (
        perm(creatures, k) if creatures >= k else 0
    )


def nothing_for_the_last(k: int, creatures: int) -> tuple[Scenario, int]:
    """``k`` requirements of any number of creatures, then one that needs a planeswalker and has
    none: no choice, whatever the first ones take."""
    reqs: list[dict[str, Any]] = [_target(f"r{i}", min=0, max=None) for i in range(k)]
    reqs.append({"id": "last", "text": "target planeswalker", "filter": {"type": "planeswalker"}})
    return _board(k, creatures, {"id": "T", "source": "src", "targets": reqs}), 0


SHAPES = st.one_of(
    st.integers(9, 12).flatmap(lambda k: st.tuples(st.just(modes_that_differ), st.just(k), st.integers(k - 2, k))),
    st.integers(9, 12).flatmap(lambda k: st.tuples(st.just(targets_that_differ), st.just(k), st.integers(k - 2, k))),
    st.tuples(st.just(nothing_for_the_last), st.integers(3, 5), st.integers(12, 20)),
)


@settings(max_examples=8, deadline=None, derandomize=True)
@given(SHAPES)
def test_no_legal_choice_is_told_without_a_search_of_every_partial_one(shape: Any) -> None:
    make, k, creatures = shape
    scenario, choices = make(k, creatures)
    removed = Outcome.model_validate({"stack": [], "removed": ["T"]})
    put_bare = Outcome.model_validate({"stack": [{"ability": "T"}]})
    options = Options(time_limit=600.0)
    with cpu_within(CPU_SECONDS, f"{make.__name__}({k}, {creatures})"):
        # 603.3c–d: removed exactly when no legal choice exists
        assert count(scenario, options) == max(choices, 1)
        on_removal = check(scenario, removed, options)
        on_put = check(scenario, put_bare, options)
        told = explain(scenario, options).to_json()["abilities"][0]
        stepper = Stepper(compile_facts(scenario), options)
        first = [d.text for d in stepper.legal(stepper.start())]
    codes_put = {v.code for v in on_put.violations}
    if choices:
        assert [v.code for v in on_removal.violations] == ["removed-but-legal"]
        assert "placed-but-illegal" not in codes_put
        assert told["removal"] != "must"
        assert any("put T" in d for d in first), first
    else:
        assert on_removal.legal, on_removal.violations
        assert "placed-but-illegal" in codes_put  # a bare T chooses nothing: illegal, and it could choose nothing legal
        assert told["removal"] == "must" and told["removal_rule"] == "603.3d"
        assert not any("put T" in d for d in first), first
