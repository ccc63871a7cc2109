"""What a stranger with the docs broke at the doors that read another engine's data (helper-60f):
the phase.rs adapter (a state phase exports; an answer for phase) and the conformance runner (an engine
under test's answers). The other doors are in ``test_attacks_60f.py``. Each finding was a strict
expected failure until fixed, wrong verdicts first, then crashes; all pass now — the phase findings by
one reader of phase's JSON (adapters/phase/_schema.py ``Node``, whose property over every field the
adapter reads is ``tests/test_phase_schema.py``), the float by the exact number reader.
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from triggerstack.adapters.phase import PhaseGap, answers, is_legal_answer, read

from .test_attacks_60f import _cli

PHASE = Path(__file__).resolve().parent / "data" / "phase"


def _states(name: str) -> list[dict[str, Any]]:
    with gzip.open(PHASE / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return [p["state"] for p in json.load(f)["prompts"]]


def _without(state: dict[str, Any], path: tuple[str | int, ...], value: Any = KeyError) -> dict[str, Any]:
    """The state with the field at ``path`` deleted (or, given ``value``, replaced by it)."""
    out = copy.deepcopy(state)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


# ---------------------------------------------------------------------------------------------------
# Wrong verdicts: phase.rs states missing a field inside what the reader reads as a whole shape.
#    docs/phase.md, "The schema": "A door never guesses ... a field missing ... raises PhaseStateError
#    naming the field by its path". Found by deleting every key at every place of the recorded states
#    (and comparing the scenario read, two runs with other seeds): these deletions read as another board,
#    without a word.

MISSING_READ_AS_EMPTY = [
    # Leyline of Sanctity's static ("You have hexproof") whose affected filter lost its type: the
    # player's hexproof is read as false (count 2 -> 4).
    ("leyline-player-hexproof", 0, ("objects", "108", "static_definitions", 0, "affected", "type")),
    # Flametongue Kavu's "target creature" without its target's type_filters reads as any permanent.
    ("kavu-protection-hexproof", 1, ("pending_trigger", "ability", "effect", "target", "type_filters")),
    # A stack entry's trigger event without its zone of origin ("from"): Essence Warden's pending
    # ability leaves the batch (count 10 -> 5).
    ("kavu-protection-hexproof", 1, ("stack", 0, "kind", "data", "trigger_event", "data", "from")),
    # The pending trigger's event without its data: the ability's id changes (blood-artist#5.0~26 -> .0).
    ("wrath-of-god", 2, ("pending_trigger", "trigger_event", "data")),
    # Blood Artist's "target player": the effect's target filter without its type reads as no target
    # (the batch's count 8 -> 4).
    (
        "blood-artists-dies",
        0,
        ("pending_trigger_order", "groups", 1, "triggers", 0, "pending", "ability", "effect", "target", "type"),
    ),
    # Ertai's destroy mode without its effect's target reads as a mode with no target requirement.
    ("ertai-destroys", 1, ("pending_trigger", "ability", "mode_abilities", 1, "effect", "target")),
    # Ertai's counter mode's filter without its filters reads as {"any": []} (count 8 -> 7).
    ("ertai-destroys", 1, ("pending_trigger", "ability", "mode_abilities", 0, "effect", "target", "filters")),
    # A triggered stack entry whose trigger event lost its type: Soul Warden's pending ability is read
    # as a stack object from before the batch, and leaves the batch (count 168 -> 84).
    ("titan-divides-onto-ward", 2, ("stack", 0, "kind", "data", "trigger_event", "type")),
    # A mana cost without its generic part: mana value 2 read as 1.
    ("blood-artists-dies", 0, ("objects", "26", "mana_cost", "generic")),
    # A deferred trigger's event without its object: the ability's id changes (blood-artist#115.0~5 -> .0).
    ("wrath-of-god", 1, ("deferred_triggers", 3, "pending", "trigger_event", "data", "object_id")),
]


@pytest.mark.parametrize(
    ("fixture", "prompt", "path"), MISSING_READ_AS_EMPTY, ids=lambda v: str(v[-1]) if isinstance(v, tuple) else str(v)
)
def test_a_phase_state_missing_a_field_is_refused_never_read_as_another_board(
    fixture: str, prompt: int, path: tuple[str | int, ...]
) -> None:
    state = _states(fixture)[prompt]
    whole = read(state).scenario.model_dump()
    try:
        reading = read(_without(state, ("state", *path)))
    except PhaseGap:
        return  # refused: what the docs promise
    assert reading.scenario.model_dump() == whole, f"{'.'.join(map(str, path))} missing: read as another board"


# ---------------------------------------------------------------------------------------------------
# Wrong verdicts: a conformance engine's amount that is not whole.


_NOT_WHOLE_ENGINE = """
import json, subprocess, sys
real = subprocess.Popen([sys.executable, "-m", "triggerstack.solver", "serve", "--stdio"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    real.stdin.write(line)
    real.stdin.flush()
    answer = json.loads(real.stdout.readline())
    # every divided amount of 1 in the divide's first entries written 1.0000000000000001: not whole
    for entry in (answer.get("result") or {}).get("divide") or ():
        for amounts in ((entry["first"] or {}).get("divide") or {}).values():
            for target, amount in amounts.items():
                if amount == 1:
                    amounts[target] = "ONE"
    text = json.dumps(answer).replace('"ONE"', "1.0000000000000001")
    sys.stdout.write(text + "\\n")
    sys.stdout.flush()
"""


def test_the_conformance_runner_refuses_an_amount_that_is_not_whole(tmp_path: Path) -> None:
    """docs/conformance.md: "a division's amounts whole numbers (2.0 is 2)"; "2.5 ... not counts". An
    engine that divides 1.0000000000000001 to a target where the suite says 1 passes the case."""
    suite = tmp_path / "suite"
    suite.mkdir()
    case = Path(__file__).resolve().parent.parent / "conformance" / "cases" / "family" / "divided-2-among-2.json"
    (suite / case.name).write_text(case.read_text(encoding="utf-8"), encoding="utf-8")
    engine = tmp_path / "engine.py"
    engine.write_text(_NOT_WHOLE_ENGINE, encoding="utf-8")
    done = _cli("conformance", "run", "--suite", str(suite), "--engine", f"{sys.executable} {engine}")
    assert done.returncode == 1 and "0 of 1 cases pass" in done.stdout, done.stdout


# ---------------------------------------------------------------------------------------------------
# Crashes: a retyped field that the answers read is a bare TypeError. docs/phase.md: "never a bare
#    KeyError or TypeError". The stack entry's ability.targets is read by _answers.py (entry_of,
#    targets_in_slots) and is not in adapters/phase/_schema.py.


@pytest.mark.parametrize(
    ("fixture", "prompt", "path", "value"),
    [
        ("pyromancer-wardens", 1, ("stack", 0, "kind", "data", "ability", "targets"), 5),
        ("pyromancer-wardens", 1, ("stack", 0, "kind", "data", "ability", "targets"), "x"),
        ("blood-artists-dies", 2, ("stack", 0, "kind", "data", "ability", "targets", 0), "x"),
        ("blood-artists-dies", 2, ("stack", 0, "kind", "data", "ability", "targets", 0), [1]),
        ("blood-artists-dies", 2, ("stack", 0, "kind", "data", "ability", "targets", 0), 1.5),
        ("blood-artists-dies", 2, ("stack", 0, "kind", "data", "ability", "targets", 0), {}),  # a bare KeyError
    ],
    ids=str,
)
def test_a_retyped_field_the_answers_read_is_a_phase_state_error(
    fixture: str, prompt: int, path: tuple[str | int, ...], value: Any
) -> None:
    states = _states(fixture)
    since = None
    for earlier in states[:prompt]:
        since = read(earlier, since=since)
    with pytest.raises(PhaseGap):
        answers(read(_without(states[prompt], ("state", *path), value), since=since)).count()


# ---------------------------------------------------------------------------------------------------
# Crashes: an answer whose data is not a mapping. docs/phase.md: "is_legal_answer(reading, action)
#     ranks one answer instead of searching for it"; "Answers.index(action) takes a mapping ... else a
#     TypeError". Mutating every field of the first legal answers at every recorded prompt (4,612
#     variants: orders with repeats and holes, odd target refs, deleted keys) found one crash: an
#     OrderTriggers action whose data is a number, text or list is a bare AttributeError.


@pytest.mark.parametrize("data", [-1, 1.5, True, "x", [0, 0]], ids=repr)
def test_an_answer_whose_data_is_no_mapping_is_not_legal(data: Any) -> None:
    reading = read(_states("blood-artists-dies")[0])
    try:
        legal = is_legal_answer(reading, {"type": "OrderTriggers", "data": data})
    except (PhaseGap, TypeError):
        return  # refused, naming what it is not
    assert legal is False
