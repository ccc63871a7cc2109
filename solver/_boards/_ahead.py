"""Worker processes drawing a stream's boards ahead (``rl.boards(..., workers=N)``), each sending
its boards down a pipe of its own.

Board ``i`` of a stream is drawn from a generator seeded by the stream's key and ``i`` alone
(``_board.board_rng``): worker ``w`` of ``N`` draws boards ``first + w``, ``first + w + N`` … and
this process reads them back in turn, so the stream is the same for any ``N``. Each worker draws on
as long as its pipe takes what it sends (a pipe holds about 64 KB: seven boards of two players, and
a batch past it waits to be read), so the boards ahead are bounded by the pipe and a batch, never by
a thread of this process.

Why pipes, not ``concurrent.futures``' process pool (issue 53): the pool's result thread and its
futures cost this process about a millisecond per task — 100 µs a board at eight boards a task,
half of a warm episode — beside the trainer it is meant to spare; a pipe read costs a few
microseconds. A board is read back (unpickled) as it is played, not as it arrives.

Each message is a generation (4 bytes), a kind (1 byte: boards, or the error raised for the next
board) and, for boards, one or more pickles each after its length (4 bytes): a worker sends its
first board alone, then batches twice as long each time up to :data:`BATCH` boards. Its very first
message, as it begins, is of generation 0, no order's: dropped where it is read, it says the worker
began, so that a worker ending before it did is said to have been stopped as it started (most
likely by a script without the ``__main__`` guard: ``Ahead._ended``). Why batches
(issue 53): a worker draws a board in about twice the time the process playing it plays one, so
that process waited for every board, and after each wait played it on caches the others had
filled — half again the CPU a board read back from memory costs it (700 to 800 µs of user time a
board against 430 to 460, measured alternately on the shared machine); a batch makes it wait once
per batch. Why 64 boards (issue 53, stop 68): a process that plays faster than its worker draws
still waits once a batch, and each wait costs it about 1.5 ms of CPU as its caches fill again — a
pause of 30 ms every 16 boards, and nothing else, took fresh ÷ warm from 0.47 to 0.38 in one
process; at 64 a batch that is a quarter as much a board (a batch is about 600 KB). A restart
(``Boards.restart``, a seeded reset) sends each worker a new order with the
next generation; what arrives of an older one is read and dropped, and a batch under way when the
order comes is given up. A worker ends when this process closes its end of either pipe, or is gone
(it reads the end of its orders, or cannot write its boards): no watcher thread. Spawned, not
forked: the caller may hold threads (a trainer's, a server's) that a fork would copy half-way.
"""

from __future__ import annotations

import multiprocessing
import pickle
import struct
import sys
from collections import deque
from multiprocessing.connection import Connection
from typing import Any

from triggerstack.model._text import typed

from ._board import Asked, Board, pool_of

_HEAD = struct.Struct("<IB")
"""A message's head: its generation, and its kind."""
_SIZE = struct.Struct("<I")
"""The length of each board's pickle in a message of boards."""
_BOARD, _ERROR = 0, 1
BATCH = 64
"""The most boards a worker sends in one message (its first board goes alone: the first reset waits
for one board, not a batch; see the module for why 64)."""


def _work(asked: Asked, orders: Connection, out: Connection) -> None:
    """A worker process: read the card pool once, then draw the boards each order names, in order,
    until told otherwise (an order read between boards) or at a board that cannot be drawn (its
    error sent in its place), then wait for the next order."""
    try:
        out.send_bytes(_HEAD.pack(0, _BOARD))  # begun: a message of no order's generation, dropped where read
        source = pool_of(asked.cards)
        order = orders.recv()
        while True:
            generation, key, index, step, n = order
            batch: list[bytes] = []
            size = 1  # the first board alone, then batches twice as long up to BATCH
            while n is None or index < n:
                if orders.poll():
                    batch = []  # the boards of an order given up: dropped where they would arrive
                    break
                try:
                    data = pickle.dumps(asked.board(key, index, source), pickle.HIGHEST_PROTOCOL)
                except Exception as exc:  # a size out of reach (UsageError) or a bug: raised where it is asked for
                    _send(out, generation, batch)
                    out.send_bytes(_HEAD.pack(generation, _ERROR) + _pickled_error(exc))
                    batch = []
                    break
                batch += (_SIZE.pack(len(data)), data)
                index += step
                if len(batch) >= 2 * size:
                    _send(out, generation, batch)
                    batch, size = [], min(2 * size, BATCH)
            _send(out, generation, batch)  # the last boards of a stream of n
            order = orders.recv()
    except (EOFError, OSError):  # this process's end is closed, or it is gone
        return


def _send(out: Connection, generation: int, batch: list[bytes]) -> None:
    """Send the boards of ``batch`` (each pickle after its length) as one message, if any."""
    if batch:
        out.send_bytes(b"".join((_HEAD.pack(generation, _BOARD), *batch)))


def _pickled_error(exc: Exception) -> bytes:
    try:
        return pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
    except Exception:  # an error that does not pickle: its words
        said = f"a worker drawing boards failed: {type(exc).__name__}: {typed(str(exc), 200)}"
        return pickle.dumps(RuntimeError(said), pickle.HIGHEST_PROTOCOL)


class Ahead:
    """``workers`` processes drawing the boards of a stream ahead, in order (see the module)."""

    def __init__(self, asked: Asked, workers: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.method = context.get_start_method()
        self.links: list[tuple[Any, Connection, Connection]] = []  # per worker: its process, orders, boards
        for number in range(workers):
            boards_in, boards_out = context.Pipe(duplex=False)
            orders_in, orders_out = context.Pipe(duplex=False)
            process = context.Process(
                target=_work, args=(asked, orders_in, boards_out), name=f"triggerstack-boards-{number}", daemon=True
            )
            process.start()
            boards_out.close()  # the worker's ends: closed here, so that each side sees the other go
            orders_in.close()
            self.links.append((process, orders_out, boards_in))
        self.generation = 0
        self.at: tuple[str, int] | None = None  # the board expected next
        self.first = 0  # the board the workers' current order starts at
        self.waiting: list[deque[memoryview | Exception]] = [deque() for _ in self.links]
        """Per worker, what was read of its boards and not played yet (a pickle each, or an error)."""
        self.begun = [False] * workers
        """Per worker, whether it said it began (its first message): one that ended before began
        while being started, most likely by a script that starts workers again from each worker."""

    def board(self, key: str, index: int, n: int | None) -> Board:
        """Board ``index`` of the stream ``key`` (of ``n``), the next ones drawn meanwhile; a
        worker's error is raised here, at the board it was raised for."""
        if self.at != (key, index):  # the stream begins, or begins again (restarted)
            self.generation += 1
            self.first = index
            step = len(self.links)
            for w, (_process, orders, _boards) in enumerate(self.links):
                orders.send((self.generation, key, index + w, step, n))
            for waiting in self.waiting:
                waiting.clear()
        w = (index - self.first) % len(self.links)
        waiting = self.waiting[w]
        if not waiting:
            self._read(w)
        item = waiting.popleft()
        if isinstance(item, Exception):  # raised where the board it was raised for is asked for
            self.at = None
            raise item
        board: Board = pickle.loads(item)  # read back here, as it is played
        self.at = (key, index + 1)
        return board

    def _ended(self, w: int) -> str:
        """Why worker ``w`` 's pipe ended, in words: where it ended while being started by a start
        method that imports the main script again (spawn, forkserver), the likely cause — a script
        without the ``__main__`` guard, whose every worker runs its top level again up to the line
        that starts workers, where multiprocessing stops it (docs/rl.md, "Boards from real cards")."""
        said = "a worker process drawing boards ended unexpectedly"
        process = self.links[w][0]
        process.join(1.0)  # its exit code, once it is gone
        code = "" if process.exitcode is None else f" (exit code {process.exitcode})"
        script = getattr(sys.modules.get("__main__"), "__file__", None)
        if self.begun[w] or self.method not in ("spawn", "forkserver") or script is None:
            return said + code
        return (
            f"{said}, while it was being started{code}: a worker is started by {self.method}, which imports the "
            f"script that started it ({script}) again, so a script that draws boards at its top level needs its "
            'top level under `if __name__ == "__main__":` (docs/rl.md, "Boards from real cards")'
        )

    def _read(self, w: int) -> None:
        """Read worker ``w`` 's next message of the current order (an earlier order's are dropped)
        into its boards waiting: each board's pickle, or the error raised for the next board."""
        boards = self.links[w][2]
        while True:
            try:
                message = boards.recv_bytes()
            except EOFError:
                self.at = None
                raise RuntimeError(self._ended(w)) from None
            self.begun[w] = True
            generation, kind = _HEAD.unpack_from(message)
            if generation == self.generation:
                break  # what an earlier order drew is dropped
        data, at = memoryview(message), _HEAD.size
        if kind == _ERROR:
            self.waiting[w].append(pickle.loads(data[at:]))
            return
        while at < len(data):
            (size,) = _SIZE.unpack_from(data, at)
            at += _SIZE.size
            self.waiting[w].append(data[at : at + size])
            at += size

    def close(self) -> None:
        """Stop the workers: each reads the end of its orders (or cannot write its boards) and ends."""
        for _process, orders, boards in self.links:  # never waited for here: one may be drawing a board
            orders.close()
            boards.close()
        self.links = []
