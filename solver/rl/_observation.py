"""The observation: a walk as one flat ``int16`` vector, from the deciding player's seat.

Deterministic (a function of the walk and the seat alone) and padded to an
:class:`~.._verbs.step.ActionLayout`'s capacities, so that one observation space serves every
scenario that fits. *Seats* are relative: 0 is the player observing, 1 the next in turn order,
and so on; fields that name a player hold ``1 + relative seat`` (0: none). Counts are clipped at
``CLIP`` (15). Three sections, in this order (:meth:`Observer.fields` names every entry):

**Header** (``HEADER`` = 7 entries):

====  =====================================================================  ==========
0     pass of 603.3b's loop now under way (1 = the first)                    1 … passes
1     phase: 0 over, 1 choose the next ability (put/remove), 2 its modes,    0 … 4
      3 its targets, 4 the amounts it divides
2     the ability in hand: 1 + its slot (0: none)                            0 … abilities
3     requirements of the ability in hand whose targets are done (clipped)   0 … 15
4     number of players                                                      1 … players
5     the observer's seat counted from the active player (0: active)         0 … players-1
6     entries on the stack (every pass)                                      0 … abilities
====  =====================================================================  ==========

**Abilities**, one row per ability slot (``9 + 2·modes`` entries):

====  =====================================================================  ==========
0     status: 0 empty slot or not triggered (yet), 1 waiting, 2 in hand      0 … 4
      (being announced), 3 on the stack, 4 removed
1     controller: 1 + relative seat                                          0 … players
2     chooser of its modes and targets (700.2e): 1 + relative seat           0 … players
3     part of 603.3b (1 or 2; 0: never put on the stack)                     0 … 2
4     its block in its pass (1 = first in APNAP order; 0: none)              0 … abilities
5     its pass (1 = first)                                                   0 … passes
6     stack position (1 = bottom; 0: not on the stack)                       0 … abilities
7     modal (1) or not (0)                                                   0 … 1
8     may choose no mode, and so be removed whatever the board (1)           0 … 1
9+2m  times mode ``m`` is chosen so far (a non-modal ability: its one        0 … 15
      implicit mode is slot 0, counted once it is put)
10+2m requirements mode ``m`` has (0: no such mode)                          0 … 15
====  =====================================================================  ==========

**Things**, one row per thing slot (players first, then objects; 10 entries):

====  =====================================================================  ==========
0     kind: 0 empty, 1 player, 2 permanent, 3 card, 4 spell, 5 ability,      0 … 6
      6 emblem
1     controller (a player: itself; a card: its owner, 108.4a): 1 + relative 0 … players
      seat; 0 none
2     zone: 0 none (players), 1 battlefield, 2 graveyard, 3 exile, 4 hand,   0 … 8
      5 library, 6 stack, 7 command, 8 ante
3–8   hexproof, shroud, protection (any), hexproof from (any), "can't be    0 … 1
      the target of" (any), left the game
9     times any ability has chosen it as a target so far (clipped)           0 … 15
====  =====================================================================  ==========

**Chosen**, abilities × (things + abilities): how many times ability slot ``a`` has chosen
thing slot ``t`` (then ability slot ``t − things``) as a target so far, clipped at 15. The
amounts divided are not encoded (they follow the targets in the decisions).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import cast
from weakref import WeakKeyDictionary

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from triggerstack.model._args import name_of
from triggerstack.model._facts import Facts
from triggerstack.model._types import PlayerId

from .._core.indexed import Placed
from .._verbs.step import ActionLayout, Decision, DecisionKind, State, Stepper, Walk

CLIP = 15
HEADER = 7
ABILITY_BASE = 9
THING_WIDTH = 10
KEEP = 100_000  # passes, stacks and choices kept per stepper before its caches start afresh
_KINDS = {"player": 1, "permanent": 2, "card": 3, "spell": 4, "ability": 5, "emblem": 6}
_ZONES = {"battlefield": 1, "graveyard": 2, "exile": 3, "hand": 4, "library": 5, "stack": 6, "command": 7, "ante": 8}
_PHASE = {
    DecisionKind.PUT: 1,
    DecisionKind.REMOVE: 1,
    DecisionKind.MODE: 2,
    DecisionKind.END_MODES: 2,
    DecisionKind.TARGET: 3,
    DecisionKind.END_TARGETS: 3,
    DecisionKind.DIVIDE: 4,
}

Vector = NDArray[np.int16]


Delta = tuple[NDArray[np.intp], Vector]
"""Entries to change and by how much (unique indices)."""


@dataclass(slots=True)
class _Seen:
    """What the observer keeps of one stepper, dropped with it: per seat its static rows, per
    pass its rows, and what each placed choice, stack and announcement adds. Ids name objects
    of the stepper's own walks (facts, placed choices, states), kept alive here while named."""

    static: dict[int, Vector] = field(default_factory=dict)
    things: tuple[Vector, NDArray[np.intp], tuple[int, ...]] | None = None
    passes: dict[int, _PassRows] = field(default_factory=dict)
    entries: dict[tuple[int, int, int], Delta] = field(default_factory=dict)
    stacks: dict[tuple[object, ...], Delta] = field(default_factory=dict)
    announced: dict[tuple[int, int, tuple[int, ...]], tuple[int, Delta]] = field(default_factory=dict)
    keep: list[object] = field(default_factory=list)

    def trim(self) -> None:
        if len(self.keep) > KEEP:  # a long run of one stepper: start its caches afresh
            self.passes.clear()
            self.entries.clear()
            self.stacks.clear()
            self.announced.clear()
            self.keep.clear()


@dataclass(frozen=True, slots=True)
class _Template:
    """One pass's ability rows, every seat's: the entries, their values but for the controller,
    the chooser and the pass (where those go), and the controllers' and choosers' seats."""

    index: NDArray[np.intp]
    value: Vector
    controller_at: NDArray[np.intp]
    chooser_at: NDArray[np.intp]
    pass_at: NDArray[np.intp]
    controllers: tuple[int, ...]
    choosers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _PassRows:
    """One pass's abilities: their slots, and per seat their static rows."""

    slots: tuple[int, ...]  # local ability index -> ability slot
    columns: tuple[int, ...]  # local thing index -> column of the chosen matrix
    rows: dict[tuple[int, int], Delta]  # (seat, pass) -> (entry indices, values)
    template: list[_Template] = field(default_factory=list)
    """The pass's :class:`_Template`, made when a seat's rows are first asked for (:meth:`Observer._rows`):
    a board whose first pass's rows came with it (``_prepared.py``) never asks."""
    cells: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    """(slot, mode or ~target) -> the entries one mode or one target of that ability adds 1 to
    (:class:`~._tracker.Tracker` fills it as walks announce them)."""
    placing: dict[tuple[int, tuple[int, ...]], tuple[Placed, tuple[int, ...]]] = field(default_factory=dict)
    """(id of a Placed of the pass, the tokens announced before the decision that placed it) -> it,
    and the entries placing it adds 1 to past what its
    announcement added (:meth:`~._tracker.Tracker._rest`)."""
    direct: dict[int, tuple[Placed, int, tuple[int, ...]]] = field(default_factory=dict)
    """id of a Placed of the pass put and placed by one decision -> it, its row's first entry, and
    the entries its choice adds 1 to (:meth:`~._tracker.Tracker._place`)."""
    effects: dict[int, dict[int, tuple[object, int, tuple[int, ...]]]] = field(default_factory=dict)
    """slot -> token -> what that token announces for the ability in that slot
    (:meth:`~._tracker.Tracker._effect`)."""


class Observer:
    """Encodes walks of :class:`~.._verbs.step.Stepper` s laid out by ``layout`` (see the module)."""

    def __init__(self, layout: ActionLayout) -> None:
        self.layout = layout
        a, t, m = layout.abilities, layout.things, layout.modes
        self.ability_width = ABILITY_BASE + 2 * m
        self.abilities0 = HEADER
        self.things0 = self.abilities0 + a * self.ability_width
        self.chosen0 = self.things0 + t * THING_WIDTH
        self.columns = t + a
        self.size = self.chosen0 + a * self.columns
        high = np.zeros(self.size, dtype=np.int16)
        p = layout.players
        high[:HEADER] = [layout.passes, 4, a, CLIP, p, max(p - 1, 1), a]
        row = [4, p, p, 2, a, layout.passes, a, 1, 1, *([CLIP, CLIP] * m)]
        for k in range(a):
            high[self._ability(k) : self._ability(k) + self.ability_width] = row
        for k in range(t):
            high[self._thing(k) : self._thing(k) + THING_WIDTH] = [6, p, 8, 1, 1, 1, 1, 1, 1, CLIP]
        high[self.chosen0 :] = CLIP
        self.high = np.maximum(high, 1)  # no entry's range is a single value
        self.space = spaces.Box(low=0, high=self.high, shape=(self.size,), dtype=np.int16)
        self._seen: WeakKeyDictionary[Stepper, _Seen] = WeakKeyDictionary()

    def _of(self, stepper: Stepper) -> _Seen:
        found = self._seen.get(stepper)
        if found is None:
            found = self._seen[stepper] = _Seen()
        return found

    def _ability(self, slot: int) -> int:
        return self.abilities0 + slot * self.ability_width

    def _thing(self, slot: int) -> int:
        return self.things0 + slot * THING_WIDTH

    def _chosen(self, slot: int, column: int) -> int:
        return self.chosen0 + slot * self.columns + column

    def fields(self) -> list[str]:
        """The name of every entry, in order: ``header.pass``, ``ability[3].status``, ``chosen[2][5]`` …"""
        names = ["header.pass", "header.phase", "header.in_hand", "header.requirements_done", "header.players"]
        names += ["header.seat", "header.stack_height"]
        base = ["status", "controller", "chooser", "part", "block", "pass", "stack_position", "modal"]
        base.append("may_choose_zero")
        per_mode = [f"mode[{m}].{x}" for m in range(self.layout.modes) for x in ("chosen", "requirements")]
        names += [f"ability[{k}].{x}" for k in range(self.layout.abilities) for x in (*base, *per_mode)]
        thing = ["kind", "controller", "zone", "hexproof", "shroud", "protection", "hexproof_from"]
        thing += ["cant_be_targeted_by", "left_game", "chosen"]
        names += [f"thing[{k}].{x}" for k in range(self.layout.things) for x in thing]
        names += [f"chosen[{k}][{c}]" for k in range(self.layout.abilities) for c in range(self.columns)]
        return names

    # -- static parts, per seat ------------------------------------------------------------------

    def _seat(self, facts: Facts, player: PlayerId | None) -> int:
        """``player`` 's seat: a player of the board, else a ``UsageError`` naming it (an id is an
        argument: model/_args.py ``name_of``), never the observation of no seat."""
        seat = self._seats(facts).get(player) if isinstance(player, str) else None
        if seat is None:
            name_of(player, "player", [p.id for p in facts.scenario.players], "player")
        return cast(int, seat)

    def _relative(self, absolute: tuple[int, ...], seat: int, players: int) -> list[int]:
        """1 + each player's seat relative to ``seat`` (0 where there is none: −1). Plain
        integers: a board has a few dozen, and NumPy's calls cost more than the arithmetic."""
        return [1 + (x - seat) % players if x >= 0 else 0 for x in absolute]

    def _seats(self, facts: Facts) -> dict[PlayerId | None, int]:
        """Each player's seat (:meth:`_seat` of every player at once; None and others: −1)."""
        return {p: k for k, p in enumerate(facts.player_ids())}

    def _static_of(self, stepper: Stepper, seat: int) -> Vector:
        seen = self._of(stepper)
        found = seen.static.get(seat)
        if found is None:
            if seen.things is None:
                seen.things = self._things(stepper)
            base, at, owners = seen.things
            found = base.copy()
            found[5] = seat
            found[at] = self._relative(owners, seat, stepper.needs.players)
            seen.static[seat] = found
        return found

    def _things(self, stepper: Stepper) -> tuple[Vector, NDArray[np.intp], tuple[int, ...]]:
        """The thing rows every seat shares, where each thing's controller goes, and the
        controllers' seats (−1: none), built once per board: written entry by entry as Python ints
        through a memoryview, which costs a third less than a NumPy assignment from nested lists."""
        facts = stepper.facts
        base = np.zeros(self.size, dtype=np.int16)
        cells = base.data
        cells[4] = stepper.needs.players
        at: list[int] = []
        owners: list[int] = []
        seats = self._seats(facts)
        for thing in facts.things[: facts.first_waiting]:
            slot = stepper.thing_slot(thing.id)
            assert slot is not None  # players and objects have thing slots
            row = self._thing(slot)
            at.append(row + 1)
            cells[row] = _KINDS.get(thing.kind, 6)
            cells[row + 2] = 0 if thing.zone is None else _ZONES.get(thing.zone, 0)
            cells[row + 3] = thing.hexproof
            cells[row + 4] = thing.shroud
            cells[row + 5] = bool(thing.protection)
            cells[row + 6] = bool(thing.hexproof_from)
            cells[row + 7] = bool(thing.cant_be_targeted_by)
            cells[row + 8] = thing.left_game
            owners.append(seats.get(PlayerId(thing.id) if thing.is_player else thing.controller, -1))
        return base, np.array(at, dtype=np.intp), tuple(owners)

    def _pass_rows(self, stepper: Stepper, facts: Facts) -> _PassRows:
        seen = self._of(stepper)
        found = seen.passes.get(id(facts))
        if found is None:
            seen.keep.append(facts)
            found = seen.passes[id(facts)] = _PassRows(*stepper.columns(facts, self.layout.things), {})
        return found

    def _template(self, facts: Facts, slots: tuple[int, ...]) -> _Template:
        """A pass's ability rows but for what depends on the seat and the pass number."""
        index: list[int] = []
        value: list[int] = []
        controllers: list[int] = []
        choosers: list[int] = []
        spots: tuple[list[int], list[int], list[int]] = ([], [], [])  # where offsets 1, 2 and 5 go
        seats = self._seats(facts)
        for a, slot in zip(facts.abilities, slots, strict=True):
            at = self._ability(slot)
            controllers.append(seats.get(a.controller, -1))
            choosers.append(seats.get(a.chooser, -1))
            start = len(index)
            for spot, offset in zip(spots, (1, 2, 5), strict=True):
                spot.append(start + offset)  # the entries below start with offsets 0 … 5, in order
            index += [at, at + 1, at + 2, at + 3, at + 4, at + 5, at + 7, at + 8]
            placed = a.block is not None
            value += [
                1 if placed else 4,  # waiting, or removed from the start (800.4d)
                0,  # controller: per seat
                0,  # chooser: per seat
                a.part if placed else 0,
                1 + a.block if a.block is not None else 0,
                0,  # the pass: per pass
                int(a.modal),
                int(a.may_choose_zero),
            ]
            for m, x in enumerate(a.modes):
                index.append(at + ABILITY_BASE + 2 * m + 1)
                value.append(min(len(x.requirements), CLIP))
        return _Template(
            np.array(index, dtype=np.intp),
            np.array(value, dtype=np.int16),
            np.array(spots[0], dtype=np.intp),
            np.array(spots[1], dtype=np.intp),
            np.array(spots[2], dtype=np.intp),
            tuple(controllers),
            tuple(choosers),
        )

    def _rows(self, facts: Facts, rows: _PassRows, seat: int, number: int) -> tuple[NDArray[np.intp], Vector]:
        cached = rows.rows.get((seat, number))
        if cached is None:
            if not rows.template:
                rows.template.append(self._template(facts, rows.slots))
            t = rows.template[0]
            players = len(facts.player_ids())
            value = t.value.copy()
            value[t.controller_at] = self._relative(t.controllers, seat, players)
            value[t.chooser_at] = self._relative(t.choosers, seat, players)
            value[t.pass_at] = number + 1
            cached = rows.rows[(seat, number)] = (t.index, value)
        return cached

    # -- the walk ---------------------------------------------------------------------------------

    def _entry(
        self, rows: _PassRows, ability: int, modes: list[int], targets: list[int]
    ) -> tuple[NDArray[np.intp], Vector]:
        """What an ability's choices add: its mode counts, its row of the chosen matrix, and the
        chosen counts of the things it names."""
        slot = rows.slots[ability]
        counts: Counter[int] = Counter()
        for mode in modes:
            counts[self._ability(slot) + ABILITY_BASE + 2 * mode] += 1
        for t in targets:
            column = rows.columns[t]
            counts[self._chosen(slot, column)] += 1
            if column < self.layout.things:
                counts[self._thing(column) + THING_WIDTH - 1] += 1
        keys = sorted(counts)
        return np.array(keys, dtype=np.intp), np.array([counts[k] for k in keys], dtype=np.int16)

    def _stack_delta(self, seen: _Seen, rows: _PassRows, facts: Facts, state: State, below: int) -> Delta:
        """Status 1 → 3 and the stack position of each placed ability, its choices, and status
        1 → 4 of each removed one, as (unique indices, amounts to add)."""
        counts: Counter[int] = Counter()
        for position, placed in enumerate(state.stack, below + 1):
            slot = rows.slots[placed.ability]
            counts[self._ability(slot)] += 2
            counts[self._ability(slot) + 6] += position
            entry = self._placed(seen, facts, rows, placed)
            for i, v in zip(entry[0].tolist(), entry[1].tolist(), strict=True):
                counts[i] += v
        for k in state.removed:
            counts[self._ability(rows.slots[k])] += 3
        keys = sorted(counts)
        return np.array(keys, dtype=np.intp), np.array([counts[k] for k in keys], dtype=np.int16)

    def encode(self, stepper: Stepper, walk: Walk, player: PlayerId, legal: list[Decision] | None = None) -> Vector:
        """The observation of ``walk`` from ``player`` 's seat (``legal``: the legal decisions, if known)."""
        facts = stepper.facts
        seen = self._of(stepper)
        seen.trim()
        seat = self._seat(facts, player)
        obs = self._static_of(stepper, seat).copy()
        passes: list[tuple[Facts, State]] = [*walk.done]
        assert walk.facts is not None
        passes.append((walk.facts, walk.local))
        height = 0
        for number, (pass_facts, state) in enumerate(passes):
            rows = self._pass_rows(stepper, pass_facts)
            index, value = self._rows(pass_facts, rows, seat, number)
            obs[index] = value
            # What the pass's stack and removals add to the rows, as one sum: kept per stack (a
            # walk announces an ability token by token over the same stack).
            key = (id(pass_facts), height, tuple(map(id, state.stack)), state.removed)
            delta = seen.stacks.get(key)
            if delta is None:
                delta = seen.stacks[key] = self._stack_delta(seen, rows, pass_facts, state, height)
                seen.keep.append(state)
            obs[delta[0]] += delta[1]
            height += len(state.stack)
        state = walk.local
        if legal is None:
            legal = stepper.legal(walk)
        obs[0] = len(walk.done) + 1
        obs[1] = _PHASE[legal[0].kind] if legal else 0
        obs[6] = height
        if state.current is not None:
            slot, done, (index, value) = self._hand(stepper, walk)
            obs[self._ability(slot)] = 2
            obs[2] = slot + 1
            obs[3] = done
            obs[index] += value
        np.minimum(obs, self.high, out=obs)
        return obs

    def _hand(self, stepper: Stepper, walk: Walk) -> tuple[int, int, tuple[NDArray[np.intp], Vector]]:
        """The ability in hand: its slot, its requirements done (clipped), and what its choices so
        far add (its mode counts, its row of the chosen matrix, the chosen counts of things)."""
        state = walk.local
        assert walk.facts is not None and state.current is not None
        rows = self._pass_rows(stepper, walk.facts)
        hand = (id(walk.facts), state.current, state.tokens)
        seen = self._of(stepper)
        announced = seen.announced.get(hand)
        if announced is None:
            modes, targets, done = stepper.pass_stepper(walk.facts).announced(state)
            announced = (min(done, CLIP), self._entry(rows, state.current, modes, targets))
            seen.announced[hand] = announced
        return rows.slots[state.current], announced[0], announced[1]

    def _placed(self, seen: _Seen, facts: Facts, rows: _PassRows, placed: Placed) -> Delta:
        """What a placed ability's choice adds (kept per choice)."""
        key = (id(facts), placed.ability, id(placed.choice))
        entry = seen.entries.get(key)
        if entry is None:
            seen.keep.append(placed)
            modes = [m.mode for m in placed.choice.modes]
            targets = [t for m in placed.choice.modes for ts in m.targets for t in ts]
            entry = seen.entries[key] = self._entry(rows, placed.ability, modes, targets)
        return entry
