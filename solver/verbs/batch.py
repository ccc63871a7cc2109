"""``check --batch``: one verdict line per input line, in input order, nothing lost.

Each input line is ``{"scenario": ..., "proposal": ...}``, or a proposal alone when one scenario
is given for the whole batch. Each output line is ``{"line": N, "legal": ..., "violations": [...]}``
or, for a line that cannot be judged, ``{"line": N, "error": "..."}`` naming the place. With
``jobs > 1`` the lines are checked in worker processes and written back in input order.

Every line is judged on its own: whatever goes wrong with one line — malformed JSON, bytes that
are not UTF-8, a line over the byte cap, nesting or numbers over the caps, an inline scenario over
the size caps, the time limit, even a bug — becomes that line's error verdict, and the batch goes
on. Input is split on ``\\n`` only (a bare CR stays inside its line) and read in bounded pieces.
Scenarios repeated across lines are compiled once per process, in a cache bounded by the size of
the scenarios it keeps.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import tracemalloc
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import Facts, check_limits, facts_of
from triggerstack.model.io import parse_json_line, utf8
from triggerstack.model.limits import Deadline
from triggerstack.model.outcome import parse_outcome
from triggerstack.model.scenario import parse_scenario

from ..errors import KINDS, RequestError, failure
from ..options import DEFAULT_OPTIONS, Options
from .legal import check

__all__ = ["CACHE_BYTES", "Compiled", "check_lines", "error_line", "measured_facts", "verdict_line"]

CACHE_ENTRIES = 64
CACHE_BYTES = 32 * 1024 * 1024
"""The compiled-scenario cache keeps at most this many bytes of scenario text (and 64 scenarios)."""

_shared: Facts | None = None  # the batch's one scenario, in each worker
_options = DEFAULT_OPTIONS


class _Measured(Deadline):
    """A compile's deadline that also stops it once it has taken more than ``cap`` bytes."""

    __slots__ = ("cap",)

    def __init__(self, seconds: float | None, cap: int) -> None:
        super().__init__(seconds)
        self.cap = cap

    def check(self, what: str) -> None:
        super().check(what)
        used = tracemalloc.get_traced_memory()[0]
        if used > self.cap:
            raise ScenarioError(
                f"the compiled scenario takes more than {self.cap} bytes while {what} (raise it with --max-memory)"
            )


def measured_facts(doc: Any, options: Options) -> tuple[Facts, int]:
    """``doc`` compiled, and the bytes the compiled scenario takes (what stays allocated of what
    compiling allocated, measured by tracemalloc); over ``options.limits.memory`` it is refused
    while it compiles."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        deadline = _Measured(options.time_limit, before + options.limits.memory)
        facts = facts_of(parse_scenario(doc, limits=options.limits), options.limits, deadline)
        return facts, max(tracemalloc.get_traced_memory()[0] - before, 0)
    finally:
        if started:
            tracemalloc.stop()


class Compiled:
    """Compiled scenarios kept by their text, least recently used first out: at most ``entries`` of
    them and ``room`` bytes (with ``measure``, the bytes each takes compiled, by tracemalloc, and a
    scenario over the room is refused as it compiles; without, the bytes of its text)."""

    def __init__(self, entries: int, measure: bool) -> None:
        self.entries = entries
        self.measure = measure
        self._kept: OrderedDict[str, tuple[Facts, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def bytes(self) -> int:
        return sum(cost for _, cost in self._kept.values())

    def make_room(self, cost: int, room: int) -> bool:
        """Drop the oldest until ``cost`` more bytes fit in ``room``; whether they do."""
        while self._kept and self.bytes() + cost > room:
            self._kept.popitem(last=False)
        return self.bytes() + cost <= room

    def get(self, doc: Any, options: Options, room: int | None = None, keep: bool = True) -> tuple[Facts, int]:
        """``doc`` compiled within ``options`` (kept if ``keep`` and it fits in ``room``, by default
        ``limits.memory``), and what it costs."""
        key = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
        hit = self._kept.get(key)
        if hit is not None:
            self._kept.move_to_end(key)
            return hit
        if self.measure:
            facts, cost = measured_facts(doc, options)
        else:
            limits = options.limits
            facts, cost = facts_of(parse_scenario(doc, limits=limits), limits, Deadline(options.time_limit)), len(key)
        check_limits(facts, options.limits)
        room = options.limits.memory if room is None else room
        if keep and len(self._kept) < self.entries and self.make_room(cost, room):
            self._kept[key] = (facts, cost)
        return facts, cost


_cache = Compiled(CACHE_ENTRIES, measure=False)


def error_line(number: int, exc: BaseException) -> str:
    """The one shape of a batch line that could not be answered, ``check --batch`` and ``batch``
    alike: ``{"line": N, "error": {"code", "message", "data"}}``, the JSON-RPC error of
    :func:`~..errors.failure`."""
    return json.dumps({"line": number, "error": failure(exc).rpc_error()}, sort_keys=True, separators=(",", ":"))


def _judge(number: int, text: str, shared: Facts | None, options: Options) -> str:
    try:
        doc = parse_json_line(text, options.limits)
    except ScenarioError as exc:  # not a line it reads (-32700), as ``batch`` and the servers say
        raise RequestError(KINDS.NOT_JSON, exc.one_line()) from None
    if shared is not None:
        facts, proposal_doc = shared, doc
    else:
        if not isinstance(doc, dict) or set(doc) != {"scenario", "proposal"}:
            raise ScenarioError('expected {"scenario": ..., "proposal": ...} (or give --scenario)')
        try:
            facts = _cache.get(doc["scenario"], options, room=CACHE_BYTES)[0]
        except ScenarioError as exc:
            raise exc.within("scenario") from None
        proposal_doc = doc["proposal"]
    try:
        verdict = check(facts, parse_outcome(proposal_doc), options)
    except ScenarioError as exc:
        raise (exc if shared is not None else exc.within("proposal")) from None
    return json.dumps({"line": number, **verdict.as_dict()}, sort_keys=True, separators=(",", ":"))


def verdict_line(
    number: int, line: str | bytes | ScenarioError, shared: Facts | None = None, options: Options = DEFAULT_OPTIONS
) -> str:
    """The verdict line for input line ``number`` (1-based): always one line, whatever the input."""
    try:
        if isinstance(line, ScenarioError):  # over --max-bytes, or not UTF-8: not a line it reads
            raise RequestError(KINDS.NOT_JSON, line.one_line())
        try:
            text = utf8(line)
        except ScenarioError as exc:
            raise RequestError(KINDS.NOT_JSON, exc.one_line()) from None
        return _judge(number, text, shared, options)
    except Exception as exc:  # whatever it is (a bug too), the line says so, and the batch goes on
        return error_line(number, exc)


CHUNK = 256
"""Lines per message to a worker."""


Answer = Callable[[int, "bytes | str | ScenarioError", "Facts | None", Options], str]
"""What answers one numbered line: :func:`verdict_line` for ``check --batch``."""


def _die_with(parent: int) -> None:
    """End this worker when the process that started it dies, however it dies (SIGKILL too):
    Linux's parent-death signal, and a check that the parent had not died already."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        os._exit(0)


def _worker(
    conn: Any, shared: Facts | None, options: Options, answer: Answer, parent: int = 0, others: Sequence[Any] = ()
) -> None:
    """A worker: chunks of numbered lines in, their verdict lines out, in order, until EOF. A forked
    worker first closes its copies of the other pipes' ends (``others``), so that when the parent is
    gone its own pipe reads end of file, and asks to be killed with its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the batch; workers just end
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for other in others:
        other.close()
    if parent:
        _die_with(parent)
    try:
        while True:
            chunk = conn.recv()
            if chunk is None:
                return
            conn.send([answer(n, line, shared, options) for n, line in chunk])
    except (EOFError, OSError):  # the parent is gone
        return


def check_lines(
    lines: Iterable[bytes | str | ScenarioError],
    shared: Facts | None = None,
    jobs: int = 1,
    options: Options = DEFAULT_OPTIONS,
    answer: Answer | None = None,
) -> Iterator[str]:
    """One verdict line per input line, in order (``jobs`` processes if more than one). An
    interrupted batch (Ctrl-C, or SIGTERM turned into an exception by the caller) ends its
    workers before the exception goes on.

    Each worker has a pipe of its own and no lock is shared (a pool's shared queue lock, held by
    a worker waiting for work, can deadlock its termination): a feeder thread sends chunk ``i``
    to worker ``i mod jobs``, and the caller's thread reads the answers back in that order.
    ``answer`` answers each line (a module-level function: workers may be spawned)."""
    numbered = enumerate(lines, 1)
    answer = answer or verdict_line
    if jobs <= 1:
        for n, line in numbered:
            yield answer(n, line, shared, options)
        return
    import multiprocessing
    import queue
    import threading

    forked = "fork" in multiprocessing.get_all_start_methods()
    ctx: Any = multiprocessing.get_context("fork" if forked else "spawn")
    pipes = [ctx.Pipe() for _ in range(jobs)]
    every = [end for pair in pipes for end in pair]
    workers = [
        ctx.Process(
            target=_worker,
            args=(child, shared, options, answer, os.getpid(), [e for e in every if e is not child] if forked else ()),
            daemon=True,
        )
        for _, child in pipes
    ]
    for w in workers:
        w.start()
    for _, child in pipes:
        child.close()
    conns = [parent for parent, _ in pipes]
    outbox: queue.SimpleQueue[int | BaseException | None] = queue.SimpleQueue()  # chunk i went out; the end

    def feed() -> None:
        try:
            i = 0
            while chunk := list(_take(numbered, CHUNK)):
                conns[i % jobs].send(chunk)
                outbox.put(i)
                i += 1
            for c in conns:
                c.send(None)
            outbox.put(None)
        except BaseException as exc:  # reading the input failed, or the batch is being stopped
            outbox.put(exc)

    feeder = threading.Thread(target=feed, name="triggerstack-batch-feeder", daemon=True)
    feeder.start()
    try:
        while (item := outbox.get()) is not None:
            if isinstance(item, BaseException):
                raise item
            yield from conns[item % jobs].recv()
        feeder.join()
        for w in workers:
            w.join()
    except BaseException:
        for w in workers:
            if w.is_alive():
                w.kill()  # every worker ends now, busy or not; none holds anything another needs
        for w in workers:
            w.join(timeout=5)
        raise
    finally:
        for c in conns:
            c.close()


def _take(it: Iterator[tuple[int, Any]], n: int) -> Iterator[tuple[int, Any]]:
    for _ in range(n):
        item = next(it, None)
        if item is None:
            return
        yield item
