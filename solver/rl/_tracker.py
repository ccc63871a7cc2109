"""The observation of one walk kept up to date decision by decision (:class:`Tracker`), which
:meth:`~._observation.Observer.encode` computes from scratch and is the reference it equals."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from triggerstack.model._facts import Facts
from triggerstack.model._types import PlayerId

from .._core.indexed import Placed
from .._verbs.step import Decision, PassStepper, State, Stepper, Walk
from ._observation import _PHASE, ABILITY_BASE, CLIP, KEEP, THING_WIDTH, Observer, Vector, _PassRows


@dataclass(slots=True)
class _Hand:
    """The ability in hand: its pass's rows and stepper, its slot, its modes and targets so far,
    its requirements done, and its first mode's token."""

    rows: _PassRows
    slot: int
    modes: list[int]
    targets: list[int]
    done: int
    local: PassStepper
    mode0: int
    effects: dict[int, _Effect]
    """Per token, what it announces (:meth:`Tracker._effect`): the pass's, for this slot."""
    at: int
    """Its row's first entry."""


_Effect = tuple[object, int, tuple[int, ...]]
_TARGET, _MODE, _END, _OTHER = object(), object(), object(), object()
"""What a token of the ability in hand announces (:meth:`Tracker._effect`)."""


class Tracker:
    """The observation of one walk, kept up to date from each decision taken instead of encoded
    anew (:meth:`Observer.encode` is the reference it equals): a seat-independent part — what is
    placed, removed and announced — changed by what each decision adds, over each seat's static
    rows of the passes so far."""

    def __init__(self, observer: Observer, stepper: Stepper, walk: Walk) -> None:
        observer._of(stepper).trim()
        self.observer = observer
        self.stepper = stepper
        self.moving = np.zeros(observer.size, dtype=np.int16)
        """What the stack, the removals and the ability in hand add, every pass (unclipped), and
        the header's entries that change as the walk goes (the static rows leave them 0)."""
        self._cells = self.moving.data
        """``moving`` entry by entry as Python ints (a NumPy scalar costs several times more)."""
        self.passes: list[Facts] = []
        self.slots: set[int] = set()
        self.exact = True
        """False once a pass reuses an ability slot of an earlier one (an engine's hook): then
        each observation is encoded anew."""
        self.height = 0  # entries on the stack in the passes finished
        self.placed = 0  # entries of the pass under way counted
        self.removed: frozenset[int] = frozenset()
        self.hand: _Hand | None = None
        self.bases: dict[int, tuple[int, Vector]] = {}
        self.shared: dict[tuple[int, ...], tuple[list[Facts], Vector]] = {}
        """Per seat and passes (their facts' ids), the base rows: the same for every episode on the
        board (its copies share it)."""
        self.seats: dict[PlayerId, int] = {}
        """Each player's seat (the board's: its copies share it)."""
        self.big = False
        """Whether a count may exceed :data:`CLIP` (then each observation is clipped)."""
        self.walk = walk
        self._pass: tuple[Facts, _PassRows, PassStepper] | None = None
        """The pass an ability was last put in hand in: its rows and its stepper."""
        assert walk.facts is not None
        self._begin(walk.done[0][0] if walk.done else walk.facts)
        self.update(walk)

    def copy(self, walk: Walk) -> Tracker:
        """Another tracker where this one stands, following ``walk``: a walk where this one's
        stands (an episode's start, as this one's was). Made before an ability is in hand."""
        assert self.hand is None and walk.decisions == self.walk.decisions
        self.observer._of(self.stepper).trim()
        other = object.__new__(Tracker)
        other.observer, other.stepper, other.walk = self.observer, self.stepper, walk
        other.moving = self.moving.copy()
        other._cells = other.moving.data
        other.passes, other.slots, other.exact = list(self.passes), set(self.slots), self.exact
        other.height, other.placed, other.removed, other.hand = self.height, self.placed, self.removed, None
        other.bases, other.shared, other.seats, other.big = dict(self.bases), self.shared, self.seats, self.big
        other._pass = self._pass
        return other

    def _begin(self, facts: Facts) -> None:
        rows = self.observer._pass_rows(self.stepper, facts)
        if self.slots.intersection(rows.slots):
            self.exact = False
        self.slots.update(rows.slots)
        self.passes.append(facts)
        self.placed = 0
        self.removed = frozenset()

    def _count(self, facts: Facts, state: State) -> None:
        """Add what ``state`` placed and removed since last counted."""
        o = self.observer
        rows = o._pass_rows(self.stepper, facts)
        moving = self._cells
        for position in range(self.placed, len(state.stack)):
            placed = state.stack[position]
            at = o._ability(rows.slots[placed.ability])
            moving[at] += 2
            moving[at + 6] += self.height + position + 1
            modes = [m.mode for m in placed.choice.modes]
            self._add(rows, rows.slots[placed.ability], modes, list(placed.choice.things()), 1)
        self.placed = len(state.stack)
        for k in state.removed - self.removed:
            moving[o._ability(rows.slots[k])] += 3
        self.removed = state.removed

    def update(self, walk: Walk) -> None:
        """Follow ``walk``: the walk last followed with more decisions taken (or that walk)."""
        if walk is self.walk:  # an episode's start, followed as the tracker was made or copied
            return
        if walk.facts is self.walk.facts and self._one(walk.local):
            self.walk = walk
            return
        hand = self.hand
        if hand is not None:
            self._add(hand.rows, hand.slot, hand.modes, hand.targets, -1)
            self._cells[self.observer._ability(hand.slot)] -= 1
            self.hand = None
        while len(self.passes) <= len(walk.done):
            facts, final = walk.done[len(self.passes) - 1]
            self._count(facts, final)
            self.height += len(final.stack)
            following = walk.done[len(self.passes)][0] if len(self.passes) < len(walk.done) else walk.facts
            assert following is not None
            self._begin(following)
        assert walk.facts is not None
        self._count(walk.facts, walk.local)
        if walk.local.current is not None:
            hand = self._in_hand(walk.facts, walk.local.current)
            hand.modes, hand.targets, hand.done = self.stepper.pass_stepper(walk.facts).announced(walk.local)
            self._add(hand.rows, hand.slot, hand.modes, hand.targets, 1)
        self.walk = walk

    def _in_hand(self, facts: Facts, current: int) -> _Hand:
        """Ability ``current`` of the pass ``facts`` put in hand, nothing of it announced yet."""
        if self._pass is None or self._pass[0] is not facts:
            self._pass = (facts, self.observer._pass_rows(self.stepper, facts), self.stepper.pass_stepper(facts))
        _, rows, local = self._pass
        slot = rows.slots[current]
        at = self.observer._ability(slot)
        self._cells[at] += 1  # waiting (1) → in hand (2)
        mode0 = 2 * len(facts.abilities) + local.mode_offset[current]
        effects = rows.effects.get(slot)
        if effects is None:
            effects = rows.effects[slot] = {}
        self.hand = _Hand(rows, slot, [], [], 0, local, mode0, effects, at)
        return self.hand

    def _one(self, new: State) -> bool:
        """Follow one decision within the pass under way, if ``new`` is the state after one: a
        token announced, an ability put in hand, placed or removed (False: it is not)."""
        old, hand = self.walk.local, self.hand
        if hand is not None and new.current == old.current:
            if new.stack is not old.stack or len(new.tokens) != len(old.tokens) + 1:
                return False
            tok = _added(old.tokens, new.tokens)
            what, value, bumps = hand.effects.get(tok) or self._effect(hand, tok)
            if what is _TARGET:
                hand.targets.append(value)
            elif what is _MODE:
                hand.modes.append(value)
            else:
                hand.done += what is _END
                return True
            self._bump(bumps, 1)
            return True
        if hand is not None:  # placed: the choice is what was announced, and its last token
            if new.current is not None or len(new.stack) != len(old.stack) + 1 or new.removed != old.removed:
                return False
            placed = new.stack[-1]
            key = (id(placed), old.tokens)  # what was announced before it: not always the same (auto)
            kept = hand.rows.placing.get(key)
            if kept is None or kept[0] is not placed:
                kept = hand.rows.placing[key] = (placed, self._rest(hand, placed))
            self._bump(kept[1], 1)
            cells, at = self._cells, hand.at
            cells[at] += 1  # in hand (2) → on the stack (3)
            cells[at + 6] += self.height + len(new.stack)
            self.placed += 1
            self.hand = None
            return True
        if len(new.decisions) != len(old.decisions) + 1:
            return False
        if new.stack is not old.stack:  # put and placed at once: nothing to announce (its one choice)
            if new.current is not None or len(new.stack) != len(old.stack) + 1 or new.removed != old.removed:
                return False
            self._place(new.stack[-1], len(new.stack))
            return True
        if new.current is not None:  # put in hand, nothing announced yet
            if new.tokens or new.removed is not old.removed:
                return False
            assert self.walk.facts is not None
            self._in_hand(self.walk.facts, new.current)
            return True
        if len(new.removed) != len(old.removed) + 1 or self.removed != old.removed:
            return False  # several removed at once, or counted otherwise: the general way
        (k,) = new.removed - old.removed
        self._cells[self.observer._ability(self._rows().slots[k])] += 3  # waiting (1) → removed (4)
        self.removed = new.removed
        return True

    def _rows(self) -> _PassRows:
        """The rows of the pass under way (kept with its stepper in :attr:`_pass`)."""
        facts = self.walk.facts
        if self._pass is None or self._pass[0] is not facts:
            assert facts is not None
            self._pass = (facts, self.observer._pass_rows(self.stepper, facts), self.stepper.pass_stepper(facts))
        return self._pass[1]

    def _place(self, placed: Placed, height: int) -> None:
        """An ability put and placed by one decision (nothing to announce), ``height`` entries on
        its pass's stack with it: what :meth:`_count` adds for it, its entries kept per Placed."""
        rows = self._rows()
        kept = rows.direct.get(id(placed))
        if kept is None or kept[0] is not placed:
            slot = rows.slots[placed.ability]
            listed = [i for m in placed.choice.modes for i in self._cells_of(rows, slot, m.mode)]
            listed += [i for t in placed.choice.things() for i in self._cells_of(rows, slot, ~t)]
            kept = rows.direct[id(placed)] = (placed, self.observer._ability(slot), tuple(listed))
        _, at, entries = kept
        cells = self._cells
        cells[at] += 2  # waiting (1) → on the stack (3)
        cells[at + 6] += self.height + height
        self._bump(entries, 1)
        self.placed += 1

    def _rest(self, hand: _Hand, placed: Placed) -> tuple[int, ...]:
        """The entries (with repeats) that placing ``placed`` adds 1 to past what its announcement
        added: its last token's, or a non-modal ability's one mode. A placed choice is spelled by
        one sequence of tokens (its pass keeps one Placed per sequence), but the members of a set
        may be clicked in any order, so the decision that places it is not always the same one: kept
        per Placed and the tokens announced before that decision, in its pass's rows."""
        targets = list(placed.choice.things())
        for t in hand.targets:
            targets.remove(t)
        modes = [m.mode for m in placed.choice.modes]
        for m in hand.modes:
            modes.remove(m)
        rows, slot = hand.rows, hand.slot
        out = [i for m in modes for i in self._cells_of(rows, slot, m)]
        return (*out, *(i for t in targets for i in self._cells_of(rows, slot, ~t)))

    def _effect(self, hand: _Hand, token: int) -> _Effect:
        """What one more token of the ability in hand is — a target, a mode, a requirement done or
        something else (an end of modes, an amount) — with its index and the entries it adds 1
        to; kept per pass and ability slot."""
        local = hand.local
        found: _Effect
        if local.target0 <= token < local.end_targets:
            target = token - local.target0
            found = (_TARGET, target, self._cells_of(hand.rows, hand.slot, ~target))
        elif token == local.end_targets:
            found = (_END, 0, ())
        elif hand.mode0 <= token < local.end_modes:
            mode = token - hand.mode0
            found = (_MODE, mode, self._cells_of(hand.rows, hand.slot, mode))
        else:
            found = (_OTHER, 0, ())
        hand.effects[token] = found
        return found

    def _cells_of(self, rows: _PassRows, slot: int, which: int) -> tuple[int, ...]:
        """The entries one mode (``which`` ≥ 0) or one target (``~which``) of the ability in
        ``slot`` adds 1 to: the mode's count; the target's cell of the chosen matrix and, for a
        player or object, its chosen count. Kept per pass."""
        found = rows.cells.get((slot, which))
        if found is None:
            o = self.observer
            if which >= 0:
                found = (o._ability(slot) + ABILITY_BASE + 2 * which,)
            else:
                column = rows.columns[~which]
                found = (o._chosen(slot, column),)
                if column < o.layout.things:
                    found += (o._thing(column) + THING_WIDTH - 1,)
            rows.cells[(slot, which)] = found
        return found

    def _bump(self, cells: tuple[int, ...], sign: int) -> None:
        moving = self._cells
        for i in cells:
            moving[i] += sign
            if sign > 0 and moving[i] > CLIP:  # counts only grow past CLIP by adding
                self.big = True

    def _add(self, rows: _PassRows, slot: int, modes: list[int], targets: list[int], sign: int) -> None:
        """Add (``sign`` 1) or take back (−1) what an ability's choices so far add: its mode
        counts, its row of the chosen matrix and the chosen counts of the things it names."""
        for m in modes:
            self._bump(self._cells_of(rows, slot, m), sign)
        for t in targets:
            self._bump(self._cells_of(rows, slot, ~t), sign)

    def _base(self, seat: int) -> Vector:
        """The seat's static rows and those of every pass so far."""
        found = self.bases.get(seat)
        if found is not None and found[0] == len(self.passes):
            return found[1]
        key = (seat, *map(id, self.passes))
        kept = self.shared.get(key)
        if kept is not None and all(a is b for a, b in zip(kept[0], self.passes, strict=True)):
            base = kept[1]
        else:
            o = self.observer
            base = o._static_of(self.stepper, seat).copy()
            for number, facts in enumerate(self.passes):
                index, value = o._rows(facts, o._pass_rows(self.stepper, facts), seat, number)
                base[index] = value
            if len(self.shared) > KEEP:
                self.shared.clear()
            self.shared[key] = (list(self.passes), base)
        self.bases[seat] = (len(self.passes), base)
        return base

    def observe(self, player: PlayerId, legal: list[Decision], out: Vector | None = None) -> Vector:
        """The observation from ``player`` 's seat (``legal``: the walk's legal decisions), written
        into ``out`` if given (a row of a batch)."""
        o = self.observer
        walk = self.walk
        if not self.exact:
            found = o.encode(self.stepper, walk, player, legal)
            if out is None:
                return found
            out[:] = found
            return out
        seat = self.seats.get(player)
        if seat is None:
            seat = self.seats[player] = o._seat(self.stepper.facts, player)
        cells, hand = self._cells, self.hand
        cells[0] = len(walk.done) + 1
        cells[1] = _PHASE[legal[0].kind] if legal else 0
        cells[2] = 0 if hand is None else hand.slot + 1
        cells[3] = 0 if hand is None else min(hand.done, CLIP)
        cells[6] = self.height + len(walk.local.stack)
        obs = np.add(self._base(seat), self.moving, out=out)
        if self.big:
            np.minimum(obs, o.high, out=obs)
        return obs


def _added(old: tuple[int, ...], new: tuple[int, ...]) -> int:
    """The token one decision added: the last, or a set's member clicked after a later one, which
    its pass keeps in its sorted place (601.2c, 700.2)."""
    if new[:-1] == old:
        return new[-1]
    return next(t for t, u in zip(new, old, strict=False) if t != u)
