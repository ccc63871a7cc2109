"""A target, mode or division prompt's answers come from the walk's next decisions, not from every
way to announce the ability (docs/phase.md, "The cost per prompt"): held here, at every such prompt
of the recorded fixtures and of seeded live boards (divisions and modal abilities among them), to
the definition — every legal announcement of the ability in hand that begins with the targets phase
holds, and what each takes at the slot asked (a target it lacks, or None where its requirement is
full); at a mode prompt, the mode sets of every legal announcement (none: removed, 603.3c); at a
division prompt, the divisions among exactly phase's targets of every legal announcement (of any
mode), and the ways to finish placing the ability there (``Rest``'s, in the same order).

Private unit: adapters/phase/_answers: a prompt's answers from the walk's next decisions.
"""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path
from typing import Any

import pytest
from triggerstack.adapters.phase import PhaseError, PhaseGap, Rest, answers, choices, read
from triggerstack.adapters.phase._answers import _consistent, _current, _next_targets, prefix

HERE = Path(__file__).resolve().parent / "data" / "phase"


def listed(reading: Any) -> set[Any]:
    """The oracle: every announcement of the ability in hand, filtered (the way answers were made
    before, and the way the definition reads)."""
    data = reading.prompt.json()["data"]
    trigger = _current(reading)
    chosen = [reading.index.thing(r) for r in (data.get("selection") or {}).get("selected_slots") or ()]
    labels = data.get("mode_labels")
    texts = {m["id"]: m.get("text") for m in reading.trigger(trigger).get("modes", ())}
    found: set[str | None] = set()
    for entry in choices(reading, trigger):
        said = sorted(texts[m.mode] or "" for m in entry.modes or ())
        if entry.modes is not None and labels is not None and said != sorted(labels):
            continue
        if _consistent(reading, trigger, entry, chosen):
            found.update(_next_targets(reading, trigger, entry, chosen))
    return {None if t is None else json.dumps(reading.index.target_ref(t), sort_keys=True) for t in found}


def listed_modes(reading: Any) -> set[tuple[int, ...]]:
    """The oracle at a mode prompt: the mode sets of every legal announcement, and none where the
    ability may be removed instead (603.3c)."""
    trigger = _current(reading)
    t = reading.trigger(trigger)
    ids = [m["id"] for m in t.get("modes", ())]
    out = {tuple(sorted(ids.index(m.mode) for m in entry.modes or ())) for entry in choices(reading, trigger)}
    stepper, walk = prefix(reading)
    if 0 in t["modal"]["choose"] and f"remove {trigger}" in {d.text for d in stepper.legal(walk)}:
        out.add(())
    return out


def listed_divisions(reading: Any) -> tuple[set[tuple[int, ...]], list[Any]]:
    """The oracle at a division prompt: the amounts (in phase's order of its targets) of each
    division among exactly phase's targets that a legal announcement makes, and those announcements
    in the walk's order."""
    trigger = _current(reading)
    things = [str(reading.index.thing(r)) for r in reading.prompt["data"]["targets"].items()]
    amounts: set[tuple[int, ...]] = set()
    entries = []
    for entry in choices(reading, trigger):
        splits = [*entry.divide.values(), *(v for m in entry.modes or () for v in m.divide.values())]
        hit = [s for s in splits if set(s) == set(things)]
        amounts.update(tuple(int(s[t]) for t in things) for s in hit)
        if hit:
            entries.append(entry)
    return amounts, entries


def agree(reading: Any) -> bool:
    """Whether the answers at a target, mode or division prompt are the oracle's (True elsewhere)."""
    if reading.kind == "DistributeAmong":
        got = [tuple(n for _, n in a["data"]["distribution"]) for a in answers(reading)]
        want, entries = listed_divisions(reading)
        return len(set(got)) == len(got) and set(got) == want and [e for _, e in Rest(reading)._entries] == entries
    if reading.kind == "TriggerTargetSelection":
        return walked(reading) == listed(reading)
    if reading.kind == "AbilityModeChoice":
        got = [tuple(a["data"]["indices"]) for a in answers(reading)]
        return len(set(got)) == len(got) and set(got) == listed_modes(reading)
    return True


def walked(reading: Any) -> set[Any]:
    got = [a["data"]["target"] for a in answers(reading)]
    out = {None if t is None else json.dumps(t, sort_keys=True) for t in got}
    assert len(out) == len(got), "an answer listed twice"
    return out


def test_target_mode_and_division_answers_are_the_definitions_at_every_recorded_prompt() -> None:
    seen = 0
    for path in sorted(HERE.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            states = [p["state"] for p in json.load(f)["prompts"]]
        first = None
        for state in states:
            r = read(state, since=first)
            first = first or r
            if r.kind in ("TriggerTargetSelection", "AbilityModeChoice", "DistributeAmong"):
                seen += 1
                assert agree(r), (path.name, r.kind, r.prompt.json()["data"].get("selection"))
    assert seen >= 9


@pytest.mark.slow
def test_target_mode_and_division_answers_are_the_definitions_on_live_boards() -> None:
    """Seeded boards of the differential run and of the division run, each followed by a Session
    answering with random legal answers; at every target prompt both ways must agree."""
    from triggerstack.adapters.phase import Session, engine

    from tests.phase_harness.differential import POOL, _board
    from tests.phase_harness.playback import _division_board

    eng = engine(POOL)
    rng = random.Random(59)
    compared = multi = modes = divisions = 0
    for _ in range(24):
        seed = rng.randint(0, 2**31)
        brng = random.Random(seed)
        make = _board if brng.random() < 0.4 else _division_board
        try:
            b, _steps = make(eng, brng)
            session = Session(b.game)
            while b.at_prompt():
                r = session.reading()
                if r.kind in ("TriggerTargetSelection", "AbilityModeChoice", "DistributeAmong"):
                    compared += 1
                    multi += bool((r.prompt.json()["data"].get("selection") or {}).get("selected_slots"))
                    modes += r.kind == "AbilityModeChoice"
                    divisions += r.kind == "DistributeAmong"
                    assert agree(r), (seed, r.kind, r.index.current, r.prompt.json()["data"].get("selection"))
                session.apply(answers(r).draw(brng))
        except (PhaseError, PhaseGap):
            continue  # phase's own failures and gaps: another test's subject
    assert compared >= 30 and multi >= 5 and modes >= 3 and divisions >= 3, (compared, multi, modes, divisions)
