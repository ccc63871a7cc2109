"""The loop of 603.3b followed pass by pass: the passes on the path being followed (a pass that
repeats one on its path is a loop, :class:`Met`), what kind of loop it is — mandatory (104.4b),
optional, or not decided within the cap on passes — and the one error that tells a judge about the
loops of a chain (:meth:`Loops.summary`): which choice enters the loop, and how many outcomes avoid
it (see :class:`~.chain.Chain`, which counts and lists the passes with these). What is found here
is said by the judge room (``solver/_judge/_loops.py``): every sentence of a loop is its."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from triggerstack.model._errors import EndlessLoop
from triggerstack.model._facts import Facts
from triggerstack.model._limits import Deadline, raised_by
from triggerstack.model._outcome import Outcome
from triggerstack.model._passes import Passes, StackItem, firing

from .._errors import EngineCannot
from .._judge import _loops as said
from .._judge._reason import Reason
from .engine import PassEngine
from .indexed import IndexedOutcome, to_outcome


@dataclass(slots=True)
class Frame:
    """A pass being followed depth-first: its outcomes still to follow, and the count so far."""

    facts: Facts
    below: tuple[StackItem, ...]
    depth: int
    outcomes: Iterator[IndexedOutcome]
    sig: str | None
    flat: str | None  # Passes.stackless: the pass but for the stack
    total: int = 0
    current: IndexedOutcome | None = None  # the outcome being followed
    taken: int = -1  # its place among the pass's outcomes
    tainted: bool = False  # a loop was met below it: its total is not its class's count


MANDATORY, OPTIONAL, ENDLESS, UNDECIDED = "mandatory", "optional", "endless", "undecided"
"""The kinds of loop: no choice ends it (104.4b); a choice ends it after any number of rounds; a
stack that only grows and no choice found to end it; not decided within the cap on passes."""


@dataclass(frozen=True, slots=True)
class Met:
    """A loop met while following the passes: its kind, the judge's reason (which pass repeats
    which, and its rule) and what keeps it going, and the choice on the path that entered it — the
    pass (1-based) and that pass's outcome, None when the waiting abilities are its first round —
    with ``prefix``, the place of the outcome each pass took up to that choice (two paths into loops
    differ there)."""

    kind: str
    reason: Reason
    cause: str
    entered: tuple[int, Outcome] | None
    prefix: tuple[int, ...]


class Listing:
    """The outcomes of passes listed so far by one chain, against ``max_listed`` across every pass."""

    def __init__(self, max_listed: int) -> None:
        self.max_listed = max_listed
        self.listed = 0

    def add(self, n: int, doing: str) -> None:
        """Count ``n`` more outcomes listed for ``doing``; :class:`EngineCannot` past the limit."""
        self.listed += n
        if self.listed > self.max_listed:
            raise EngineCannot(
                f"{doing} lists the outcomes of each pass: {self.listed} so far, "
                f"more than the limit of {self.max_listed}{raised_by('outcomes')}"
            )


class Loops:
    """What a loop of one chain's passes is: ``counts`` (the whole outcomes known to follow each
    class of pass, by signature) says where a choice is known to end the passes."""

    def __init__(
        self,
        passes: Passes,
        engine: Callable[[Facts], PassEngine],
        counts: Mapping[object, int],
        listing: Listing,
        deadline: Deadline,
    ) -> None:
        self.passes = passes
        self.engine = engine
        self.counts = counts
        self.listing = listing
        self.deadline = deadline
        self._verdicts: dict[tuple[bool, str], tuple[bool, bool]] = {}  # mandatory's, by class: a loop met again

    def replayable(self, frames: list[Frame], below: tuple[StackItem, ...]) -> bool:
        """Whether the choices of ``frames`` (the passes from an earlier one to now, ``below`` on the
        stack after them) can be made again on a larger stack: every ability they removed was
        removed whatever the stack holds — it could never be put there, its controller chose no
        mode, or none of its targets could be an ability on the stack now. (A larger stack only adds
        targets, so every placement stays legal, but an ability removed for want of a target might
        then have one, and must be put there. The rounds to come only add copies of abilities on the
        stack now, fired again by the same reactions, with the same controllers: an ability that
        could target none of these never has a target.)"""
        for f in frames:
            if f.current is None:
                return False
            for k in f.current.removed:
                a = f.facts.abilities[k]
                if a.forced_removal is not None or a.may_choose_zero:
                    continue
                stack = self.passes.may_target_the_stack
                if any(stack(r.filter, a.controller, below) for m in a.modes for r in m.requirements):
                    return False
        return True

    @staticmethod
    def cause(facts: Facts, frames: list[Frame]) -> str:
        """Why the passes go on, for a loop's error: which ability's targets fire which reactions
        again, on what, and which abilities on the way are removed for want of a target (then they
        change nothing)."""
        fired = firing(facts.scenario, [a.id for a in facts.abilities])
        gone = [
            a.id
            for f in frames
            if f.current is not None
            for k in f.current.removed
            if (a := f.facts.abilities[k]).forced_removal is None and not a.may_choose_zero
        ]
        return said.loop_goes_on(fired, gone)

    def error(
        self,
        path: list[Frame],
        earlier: tuple[int, Facts],
        facts: Facts,
        below: tuple[StackItem, ...],
        depth: int,
        grown: bool = False,
    ) -> Met:
        """The loop of pass ``depth`` (``facts``, ``below`` on the stack) repeating the ``earlier``
        pass of its ``path`` (its depth and facts): a mandatory loop when no choice from it ever ends
        the passes (104.4b), else an optional one — what keeps it going (:meth:`cause`) and the
        choice that entered it. ``grown``: it repeats it but for more abilities on the stack, and
        the choices between them can be made again (:meth:`replayable`), so they repeat for ever."""
        before = [f for f in path if f.depth < earlier[0]]
        cycle = [f for f in path if f.depth >= earlier[0]]
        kind, reason = self._kind(facts, below, depth, earlier, grown)
        entered = None
        if before and before[-1].depth == earlier[0] - 1 and (last := before[-1]).current is not None:
            entered = (last.depth + 1, to_outcome(last.facts, last.current))
        return Met(kind, reason, self.cause(facts, cycle), entered, tuple(f.taken for f in before))

    def _kind(
        self, facts: Facts, below: tuple[StackItem, ...], depth: int, earlier: tuple[int, Facts], grown: bool
    ) -> tuple[str, Reason]:
        ids, earlier_ids = [a.id for a in facts.abilities], [a.id for a in earlier[1].abilities]
        more = len(facts.scenario.objects) - len(earlier[1].scenario.objects) if grown else None  # the stack: objects
        again = said.loop_repeats(depth + 1, ids, earlier[0] + 1, earlier_ids, more)
        if grown:
            mandatory, decided = self.mandatory(facts, below, depth, flat=True)
            if mandatory or not decided:
                return ENDLESS, said.endless_chain(again, self.passes.max_passes)
            return OPTIONAL, said.optional_loop(again)
        mandatory, decided = self.mandatory(facts, below, depth)
        if not decided:
            return UNDECIDED, said.undecided_loop(again, self.passes.max_passes)
        if mandatory:
            return MANDATORY, said.mandatory_loop(again)
        return OPTIONAL, said.optional_loop(again)

    def summary(
        self, met: Sequence[Met], avoiding: int, stopped: str | None, named: Sequence[Outcome] = ()
    ) -> EndlessLoop:
        """The error for every loop ``met`` following a chain's passes from its first: the first that
        is not mandatory (it makes the outcomes unboundedly many, or undecided), else the first;
        which choice enters it, how many more do, and the ``avoiding`` outcomes — every one in which
        no pass repeats an earlier one (``stopped`` None: all were counted; else at least so many were
        when a cap — ``stopped`` names its flag — or the budget stopped the count), the first of them ``named``. "No
        outcome" is said only when none avoids a mandatory loop: every other outcome is one ``check``
        accepts."""
        loop = next((m for m in met if m.kind != MANDATORY), met[0])
        mandatory = loop.kind == MANDATORY
        others = len({m.prefix for m in met}) - 1
        why = said.endless_loop(loop.reason, loop.cause, mandatory, loop.entered, others, avoiding, stopped, named)
        assert why.rule is not None
        return EndlessLoop(why.text, mandatory=mandatory, rule=why.rule, avoiding=avoiding if stopped is None else None)

    def mandatory(
        self, facts: Facts, below: tuple[StackItem, ...], depth: int, flat: bool = False
    ) -> tuple[bool, bool]:
        """Whether no whole outcome follows ``facts`` (every choice keeps the passes going), and
        whether that was decided. ``facts`` lies on a cycle, so the loop is optional as soon as
        any pass reachable from it has a choice that ends the passes: the passes reachable from
        it are explored breadth-first by signature (each class once, its outcomes listed within
        the listing's ``max_listed``) until such a choice, or none is new (mandatory), or the pass cap. ``flat``:
        classes are :meth:`~triggerstack.model.Passes.stackless` (passes that differ only in the
        stack are one class). A class is told once per chain."""

        def key(f: Facts) -> str | None:
            return (self.passes.stackless(f) if flat else None) or self.passes.signature(f)

        first = key(facts)
        verdict = None if first is None else self._verdicts.get((flat, first))
        if verdict is None:
            verdict = self._mandatory(facts, below, depth, flat, key)
            if first is not None:
                self._verdicts[flat, first] = verdict
        return verdict

    def _mandatory(
        self, facts: Facts, below: tuple[StackItem, ...], depth: int, flat: bool, key: Callable[[Facts], str | None]
    ) -> tuple[bool, bool]:
        known = self.counts
        seen = {key(facts)}
        frontier: deque[tuple[Facts, tuple[StackItem, ...], int]] = deque([(facts, below, depth)])
        decided = True
        while frontier:
            f, b, d = frontier.popleft()
            engine = self.engine(f)
            self.listing.add(engine.count(), "telling whether the loop of 603.3b can end")
            for outcome in engine:
                self.deadline.check("telling whether the loop of 603.3b can end")
                ahead = self.passes.peek(f, to_outcome(f, outcome), b)
                sig = ahead.signature  # the class that follows, known before it is compiled
                if ahead.ends or (sig is not None and known.get(sig, 0) > 0):
                    return False, True  # this choice (or one after it) ends the passes
                if not flat and sig is not None and sig in seen:
                    continue
                nxt = self.passes.reach(ahead, d, capped=False)
                assert nxt.facts is not None
                sig = key(nxt.facts)
                if sig in seen:
                    continue
                if d + 1 >= max(self.passes.max_passes, depth + 1):  # a new kind of pass past the cap
                    decided = False
                    continue
                seen.add(sig)
                frontier.append((nxt.facts, nxt.on_stack, d + 1))
        return True, decided


class Path:
    """The passes being followed depth-first, each a frame, with their signatures: entering a pass
    whose signature is on the path is a loop (:meth:`Loops.error` says which)."""

    def __init__(self, passes: Passes, engine: Callable[[Facts], PassEngine], loops: Loops) -> None:
        self.passes = passes
        self.engine = engine
        self.loops = loops
        self.frames: list[Frame] = []
        self.on_path: dict[str, tuple[int, Facts]] = {}  # signature -> the depth and facts of that pass
        self.flat_on_path: dict[str, int] = {}  # Passes.stackless -> the depth of that pass

    def enter(self, facts: Facts, below: tuple[StackItem, ...], depth: int) -> Met | None:
        """Follow pass ``depth`` (``facts``) next, or, if it repeats one on the path, not: the loop
        met (:meth:`Loops.error` says which)."""
        passes = self.passes
        sig = passes.signature(facts)
        flat = passes.stackless(facts) if sig is not None else None
        if sig is not None:
            if sig in self.on_path:
                return self.loops.error(self.frames, self.on_path[sig], facts, below, depth)
            if flat is not None and flat in self.flat_on_path:
                then = self.flat_on_path[flat]
                if self.loops.replayable([f for f in self.frames if f.depth >= then], below):
                    earlier = self.on_path[self._at(then).sig or ""]
                    return self.loops.error(self.frames, earlier, facts, below, depth, grown=True)
            self.on_path[sig] = (depth, facts)
            if flat is not None:
                self.flat_on_path.setdefault(flat, depth)
        self.frames.append(Frame(facts, below, depth, iter(self.engine(facts)), sig, flat))
        return None

    def _at(self, depth: int) -> Frame:
        return self.frames[depth - self.frames[0].depth]

    def advance(self) -> tuple[Frame, IndexedOutcome | None]:
        """The top pass and its next outcome; once it has none, the pass leaves the path and comes
        back with None."""
        top = self.frames[-1]
        outcome = top.current = next(top.outcomes, None)
        top.taken += 1
        if outcome is None:
            self.frames.pop()
            if top.sig is not None:
                del self.on_path[top.sig]
            if top.flat is not None and self.flat_on_path.get(top.flat) == top.depth:
                del self.flat_on_path[top.flat]
        return top, outcome
