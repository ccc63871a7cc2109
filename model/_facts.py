"""``compile_facts(scenario) -> Facts``: the frozen, integer-indexed facts every engine reads.

This is the one place that answers "may ability A target thing T for requirement R?", including
the parts that depend on what is already on the stack when A is put there:

* a waiting ability is a legal target only once it is on the stack, below (601.2c, 603.3b):
  :meth:`Facts.is_on_stack_target`, :meth:`Facts.available`;
* which waiting abilities can be below A at all (same block or an earlier one, 603.3b):
  :meth:`Facts.may_precede`, and per ability :attr:`AbilityFacts.waiting_targets`,
  :attr:`~AbilityFacts.precedable_targets`, :attr:`~AbilityFacts.earlier_targets`;
* how many targets a requirement can take from what is available:
  :meth:`RequirementFacts.most`.

What other requirements of the same mode chose (``target_of``) is asked of
:meth:`Facts.fits_target_of`. Things (possible targets) are indexed in canonical order: players in
turn order, then objects, then the waiting abilities.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any

from ._apnap import Block, build_blocks, has_parts, opponent_relation
from ._args import instance_of
from ._controllers import Control
from ._filters import ANYTHING, Context, matches, possible_kinds, who
from ._known import Known
from ._limits import NO_DEADLINE, Deadline, Limits
from ._linked import LinkedSearch, atoms
from ._modes import allowed_counts
from ._rules import Rule
from ._scenario import Scenario
from ._shapes import Filter, MustTarget, Reaction, Requirement, Trigger
from ._slots import pickled, unread
from ._targeting import Bar, Bars, Restriction
from ._text import called
from ._things import Thing, scenario_things
from ._types import AbilityId, PlayerId, RequirementId, ThingId


@pickled("excluded", "ignored")
@dataclass(frozen=True, slots=True)
class RequirementFacts:
    """One target requirement: bounds, and every thing with why it can or cannot be chosen."""

    index: int
    id: RequirementId
    text: str
    min: int
    max: int | None  # None: any number
    divide: int | None
    different_from: tuple[int, ...]  # requirement indices of the same mode
    filter: Filter
    depends_on: tuple[int, ...]  # requirements whose targets this filter refers to (target_of)
    candidates: tuple[int, ...]  # things that may be chosen, in canonical order
    excluded: Mapping[int, tuple[Bar, ...]]  # every other thing, with every rule that bars it
    ignored: Mapping[int, tuple[str, ...]]  # things that fit: their own properties that do not function (113.6)

    def most(self, available: int) -> int:
        """The most targets that can be chosen from ``available`` things: bounded by ``max``
        and by the amount divided, each target getting at least one (601.2c–d)."""
        bound = available if self.max is None else min(self.max, available)
        return bound if self.divide is None else min(bound, self.divide)

    @property
    def upper(self) -> int:
        """The most targets that can be chosen with every candidate available."""
        return self.most(len(self.candidates))

    @property
    def called(self) -> str:
        """How a sentence names it: its id and its own words (:func:`~._text.called`)."""
        return called(self.id, self.text)


@pickled("requirement_index")
@dataclass(frozen=True, slots=True)
class ModeFacts:
    """A mode (or the single implicit mode of a non-modal ability, with ``id`` None)."""

    index: int
    id: str | None
    text: str
    available: bool
    requirements: tuple[RequirementFacts, ...]
    requirement_index: Mapping[str, int]

    linked: bool = field(init=False)
    """Whether its requirements bear on each other (must differ, or one's description names another's targets)."""

    divided: bool = field(init=False)
    """Whether a requirement of it divides an amount (601.2d)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "linked", any(r.different_from or r.depends_on for r in self.requirements))
        object.__setattr__(self, "divided", any(r.divide is not None for r in self.requirements))

    @property
    def called(self) -> str:
        """How a sentence names it: its id and its own words (:func:`~._text.called`)."""
        return called(self.id, self.text)


@pickled("mode_index")
@dataclass(frozen=True, slots=True)
class AbilityFacts:
    """A waiting ability: control, place in 603.3b, and its choices."""

    index: int
    id: AbilityId
    text: str
    thing: int  # this ability as a possible target
    source: int | None  # thing index of its source
    control: Control
    chooser: PlayerId
    part: int  # 1 or 2 (603.3b); 1 where the rules have no parts (cr-1p, 2hg: ``_apnap.has_parts``)
    block: int | None  # None: never put on the stack (800.4d)
    illegal: str | None
    modal: bool
    choose: frozenset[int]  # allowed numbers of modes ({1} for a non-modal ability)
    repeat: bool
    distinct_targets: bool
    modes: tuple[ModeFacts, ...]
    mode_index: Mapping[str, int]
    must: tuple[int, ...]  # things that must be targeted if able, one entry per effect (601.2c)
    waiting_targets: frozenset[int]  # waiting abilities some requirement lists as a candidate
    precedable_targets: frozenset[int]  # ... of those, the ones that can be below it (603.3b)
    earlier_targets: frozenset[int]  # ... of those, the ones in an earlier block (below its block's start)

    @property
    def controller(self) -> PlayerId:
        return self.control.player

    @property
    def forced_removal(self) -> Rule | None:
        """The rule that keeps the ability from ever being put on the stack, if one does: its
        controller has left the game (800.4d), or it is ``illegal`` (603.3d). A fact: the judge room
        says it in words."""
        if self.control.left_game:
            return Rule.R800_4D
        if self.illegal is not None:
            return Rule.R603_3D
        return None

    @property
    def may_choose_zero(self) -> bool:
        """Its controller may choose no mode, and so remove it whatever the board (700.2)."""
        return 0 in self.choose


def _without_reactions(scenario: Scenario) -> bool:
    return not scenario.reactions


@pickled(
    "thing_index",
    "ability_index",
    "opponents",
    kept="memo",
    later=("scenario", "things"),
    later_if={"scenario": _without_reactions},
)
@dataclass(frozen=True, slots=True, eq=False, weakref_slot=True)
class Facts:
    """Everything the engines need to know about a scenario, computed once.

    Compared by identity. ``memo`` is where the solvers keep what they learn about the scenario
    (:class:`~triggerstack.solver.LegalOutcomes` keeps its state there, so that it lives as long
    as the facts and no longer). Facts pickle, ``memo`` left behind (``_slots.pickled``): a board
    drawn in a worker process arrives compiled. A scenario without reactions travels as one byte
    string, read back when first asked for: playing its first pass reads the facts alone
    (:meth:`player_ids`, :func:`reactions_of`), so a board drawn ahead and played by an
    environment is never read whole unless asked for (``env.scenario``, a rewards function). The
    things travel the same way, always: laying a board out and walking it read their ids alone
    (:attr:`thing_ids`), and a filter judged anew (a target another requirement's choice bears on,
    a reaction's reach) reads them whole when it first asks."""

    scenario: Scenario
    things: tuple[Thing, ...]
    thing_ids: tuple[str, ...]  # each thing's id, in the things' order
    thing_index: Mapping[str, int]
    abilities: tuple[AbilityFacts, ...]
    ability_index: Mapping[str, int]
    blocks: tuple[Block, ...]
    opponents: Mapping[PlayerId, frozenset[PlayerId]]
    first_waiting: int  # the thing index of the first waiting ability (players and objects come before)
    memo: dict[Any, Any] = field(default_factory=dict, repr=False)

    def is_opponent(self, a: PlayerId, b: PlayerId) -> bool:
        return b in self.opponents.get(a, frozenset())

    def player_ids(self) -> tuple[PlayerId, ...]:
        """The scenario's players in turn order, without reading the scenario: ``opponents`` lists
        every player, in turn order (``_apnap.opponent_relation``)."""
        return tuple(self.opponents)

    def may_fit(self, f: Filter, thing: Thing) -> bool:
        """Whether ``thing`` could fit ``f`` for an ability some player controls — its filter not
        known to fail for every player (``target_of`` unknown): what could happen in a later pass."""
        if thing.kind not in possible_kinds(f):
            return False
        return any(matches(f, thing, Context(p.id, self.is_opponent)) is not False for p in self.scenario.players)

    def waiting_ability(self, thing: int) -> int | None:
        """The ability index if ``thing`` is a waiting ability, else None."""
        k = thing - self.first_waiting
        return k if k >= 0 else None

    def is_on_stack_target(self, thing: int, on_stack: frozenset[int]) -> bool:
        """Whether ``thing`` can be targeted with the waiting abilities ``on_stack`` below: a
        waiting ability only once it is on the stack (601.2c, 603.3b); anything else always."""
        return thing < self.first_waiting or thing - self.first_waiting in on_stack

    def available(self, r: RequirementFacts, on_stack: frozenset[int]) -> tuple[int, ...]:
        """The candidates of ``r`` with ``on_stack`` below (see :meth:`is_on_stack_target`).
        Candidates are in canonical order, so the waiting abilities among them come last."""
        first = self.first_waiting
        cut = bisect_left(r.candidates, first)
        if cut == len(r.candidates):
            return r.candidates
        return r.candidates[:cut] + tuple(t for t in r.candidates[cut:] if t - first in on_stack)

    def may_precede(self, b: int, a: int) -> bool:
        """Whether waiting ability ``b`` can be on the stack below ``a`` when ``a`` is put there:
        both are put on the stack at some point and ``b``'s block is ``a``'s or an earlier one
        (603.3b)."""
        below, above = self.abilities[b], self.abilities[a]
        return _may_precede(below.block, below.forced_removal is None, above.block, b, a)

    def fits_target_of(
        self, ability: int, mode: int, req: int, thing: int, chosen: Mapping[int, Sequence[int]]
    ) -> bool:
        """Whether ``thing`` fits requirement ``req``'s filter given the targets ``chosen`` for the
        requirements it refers to with ``target_of`` (indices of the same mode)."""
        a = self.abilities[ability]
        m = a.modes[mode]
        r = m.requirements[req]
        if not r.depends_on:
            return True
        by_id: dict[str, tuple[Thing, ...]] = {
            m.requirements[k].id: tuple(self.things[t] for t in v) for k, v in chosen.items()
        }
        ctx = Context(a.controller, self.is_opponent, by_id)
        return matches(r.filter, self.things[thing], ctx) is True

    def linked_atoms(self, ability: int, mode: int, req: int, thing: int) -> tuple[tuple[int, str, PlayerId], ...]:
        """What requirement ``req``'s filter reads of the other requirements' targets when judging
        ``thing``: each ``(requirement, key, player)`` — whether some target chosen for that
        requirement gives that player by that key (controller or owner; docs/formats.md). A
        thing that gives no player by a key reads nothing there."""
        m = self.abilities[ability].modes[mode]
        read = atoms(m.requirements[req].filter, m.requirement_index)
        return tuple((d, key, p) for d, key in read if (p := who(self.things[thing], key)) is not None)

    def fits_seen(
        self, ability: int, mode: int, req: int, thing: int, seen: Mapping[tuple[int, str, PlayerId], bool]
    ) -> bool:
        """Whether ``thing`` fits ``req``'s filter when the answers to its
        :meth:`linked_atoms` are ``seen`` (a model of the choices decides them)."""
        a = self.abilities[ability]
        m = a.modes[mode]
        players: dict[tuple[str, str], frozenset[PlayerId]] = {}
        for (d, key, p), yes in seen.items():
            if yes:
                players[(m.requirements[d].id, key)] = players.get((m.requirements[d].id, key), frozenset()) | {p}
        ctx = Context(a.controller, self.is_opponent, seen=players)
        return matches(m.requirements[req].filter, self.things[thing], ctx) is True


def _requirement(
    req: Requirement,
    index: int,
    ids: Mapping[str, int],
    known: Known,
    source: Thing | None,
    restriction: Restriction,
    ctx: Context,
) -> RequirementFacts:
    candidates: list[int] = []
    ignored: dict[int, tuple[str, ...]] = {}
    things = known.things
    self_id = None if restriction.ability_thing is None else restriction.ability_thing.id
    source_id = source.id if req.other_than_source and source is not None else None
    for i in known.fit(req.filter, ctx):
        thing = things[i]
        if own := known.ignored[i]:
            ignored[i] = own
        if thing.id == source_id or thing.id == self_id:  # 115.3 "another", 115.5 itself
            continue
        if known.restricted[i] and known.stops(i, restriction):
            continue
        candidates.append(i)
    return RequirementFacts(
        index=index,
        id=req.id,
        text=req.text,
        min=req.min,
        max=req.max,
        divide=req.divide,
        different_from=tuple(ids[d] for d in req.different_from),
        filter=req.filter,
        depends_on=tuple(sorted({ids[ref] for _, ref in req.filter.iter_target_of()})),
        candidates=tuple(candidates),
        excluded=Bars(req, things, source, restriction, ctx, possible_kinds(req.filter)),
        ignored=MappingProxyType(ignored),
    )


def _refine_target_of(
    reqs: tuple[RequirementFacts, ...], things: Sequence[Thing], ctx: Context, deadline: Deadline
) -> tuple[RequirementFacts, ...]:
    """Keep, of a ``target_of`` filter's candidates, exactly those that fit some legal choice of
    the requirements it names (:mod:`._linked`); the others are barred (:attr:`Bar.LINKED`) alone,
    and a thing another rule bars that fits for no such choice has that bar too (every reason)."""
    if not any(r.depends_on for r in reqs):
        return reqs
    out = []
    for r in reqs:
        if not r.depends_on:
            out.append(r)
            continue
        keep: list[int] = []
        excluded = dict(r.excluded)
        search = LinkedSearch(reqs, r.index, things, ctx, deadline)
        for t in r.candidates:
            if search.fits(t):
                keep.append(t)
            else:
                excluded[t] = (Bar.LINKED,)
        for t, bars in r.excluded.items():  # barred by a rule too: the filter's misfit is one more reason
            if Bar.FILTER not in bars and not search.fits(t):
                excluded[t] = (*bars, Bar.LINKED)
        out.append(replace(r, candidates=tuple(keep), excluded=MappingProxyType(dict(sorted(excluded.items())))))
    return tuple(out)


def _must_targets(
    s: Scenario, trigger: Trigger, things: Sequence[Thing], index: Mapping[str, int], opp: Context
) -> tuple[int, ...]:
    out: list[int] = []
    for entry in s.must_target:
        if _must_applies(entry, trigger, things, index, opp):
            out.append(index[entry.object])
    return tuple(out)


def _must_applies(
    entry: MustTarget, trigger: Trigger, things: Sequence[Thing], index: Mapping[str, int], opp: Context
) -> bool:
    if isinstance(entry.applies_to, tuple):
        return trigger.id in entry.applies_to
    if trigger.source is None:  # a filter over the source: only "everything" ({}) applies without one
        return entry.applies_to.is_everything
    target = things[index[entry.object]]
    ctx = opp.with_you(target.protector)
    return matches(entry.applies_to, things[index[trigger.source]], ctx, within=ANYTHING) is True


def _may_precede(block_b: int | None, b_placeable: bool, block_a: int | None, b: int, a: int) -> bool:
    return b != a and b_placeable and block_a is not None and block_b is not None and block_b <= block_a


@dataclass(frozen=True, slots=True)
class _Compiling:
    """What compiling one scenario's facts shares between its abilities: the things, their
    index, the 603.3b blocks, and the bounds on the work."""

    scenario: Scenario
    limits: Limits | None
    deadline: Deadline
    things: tuple[Thing, ...]
    thing_index: Mapping[str, int]
    first_waiting: int
    is_opponent: Callable[[PlayerId, PlayerId], bool]
    block_of: Sequence[int | None]
    placeable: Sequence[bool]
    known: Known
    parts: Sequence[int]
    """Each ability's part of 603.3b, as its block was built from: 2 only where the rules have parts
    (``has_parts``) and its trigger condition is another ability triggering."""

    def modes(self, k: int, t: Trigger, control: Control) -> tuple[ModeFacts, ...]:
        """The modes of trigger ``k`` (one implicit mode if it is not modal), each with its
        requirements' candidates; a requirement over ``limits`` is refused where it is found."""
        source = self.things[self.thing_index[t.source]] if t.source is not None else None
        restriction = Restriction(t.id, self.things[self.first_waiting + k], control.player, source, self.is_opponent)
        ctx = Context(control.player, self.is_opponent)
        raw_modes = (
            [(None, t.text, True, t.targets)]
            if t.modal is None
            else [(m.id, m.text, m.available, m.targets) for m in t.modes]
        )
        modes = []
        for j, (mid, text, available, reqs) in enumerate(raw_modes):
            ids: dict[str, int] = {r.id: i for i, r in enumerate(reqs)}
            found = []
            for i, r in enumerate(reqs):
                self.deadline.check(f"compiling the candidates of {t.id}")
                found.append(_requirement(r, i, ids, self.known, source, restriction, ctx))
            rfacts = _refine_target_of(tuple(found), self.things, ctx, self.deadline)
            if self.limits is not None:  # as check_limits measures them: refined
                for req in rfacts:
                    _check_candidates(self.limits, k, t.modal is not None, j, req)
            modes.append(ModeFacts(j, mid, text, available, rfacts, MappingProxyType(ids)))
        return tuple(modes)

    def ability(self, k: int, t: Trigger, control: Control) -> AbilityFacts:
        """The facts of trigger ``k``: its modes, what it must target, and which waiting
        abilities it can target and have below it (603.3b)."""
        modes = self.modes(k, t, control)
        block_of, first = self.block_of, self.first_waiting
        targets = frozenset(b for m in modes for r in m.requirements for c in r.candidates if (b := c - first) >= 0)
        precedable = frozenset(b for b in targets if _may_precede(block_of[b], self.placeable[b], block_of[k], b, k))
        anyone = Context(None, self.is_opponent)
        return AbilityFacts(
            index=k,
            id=t.id,
            text=t.text,
            thing=first + k,
            source=self.thing_index[t.source] if t.source is not None else None,
            control=control,
            chooser=t.chooser or control.player,
            part=self.parts[k],
            block=block_of[k],
            illegal=t.illegal,
            modal=t.modal is not None,
            choose=allowed_counts(t.modal),
            repeat=bool(t.modal and t.modal.repeat),
            distinct_targets=bool(t.modal and t.modal.distinct_targets),
            modes=modes,
            mode_index=MappingProxyType({m.id: m.index for m in modes if m.id is not None}),
            must=_must_targets(self.scenario, t, self.things, self.thing_index, anyone),
            waiting_targets=targets,
            precedable_targets=precedable,
            earlier_targets=frozenset(b for b in precedable if block_of[b] != block_of[k]),
        )


def _waiting_things(scenario: Scenario) -> tuple[Thing, ...]:
    """The waiting abilities as possible targets, each controlled and owned by its controller."""
    return tuple(
        Thing(
            id=ThingId(t.id),
            kind="ability",
            zone="stack",
            controller=c.player,
            owner=c.player,
            ability_kind="triggered",
        )
        for t, c in zip(scenario.triggers, scenario.controls, strict=True)
    )


def compile_facts(scenario: Scenario, limits: Limits | None = None, deadline: Deadline = NO_DEADLINE) -> Facts:
    """Compute the facts of ``scenario`` once; every engine shares them. With ``limits``, a
    requirement with more candidates than the cap is refused as soon as it is found."""
    scenario = instance_of(scenario, "scenario", Scenario, SCENARIO)
    if limits is not None:
        _check_sizes(scenario, limits)
    opponents = opponent_relation(scenario)

    def is_opponent(a: PlayerId, b: PlayerId) -> bool:
        return b in opponents.get(a, frozenset())

    base = scenario_things(scenario)
    controls = scenario.controls
    things = base + _waiting_things(scenario)
    thing_index: dict[str, int] = {t.id: i for i, t in enumerate(things)}
    two = has_parts(scenario)  # 603.3b's parts: the blocks and each ability's part read the same list
    parts = [2 if two and t.condition == "ability-triggered" else 1 for t in scenario.triggers]
    blocks, block_of = build_blocks(scenario, [None if c.left_game else c.player for c in controls], parts)
    placeable = [not c.left_game and t.illegal is None for t, c in zip(scenario.triggers, controls, strict=True)]
    compiling = _Compiling(
        scenario=scenario,
        limits=limits,
        deadline=deadline,
        things=things,
        thing_index=thing_index,
        first_waiting=len(base),
        is_opponent=is_opponent,
        block_of=block_of,
        placeable=placeable,
        known=Known.of(things),
        parts=parts,
    )
    abilities = [compiling.ability(k, t, c) for k, (t, c) in enumerate(zip(scenario.triggers, controls, strict=True))]
    return Facts(
        scenario=scenario,
        things=things,
        thing_ids=tuple([t.id for t in things]),
        thing_index=MappingProxyType(thing_index),
        abilities=tuple(abilities),
        ability_index=MappingProxyType({a.id: a.index for a in abilities}),
        blocks=blocks,
        opponents=MappingProxyType(opponents),
        first_waiting=len(base),
    )


def reactions_of(facts: Facts) -> tuple[Reaction, ...]:
    """``facts.scenario.reactions``, without reading back a scenario sent later (only one without
    reactions is: ``_slots.pickled``)."""
    return () if unread(facts, "scenario") else facts.scenario.reactions


SCENARIO = "a Scenario (Scenario.model_validate(document) or Scenario.load(path))"
"""What a door taking a scenario takes, and how to make one: said when it is given something else."""


def scenario_of(value: Any) -> Scenario | Facts:
    """The scenario argument of every Python verb (``prepare``, ``facts_of``): a :class:`Scenario` or
    its compiled :class:`Facts`; a document, a path or anything else is a ``UsageError`` naming the
    argument (model/_args.py ``instance_of``)."""
    return instance_of(value, "scenario", (Scenario, Facts), f"{SCENARIO} or its compiled Facts")


def facts_of(scenario: Scenario | Facts, limits: Limits | None = None, deadline: Deadline = NO_DEADLINE) -> Facts:
    """The facts of ``scenario``, compiled on first use and kept with it (a scenario is frozen);
    ``limits`` and ``deadline`` bound the compiling (:func:`check_limits` measures facts already
    compiled)."""
    scenario = scenario_of(scenario)
    if isinstance(scenario, Facts):
        return scenario
    cached = scenario._facts
    if cached is None:
        cached = compile_facts(scenario, limits, deadline)
        scenario._facts = cached
    assert isinstance(cached, Facts)
    return cached


def _check_sizes(scenario: Scenario, limits: Limits) -> None:
    limits.check_document({"triggers": scenario.triggers, "objects": scenario.objects})


def _check_candidates(limits: Limits, k: int, modal: bool, mode: int, r: RequirementFacts) -> None:
    """A requirement of trigger ``k`` with more candidates than ``limits`` allow is refused where it is."""
    if len(r.candidates) > limits.candidates:
        where: tuple[str | int, ...] = ("triggers", k)
        where += ("modes", mode, "targets", r.index) if modal else ("targets", r.index)
        raise limits.refuse("candidates", len(r.candidates), "candidates", where)


def check_limits(facts: Facts, limits: Limits) -> None:
    """Raise :class:`~._errors.ScenarioError` naming the first cap ``facts`` exceeds (abilities, objects,
    candidates of one requirement)."""
    _check_sizes(facts.scenario, limits)
    for a in facts.abilities:
        for m in a.modes:
            for r in m.requirements:
                _check_candidates(limits, a.index, a.modal, m.index, r)
