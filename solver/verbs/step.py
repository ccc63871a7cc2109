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

States are values: :meth:`Stepper.apply` returns a new one and never changes its input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Generic, TypeVar

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import AbilityFacts, Facts
from triggerstack.model.limits import Deadline
from triggerstack.model.outcome import Outcome
from triggerstack.model.passes import Passes, StackItem, join
from triggerstack.model.shapes import TriggerBody

from ..core.indexed import Choice, IndexedOutcome, Placed, to_outcome
from ..core.space import space_for
from ..options import Options

__all__ = ["Decision", "DecisionKind", "State", "Stepper", "Walk"]

S = TypeVar("S")


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


class _Checked(Generic[S]):
    """``decision``, ``mask`` and checked ``apply`` from ``legal`` and ``apply_unchecked``."""

    size: int
    _decisions: list[Decision]
    _by_text: dict[str, Decision]

    def legal(self, state: S) -> list[Decision]:
        raise NotImplementedError

    def decision(self, ref: Decision | int | str) -> Decision:
        """A decision from its id, its readable form, or a decision with the same form (one
        pass's decisions name the scenario's by their text)."""
        if isinstance(ref, Decision):
            ref = ref.text
        if isinstance(ref, int):
            if not 0 <= ref < self.size:
                raise ScenarioError(f"no decision {ref}: ids run from 0 to {self.size - 1}")
            return self._decisions[ref]
        if ref not in self._by_text:
            raise ScenarioError(f"no decision {ref!r} in this scenario")
        return self._by_text[ref]

    def apply_unchecked(self, state: S, ref: Decision | int | str) -> S:
        raise NotImplementedError

    def mask(self, state: S) -> list[bool]:
        """A 0/1 mask over all ``size`` decision ids."""
        legal = {d.id for d in self.legal(state)}
        return [i in legal for i in range(self.size)]

    def apply(self, state: S, ref: Decision | int | str) -> S:
        """The state after ``ref``; refuses a decision that is not legal now."""
        d = self.decision(ref)
        if d.id not in {x.id for x in self.legal(state)}:
            raise ScenarioError(f"{d.text!r} is not a legal decision now")
        return self.apply_unchecked(state, d)


@dataclass
class _PassStepper(_Checked[State]):
    """The decisions of one pass, with its caches."""

    facts: Facts
    options: Options = field(default_factory=Options)
    _choice_tokens: dict[tuple[int, frozenset[int]], list[tuple[Choice, tuple[int, ...]]]] = field(default_factory=dict)

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
            deadline = Deadline(self.options.time_limit)  # each decision's choices, within the time limit
            listed = space_for(self.facts, a, key[1], self.options.limits, deadline).as_list()
            self._choice_tokens[key] = [(c, self.tokens(a, c)) for c in listed]
        return self._choice_tokens[key]

    def _block(self, state: State) -> list[int]:
        done = state.processed
        for b in self.facts.blocks:
            left = [k for k in b.abilities if k not in done]
            if left:
                return left
        return []

    def legal(self, state: State) -> list[Decision]:
        """The legal next decisions, sorted by id (empty: the walk is over)."""
        f = self.facts
        on_stack = frozenset(p.ability for p in state.stack)
        if state.current is None:
            out: list[int] = []
            for k in self._block(state):
                a = f.abilities[k]
                has = bool(self._choices(a, on_stack)) if a.forced_removal is None else False
                if has:
                    out.append(k)
                if not has or a.may_choose_zero:
                    out.append(len(f.abilities) + k)
            return [self._decisions[i] for i in sorted(out)]
        a = f.abilities[state.current]
        n = len(state.tokens)
        nxt = {seq[n] for _, seq in self._choices(a, on_stack) if len(seq) > n and seq[:n] == state.tokens}
        return [self._decisions[i] for i in sorted(nxt)]

    def apply_unchecked(self, state: State, ref: Decision | int | str) -> State:
        """The state after ``ref`` without checking that it is legal (for walks that already did)."""
        d = self.decision(ref)
        f = self.facts
        decisions = (*state.decisions, d.id)
        if d.kind is DecisionKind.PUT:
            state = replace(state, decisions=decisions, current=d.id, tokens=())
            return self._finish(state)
        if d.kind is DecisionKind.REMOVE:
            return replace(state, decisions=decisions, removed=state.removed | {d.id - len(f.abilities)})
        return self._finish(replace(state, decisions=decisions, tokens=(*state.tokens, d.id)))

    def _finish(self, state: State) -> State:
        """Place the ability in hand once its tokens spell a whole choice."""
        assert state.current is not None
        a = self.facts.abilities[state.current]
        on_stack = frozenset(p.ability for p in state.stack)
        for choice, seq in self._choices(a, on_stack):
            if seq == state.tokens:
                return replace(state, stack=(*state.stack, Placed(a.index, choice)), current=None, tokens=())
        return state

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


class Stepper(_Checked[Walk]):
    """The decision space of a scenario — every pass of 603.3b's loop — with fixed ids.

    Ids are laid out as in one pass (see the module docstring) over a *universe*: the waiting
    abilities and every ability a reaction could fire from them (``REACTION@ABILITY``, up to
    ``limits.passes`` deep), and as things the players, the objects and that universe. A pass that
    ends having fired abilities starts the next pass by itself. Build it once per scenario.

    With an engine's ``next_pass`` hook (:class:`~..options.Options`), what it fires cannot be
    known in advance: the decisions of an ability or thing it fires get the next free ids when
    they first appear, so ``size`` grows during walks.
    """

    def __init__(self, facts: Facts, options: Options | None = None) -> None:
        self.facts = facts
        self.options = options or Options()
        self.passes = Passes(facts, self.options.next_pass, self.options.limits.passes)
        s = facts.scenario
        bodies: list[tuple[str, TriggerBody]] = [(t.id, t) for t in s.triggers]
        level = list(bodies)
        for _ in range(self.passes.max_passes - 1):
            nxt = [
                (f"{r.id}@{aid}", r.trigger)
                for aid, body in level
                if any(req for _, reqs in body.requirement_lists() for req in reqs)
                for r in s.reactions
            ]
            bodies.extend(nxt)
            level = nxt
        texts = [f"put {aid}" for aid, _ in bodies] + [f"remove {aid}" for aid, _ in bodies]
        texts += [f"mode {aid}:{m.id}" for aid, b in bodies if b.modal is not None for m in b.modes]
        texts.append("end modes")
        things = [p.id for p in s.players] + [o.id for o in s.objects] + [aid for aid, _ in bodies]
        texts += [f"target {t}" for t in things]
        texts.append("end targets")
        most = max((r.divide or 0 for _, b in bodies for _, reqs in b.requirement_lists() for r in reqs), default=0)
        texts += [f"divide {k}" for k in range(1, most + 1)]
        self._decisions = [Decision(i, _kind_of(t), t) for i, t in enumerate(texts)]
        self._by_text = {d.text: d for d in self._decisions}
        self.size = len(self._decisions)
        self._steppers: dict[int, _PassStepper] = {}

    def _local(self, facts: Facts) -> _PassStepper:
        stepper = self._steppers.get(id(facts))  # one Facts per distinct pass scenario (Passes keeps them)
        if stepper is None:
            stepper = self._steppers[id(facts)] = _PassStepper(facts, self.options)
            for d in stepper._decisions:  # a hook's pass may name what no reaction could fire
                if d.text not in self._by_text:
                    self._by_text[d.text] = Decision(self.size, d.kind, d.text)
                    self._decisions.append(self._by_text[d.text])
                    self.size += 1
        return stepper

    def start(self) -> Walk:
        return Walk(facts=self.facts)

    def legal(self, walk: Walk) -> list[Decision]:
        """The legal next decisions, sorted by id (empty: the walk is over)."""
        assert walk.facts is not None
        local = self._local(walk.facts)
        return sorted((self._by_text[d.text] for d in local.legal(walk.local)), key=lambda d: d.id)

    def apply_unchecked(self, walk: Walk, ref: Decision | int | str) -> Walk:
        """The walk after ``ref`` without checking that it is legal; starts the next pass when
        this one is over and fired abilities."""
        d = self.decision(ref)
        facts = walk.facts
        assert facts is not None
        local = self._local(facts)
        state = local.apply_unchecked(walk.local, local.decision(d.text))
        walk = replace(walk, local=state, decisions=(*walk.decisions, d.id))
        if not local.is_over(state):
            return walk
        successor = self.passes.after(facts, local.outcome(state), walk.on_stack, len(walk.done))
        if successor.facts is None:
            return walk
        self._local(successor.facts)  # a hook's pass: its decisions get their ids now
        return Walk((*walk.done, (facts, state)), successor.facts, State(), successor.on_stack, walk.decisions)

    def is_over(self, walk: Walk) -> bool:
        assert walk.facts is not None
        return self._local(walk.facts).is_over(walk.local)

    def outcome(self, walk: Walk) -> Outcome:
        """The whole outcome a finished walk reached (every pass)."""
        if not self.is_over(walk):
            raise ScenarioError("the walk is not over: there are legal decisions left")
        assert walk.facts is not None
        return join([self._local(f).outcome(st) for f, st in walk.done] + [self._local(walk.facts).outcome(walk.local)])

    def walk(self, decisions: Iterable[Decision | int | str]) -> Walk:
        """The walk after ``decisions`` from the start, each checked."""
        walk = self.start()
        for d in decisions:
            walk = self.apply(walk, d)
        return walk


def _kind_of(text: str) -> DecisionKind:
    for kind in (DecisionKind.END_MODES, DecisionKind.END_TARGETS):
        if text == kind.value:
            return kind
    return DecisionKind(text.split(" ", 1)[0])
