"""The walks an environment has played on a board, kept as a tree: where each decision taken
from each point led, what is offered there and who decides, and each seat's observation there.

A warm board is played again and again from the same start (every episode on a fixed source's
board starts where the first did), and each point's successor under a decision, its legal
decisions and its observations are functions of the walk alone (the stepper's and the tracker's
answers to it). So a decision taken from a point already reached is a look-up: the stepper's walk,
the pass's offer and the tracker's observation are computed once per point of a board, not once
per decision. The tree is bounded: past :data:`NODES` points kept by the environments sharing it,
every kept tree is dropped and grows again (docs/rl.md, "What a step costs").
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from numpy.typing import NDArray
from triggerstack.model._types import PlayerId

from .._verbs.step import Decision, Stepper, Walk
from ._tracker import Tracker

NODES = 50_000
"""Points kept by the environments sharing one tree store (an environment and its twins) before
every tree is dropped: a point's observations are about 1 KB a seat asked for (the training
example's layout), so at most some 100 MB."""


class Node:
    """One point of a board's walks: the walk there (forced decisions taken, ``taken`` of them
    since the decision that led here), the decisions offered (a set, as ``Stepper.offered`` gives
    them: never changed), the agent who decides (None: not yet asked, or the walk is over), what
    each decision taken here led to, each seat's observation (never changed: the environment
    gives copies), and, once the walk is over, its outcome line and the rewards of a fixed score."""

    __slots__ = ("agent", "children", "line", "offered", "paid", "seen", "taken", "walk")

    def __init__(self, walk: Walk, offered: list[Decision], taken: int) -> None:
        self.walk = walk
        self.offered = offered
        self.taken = taken
        self.agent: str | None = None
        self.children: dict[int, Node] = {}
        self.seen: dict[PlayerId, NDArray[Any]] = {}
        self.line: str | None = None
        self.paid: dict[str, float] | None = None


class Trees:
    """How many points the trees of one environment and its twins keep (they share their boards'
    openings, whose roots these trees grow from)."""

    __slots__ = ("count", "limit")

    def __init__(self, limit: int | None = None) -> None:
        self.count = 0
        self.limit = NODES if limit is None else limit

    def grown(self, roots: Iterable[Node]) -> None:
        """One point more kept; past :attr:`limit` (:data:`NODES`), every tree of ``roots`` is dropped but its root."""
        self.count += 1
        if self.count > self.limit:
            for root in roots:
                root.children.clear()
            self.count = 0


def forced(stepper: Stepper, walk: Walk) -> tuple[Walk, int, list[Decision]]:
    """``stepper.forced(walk)``, and the decisions offered where it stops (which it drops, and the
    mask is made of: one call of ``offered`` less each step)."""
    taken = 0
    while len(offered := stepper.offered(walk)) == 1:
        walk = stepper.apply_unchecked(walk, offered[0])
        taken += 1
    return walk, taken, offered


def point(stepper: Stepper, walk: Walk, auto: bool) -> Node:
    """The point of ``walk`` (a decision just applied to it), once the forced decisions are taken
    (``auto``): a node of no tree yet."""
    if not auto:
        return Node(walk, stepper.offered(walk), 0)
    walk, taken, offered = forced(stepper, walk)
    return Node(walk, offered, taken)


class Opening(NamedTuple):
    """Where an episode on one board starts: the start of a walk; it with the forced decisions
    taken (``auto``; else the start itself) and how many; the decisions offered there; the
    observation's tracker at the start (None: made for the episode); and the root of the board's
    tree of walks played (kept with the opening, grown by every episode on it)."""

    start: Walk
    first: Walk
    taken: int
    offered: list[Decision]
    tracker: Tracker | None
    root: Node
