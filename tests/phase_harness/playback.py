"""Every prompt answered without a crash (docs/phase.md, "Playing outcomes back"): one of our sampled
outcomes played into phase with :func:`~triggerstack.adapters.phase.play` on seeded boards of real cards — half of them the
differential's, half built to reach divisions (Inferno Titan, Bogardan Hellkite, Fury or Dragonlord
Atarka cast, or Gang of Devils dying, beside Blood Artist, Zulaport Cutthroat, the Wardens and Warstorm
Surge) — and, without phase, :func:`~._answers.action_for` at every recorded prompt of the fixtures.
A failure of phase stays :class:`~triggerstack.adapters.phase.PhaseError`, what phase's state does not say or an outcome
that does not fit a prompt stays :class:`~._board.PhaseGap`; anything else is a crash, kept with the
board's steps and the outcome played.

Private unit: model/_args.seed_of, the product's one reading of a seed, so that a harness seed means what a product seed means.
"""

from __future__ import annotations

import gzip
import json
import random
import re
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from triggerstack.adapters.phase import PROMPTS, Board, PhaseError, PhaseGap, Reading, action_for, engine, play, read
from triggerstack.model import Outcome
from triggerstack.model._args import seed_of
from triggerstack.solver import sample

from .differential import POOL, _board

__all__ = ["PromptsReport", "fixture_prompts", "prompts_property"]

DIVIDERS = ("Inferno Titan", "Bogardan Hellkite", "Fury", "Dragonlord Atarka")
"""Creatures whose enters ability divides damage (601.2d), one of them cast on a division board."""
MODAL = ("Ertai Resurrected", "Charming Prince")
"""Creatures whose enters ability is modal, cast now and then on a division board (a mode prompt in a batch)."""
TRIGGERED = ("Blood Artist", "Zulaport Cutthroat", "Soul Warden", "Essence Warden", "Warstorm Surge")
"""Permanents whose abilities join the batch around a division ("whenever another", "a creature you control")."""


@dataclass
class PromptsReport:
    """Prompts met by kind, where playing stopped (phase's failures and gaps, by message) and crashes."""

    boards: int = 0
    at_prompt: int = 0
    unasked: int = 0
    played: int = 0
    """Outcomes played until phase asked no more."""
    prompts: Counter[str] = field(default_factory=Counter)
    """Every prompt met, answered or where playing stopped, by kind."""
    stopped: Counter[str] = field(default_factory=Counter)
    """``PhaseError`` or ``PhaseGap`` at a prompt kind, by message (ids left out)."""
    crashes: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"boards": self.boards, "at_prompt": self.at_prompt, "unasked": self.unasked, "played": self.played,
                "prompts": dict(self.prompts), "stopped": dict(self.stopped), "crashes": self.crashes}  # fmt: skip

    def lines(self) -> list[str]:
        out = [f"boards: {self.boards}; at a trigger-placement prompt: {self.at_prompt}; placed without one: "
               f"{self.unasked}; outcomes played to the end: {self.played}"]  # fmt: skip
        out += [f"prompts met, {kind}: {self.prompts[kind]}" for kind in PROMPTS]
        out += [f"  stopped: {why}: {n}" for why, n in self.stopped.most_common()]
        out.append(f"crashes (neither PhaseError nor PhaseGap): {len(self.crashes)}")
        out += [f"  {json.dumps(c)[:600]}" for c in self.crashes]
        return out


def _key(exc: BaseException, kind: str) -> str:
    """What stopped playing, without the board's ids, so alike stops are counted together."""
    said = str(exc).splitlines()[0] if str(exc) else ""
    said = re.sub(r"#\d+(\.\d+)?(~\d+)?'*", "#…", said)
    said = re.sub(r"\[[^\]]*\]|\{[^}]*\}|\('[^']*'\)", "…", said)
    return f"{type(exc).__name__} at {kind}: {said[:240]}"


def _crash(exc: BaseException, **where: Any) -> dict[str, Any]:
    frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
    at = f"{Path(frame.filename).name}:{frame.lineno} {frame.name}" if frame else ""
    return {**where, "error": repr(exc)[:300], "raised in": at}


def _division_board(eng: Any, rng: random.Random) -> tuple[Board, list[str]]:
    """A board that reaches divisions: permanents on both sides, abilities that join a divided one's
    batch, then a divider cast (now and then a modal creature; or, with Gang of Devils on the board,
    Wrath of God or Murder)."""
    bodies = sorted(n for n, kind in POOL.items() if kind == "body" and n not in TRIGGERED)
    decks = [rng.sample(bodies, rng.randint(0, 3)) + rng.sample(TRIGGERED, rng.randint(1, 3)) for _ in (0, 1)]
    who = rng.randint(0, 1)
    roll = rng.random()
    card = rng.choice(DIVIDERS) if roll < 0.55 else rng.choice(MODAL) if roll < 0.7 else (
        "Wrath of God" if roll < 0.85 else "Murder")  # fmt: skip
    if card in (*DIVIDERS, *MODAL):
        decks[who].append(card)
    else:
        decks[rng.randint(0, 1)].append("Gang of Devils")
        decks[who] += ["Wrath of God", "Murder"]  # in the library until cast
    b = Board.build(eng, decks, seed=rng.randint(0, 1000))
    steps = [f"decks {decks}"]
    # each card's id from one export (phase's state() is most of a board's time), first by id as object_id
    objects = sorted(b.state()["state"]["objects"].values(), key=lambda o: int(o["id"]))
    for p in (0, 1):
        for n in decks[p]:
            if p == who and n in (card, "Wrath of God", "Murder"):
                continue
            o = next(o for o in objects if o["name"] == n and o["owner"] == p and o["zone"] in ("Library", "Hand"))
            objects.remove(o)
            b.move(int(o["id"]))
            steps.append(f"P{p} {n} on the battlefield")
    target = None
    if card == "Murder":
        devils = [int(o["id"]) for o in b.state()["state"]["objects"].values()
                  if o["name"] == "Gang of Devils" and o["zone"] == "Battlefield"]  # fmt: skip
        target = devils[0] if devils else None
    b.cast(card, who, target=target)
    steps.append(f"P{who} casts {card}" + (f" on object {target}" if target is not None else ""))
    return b, steps


def prompts_property(boards: int = 50, seed: int = 1, outcomes: int = 1,
                     progress: Callable[[int], None] | None = None) -> PromptsReport:  # fmt: skip
    """``outcomes`` sampled outcomes played into each of ``boards`` seeded boards (the same seed, the
    same run): prompts met by kind, where playing stopped, and every crash with its board's steps."""
    eng = engine(POOL)
    rng = random.Random(seed_of(seed))  # model/_args.py: -k would draw what k draws
    report = PromptsReport()
    for k in range(boards):
        if progress is not None:
            progress(k)
        board_seed = rng.randint(0, 2**31)
        report.boards += 1
        brng = random.Random(board_seed)
        make = _board if brng.random() < 0.5 else _division_board
        try:
            b, steps = make(eng, brng)
        except PhaseError as exc:  # phase could not set the board up (a state it would not export, ...)
            report.stopped[_key(exc, "setting up")] += 1
            continue
        except Exception as exc:
            report.crashes.append(_crash(exc, board=k, seed=board_seed, stage="setting up"))
            continue
        _play_board(report, b, steps, k, board_seed, outcomes)
    return report


def _play_board(report: PromptsReport, b: Board, steps: list[str], k: int, board_seed: int, outcomes: int) -> None:
    """Sampled outcomes played into one board (each into the board replayed but the last)."""
    if not b.at_prompt():
        report.unasked += 1
        return
    report.at_prompt += 1
    try:
        first = read(b.state())
    except (PhaseError, PhaseGap) as exc:
        report.stopped[_key(exc, b.game.waiting_for()["type"])] += 1
        return
    for n in range(outcomes):
        game = b.clone() if n < outcomes - 1 else b
        want = sample(first.scenario, 1, seed=board_seed + n)[0]
        met: list[str] = []
        stop = _played(game, want, met)
        report.prompts.update(met)
        if stop is None:
            report.played += 1
            continue
        kind = _waiting(game)
        if kind in PROMPTS:  # the prompt playing stopped at
            report.prompts[kind] += 1
        if isinstance(stop, PhaseError | PhaseGap):
            report.stopped[_key(stop, kind)] += 1
        else:
            report.crashes.append(_crash(stop, board=k, seed=board_seed, steps=steps, at=kind,
                                         played=want.model_dump(mode="json", exclude_defaults=True)))  # fmt: skip


def _played(game: Board, want: Outcome, met: list[str]) -> Exception | None:
    """``want`` played into ``game`` (the kinds of the prompts answered into ``met``): what stopped it."""

    def seen(reading: Reading, _action: dict[str, Any]) -> None:
        met.append(reading.kind)

    try:
        play(game.game, want, seen=seen)
    except Exception as exc:  # sorted by the caller: phase's failure, a gap, or a crash
        return exc
    return None


def _waiting(b: Board) -> str:
    try:
        return str(b.game.waiting_for()["type"])
    except Exception as exc:  # phase cannot say what it waits for: said in the report, not raised
        return f"(waiting_for: {exc})"


def fixture_prompts(paths: Iterable[Path], outcomes: int = 4) -> PromptsReport:
    """Without phase: at every recorded prompt of the fixtures (tests/data/phase/), the answer that
    plays each of ``outcomes`` sampled outcomes of the batch — an answer, or a :class:`PhaseGap` where
    phase's recorded choices so far are not the outcome's (or :class:`PhaseError` where phase asked a
    prompt the ability does not call for); never anything else."""
    report = PromptsReport()
    for path in sorted(paths):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            states = [p["state"] for p in json.load(f)["prompts"]]
        report.boards += 1
        report.at_prompt += 1
        try:
            first = read(states[0])
        except PhaseGap as exc:
            report.stopped[_key(exc, str(states[0]["state"]["waiting_for"]["type"]))] += 1
            continue
        for n in range(outcomes):
            want = sample(first.scenario, 1, seed=n)[0]
            report.played += _fixture_outcome(report, path.name, states, first, want)
    return report


def _fixture_outcome(report: PromptsReport, name: str, states: list[Any], first: Reading, want: Outcome) -> int:
    """One outcome answered at a fixture's every prompt: 1 if every prompt had an answer."""
    for i, state in enumerate(states):
        kind = str(state["state"]["waiting_for"]["type"])
        report.prompts[kind] += 1
        try:
            reading = read(state, since=first)
            action_for(reading, want)  # a prompt phase should not have asked: PhaseError
        except (PhaseError, PhaseGap) as exc:
            report.stopped[_key(exc, kind)] += 1
            return 0
        except Exception as exc:
            report.crashes.append(_crash(exc, fixture=name, prompt=i, at=kind,
                                         played=want.model_dump(mode="json", exclude_defaults=True)))  # fmt: skip
            return 0
    return 1
