"""Across the passes of 603.3b without listing whole outcomes: first-pass outcomes counted and
drawn by *class* — what they fire — with the product structure of both passes.

A first-pass outcome fires, for each placed ability, the reactions watching what it targets
(:func:`~triggerstack.model.by_reactions`). When what is fired is *terminal and blind* — no
fired ability can target an ability (waiting or on the stack), none can fire a reaction in turn,
and the fired pass has no coupled core — the number of ways to put the fired abilities on the
stack depends only on how many of them each player puts there: in each of the fired pass's
blocks, ``n!`` orders of the ``n`` placed, times each placed ability's own number of choices
(the same for every copy of a reaction, whoever fired it), with optional ones placed or not.
That is a product over the fired abilities times a factorial per block, so the whole count is a
sum over a small state — per first-pass block, how many are placed so far; per fired-pass
block, how many fired abilities will be placed — that a dynamic programme walks ability by
ability, grouping each ability's choices by the reactions they fire. Its cost grows with the
number of classes (states × groups), not with the number of whole outcomes.

Drawing is exact: the same programme read backwards draws a first-pass outcome with the weight
of what follows it (a state, then each ability's group, then a choice uniformly in the group and
an order uniformly per block), and then the fired pass uniformly, block by block. Where the
conditions do not hold, :func:`fired_classes` says why and the chain lists each pass.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from math import factorial
from random import Random

from triggerstack.model._facts import AbilityFacts, Facts, compile_facts
from triggerstack.model._limits import Deadline
from triggerstack.model._outcome import Entry, Outcome
from triggerstack.model._passes import Passes, join

from ..._core.engine import PassEngine
from ..._core.indexed import IndexedOutcome, Placed, to_outcome
from ..._core.search import pick
from ._shapes import BlockShapes
from .engine import ProductEngine

CLASSES = "classes"
"""The path of a chain counted and drawn by classes of what the first pass fires."""

MAX_STATES = 100_000
"""The most states one layer of the programme may hold before the chain lists passes instead."""

Delta = tuple[int, ...]  # per fired-pass block: fired abilities that will be placed
State = tuple[int, Delta]  # (placed so far in this first-pass block, fired placed per fired-pass block)


@dataclass(frozen=True, slots=True)
class _Fired:
    """One reaction as a fired ability: its block in the fired pass, whether it is placed always,
    placed or removed, or removed always, and its number of choices."""

    reaction: int
    ability: int  # its index in the representative fired pass
    block: int  # index among the fired pass's blocks that hold a fired ability
    kind: str  # "placed", "optional" or "removed"
    weight: int


@dataclass(frozen=True, slots=True)
class _Group:
    """The choices of one first-pass ability that fire the same reactions."""

    fires: tuple[int, ...]  # reaction indices, in the scenario's order
    choices: tuple[int, ...] | None  # their ranks in the ability's space (None: every choice)
    size: int
    terms: tuple[tuple[Delta, int], ...]  # what they contribute: (Δ, weight) summed over the group


@dataclass(frozen=True, slots=True)
class _Step:
    """One layer of the programme: an ability placed (or not) in block ``block``, or the end of a block."""

    block: int
    ability: int | None  # None: the block ends (its order: t! ways)
    optional: bool = False


class NotByClasses(Exception):
    """Why a chain cannot be counted by classes (it lists each pass instead)."""


class FiredClasses:
    """Count and draw the whole outcomes of a chain by classes of what the first pass fires."""

    path = CLASSES

    def __init__(self, passes: Passes, first: ProductEngine, deadline: Deadline) -> None:
        self.passes = passes
        self.first = first
        self.facts = first.facts
        self.deadline = deadline
        facts = self.facts
        self.reactions = facts.scenario.reactions
        self.rep, self.rep_engine = self._representative()
        self.fired = self._fired_kinds()
        self.blocks = len({f.block for f in self.fired})
        self._zero: Delta = (0,) * self.blocks
        self.groups: dict[int, tuple[_Group, ...]] = {}
        for b in first.blocks:
            for a in (*b.mandatory, *b.optional):
                self.groups[a] = self._groups(facts.abilities[a])
        self.steps: list[_Step] = []
        for b in first.blocks:
            self.steps.extend(_Step(b.index, a) for a in b.mandatory)
            self.steps.extend(_Step(b.index, a, optional=True) for a in b.optional)
            self.steps.append(_Step(b.index, None))
        self.layers = self._forward()
        self.final = {s: w * self._arrangements(s[1]) for s, w in self.layers[-1].items()}
        self.total = sum(self.final.values())

    # -- the conditions and the fired pass ----------------------------------------------------------

    def _representative(self) -> tuple[Facts, ProductEngine]:
        """The fired pass with every reaction fired once, above every first-pass ability."""
        facts = self.facts
        placed = [a for a in facts.abilities if a.block is not None]
        on_stack = [(a.id, a.controller) for a in placed]
        waiting = [{"id": f"{r.id}@{self.anchor}", **r.trigger.model_dump(by_alias=True)} for r in self.reactions]
        rep = compile_facts(self.passes.following(on_stack, waiting))  # not validated again: model/_passes.py
        for a in rep.abilities:
            for m in a.modes:
                for r in m.requirements:
                    for t in r.candidates:
                        if rep.things[t].kind == "ability" or rep.waiting_ability(t) is not None:
                            raise NotByClasses(f"{a.id} may target an ability on the stack")
            if self._watched(rep, a):
                raise NotByClasses(f"{a.id} may fire a reaction in turn")
        engine = ProductEngine(rep, self.first.options, self.deadline)  # no core: nothing targets an ability
        return rep, engine

    def _fired_kinds(self) -> list[_Fired]:
        engine = self.rep_engine
        order = sorted({b for k in range(len(self.reactions)) if (b := self.rep.abilities[k].block) is not None})
        where = {b: i for i, b in enumerate(order)}
        out = []
        for i in range(len(self.reactions)):
            a = self.rep.abilities[i]
            if a.block is None:
                out.append(_Fired(i, i, 0, "removed", 0))
                continue
            block = next(b for b in engine.blocks if b.index == a.block)
            kind = "placed" if i in block.mandatory else "optional" if i in block.optional else "removed"
            out.append(_Fired(i, i, where[a.block], kind, engine.spaces[i].count))
        return out

    def _watchers(self, facts: Facts, a: AbilityFacts, thing: int) -> tuple[int, ...]:
        """The reactions that fire when ``a`` targets ``thing`` (as
        :func:`~triggerstack.model.by_reactions` decides)."""
        tid = facts.things[thing].id
        out = []
        for i, r in enumerate(self.reactions):
            if r.object != tid:
                continue
            who = facts.things[thing].protector
            you = a.controller
            if r.by == "any" or (
                who is not None and (facts.is_opponent(you, who) if r.by == "opponent" else you == who)
            ):
                out.append(i)
        return tuple(out)

    def _watched(self, facts: Facts, a: AbilityFacts) -> bool:
        return any(self._watchers(facts, a, t) for m in a.modes for r in m.requirements for t in r.candidates)

    def _term(self, fires: Sequence[int]) -> dict[Delta, int]:
        """What a choice that fires ``fires`` contributes: Σ over which optional fired abilities
        are placed of their weights, by Δ."""
        terms: dict[Delta, int] = {(0,) * self.blocks: 1}
        for i in fires:
            f = self.fired[i]
            if f.kind == "removed":
                continue
            nxt: dict[Delta, int] = defaultdict(int)
            for delta, w in terms.items():
                if f.kind == "optional":
                    nxt[delta] += w
                placed = list(delta)
                placed[f.block] += 1
                nxt[tuple(placed)] += w * f.weight
            terms = dict(nxt)
        return terms

    def _groups(self, a: AbilityFacts) -> tuple[_Group, ...]:
        space = self.first.spaces[a.index]
        if not self._watched(self.facts, a):
            return (_Group((), None, space.count, ((self._zero, space.count),)),)
        if space.count > self.first.options.limits.choices:
            raise NotByClasses(f"{a.id} has {space.count} choices to sort by what they fire")
        by_fires: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for rank, choice in enumerate(space):
            if rank % 4096 == 0:
                self.deadline.check("sorting choices by what they fire")
            fires: set[int] = set()
            for t in choice.things():
                fires.update(self._watchers(self.facts, a, t))
            by_fires[tuple(sorted(fires))].append(rank)
        return tuple(
            _Group(fires, tuple(ranks), len(ranks), tuple((d, w * len(ranks)) for d, w in self._term(fires).items()))
            for fires, ranks in sorted(by_fires.items())
        )

    # -- the programme ------------------------------------------------------------------------------

    def _forward(self) -> list[dict[State, int]]:
        """layers[i]: the weight of each state before step i (the last: after every step)."""
        start: State = (0, (0,) * self.blocks)
        layers: list[dict[State, int]] = [{start: 1}]
        for step in self.steps:
            self.deadline.check("counting across passes by what the first pass fires")
            here = layers[-1]
            nxt: dict[State, int] = defaultdict(int)
            if step.ability is None:
                for (t, n), w in here.items():
                    nxt[(0, n)] += w * factorial(t)
            else:
                for (t, n), w in here.items():
                    if step.optional:
                        nxt[(t, n)] += w  # removed: it fires nothing
                    for g in self.groups[step.ability]:
                        for delta, v in g.terms:
                            nxt[(t + 1, tuple(x + d for x, d in zip(n, delta, strict=True)))] += w * v
            if len(nxt) > MAX_STATES:
                raise NotByClasses(f"more than {MAX_STATES} classes of what the first pass fires")
            layers.append(dict(nxt))
        return layers

    @staticmethod
    def _arrangements(n: Delta) -> int:
        out = 1
        for k in n:
            out *= factorial(k)
        return out

    def count(self) -> int:
        return self.total

    def fired_pairs(self) -> list[tuple[int, int]]:
        """Every (first-pass ability, reaction) such that the ability fires the reaction in some
        legal outcome (each group of choices is in some outcome: every weight is positive)."""
        return sorted({(a, i) for a, groups in self.groups.items() for g in groups for i in g.fires})

    @property
    def anchor(self) -> str:
        """The first-pass ability the representative fired pass says fired every reaction."""
        return self.facts.abilities[0].id if self.facts.abilities else "_"

    # -- drawing ------------------------------------------------------------------------------------

    @staticmethod
    def _pick(rng: Random, weighted: Sequence[tuple[int, object]]) -> object:
        return pick(rng, [(item, w) for w, item in weighted])

    def draw(self, rng: Random) -> Outcome:
        """One whole outcome, exactly uniformly."""
        state = self._pick(rng, [(w, s) for s, w in sorted(self.final.items())])
        assert isinstance(state, tuple)
        t, n = state
        picked: dict[int, tuple[_Group, int] | None] = {}  # ability -> (group, Δ…) or None: removed
        for i in range(len(self.steps) - 1, -1, -1):
            step, before = self.steps[i], self.layers[i]
            options: list[tuple[int, object]] = []
            if step.ability is None:
                options = [(w * factorial(tp), (tp, n)) for (tp, np_), w in before.items() if np_ == n]
                t, n = self._pick(rng, options)  # type: ignore[misc]
                continue
            if step.optional and (t, n) in before:
                options.append((before[(t, n)], None))
            for g in self.groups[step.ability]:
                for delta, v in g.terms:
                    prev = (t - 1, tuple(x - d for x, d in zip(n, delta, strict=True)))
                    w = before.get(prev)
                    if w:
                        options.append((w * v, (g, prev)))
            choice = self._pick(rng, options)
            if choice is None:
                picked[step.ability] = None
                continue
            g, (t, n) = choice  # type: ignore[misc]
            picked[step.ability] = (g, 0)
        first = self._first_outcome(rng, picked)
        return join([to_outcome(self.facts, first), self._fired_outcome(rng, first)])

    def _first_outcome(self, rng: Random, picked: dict[int, tuple[_Group, int] | None]) -> IndexedOutcome:
        engine = self.first
        stack: list[Placed] = []
        removed = list(engine.never)
        for block in engine.blocks:
            removed.extend(block.removed)
            here = []
            for a in (*block.mandatory, *block.optional):
                got = picked[a]
                if got is None:
                    removed.append(a)
                    continue
                g = got[0]
                space = engine.spaces[a]
                rank = rng.randrange(space.count) if g.choices is None else g.choices[rng.randrange(g.size)]
                here.append(Placed(a, space.unrank(rank)))
            rng.shuffle(here)  # every order of the block alike
            stack.extend(here)
        return IndexedOutcome(tuple(stack), tuple(sorted(removed)))

    def _fired_outcome(self, rng: Random, first: IndexedOutcome) -> Outcome:
        """What the first pass fired, put on the stack uniformly (each block alike)."""
        facts = self.facts
        fired: list[tuple[str, _Fired]] = []  # the next pass's waiting abilities, as by_reactions lists them
        for p in first.stack:
            a = facts.abilities[p.ability]
            fires: set[int] = set()
            for t in p.choice.things():
                fires.update(self._watchers(facts, a, t))
            fired.extend((f"{self.reactions[i].id}@{a.id}", self.fired[i]) for i in sorted(fires))
        stack: list[Entry] = []
        placed: set[int] = set()
        for b in range(self.blocks):
            mine = [k for k, (_, f) in enumerate(fired) if f.block == b and f.kind != "removed"]
            mandatory = tuple(k for k in mine if fired[k][1].kind == "placed")
            optional = tuple(k for k in mine if fired[k][1].kind == "optional")
            weight = {k: fired[k][1].weight for k in mine}
            block = BlockShapes(b, mandatory, optional, (), weight)
            _, arrangement, _, _ = block.unrank_shape(0, rng.randrange(block.total(0)))
            for k in arrangement:
                assert k is not None
                fid, f = fired[k]
                space = self.rep_engine.spaces[f.ability]
                one = IndexedOutcome((Placed(f.ability, space.unrank(rng.randrange(space.count))),), ())
                (entry,) = to_outcome(self.rep, one).stack
                stack.append(entry.model_copy(update={"ability": fid}))
                placed.add(k)
        removed = tuple(fid for k, (fid, _) in enumerate(fired) if k not in placed)
        return Outcome(stack=tuple(stack), removed=removed)


def fired_classes(passes: Passes, first: PassEngine, deadline: Deadline) -> FiredClasses | str:
    """The classes of ``passes`` (first pass answered by ``first``), or why they do not apply."""
    if passes.single:
        return "one pass"
    if passes.next_pass is not None:
        return "an engine's next_pass decides what fires"
    if passes.max_passes < 2:
        return "one pass at most"
    if not isinstance(first, ProductEngine) or first.plan.coupled:
        return "the first pass has a coupled core"
    try:
        return FiredClasses(passes, first, deadline)
    except NotByClasses as why:
        return str(why)
