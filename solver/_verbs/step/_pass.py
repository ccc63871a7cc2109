"""One pass of 603.3b, decision by decision: the legal next decisions of a state, why another is
not legal, and the outcome a finished pass reached."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from triggerstack.model._apnap import Block
from triggerstack.model._errors import WalkStateError
from triggerstack.model._facts import AbilityFacts, Facts, RequirementFacts
from triggerstack.model._limits import RUNNING
from triggerstack.model._outcome import Entry, Outcome, canonical
from triggerstack.model._types import PlayerId

from ... import _judge as judge
from ..._core.indexed import Choice, IndexedOutcome, ModeInstance, Placed, to_outcome
from ..._core.space import ChoiceSpace, has_legal_choice, space_for
from ..._judge import Reason
from ..._options import Options
from ._announce import Announcer, announced_choice, announcer_for, division_announced
from ._decision import DIVIDE, END_MODES, END_TARGETS, MODE, PUT, REMOVE, TARGET, Checked, Decision, Key
from ._later import beside, later, reordered, said
from ._state import State

PREFIX_CACHE = 100_000
"""How many announced prefixes a pass keeps the matching choices of, before it starts afresh."""

BARE = Choice((ModeInstance(0, (), ()),))
"""The one choice of an ability with nothing to announce (:func:`is_bare`)."""


def is_bare(a: AbilityFacts) -> bool:
    """Whether ``a`` has nothing to announce: not modal, no target, nothing it must target (601.2c)
    — four abilities in five on the boards ``rl.boards`` draws. Its one choice is :data:`BARE`
    whenever it may be put: what its choice space counts and its announcer reads, built per
    ability of every new board, are known without them (tests/test_step_bare.py holds the two equal)."""
    return not a.modal and not a.must and not a.modes[0].requirements and a.modes[0].available


class _Decisions(Sequence[Decision]):
    """A pass's decisions by token, each made the first time it is asked for: a walk over a board
    seen once asks for a few of them."""

    __slots__ = ("_keys", "_made", "_named")

    def __init__(self, keys: list[Key], named: Callable[[Key], Decision]) -> None:
        self._keys = keys
        self._named = named
        self._made: list[Decision | None] = [None] * len(keys)

    def __len__(self) -> int:
        return len(self._keys)

    def __getitem__(self, t: int) -> Decision:  # type: ignore[override]  # tokens, never slices
        found = self._made[t]
        if found is None:
            found = self._made[t] = self._named(self._keys[t])
        return found

    def __iter__(self) -> Iterator[Decision]:
        return (self[t] for t in range(len(self._keys)))


@dataclass(repr=False)
class PassStepper(Checked[State]):
    """The decisions of one pass, with its caches. Its decisions are the scenario's, numbered once
    by :class:`~._walk.Stepper` (``named`` gives the decision that means a key); inside, a choice
    is spelled in *tokens*, the pass's own alphabet (put, remove, modes, targets, parts), which
    are never shown as decisions."""

    facts: Facts
    named: Callable[[Key], Decision]
    options: Options = field(default_factory=Options)
    _choice_tokens: dict[tuple[int, frozenset[int]], list[tuple[Choice, tuple[int, ...]]]] = field(default_factory=dict)
    _entry_tokens: dict[tuple[int, frozenset[int]], dict[Entry, tuple[int, ...]]] = field(default_factory=dict)
    _prefix: dict[tuple[tuple[int, frozenset[int]], tuple[int, ...]], list[int]] = field(default_factory=dict)
    _next: dict[tuple[tuple[int, frozenset[int]], tuple[int, ...]], list[Decision]] = field(default_factory=dict)
    _whole: dict[tuple[int, frozenset[int]], dict[tuple[int, ...], Placed]] = field(default_factory=dict)
    _partial: set[tuple[tuple[int, frozenset[int]], tuple[int, ...]]] = field(default_factory=set)
    _sets: dict[tuple[tuple[int, frozenset[int]], tuple[int, ...]], set[tuple[int, ...]]] = field(default_factory=dict)
    _has: dict[tuple[int, frozenset[int]], bool] = field(default_factory=dict)
    _spaces: dict[tuple[int, frozenset[int]], ChoiceSpace] = field(default_factory=dict)
    _announcers: dict[tuple[int, frozenset[int]], Announcer | None] = field(default_factory=dict)
    _indexed: tuple[dict[int, Decision], dict[str, Decision]] | None = None

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
        self.end_targets = self.target0 + len(f.thing_ids)
        self.divide0 = self.end_targets + 1
        most = max((r.divide or 0 for a in f.abilities for m in a.modes for r in m.requirements), default=0)
        self.tokens_count = self.divide0 + most
        keys = self._keys()
        self.decisions = _Decisions(keys, self.named)
        """The decision each token is, by token (each made the first time it is asked for)."""
        self._token = {k: i for i, k in enumerate(keys)}

    @property
    def size(self) -> int:  # type: ignore[override]  # known once its decisions are
        """How many decision ids there are, up to this pass's highest."""
        return max(self._by_id) + 1

    @property
    def _by_id(self) -> dict[int, Decision]:  # type: ignore[override]  # made when first asked
        return self._index()[0]

    @property
    def _by_text(self) -> dict[str, Decision]:  # type: ignore[override]  # made when first asked
        return self._index()[1]

    def _index(self) -> tuple[dict[int, Decision], dict[str, Decision]]:
        if self._indexed is None:
            self._indexed = ({d.id: d for d in self.decisions}, {d.text: d for d in self.decisions})
        return self._indexed

    def decision(self, ref: Decision | int | str) -> Decision:
        """As :meth:`Checked.decision`; a decision of this pass is found by what it means."""
        if isinstance(ref, Decision):
            t = self._token.get(ref.key)
            if t is not None:
                return self.decisions[t]
        return super().decision(ref)

    def __repr__(self) -> str:
        return f"<PassStepper of {len(self.facts.abilities)} waiting abilities, {self.tokens_count} decisions>"

    def find(self, key: Key) -> Decision | None:
        """The decision of the pass that means ``key``, if it has one."""
        t = self._token.get(key)
        return None if t is None else self.decisions[t]

    def token_of(self, key: Key) -> int | None:
        """The token that spells the decision meaning ``key`` in this pass, if it has one."""
        return self._token.get(key)

    # -- the tokens ---------------------------------------------------------------------------

    def _keys(self) -> list[Key]:
        """What each token means, in token order: put and remove per ability, each modal ability's
        modes, end of modes, a target per thing, end of targets, each amount divided."""
        f = self.facts
        keys: list[Key] = [(PUT, a.id, "", 0) for a in f.abilities]
        keys += [(REMOVE, a.id, "", 0) for a in f.abilities]
        keys += [(MODE, a.id, m.id or "", 0) for a in f.abilities if a.modal for m in a.modes]
        keys.append((END_MODES, "", "", 0))
        keys += [(TARGET, t, "", 0) for t in f.thing_ids]
        keys.append((END_TARGETS, "", "", 0))
        keys += [(DIVIDE, "", "", amount) for amount in range(1, self.tokens_count - self.divide0 + 1)]
        assert len(keys) == self.tokens_count
        return keys

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
            # kept across calls: it checks the deadline of whichever call lists it (RUNNING), never this one's
            space = self._spaces[key] = space_for(self.facts, a, key[1], self.options.limits, RUNNING)
        return space

    def _announcer(self, a: AbilityFacts, key: tuple[int, frozenset[int]]) -> Announcer | None:
        """How ``a`` announces its choices without listing them (None: they are listed, as a
        coupled space is, or one over ``limits.choices``, which listing refuses)."""
        if key in self._announcers:
            return self._announcers[key]
        found = None
        if key not in self._choice_tokens:
            space = self._space(a, key)
            if space.count <= self.options.limits.choices:
                n = 2 * len(self.facts.abilities) + self.mode_offset[a.index]
                found = announcer_for(a, space, n, self.end_modes, self.target0, self.end_targets, self.divide0)
        self._announcers[key] = found
        return found

    def _has_choice(self, a: AbilityFacts, on_stack: frozenset[int]) -> bool:
        """Whether ``a`` has a legal choice now (603.3c–d), asked of the one home ``check`` and
        ``explain`` ask (:func:`~..._core.space.has_legal_choice`: counted, not listed, and searched
        for where the choices would be listed past ``--max-choices``: only the ability put is listed)."""
        key = (a.index, on_stack & a.waiting_targets)
        found = self._has.get(key)
        if found is None:
            if is_bare(a):  # its one choice, if it may be put at all
                found = a.forced_removal is None
            else:  # the space it builds is this stepper's, kept across calls: each call's deadline (RUNNING)

                def built(below: frozenset[int]) -> ChoiceSpace:
                    return self._space(a, (a.index, below))

                found = has_legal_choice(self.facts, a, key[1], self.options.limits, RUNNING, built)
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

    def matching(self, state: State) -> int:
        """How many choices of the ability in hand begin with the tokens it has announced (it
        must have one in hand)."""
        assert state.current is not None
        return len(self._consistent(self.facts.abilities[state.current], state))

    def _consistent(self, a: AbilityFacts, state: State) -> list[tuple[int, ...]]:
        """The tokens of every listed choice of ``a`` (the ability in hand) that begin as it has
        announced: the closed part alike, and the open set (:meth:`_open`) holding what is chosen."""
        tokens = state.tokens
        listed = self._choices(a, state.placed)
        start = self._open(a, tokens)
        if start is None:
            n = len(tokens)
            return [seq for _, seq in listed if seq[:n] == tokens]
        close, prefix, chosen = self._closing(a, tokens), tokens[:start], tokens[start:]
        return [
            seq
            for _, seq in listed
            if seq[:start] == prefix and beside(seq[start : seq.index(close, start)], chosen) is not None
        ]

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
        on_stack = state.placed
        if state.current is None:
            out: list[int] = []
            for k in self._block(state):
                a = f.abilities[k]
                has = self._has_choice(a, on_stack) if a.forced_removal is None else False
                if has:
                    out.append(k)
                if not has or a.may_choose_zero:
                    out.append(len(f.abilities) + k)
            return [self.decisions[i] for i in sorted(out)]
        a = f.abilities[state.current]
        key = (a.index, on_stack & a.waiting_targets)
        found = self._next.get((key, state.tokens))
        if found is None:
            announcer = self._announcer(a, key)
            if announcer is not None:
                found = self._offer(key, state.tokens, announcer.next(state.tokens))
            else:
                self._choices(a, on_stack)
                start = self._open(a, state.tokens)
                tokens = state.tokens
                following = self._group(key, tokens) if start is None else self._set_next(a, key, tokens, start)
                found = self._offer(key, state.tokens, following)
        return list(found)

    def _open(self, a: AbilityFacts, tokens: Sequence[int]) -> int | None:
        """Where the set being chosen begins in ``tokens``: the ability's modes (700.2) or one
        requirement's targets (601.2c), each a set whatever order it is clicked in, kept sorted as
        the choices spell it. None where no set is open (the parts of a division, or a whole choice)."""
        i = 0
        instances: list[int] = [0]
        if a.modal:
            if self.end_modes not in tokens:
                return 0
            i = tokens.index(self.end_modes)
            base = 2 * len(self.facts.abilities) + self.mode_offset[a.index]
            instances = [t - base for t in tokens[:i]]
            i += 1
        for m in instances:
            for r in a.modes[m].requirements:
                start = i
                while i < len(tokens) and tokens[i] != self.end_targets:
                    i += 1
                if i == len(tokens):
                    return start
                i += 1 + (i - start if r.divide else 0)  # end targets, and a part per target divided
                if i > len(tokens):
                    return None
        return None

    def _closing(self, a: AbilityFacts, tokens: Sequence[int]) -> int:
        """The token that closes the set open in ``tokens``: end of modes or end of targets."""
        return self.end_modes if a.modal and self.end_modes not in tokens else self.end_targets

    def _set_next(
        self, a: AbilityFacts, key: tuple[int, frozenset[int]], tokens: tuple[int, ...], start: int
    ) -> list[int]:
        """What may follow ``tokens`` whose set from ``start`` is open, among listed choices: every
        member of a set some choice (beginning as the closed part does) holds beside those chosen,
        and the closing token where the chosen set is one whole."""
        close = self._closing(a, tokens)
        chosen = tokens[start:]
        out: set[int] = set()
        for seg in self._segments(key, tokens[:start], close):
            rest = beside(seg, chosen)
            if rest is not None:
                out.update(rest) if rest else out.add(close)
        return sorted(out)

    def _segments(self, key: tuple[int, frozenset[int]], prefix: tuple[int, ...], close: int) -> set[tuple[int, ...]]:
        """The sets (sorted) the listed choices beginning with ``prefix`` take next, up to ``close``."""
        found = self._sets.get((key, prefix))
        if found is None:
            choices = self._choice_tokens[key]
            n = len(prefix)
            found = set()
            for i in self._matching(key, prefix):
                seq = choices[i][1]
                found.add(seq[n : seq.index(close, n)])
            self._bound()
            self._sets[(key, prefix)] = found
        return found

    def _matching(self, key: tuple[int, frozenset[int]], prefix: tuple[int, ...]) -> list[int]:
        """The listed choices (indices) that begin with ``prefix`` (a prefix of whole sets)."""
        if not prefix:
            return list(range(len(self._choice_tokens[key])))
        found = self._prefix.get((key, prefix))
        if found is None:
            self._group(key, prefix[:-1])
            found = self._prefix.get((key, prefix), [])
        return found

    def _offer(self, key: tuple[int, frozenset[int]], tokens: tuple[int, ...], following: list[int]) -> list[Decision]:
        """Keep the decisions (spelled ``following``) that may follow ``tokens``."""
        self._bound()
        found = self._next[(key, tokens)] = [self.decisions[t] for t in following]
        return found

    def _group(self, key: tuple[int, frozenset[int]], tokens: tuple[int, ...]) -> list[int]:
        """The tokens that follow ``tokens`` in the listed choices' spelling: the choices that begin
        with them (indices in their list) are grouped by their next token in one pass, and each
        group is kept for the prefix one token longer, so that a long list is scanned once per
        prefix reached. (A walk offers a set's members in any order: :meth:`_set_next`.)"""
        matching = self._matching(key, tokens)
        choices = self._choice_tokens[key]
        n = len(tokens)
        groups: dict[int, list[int]] = {}
        for i in matching:
            seq = choices[i][1]
            if len(seq) > n:
                groups.setdefault(seq[n], []).append(i)
        self._bound()
        for t, group in groups.items():
            self._prefix[(key, (*tokens, t))] = group
        return sorted(groups)

    def _bound(self) -> None:
        """A bound on memory: past it the walk goes on, recomputing."""
        if len(self._prefix) + len(self._next) + len(self._sets) > PREFIX_CACHE:
            self._prefix.clear()
            self._next.clear()
            self._sets.clear()

    def why_illegal(self, state: State, decision: Decision) -> Reason:
        """Why ``decision`` (one of this pass's) is not legal in ``state``, asked of the judge room.
        A decision a legal outcome takes further on — a target of a later requirement, a removal
        in a later block, a put once the ability in hand is announced — breaks no rule: the reason
        says so and how to get there (:func:`._later.later`); only a decision no legal outcome takes after
        what the walk has decided is said to break a rule, and one offered now is said to be legal."""
        f = self.facts
        n = len(f.abilities)
        d, tok = decision, self._token[decision.key]
        if self.is_over(state):
            return judge.walk_over()
        if d in self.legal(state):
            return judge.offered(said(self, d))
        how = later(self, state, d, tok)
        if how is not None:
            return how
        if state.current is not None:
            a = f.abilities[state.current]
            if d.kind in (TARGET, END_TARGETS, DIVIDE) and (other := reordered(self, state, a, d, tok)) is not None:
                return other
            return self._why_token(state, a, d, tok)
        if d.kind not in (PUT, REMOVE):
            return judge.put_first()
        a = f.abilities[tok % n]
        if any(p.ability == a.index for p in state.stack) or a.index in state.removed:
            return judge.already_done(a.id, removed=a.index in state.removed)
        if a.block is None or a.forced_removal is not None:
            return judge.never_put(a, placed=False)
        current = self._current(state)[0]
        assert current is not None  # the walk is not over
        if a.block != current.index:
            return judge.later_block(f, a, current.index)
        if d.kind is PUT:
            return judge.must_be_removed(a)
        return judge.must_be_put(a)

    def _why_token(self, state: State, a: AbilityFacts, d: Decision, tok: int) -> Reason:
        """Why ``d`` (spelled ``tok``) cannot come next while ``a`` is being announced."""
        f = self.facts
        legal = self.legal(state)
        if d.kind in (PUT, REMOVE):
            return judge.announce_first(a.id)
        if d.kind is MODE:
            j = tok - 2 * len(f.abilities)
            k = max(x for x in range(len(f.abilities)) if self.mode_offset[x] <= j and f.abilities[x].modal)
            if k != a.index:
                return judge.mode_not_its_own(a, f.abilities[k], d.mode or "")
            mode = a.modes[j - self.mode_offset[k]]
            if self.end_modes not in state.tokens:  # the modes announced so far, and this one: what check says of them
                base = 2 * len(f.abilities) + self.mode_offset[a.index]
                refused = judge.mode_broken_for_good(f, a, [t - base for t in state.tokens], mode, state.placed)
                if refused is not None:
                    return refused
            elif not mode.available:
                return judge.mode_unavailable(a, mode)
        if legal and all(x.kind is DIVIDE for x in legal):
            if d.kind is DIVIDE and (refused := self._part_refused(a, state.tokens, d)) is not None:
                return refused
            return judge.divide_first(a)
        if d.kind is END_MODES and a.modal and self.end_modes not in state.tokens:  # their number is final
            miscounted = judge.modes_miscounted(a, len(state.tokens))
            if miscounted is not None:
                return miscounted
        if d.kind is END_TARGETS and (req := self._requirement(a, state.tokens)) is not None:
            ended = max((i for i, t in enumerate(state.tokens) if t in (self.end_modes, self.end_targets)), default=-1)
            chosen = sum(1 for t in state.tokens[ended + 1 :] if self.target0 <= t < self.end_targets)
            miscounted = judge.targets_miscounted(req, chosen)  # the requirement's targets end: their number is final
            if miscounted is not None:
                return miscounted
        if d.kind is TARGET:
            t = tok - self.target0
            req = self._requirement(a, state.tokens)
            if req is not None and t in req.excluded:
                return judge.cannot_choose(f, a, req, t)
            if t >= f.first_waiting and t - f.first_waiting not in {p.ability for p in state.stack}:
                return judge.not_on_stack(f, a, t)
            if req is not None:
                base = 2 * len(f.abilities) + self.mode_offset[a.index]
                said = announced_choice(a, (*state.tokens, tok), base, self.end_modes, self.target0, self.end_targets)
                broken = judge.broken_for_good(f, a, said, state.placed)
                if broken:
                    return broken[0]
        announced = [self.decisions[t].text for t in state.tokens]
        return judge.no_choice_goes_on(a, d.text, announced, d.kind in (TARGET, END_TARGETS))

    def _part_refused(self, a: AbilityFacts, tokens: tuple[int, ...], d: Decision) -> Reason | None:
        """Why the part ``d`` gives the next target of the division being announced can't be
        given: what ``check`` says of a division giving it (601.2d), None if that is no reason."""
        base = 2 * len(self.facts.abilities) + self.mode_offset[a.index]
        found = division_announced(a, tokens, base, self.end_modes, self.target0, self.end_targets, self.divide0)
        if found is None:
            return None
        amount, targets, given = found
        return judge.part_refused(amount, [self.facts.things[t].id for t in targets], given, d.amount)

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
        return self.apply_token(state, self._token[self.decision(ref).key])

    def apply_token(self, state: State, tok: int) -> State:
        """:meth:`apply_unchecked` of the decision spelled ``tok`` (its token)."""
        n = len(self.facts.abilities)
        decisions = (*state.decisions, self.decisions[tok].id)
        if tok < n:  # put
            done = state.processed | {tok}
            return self._finish(State(decisions, state.stack, state.removed, tok, (), state.placed, done))
        if tok < 2 * n:  # remove
            k = tok - n
            return State(decisions, state.stack, state.removed | {k}, None, (), state.placed, state.processed | {k})
        tokens = (*state.tokens, tok)
        if state.tokens and tok < state.tokens[-1] and tok < self.end_targets and tok != self.end_modes:
            assert state.current is not None
            start = self._open(self.facts.abilities[state.current], state.tokens)
            if start is not None:  # a member of the open set, clicked after a later one: kept sorted
                tokens = (*state.tokens[:start], *sorted((*state.tokens[start:], tok)))
        announcing = State(decisions, state.stack, state.removed, state.current, tokens, state.placed, state.processed)
        return self._finish(announcing)

    def _finish(self, state: State) -> State:
        """Place the ability in hand once its tokens spell a whole choice."""
        assert state.current is not None
        a = self.facts.abilities[state.current]
        key = (a.index, state.placed & a.waiting_targets)
        whole = self._whole.get(key)
        if whole is None:
            if is_bare(a) and a.forced_removal is None:  # placed as it is put: nothing to announce
                whole = self._whole[key] = {(): Placed(a.index, BARE)}
            elif self._announcer(a, key) is None:
                whole = self._whole[key] = {seq: Placed(a.index, c) for c, seq in self._choices(a, key[1])}
            else:
                whole = self._whole[key] = {}  # filled as choices are announced
        placed = whole.get(state.tokens)
        if placed is None:
            announcer = self._announcers.get(key)
            if announcer is None or (key, state.tokens) in self._partial:
                return state
            choice = announcer.read(state.tokens)
            if not isinstance(choice, Choice):  # not whole yet: what may follow is known, for legal
                if len(self._partial) > PREFIX_CACHE:
                    self._partial.clear()
                self._partial.add((key, state.tokens))
                if (key, state.tokens) not in self._next:
                    self._offer(key, state.tokens, choice)
                return state
            # kept for good: a walk's Placed objects are named by their ids (Stepper's successors, the observer)
            placed = whole[state.tokens] = Placed(a.index, choice)
        stack, on_stack = (*state.stack, placed), state.placed | {placed.ability}
        return State(state.decisions, stack, state.removed, None, (), on_stack, state.processed)

    def is_over(self, state: State) -> bool:
        return state.current is None and not self._block(state)

    def outcome(self, state: State) -> Outcome:
        """The outcome a finished walk reached."""
        if not self.is_over(state):
            raise WalkStateError("the walk is not over: there are legal decisions left")
        never = {a.index for a in self.facts.abilities if a.block is None}
        return to_outcome(self.facts, IndexedOutcome(state.stack, tuple(sorted(state.removed | never))))

    def walk(self, decisions: Iterable[Decision | int | str]) -> State:
        """The state after ``decisions`` from the start, each checked."""
        state = State()
        for d in decisions:
            state = self.apply(state, d)
        return state
