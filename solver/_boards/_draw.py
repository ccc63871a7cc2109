"""Random boards, each a valid scenario: :func:`boards` (``rl.boards``, a :class:`Boards` stream)
and :func:`draw`, which also gives each board's event, cards and count (``triggerstack boards``,
benchmarks/boards.py).

A board is drawn from the card pool (``model/cards/_pool.py``; the extra ``[cards]``) or, without
it, from the generated stand-ins (``_generated.py``), assembled around one event
(``_assemble.py``), built as a :class:`~triggerstack.model.Scenario` and counted (``_board.py``): a
board with more than ``max_outcomes`` legal outcomes is drawn again, so that an agent can play it
out and a table of its outcomes stays small. The same arguments and seed give the same boards
(with the same Oracle data and reader), one after the other: board ``i`` of seed ``s`` is drawn
from a generator of its own, seeded by ``s`` and ``i`` alone (``_board.board_rng``), so
``workers=N`` processes drawing ahead give the same stream for any N, and an environment's
``reset(seed=k)`` restarts the stream at the first board of ``s`` and ``k`` (:meth:`Boards.restart`).
"""

from __future__ import annotations

import multiprocessing
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from triggerstack.model._args import how_many, seed_of, span_of, truth_of, whole_number
from triggerstack.model._errors import UsageError
from triggerstack.model._facts import Facts, compile_facts
from triggerstack.model._scenario import Scenario
from triggerstack.model._text import found, typed
from triggerstack.model.cards._pool import EVENTS, Pool

from .._verbs.step import ActionLayout, Stepper
from ._ahead import Ahead
from ._board import PLAYERS, PREPARED, Asked, Board, pool_of

MAX_OUTCOMES = 10**6
"""The most legal outcomes a board may have by default (one with more is drawn again)."""
MOST_ABILITIES = 50
"""The most waiting abilities a board may be asked for: a draw adds permanents until that many
wait, and every permanent added is weighed against every other (past 50, no board has anywhere
near a million outcomes; at 50, 200 draws that miss take about 5 s)."""
MOST_BODIES = 20
"""The most creatures without triggered abilities a side may be asked for."""
MOST_WORKERS = 64


def _events(events: str | Iterable[str] | None) -> tuple[str, ...]:
    if events is None:
        return EVENTS
    if not isinstance(events, str | tuple | list | set | frozenset) or not all(isinstance(e, str) for e in events):
        said = f"expected some of {', '.join(EVENTS)} (a name or a list of names), found {found(events)}"
        raise UsageError(f"events: {said}")
    asked = (events,) if isinstance(events, str) else tuple(events)
    unknown = [e for e in asked if e not in EVENTS]
    if unknown or not asked:
        said = ", ".join(typed(e, 40) for e in unknown[:4]) or "none"  # shown as typed: no terminal escape, no megabyte
        raise UsageError(f"events: expected some of {', '.join(EVENTS)}, found {said}")
    return tuple(e for e in EVENTS if e in asked)  # in one order, whatever order they were asked in


class Boards(Iterator[Scenario]):
    """The boards of :func:`boards`: an iterator of scenarios, and a scenario source an environment
    restarts — ``reset(seed=k)`` of an environment drawing from it begins again at the first board
    of the stream of its seed and ``k`` (:meth:`restart`), so a seeded reset plays the same boards
    however often it is made (Gymnasium's ``check_env``), and the environments of a vector, each
    seeded with its own ``k`` (``seed + rank``), play streams of their own. ``workers`` processes
    draw ahead (spawned when the first board is asked for; stopped by :meth:`close`, or when the
    stream is collected). It pickles as its arguments and place (a vector's factory sends it to its
    processes): its workers are started again where it arrives."""

    def __init__(self, seed: int, n: int | None, asked: Asked, workers: int) -> None:
        self.seed = seed
        self.n = n
        self.asked = asked
        self.workers = workers
        self.key = str(seed)
        """The stream: the seed, or the seed and the seed of the last :meth:`restart` (``"8/123"``)."""
        self.index = 0
        """The place of the next board."""
        self._source: Pool | None = None
        self._ahead: Ahead | None = None
        self._last: Board | None = None

    def __iter__(self) -> Boards:
        return self

    def __next__(self) -> Scenario:
        return self.board().scenario

    def board(self) -> Board:
        """The next board, with its event, cards and count."""
        if self.n is not None and self.index >= self.n:
            raise StopIteration
        ahead = self._drawing_ahead()
        if ahead is not None:
            board = ahead.board(self.key, self.index, self.n)
        else:
            if self._source is None:
                self._source = pool_of(self.asked.cards)
            here = self.asked if self.asked.prepare is None else replace(self.asked, prepare=None)
            board = here.board(self.key, self.index, self._source)  # drawn here: nothing to build ahead of its player
        self.index += 1
        self._last = board if board.compiled is not None else None
        return board

    def _drawing_ahead(self) -> Ahead | None:
        """The worker processes, started on first use; none in a daemonic process (a worker of
        Stable-Baselines3's ``SubprocVecEnv`` or Gymnasium's ``AsyncVectorEnv``, which may start
        none), where this one draws the same boards itself."""
        if not self.workers or multiprocessing.current_process().daemon:
            return None
        if self._ahead is None:
            self._ahead = Ahead(self.asked, self.workers)
            weakref.finalize(self, self._ahead.close)
        return self._ahead

    def players(self) -> tuple[str, ...]:
        """The ids of every player a board of the stream may seat (a reward's key names one of them)."""
        return PLAYERS[: self.asked.seats[1]]

    def restart(self, seed: int) -> None:
        """Begin again at the first board of the stream of this stream's seed and ``seed`` (board
        ``i`` of it drawn from a generator seeded by the two and ``i``): an environment's
        ``reset(seed=...)``."""
        self.key = f"{self.seed}/{seed_of(seed)}"
        self.index = 0
        self._last = None

    def compiled(self, scenario: object) -> Facts | None:
        """The facts of ``scenario`` if it is the board this stream gave last and compiled it in
        this process (to see that it fits; None otherwise), its stepper handed over with them for
        the environment that plays it (``Stepper.taken``): once."""
        last, self._last = self._last, None
        if last is None or last.scenario is not scenario:
            return None
        return self._taken(last)

    def next_facts(self) -> Facts:
        """The next board's facts as :meth:`compiled` gives them (compiled now if it came without),
        its scenario not read: a board read back from a worker reads it when first asked for
        (``model/_facts.py``). What an environment drawing from the stream asks for."""
        board = self.board()
        self._last = None
        found = self._taken(board)
        return found if found is not None else compile_facts(board.scenario)

    def _taken(self, board: Board) -> Facts | None:
        if board.compiled is None:
            return None
        facts, stepper = board.compiled
        if stepper is not None:
            stepper.hand_over()
        if board.prepared is not None and self.asked.prepare is not None:
            facts.memo[(PREPARED, self.asked.prepare)] = board.prepared
        return facts

    def prepare(self, hook: Callable[[Facts, Stepper], object]) -> None:
        """Have each board drawn from now on bring ``hook(facts, stepper)`` with it (its stepper in
        the stream's layout), made where the board is drawn — in a worker process, on a core other
        than the one playing it — and left with the facts :meth:`compiled` gives, under
        ``(PREPARED, hook)`` in their ``memo``, for the one who plays the board to take (an
        environment: its observation's first rows, ``rl/_prepared.py``). Workers already drawing
        are stopped, and start again with the hook from the next board. A board drawn in this
        process (no workers, or a daemonic process that may start none) is drawn without it: the
        one playing it builds the same, once."""
        if self.asked.prepare is hook:
            return
        self.asked = replace(self.asked, prepare=hook)
        self.close()

    def close(self) -> None:
        """Stop the worker processes (a stream drawn further starts them again)."""
        if self._ahead is not None:
            self._ahead.close()
            self._ahead = None

    def __getstate__(self) -> dict[str, Any]:
        return {"seed": self.seed, "n": self.n, "asked": self.asked, "workers": self.workers, "key": self.key,
                "index": self.index}  # fmt: skip

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["seed"], state["n"], state["asked"], state["workers"])  # type: ignore[misc]
        self.key, self.index = state["key"], state["index"]

    def __repr__(self) -> str:
        return f"<Boards of seed {self.key}: next is board {self.index}{'' if self.n is None else f' of {self.n}'}>"


def _stream(
    seed: int,
    n: int | None,
    players: int | tuple[int, int],
    abilities: int | tuple[int, int],
    events: str | Iterable[str] | None,
    bodies: int | tuple[int, int],
    cards: bool | None,
    max_outcomes: int,
    layout: ActionLayout | None,
    workers: int,
    seat: int | None = None,
) -> Boards:
    """The stream of :func:`boards` and :func:`draw`, each argument checked (bad input names it)."""
    seats, sizes = span_of(players, "players", 2, 4), span_of(abilities, "abilities", 1, MOST_ABILITIES)
    spare = span_of(bodies, "bodies", 0, MOST_BODIES)  # model/_args.py: a number or a pair in its order, never a set
    kinds = _events(events)
    seed = seed_of(seed)  # Random(-1) is Random(1); "x" and 1.5 would be hashed
    cards = None if cards is None else truth_of(cards, "cards")
    if layout is not None and not isinstance(layout, ActionLayout):
        raise UsageError(f"layout: expected an ActionLayout (or None), not {type(layout).__name__}")
    n = None if n is None else how_many(n, "n")  # none asked for is refused, as sample's n
    max_outcomes = whole_number(max_outcomes, "max_outcomes", 1)
    workers = whole_number(workers, "workers", 0, MOST_WORKERS)
    seat = None if seat is None else whole_number(seat, "seat", 0, seats[1] - 1)
    source = pool_of(cards)
    empty = [k for k in kinds if not source.by_kind.get(k)]
    if empty:
        raise UsageError(f"events: no card of the pool answers to {', '.join(empty)}")
    return Boards(seed, n, Asked(seats, sizes, kinds, spare, max_outcomes, layout, cards, seat), workers)


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
    seat: int | None = None,
) -> Iterator[Board]:
    """``n`` boards (endless when ``None``), the same for the same arguments: see :func:`boards`."""
    stream = _stream(seed, n, players, abilities, events, bodies, cards, max_outcomes, layout, workers, seat)
    try:
        while True:
            try:
                board = stream.board()
            except StopIteration:
                return
            yield board
    finally:
        stream.close()


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
    seat: int | None = None,
) -> Boards:
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
    are the same for any number of workers. ``seat``: only boards on which that seat (0: the active
    player) makes the first choice once every forced decision is taken — the boards a one-seat
    environment's learner decides on (``_board.makes_the_first_choice``); the others are drawn
    again in the board's own draw, so the stream is still the same for any number of workers. An
    environment's ``reset(seed=k)`` restarts the stream at the first board of ``seed`` and ``k``
    (:class:`Boards`)."""
    return _stream(seed, n, players, abilities, events, bodies, cards, max_outcomes, layout, workers, seat)
