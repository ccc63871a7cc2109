"""The judge's "why not": ``why_illegal`` cites a rule only when no legal outcome takes the decision.

A walk decides one thing at a time, but an outcome is what a judge rules on: the order of the
stack (603.3b), each ability's modes (a set, 700.2) and each requirement's targets (a set,
601.2c) with their divisions (601.2d). For every prefix of a walk and every decision of the pass
it is in that is not offered, this file asks the legal outcomes themselves (``outcomes``, which
``check`` accepts — none of the walk's machinery) whether one of them *takes* that decision after
what the walk has decided:

* a put: the ability goes on the stack next (after the ability in hand, if one is being announced);
* a removal: the ability is removed;
* a mode, or the end of the modes: the ability in hand's modes hold it, or are exactly those chosen;
* a target: the ability in hand (else the next one put) targets it — in the requirement being
  chosen, or a later one; the end of targets: that requirement's targets are exactly those chosen;
* a part of a division: the next target (in the scenario's order) gets that amount.

A decision some legal outcome takes is either offered now (a target of the requirement being
chosen, whatever order the others were clicked in) or said to be legal later, with the way there,
citing no rule; one no legal outcome takes is said to break a rule. Every decision offered is one
some legal outcome takes, and asked "why not?" it is said to be legal, citing no rule.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from triggerstack.model import Entry, Facts, Outcome, Scenario, compile_facts
from triggerstack.solver import Decision, DecisionKind, Options, Stepper, Walk, count, outcomes

from ..simulator import legal_choices
from .strategies import SETTINGS, scenarios
from .test_agreement import size_bound

pytestmark = pytest.mark.slow  # hundreds of generated scenarios, every decision at every prefix

SMALL = 120

Segment = tuple[frozenset[str], tuple[int, ...]]
"""One requirement's targets, and the amounts divided among them in the scenario's order."""


class Announced:
    """What the ability in hand has announced, read from the walk's readable decisions."""

    def __init__(self, facts: Facts, ability: str, said: tuple[str, ...]) -> None:
        a = facts.abilities[facts.ability_index[ability]]
        self.modes: list[str] = []
        self.modes_open = a.modal
        rest = list(said)
        if a.modal:
            while rest and rest[0] != "end modes":
                self.modes.append(rest.pop(0).rpartition(":")[2])
            if rest:
                rest.pop(0)
                self.modes_open = False
        self.closed: list[tuple[frozenset[str], list[int]]] = []
        self.open: set[str] = set()
        self.dividing = False
        chosen: list[str] = []
        for word in rest:
            if word.startswith("target "):
                chosen.append(word.removeprefix("target "))
            elif word == "end targets":
                self.closed.append((frozenset(chosen), []))
                chosen = []
            else:
                self.closed[-1][1].append(int(word.removeprefix("divide ")))
        self.open = set(chosen)
        if self.closed and not chosen:
            # the parts of the last requirement closed are still being given while fewer than its targets
            last, parts = self.closed[-1]
            r = _requirements(facts, ability, self.modes)[len(self.closed) - 1]
            self.dividing = bool(r.divide) and len(parts) < len(last)


def _requirements(facts: Facts, ability: str, modes: list[str]) -> list[Any]:
    """The requirements a walk announces, in its order: the chosen modes (in the ability's order),
    each with its requirements."""
    a = facts.abilities[facts.ability_index[ability]]
    if not a.modal:
        return list(a.modes[0].requirements)
    index = {m.id: i for i, m in enumerate(a.modes)}
    return [r for m in sorted(modes, key=index.__getitem__) for r in a.modes[index[m]].requirements]


def _segments(facts: Facts, e: Entry) -> tuple[list[str], list[Segment]]:
    """An entry's modes, and its requirements' targets and divisions in the walk's order."""
    a = facts.abilities[facts.ability_index[e.ability]]
    index = {m.id: i for i, m in enumerate(a.modes)}
    where = facts.thing_index
    instances: list[tuple[int, tuple[tuple[int, ...], ...], list[Segment]]] = []
    chosen = [(None, e.targets, e.divide)] if e.modes is None else [(m.mode, m.targets, m.divide) for m in e.modes]
    for mode, targets, divide in chosen:
        k = 0 if mode is None else index[mode]
        segs: list[Segment] = []
        key: list[tuple[int, ...]] = []
        for r in a.modes[k].requirements:
            things = sorted(targets.get(r.id, ()), key=where.__getitem__)
            key.append(tuple(where[t] for t in things))
            parts = divide.get(r.id, {})
            segs.append((frozenset(things), tuple(parts[t] for t in things) if parts else ()))
        instances.append((k, tuple(key), segs))
    instances.sort(key=lambda x: (x[0], x[1]))
    modes = [a.modes[k].id or "" for k, _, _ in instances] if a.modal else []
    return modes, [s for _, _, segs in instances for s in segs]


def _within(small: list[str], big: list[str]) -> bool:
    return not Counter(small) - Counter(big)


class Oracle:
    """Whether a legal outcome takes a decision after what a walk decided (see the module's doc)."""

    def __init__(self, facts: Facts, every: list[Outcome]) -> None:
        self.facts = facts
        self.every = every
        self.first = 0  # where the pass the walk is in begins, in an outcome's stack

    def takes(self, stepper: Stepper, walk: Walk, d: Decision) -> bool:
        so_far = stepper.so_far(walk)
        sizes = [len(st.stack) for _, st in walk.done]
        start = sum(sizes)
        hand = stepper.in_hand(walk)
        announced = None if hand is None else Announced(walk.facts or self.facts, hand[0], hand[1])
        f = walk.facts or self.facts
        never = {a.id for a in f.abilities if a.block is None}  # removed by the rules, not by a decision
        done = {*so_far.removed, *(e.ability for e in so_far.stack), *never}
        if d.kind in (DecisionKind.PUT, DecisionKind.REMOVE) and d.subject in done:
            return False  # each waiting ability is put or removed once (603.3)
        for o in self.every:
            if o.stack[: len(so_far.stack)] != so_far.stack or not set(so_far.removed) <= set(o.removed):
                continue
            held = list(o.passes) if o.passes else [len(o.stack)]
            if held[: len(sizes)] != sizes:
                continue
            end = start + (held[len(sizes)] if len(held) > len(sizes) else 0)
            self.first = start
            # an outcome does not say when its removals were made: one the walk has not made yet
            # must still be lawful from now on, or the walk cannot reach that outcome any more
            later = [r for r in o.removed if r in f.ability_index and r not in done and r != d.subject]
            if any(not self._removable(f, o, len(so_far.stack), end, hand, r) for r in later):
                continue
            if self._takes(f, o, len(so_far.stack), end, hand, announced, d):
                return True
        return False

    def _takes(
        self,
        facts: Facts,
        o: Outcome,
        at: int,
        end: int,
        hand: tuple[str, tuple[str, ...]] | None,
        said: Announced | None,
        d: Decision,
    ) -> bool:
        kind = d.kind
        if kind is DecisionKind.REMOVE:
            if hand is not None and not (at < end and o.stack[at].ability == hand[0]):
                return False
            if d.subject not in o.removed or (hand is not None and not self._agrees(facts, o.stack[at], said)):
                return False
            return self._removable(facts, o, at, end, hand, d.subject)
        if hand is None:
            if at >= end:
                return False
            nxt = o.stack[at]
            modes, segs = _segments(facts, nxt)
            if kind is DecisionKind.PUT:
                return nxt.ability == d.subject
            if kind is DecisionKind.MODE:
                return nxt.ability == d.subject and d.mode in modes
            if kind is DecisionKind.TARGET:
                return any(d.subject in things for things, _ in segs)
            return False
        if not (at < end and o.stack[at].ability == hand[0]) or not self._agrees(facts, o.stack[at], said):
            return False
        assert said is not None
        modes, segs = _segments(facts, o.stack[at])
        if kind is DecisionKind.PUT:
            return at + 1 < end and o.stack[at + 1].ability == d.subject
        if kind is DecisionKind.MODE:
            return said.modes_open and d.subject == hand[0] and _within([*said.modes, d.mode], modes)
        if kind is DecisionKind.END_MODES:
            return said.modes_open and sorted(said.modes) == sorted(modes)
        if said.modes_open:
            return kind is DecisionKind.TARGET and any(d.subject in things for things, _ in segs)
        j = len(said.closed)
        if kind is DecisionKind.DIVIDE:
            if not said.dividing:
                return False
            parts = said.closed[-1][1]
            return segs[j - 1][1][len(parts)] == d.amount
        if kind is DecisionKind.END_TARGETS:
            return not said.dividing and j < len(segs) and segs[j][0] == frozenset(said.open)
        if kind is DecisionKind.TARGET:
            later = segs[j:] if said.dividing else segs[j + 1 :]
            here = () if said.dividing or j >= len(segs) else (segs[j],)
            return any(d.subject in things for things, _ in later) or any(
                d.subject in things and d.subject not in said.open for things, _ in here
            )
        return False

    def _removable(
        self, facts: Facts, o: Outcome, at: int, end: int, hand: tuple[str, tuple[str, ...]] | None, aid: str
    ) -> bool:
        """Whether ``aid``, removed in ``o``, may be removed from now on: an outcome does not say when
        an ability was removed, and one removed before the walk's stack held what it holds now may
        have a legal choice now (603.3c–d). The stack when its block comes holds at least what is
        placed now (the ability in hand too) and ``o``'s entries of earlier blocks; more on the
        stack never takes a legal choice away, so that is the stack it is judged with (the literal
        simulator's choices, tests/simulator.py)."""
        index = facts.ability_index
        a = facts.abilities[index[aid]]
        if a.may_choose_zero or a.forced_removal is not None:
            return True
        below = {index[e.ability] for e in o.stack[self.first : at]}  # placed in this pass so far
        if hand is not None:
            below.add(index[hand[0]])
        block = a.block if a.block is not None else -1
        for e in o.stack[at:end]:
            earlier = facts.abilities[index[e.ability]].block
            if earlier is not None and earlier < block:
                below.add(index[e.ability])
        return not legal_choices(facts, a, frozenset(below))

    def _agrees(self, facts: Facts, e: Entry, said: Announced | None) -> bool:
        """Whether the entry holds what the ability in hand announced."""
        assert said is not None
        modes, segs = _segments(facts, e)
        if said.modes_open:
            return _within(said.modes, modes)
        if sorted(said.modes) != sorted(modes) or len(segs) < len(said.closed):
            return False
        for (things, parts), (held, amounts) in zip(said.closed, segs, strict=False):
            if things != held or tuple(parts) != amounts[: len(parts)]:
                return False
        j = len(said.closed)
        return not said.open or (j < len(segs) and said.open <= segs[j][0])


@st.composite
def _sets(draw: st.DrawFn) -> dict[str, Any]:
    """An ability choosing a set — targets among several candidates (divided or not), or modes —
    beside a few others: the shape where a walk that offered a set's members in one order would
    hide a legal target (Inferno Titan: after B and elves, the Titan itself)."""
    players = ["A", "B"]
    objects = [
        {"id": f"c{i}", "controller": "A" if i == 0 else draw(st.sampled_from(players)), "types": ["creature"]}
        | ({"hexproof": True} if draw(st.integers(0, 4)) == 0 else {})
        for i in range(draw(st.integers(2, 5)))
    ]
    low = draw(st.integers(0, 2))
    high = draw(st.sampled_from([low + 1, low + 2, 3, None]))
    req: dict[str, Any] = {"id": "t", "min": low, "max": high, "filter": "any-target"}
    if low and high and draw(st.booleans()):
        req["divide"] = draw(st.integers(max(high, low), 4))
    ability: dict[str, Any] = {"id": "IT", "controller": "A", "source": "c0", "text": "IT", "targets": [req]}
    if draw(st.booleans()):
        ability = {
            "id": "IT", "controller": "A", "source": "c0", "text": "IT",
            "modal": {"choose": [1, draw(st.integers(1, 3))], "repeat": False, "distinct_targets": draw(st.booleans())},
            "modes": [{"id": f"m{i}", "targets": [req] if i != 1 else [], "available": True} for i in range(3)],
        }
    others = [
        {"id": f"S{k}", "controller": draw(st.sampled_from(players)), "text": f"S{k}", "targets": []}
        for k in range(draw(st.integers(0, 2)))
    ]
    return {"players": players, "objects": objects, "triggers": [ability, *others]}


@settings(SETTINGS, max_examples=2 * SETTINGS.max_examples)
@given(
    doc=st.one_of(
        scenarios(), scenarios(linked=True), scenarios(reactions=True), scenarios(max_abilities=3), _sets()
    ),
    data=st.data(),
)
def test_why_not_cites_a_rule_only_when_no_legal_outcome_takes_the_decision(
    doc: dict[str, Any], data: st.DataObject
) -> None:
    scenario = Scenario.model_validate(doc)
    facts = compile_facts(scenario)
    assume(size_bound(facts) <= 4 * SMALL)
    options = Options(time_limit=5)
    try:
        n = count(scenario, options)
        assume(n <= SMALL)
        every = list(outcomes(scenario, options))
    except (ValueError, RuntimeError):  # a loop or a limit: nothing to rule on here
        assume(False)
        return
    oracle = Oracle(facts, every)
    stepper = Stepper(facts, options)
    walk = stepper.start()
    while True:
        legal = stepper.legal(walk)
        if not legal:
            break
        assert walk.facts is not None
        local = stepper.pass_stepper(walk.facts)
        for d in local.decisions:
            takes = oracle.takes(stepper, walk, d)
            why = stepper.why_illegal(walk, d)
            path = [stepper.decision(i).text for i in walk.decisions]
            if d in legal:
                assert takes, f"{d} is offered after {path}, but no legal outcome takes it"
                assert why.rule is None and why.code is None and not why.later, f"{d} is offered, but why-not says {why}"
                continue
            if takes:
                assert why.later and why.rule is None and why.code is None, (
                    f"{d} after {path}: a legal outcome takes it, but why-not says {why}"
                )
            else:
                assert not why.later, f"{d} after {path}: no legal outcome takes it, but why-not says {why}"
        walk = stepper.apply(walk, data.draw(st.sampled_from(legal)))
