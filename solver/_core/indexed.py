"""Outcomes as the engines build them: integer-indexed, hashable, canonical by construction.

An :class:`IndexedOutcome` is what every engine (the product engine, CP-SAT, python-constraint2,
the test simulator) produces; two equal ones are one outcome (docs/rules.md, "An outcome"). A :class:`Choice` is one
ability's complete choice: its modes (a multiset, sorted mode indices) and per chosen mode
instance the targets of each requirement (sorted thing indices) and the division of each divided
requirement. ``to_outcome`` turns an indexed outcome into the canonical wire form of docs/formats.md (Proposal and
outcome), and ``from_outcome`` reads a proposal back. These are data, not search: every engine may import them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from triggerstack.model._facts import Facts
from triggerstack.model._outcome import (
    Entry,
    Outcome,
    Score,
    built_entry,
    built_mode,
    built_outcome,
    entry_shape,
    mode_shape,
)
from triggerstack.model._text import compact


@dataclass(frozen=True, order=True, slots=True)
class ModeInstance:
    """One chosen mode with its targets per requirement (sorted thing indices) and, for divided
    requirements, the amount each target gets (aligned with the targets; ``()`` otherwise)."""

    mode: int
    targets: tuple[tuple[int, ...], ...]
    divide: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, order=True, slots=True)
class Choice:
    """The modes (sorted: the canonical multiset order) with their targets and divisions."""

    modes: tuple[ModeInstance, ...]

    def things(self) -> Iterator[int]:
        for m in self.modes:
            for ts in m.targets:
                yield from ts


class Placed(NamedTuple):
    """One ability on the stack with its complete choice."""

    ability: int
    choice: Choice


class IndexedOutcome(NamedTuple):
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
        targets[r.id] = tuple(facts.thing_ids[t] for t in ts)
        if inst.divide and inst.divide[i]:
            divide[r.id] = {facts.thing_ids[t]: n for t, n in zip(ts, inst.divide[i], strict=True)}
    return targets, divide


MAX_KEPT_ENTRIES = 1 << 16
"""Wire entries kept per scenario (one per ability with one choice), reused by every outcome."""


def _entry(facts: Facts, p: Placed) -> Entry:
    a = facts.abilities[p.ability]
    if a.modal:
        modes = []
        for inst in p.choice.modes:
            targets, divide = _targets(facts, p.ability, inst)
            mid = a.modes[inst.mode].id
            assert mid is not None
            modes.append(built_mode(mid, targets, divide))
        return built_entry(a.id, tuple(modes), {}, {})
    (inst,) = p.choice.modes
    targets, divide = _targets(facts, p.ability, inst)
    return built_entry(a.id, None, targets, divide)


def entry_json(facts: Facts, p: Placed) -> str:
    """``compact(entry_dict(entry_of(facts, p)))`` — the line of one placed ability's entry — from
    plain values, without the wire model (made once per placed choice a walk meets: on a board
    drawn anew, every one; model_construct and the hash of a placed choice cost 4× this). The
    shape is :func:`~triggerstack.model._outcome.entry_shape`'s, as ``entry_dict``'s is."""
    a = facts.abilities[p.ability]
    if a.modal:
        modes = []
        for inst in p.choice.modes:
            mid = a.modes[inst.mode].id
            assert mid is not None  # a modal ability's modes have ids
            modes.append(mode_shape(mid, *_targets(facts, p.ability, inst)))
        return compact(entry_shape(a.id, modes, {}, {}))
    (inst,) = p.choice.modes
    if any(inst.targets):
        return compact(entry_shape(a.id, None, *_targets(facts, p.ability, inst)))
    line = _PLAIN.get(a.id)  # no target: the line of its id alone, the same on every board
    if line is None:
        if len(_PLAIN) >= MAX_KEPT_ENTRIES:
            _PLAIN.clear()
        line = _PLAIN[a.id] = compact(entry_shape(a.id, None, {}, {}))
    return line


def ids_json(ids: list[str]) -> str:
    """``compact(ids)``, a list of ids (an outcome's removed abilities), kept per process by the
    ids: boards drawn anew remove the same few (``[]``, ``["T1"]`` …)."""
    key = tuple(ids)
    line = _IDS.get(key)
    if line is None:
        if len(_IDS) >= MAX_KEPT_ENTRIES:
            _IDS.clear()
        line = _IDS[key] = compact(ids)
    return line


_IDS: dict[tuple[str, ...], str] = {}
_PLAIN: dict[str, str] = {}
"""The line of an entry that names its ability alone (not modal, no target: four in five on the
boards ``rl.boards`` draws), by the ability's id: boards drawn anew name theirs alike (``T0`` …),
and each new board's walk wrote the same few lines again (issue 53)."""


def to_outcome(facts: Facts, outcome: IndexedOutcome) -> Outcome:
    """The canonical wire form (docs/formats.md, Proposal and outcome) of an engine's outcome. Built, not
    validated: each placed ability's entry is made once per scenario and shared by every outcome that holds it
    (outcomes are frozen)."""
    kept, same = _tables(facts)
    stack = []
    for p in outcome.stack:  # _kept, inline: the fast path makes millions of outcomes
        hit = same.get(id(p))
        if hit is not None and hit[0] is p:
            stack.append(hit[1])
            continue
        entry = kept.get(p)
        if entry is None:
            if len(kept) >= MAX_KEPT_ENTRIES:
                kept.clear()
            entry = kept[p] = _entry(facts, p)
        if len(same) >= MAX_KEPT_ENTRIES:
            same.clear()
        same[id(p)] = (p, entry)
        stack.append(entry)
    abilities = facts.abilities
    # built, not read: its entries are the kept ones and its ids the facts' (the door's checks cost a quarter of
    # explain's walk over a board's later passes, on outcomes no caller had written)
    return built_outcome(tuple(stack), tuple([abilities[k].id for k in outcome.removed]))


def entry_of(facts: Facts, p: Placed) -> Entry:
    """The wire entry of one placed ability, as :func:`to_outcome` gives it (made once, shared)."""
    return _kept(facts, *_tables(facts), p)


def entry_made(facts: Facts, p: Placed) -> Entry:
    """:func:`entry_of` made anew, not kept: for a choice no outcome holds (a judge's proposal). The
    kept entries are bounded by their number, not their size: an entry of twelve modes kept for each
    of 47,000 proposals held 570 MB, where an outcome's entries are few and shared."""
    return _entry(facts, p)


def _tables(facts: Facts) -> tuple[dict[Placed, Entry], dict[int, tuple[Placed, Entry]]]:
    """The scenario's kept entries, by value and by identity: engines reuse their Placed objects
    (listed choices), found by identity first, without hashing; the Placed is kept in the value, so
    its id names no other object meanwhile."""
    memo = facts.memo
    kept: dict[Placed, Entry] | None = memo.get(_ENTRIES)
    if kept is None:
        kept = memo[_ENTRIES] = {}
    same: dict[int, tuple[Placed, Entry]] | None = memo.get(_SAME)
    if same is None:
        same = memo[_SAME] = {}
    return kept, same


def _kept(facts: Facts, kept: dict[Placed, Entry], same: dict[int, tuple[Placed, Entry]], p: Placed) -> Entry:
    hit = same.get(id(p))
    if hit is not None and hit[0] is p:
        return hit[1]
    entry = kept.get(p)
    if entry is None:
        if len(kept) >= MAX_KEPT_ENTRIES:
            kept.clear()
        entry = kept[p] = _entry(facts, p)
    if len(same) >= MAX_KEPT_ENTRIES:
        same.clear()
    same[id(p)] = (p, entry)
    return entry


_ENTRIES = "indexed.entries"
_SAME = "indexed.entries-by-identity"


def score_of(facts: Facts, outcome: IndexedOutcome, score: Score) -> int:
    """The score of docs/cli.md (best) (:meth:`Score.value`) of an indexed outcome."""
    abilities, things = facts.abilities, facts.thing_ids
    return score.value(
        (
            (
                abilities[p.ability].id,
                (abilities[p.ability].modes[i.mode].id for i in p.choice.modes),
                (things[t] for t in p.choice.things()),
            )
            for p in outcome.stack
        ),
        (abilities[k].id for k in outcome.removed),
    )


def from_outcome(facts: Facts, outcome: Outcome) -> IndexedOutcome:
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
                div_all.append(tuple(amounts[facts.thing_ids[t]] for t in ts) if r.divide is not None and ts else ())
            insts.append(ModeInstance(mode, tuple(ts_all), tuple(div_all) if any(div_all) else ()))
        stack.append(Placed(k, Choice(tuple(sorted(insts)))))
    removed = tuple(sorted(facts.ability_index[x] for x in outcome.removed))
    return IndexedOutcome(tuple(stack), removed)


class JsonWriter:
    """Canonical JSON lines for many outcomes of one scenario, fast: each placed ability's and each
    removed set's fragment is made once and reused (byte-identical to ``outcome_json``)."""

    def __init__(self, facts: Facts) -> None:
        self.facts = facts
        self._placed: dict[Placed, str] = {}
        self._removed: dict[tuple[int, ...], str] = {}

    def removed(self, removed: tuple[int, ...]) -> str:
        """The JSON of a removed set."""
        text = self._removed.get(removed)
        if text is None:
            ids = [self.facts.abilities[k].id for k in removed]
            text = self._removed[removed] = compact(ids)
        return text

    def fragment(self, p: Placed) -> str:
        """The JSON of one placed ability's entry."""
        text = self._placed.get(p)
        if text is None:
            text = self._placed[p] = entry_json(self.facts, p)
        return text

    def __call__(self, outcome: IndexedOutcome) -> str:
        parts = [self.fragment(p) for p in outcome.stack]
        return f'{{"removed":{self.removed(outcome.removed)},"stack":[{",".join(parts)}]}}'
