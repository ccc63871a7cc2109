"""``LegalOutcomes``: one object per scenario that answers every verb and keeps what it learned;
and the verbs as free functions, each a thin call on it.

The way python-chess keeps one lazy legal-move generator per board::

    from triggerstack.solver import LegalOutcomes
    legal = LegalOutcomes(scenario)
    legal.count()              # exact, across every pass of 603.3b
    legal[0], legal[-1]        # unrank (negative indices count from the end)
    legal.index(outcome)       # rank: the inverse of legal[i]
    outcome in legal           # check(...).legal
    for o in legal: ...        # lazily, in the engine's order
    legal.sample(5, seed=1)    # a generator of exactly uniform draws
    legal.best(score)
    legal.stepper()            # decision by decision, with fixed ids

What is learned — the compiled facts, each engine with its listed choice spaces and its solved
coupled core, each distinct next-pass scenario, the counts of what follows each pass, the
stepper — is kept in the scenario's :attr:`~triggerstack.model.Facts.memo`, keyed by the options
(the time limit aside), so it lives exactly as long as the scenario object. Two
``LegalOutcomes`` of one scenario share it, and so do the free functions (``count``,
``sample``, ``check``…), which are thin calls on this object: ``sample(s, 1)`` in a loop costs
what ``legal.sample(1)`` does.

Each call (each generator, from its first item on) builds one deadline from the options' time
limit as it starts — or, inside a request's bound that ends no later, takes that one — and runs
with it in force (:func:`~triggerstack.model._limits.bounded`): what is kept across calls holds
:data:`~triggerstack.model._limits.RUNNING`, which checks the deadline of whichever call runs it, so
two threads asking one scenario at once never share a deadline, and none is ever restarted.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar, Unpack, overload

from triggerstack.model._answer import Spending
from triggerstack.model._args import instance_of, position, seed_of, whole_number
from triggerstack.model._errors import ScenarioError
from triggerstack.model._facts import Facts
from triggerstack.model._limits import RUNNING, Deadline, bounded, deadline_for, lazily, raised_by
from triggerstack.model._numbers import int_said
from triggerstack.model._outcome import Entry, Outcome, Score, built_outcome, outcome_dict, outcome_of, proposal_of
from triggerstack.model._passes import Passes
from triggerstack.model._scenario import Scenario
from triggerstack.model._text import compact

from .._core.chain import Chain
from .._core.engine import PassEngine
from .._engines.select import Task, chain_for, engine_for
from .._options import OptionChanges, Options, prepare

if TYPE_CHECKING:
    from .._judge import Verdict
    from .best import Best
    from .count import Counted
    from .explain import Explanation
    from .step import Decision, Stepper


T = TypeVar("T")


@dataclass(slots=True)
class _Part:
    """One first entry of :meth:`LegalOutcomes.divide`: the entry as written, and its count."""

    written: dict[str, Any] | None
    n: int = 0


@dataclass
class _Learned:
    """What one scenario under one set of options has learned so far."""

    facts: Facts
    options: Options  # without a time limit: the calls bring theirs
    chains: dict[tuple[Task, bool], Chain] = field(default_factory=dict)
    passes: Passes | None = None
    stepper: Stepper | None = None
    best_engine: PassEngine | None = None
    rng: random.Random | None = None

    def chain(self, task: Task = Task.ENUMERATE, limit: int | None = None) -> Chain:
        bounded = limit is not None and limit <= self.options.limits.outcomes
        key = (task, bounded)
        chain = self.chains.get(key)
        if chain is None:
            chain = self.chains[key] = chain_for(self.facts, self.options, task, limit, RUNNING)
        return chain

    def first_best(self) -> PassEngine:
        """The engine that answers ``best`` for the first pass alone."""
        if self.best_engine is None:
            self.best_engine = engine_for(self.facts, self.options, Task.BEST, deadline=RUNNING)
        return self.best_engine

    def judging_passes(self) -> Passes:
        """The passes ``check`` steps through (each next-pass scenario compiled once)."""
        if self.passes is None:
            self.passes = Passes.within(self.facts, self.options.next_pass, self.options.limits)
        return self.passes


def _seed(seed: int | random.Random | None) -> int | random.Random | None:
    """A draw's seed checked as it is given (``model/_args.py``): a generator, None, or a whole number
    0 or more — ``-k`` drew what ``k`` draws, ``1.5`` and text were hashed."""
    return seed if seed is None or isinstance(seed, random.Random) else seed_of(seed)


def _limit(limit: int | None) -> int | None:
    """How many outcomes a listing may give: a whole number 0 or more (``model/_args.py``); one past
    ``sys.maxsize`` lists as many as ``sys.maxsize`` would — no listing reaches 2^63 — where
    ``islice`` refused it as a bug (``enumerate --limit 99999999999999999999`` exited 70)."""
    return None if limit is None else min(whole_number(limit, "limit"), sys.maxsize)


def _learned(facts: Facts, options: Options) -> _Learned:
    last = facts.memo.get("legal:last")  # the same options object as last time: no key to build
    if last is not None and last[0] is options:
        return last[1]  # type: ignore[no-any-return]
    key = ("legal", replace(options, time_limit=None))
    learned = facts.memo.get(key)
    if learned is None:
        learned = facts.memo[key] = _Learned(facts, key[1])
    assert isinstance(learned, _Learned)
    facts.memo["legal:last"] = (options, learned)
    return learned


class LegalOutcomes:
    """The legal outcomes of a scenario under some options (see the module docstring).

    ``LegalOutcomes(scenario, options, **changes)`` takes what every verb takes. Raises
    :class:`~triggerstack.model.ScenarioError` when the scenario is over a size cap."""

    def __init__(
        self, scenario: Scenario | Facts, options: Options | None = None, **changes: Unpack[OptionChanges]
    ) -> None:
        facts, opts = prepare(scenario, options, changes)
        self.facts = facts
        self.options = opts
        self._learned = _learned(facts, opts)

    def __repr__(self) -> str:
        return f"<LegalOutcomes of {len(self.facts.abilities)} waiting abilities, engine {self.options.engine}>"

    def _call(self) -> AbstractContextManager[Deadline]:
        """This call's own deadline, built as it starts and in force while it runs (see the
        module docstring): ``with self._call() as deadline:``."""
        return bounded(deadline_for(self.options.time_limit))

    def _lazy(self, make: Callable[[], Iterator[T]], ahead: int = 256) -> Iterator[T]:
        """A lazy call: its deadline built at its first item, and in force while each is computed
        (up to ``ahead`` computed before they are asked for: see :func:`~triggerstack.model._limits.lazily`)."""
        return lazily(self.options.time_limit, make, ahead)

    # -- counting --------------------------------------------------------------------------------

    def count(self) -> int:
        """How many legal outcomes there are (every pass of 603.3b; one when nothing waits)."""
        with self._call():
            return self._learned.chain().count()

    def counted(self) -> Counted:
        """:meth:`count` with the engine and the path that answered (``count``'s answer)."""
        from .count import Counted

        with self._call():
            chain = self._learned.chain()
            return Counted(count=chain.count(), engine=chain.first.name, path=chain.path)

    def __len__(self) -> int:
        """:meth:`count` (``OverflowError`` past ``sys.maxsize``: use :meth:`count`)."""
        return self.count()

    def __bool__(self) -> bool:
        return True  # every scenario has at least one outcome

    def divide(self) -> list[tuple[dict[str, Any] | None, int]]:
        """The count under each first stack entry — the bottom one, with its modes, targets and
        divisions — as perft's divide gives the count under each first move: ``(entry, count)``
        by the entry's canonical JSON, ``None`` (nothing put on the stack) first. The counts sum
        to :meth:`count`. The outcomes are tallied one by one, so at most ``limits.outcomes``."""
        with self._call():  # one call: the count and the tally share its deadline
            total = self.count()
            cap = self.options.limits.outcomes
            if total > cap:
                raise ScenarioError(
                    f"divide tallies the outcomes one by one: {int_said(total)} is more than the limit of {cap}"
                    + raised_by("outcomes")
                )
            parts: dict[Entry | None, _Part] = {}  # each first entry by value: what it writes, its count
            spending = Spending(self.options.limits.answer, RUNNING, "dividing the count")
            # Tallied by the entry object first: an engine's outcomes share one entry object per
            # placed choice, so an entry is hashed by its value (the frozensets of its targets)
            # once per object, not once per outcome (that was a quarter of the work).
            seen: dict[int, tuple[Entry | None, _Part]] = {}  # the entry kept: its id names no other
            for outcome in self.outcomes():
                first = outcome.stack[0] if outcome.stack else None
                hit = seen.get(id(first))
                if hit is None:
                    part = parts.get(first)
                    if part is None:  # a new part of the answer: written and counted as it comes
                        alone = None if first is None else built_outcome((first,), ())
                        part = parts[first] = _Part(None if alone is None else outcome_dict(alone)["stack"][0])
                        spending.spend(compact(part.written))
                    hit = seen[id(first)] = (first, part)
                hit[1].n += 1
        shown = [(p.written, p.n) for p in parts.values()]
        shown.sort(key=lambda item: "" if item[0] is None else json.dumps(item[0], sort_keys=True))
        return shown

    # -- ranks -----------------------------------------------------------------------------------

    @overload
    def __getitem__(self, index: int) -> Outcome: ...

    @overload
    def __getitem__(self, index: slice) -> list[Outcome]: ...

    def __getitem__(self, index: int | slice) -> Outcome | list[Outcome]:
        """The outcome at ``index`` of the engine's order (negative: from the end), or the list of
        those a slice takes (``legal[0:3]``, ``legal[::-1]``), read as a list reads an index
        (model/_args.py ``position``, as every sequence of the Python API): ``legal[2.9]`` and
        ``legal[True]`` are a ``TypeError``, an index past either end an ``IndexError`` naming it."""
        with self._call():
            chain = self._learned.chain()
            at = position(index, chain.ranks(), "outcome")
            if isinstance(at, range):
                return [chain.outcome(chain.unrank(i)) for i in at]
            return chain.outcome(chain.unrank(at))

    def index(self, outcome: Outcome) -> int:
        """The position of ``outcome`` in the engine's order: ``legal[legal.index(o)] == o``
        for every legal ``o`` (``ValueError`` if it is not a legal outcome)."""
        outcome = outcome_of(outcome, "outcome")
        with self._call():
            return self._learned.chain().rank(outcome)

    def __contains__(self, outcome: object) -> bool:
        """Whether ``outcome`` is legal (``check`` decides; any form of it, canonical or not)."""
        return isinstance(outcome, Outcome) and self.check(outcome).legal

    # -- enumeration -----------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Outcome]:
        return self.outcomes()

    def outcomes(self, limit: int | None = None) -> Iterator[Outcome]:
        """Every legal outcome once, canonical, in the engine's order; at most ``limit`` (a solver
        engine then stops after the first ``limit`` it finds, sorted)."""
        limit = _limit(limit)
        return self._lazy(lambda: self._learned.chain(limit=limit).outcomes(limit))

    def lines(self, limit: int | None = None) -> Iterator[str]:
        """:meth:`outcomes` as canonical JSON lines (byte-identical to ``outcome_json``)."""
        limit = _limit(limit)
        return self._lazy(lambda: self._learned.chain(limit=limit).lines(limit))

    def sample(self, n: int | None = 1, seed: int | random.Random | None = None) -> Iterator[Outcome]:
        """``n`` outcomes drawn independently and exactly uniformly (with replacement), lazily;
        ``n=None`` draws for as long as asked. ``seed`` (an integer or a ``random.Random``) makes
        them repeatable."""
        n, seed = None if n is None else whole_number(n, "n"), _seed(seed)
        what = "drawing outcomes" if n is None else f"drawing {n} outcomes"
        # a draw is never taken before it is asked for: the seed's stream is the caller's
        return self._lazy(lambda: self._draws(self._learned.chain().draws(self._rng(seed)), n, what), ahead=1)

    @staticmethod
    def _draws(draws: Iterator[T], n: int | None, what: str) -> Iterator[T]:
        """``n`` of ``draws`` (None: endless), the call's deadline checked before each."""
        drawn = 0
        while n is None or drawn < n:
            RUNNING.check(what)
            yield next(draws)
            drawn += 1

    def _rng(self, seed: int | random.Random | None) -> random.Random:
        """The generator of a draw: ``seed``'s, or without one the scenario's own stream (seeded
        once from the system, so unseeded calls in a loop do not reseed each time)."""
        if isinstance(seed, random.Random):
            return seed
        if seed is not None:
            return random.Random(seed)
        learned = self._learned
        if learned.rng is None:
            learned.rng = random.Random()
        return learned.rng

    def sample_lines(self, n: int | None = 1, seed: int | random.Random | None = None) -> Iterator[str]:
        """:meth:`sample` as canonical JSON lines (the same draws for the same seed), fast."""
        n, seed = None if n is None else whole_number(n, "n"), _seed(seed)
        what = f"drawing {n if n is not None else 'endless'} outcomes"
        return self._lazy(lambda: self._draws(self._learned.chain().draw_lines(self._rng(seed)), n, what), ahead=1)

    # -- the other verbs -------------------------------------------------------------------------

    def best(self, score: Score) -> Best:
        """The legal outcome with the highest ``score`` (docs/cli.md)."""
        from .best import Best, check_score

        score = instance_of(score, "score", Score, 'a Score (Score.model_validate(document) or Score.load(path))')
        with self._call():
            check_score(self.facts, score, Passes.within(self.facts, self.options.next_pass, self.options.limits))
            chain = self._learned.chain(Task.BEST)
            first_best = None if chain.single else self._learned.first_best()
            outcome, value, proven = chain.best(score, first_best)
            return Best(outcome=outcome, score=value, proven=proven)

    def check(self, proposal: Outcome) -> Verdict:
        """Every violation of ``proposal`` (see :func:`check`)."""
        from .._judge import judge

        proposal = proposal_of(proposal, self.options.limits)  # held to a proposal's caps, as every door's
        with self._call() as deadline:
            return judge(self._learned.judging_passes(), proposal, deadline, self.options.limits.answer)

    def explain(self) -> Explanation:
        """The facts behind every decision (see :func:`explain`)."""
        from .._options import Engine
        from .explain import explain_chain

        with self._call() as deadline:
            product = replace(self.options, engine=Engine.PRODUCT, merge_identical=False)  # explain reads its parts
            spending = Spending(self.options.limits.answer, deadline, "explaining the scenario")
            return explain_chain(self.facts, _learned(self.facts, product).chain(), spending)

    def reachable(self, decisions: Sequence[Decision | int | str], cap: int) -> tuple[int, bool]:
        """How many distinct outcomes the walk after ``decisions`` can still end in: (the number,
        exact?) — exactly, by counting (:meth:`Stepper.count`), within one pass; across passes of
        603.3b by walking up to ``cap`` of them."""
        stepper = self.stepper()
        with self._call() as deadline:  # the stepper's calls inside take this one
            walk = stepper.walk(decisions)
            exact = stepper.count(walk)
            if exact is not None:
                return exact, True
            return stepper.reachable(walk, cap, deadline)

    def stepper(self) -> Stepper:
        """The decision space, decision by decision with fixed ids (one per scenario, shared)."""
        from .step import Stepper

        learned = self._learned
        if learned.stepper is None:
            learned.stepper = Stepper(self.facts, self.options)
        return learned.stepper


# -- the verbs as free functions: each a thin call on the scenario's LegalOutcomes -----------------


def count(scenario: Scenario | Facts, options: Options | None = None, **changes: Unpack[OptionChanges]) -> int:
    """How many legal outcomes ``scenario`` has (docs/rules.md, "An outcome": distinct final stacks and removed
    sets). A scenario with no waiting ability has one.

    ``merge_identical`` counts outcomes that differ only by swapping identical abilities once
    (the product engine only). With ``reactions`` in the scenario, or a ``next_pass`` function,
    the count covers every further pass of 603.3b."""
    return LegalOutcomes(scenario, options, **changes).count()


def outcomes(
    scenario: Scenario | Facts,
    options: Options | None = None,
    *,
    limit: int | None = None,
    **changes: Unpack[OptionChanges],
) -> Iterator[Outcome]:
    """Each legal outcome of ``scenario`` once, in canonical form (docs/formats.md, Proposal and outcome); at most
    ``limit``.

    The product engine (``auto``) yields lazily in its rank order; the solver engines find every
    outcome first and yield them sorted — or, with ``limit``, stop after the first ``limit`` they
    find and yield those sorted. Across passes, each first-pass outcome is followed by
    the outcomes of what it fired. ``merge_identical`` yields one outcome per class of outcomes
    that only swap identical abilities (the product engine only)."""
    return LegalOutcomes(scenario, options, **changes).outcomes(limit)


def outcome_lines(
    scenario: Scenario | Facts,
    options: Options | None = None,
    *,
    limit: int | None = None,
    **changes: Unpack[OptionChanges],
) -> Iterator[str]:
    """:func:`outcomes` as canonical JSON lines (byte-identical to ``outcome_json``), made fast
    enough to stream millions: fragments are reused across outcomes."""
    return LegalOutcomes(scenario, options, **changes).lines(limit)


def sample(
    scenario: Scenario | Facts,
    n: int = 1,
    seed: int | None = None,
    options: Options | None = None,
    **changes: Unpack[OptionChanges],
) -> list[Outcome]:
    """``n`` legal outcomes of ``scenario``, drawn independently and uniformly (with replacement);
    ``seed`` makes them repeatable. :meth:`LegalOutcomes.sample` is the same draws as a
    generator (constant memory for any ``n``).

    With one pass, each draw is a rank in ``[0, count)`` unranked: the product engine without any
    enumeration, the solver engines from their sorted list. Across passes, first-pass outcomes
    are drawn with the weight of what follows them, then what follows uniformly."""
    return list(LegalOutcomes(scenario, options, **changes).sample(n, seed))


def best(
    scenario: Scenario | Facts, score: Score, options: Options | None = None, **changes: Unpack[OptionChanges]
) -> Best:
    """The legal outcome with the highest ``score`` (docs/cli.md); ties go to the first in the
    engine's order for the enumerating engines, and to CP-SAT's choice for CP-SAT."""
    return LegalOutcomes(scenario, options, **changes).best(score)


def check(
    scenario: Scenario | Facts, outcome: Outcome, options: Options | None = None, **changes: Unpack[OptionChanges]
) -> Verdict:
    """Every violation of ``outcome`` against ``scenario`` (docs/rules.md, "An outcome"; docs/formats.md, Violation
    codes); legal when there is none.

    A proposal of the right shape is always judged: an ability, mode, requirement or target the
    scenario lacks is a violation (``unknown-ability``, ``mode-unknown``, ``target-unknown``).
    With ``reactions`` (or an engine's ``next_pass`` function, see :class:`~.._options.Options`),
    the passes of 603.3b are judged in turn: pass 1 holds the scenario's waiting abilities and each
    later pass exactly what the earlier one fired, bottom pass first. ``passes`` may be omitted
    (it is inferred); when given it must agree. Raises
    :class:`~triggerstack.model.ProposalError` only for ``passes`` that do not add up to the stack.
    Each next-pass scenario is compiled once per scenario object."""
    return LegalOutcomes(scenario, options, **changes).check(outcome)


def explain(
    scenario: Scenario | Facts, options: Options | None = None, **changes: Unpack[OptionChanges]
) -> Explanation:
    """The facts behind every decision about ``scenario``: the typed explain format
    (:class:`~.explain.Explanation`; its JSON Schema: ``triggerstack schema explain``), which reads as
    the mapping of its JSON too (``explained["count"]``; see :mod:`~.explain`)."""
    return LegalOutcomes(scenario, options, **changes).explain()


def step(
    scenario: Scenario | Facts | Stepper,
    decisions: Sequence[Decision | int | str] = (),
    options: Options | None = None,
    **changes: Unpack[OptionChanges],
) -> list[Decision]:
    """The legal next decisions after ``decisions`` (ids, readable strings or ``Decision`` s),
    sorted by id (see :mod:`~.step`). The stepper is built once per scenario object and kept
    (:meth:`LegalOutcomes.stepper`)."""
    from .step import Stepper

    stepper = scenario if isinstance(scenario, Stepper) else LegalOutcomes(scenario, options, **changes).stepper()
    return stepper.legal(stepper.walk(decisions))
