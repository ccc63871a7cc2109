"""At each of phase's prompts: the answers counted, ranked and drawn without listing, and the rest of
the batch (docs/phase.md, "At each prompt").

On the recorded fixtures (no phase needed): the ways to finish from each prompt are exactly the legal
outcomes of the whole batch that keep what phase has placed, the choices of the ability in hand and
the order phase was given — found here the slow way, by filtering every legal outcome; ranks go both
ways; the order prompt's answers are every order whose blocks go in APNAP order. Live (the extra
[phase]): a :class:`Session` reads each later prompt of a batch from the prompt and the stack alone and
gets what a whole reading gets, and the outcome phase reaches is one of the ways to finish at every
prompt it passed.

Private unit: the phase adapter's prompt answers (adapters/phase/_answers._consistent, _prompt._OrderAnswers).
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
from math import factorial
from pathlib import Path
from typing import Any

import pytest
from triggerstack.adapters.phase import Rest, answers, entry_of, read
from triggerstack.adapters.phase._answers import _consistent
from triggerstack.model import Outcome, outcome_json
from triggerstack.solver import LegalOutcomes, check

HERE = Path(__file__).resolve().parent / "data" / "phase"
FIXTURES = sorted(HERE.glob("*.json.gz"))


def _prompts(path: Path) -> list[Any]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        doc = json.load(f)
    first = None
    out = []
    for p in doc["prompts"]:
        r = read(p["state"], since=first)
        first = first or r
        out.append(r)
    return out


def _reversed_lists(d: dict[str, Any]) -> dict[str, Any]:
    """A requirement's targets written backwards (a stack entry's ``targets``: a set)."""
    if isinstance(d.get("targets"), dict):
        d["targets"] = {r: list(reversed(v)) for r, v in d["targets"].items()}
    return d


def _keeps(reading: Any, o: Outcome) -> bool:
    """Whether ``o`` keeps what phase has fixed by this prompt — said directly, from the reading."""
    placed = [entry_of(reading, p["trigger"], p["ability"]) for p in reading.placed]
    if list(o.stack[: len(placed)]) != placed:
        return False
    rest = list(o.stack[len(placed) :])
    current = reading.index.current if reading.kind != "OrderTriggers" else None
    if current is not None:
        if current in o.removed:
            return bool(reading.kind == "AbilityModeChoice")
        if not rest or str(rest[0].ability) != current:
            return False
        entry = rest.pop(0)
        data = reading.prompt.json().get("data") or {}
        if reading.kind == "TriggerTargetSelection":
            chosen = [reading.index.thing(x) for x in (data.get("selection") or {}).get("selected_slots") or ()]
            if not _consistent(reading, current, entry, chosen):
                return False
            labels = data.get("mode_labels")
            texts = {m["id"]: m.get("text") for m in reading.trigger(current).get("modes", ())}
            said = sorted(texts[m.mode] or "" for m in entry.modes or ())
            if entry.modes is not None and labels is not None and said != sorted(labels):
                return False
        if reading.kind == "DistributeAmong":
            want = {str(reading.index.thing(x)) for x in data.get("targets") or ()}
            splits = [*entry.divide.values(), *(s for m in entry.modes or () for s in m.divide.values())]
            if not any(set(s) == want for s in splits):
                return False
    queue = [b.trigger for b in sorted((b for b in reading.index.batch if b.deferred is not None),
                                       key=lambda b: b.deferred or 0)]  # fmt: skip
    order = [str(e.ability) for e in rest if str(e.ability) in queue]
    return order == [t for t in queue if t not in o.removed]


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_the_rest_of_the_batch_is_every_legal_outcome_that_keeps_what_is_fixed(path: Path) -> None:
    for reading in _prompts(path):
        rest = Rest(reading)
        whole = LegalOutcomes(reading.scenario)
        if whole.count() > 20_000:  # the sweeper: 4.4 million; its rest is checked by its size below
            continue
        slow = {outcome_json(o) for o in whole if _keeps(reading, o)}
        listed = [outcome_json(o) for o in rest]
        assert rest.count() == len(slow) == len(listed) == len(set(listed)), (reading.kind, rest.count(), len(slow))
        assert set(listed) == slow


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_ranks_of_the_rest_go_both_ways_and_draws_are_ways_to_finish(path: Path) -> None:
    for reading in _prompts(path):
        rest = Rest(reading)
        n = rest.count()
        for i in sorted({0, n - 1, n // 2, *random.Random(n).sample(range(n), min(n, 20))}):
            o = rest[i]
            assert rest.index(o) == i and o in rest and check(reading.scenario, o).legal
            written = json.loads(json.dumps(o.model_dump(mode="json")), object_hook=_reversed_lists)
            written.pop("passes", None)  # an omitted passes is the one the ids imply (reached() writes none)
            assert rest.index(Outcome.model_validate(written)) == i  # equal as values: targets in another order
        for o in rest.sample(5, seed=1):
            assert o in rest
        with pytest.raises(IndexError):
            rest[n]


def test_the_sweepers_rest_narrows_by_half_with_each_blood_artist_placed() -> None:
    """Wrath of God under two Blood Artists and a Zulaport Cutthroat: 4,423,680 outcomes of the whole
    batch; once ordered, each waiting Blood Artist trigger has two targets (a player) and the rest of the
    order is phase's — 2 to the number of Blood Artist triggers still to be placed, the one in hand
    included."""
    readings = _prompts(HERE / "wrath-of-god.json.gz")
    assert Rest(readings[0]).count() == LegalOutcomes(readings[0].scenario).count() == 4_423_680
    for r in readings[1:]:
        left = [b for b in r.index.batch if b.stack_id is None and b.description.startswith("Whenever ~ or another "
                                                                                              "creature dies, target")]
        assert Rest(r).count() == 2 ** len(left)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_the_answers_are_ranked_both_ways_and_an_order_prompts_are_every_apnap_order(path: Path) -> None:
    for reading in _prompts(path):
        got = answers(reading)
        n = got.count()
        assert n >= 1 and len(got) == n
        for i in range(min(n, 50)):
            assert got.index(got[i]) == i and got[i] in got
        assert got.draw(3) in got
        if reading.kind == "OrderTriggers":
            k = len(reading.prompt["data"]["triggers"])
            assert n == factorial(k)  # one player's abilities, one block: every order (603.3b)
            for order in itertools.permutations(range(min(k, 5))):
                action = {"type": "OrderTriggers", "data": {"order": [*order, *range(len(order), k)]}}
                assert action in got
            assert {"type": "OrderTriggers", "data": {"order": [0] * k}} not in got
            assert [a["data"]["order"] for a in itertools.islice(got, 3)] == sorted(
                [a["data"]["order"] for a in itertools.islice(got, 3)])
        else:
            assert list(got) == [got[i] for i in range(n)]


def test_an_order_prompt_of_fifteen_abilities_is_answered_without_listing() -> None:
    """The i-th of 15! orders is built from its rank; counting, ranking and drawing list nothing."""
    from triggerstack.adapters.phase._prompt import _OrderAnswers

    got = _OrderAnswers([list(range(15))])
    assert got.count() == factorial(15)
    last = got[-1]
    assert last["data"]["order"] == list(range(14, -1, -1)) and got.index(last) == factorial(15) - 1
    drawn = got.draw(7)
    assert sorted(drawn["data"]["order"]) == list(range(15)) and got[got.index(drawn)] == drawn
    blocks = _OrderAnswers([[0, 2], [1, 3, 4]])  # two blocks: the first two places are the first block's
    assert blocks.count() == 2 * 6 and all(sorted(a["data"]["order"][:2]) == [0, 2] for a in blocks)
    with pytest.raises(ValueError, match="APNAP"):
        blocks.index({"type": "OrderTriggers", "data": {"order": [1, 0, 2, 3, 4]}})


# -- live ----------------------------------------------------------------------------------------


def test_a_session_reads_later_prompts_from_the_prompt_and_the_stack_as_a_whole_reading_would() -> None:
    pytest.importorskip("phase")
    from tests.phase_harness.per_prompt import run

    report = run(boards=6, seed=11)
    assert report.prompts >= 6 and report.followed >= 1
    assert report.crashes == [] and report.differences == [], (report.crashes, report.differences)
    assert report.final_outside_rest == [], report.final_outside_rest
    # what the run measures beside the loop leaves the loop's kept walks alone (it did not: its count of
    # the ways to finish at a target prompt listed the ways a division prompt after it then found ready,
    # so the benchmark said 2.3 ms where the loop took 88)
    assert report.primed == [], report.primed


def test_the_engine_loop_example_runs_and_phases_placement_is_legal() -> None:
    """examples/phase/loop.py, as docs/phase.md shows it: a board, Wrath of God, every prompt asked and
    answered through a Session, the placement judged."""
    import subprocess
    import sys

    pytest.importorskip("phase")
    loop = Path(__file__).resolve().parents[1] / "examples" / "phase" / "loop.py"
    done = subprocess.run([sys.executable, str(loop), "--seed", "7"], capture_output=True, text=True, timeout=300,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("OrderTriggers") and "legal answers" in lines[0]
    assert lines[-1].startswith("phase placed ") and lines[-1].endswith("legal by check")
    ways = [int(line.split("legal answers")[1].split("ways")[0].replace(",", "")) for line in lines[:-1]]
    assert ways == sorted(ways, reverse=True) and ways[-1] >= 1  # each answer narrows what is left
