"""A seeded differential run of phase.rs against this tool (docs/phase.md, "The differential run").

Each board is built from real cards (:data:`POOL`) by phase's debug actions: permanents on both sides,
sometimes a creature stolen, then one event — a creature entering (ETB and "whenever another" triggers),
one dying (dies triggers), or Wrath of God cast (every creature dies at once) — each in the game's own
flow (cast in a main phase), not by debug moves. At every
trigger-placement prompt the answers phase accepts are compared with
ours (targets: the same set; orders and divisions: phase's ``actions()`` offer a few of them, each must
be one of ours); the placement phase reaches is judged by ``check``; and one of our sampled outcomes is
played into a replayed copy of the game and must come back as itself.

Private unit: model/_args.seed_of, the product's one reading of a seed, so that a harness seed means what a product seed means.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from triggerstack.adapters.phase import (
    Board,
    PhaseError,
    PhaseGap,
    Reading,
    engine,
    is_legal_answer,
    legal_actions,
    play,
    reached,
    read,
    translate,
)
from triggerstack.model import Outcome
from triggerstack.model._args import seed_of
from triggerstack.solver import check, sample

__all__ = ["POOL", "Report", "run"]

# name → what it brings (the kinds of the issue: a sweeper, ETB, "whenever another", dies, modal, divided,
# hexproof / shroud / protection / ward creatures, a player with hexproof, vanilla bodies)
POOL: dict[str, str] = {
    "Viashino Pyromancer": "etb", "Flametongue Kavu": "etb", "Inferno Titan": "etb", "Bogardan Hellkite": "etb",
    "Ravenous Chupacabra": "etb", "Charming Prince": "etb", "Ertai Resurrected": "etb", "Shriekmaw": "etb",
    "Nekrataal": "etb", "Man-o'-War": "etb", "Mulldrifter": "etb", "Fiend Hunter": "etb",
    "Soul Warden": "body", "Essence Warden": "body", "Blood Artist": "body", "Zulaport Cutthroat": "body",
    "White Knight": "body", "Black Knight": "body", "Gladecover Scout": "body", "Troll Ascetic": "body",
    "Argothian Enchantress": "body", "Armored Armadillo": "body", "Grizzly Bears": "body",
    "Goblin Arsonist": "body", "Silvercoat Lion": "body", "Leyline of Sanctity": "body",
    "Wrath of God": "sweeper", "Murder": "removal",
    # the play-back property's division boards (playback.py) only: the differential's boards keep to the above
    "Warstorm Surge": "ally", "Gang of Devils": "divider", "Fury": "divider", "Dragonlord Atarka": "divider",
}  # fmt: skip


@dataclass
class Report:
    """The run's counts and every disagreement, each with what was compared."""

    boards: int = 0
    prompts: Counter[str] = field(default_factory=Counter)
    agree: Counter[str] = field(default_factory=Counter)
    placements: int = 0
    legal_placements: int = 0
    replayed: int = 0
    replayed_same: int = 0
    gaps: Counter[str] = field(default_factory=Counter)
    violations: Counter[str] = field(default_factory=Counter)
    prompt_rules: Counter[str] = field(default_factory=Counter)
    unasked: int = 0
    untargeted: int = 0
    replay_rules: Counter[str] = field(default_factory=Counter)
    phase_errors: Counter[str] = field(default_factory=Counter)
    disagreements: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "boards": self.boards, "prompts": dict(self.prompts), "agree": dict(self.agree),
            "placements": self.placements, "legal_placements": self.legal_placements, "replayed": self.replayed,
            "replayed_same": self.replayed_same, "gaps": dict(self.gaps), "violations": dict(self.violations),
            "prompt_rules": dict(self.prompt_rules), "replay_rules": dict(self.replay_rules),
            "unasked": self.unasked, "untargeted": self.untargeted, "phase_errors": dict(self.phase_errors),
            "disagreements": self.disagreements,
        }  # fmt: skip

    def lines(self) -> list[str]:
        out = [
            f"boards at a trigger-placement prompt: {self.boards}; placed without a prompt: {self.unasked}, "
            f"of which a targeted ability was put on the stack with no target (601.2c): {self.untargeted}"
        ]
        for kind in sorted(self.prompts):
            out.append(f"{kind}: phase's answers agree with ours at {self.agree[kind]} of {self.prompts[kind]} prompts")
        out.append(f"placements phase reached, legal by check: {self.legal_placements} of {self.placements}")
        out.append(f"our sampled outcomes played into phase and read back unchanged: {self.replayed_same} of "
                   f"{self.replayed}")  # fmt: skip
        for rule, n in self.prompt_rules.most_common():
            out.append(f"  answers phase offers that we do not: {rule}: {n}")
        for rule, n in self.violations.most_common():
            out.append(f"  phase's placements break {rule}: {n}")
        for rule, n in self.replay_rules.most_common():
            out.append(f"  our outcome played, phase placed another: {rule}: {n}")
        for err, n in self.phase_errors.most_common():
            out.append(f"  phase raised an error of its own: {err}: {n}")
        for gap, n in self.gaps.most_common():
            out.append(f"  not read (gap): {gap}: {n}")
        return out


def _board(eng: Any, rng: random.Random) -> tuple[Board, list[str]]:
    names = sorted(POOL)
    bodies = [n for n in names if POOL[n] == "body"] + [n for n in names if POOL[n] == "etb"]
    decks: list[list[str]] = [[], []]
    wardens = ["Soul Warden", "Essence Warden", "Blood Artist", "Zulaport Cutthroat"]
    for p in (0, 1):
        decks[p] = rng.sample(bodies, rng.randint(2, 5))
        for w in rng.sample(wardens, rng.randint(0, 2)):  # "whenever another": a batch, not a lone trigger
            if w not in decks[p]:
                decks[p].append(w)
    etb = rng.choice([n for n in names if POOL[n] == "etb"])
    who = rng.randint(0, 1)
    if etb not in decks[who]:
        decks[who].append(etb)
    decks[who] += ["Wrath of God", "Murder"]  # in the library; cast when the board's event is theirs
    b = Board.build(eng, decks, seed=rng.randint(0, 1000))
    steps = [f"decks {decks}"]
    on: list[tuple[int, int]] = []
    for p in (0, 1):
        for n in decks[p]:
            if n == etb and p == who:
                continue
            oid = b.object_id(n, p)
            b.move(oid)
            on.append((oid, p))
            steps.append(f"P{p} {n} on the battlefield")
    creatures = [o for o, _ in on]
    if creatures and rng.random() < 0.3:
        oid, p = rng.choice(on)
        b.steal(oid, 1 - p)
        steps.append(f"object {oid} stolen by P{1 - p}")
    roll = rng.random()
    if creatures and roll < 0.2:  # a sweeper: every creature dies at once
        b.cast("Wrath of God", who)
        steps.append(f"P{who} casts Wrath of God")
    elif creatures and roll < 0.4:  # Murder on one of them: it dies (not a warded one: Murder would be countered)
        oid, _ = rng.choice([x for x in on if "Armored Armadillo" not in _names(b, x[0])] or on)
        b.cast("Murder", who, target=oid)
        steps.append(f"P{who} casts Murder on object {oid}")
    else:  # the creature cast: it enters
        b.cast(etb, who)
        steps.append(f"P{who} casts {etb}")
    return b, steps


def _names(b: Board, oid: int) -> str:
    return str(b.state()["state"]["objects"][str(oid)]["name"])


def _compare(report: Report, reading: Reading, phase_actions: list[dict[str, Any]], board: int) -> None:
    kind = reading.kind
    report.prompts[kind] += 1
    theirs = [json.dumps(a, sort_keys=True) for a in phase_actions]
    # phase offers a few of an order's or a division's many answers: each is asked about alone (an order
    # prompt has up to n! answers); of targets and modes it offers all, compared as sets
    few = kind in ("OrderTriggers", "DistributeAmong")
    if few:
        ours = [t for t, a in zip(theirs, phase_actions, strict=True) if is_legal_answer(reading, a)]
        same = len(ours) == len(theirs)
    else:
        ours = [json.dumps(a, sort_keys=True) for a in legal_actions(reading)]
        same = set(theirs) == set(ours)
    if same:
        report.agree[kind] += 1
        return
    phase_only = sorted(set(theirs) - set(ours))
    for answer in phase_only:
        report.prompt_rules[_why(reading, json.loads(answer))] += 1
    report.disagreements.append({
        "board": board, "prompt": kind, "phase_only": phase_only,
        "ours_only": sorted(set(ours) - set(theirs)) if not few else [],
    })  # fmt: skip


def _why(reading: Reading, answer: dict[str, Any]) -> str:
    """The rule an answer phase offers and we do not breaks, as far as the prompt shows it."""
    data = answer.get("data") or {}
    if answer.get("type") == "ChooseTarget":
        target = data.get("target")
        if target is None:
            current = next(t for t in reading.document["triggers"] if t["id"] == reading.index.current)
            reqs = current.get("targets") or [r for m in current.get("modes", ()) for r in m.get("targets", ())]
            divided = any("divide" in r for r in reqs)
            return "601.2d: a divided ability given no target" if divided else "601.2c: a required target skipped"
        if "Object" in target and reading.index.thing(target) is None:
            return "115.5: an ability targets itself"
        return "601.2c: a target no legal choice allows"
    if answer.get("type") == "SelectModes":
        return "601.2c: a mode with no legal choice of targets (115.5 where the ability itself is the only candidate)"
    return "603.3b"


def _untargeted(report: Report, state: dict[str, Any], board: int, steps: list[str]) -> None:
    """A board phase placed without asking: a triggered ability on the stack whose requirements want a
    target and hold none (phase did not ask for it)."""
    for e in state["state"].get("stack") or ():
        data = (e.get("kind") or {}).get("data") or {}
        ability = data.get("ability") or {}
        got = translate(ability)
        if got.modal is None and any((r.get("min") or 0) >= 1 for r in got.targets) and not ability.get("targets"):
            report.untargeted += 1
            report.disagreements.append({"board": board, "steps": steps, "untargeted": data.get("description")})
            return


def _same_text_swapped(before: Reading, want: Outcome, back: Outcome) -> bool:
    """Whether phase placed ``want``'s abilities in another order only among abilities of one player
    with the same text (phase orders those itself, without a prompt)."""
    said = {t["id"]: (t.get("controller"), t["text"].split(": ", 1)[-1]) for t in before.document["triggers"]}
    mine = [e for e in want.stack if e.ability in said]
    theirs = [e for e in back.stack if e.ability in said]
    if [e.ability for e in mine] == [e.ability for e in theirs]:
        return False
    return [said[e.ability] for e in mine] == [said[e.ability] for e in theirs]


def run(boards: int = 50, seed: int = 1, progress: Callable[[int], None] | None = None) -> Report:
    """The differential run over ``boards`` random boards (seeded: the same seed, the same run). An
    error phase raises itself (a state it cannot export, an answer it cannot apply) ends that board and
    is counted, with its message, among ``phase_errors``."""
    eng = engine(POOL)
    rng = random.Random(seed_of(seed))  # model/_args.py: -k would draw what k draws
    report = Report()
    for k in range(boards):
        if progress is not None:
            progress(k)
        board_seed = rng.randint(0, 2**31)
        try:
            _one(report, eng, k, board_seed)
        except PhaseError as exc:  # phase's own failure: the board ends, counted with its message
            report.phase_errors[str(exc).splitlines()[0][:120]] += 1
    return report


def _one(report: Report, eng: Any, k: int, board_seed: int) -> None:
    """One board of the run, into ``report``."""
    b, steps = _board(eng, random.Random(board_seed))
    copy = b.clone()  # our outcome is played into the same board, replayed
    if not b.at_prompt():
        report.unasked += 1
        _untargeted(report, b.state(), k, steps)
        return
    report.boards += 1
    try:
        before = read(b.state())
    except PhaseGap as exc:
        report.gaps[str(exc).split("\n")[0][:120]] += 1
        return
    # phase's own choices: at each prompt compare, then take one of phase's answers at random
    pick = random.Random(board_seed + 1)
    try:
        while b.at_prompt():
            reading = read(b.state(), since=before)
            acts = [a.to_dict() for a in b.game.actions()]
            _compare(report, reading, acts, k)
            w = b.game.waiting_for()
            b.apply(int(w["data"]["player"]), pick.choice(acts))
        got = reached(before, b.state())
    except PhaseGap as exc:
        report.gaps[str(exc).split("\n")[0][:120]] += 1
        return
    report.placements += 1
    verdict = check(before.scenario, got)
    if verdict.legal:
        report.legal_placements += 1
    else:
        for v in verdict.violations:
            report.violations[f"{v.rule} ({v.code.value})"] += 1
        report.disagreements.append({"board": k, "steps": steps, "reached": got.model_dump(mode="json"),
                                     "violations": [f"{v.rule} {v.code.value}: {v.message}"
                                                    for v in verdict.violations]})  # fmt: skip
    # one of our outcomes, played into the same board replayed
    want: Outcome = sample(before.scenario, 1, seed=board_seed)[0]
    report.replayed += 1
    try:
        play(copy.game, want)  # (phase's own failures here are PhaseError too)
        back = reached(before, copy.state())
    except PhaseGap as exc:
        report.replay_rules[f"not played: {str(exc).splitlines()[0][:100]}"] += 1
        report.disagreements.append({"board": k, "steps": steps, "played": want.model_dump(mode="json"),
                                     "refused": str(exc)})  # fmt: skip
        return
    if back == want:
        report.replayed_same += 1
        return
    found = check(before.scenario, back)
    rules = sorted({f"{v.rule.value if v.rule else ''} ({v.code.value})" for v in found.violations})
    if _same_text_swapped(before, want, back):
        rules.append("603.3b: same-text abilities of one player ordered by phase, not by the player")
    report.replay_rules[", ".join(rules) or "another legal outcome"] += 1
    report.disagreements.append({"board": k, "steps": steps, "played": want.model_dump(mode="json"),
                                 "reached": back.model_dump(mode="json")})  # fmt: skip
