"""Outcomes as the engines build them: integer-indexed, hashable, canonical by construction.

``RawOutcome`` is what every engine (CP-SAT, python-constraint, the fast path, the test
simulator) produces; two equal ``RawOutcome`` s are one outcome (SPEC §3). ``to_outcome``
turns one into the canonical wire form of SPEC §5, and ``from_outcome`` reads a proposal back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import NamedTuple

from triggerstack.model.facts import Facts
from triggerstack.model.outcome import Entry, ModeChoice, Outcome, Score, outcome_dict

from .choices import Choice, ModeInstance

__all__ = ["JsonWriter", "Placed", "RawOutcome", "from_outcome", "score_of", "to_outcome"]


class Placed(NamedTuple):
    """One ability on the stack with its complete choice."""

    ability: int
    choice: Choice


class RawOutcome(NamedTuple):
    """The final stack (bottom → top) and the removed abilities (sorted indices).

    A named tuple, not a dataclass: the fast path makes millions of them, and tuples compare,
    hash and sort the same way (stack first, then removed)."""

    stack: tuple[Placed, ...]
    removed: tuple[int, ...]


def _targets(facts: Facts, a: int, inst: ModeInstance) -> tuple[dict[str, tuple[str, ...]], dict[str, dict[str, int]]]:
    reqs = facts.abilities[a].modes[inst.mode].requirements
    targets: dict[str, tuple[str, ...]] = {}
    divide: dict[str, dict[str, int]] = {}
    for i, (r, ts) in enumerate(zip(reqs, inst.targets, strict=True)):
        if not ts:
            continue
        targets[r.id] = tuple(facts.things[t].id for t in ts)
        if inst.divide and inst.divide[i]:
            divide[r.id] = {facts.things[t].id: n for t, n in zip(ts, inst.divide[i], strict=True)}
    return targets, divide


def to_outcome(facts: Facts, raw: RawOutcome) -> Outcome:
    """The canonical wire form (SPEC §5) of an engine's outcome."""
    entries = []
    for p in raw.stack:
        a = facts.abilities[p.ability]
        if a.modal:
            modes = []
            for inst in p.choice.modes:
                targets, divide = _targets(facts, p.ability, inst)
                mid = a.modes[inst.mode].id
                assert mid is not None
                modes.append(ModeChoice(mode=mid, targets=targets, divide=divide))
            entries.append(Entry(ability=a.id, modes=tuple(modes)))
        else:
            (inst,) = p.choice.modes
            targets, divide = _targets(facts, p.ability, inst)
            entries.append(Entry(ability=a.id, targets=targets, divide=divide))
    return Outcome(stack=tuple(entries), removed=tuple(facts.abilities[k].id for k in raw.removed))


def score_of(facts: Facts, raw: RawOutcome, score: Score) -> int:
    """The score of SPEC §7: weight × position from the bottom (0-based) for ``height``, and the
    weight of each chosen mode, chosen target and removed ability."""
    total = 0
    for pos, p in enumerate(raw.stack):
        a = facts.abilities[p.ability]
        total += score.height.get(a.id, 0) * pos
        mode_w: Mapping[str, int] = score.mode.get(a.id, {})
        target_w: Mapping[str, int] = score.target.get(a.id, {})
        for inst in p.choice.modes:
            mid = a.modes[inst.mode].id
            if mid is not None:
                total += mode_w.get(mid, 0)
            for ts in inst.targets:
                total += sum(target_w.get(facts.things[t].id, 0) for t in ts)
    for k in raw.removed:
        total += score.removed.get(facts.abilities[k].id, 0)
    return total


def from_outcome(facts: Facts, outcome: Outcome) -> RawOutcome:
    """The engines' form of a proposal that names only known abilities, modes, requirements and
    things (``KeyError`` otherwise; ``check`` reports those)."""
    stack = []
    for e in outcome.stack:
        k = facts.ability_index[e.ability]
        a = facts.abilities[k]
        picks = (
            [(a.mode_index[m.mode], m.targets, m.divide) for m in e.modes or ()]
            if a.modal
            else [(0, e.targets, e.divide)]
        )
        insts = []
        for mode, targets, divide in picks:
            reqs = a.modes[mode].requirements
            ts_all, div_all = [], []
            for r in reqs:
                ts = tuple(sorted(facts.thing_index[t] for t in targets.get(r.id, ())))
                ts_all.append(ts)
                amounts = divide.get(r.id, {})
                div_all.append(tuple(amounts[facts.things[t].id] for t in ts) if r.divide is not None and ts else ())
            insts.append(ModeInstance(mode, tuple(ts_all), tuple(div_all) if any(div_all) else ()))
        stack.append(Placed(k, Choice(tuple(sorted(insts)))))
    removed = tuple(sorted(facts.ability_index[x] for x in outcome.removed))
    return RawOutcome(tuple(stack), removed)


class JsonWriter:
    """Canonical JSON lines for many outcomes of one scenario, fast: each placed ability's and each
    removed set's fragment is made once and reused (byte-identical to ``outcome_json``)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._placed: dict[Placed, str] = {}
        self._removed: dict[tuple[int, ...], str] = {}

    def __call__(self, raw: RawOutcome) -> str:
        removed = self._removed.get(raw.removed)
        if removed is None:
            ids = [self.facts.abilities[k].id for k in raw.removed]
            removed = self._removed[raw.removed] = json.dumps(ids, separators=(",", ":"))
        parts = []
        for p in raw.stack:
            text = self._placed.get(p)
            if text is None:
                one = outcome_dict(to_outcome(self.facts, RawOutcome((p,), ())))["stack"][0]
                text = self._placed[p] = json.dumps(one, sort_keys=True, separators=(",", ":"))
            parts.append(text)
        return f'{{"removed":{removed},"stack":[{",".join(parts)}]}}'
