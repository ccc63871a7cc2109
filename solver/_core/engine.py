"""The one interface every engine gives for one pass of 603.3b: count, iterate, unrank and rank,
membership (validation) and best.

An engine's *order* is the order it iterates in: the product engine's rank order (documented in
``engines.product``), the solvers' sorted order. ``unrank(r)`` is the ``r``-th outcome of that
order and ``rank`` its inverse, so a uniform ``r`` in ``range(count())`` is a uniform outcome.
:class:`ListedEngine` gives the solvers all of this from one sorted list of their solutions.
:class:`~.chain.Chain` asks the same questions across every pass.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from triggerstack.model._facts import Facts
from triggerstack.model._limits import NO_DEADLINE, Deadline
from triggerstack.model._outcome import Score

from .indexed import IndexedOutcome, score_of


@dataclass(frozen=True, slots=True)
class Found:
    """The best outcome of a pass and its score; ``proven`` is False when a time limit stopped the
    search with this outcome found but its optimality not proven."""

    outcome: IndexedOutcome
    score: int
    proven: bool = True


class PassEngine(Protocol):
    """One pass of 603.3b, answered by one engine."""

    facts: Facts

    @property
    def name(self) -> str:
        """The engine (``product``, ``cpsat``, ``constraint``)."""
        ...

    @property
    def path(self) -> str:
        """How it answers (``product``, ``product+search``, ``cpsat``, ``constraint``)."""
        ...

    def count(self) -> int:
        """The exact number of distinct outcomes."""
        ...

    def __iter__(self) -> Iterator[IndexedOutcome]:
        """Every outcome once, in the engine's order."""
        ...

    def head(self, limit: int) -> Iterator[IndexedOutcome]:
        """At most ``limit`` outcomes, stopping as soon as it can: the first ``limit`` of the
        engine's order, or, for an engine that must find every outcome to sort them, the first
        ``limit`` it finds, sorted (deterministic, but not a prefix of the whole order)."""
        ...

    def unrank(self, rank: int) -> IndexedOutcome:
        """The outcome at ``rank`` of the engine's order (``IndexError`` outside ``range(count())``)."""
        ...

    def rank(self, outcome: IndexedOutcome) -> int:
        """The position of ``outcome`` in the engine's order (``ValueError`` if it is not an outcome)."""
        ...

    def __contains__(self, outcome: IndexedOutcome) -> bool:
        """Whether ``outcome`` is a legal outcome of the pass (validation)."""
        ...

    def best(self, score: Score) -> Found:
        """The outcome with the highest ``score`` (ties: the first in the engine's order)."""
        ...


class ListedEngine(ABC):
    """An engine that finds every outcome, sorts them, and answers from the sorted list."""

    name: str
    path: str

    def __init__(self, facts: Facts, deadline: Deadline = NO_DEADLINE) -> None:
        self.facts = facts
        self.deadline = deadline

    @property
    def time_limit(self) -> float | None:
        """The seconds a solver may still take (what is left of the call's deadline)."""
        return self.deadline.remaining()

    @abstractmethod
    def _solve(self, limit: int | None = None) -> Sequence[IndexedOutcome]:
        """Every distinct outcome (the first ``limit`` found, if given), sorted."""

    def _listed(self) -> Sequence[IndexedOutcome]:
        listed: Sequence[IndexedOutcome] | None = getattr(self, "_sorted", None)
        if listed is None:
            listed = self._solve()
            self._sorted = listed
        return listed

    def count(self) -> int:
        return len(self._listed())

    def __iter__(self) -> Iterator[IndexedOutcome]:
        return iter(self._listed())

    def head(self, limit: int) -> Iterator[IndexedOutcome]:
        listed: Sequence[IndexedOutcome] | None = getattr(self, "_sorted", None)
        return iter(listed[:limit] if listed is not None else self._solve(limit))

    def unrank(self, rank: int) -> IndexedOutcome:
        listed = self._listed()
        if not 0 <= rank < len(listed):
            raise IndexError(f"rank {rank} outside [0, {len(listed)})")
        return listed[rank]

    def rank(self, outcome: IndexedOutcome) -> int:
        listed = self._listed()
        i = bisect_left(listed, outcome)
        if i == len(listed) or listed[i] != outcome:
            raise ValueError("not an outcome of this pass")
        return i

    def __contains__(self, outcome: IndexedOutcome) -> bool:
        try:
            self.rank(outcome)
        except (ValueError, TypeError):
            return False
        return True

    def best(self, score: Score) -> Found:
        top = max(self._listed(), key=lambda o: score_of(self.facts, o, score))  # the first of the maxima
        return Found(top, score_of(self.facts, top, score))
