"""What the environment would first build of a board drawn ahead, built by the worker process
that draws it (``Boards.prepare``; issue 53: a new board's cost to the process playing it).

Each seat's observation rows of the board's first pass — its players' and objects' rows, its
waiting abilities' rows, the header's board-wide entries: what :meth:`Tracker._base` builds the
first time each seat observes, a third of what a new board cost the environment beyond reading it
back — are made by :func:`first_rows` where the board is drawn, with the same code, and travel
with it as one byte string (one object to read back, not the dozens of small ones that build
them). :func:`take` gives them to the board's first tracker, for the layout they were made in.

With them travel what a walk of the first pass asks of each waiting ability with nothing below
it: whether it has a legal choice (603.3c–d; ``PassStepper._has_choice``), and, for one with
choices to announce, its announcer (``_announce.py``: what may follow each prefix, as plain
integers) — both made from its choice space, which building and counting was the largest part of
a new board's first legal lists and of putting a targeted or modal ability (a fifth of what a new
board cost the process playing it). :func:`opened` gives them to the board's pass stepper before
its first legal list is asked for: that space is then built only where a walk asks what these do
not answer (an ability with another below it that it could target, a count, an explanation).
A board that comes without them (drawn in this process, another layout, a later pass) has its
rows built as before; ``tests/test_rl_prepared.py`` holds the two equal.
"""

from __future__ import annotations

import numpy as np
from triggerstack.model._facts import Facts

from .._boards._board import PREPARED
from .._boards._draw import Boards
from .._options import Options
from .._verbs.step import ActionLayout, Stepper
from .._verbs.step._announce import Flat, flat, unflat
from .._verbs.step._pass import is_bare
from ._observation import Observer
from ._tracker import Tracker

_DEFAULT = Options()
"""The options boards are drawn with (``Asked``): the answers sent hold for a stepper of these."""
_observers: dict[ActionLayout, Observer] = {}
"""One observer per layout, in the process that draws (its rows are a function of the layout)."""


Prepared = tuple[ActionLayout, bytes, tuple[bool | None, ...], tuple[tuple[int, Flat], ...]]
"""What :func:`first_rows` makes of a board: its layout, its rows, its abilities' answers and announcers."""
_BELOW: frozenset[int] = frozenset()
"""Nothing on the stack: what each answer of :func:`first_rows` is found with."""


def first_rows(facts: Facts, stepper: Stepper) -> Prepared | None:
    """Each seat's base rows of the first pass of ``facts`` (``stepper``: its stepper in a layout),
    seat after seat, as ``int16`` bytes; whether each waiting ability has a legal choice with
    nothing below it (None: one never put, asked nothing); and the announcer of each that has one
    (by ability index, flat); None without a layout."""
    layout = stepper.layout
    if layout is None:
        return None
    observer = _observers.get(layout)
    if observer is None:
        observer = _observers[layout] = Observer(layout)
    tracker = Tracker(observer, stepper, stepper.start())
    rows = b"".join(tracker._base(seat).tobytes() for seat in range(len(facts.scenario.players)))
    local = stepper.pass_stepper(facts)
    with stepper._call():  # the time limit of any question asked of the stepper
        has = tuple(None if a.forced_removal else local._has_choice(a, _BELOW) for a in facts.abilities)
        putting = [a for a in facts.abilities if has[a.index] and not is_bare(a)]  # a choice to announce
        said = [(a.index, local._announcer(a, (a.index, _BELOW))) for a in putting]
    return layout, rows, has, tuple((k, flat(found)) for k, found in said if found is not None)


def ask(source: object, layout: ActionLayout) -> None:
    """Ask ``source`` for each board's rows if it is a stream (``rl.boards``) drawn in ``layout``,
    the environment's (a stream of another layout is left alone: rows made there would not fit)."""
    if isinstance(source, Boards) and source.asked.layout == layout:
        source.prepare(first_rows)


def opened(stepper: Stepper, facts: Facts) -> None:
    """Give the first pass's stepper of ``facts`` (``stepper`` the board's, of the default options
    it was drawn with) the answers and announcers :func:`first_rows` made where the board was drawn,
    if they came with it (left for :func:`take`): a walk then asks no ability again what they answer."""
    found = facts.memo.get((PREPARED, first_rows))
    if found is None or stepper.facts is not facts or not (stepper.options is _DEFAULT or stepper.options == _DEFAULT):
        return
    local = stepper.pass_stepper(facts)
    for a, has in zip(facts.abilities, found[2], strict=True):
        if has is not None:
            local._has.setdefault((a.index, _BELOW), has)
    for k, values in found[3]:
        local._announcers.setdefault((k, _BELOW), unflat(values))


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
