"""``step``: the legal next decisions, one at a time, for agents that decide as 603.3 reads.

A walk goes block by block (603.3b). With no ability in hand, the next decision is ``put X`` (X
has a legal choice with what is on the stack now) or ``remove X`` (it has none, or may choose no
mode, or can never be put there). After ``put X``, X's choices are announced token by token:
``mode X:m`` for each chosen mode (in mode order; repeats repeated) and ``end modes`` for a modal
ability; then for each chosen mode and each of its requirements, ``target T`` for each target
(in scenario order) and ``end targets``, followed by ``divide N`` per target where the amount is
divided. Only decisions that still extend to a legal outcome are offered, so every walk ends in
an outcome that ``check`` accepts, and every outcome is reachable.

Decision ids are fixed per scenario (``Stepper.size`` of them), so an agent can keep a 0/1 mask:

* ``put X``: X's index; ``remove X``: abilities + index;
* ``mode X:m``: 2·abilities + the mode's index among all abilities' modes; ``end modes`` next;
* ``target T``: then the thing's index (players, objects, waiting abilities); ``end targets`` next;
* ``divide N`` for N = 1 … the largest amount divided.

That numbering fits one scenario. For ids that mean the same across scenarios (a fixed action
space), give the :class:`Stepper` an :class:`ActionLayout` with capacities; see its docstring.

Who decides (:meth:`Stepper.decider`): the chooser of the ability in hand while its modes and
targets are announced (its controller unless the scenario names one, 700.2e); otherwise the player
whose block is being put on the stack (603.3b; a Two-Headed Giant team's block is decided by its
first player in turn order, 805.7). An illegal :meth:`~Stepper.apply` raises
:class:`~..errors.IllegalDecision`, which says why.

States are values: :meth:`Stepper.apply` returns a new one and never changes its input.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Generic, TypeVar

from triggerstack.model.apnap import Block
from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import AbilityFacts, Facts, RequirementFacts
from triggerstack.model.limits import Deadline
from triggerstack.model.outcome import Entry, Outcome, canonical, outcome_json
from triggerstack.model.passes import Passes, StackItem, Successor, join
from triggerstack.model.rules import Rule
from triggerstack.model.shapes import TriggerBody
from triggerstack.model.things import Thing
from triggerstack.model.types import PlayerId

from ..core.indexed import Choice, IndexedOutcome, Placed, to_outcome
from ..core.space import ChoiceSpace, space_for
from ..errors import IllegalDecision
from ..options import Options
from .check import Verdict, judge

__all__ = ["ActionLayout", "Decision", "DecisionKind", "IllegalOutcome", "State", "Stepper", "Walk"]

S = TypeVar("S")
PREFIX_CACHE = 100_000
"""How many announced prefixes a pass keeps the matching choices of, before it starts afresh."""


class DecisionKind(StrEnum):
    PUT = "put"
    REMOVE = "remove"
    MODE = "mode"
    END_MODES = "end modes"
    TARGET = "target"
    END_TARGETS = "end targets"
    DIVIDE = "divide"


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: its fixed id, its kind, what it names, and its readable form."""

    id: int
    kind: DecisionKind
    text: str

    def to_str(self) -> str:
        return self.text


class IllegalOutcome(ValueError):
    """:meth:`Stepper.decisions_for` was given an outcome that ``check`` rejects: ``verdict`` says why."""

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        why = "; ".join(f"{v.message} ({v.rule})" for v in verdict.violations[:3])
        more = len(verdict.violations) - 3
        super().__init__(f"no walk reaches an illegal outcome: {why}" + (f"; and {more} more" if more > 0 else ""))


@dataclass(frozen=True, slots=True)
class ActionLayout:
    """Capacities that give decision ids one meaning in every scenario that fits them.

    Slots: *things* are the players (first, in turn order) and then the objects, in scenario
    order; *abilities* are the scenario's waiting abilities in order and then every ability a
    reaction could fire from them (``REACTION@ABILITY``, pass by pass: :attr:`Stepper.universe`);
    a mode is its index among its own ability's modes. The ids, in this order:

    ====================  ==========================================
    put ability a         a
    remove ability a      abilities + a
    mode m of ability a   2·abilities + a·modes + m
    end modes             2·abilities + abilities·modes
    target thing t        end modes + 1 + t
    target ability a      end modes + 1 + things + a
    end targets           end modes + 1 + things + abilities
    divide n              end targets + n, for n = 1 … divide
    ====================  ==========================================

    ``size`` ids in all; an id whose slot the scenario leaves empty is never legal. ``players``
    is how many seats there can be (the environment's agents), and ``passes`` how many passes of
    603.3b's loop a walk may take (it caps them as ``--max-passes`` does). A scenario's own
    smallest layout is :attr:`Stepper.needs`; :meth:`covering` takes the largest of several.
    """

    abilities: int
    things: int
    modes: int = 1
    divide: int = 0
    passes: int = 1
    players: int = 2

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ValueError(f"ActionLayout.{f.name} must be a whole number, not {value!r}")
        if self.passes < 1 or self.players < 1:
            raise ValueError("an ActionLayout has at least one pass and one player")
        if self.players > self.things:
            raise ValueError(f"ActionLayout: {self.players} players do not fit in {self.things} things")

    @classmethod
    def covering(cls, layouts: Iterable[ActionLayout]) -> ActionLayout:
        """The smallest layout that every one of ``layouts`` fits in."""
        found = list(layouts)
        if not found:
            raise ValueError("ActionLayout.covering needs at least one layout")
        return cls(**{f.name: max(getattr(x, f.name) for x in found) for f in fields(cls)})

    def fits(self, other: ActionLayout) -> bool:
        """Whether ``other`` 's ids all have a place in this layout."""
        return all(getattr(other, f.name) <= getattr(self, f.name) for f in fields(self))

    @property
    def end_modes(self) -> int:
        return 2 * self.abilities + self.abilities * self.modes

    @property
    def end_targets(self) -> int:
        return self.end_modes + 1 + self.things + self.abilities

    @property
    def size(self) -> int:
        """How many ids there are (OpenSpiel's ``num_distinct_actions``)."""
        return self.end_targets + 1 + self.divide

    def put(self, ability: int) -> int:
        return self._slot(ability, self.abilities, "ability")

    def remove(self, ability: int) -> int:
        return self.abilities + self._slot(ability, self.abilities, "ability")

    def mode(self, ability: int, mode: int) -> int:
        slot = self._slot(ability, self.abilities, "ability")
        return 2 * self.abilities + slot * self.modes + self._slot(mode, self.modes, "mode")

    def target_thing(self, thing: int) -> int:
        return self.end_modes + 1 + self._slot(thing, self.things, "thing")

    def target_ability(self, ability: int) -> int:
        return self.end_modes + 1 + self.things + self._slot(ability, self.abilities, "ability")

    def divide_amount(self, amount: int) -> int:
        return self.end_targets + self._slot(amount - 1, self.divide, "amount divided") + 1

    def describe(self, ident: int) -> str:
        """What an id means in any scenario: ``put ability 3``, ``target thing 0``, ``divide 2``."""
        id = ident
        if not 0 <= id < self.size:
            raise ValueError(f"no id {id} in this layout: ids run from 0 to {self.size - 1}")
        a = self.abilities
        if id < a:
            return f"put ability {id}"
        if id < 2 * a:
            return f"remove ability {id - a}"
        if id < self.end_modes:
            k, m = divmod(id - 2 * a, self.modes)
            return f"mode {m} of ability {k}"
        if id == self.end_modes:
            return "end modes"
        t = id - self.end_modes - 1
        if t < self.things:
            return f"target thing {t}"
        if t < self.things + a:
            return f"target ability {t - self.things}"
        if id == self.end_targets:
            return "end targets"
        return f"divide {id - self.end_targets}"

    @staticmethod
    def _slot(value: int, capacity: int, what: str) -> int:
        if not 0 <= value < capacity:
            raise ScenarioError(f"{what} slot {value} does not fit the layout (it has {capacity})")
        return value


@dataclass(frozen=True, slots=True)
class State:
    """Where a walk stands: what is placed (bottom → top) and removed, and the ability in hand
    with the tokens of its choice announced so far."""

    decisions: tuple[int, ...] = ()
    stack: tuple[Placed, ...] = ()
    removed: frozenset[int] = frozenset()
    current: int | None = None
    tokens: tuple[int, ...] = ()

    @property
    def processed(self) -> frozenset[int]:
        done = set(self.removed) | {p.ability for p in self.stack}
        if self.current is not None:
            done.add(self.current)
        return frozenset(done)


Why = tuple[str, Rule | None]


class _Checked(Generic[S]):
    """``decision``, ``mask`` and checked ``apply`` from ``legal``, ``why_illegal`` and ``apply_unchecked``."""

    size: int
    _by_id: dict[int, Decision]
    _by_text: dict[str, Decision]

    def legal(self, state: S) -> list[Decision]:
        raise NotImplementedError

    def why_illegal(self, state: S, decision: Decision) -> Why:
        raise NotImplementedError

    def decision(self, ref: Decision | int | str) -> Decision:
        """A decision from its id (any integer type), its readable form, or a decision with the
        same form (one pass's decisions name the scenario's by their text). An id or a form this
        scenario lacks raises :class:`~..errors.IllegalDecision`."""
        if isinstance(ref, Decision):
            ref = ref.text
        if isinstance(ref, str):
            found = self._by_text.get(ref)
            if found is None:
                raise IllegalDecision(ref, "this scenario has no such decision")
            return found
        i = operator.index(ref)
        found = self._by_id.get(i)
        if found is None:
            where = f"ids run from 0 to {self.size - 1}" if not 0 <= i < self.size else "its slot is empty here"
            raise IllegalDecision(str(i), f"no decision has this id ({where})")
        return found

    def apply_unchecked(self, state: S, ref: Decision | int | str) -> S:
        raise NotImplementedError

    def mask(self, state: S) -> list[bool]:
        """A 0/1 mask over all ``size`` decision ids."""
        legal = {d.id for d in self.legal(state)}
        return [i in legal for i in range(self.size)]

    def legal_actions(self, state: S) -> list[int]:
        """The ids of the legal next decisions, ascending (OpenSpiel's ``legal_actions``)."""
        return [d.id for d in self.legal(state)]

    def apply(self, state: S, ref: Decision | int | str, legal: Sequence[Decision] | None = None) -> S:
        """The state after ``ref``; a decision that is not legal now raises
        :class:`~..errors.IllegalDecision` saying why (the rule it breaks, and what is legal).
        ``legal``: the legal decisions of ``state`` where the caller already has them."""
        if legal is None:
            legal = self.legal(state)
        try:
            d = self.decision(ref)
        except IllegalDecision as exc:
            raise IllegalDecision(exc.decision, exc.reason, None, tuple(x.text for x in legal)) from None
        if all(x.id != d.id for x in legal):
            reason, rule = self.why_illegal(state, d)
            raise IllegalDecision(d.text, reason, rule, tuple(x.text for x in legal))
        return self.apply_unchecked(state, d)


@dataclass
class _PassStepper(_Checked[State]):
    """The decisions of one pass, with its caches."""

    facts: Facts
    options: Options = field(default_factory=Options)
    _choice_tokens: dict[tuple[int, frozenset[int]], list[tuple[Choice, tuple[int, ...]]]] = field(default_factory=dict)
    _entry_tokens: dict[tuple[int, frozenset[int]], dict[Entry, tuple[int, ...]]] = field(default_factory=dict)
    _prefix: dict[tuple[tuple[int, frozenset[int]], tuple[int, ...]], list[int]] = field(default_factory=dict)
    _next: dict[tuple[tuple[int, frozenset[int]], tuple[int, ...]], list[Decision]] = field(default_factory=dict)
    _whole: dict[tuple[int, frozenset[int]], dict[tuple[int, ...], Placed]] = field(default_factory=dict)
    _has: dict[tuple[int, frozenset[int]], bool] = field(default_factory=dict)
    _spaces: dict[tuple[int, frozenset[int]], ChoiceSpace] = field(default_factory=dict)

    def __post_init__(self) -> None:
        f = self.facts
        n = len(f.abilities)
        self.mode_offset: list[int] = []
        total = 0
        for a in f.abilities:
            self.mode_offset.append(total)
            total += len(a.modes) if a.modal else 0
        self.end_modes = 2 * n + total
        self.target0 = self.end_modes + 1
        self.end_targets = self.target0 + len(f.things)
        self.divide0 = self.end_targets + 1
        most = max((r.divide or 0 for a in f.abilities for m in a.modes for r in m.requirements), default=0)
        self.size = self.divide0 + most
        self._decisions = [self._make(i) for i in range(self.size)]
        self._by_id = dict(enumerate(self._decisions))
        self._by_text = {d.text: d for d in self._decisions}

    # -- the fixed numbering ------------------------------------------------------------------

    def _make(self, i: int) -> Decision:
        f = self.facts
        n = len(f.abilities)
        if i < n:
            return Decision(i, DecisionKind.PUT, f"put {f.abilities[i].id}")
        if i < 2 * n:
            return Decision(i, DecisionKind.REMOVE, f"remove {f.abilities[i - n].id}")
        if i < self.end_modes:
            j = i - 2 * n
            k = max(x for x in range(n) if self.mode_offset[x] <= j and f.abilities[x].modal)
            a = f.abilities[k]
            return Decision(i, DecisionKind.MODE, f"mode {a.id}:{a.modes[j - self.mode_offset[k]].id}")
        if i == self.end_modes:
            return Decision(i, DecisionKind.END_MODES, "end modes")
        if i < self.end_targets:
            return Decision(i, DecisionKind.TARGET, f"target {f.things[i - self.target0].id}")
        if i == self.end_targets:
            return Decision(i, DecisionKind.END_TARGETS, "end targets")
        return Decision(i, DecisionKind.DIVIDE, f"divide {i - self.divide0 + 1}")

    def tokens(self, a: AbilityFacts, choice: Choice) -> tuple[int, ...]:
        """The decisions that announce ``choice`` after ``put``."""
        out: list[int] = []
        if a.modal:
            out.extend(2 * len(self.facts.abilities) + self.mode_offset[a.index] + m.mode for m in choice.modes)
            out.append(self.end_modes)
        for inst in choice.modes:
            for i, ts in enumerate(inst.targets):
                out.extend(self.target0 + t for t in ts)
                out.append(self.end_targets)
                if inst.divide and inst.divide[i]:
                    out.extend(self.divide0 + n - 1 for n in inst.divide[i])
        return tuple(out)

    # -- legality -----------------------------------------------------------------------------

    def _choices(self, a: AbilityFacts, on_stack: frozenset[int]) -> list[tuple[Choice, tuple[int, ...]]]:
        key = (a.index, on_stack & a.waiting_targets)
        if key not in self._choice_tokens:
            listed = self._space(a, key).as_list()
            self._choice_tokens[key] = [(c, self.tokens(a, c)) for c in listed]
            self._spaces.pop(key, None)  # listed: the space is no longer needed
        return self._choice_tokens[key]

    def _space(self, a: AbilityFacts, key: tuple[int, frozenset[int]]) -> ChoiceSpace:
        space = self._spaces.get(key)
        if space is None:
            deadline = Deadline(self.options.time_limit)  # each decision's choices, within the time limit
            space = self._spaces[key] = space_for(self.facts, a, key[1], self.options.limits, deadline)
        return space

    def _has_choice(self, a: AbilityFacts, on_stack: frozenset[int]) -> bool:
        """Whether ``a`` has a legal choice now: counted, not listed (only the ability put is listed)."""
        key = (a.index, on_stack & a.waiting_targets)
        found = self._has.get(key)
        if found is None:
            found = bool(self._choice_tokens[key]) if key in self._choice_tokens else self._space(a, key).count > 0
            self._has[key] = found
        return found

    def tokens_for(self, a: AbilityFacts, on_stack: frozenset[int], entry: Entry) -> tuple[int, ...] | None:
        """The tokens that announce the choice ``entry`` records (canonical), if it is a legal one now."""
        key = (a.index, on_stack & a.waiting_targets)
        table = self._entry_tokens.get(key)
        if table is None:
            table = self._entry_tokens[key] = {}
            for choice, seq in self._choices(a, on_stack):
                placed = to_outcome(self.facts, IndexedOutcome((Placed(a.index, choice),), ())).stack[0]
                table[placed] = seq
        return table.get(canonical(self.facts, Outcome(stack=(entry,))).stack[0])

    def announced(self, state: State) -> tuple[list[int], list[int], int]:
        """What the ability in hand has announced: its chosen modes (modal abilities), the things
        it has chosen as targets, and how many requirements are done."""
        if state.current is None:
            return [], [], 0
        a = self.facts.abilities[state.current]
        base = 2 * len(self.facts.abilities) + self.mode_offset[a.index]
        modes = [t - base for t in state.tokens if 2 * len(self.facts.abilities) <= t < self.end_modes]
        targets = [t - self.target0 for t in state.tokens if self.target0 <= t < self.end_targets]
        return modes, targets, state.tokens.count(self.end_targets)

    def _current(self, state: State) -> tuple[Block | None, list[int]]:
        """The block being put on the stack (603.3b), and its abilities not yet decided."""
        done = state.processed
        for b in self.facts.blocks:
            left = [k for k in b.abilities if k not in done]
            if left:
                return b, left
        return None, []

    def _block(self, state: State) -> list[int]:
        return self._current(state)[1]

    def decider(self, state: State) -> PlayerId | None:
        """Who makes the next decision (None: the pass is over)."""
        if state.current is not None:
            return self.facts.abilities[state.current].chooser
        block = self._current(state)[0]
        return None if block is None else block.players[0]

    def legal(self, state: State) -> list[Decision]:
        """The legal next decisions, sorted by id (empty: the walk is over)."""
        f = self.facts
        on_stack = frozenset(p.ability for p in state.stack)
        if state.current is None:
            out: list[int] = []
            for k in self._block(state):
                a = f.abilities[k]
                has = self._has_choice(a, on_stack) if a.forced_removal is None else False
                if has:
                    out.append(k)
                if not has or a.may_choose_zero:
                    out.append(len(f.abilities) + k)
            return [self._decisions[i] for i in sorted(out)]
        a = f.abilities[state.current]
        key = (a.index, on_stack & a.waiting_targets)
        found = self._next.get((key, state.tokens))
        if found is None:
            self._choices(a, on_stack)
            found = self._expand(key, state.tokens)
        return list(found)

    def _expand(self, key: tuple[int, frozenset[int]], tokens: tuple[int, ...]) -> list[Decision]:
        """The decisions that can follow ``tokens``: the choices that begin with them (indices in
        their list) are grouped by their next token in one pass, and each group is kept for the
        prefix one token longer, so that a long list is scanned once per prefix reached."""
        matching = self._prefix.get((key, tokens))
        if matching is None:
            if tokens:
                self._expand(key, tokens[:-1])
                matching = self._prefix.get((key, tokens), [])
            else:
                matching = list(range(len(self._choice_tokens[key])))
        choices = self._choice_tokens[key]
        n = len(tokens)
        groups: dict[int, list[int]] = {}
        for i in matching:
            seq = choices[i][1]
            if len(seq) > n:
                groups.setdefault(seq[n], []).append(i)
        if len(self._prefix) > PREFIX_CACHE:  # a bound on memory: the walk goes on, recomputing
            self._prefix.clear()
            self._next.clear()
        for t, group in groups.items():
            self._prefix[(key, (*tokens, t))] = group
        found = self._next[(key, tokens)] = [self._decisions[t] for t in sorted(groups)]
        return found

    def why_illegal(self, state: State, decision: Decision) -> Why:
        """Why ``decision`` (one of this pass's) is not legal in ``state``: a sentence and the rule."""
        f = self.facts
        n = len(f.abilities)
        d = self._by_text[decision.text]
        if self.is_over(state):
            return "the walk is over: every waiting ability is on the stack or removed", None
        if state.current is not None:
            return self._why_token(state, f.abilities[state.current], d)
        if d.kind not in (DecisionKind.PUT, DecisionKind.REMOVE):
            return "no ability is being put on the stack: choices are announced after its 'put'", Rule.R603_3
        a = f.abilities[d.id % n]
        if any(p.ability == a.index for p in state.stack):
            return f"{a.id} is already on the stack", Rule.R603_3
        if a.index in state.removed:
            return f"{a.id} was already removed", Rule.R603_3
        if a.block is None:
            rule, why = a.forced_removal or (Rule.R800_4D, "it is never put on the stack")
            return f"{a.id} is not put on the stack nor removed by a decision: {why}", rule
        current = self._current(state)[0]
        assert current is not None  # the walk is not over
        if a.block != current.index:
            later = f.blocks[a.block].describe()
            return f"{a.id} is among {later}, which come after {current.describe()}", Rule.R603_3B
        if d.kind is DecisionKind.PUT:
            if a.forced_removal is not None:
                rule, why = a.forced_removal
                return f"{a.id} cannot be put on the stack: {why}", rule
            return f"{a.id} has no legal choice with what is on the stack now, so it is removed", Rule.R603_3D
        why = "can be put on the stack now (it has a legal choice) and may not choose no mode, so it must be"
        return f"{a.id} {why}", Rule.R603_3D

    def _why_token(self, state: State, a: AbilityFacts, d: Decision) -> Why:
        f = self.facts
        legal = self.legal(state)
        announced = " ".join(repr(self._decisions[t].text) for t in state.tokens) or "nothing yet"
        if d.kind in (DecisionKind.PUT, DecisionKind.REMOVE):
            return f"{a.id} is being put on the stack: its modes and targets are announced first", Rule.R603_3
        if d.kind is DecisionKind.MODE:
            j = d.id - 2 * len(f.abilities)
            k = max(x for x in range(len(f.abilities)) if self.mode_offset[x] <= j and f.abilities[x].modal)
            if k != a.index:
                return f"{d.text[5:]} is a mode of {f.abilities[k].id}, not of {a.id} (in hand)", Rule.R700_2
            mode = a.modes[d.id - 2 * len(f.abilities) - self.mode_offset[k]]
            if not mode.available:
                return f"mode {mode.id} of {a.id} is not available", Rule.R700_2
        if legal and all(x.kind is DecisionKind.DIVIDE for x in legal):
            return f"the amounts {a.id} divides among the targets just chosen come first", Rule.R601_2D
        if d.kind is DecisionKind.TARGET:
            t = d.id - self.target0
            req = self._requirement(a, state.tokens)
            if req is not None and t in req.excluded:
                ex = req.excluded[t][0]
                return f"{f.things[t].id} cannot be chosen for {a.id}'s target {req.id!r}: {ex.reason}", ex.rule
            if t >= f.first_waiting and t - f.first_waiting not in {p.ability for p in state.stack}:
                return f"{f.things[t].id} is not on the stack below {a.id}", Rule.R601_2C
        return (
            f"no legal choice of {a.id} goes on with {d.text!r} after {announced} "
            f"(counts, different targets, must-target effects or divisions rule it out)",
            Rule.R601_2C if d.kind in (DecisionKind.TARGET, DecisionKind.END_TARGETS) else Rule.R700_2,
        )

    def _requirement(self, a: AbilityFacts, tokens: Sequence[int]) -> RequirementFacts | None:
        """The requirement whose targets are being chosen after ``tokens`` (None: modes first)."""
        rest = list(tokens)
        instances = [0]
        if a.modal:
            if self.end_modes not in rest:
                return None
            at = rest.index(self.end_modes)
            base = 2 * len(self.facts.abilities) + self.mode_offset[a.index]
            instances = [t - base for t in rest[:at]]
            rest = rest[at + 1 :]
        done = rest.count(self.end_targets)
        sequence = [r for m in instances for r in a.modes[m].requirements]
        return sequence[done] if done < len(sequence) else None

    def apply_unchecked(self, state: State, ref: Decision | int | str) -> State:
        """The state after ``ref`` without checking that it is legal (for walks that already did)."""
        d = self.decision(ref)
        f = self.facts
        decisions = (*state.decisions, d.id)
        if d.kind is DecisionKind.PUT:
            return self._finish(State(decisions, state.stack, state.removed, d.id, ()))
        if d.kind is DecisionKind.REMOVE:
            return State(decisions, state.stack, state.removed | {d.id - len(f.abilities)}, None, ())
        return self._finish(State(decisions, state.stack, state.removed, state.current, (*state.tokens, d.id)))

    def _finish(self, state: State) -> State:
        """Place the ability in hand once its tokens spell a whole choice."""
        assert state.current is not None
        a = self.facts.abilities[state.current]
        key = (a.index, frozenset(p.ability for p in state.stack) & a.waiting_targets)
        whole = self._whole.get(key)
        if whole is None:
            choices = self._choices(a, key[1])
            whole = self._whole[key] = {seq: Placed(a.index, c) for c, seq in choices}
        placed = whole.get(state.tokens)
        if placed is None:
            return state
        return State(state.decisions, (*state.stack, placed), state.removed, None, ())

    def is_over(self, state: State) -> bool:
        return state.current is None and not self._block(state)

    def outcome(self, state: State) -> Outcome:
        """The outcome a finished walk reached."""
        if not self.is_over(state):
            raise ScenarioError("the walk is not over: there are legal decisions left")
        never = {a.index for a in self.facts.abilities if a.block is None}
        return to_outcome(self.facts, IndexedOutcome(state.stack, tuple(sorted(state.removed | never))))

    def walk(self, decisions: Iterable[Decision | int | str]) -> State:
        """The state after ``decisions`` from the start, each checked."""
        state = State()
        for d in decisions:
            state = self.apply(state, d)
        return state


@dataclass(frozen=True, slots=True)
class Walk:
    """A walk across passes: the finished passes, and the pass in progress."""

    done: tuple[tuple[Facts, State], ...] = ()
    facts: Facts | None = None
    local: State = State()
    on_stack: tuple[StackItem, ...] = ()
    decisions: tuple[int, ...] = ()


UNIVERSE = 4096
"""The most abilities laid out in advance: past it (a long chain of reactions, or a loop that fires
more every pass) the abilities a walk meets get the next free ids as they first appear."""


def _reachable(facts: Facts, body: TriggerBody, watched: Thing | None) -> bool:
    """Whether an ability with ``body`` could target ``watched`` (None: anything), whoever
    controls it (:meth:`Facts.may_fit`)."""
    return any(
        watched is None or facts.may_fit(r.filter, watched) for _, reqs in body.requirement_lists() for r in reqs
    )


class Stepper(_Checked[Walk]):
    """The decision space of a scenario — every pass of 603.3b's loop — with fixed ids.

    Ids are laid out as in one pass (see the module docstring) over a *universe*
    (:attr:`universe`): the waiting abilities and every ability a reaction could fire from them
    (``REACTION@ABILITY``: an ability with a requirement that could name the reaction's object,
    up to ``limits.passes`` deep), and as things the players, the objects and that universe. A
    pass that ends having fired abilities starts the next pass by itself. Build it once per
    scenario. With ``layout`` the ids are those of the :class:`ActionLayout` instead (the same
    across scenarios that fit it; one that does not fit is refused naming what overflows).

    With an engine's ``next_pass`` hook (:class:`~..options.Options`), what it fires cannot be
    known in advance: the decisions of an ability or thing it fires get the next free ids (or
    slots) when they first appear, so ``size`` can grow during walks without a layout.
    """

    def __init__(self, facts: Facts, options: Options | None = None, layout: ActionLayout | None = None) -> None:
        self.facts = facts
        self.options = options or Options()
        self.layout = layout
        max_passes = self.options.limits.passes if layout is None else min(layout.passes, self.options.limits.passes)
        self.passes = Passes(facts, self.options.next_pass, max_passes)
        s = facts.scenario
        watched = {r.id: self._watched(r.object) for r in s.reactions}
        bodies: list[tuple[str, TriggerBody]] = [(t.id, t) for t in s.triggers]
        level = list(bodies)
        depth = 1
        for _ in range(self.passes.max_passes - 1):
            nxt = [
                (f"{r.id}@{aid}", r.trigger)
                for aid, body in level
                for r in s.reactions
                if _reachable(facts, body, watched[r.id])
            ]
            if not nxt or len(bodies) + len(nxt) > UNIVERSE:
                break  # nothing more fires, or a long chain or a loop: later ones get ids as they come
            bodies.extend(nxt)
            level = nxt
            depth += 1
        self.universe: tuple[str, ...] = tuple(aid for aid, _ in bodies)
        """The abilities a walk can meet, by slot: the waiting ones, then what reactions could fire."""
        self.thing_slots: tuple[str, ...] = (*(p.id for p in s.players), *(o.id for o in s.objects))
        """The players (in turn order) and objects, by thing slot."""
        self._ability_slot = {aid: i for i, aid in enumerate(self.universe)}
        self._thing_slot = {t: i for i, t in enumerate(self.thing_slots)}
        self._modes: dict[str, list[str]] = {aid: [m.id for m in b.modes] for aid, b in bodies if b.modal is not None}
        most = max((r.divide or 0 for _, b in bodies for _, reqs in b.requirement_lists() for r in reqs), default=0)
        self.needs = ActionLayout(
            abilities=len(bodies),
            things=len(self.thing_slots),
            modes=max((len(m) for m in self._modes.values()), default=0) or 1,
            divide=most,
            passes=depth,
            players=len(s.players),
        )
        """The smallest :class:`ActionLayout` this scenario fits."""
        if layout is not None and not layout.fits(self.needs):
            over = [
                f"{getattr(self.needs, f.name)} {f.name} (the layout has {getattr(layout, f.name)})"
                for f in fields(ActionLayout)
                if getattr(self.needs, f.name) > getattr(layout, f.name) and f.name != "passes"
            ]
            if over:
                raise ScenarioError("the scenario does not fit the action layout: it needs " + ", ".join(over))
        texts = [f"put {aid}" for aid, _ in bodies] + [f"remove {aid}" for aid, _ in bodies]
        texts += [f"mode {aid}:{m.id}" for aid, b in bodies if b.modal is not None for m in b.modes]
        texts.append("end modes")
        things = [*self.thing_slots, *self.universe]
        texts += [f"target {t}" for t in things]
        texts.append("end targets")
        texts += [f"divide {k}" for k in range(1, most + 1)]
        self._by_text: dict[str, Decision] = {}
        self._by_id: dict[int, Decision] = {}
        self.size = 0 if layout is None else layout.size
        for t in texts:
            self._add(t)
        self._steppers: dict[int, tuple[_PassStepper, list[Decision]]] = {}
        self._after: dict[tuple[object, ...], Successor] = {}

    def _watched(self, obj: str) -> Thing | None:
        k = self.facts.thing_index.get(obj)
        return None if k is None else self.facts.things[k]

    def _add(self, text: str) -> Decision:
        """Give ``text`` its id: the next free one, or its place in the layout."""
        if self.layout is None:
            i = self.size
            self.size += 1
        else:
            i = self._layout_id(text)
        d = self._by_text[text] = self._by_id[i] = Decision(i, _kind_of(text), text)
        return d

    def _layout_id(self, text: str) -> int:
        layout = self.layout
        assert layout is not None
        kind = _kind_of(text)
        rest = text.partition(" ")[2]
        if kind is DecisionKind.END_MODES:
            return layout.end_modes
        if kind is DecisionKind.END_TARGETS:
            return layout.end_targets
        if kind is DecisionKind.PUT:
            return layout.put(self._slot_of(rest))
        if kind is DecisionKind.REMOVE:
            return layout.remove(self._slot_of(rest))
        if kind is DecisionKind.MODE:
            aid, _, mode = rest.rpartition(":")
            return layout.mode(self._slot_of(aid), self._modes[aid].index(mode))
        if kind is DecisionKind.TARGET:
            t = self._thing_slot.get(rest)
            return layout.target_thing(t) if t is not None else layout.target_ability(self._slot_of(rest))
        return layout.divide_amount(int(rest))

    def _slot_of(self, aid: str) -> int:
        """An ability's slot; one a hook fired gets the next free slot."""
        slot = self._ability_slot.get(aid)
        if slot is None:
            slot = self._ability_slot[aid] = len(self.universe)
            self.universe = (*self.universe, aid)
        return slot

    def _local(self, facts: Facts) -> tuple[_PassStepper, list[Decision]]:
        """One pass's stepper, and its decisions' global forms by local id."""
        found = self._steppers.get(id(facts))  # one Facts per distinct pass scenario (Passes keeps them)
        if found is None:
            stepper = _PassStepper(facts, self.options)
            for a in facts.abilities:  # a hook's pass may name what no reaction could fire
                if a.modal and a.id not in self._modes:
                    self._modes[a.id] = [m.id or "" for m in a.modes]
            glob = [self._by_text.get(d.text) or self._add(d.text) for d in stepper._decisions]
            found = self._steppers[id(facts)] = (stepper, glob)
        return found

    def start(self) -> Walk:
        return Walk(facts=self.facts)

    def ability_slot(self, ability: str) -> int:
        """The slot of an ability of :attr:`universe` (its place in an :class:`ActionLayout`)."""
        return self._slot_of(ability)

    def thing_slot(self, thing: str) -> int | None:
        """The slot of a player or object (None: not one; abilities have :meth:`ability_slot`)."""
        return self._thing_slot.get(thing)

    def pass_stepper(self, facts: Facts) -> _PassStepper:
        """The stepper of one pass (``walk.facts``), with its local numbering."""
        return self._local(facts)[0]

    def legal(self, walk: Walk) -> list[Decision]:
        """The legal next decisions, sorted by id (empty: the walk is over)."""
        assert walk.facts is not None
        local, glob = self._local(walk.facts)
        out = [glob[d.id] for d in local.legal(walk.local)]
        out.sort(key=lambda d: d.id)
        return out

    def decider(self, walk: Walk) -> PlayerId | None:
        """The player who makes the next decision of ``walk`` (None once it is over): the chooser
        of the ability in hand (700.2e), else the player whose block is being put (603.3b)."""
        assert walk.facts is not None
        return self._local(walk.facts)[0].decider(walk.local)

    def why_illegal(self, walk: Walk, decision: Decision) -> Why:
        assert walk.facts is not None
        local, _ = self._local(walk.facts)
        if decision.text in local._by_text:
            return local.why_illegal(walk.local, decision)
        if self.is_over(walk):
            return "the walk is over: every waiting ability is on the stack or removed", None
        name = decision.text.partition(" ")[2].rpartition(":")[0] if decision.kind is DecisionKind.MODE else ""
        name = name or decision.text.partition(" ")[2]
        if decision.kind is DecisionKind.TARGET:
            return f"{name} is not a thing of this pass: it has not triggered", Rule.R601_2C
        if any(name in f.ability_index for f, _ in walk.done):
            return f"{name} was put on the stack or removed in an earlier pass", Rule.R603_3B
        return f"{name} is not waiting in this pass: it has not triggered", Rule.R603_3B

    def apply_unchecked(self, walk: Walk, ref: Decision | int | str) -> Walk:
        """The walk after ``ref`` without checking that it is legal; starts the next pass when
        this one is over and fired abilities."""
        d = self.decision(ref)
        facts = walk.facts
        assert facts is not None
        local, _ = self._local(facts)
        state = local.apply_unchecked(walk.local, local._by_text[d.text])
        walk = Walk(walk.done, facts, state, walk.on_stack, (*walk.decisions, d.id))
        if not local.is_over(state):
            return walk
        key = (id(facts), tuple(id(p) for p in state.stack), state.removed, walk.on_stack)
        successor = self._after.get(key)  # the pass's Placed objects are kept by its stepper: ids name them
        if successor is None:
            successor = self.passes.after(facts, local.outcome(state), walk.on_stack, len(walk.done))
            if len(self._after) > PREFIX_CACHE:
                self._after.clear()
            self._after[key] = successor
        if successor.facts is None:
            return walk
        self._local(successor.facts)  # a hook's pass: its decisions get their ids now
        return Walk((*walk.done, (facts, state)), successor.facts, State(), successor.on_stack, walk.decisions)

    def is_over(self, walk: Walk) -> bool:
        assert walk.facts is not None
        return self._local(walk.facts)[0].is_over(walk.local)

    def outcome(self, walk: Walk) -> Outcome:
        """The whole outcome a finished walk reached (every pass)."""
        if not self.is_over(walk):
            raise ScenarioError("the walk is not over: there are legal decisions left")
        assert walk.facts is not None
        parts = [self._local(f)[0].outcome(st) for f, st in walk.done]
        return join([*parts, self._local(walk.facts)[0].outcome(walk.local)])

    def so_far(self, walk: Walk) -> Outcome:
        """What a walk has put on the stack and removed so far, every pass (the ability in hand,
        not yet placed, is in neither); :meth:`outcome` once it is over."""
        assert walk.facts is not None
        parts = [self._local(f)[0].outcome(st) for f, st in walk.done]
        f = walk.facts
        parts.append(to_outcome(f, IndexedOutcome(walk.local.stack, tuple(sorted(walk.local.removed)))))
        return join(parts)

    def reachable(self, walk: Walk, cap: int, deadline: Deadline) -> tuple[int, bool]:
        """How many distinct outcomes ``walk`` can still end in: (the number, exact?). Counted by
        walking every continuation (states reached twice are walked once), up to ``cap``."""
        seen: set[tuple[object, ...]] = set()
        ends: set[str] = set()
        pending = [walk]
        steps = 0
        while pending:
            w = pending.pop()
            done = tuple((id(f), st.stack, st.removed) for f, st in w.done)
            here = w.local
            key: tuple[object, ...] = (done, id(w.facts), here.stack, here.removed, here.current, here.tokens)
            if key in seen:
                continue
            seen.add(key)
            steps += 1
            if steps % 512 == 0:
                deadline.check("counting the outcomes still reachable")
            legal = self.legal(w)
            if not legal:
                ends.add(outcome_json(self.outcome(w)))
                if len(ends) >= cap:
                    return len(ends), False
                continue
            pending.extend(self.apply_unchecked(w, d) for d in legal)
        return len(ends), True

    def walk(self, decisions: Iterable[Decision | int | str]) -> Walk:
        """The walk after ``decisions`` from the start, each checked."""
        walk = self.start()
        for d in decisions:
            walk = self.apply(walk, d)
        return walk

    def decisions_for(self, outcome: Outcome) -> list[Decision]:
        """A sequence of decisions whose walk ends in ``outcome`` (for imitation learning, or to
        replay an engine's log). An outcome that ``check`` rejects raises :class:`IllegalOutcome`
        with the verdict. Within a block, the removals come as early as they are legal."""
        verdict = judge(self.passes, outcome, Deadline(self.options.time_limit))
        if not verdict.legal:
            raise IllegalOutcome(verdict)
        walk = self.start()
        removed = set(outcome.removed)
        placed = 0
        while not self.is_over(walk):
            facts = walk.facts
            assert facts is not None
            local, glob = self._local(facts)
            n = len(facts.abilities)
            legal = local.legal(walk.local)
            drops = (d for d in legal if d.kind is DecisionKind.REMOVE and facts.abilities[d.id - n].id in removed)
            drop = next(drops, None)
            if drop is not None:
                walk = self.apply_unchecked(walk, glob[drop.id])
                continue
            entry = outcome.stack[placed] if placed < len(outcome.stack) else None
            put = None if entry is None else local._by_text.get(f"put {entry.ability}")
            if entry is None or put is None or put not in legal:
                raise AssertionError(f"check accepts the outcome but no walk reaches it (at entry {placed})")
            a = facts.abilities[put.id]
            tokens = local.tokens_for(a, frozenset(p.ability for p in walk.local.stack), entry)
            if tokens is None:
                raise AssertionError(f"check accepts the outcome but no walk announces entry {placed}'s choices")
            walk = self.apply_unchecked(walk, glob[put.id])
            for t in tokens:
                walk = self.apply_unchecked(walk, glob[t])
            placed += 1
        reached = self.outcome(walk)
        if placed != len(outcome.stack) or reached.stack != canonical(self.facts, outcome).stack:
            raise AssertionError("check accepts the outcome but the walk reached another one")
        return [self._by_id[i] for i in walk.decisions]


def _kind_of(text: str) -> DecisionKind:
    for kind in (DecisionKind.END_MODES, DecisionKind.END_TARGETS):
        if text == kind.value:
            return kind
    return DecisionKind(text.split(" ", 1)[0])
