"""Random boards, each a valid scenario: :func:`boards` (``rl.boards``) and :func:`draw`, which
also gives each board's event, cards and count (``triggerstack boards``, benchmarks/boards.py).

A board is drawn from the card pool (``model/cards/_pool.py``; the extra ``[cards]``) or, without
it, from the generated stand-ins (``_generated.py``), assembled around one event
(``_assemble.py``), validated as a :class:`~triggerstack.model.Scenario` — which reads every card it
names — and counted: a board with more than ``max_outcomes`` legal outcomes is drawn again, so
that an agent can play it out and a table of its outcomes stays small. The same arguments and
seed give the same boards (with the same Oracle data and reader), one after the other: board ``i``
of seed ``s`` is drawn from a generator of its own, seeded by ``s`` and ``i`` alone
(:func:`_board_rng`), so ``workers=N`` processes drawing ahead give the same stream for any N.
"""

from __future__ import annotations

import multiprocessing
import random
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from itertools import count as counting
from typing import Any

from triggerstack.model._args import seed_of, whole_number
from triggerstack.model._errors import MissingExtra, ScenarioError, TimeLimitReached, UsageError
from triggerstack.model._facts import facts_of
from triggerstack.model._scenario import Scenario
from triggerstack.model.cards._pool import EVENTS, Pool

from .._options import Options
from .._verbs.legal import LegalOutcomes
from .._verbs.step import ActionLayout, Stepper
from ._assemble import Drawn, assemble

MAX_OUTCOMES = 10**6
"""The most legal outcomes a board may have by default (one with more is drawn again)."""
MOST_ABILITIES = 50
"""The most waiting abilities a board may be asked for: a draw adds permanents until that many
wait, and every permanent added is weighed against every other (past 50, no board has anywhere
near a million outcomes; at 50, 200 draws that miss take about 5 s)."""
MOST_BODIES = 20
"""The most creatures without triggered abilities a side may be asked for."""
DRAWS = 200
"""Draws that may miss in a row (too few or too many abilities, too many outcomes) before the
sizes asked are refused as out of reach."""
PLAYERS = ("A", "B", "C", "D")
COUNT_TIME = 10.0
"""Seconds one board's count may take; a board past it is drawn again (none has come near)."""


@dataclass(frozen=True)
class Board:
    """One board: the scenario, the document it was read from (naming its cards), its event
    (``enters``, ``dies``, ``attacks`` or ``cast``), the cards it names, its count, whether it was
    drawn from real cards (``source``: ``cards``) or the generated families (``generated``), and
    the draws it took: ``missed`` drawn again for their number of abilities, ``over`` for their
    outcomes (or a layout they did not fit)."""

    scenario: Scenario
    document: dict[str, Any]
    event: str
    cards: tuple[str, ...]
    count: int
    source: str
    missed: int = 0
    over: int = 0


def span(
    value: int | tuple[int, int] | Iterable[int], name: str, least: int, most: int | None = None
) -> tuple[int, int]:
    """``value`` (a number, or a pair low, high) as a pair within ``least`` … ``most``; bad input
    naming ``name`` otherwise."""
    if hasattr(value, "__iter__") and not isinstance(value, str | bytes):
        pair = tuple(value)
        if len(pair) != 2:
            raise UsageError(f"{name}: expected a whole number or a pair (low, high), not {value!r}")
        lo, hi = (whole_number(v, name, least, most) for v in pair)
    else:  # one number (model/_args.py: 2.0, nan and text are refused; a NumPy integer is its number)
        lo = hi = whole_number(value, name, least, most)
    if lo > hi:
        raise UsageError(f"{name}: the low end {lo} is above the high end {hi}")
    return lo, hi


def _events(events: str | Iterable[str] | None) -> tuple[str, ...]:
    if events is None:
        return EVENTS
    if not isinstance(events, str | tuple | list | set | frozenset) or not all(isinstance(e, str) for e in events):
        raise UsageError(f"events: expected some of {', '.join(EVENTS)} (a name or a list of names), not {events!r}")
    asked = (events,) if isinstance(events, str) else tuple(events)
    unknown = [e for e in asked if e not in EVENTS]
    if unknown or not asked:
        raise UsageError(f"events: expected some of {', '.join(EVENTS)}, not {', '.join(unknown) or 'none'}")
    return tuple(e for e in EVENTS if e in asked)  # in one order, whatever order they were asked in


def _pool(cards: bool | None) -> Pool:
    """The card pool (``cards`` True or None with the extra installed), else the generated stand-ins."""
    from ._generated import generated

    if cards is False:
        return generated()
    from triggerstack.model.cards._pool import pool

    try:
        return pool()
    except MissingExtra:
        if cards:
            raise
        return generated()


def draw(
    seed: int,
    n: int | None = None,
    *,
    players: int | tuple[int, int] = 2,
    abilities: int | tuple[int, int] = (2, 8),
    events: str | Iterable[str] | None = None,
    bodies: int | tuple[int, int] = (0, 3),
    cards: bool | None = None,
    max_outcomes: int = MAX_OUTCOMES,
    layout: ActionLayout | None = None,
    workers: int = 0,
) -> Iterator[Board]:
    """``n`` boards (endless when ``None``), the same for the same arguments: see :func:`boards`."""
    seats, sizes = span(players, "players", 2, 4), span(abilities, "abilities", 1, MOST_ABILITIES)
    spare = span(bodies, "bodies", 0, MOST_BODIES)
    kinds = _events(events)
    seed = seed_of(seed)  # Random(-1) is Random(1); "x" and 1.5 would be hashed
    if cards is not None and not isinstance(cards, bool):
        raise UsageError(f"cards: expected True, False or None, not {cards!r}")
    if layout is not None and not isinstance(layout, ActionLayout):
        raise UsageError(f"layout: expected an ActionLayout (or None), not {type(layout).__name__}")
    n = None if n is None else whole_number(n, "n")
    max_outcomes = whole_number(max_outcomes, "max_outcomes", 1)
    workers = whole_number(workers, "workers", 0, 64)
    source = _pool(cards)
    empty = [k for k in kinds if not source.by_kind.get(k)]
    if empty:
        raise UsageError(f"events: no card of the pool answers to {', '.join(empty)}")
    asked = _Asked(seats, sizes, kinds, spare, max_outcomes, layout, cards)
    indices = range(n) if n is not None else counting()
    if workers:
        yield from _ahead(seed, indices, asked, workers)
        return
    for index in indices:
        yield _one(_board_rng(seed, index), source, *asked.drawing())


@dataclass(frozen=True)
class _Asked:
    """What a board is drawn to (picklable: a worker process draws from it)."""

    seats: tuple[int, int]
    sizes: tuple[int, int]
    kinds: tuple[str, ...]
    spare: tuple[int, int]
    max_outcomes: int
    layout: ActionLayout | None
    cards: bool | None

    def drawing(self) -> tuple[Any, ...]:
        return self.seats, self.sizes, self.kinds, self.spare, self.max_outcomes, self.layout


def _board_rng(seed: int, index: int) -> random.Random:
    """The generator of board ``index`` of the stream ``seed``: seeded by the two alone (a string
    seed is hashed by SHA-512, the same in every process), so a board does not depend on the boards
    drawn before it, nor on which process drew it."""
    return random.Random(f"triggerstack boards {seed} {index}")


def _drawn_at(seed: int, index: int, asked: _Asked) -> Board:
    """Board ``index`` of the stream ``seed``, in a worker process (its card pool read once there)."""
    return _one(_board_rng(seed, index), _pool(asked.cards), *asked.drawing())


def _ahead(seed: int, indices: Iterable[int], asked: _Asked, workers: int) -> Iterator[Board]:
    """The boards of ``indices`` drawn by ``workers`` processes a few boards ahead, in order. Spawned,
    not forked: the caller may hold threads (a trainer's, a server's) that a fork would copy
    half-way. Closing the iterator stops the workers."""
    ahead: deque[Future[Board]] = deque()
    pending = iter(indices)
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            while True:
                while len(ahead) < 4 * workers:
                    index = next(pending, None)
                    if index is None:
                        break
                    ahead.append(pool.submit(_drawn_at, seed, index, asked))
                if not ahead:
                    return
                yield ahead.popleft().result()
        finally:
            for f in ahead:
                f.cancel()


def _one(
    rng: random.Random,
    source: Pool,
    seats: tuple[int, int],
    sizes: tuple[int, int],
    kinds: tuple[str, ...],
    spare: tuple[int, int],
    max_outcomes: int,
    layout: ActionLayout | None,
) -> Board:
    """The next board of ``rng`` 's stream."""
    options = Options(time_limit=COUNT_TIME)
    missed = over = unfit = 0
    for _ in range(DRAWS):
        players = PLAYERS[: rng.randint(*seats)]
        drawn = assemble(rng, source, players, rng.choice(kinds), sizes, spare)
        if drawn is None:
            missed += 1
            continue
        board = _counted(drawn, options, max_outcomes)
        if board is not None and (layout is None or layout.fits(Stepper(facts_of(board.scenario)).needs)):
            return replace(board, missed=missed, over=over)
        over += 1
        unfit += board is not None
    fix = "widen abilities (--abilities) or max_outcomes (--max-outcomes)"
    if unfit:  # the layout refused boards that were drawn and counted: it is the first thing to widen
        fix = f"{unfit} of them did not fit the layout: give a larger layout, or {fix}"
    raise UsageError(
        f"no board with {sizes[0]} to {sizes[1]} abilities, {seats[0]} to {seats[1]} players and at most "
        f"{max_outcomes:,} outcomes in {DRAWS} draws: {fix}"
    )


def _counted(drawn: Drawn, options: Options, max_outcomes: int) -> Board | None:
    """The drawn board validated and counted; ``None`` when it has too many outcomes to keep."""
    scenario = Scenario.model_validate(drawn.document)  # reads each card it names: a bug if it cannot
    try:
        count = LegalOutcomes(scenario, options).count()
    except (ScenarioError, TimeLimitReached):  # a loop, or a limit of counting reached: too big to keep
        return None
    if count > max_outcomes:
        return None
    return Board(scenario, drawn.document, drawn.event, tuple(drawn.cards), count, drawn.source)


def boards(
    seed: int,
    n: int | None = None,
    *,
    players: int | tuple[int, int] = 2,
    abilities: int | tuple[int, int] = (2, 8),
    events: str | Iterable[str] | None = None,
    bodies: int | tuple[int, int] = (0, 3),
    cards: bool | None = None,
    max_outcomes: int = MAX_OUTCOMES,
    layout: ActionLayout | None = None,
    workers: int = 0,
) -> Iterator[Scenario]:
    """Random boards of real cards, each a valid :class:`~triggerstack.model.Scenario` whose
    objects name their cards: ``players`` seats (a number or a range, 2 to 4), each with
    ``bodies`` creatures without triggered abilities (targets, with their hexproof, shroud,
    protection or ward) and the permanents whose abilities the event triggers; one event of
    ``events`` (``enters``, ``dies`` — a board wipe —, ``attacks``, ``cast``; all by default);
    between ``abilities`` waiting abilities (a number or a range); at most ``max_outcomes`` legal
    outcomes; fitting ``layout`` when one is given (so an environment with that layout takes every
    one). ``n`` boards, or endlessly; the same ``seed`` and arguments give the same boards.
    ``cards``: ``None`` reads real cards when the extra ``[cards]`` is installed and falls back to
    the generated families otherwise; ``True`` requires it; ``False`` uses the generated families.
    ``workers``: draw in that many worker processes, a few boards ahead (0: in this one); the boards
    are the same for any number of workers."""
    for board in draw(
        seed,
        n,
        players=players,
        abilities=abilities,
        events=events,
        bodies=bodies,
        cards=cards,
        max_outcomes=max_outcomes,
        layout=layout,
        workers=workers,
    ):
        yield board.scenario
