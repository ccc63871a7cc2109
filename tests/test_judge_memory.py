"""What a judge's "why never chosen" keeps is bounded by the scenario's outcomes, not by how many
proposals it judges.

The mechanism this holds (stop 74): explain judges, for each mode and thing no legal outcome
chooses, the proposals a player could make with it — hundreds per thing where an ability has no
legal choice (twelve modes that must target twelve different creatures among eleven: 47,680) — and
each proposal's wire entry was made through the table that shares an outcome's entries between
outcomes. That table is bounded by its number of entries (65,536), not their size: an entry of
twelve modes is ~12 KB, so ``explain`` held 716 MB there (33 s of CPU) and 240 MB on nine modes
among seven creatures. A proposal is now judged from an entry made for it alone, and judged once
however many things ask (103 MB and 16 s; 67 MB and 6.6 s).

Private unit: the scenario's kept entries (solver/_core/indexed) that outcomes share."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Scenario
from triggerstack.solver import LegalOutcomes
from triggerstack.solver._core.indexed import _ENTRIES

from .property.strategies import SETTINGS


def _board(k: int, creatures: int, distinct: bool, targets: int) -> Scenario:
    """``k`` modes of "target creature" (each a different target where ``distinct``, 700.2), each
    chosen, among ``creatures``; or a non-modal ability with ``targets`` requirements that must differ."""
    objects = [{"id": "src", "controller": "A", "types": ["artifact"]}]
    objects += [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(creatures)]

    def target(rid: str, **more: Any) -> dict[str, Any]:
        return {"id": rid, "text": "target creature", "filter": {"type": "creature"}, **more}

    if targets:
        reqs = [target(f"r{i}", different_from=[f"r{j}" for j in range(i)]) for i in range(targets)]
        trigger: dict[str, Any] = {"id": "T", "source": "src", "targets": reqs}
    else:
        modes = [{"id": f"m{i}", "targets": [target("t")]} for i in range(k)]
        trigger = {"id": "T", "source": "src", "modal": {"choose": [k], "distinct_targets": distinct}, "modes": modes}
    return Scenario.model_validate({"players": ["A", "B"], "objects": objects, "triggers": [trigger]})


BOARDS = st.one_of(
    st.integers(2, 5).flatmap(lambda k: st.tuples(st.just(k), st.integers(max(k - 2, 1), k + 1), st.booleans(), st.just(0))),
    st.integers(2, 4).flatmap(lambda n: st.tuples(st.just(1), st.integers(max(n - 2, 1), n + 1), st.just(False), st.just(n))),
)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 10, 10))
@given(BOARDS)
def test_explain_keeps_no_entry_that_no_legal_outcome_holds(board: tuple[int, int, bool, int]) -> None:
    legal = LegalOutcomes(_board(*board))
    explained = legal.explain().to_json()
    never = [x for a in explained["abilities"] for m in a["modes"] for r in m["requirements"] for x in r["excluded"]]
    held = {entry for outcome in legal.outcomes() for entry in outcome.stack}
    kept = legal.facts.memo.get(_ENTRIES, {})
    # the kept entries are those of the legal outcomes (none, where the ability must be removed),
    # whatever explain judged to say why each thing is never chosen
    assert set(kept.values()) <= held, (len(kept), len(held), len(never))
