"""What the environment would first build of a board drawn ahead, built by the worker process
that draws it (``Boards.prepare``; issue 53: a new board's cost to the process playing it).

Each seat's observation rows of the board's first pass — its players' and objects' rows, its
waiting abilities' rows, the header's board-wide entries: what :meth:`Tracker._base` builds the
first time each seat observes, a third of what a new board cost the environment beyond reading it
back — are made by :func:`first_rows` where the board is drawn, with the same code, and travel
with it as one byte string (one object to read back, not the dozens of small ones that build
them). :func:`take` gives them to the board's first tracker, for the layout they were made in.
A board that comes without them (drawn in this process, another layout, a later pass) has its
rows built as before; ``tests/test_rl_prepared.py`` holds the two equal.
"""

from __future__ import annotations

import numpy as np
from triggerstack.model._facts import Facts

from .._boards._board import PREPARED
from .._boards._draw import Boards
from .._verbs.step import ActionLayout, Stepper
from ._observation import Observer
from ._tracker import Tracker

_observers: dict[ActionLayout, Observer] = {}
"""One observer per layout, in the process that draws (its rows are a function of the layout)."""


def first_rows(facts: Facts, stepper: Stepper) -> tuple[ActionLayout, bytes] | None:
    """Each seat's base rows of the first pass of ``facts`` (``stepper``: its stepper in a layout),
    seat after seat, as ``int16`` bytes; None without a layout."""
    layout = stepper.layout
    if layout is None:
        return None
    observer = _observers.get(layout)
    if observer is None:
        observer = _observers[layout] = Observer(layout)
    tracker = Tracker(observer, stepper, stepper.start())
    return layout, b"".join(tracker._base(seat).tobytes() for seat in range(len(facts.scenario.players)))


def ask(source: object, layout: ActionLayout) -> None:
    """Ask ``source`` for each board's rows if it is a stream (``rl.boards``) drawn in ``layout``,
    the environment's (a stream of another layout is left alone: rows made there would not fit)."""
    if isinstance(source, Boards) and source.asked.layout == layout:
        source.prepare(first_rows)


def take(tracker: Tracker, facts: Facts) -> None:
    """Give ``tracker`` (a new board's, at its start) the rows :func:`first_rows` made of
    ``facts`` where it was drawn, if they came with it and are of its layout (once: taken)."""
    found = facts.memo.pop((PREPARED, first_rows), None)
    if found is None or found[0] != tracker.observer.layout or tracker.passes != [facts]:
        return
    size = tracker.observer.size
    rows = np.frombuffer(found[1], dtype=np.int16)  # read-only: a base is only ever read
    for seat in range(len(rows) // size):
        tracker.shared[(seat, id(facts))] = ([facts], rows[seat * size : (seat + 1) * size])
