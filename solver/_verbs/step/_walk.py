"""A walk across every pass of 603.3b's loop, decision by decision, with fixed ids.

One class, the :class:`Stepper` every door's walk goes through (the step verb, the environments, the page),
whose caches and ids all its methods share; the replay of an outcome is ``_replay.py``'s."""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterable
from contextlib import AbstractContextManager
from dataclasses import fields, replace

from triggerstack.model._args import in_order, instance_of
from triggerstack.model._errors import LayoutOverflow, WalkStateError
from triggerstack.model._facts import Facts, reactions_of
from triggerstack.model._limits import RUNNING, Deadline, bounded, deadline_for
from triggerstack.model._outcome import Outcome, outcome_json
from triggerstack.model._passes import Passes, Successor, join
from triggerstack.model._shapes import Reaction, TriggerBody
from triggerstack.model._text import compact
from triggerstack.model._things import Thing
from triggerstack.model._types import PlayerId

from ..._core.indexed import IndexedOutcome, Placed, entry_json, ids_json, to_outcome
from ..._engines.product import ProductEngine
from ..._judge import Reason, not_in_pass, triggered_earlier, walk_over
from ..._options import Options
from ._decision import DIVIDE, END_MODES, END_TARGETS, MODE, PUT, REMOVE, TARGET, Checked, Decision, Key, made, spell
from ._layout import ActionLayout, laid_out
from ._pass import PREFIX_CACHE, PassStepper
from ._replay import IllegalOutcome as IllegalOutcome
from ._replay import decisions_for
from ._state import State, Walk

UNIVERSE = 4096
"""The most abilities laid out in advance: past it (a long chain of reactions, or a loop that fires
more every pass) the abilities a walk meets get the next free ids as they first appear."""


_HANDED = "stepper:handed"
"""The key of a stepper handed over with its facts (:meth:`Stepper.hand_over`)."""


def _named_by(stepper: Stepper) -> Callable[[Key], Decision]:
    """``stepper._named`` without a reference to the stepper from its pass steppers (a cycle
    would leave a board's whole stepper for the garbage collector, not for its reference count)."""
    ref = weakref.ref(stepper)

    def named(key: Key) -> Decision:
        found = ref()
        assert found is not None  # a pass stepper is used through its stepper
        return found._named(key)

    return named


def _reachable(facts: Facts, body: TriggerBody, watched: Thing | None) -> bool:
    """Whether an ability with ``body`` could target ``watched`` (None: anything), whoever
    controls it (:meth:`Facts.may_fit`)."""
    return any(
        watched is None or facts.may_fit(r.filter, watched) for _, reqs in body.requirement_lists() for r in reqs
    )


FACTS = "compiled Facts (compile_facts(scenario)), or use LegalOutcomes(scenario).stepper()"
"""What a Stepper is built from, and how to make it: said when it is given something else."""


class Stepper(Checked[Walk]):
    """The decision space of a scenario — every pass of 603.3b's loop — with fixed ids.

    Ids are those of one :class:`ActionLayout`: ``layout`` if given (the same ids across scenarios
    that fit it; one that does not fit is refused naming what overflows), else :attr:`needs`, the
    smallest this scenario fits. Its slots run over a *universe* (:attr:`universe`): the waiting
    abilities and every ability a reaction could fire from them (``REACTION@ABILITY``: an ability
    with a requirement that could name the reaction's object, up to ``limits.passes`` deep), and
    as things the players, the objects and that universe. A pass that ends having fired abilities
    starts the next pass by itself. Build it once per scenario.

    With an engine's ``next_pass`` hook (:class:`~triggerstack.solver.Options`), what it fires
    cannot be known in advance: without a layout given, the decisions of an ability or thing it
    fires (or of a chain past :data:`UNIVERSE`) get the next ids past ``needs.size`` when they
    first appear, so ``size`` can grow during walks.
    """

    def __init__(self, facts: Facts, options: Options | None = None, layout: ActionLayout | None = None) -> None:
        self.facts = instance_of(facts, "facts", Facts, FACTS)
        self.options = options or Options()
        self.layout = layout
        self.passes = Passes.within(
            facts, self.options.next_pass, self.options.limits, None if layout is None else layout.passes
        )
        self._single = self.passes.single
        # the first pass from the facts alone (a board read back does not read its scenario: Facts)
        waiting = facts.abilities
        self._modes: dict[str, list[str]] = {a.id: [m.id or "" for m in a.modes] for a in waiting if a.modal}
        most = max([r.divide or 0 for a in waiting for m in a.modes for r in m.requirements], default=0)
        fired, depth, beyond = self._fired(facts, reactions_of(facts))
        self.beyond = beyond
        """Whether reactions could fire abilities past the passes laid out (``needs.passes`` would be
        more with more passes: the scenario does not fit a layout of this many)."""
        for aid, body in fired:
            if body.modal is not None:
                self._modes[aid] = [m.id for m in body.modes]
        most = max((most, *(r.divide or 0 for _, b in fired for _, reqs in b.requirement_lists() for r in reqs)))
        self.universe: tuple[str, ...] = (*[a.id for a in waiting], *[aid for aid, _ in fired])
        """The abilities a walk can meet, by slot: the waiting ones, then what reactions could fire."""
        players = facts.player_ids()
        self.thing_slots: tuple[str, ...] = facts.thing_ids[: facts.first_waiting]
        """The players (in turn order) and objects, by thing slot."""
        self._ability_slot = {aid: i for i, aid in enumerate(self.universe)}
        self._thing_slot = {t: i for i, t in enumerate(self.thing_slots)}
        self.needs = laid_out(  # one object per capacities (every new board has its own: 2 µs to build and check)
            len(self.universe),
            len(self.thing_slots),
            max((len(m) for m in self._modes.values()), default=0) or 1,
            most,
            depth,
            len(players),
        )
        """The smallest :class:`ActionLayout` this scenario fits."""
        if layout is not None and not layout.fits(self.needs):
            over = [
                f"{getattr(self.needs, f.name)} {f.name} (the layout has {getattr(layout, f.name)})"
                for f in fields(ActionLayout)
                if getattr(self.needs, f.name) > getattr(layout, f.name) and f.name != "passes"
            ]
            if over:
                raise LayoutOverflow("the scenario does not fit the action layout: it needs " + ", ".join(over))
        self._by_text: dict[str, Decision] = {}
        self._by_key: dict[Key, Decision] = {}
        self._by_id: dict[int, Decision] = {}
        self._ids = layout or self.needs
        """The one layout decision ids are given by: the one asked for, or this scenario's smallest."""
        self.size = self._ids.size
        # Every decision laid out from the start is made the first time it is asked for (decision(),
        # a pass's tokens): a board seen once makes the few its walk meets.
        self._base_abilities = len(self.universe)
        self._base_modes = {aid: tuple(m) for aid, m in self._modes.items()}
        self._most = most
        self._steppers: dict[int, PassStepper] = {}
        self._lines: dict[int, tuple[Placed, str]] = {}
        self._ended: dict[tuple[int, ...], str] = {}  # a finished walk's line, by its decisions (which make it)
        self._after: dict[tuple[object, ...], Successor] = {}
        self._product: ProductEngine | None = None

    def _fired(self, facts: Facts, reactions: tuple[Reaction, ...]) -> tuple[list[tuple[str, TriggerBody]], int, bool]:
        """What the reactions could fire, level by level past the waiting abilities (each fired
        ability's id and body), how many passes that is, and whether they could fire past the
        passes laid out."""
        if not reactions:
            return [], 1, False
        watched = {r.id: self._watched(r.object) for r in reactions}
        level: list[tuple[str, TriggerBody]] = [(t.id, t) for t in facts.scenario.triggers]
        fired: list[tuple[str, TriggerBody]] = []
        depth = 1
        for more in range(self.passes.max_passes - 1, -1, -1):
            nxt = [
                (f"{r.id}@{aid}", r.trigger)
                for aid, body in level
                for r in reactions
                if _reachable(facts, body, watched[r.id])
            ]
            if not nxt or len(facts.abilities) + len(fired) + len(nxt) > UNIVERSE:
                break  # nothing more fires, or a long chain or a loop: later ones get ids as they come
            if not more:  # they would fire in a pass past the last one
                return fired, depth, True
            fired.extend(nxt)
            level = nxt
            depth += 1
        return fired, depth, False

    def hand_over(self) -> None:
        """Keep this stepper with its facts for the next who would build the same one (options, layout), once: a
        board's generator lays it out to see that it fits, and the environment playing it takes it (:meth:`taken`)."""
        self.facts.memo[_HANDED] = self  # options and layout compared when taken: hashing them cost 2 µs a board

    @staticmethod
    def taken(facts: Facts, options: Options, layout: ActionLayout | None) -> Stepper | None:
        """The stepper :meth:`hand_over` left with ``facts`` for these options and layout, taken (None: none)."""
        found = facts.memo.get(_HANDED)
        if not isinstance(found, Stepper) or not (found.options is options or found.options == options):
            return None
        if found.layout is not layout and found.layout != layout:  # one object per capacities, mostly (laid_out)
            return None
        del facts.memo[_HANDED]
        return found

    def _watched(self, obj: str) -> Thing | None:
        k = self.facts.thing_index.get(obj)
        return None if k is None else self.facts.things[k]

    def __repr__(self) -> str:
        laid = "" if self.layout is None else f", laid out in {self.layout.size}"
        return f"<Stepper of {len(self.facts.abilities)} waiting abilities: {self.size} decision ids{laid}>"

    def _add(self, key: Key) -> Decision:
        """Give the decision that means ``key`` its id: its place in the layout; without a layout
        given, one that ``needs`` has no slot for (what an engine's hook fires, or a chain past
        :data:`UNIVERSE`) gets the next id past the others."""
        try:
            i = self._layout_id(key)
        except LayoutOverflow:
            if self.layout is not None:
                raise
            i = self.size
            self.size += 1
        d = made(i, key)  # its readable form spelled from its meaning (once per process)
        self._by_text[d.text] = self._by_key[key] = self._by_id[i] = d
        return d

    def _unmade_text(self, text: str) -> Decision:
        """A readable form no decision has been made for yet: made now if it is one laid out from
        the start (each is made the first time it is asked for), or one about an ability a walk met
        (past :data:`UNIVERSE`: its removal, never offered, was "no such decision")."""
        try:
            key: Key | None = Decision.parse(text)
        except ValueError:
            key = None
        if key is None or spell(key) != text or not self._is_known(key):
            return super()._unmade_text(text)
        return self._named(key)

    def _unmade_id(self, i: int) -> Decision:
        """An id no decision has been made for yet: made now if it is one laid out from the start."""
        base = self._base_key(i)
        return super()._unmade_id(i) if base is None else self._named(base)

    def _base_key(self, i: int) -> Key | None:
        """What id ``i`` means among the decisions laid out from the start (None: none)."""
        ids, n, universe = self._ids, self._base_abilities, self.universe
        a = ids.abilities
        if not 0 <= i < ids.size:
            return None
        if i < 2 * a:
            kind, k = (PUT, i) if i < a else (REMOVE, i - a)
            return (kind, universe[k], "", 0) if k < n else None
        if i < ids.end_modes:
            k, m = divmod(i - 2 * a, ids.modes)
            modes = self._base_modes.get(universe[k]) if k < n else None
            return (MODE, universe[k], modes[m], 0) if modes is not None and m < len(modes) else None
        if i == ids.end_modes:
            return (END_MODES, "", "", 0)
        if i >= ids.end_targets:
            amount = i - ids.end_targets
            if amount == 0:
                return (END_TARGETS, "", "", 0)
            return (DIVIDE, "", "", amount) if amount <= self._most else None
        t = i - ids.end_modes - 1
        if t < ids.things:
            return (TARGET, self.thing_slots[t], "", 0) if t < len(self.thing_slots) else None
        k = t - ids.things
        return (TARGET, universe[k], "", 0) if k < n else None

    def _is_known(self, key: Key) -> bool:
        """Whether ``key`` is one of the decisions laid out from the start, or one about an
        ability a walk met (given its slot as it appeared)."""
        kind, subject, mode, amount = key
        ability = subject in self._ability_slot
        if kind is MODE:
            return ability and mode in self._modes.get(subject, ())
        if kind is DIVIDE:
            return 1 <= amount <= self._most
        if kind is TARGET:
            return subject in self._thing_slot or ability
        return ability or kind in (END_MODES, END_TARGETS)

    def _layout_id(self, key: Key) -> int:
        layout = self._ids
        kind, subject, mode, amount = key
        if kind is END_MODES:
            return layout.end_modes
        if kind is END_TARGETS:
            return layout.end_targets
        if kind is PUT:
            return layout.put(self._slot_of(subject))
        if kind is REMOVE:
            return layout.remove(self._slot_of(subject))
        if kind is MODE:
            return layout.mode(self._slot_of(subject), self._modes[subject].index(mode))
        if kind is TARGET:
            t = self._thing_slot.get(subject)
            return layout.target_thing(t) if t is not None else layout.target_ability(self._slot_of(subject))
        return layout.divide_amount(amount)

    def _slot_of(self, aid: str) -> int:
        """An ability's slot; one a hook fired gets the next free slot."""
        slot = self._ability_slot.get(aid)
        if slot is None:
            slot = self._ability_slot[aid] = len(self.universe)
            self.universe = (*self.universe, aid)
        return slot

    def _local(self, facts: Facts) -> PassStepper:
        """One pass's stepper, its decisions the scenario's (one numbering: this stepper's)."""
        found = self._steppers.get(id(facts))  # one Facts per distinct pass scenario (Passes keeps them)
        if found is None:
            for a in facts.abilities:  # a hook's pass may name what no reaction could fire
                if a.modal and a.id not in self._modes:
                    self._modes[a.id] = [m.id or "" for m in a.modes]
            found = self._steppers[id(facts)] = PassStepper(facts, _named_by(self), self.options)
        return found

    def _named(self, key: Key) -> Decision:
        """The decision that means ``key`` (given its id the first time a pass names it)."""
        return self._by_key.get(key) or self._add(key)

    def _call(self) -> AbstractContextManager[Deadline]:
        """The deadline of a call, built as it starts and in force while it runs: every public
        question is bounded by the time limit (a question asked inside another — ``forced``,
        ``reachable`` — takes the deadline of the one that asks). What the stepper keeps across
        calls (each pass's choice spaces, its product engine) checks :data:`RUNNING`: the
        deadline of whichever call runs it, in its own thread."""
        return bounded(deadline_for(self.options.time_limit))

    def start(self) -> Walk:
        return Walk(facts=self.facts)

    def ability_slot(self, ability: str) -> int:
        """The slot of an ability of :attr:`universe` (its place in an :class:`ActionLayout`)."""
        return self._slot_of(ability)

    def thing_slot(self, thing: str) -> int | None:
        """The slot of a player or object (None: not one; abilities have :meth:`ability_slot`)."""
        return self._thing_slot.get(thing)

    def columns(self, facts: Facts, things: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The slot of each ability of the pass ``facts``, and each of its things' thing slot or, for an ability,
        ``things`` plus its slot (:meth:`ability_slot`, :meth:`thing_slot`), asked of their tables at once."""
        if facts is self.facts:  # the first pass: its abilities the first slots, and things (Facts.waiting_ability)
            n, first = len(facts.abilities), facts.first_waiting
            return tuple(range(n)), (*range(first), *range(things, things + n))
        slot, thing, new = self._ability_slot.get, self._thing_slot.get, self._slot_of
        slots = tuple([s if (s := slot(a.id)) is not None else new(a.id) for a in facts.abilities])
        of = [t if (t := thing(x)) is not None else things + (s if (s := slot(x)) is not None else new(x))
              for x in facts.thing_ids]  # fmt: skip
        return slots, tuple(of)

    def pass_stepper(self, facts: Facts) -> PassStepper:
        """The stepper of one pass (``walk.facts``)."""
        return self._local(facts)

    def legal(self, walk: Walk) -> list[Decision]:
        """The legal next decisions, sorted by id (empty: the walk is over)."""
        out = self.offered(walk)
        out.sort(key=lambda d: d.id)
        return out

    def offered(self, walk: Walk) -> list[Decision]:
        """The legal next decisions as the pass's stepper gives them: :meth:`legal` without its
        sort by id (for a caller that reads them as a set, as an environment's mask does). Every
        decision offered at one point is of one phase — order, modes, targets or divisions (601.2b–d
        are announced in turn) — so the first says which. The list is the caller's."""
        assert walk.facts is not None
        with self._call():
            return self._local(walk.facts).legal(walk.local)

    def forced(self, walk: Walk) -> tuple[Walk, int]:
        """``walk`` with each decision that is the only legal one taken, in turn, until there is a
        choice to make or the walk is over; and how many were taken. A walk reaches the same
        outcomes either way: a lone legal decision is what any player would have to take (an
        ``end targets`` once no target may be added, the one ability a block has left …)."""
        taken = 0
        while len(moves := self.legal(walk)) == 1:
            walk = self.apply_unchecked(walk, moves[0])
            taken += 1
        return walk, taken

    def decider(self, walk: Walk) -> PlayerId | None:
        """The player who makes the next decision of ``walk`` (None once it is over): the chooser
        of the ability in hand (700.2e), else the player whose block is being put (603.3b)."""
        assert walk.facts is not None
        return self._local(walk.facts).decider(walk.local)

    def why_illegal(self, walk: Walk, decision: Decision) -> Reason:
        """Why ``decision`` is not legal now, asked of the judge room (through the pass's stepper
        for a decision of the pass the walk is in)."""
        assert walk.facts is not None
        local = self._local(walk.facts)
        if local.find(decision.key) is not None:
            return local.why_illegal(walk.local, decision)
        if self.is_over(walk):
            return walk_over()
        name = decision.subject
        if decision.kind is TARGET:  # an earlier pass's ability is a thing here unless that pass removed it
            removed_in = next((k + 1 for k, (f, _) in enumerate(walk.done) if name in f.ability_index), None)
            return not_in_pass(name, removed_in)
        return triggered_earlier(name, earlier=any(name in f.ability_index for f, _ in walk.done))

    def apply_unchecked(self, walk: Walk, ref: Decision | int | str) -> Walk:
        """The walk after ``ref`` without checking that it is legal; starts the next pass when
        this one is over and fired abilities."""
        d = self.decision(ref)
        facts = walk.facts
        assert facts is not None
        local = self._local(facts)
        tok = local.token_of(d.key)
        assert tok is not None  # the pass's own decisions are the only ones applied to it
        state = local.apply_token(walk.local, tok)
        walk = Walk(walk.done, facts, state, walk.on_stack, (*walk.decisions, d.id))
        if self._single or not local.is_over(state):  # a lone pass: nothing follows it
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
        return self._local(walk.facts).is_over(walk.local)

    def outcome(self, walk: Walk) -> Outcome:
        """The whole outcome a finished walk reached (every pass)."""
        if not self.is_over(walk):
            raise WalkStateError("the walk is not over: there are legal decisions left")
        assert walk.facts is not None
        parts = [self._local(f).outcome(st) for f, st in walk.done]
        return join([*parts, self._local(walk.facts).outcome(walk.local)])

    def outcome_line(self, walk: Walk) -> str:
        """``outcome_json(outcome(walk))`` — the line ``enumerate`` prints for the outcome a finished
        walk reached — written from each placed ability's entry, kept once written, without
        building the outcome."""
        found = self._ended.get(walk.decisions)  # a board played again ends as it has before
        if found is not None:
            return found
        if not self.is_over(walk):
            raise WalkStateError("the walk is not over: there are legal decisions left")
        assert walk.facts is not None
        stack: list[str] = []
        removed: list[str] = []
        sizes: list[int] = []
        for facts, state in (*walk.done, (walk.facts, walk.local)):
            for p in state.stack:
                kept = self._lines.get(id(p))
                if kept is None or kept[0] is not p:  # a pass's Placed objects live as long as its stepper
                    kept = self._lines[id(p)] = (p, entry_json(facts, p))
                stack.append(kept[1])
            never = {a.index for a in facts.abilities if a.block is None}
            removed += [facts.abilities[k].id for k in sorted(state.removed | never)]
            sizes.append(len(state.stack))
        while len(sizes) > 1 and sizes[-1] == 0:  # join: a last pass that put nothing is not listed
            sizes.pop()
        passes = f'"passes":{compact(sizes)},' if len(sizes) > 1 else ""
        if len(self._ended) > PREFIX_CACHE:
            self._ended.clear()
        line = self._ended[walk.decisions] = f'{{{passes}"removed":{ids_json(removed)},"stack":[{",".join(stack)}]}}'
        return line

    def in_hand(self, walk: Walk) -> tuple[str, tuple[str, ...]] | None:
        """The ability being announced (put, its modes and targets not all chosen yet) and what
        has been announced of its choice so far (the decisions' readable forms, after ``put``);
        None between abilities."""
        assert walk.facts is not None
        local = self._local(walk.facts)
        state = walk.local
        if state.current is None:
            return None
        said = tuple(local.decisions[t].text for t in state.tokens)
        return walk.facts.abilities[state.current].id, said

    def pass_number(self, walk: Walk) -> int:
        """Which pass of 603.3b's loop the walk is in (1: the scenario's waiting abilities)."""
        return len(walk.done) + 1

    def so_far(self, walk: Walk) -> Outcome:
        """What a walk has put on the stack and removed so far, every pass (the ability in hand,
        not yet placed, is in neither); :meth:`outcome` once it is over."""
        assert walk.facts is not None
        parts = [self._local(f).outcome(st) for f, st in walk.done]
        f = walk.facts
        parts.append(to_outcome(f, IndexedOutcome(walk.local.stack, tuple(sorted(walk.local.removed)))))
        return join(parts)

    def count(self, walk: Walk) -> int | None:
        """How many distinct outcomes ``walk`` can still end in, exactly and without listing any
        (the product engine's parts: the ability in hand's choices that begin with what it has
        announced, times the ways to decide the rest of the pass —
        :meth:`~triggerstack.solver._engines.product.ProductEngine.completions`); ``None`` where
        further passes of 603.3b may follow (what they hold depends on how this one ends)."""
        with self._call():
            return self._count(walk)

    def _count(self, walk: Walk) -> int | None:
        if not self.passes.single or walk.done:
            return None
        facts = walk.facts
        assert facts is not None
        local = self._local(facts)
        state = walk.local
        below = {p.ability for p in state.stack}
        done = below | set(state.removed)
        n = 1
        if state.current is not None:
            n = local.matching(state)
            below.add(state.current)
            done.add(state.current)
        return n * self._engine(facts).completions(frozenset(below), frozenset(done)) if n else 0

    def _engine(self, facts: Facts) -> ProductEngine:
        if self._product is None:
            self._product = ProductEngine(facts, replace(self.options, merge_identical=False), RUNNING)
        return self._product

    def reachable(self, walk: Walk, cap: int, deadline: Deadline) -> tuple[int, bool]:
        """How many distinct outcomes ``walk`` can still end in: (the number, exact?). Counted by
        walking every continuation (states reached twice are walked once), up to ``cap``."""
        seen: set[tuple[object, ...]] = set()
        ends: set[str] = set()
        pending = [walk]
        steps = 0
        while pending:
            w = pending.pop()
            key = self.key(w)
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

    def key(self, walk: Walk) -> tuple[object, ...]:
        """What a walk's future depends on, not the path that reached it: two walks with one key
        have the same legal decisions and reach the same outcomes. A set's members clicked in
        another order (601.2c, 700.2) reach one key, so whatever walks every continuation merges
        walks by it (:meth:`reachable`; the phase.rs adapter's announcements)."""
        done = tuple((id(f), st.stack, st.removed) for f, st in walk.done)
        here = walk.local
        return (done, id(walk.facts), here.stack, here.removed, here.current, here.tokens)

    def walk(self, decisions: Iterable[Decision | int | str]) -> Walk:
        """The walk after ``decisions`` from the start, each checked."""
        walk = self.start()
        for d in in_order(decisions, "decisions"):  # never text read a character at a time, nor a set
            walk = self.apply(walk, d)
        return walk

    def decisions_for(self, outcome: Outcome) -> list[Decision]:
        """A sequence of decisions whose walk ends in ``outcome`` (for imitation learning, or to
        replay an engine's log). An outcome that ``check`` rejects raises :class:`IllegalOutcome`
        with the verdict. Within a block, the removals come as early as they are legal."""
        with self._call() as deadline:
            return decisions_for(self, outcome, deadline)
