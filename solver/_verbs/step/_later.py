"""What a legal outcome takes further on: the search a judge's "why not" asks before it cites a rule.

A walk decides one thing at a time; an outcome is what a judge rules on. A decision not legal now
that some legal outcome extending the walk takes — a put once the ability in hand is announced, a
removal in a later block, a target of a later requirement, a mode or target of the next ability
put — breaks no rule: :func:`later` says how to get there. Only where none does is a rule cited
(:meth:`~._pass.PassStepper.why_illegal`; the property of tests/property/test_why.py holds the two
to the legal outcomes).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol

from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._limits import RUNNING

from ... import _judge as judge
from ..._core.indexed import Choice
from ..._judge import Reason
from ._announce import Announcer
from ._decision import Decision, DecisionKind, Key
from ._state import State


class Pass(Protocol):
    """What the search asks of a pass's stepper (:class:`~._pass.PassStepper`)."""

    facts: Facts
    _token: dict[Key, int]
    mode_offset: list[int]
    end_modes: int
    target0: int
    end_targets: int

    @property
    def decisions(self) -> Sequence[Decision]: ...
    def legal(self, state: State) -> list[Decision]: ...
    def _open(self, a: AbilityFacts, tokens: Sequence[int]) -> int | None: ...
    def _consistent(self, a: AbilityFacts, state: State) -> list[tuple[int, ...]]: ...
    def _choices(self, a: AbilityFacts, on_stack: frozenset[int]) -> list[tuple[Choice, tuple[int, ...]]]: ...
    def _announcer(self, a: AbilityFacts, key: tuple[int, frozenset[int]]) -> Announcer | None: ...
    def _has_choice(self, a: AbilityFacts, on_stack: frozenset[int]) -> bool: ...


SEARCHED = 65_536
"""How many points of a pass (which abilities are placed and which done) "why not" searches for a
later put or removal before it says it did not decide."""


def later(p: Pass, state: State, d: Decision, tok: int) -> Reason | None:
    """The judge room's "not yet" for ``d`` (not legal now) where a legal outcome extending the
    walk takes it further on, saying how the walk gets there; its "undecided" where the search
    stopped at its bound; None where no legal outcome extending the walk takes it."""
    return _how(p, state, d, tok)


def _how(p: Pass, state: State, d: Decision, tok: int) -> Reason | None:
    """How a walk reaches a legal outcome that takes ``d`` further on, in the sense a decision
    has for the outcome: a put, the ability placed next; a removal, the ability removed; a mode
    or a target, one of the ability in hand's (else of the next one put)."""
    f = p.facts
    if state.current is not None:
        a = f.abilities[state.current]
        if d.kind in (DecisionKind.PUT, DecisionKind.REMOVE):
            after = _at(state, state.placed | {a.index}, state.processed)
            path = _path(p, after, d, puts=d.kind is DecisionKind.REMOVE)
            return path if not isinstance(path, list) else judge.announce_then(said(p, d), a.id, path)
        if d.kind is DecisionKind.TARGET:
            return _later_target(p, state, a, tok - p.target0, said(p, d))
        return None
    if d.kind in (DecisionKind.PUT, DecisionKind.REMOVE):
        # a put is the next ability on the stack: only removals may come before it
        path = _path(p, state, d, puts=d.kind is DecisionKind.REMOVE)
        if isinstance(path, list):
            return judge.first_then(said(p, d), path) if path else None
        return path
    if d.kind not in (DecisionKind.MODE, DecisionKind.TARGET):
        return None
    for a in f.abilities:  # the next ability put (only removals may come before it) takes it
        if d.kind is DecisionKind.MODE and d.subject != a.id:
            continue
        path = _path(p, state, p.decisions[a.index], puts=False)
        if not isinstance(path, list):
            if path is not None:
                return path
            continue
        then = [*path, f"put {a.id}"]
        if d.kind is DecisionKind.MODE and _takes(p, a, state.placed, mode=d.mode):
            return judge.first_then(said(p, d), then)
        if d.kind is DecisionKind.TARGET and _takes(p, a, state.placed, thing=tok - p.target0):
            return judge.first_then(said(p, d), then, (d.subject, a.id))
    return None


def _path(p: Pass, state: State, d: Decision, puts: bool) -> list[str] | Reason | None:
    """The shortest way through the pass, a put or removal at a time (``puts``: else removals
    only; the choices announced do not change what may follow, only which abilities are on the
    stack does), to a point where ``d`` (a put or a removal) may be taken. None where no point
    may; a reason past the search's bound."""
    seen = {(state.placed, state.processed)}
    frontier: list[tuple[frozenset[int], frozenset[int], tuple[str, ...]]] = [(state.placed, state.processed, ())]
    while frontier:
        nxt: list[tuple[frozenset[int], frozenset[int], tuple[str, ...]]] = []
        for placed, processed, path in frontier:
            moves = p.legal(_at(state, placed, processed))
            if d in moves:
                return list(path)
            for m in moves:
                if m.kind is DecisionKind.PUT and not puts:
                    continue
                j = p._token[m.key] % len(p.facts.abilities)
                key = (placed | {j} if m.kind is DecisionKind.PUT else placed, processed | {j})
                if key not in seen:
                    seen.add(key)
                    nxt.append((*key, (*path, m.text)))
            if len(seen) > SEARCHED:
                return judge.undecided(d.text, SEARCHED)
        RUNNING.check("searching the walk for a later removal")
        frontier = nxt
    return None


def _takes(p: Pass, a: AbilityFacts, on_stack: frozenset[int], mode: str = "", thing: int | None = None) -> bool:
    """Whether some legal choice of ``a`` (put with ``on_stack`` below) takes ``mode`` / targets ``thing``."""
    key = (a.index, on_stack & a.waiting_targets)
    if not p._has_choice(a, on_stack):
        return False
    announcer = p._announcer(a, key)
    m0 = 2 * len(p.facts.abilities) + p.mode_offset[a.index]
    want = m0 + next(i for i, m in enumerate(a.modes) if m.id == mode) if mode else p.target0 + (thing or 0)
    if announcer is not None:
        return any(
            (want - m0 in ms) if mode else any(thing in r.pool and r.high for m in ms for r in announcer.modes[m])
            for ms in announcer.multisets
        )
    return any(want in seq for _, seq in p._choices(a, on_stack))


def _later_target(p: Pass, state: State, a: AbilityFacts, t: int, said: str) -> Reason | None:
    """How the ability in hand may still target thing ``t``: in a requirement after the one
    being chosen (or dividing), or once its modes are chosen. None where no legal choice does."""
    tokens, want = state.tokens, p.target0 + t
    start = p._open(a, tokens)
    thing = p.facts.things[t].id
    modes_open = a.modal and p.end_modes not in tokens
    for seq in p._consistent(a, state):
        if modes_open:
            if want in seq:
                return judge.modes_first(said, a.id, thing)
            continue
        at = len(tokens) if start is None else seq.index(p.end_targets, start) + 1  # past the open set
        if want in seq[at:]:
            return judge.next_requirement(said, a.id, thing, dividing=start is None)
    return None


Instance = tuple[int, tuple[int, ...]]
"""One instance of a mode a choice announces: the mode, and the tokens of its targets and parts."""


def reordered(p: Pass, state: State, a: AbilityFacts, d: Decision, tok: int) -> Reason | None:
    """The judge room's "in another order" for ``d`` (a target, end of targets or part of the
    ability in hand, not legal now) where a mode is chosen more than once (700.2d): a walk announces
    the instances of a mode in one order (by their targets, then their divisions, as choices are
    listed), but they are a multiset — a legal choice holding the instances announced so far and
    one that goes on as ``d`` does, in any order, takes ``d``. None where none does."""
    if not (a.modal and a.repeat) or p.end_modes not in state.tokens:
        return None
    tokens = (*state.tokens, tok)
    if d.kind is DecisionKind.TARGET and state.tokens and tok < state.tokens[-1]:
        start = p._open(a, state.tokens)
        if start is not None:  # the open set is kept sorted, as the walk keeps it
            tokens = (*state.tokens[:start], *sorted((*state.tokens[start:], tok)))
    modes, closed, going = _instances(p, a, tokens)
    if len(set(modes)) == len(modes):
        return None
    for _, seq in p._choices(a, state.placed):
        held, every, _ = _instances(p, a, seq)
        if sorted(held) != sorted(modes):
            continue
        rest = Counter(every)
        rest.subtract(closed)
        if any(n < 0 for n in rest.values()):
            continue
        if going is None or any(n > 0 and _goes_on(p, inst, going) for inst, n in rest.items()):
            mode = going[0] if going is not None else closed[-1][0]
            order = [[p.decisions[t].text for t in seg] for m, seg in every if m == mode]
            return judge.instances_in_order(a, a.modes[mode], said(p, d), order)
    return None


def _instances(
    p: Pass, a: AbilityFacts, tokens: Sequence[int]
) -> tuple[list[int], list[Instance], tuple[int, tuple[int, ...], tuple[int, ...]] | None]:
    """What ``tokens`` (a modal ability's, its modes ended) announce: the modes, each whole
    instance, and the one being announced (its mode, its tokens up to the set open, and that set)."""
    i = list(tokens).index(p.end_modes)
    base = 2 * len(p.facts.abilities) + p.mode_offset[a.index]
    modes = [t - base for t in tokens[:i]]
    rest = tuple(tokens[i + 1 :])
    whole: list[Instance] = []
    at = 0
    for m in modes:
        start = at
        for r in a.modes[m].requirements:
            end = at
            while end < len(rest) and rest[end] != p.end_targets:
                end += 1
            if end == len(rest):  # its targets are being chosen
                return modes, whole, (m, rest[start:at], rest[at:])
            chosen, at = end - at, end + 1
            if r.divide:
                if at + chosen > len(rest):  # its parts are being given
                    return modes, whole, (m, rest[start:], ())
                at += chosen
        whole.append((m, rest[start:at]))
    return modes, whole, None


def _goes_on(p: Pass, inst: Instance, going: tuple[int, tuple[int, ...], tuple[int, ...]]) -> bool:
    """Whether the whole instance ``inst`` goes on as the one being announced does."""
    mode, done, open_set = going
    seg = inst[1]
    if inst[0] != mode or seg[: len(done)] != done:
        return False
    if not open_set:
        return True
    close = seg.index(p.end_targets, len(done)) if p.end_targets in seg[len(done) :] else len(seg)
    return beside(seg[len(done) : close], open_set) is not None


def _at(state: State, placed: frozenset[int], processed: frozenset[int]) -> State:
    """A point of the pass between abilities, with ``placed`` on the stack and ``processed`` done
    (what may follow depends on nothing else)."""
    return state._replace(
        decisions=(), stack=(), removed=frozenset(), current=None, tokens=(), placed=placed, processed=processed
    )


def beside(seg: tuple[int, ...], chosen: tuple[int, ...]) -> tuple[int, ...] | None:
    """What the sorted set (or multiset) ``seg`` holds beside ``chosen`` (sorted), None where it
    does not hold them all."""
    rest: list[int] = []
    i = 0
    for t in seg:
        if i < len(chosen) and t == chosen[i]:
            i += 1
        elif i < len(chosen) and t > chosen[i]:
            return None
        else:
            rest.append(t)
    return tuple(rest) if i == len(chosen) else None


def said(p: Pass, d: Decision) -> str:
    """``d`` as a sentence names it (a mode with its own words)."""
    f = p.facts
    return judge.worded(f.abilities[f.ability_index[d.subject]] if d.kind is DecisionKind.MODE else None, d.text)
