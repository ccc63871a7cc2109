"""Batch files, with the surfaces that read them: ``check --batch`` (one verdict line per input
line, in input order, nothing lost: docs/formats.md, "Verdict") and the local processes of both it and ``batch``
(:func:`check_lines`, with ``jobs``; ``batch`` answers its lines with :mod:`._jobs`'s ``answer_line``).

Every line is judged on its own: whatever goes wrong with one line — not JSON, not UTF-8, past a
cap, the time limit, even a bug — becomes that line's error verdict, and the batch goes on.
Scenarios repeated across lines are compiled once per process (:mod:`._cache`).
"""

from __future__ import annotations

import json
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

from triggerstack.model._answer import written
from triggerstack.model._args import whole_number
from triggerstack.model._errors import PastLimit, ScenarioError
from triggerstack.model._facts import Facts
from triggerstack.model._io import check_data, json_line
from triggerstack.model._limits import MOST_JOBS, Limits, bounded, deadline_for
from triggerstack.model._outcome import parse_outcome

from .._errors import KINDS, RequestError, failure
from .._options import Options
from .._verbs.legal import check
from ._cache import CACHE_BYTES, CACHE_ENTRIES, Compiled

_shared: Facts | None = None  # the batch's one scenario, in each worker
_cache = Compiled(CACHE_ENTRIES)  # the lines' scenarios, by their text, within CACHE_BYTES of it


def read_line(line: bytes | str | ScenarioError, limits: Limits, checked: bool = True, within: int = 0) -> Any:
    """One line as :func:`~triggerstack.model._io.iter_lines` gives it, read as every surface that
    reads lines reads it (``check --batch``, ``batch``, the stdio server): its JSON value, or
    :class:`RequestError` (not JSON: -32700) naming the column or byte; JSON past a documented limit
    (a number too large, too deep …) is :class:`~triggerstack.model._errors.PastLimit`, bad input.
    Not ``checked``: the value as read, for :func:`check_value` to hold to the limits once its
    JSON-RPC id is known (the stdio server answers a readable id, never null for it). ``within``:
    how many levels in the line's documents are (a request's params' members: 2), each held to
    the limits as the same document read from a file (``model/_io.py`` ``check_data``)."""
    try:
        return json_line(line, limits, checked=checked, within=within)
    except PastLimit:
        raise  # JSON past a documented limit: bad input, with its place
    except ScenarioError as exc:
        raise RequestError(KINDS.NOT_JSON, exc.one_line()) from None


def check_value(doc: Any, limits: Limits, within: int = 0) -> Any:
    """What :func:`read_line` holds a line's value to, with the same errors (a value past a limit is
    bad input with its place, ``NaN`` is not JSON)."""
    try:
        return check_data(doc, None, limits, within)
    except PastLimit:
        raise
    except ScenarioError as exc:
        raise RequestError(KINDS.NOT_JSON, exc.one_line()) from None


def error_line(number: int, exc: BaseException) -> str:
    """The one shape of a batch line that could not be answered, ``check --batch`` and ``batch``
    alike: ``{"line": N, "error": {"code", "message", "data"}}``, the JSON-RPC error of
    :func:`~.._errors.failure`."""
    return json.dumps({"line": number, "error": failure(exc).rpc_error()}, sort_keys=True, separators=(",", ":"))


def _judge(number: int, line: bytes | str | ScenarioError, shared: Facts | None, options: Options) -> str:
    # not a line it reads (-32700), as ``batch`` and the servers say; its scenario and proposal each a document
    doc = read_line(line, options.limits, within=0 if shared is not None else 1)
    deadline = deadline_for(options.time_limit)  # the line's one deadline: its compile and its check
    if shared is not None:
        facts, proposal_doc = shared, doc
    else:
        if not isinstance(doc, dict) or set(doc) != {"scenario", "proposal"}:
            raise ScenarioError('expected {"scenario": ..., "proposal": ...} (or give --scenario)')
        try:
            facts = _cache.from_document(doc["scenario"], options, deadline, room=CACHE_BYTES)[0]
        except ScenarioError as exc:
            raise exc.within("scenario") from None
        proposal_doc = doc["proposal"]
    try:
        with bounded(deadline):
            verdict = check(facts, parse_outcome(proposal_doc, limits=options.limits), options)
    except ScenarioError as exc:
        raise (exc if shared is not None else exc.within("proposal")) from None
    # within --max-answer as it is built (model/_answer.py), as every answer
    return written({"line": number, **verdict.as_dict()}, options.limits.answer, "send a proposal with fewer entries")


def verdict_line(
    number: int, line: str | bytes | ScenarioError, shared: Facts | None = None, options: Options | None = None
) -> str:
    """The verdict line for input line ``number`` (1-based): always one line, whatever the input."""
    try:
        return _judge(number, line, shared, options or Options())
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
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # a hang-up reaches the whole group: the parent's to say
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


def _close_after(feeder: Any, conns: Sequence[Any]) -> None:
    """Close the pipes to the workers once the feeder that writes to them has ended. A pipe is closed
    by no thread while another may still write to it: its descriptor, freed, goes to the next file
    this process opens (the conformance runner met it so: solver/conformance/_process.py). The feeder
    ends once the workers are gone (its send fails); one still reading the input keeps the pipes."""
    feeder.join(timeout=1)
    if not feeder.is_alive():
        for c in conns:
            c.close()


def check_lines(
    lines: Iterable[tuple[int, bytes | str | ScenarioError]],
    shared: Facts | None = None,
    jobs: int = 1,
    options: Options | None = None,
    answer: Answer | None = None,
) -> Iterator[str]:
    """One verdict line per numbered input line (:func:`~triggerstack.model._io.iter_lines`), in
    order (``jobs`` processes if more than one). An interrupted batch (Ctrl-C, or SIGTERM turned
    into an exception by the caller) ends its workers before the exception goes on.

    Each worker has a pipe of its own and no lock is shared (a pool's shared queue lock, held by
    a worker waiting for work, can deadlock its termination): a feeder thread sends chunk ``i``
    to worker ``i mod jobs``, and the caller's thread reads the answers back in that order.
    ``answer`` answers each line (a module-level function: workers may be spawned)."""
    jobs = whole_number(jobs, "jobs", 1, MOST_JOBS)  # a process and a pipe each, made before a line is read
    numbered = iter(lines)
    answer = answer or verdict_line
    options = options or Options()
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
            while chunk := list(islice(numbered, CHUNK)):
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
        _close_after(feeder, conns)
