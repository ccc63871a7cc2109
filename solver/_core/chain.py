"""One chain across the passes of 603.3b: the questions of :class:`~.engine.PassEngine` asked of
whole outcomes.

A *whole* outcome is one outcome per pass, the first pass's first: each later pass holds what the
earlier ones fired (:class:`~triggerstack.model.Passes` steps from a pass to the next, with
the scenario's reactions or an engine's ``next_pass`` hook). Each pass is answered by the engine
``engine_for`` gives for its facts. The order of whole outcomes is the first pass's engine order,
then, for each first-pass outcome, the order of what follows it; ``unrank`` and ``count`` read the
same order, so sampling a uniform rank is exactly uniform.

With a single pass (no reactions, no hook) every question goes straight to the first pass's engine.
Further passes are counted once per distinct next-pass scenario (its :class:`Facts` is shared),
and one pass's outcomes are listed, with the counts of what follows each, only to unrank.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate, islice
from random import Random
from typing import Protocol

from triggerstack.model._errors import EndlessLoop, PastCompiled, TimeLimitReached
from triggerstack.model._facts import Facts
from triggerstack.model._limits import DEFAULT_LIMITS, NO_DEADLINE, Deadline, raised_by
from triggerstack.model._outcome import Entry, Outcome, Score, outcome_json
from triggerstack.model._passes import Passes, StackItem, Successor, join
from triggerstack.model._text import found

from .._errors import EngineCannot
from ._loops import Listing, Loops, Met, Path
from .engine import PassEngine
from .indexed import IndexedOutcome, JsonWriter, from_outcome, to_outcome


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass of a whole outcome: its facts and its outcome."""

    facts: Facts
    outcome: IndexedOutcome


Whole = tuple[Pass, ...]


@dataclass(frozen=True, slots=True)
class _Table:
    """One pass's outcomes with what follows each, and the cumulative counts (for unrank)."""

    outcomes: tuple[IndexedOutcome, ...]
    successors: tuple[Successor, ...]
    ends: tuple[int, ...]  # ends[i]: whole outcomes through outcome i


AFTER_A_LOOP = 200_000
"""Once a loop is met, the most outcomes followed further to count those that avoid it."""

AFTER_A_LOOP_COMPILED = 64
"""Once a loop is met, the most distinct passes compiled further to count the outcomes that avoid
it (each ~50 ms), where ``--max-compiled`` is at its default or below (raising it lifts this too):
explain spent 10 s of CPU on a board of 8 abilities whose reactions loop, to say "at least 147
outcomes" where 0.5 s says "at least 4", both counts stopped before they were complete."""

NAMED = 3
"""How many of the outcomes that avoid a loop its error names."""

KEPT_OUTCOMES = 4096
"""A pass with at most this many outcomes keeps each drawn outcome, to draw it again as it is."""


class Classes(Protocol):
    """Whole outcomes counted and drawn without listing them (``engines.product.fired``)."""

    path: str

    def count(self) -> int: ...

    def draw(self, rng: Random) -> Outcome: ...


ClassesFor = Callable[[Passes, PassEngine, Deadline], "Classes | str"]
"""Builds the classes of a chain from its passes and first engine, or says why they do not apply."""


class Chain:
    """Count, iterate, unrank and best over every pass of 603.3b's loop.

    ``classes``, when given, may count and draw across passes without listing any pass (see
    :class:`Classes`); where it says it does not apply, each pass is listed."""

    def __init__(
        self,
        passes: Passes,
        engine_for: Callable[[Facts], PassEngine],
        max_listed: int,
        deadline: Deadline = NO_DEADLINE,
        classes: ClassesFor | None = None,
    ) -> None:
        self.passes = passes
        self.engine_for = engine_for
        self.max_listed = max_listed
        self.deadline = deadline
        self._classes_for = classes
        self._classes: Classes | str | None = None
        self._kept: dict[int, Outcome] = {}
        self._listing = Listing(max_listed)  # outcomes listed in tables so far, against max_listed across every pass
        self.first = engine_for(passes.first)
        self._engines: dict[int, PassEngine] = {id(passes.first): self.first}
        self._counts: dict[object, int] = {}  # by a pass's signature (its class up to names), else its facts
        self._tables: dict[int, _Table] = {}
        self._loops = Loops(passes, self.engine, self._counts, self._listing, deadline)
        self._endless: EndlessLoop | None = None  # the loops of this chain, once told

    @property
    def single(self) -> bool:
        return self.passes.single

    @property
    def path(self) -> str:
        """How the chain answers: the first pass's engine path, and across passes how they are
        followed: ``+classes`` (counted by what the first pass fires) or ``+passes`` (each pass's
        outcomes listed with the counts of what follows them)."""
        if self.single:
            return self.first.path
        classes = self.classes()
        return f"{self.first.path}+{classes.path if classes is not None else 'passes'}"

    def classes(self) -> Classes | None:
        """The classes that count and draw across passes, if they apply (:meth:`why_listed` says
        why not)."""
        if self._classes is None:
            made = self._classes_for(self.passes, self.first, self.deadline) if self._classes_for else None
            self._classes = "no classes for this engine" if made is None else made
        return None if isinstance(self._classes, str) else self._classes

    def why_listed(self) -> str | None:
        """Why the passes are listed rather than counted by classes (None: they are not)."""
        if self.single or self.classes() is not None:
            return None
        assert isinstance(self._classes, str)
        return self._classes

    def later_passes(self) -> list[tuple[int, Facts]]:
        """Every distinct pass scenario after the first, with its depth (1: the second pass), in
        the order they are first reached; each pass's outcomes are listed once (bounded as for
        unranking)."""
        out: list[tuple[int, Facts]] = []
        seen: set[int] = set()
        frontier: deque[tuple[Facts, tuple[StackItem, ...], int]] = deque([(self.passes.first, (), 0)])
        while frontier and not self.single:
            facts, below, depth = frontier.popleft()
            for successor in self._table(facts, below, depth).successors:
                if successor.facts is not None and id(successor.facts) not in seen:
                    seen.add(id(successor.facts))
                    out.append((depth + 1, successor.facts))
                    frontier.append((successor.facts, successor.on_stack, depth + 1))
        return out

    def engine(self, facts: Facts) -> PassEngine:
        """The engine of a pass of this chain (one per distinct pass scenario)."""
        engine = self._engines.get(id(facts))  # one Facts per distinct pass scenario (Passes keeps them)
        if engine is None:
            engine = self._engines[id(facts)] = self.engine_for(facts)
        return engine

    def _after(self, facts: Facts, outcome: IndexedOutcome, below: tuple[StackItem, ...], depth: int) -> Successor:
        return self.passes.after(facts, to_outcome(facts, outcome), below, depth)

    # -- count ----------------------------------------------------------------------------------

    def count(self) -> int:
        """The exact number of whole outcomes."""
        if self.single:
            return self.first.count()
        classes = self.classes()
        if classes is not None:
            return classes.count()
        return self._count(self.passes.first, (), 0)

    def _class(self, facts: Facts) -> object:
        """What a pass's count depends on: its signature (passes equal up to names count alike,
        whatever earlier choices put below them), else the facts themselves."""
        sig = self.passes.signature(facts)
        return id(facts) if sig is None else sig

    def _count(self, facts: Facts, below: tuple[StackItem, ...], depth: int) -> int:
        """The whole outcomes from pass ``depth`` (``facts``) on; a loop met on the way is told as
        a loop of the whole chain (:meth:`_loop`), whichever pass the count started from."""
        known = self._counts.get(self._class(facts))
        if known is not None:
            return known
        total, met, stopped = self._follow(facts, below, depth)
        if met:
            raise self._loop(None if depth or below or facts is not self.passes.first else (total, met, stopped))
        return total

    def _follow(self, facts: Facts, below: tuple[StackItem, ...], depth: int) -> tuple[int, list[Met], str | None]:
        """The whole outcomes from pass ``depth`` (``facts``) on in which no pass repeats an earlier
        one, the loops met (a pass that repeats one on its path: it is not followed), and what
        stopped the count before it was complete (None: nothing did; else :func:`_stopped`):
        depth-first without recursion, so a chain of any length is counted. A pass's count is kept
        for its class only when no loop was met below it (then it does not depend on the path). Once
        a loop is met the rest is followed only to count the outcomes that avoid it, within the time
        limit, ``--max-compiled`` passes, :data:`AFTER_A_LOOP_COMPILED` more passes compiled and
        :data:`AFTER_A_LOOP` outcomes (else not complete)."""
        walk = Path(self.passes, self.engine, self._loops)
        walk.enter(facts, below, depth)
        met: list[Met] = []
        total = followed = 0
        compiled = 0  # the passes compiled when the first loop was met
        budget = AFTER_A_LOOP_COMPILED if self.passes.max_compiled <= DEFAULT_LIMITS.compiled else None
        try:
            while walk.frames:
                top, outcome = walk.advance()
                if outcome is None:
                    if not top.tainted:
                        self._counts[self._class(top.facts)] = top.total
                    if walk.frames:
                        walk.frames[-1].total += top.total
                    else:
                        total = top.total
                    continue
                self.deadline.check(f"counting the outcomes of pass {top.depth + 1}")
                if met and (followed := followed + 1) > AFTER_A_LOOP:
                    return sum(f.total for f in walk.frames), met, ""  # a budget of its own: no flag raises it
                if met and budget is not None and self.passes.compiled - compiled > budget:
                    return sum(f.total for f in walk.frames), met, "--max-compiled" if raised_by("compiled") else ""
                ahead = self.passes.peek(top.facts, to_outcome(top.facts, outcome), top.below)
                if ahead.ends:
                    top.total += 1
                    continue
                sig = ahead.signature  # the next pass's class, known before it is compiled
                if sig is not None and (done := self._counts.get(sig)) is not None:
                    top.total += done
                    continue
                nxt = self.passes.reach(ahead, top.depth)
                assert nxt.facts is not None
                if sig is None and (done := self._counts.get(id(nxt.facts))) is not None:
                    top.total += done
                elif (loop := walk.enter(nxt.facts, nxt.on_stack, top.depth + 1)) is not None:
                    if not met:
                        compiled = self.passes.compiled
                    met.append(loop)
                    for f in walk.frames:
                        f.tainted = True
        except (TimeLimitReached, EngineCannot, PastCompiled) as exc:  # a cap of the work, not an answer
            if not met:
                raise
            return sum(f.total for f in walk.frames), met, _stopped(exc)
        return total, met, None

    def _loop(self, followed: tuple[int, list[Met], str | None] | None = None) -> EndlessLoop:
        """The error for the loops of this chain, followed from its first pass (``followed``: as
        :meth:`_follow` did already), once: how many outcomes avoid them, the first few named."""
        if self._endless is None:
            total, met, stopped = followed or self._follow(self.passes.first, (), 0)
            assert met, "a loop met from a later pass is met from the first"
            named: list[Outcome] = []
            if stopped is None and total:
                try:
                    named = [self.outcome(w) for w in islice(self._iter(self.passes.first, (), 0, True), NAMED)]
                except (TimeLimitReached, PastCompiled):
                    named = []
            self._endless = self._loops.summary(met, total, stopped, named)
        return self._endless

    # -- iterate ---------------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Whole]:
        """Every whole outcome once, in the chain's order, lazily."""
        return self._iter(self.passes.first, (), 0)

    def _iter(self, facts: Facts, below: tuple[StackItem, ...], depth: int, avoid: bool = False) -> Iterator[Whole]:
        """Every whole outcome from pass ``depth`` (``facts``) on, depth-first without recursion;
        a pass that repeats one on its path is a loop (:meth:`_loop`), or with ``avoid`` is not
        followed (the outcomes that avoid every loop)."""
        if self.single:
            for only in self.engine(facts):
                yield (Pass(facts, only),)
            return
        walk = Path(self.passes, self.engine, self._loops)
        chosen: list[Pass] = []  # the outcome taken in each pass below the top frame
        walk.enter(facts, below, depth)
        while walk.frames:
            top, outcome = walk.advance()
            if outcome is None:
                if walk.frames:
                    chosen.pop()
                continue
            here = Pass(top.facts, outcome)
            self.deadline.check(f"following the outcomes of pass {top.depth + 1} into the next pass")
            nxt = self._after(top.facts, outcome, top.below, top.depth)
            if nxt.facts is None:
                yield (*chosen, here)
            elif walk.enter(nxt.facts, nxt.on_stack, top.depth + 1) is None:
                chosen.append(here)
            elif not avoid:
                raise self._loop()

    def outcome(self, whole: Whole) -> Outcome:
        """The canonical wire form of a whole outcome (docs/formats.md, Proposal and outcome)."""
        parts = [to_outcome(p.facts, p.outcome) for p in whole]
        return parts[0] if len(parts) == 1 else join(parts)

    def _first_pass(self, limit: int | None) -> Iterator[IndexedOutcome]:
        return iter(self.first) if limit is None else self.first.head(limit)

    def outcomes(self, limit: int | None = None) -> Iterator[Outcome]:
        """Every whole outcome in wire form, in the chain's order (at most ``limit``; see
        :meth:`PassEngine.head` for how a solver engine stops early)."""
        if self.single:
            facts = self.passes.first
            return (to_outcome(facts, o) for o in self._first_pass(limit))
        return islice(map(self.outcome, self), limit)

    def lines(self, limit: int | None = None) -> Iterator[str]:
        """:meth:`outcomes` as canonical JSON (byte-identical to ``outcome_json``), fast for one
        pass: each placed ability's fragment is made once and reused."""
        if self.single:
            writer = JsonWriter(self.passes.first)
            strings = getattr(self.first, "lines", None)  # an engine that builds lines from fragments
            if strings is not None:
                every: Iterator[str] = strings(writer.fragment, writer.removed)
                return every if limit is None else islice(every, limit)
            return map(writer, self._first_pass(limit))
        return map(outcome_json, self.outcomes(limit))

    # -- unrank ----------------------------------------------------------------------------------

    def ranks(self) -> int:
        """:meth:`count`, found the way :meth:`unrank` needs it: across passes, by listing each
        pass's outcomes with the counts of what follows them (within ``max_listed``)."""
        if self.single:
            return self.first.count()
        table = self._table(self.passes.first, (), 0)
        return table.ends[-1] if table.ends else 0

    def unrank(self, rank: int) -> Whole:
        """The whole outcome at ``rank`` of the chain's order (0 ≤ rank < count())."""
        if self.single:
            return (Pass(self.passes.first, self.first.unrank(rank)),)
        if not 0 <= rank < self.ranks():
            raise IndexError(f"rank {rank} outside [0, {self.ranks()})")
        return self._unrank(self.passes.first, (), 0, rank)

    def draw(self, rng: Random) -> Outcome:
        """One whole outcome drawn exactly uniformly with ``rng``, in wire form (across passes,
        by classes where they apply, else by unranking a uniform rank)."""
        classes = None if self.single else self.classes()
        if classes is not None:
            return classes.draw(rng)
        return self.outcome(self.unrank(rng.randrange(self.ranks())))

    def draws(self, rng: Random) -> Iterator[Outcome]:
        """Endless :meth:`draw` s (the same draws, with less said per draw for one pass)."""
        if not self.single:
            while True:
                yield self.draw(rng)
        facts, total, unrank, below = self.passes.first, self.first.count(), self.first.unrank, rng.randrange
        if total > KEPT_OUTCOMES:
            pick = _picker(self.first, rng)
            while True:
                yield to_outcome(facts, pick())
        kept = self._kept  # a small pass: each outcome is made once and drawn again as it is (frozen)
        while True:
            r = below(total)
            outcome = kept.get(r)
            if outcome is None:
                outcome = kept[r] = to_outcome(facts, unrank(r))
            yield outcome

    def draw_lines(self, rng: Random) -> Iterator[str]:
        """Endless :meth:`draw` s as canonical JSON lines (the same draws, fast for one pass)."""
        if not self.single:
            while True:
                yield outcome_json(self.draw(rng))
        write, pick = JsonWriter(self.passes.first), _picker(self.first, rng)
        while True:
            yield write(pick())

    def rank(self, outcome: Outcome) -> int:
        """The rank of the whole outcome ``outcome`` (any form of it): the inverse of
        :meth:`unrank` (``ValueError`` when it is not a legal outcome)."""
        if self.single:
            return self._rank_in(self.passes.first, self.first, outcome)
        return self._rank(self.passes.first, (), 0, outcome.stack, outcome.removed)

    @staticmethod
    def _rank_in(facts: Facts, engine: PassEngine, outcome: Outcome) -> int:
        try:
            indexed = from_outcome(facts, outcome)
        except KeyError as exc:
            raise ValueError(f"not a legal outcome: {found(exc.args[0])} is not in the scenario") from None
        r = engine.rank(indexed)
        try:
            if engine.unrank(r) == indexed:
                return r
        except IndexError:
            pass
        raise ValueError("not a legal outcome")

    def _rank(
        self,
        facts: Facts,
        below: tuple[StackItem, ...],
        depth: int,
        stack: tuple[Entry, ...],
        removed: tuple[str, ...],
    ) -> int:
        start = 0
        while True:
            index = facts.ability_index
            mine = Outcome(
                stack=tuple(e for e in stack if e.ability in index), removed=tuple(r for r in removed if r in index)
            )
            table = self._table(facts, below, depth)
            i = self._rank_in(facts, self.engine(facts), mine)  # the engine's order is the table's
            start += table.ends[i - 1] if i else 0
            nxt = table.successors[i]
            stack = tuple(e for e in stack if e.ability not in index)
            removed = tuple(r for r in removed if r not in index)
            if nxt.facts is None:
                if stack or removed:
                    raise ValueError("not a legal outcome: it holds abilities that did not trigger")
                return start
            facts, below, depth = nxt.facts, nxt.on_stack, depth + 1

    def _unrank(self, facts: Facts, below: tuple[StackItem, ...], depth: int, rank: int) -> Whole:
        out: list[Pass] = []
        while True:
            table = self._table(facts, below, depth)
            i = bisect_right(table.ends, rank)
            out.append(Pass(facts, table.outcomes[i]))
            nxt = table.successors[i]
            if nxt.facts is None:
                return tuple(out)
            rank -= table.ends[i - 1] if i else 0
            facts, below, depth = nxt.facts, nxt.on_stack, depth + 1

    def _table(self, facts: Facts, below: tuple[StackItem, ...], depth: int) -> _Table:
        key = id(facts)
        table = self._tables.get(key)
        if table is None:
            engine = self.engine(facts)
            self._listing.add(engine.count(), "following the passes of 603.3b")
            outcomes = tuple(engine)
            successors = []
            for o in outcomes:
                self.deadline.check(f"following the outcomes of pass {depth + 1} into the next pass")
                successors.append(self._after(facts, o, below, depth))
            sizes = (1 if s.facts is None else self._count(s.facts, s.on_stack, depth + 1) for s in successors)
            table = self._tables[key] = _Table(outcomes, tuple(successors), tuple(accumulate(sizes)))
        return table

    # -- best ------------------------------------------------------------------------------------

    def best(self, score: Score, first_best: PassEngine | None = None) -> tuple[Outcome, int, bool]:
        """The whole outcome with the highest ``score``, its score, and whether it is proven
        optimal. Across passes, a score that names no fired ability (``REACTION@ABILITY``; with
        the scenario's reactions) is decided by the first pass alone — later passes score 0 and
        sit above it — so the first pass's best (by ``first_best``, the engine for ``best``) is
        followed by the first of what it fires; otherwise every whole outcome is scored, ties
        going to the first in the chain's order."""
        if self.single:
            found = self.first.best(score)
            return to_outcome(self.passes.first, found.outcome), found.score, found.proven
        if self.passes.next_pass is None and not _names_fired(score):
            engine = first_best or self.first
            found = engine.best(score)
            facts = self.passes.first
            nxt = self._after(facts, found.outcome, (), 0)
            here = Pass(facts, found.outcome)
            top = (here,) if nxt.facts is None else (here, *next(self._iter(nxt.facts, nxt.on_stack, 1)))
            outcome = self.outcome(top)
            return outcome, score.of(outcome), found.proven
        leader: Outcome | None = None
        value = 0
        for whole in self.outcomes():
            v = score.of(whole)
            if leader is None or v > value:
                leader, value = whole, v
        assert leader is not None  # every scenario has at least one outcome
        return leader, value, True


def _stopped(exc: Exception) -> str:
    """The flag that would let a count stopped by ``exc`` go further, as a loop's error says it
    (:meth:`Chain._follow`): the time limit, ``--max-compiled`` or ``--max-outcomes`` (the listing's);
    "" where the running command has no such flag."""
    cap = "compiled" if isinstance(exc, PastCompiled) else "outcomes" if isinstance(exc, EngineCannot) else None
    return "--time-limit" if cap is None else f"--max-{cap}" if raised_by(cap) else ""


def _names_fired(score: Score) -> bool:
    """Whether ``score`` weighs an ability fired in a later pass (their ids hold ``@``)."""
    return any("@" in aid for key in ("height", "mode", "target", "removed") for aid in getattr(score, key))


def _picker(engine: PassEngine, rng: Random) -> Callable[[], IndexedOutcome]:
    """One pass's uniform draws: a uniform rank, unranked."""
    total, unrank = engine.count(), engine.unrank
    return lambda: unrank(rng.randrange(total))
