"""``triggerstack batch FILE.jsonl …``: many questions per file, on local processes or a Dask cluster
(docs/server.md: the lines, the answers, the exit codes).

Every verb of the one table is a batch method (:data:`BATCH_METHODS`); a line is answered as the
server would answer it, and every line is answered, in input order, in an answer file written whole
(``model/_parts.py``). On Dask the lines go in blocks (:data:`BLOCK`: one small task per line would
cost more than the work), and a block's answers are written only once it is done, in order, so a
worker lost mid-run loses no line and writes none twice; a cluster without a worker for
:data:`NO_WORKER_SECONDS`, or whose scheduler is gone, is :class:`~.._errors.ClusterLost`.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ipaddress
import json
import logging
import re
import threading
import time
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import islice
from pathlib import Path
from typing import IO, Any, cast

from triggerstack.model._errors import MissingExtra, ScenarioError, UsageError, install_hint
from triggerstack.model._facts import Facts
from triggerstack.model._io import Line, iter_lines, open_lines
from triggerstack.model._limits import Bound
from triggerstack.model._parts import write_whole
from triggerstack.model._text import typed

from .._errors import KINDS, ClusterLost, OutputFailed, RequestError, failure
from .._options import Options
from .._verbs.table import VERBS
from ._batch import check_lines, read_line
from ._rpc import RpcError, Service

BATCH_METHODS = tuple(v.name for v in VERBS)
"""What a batch line may ask: every verb of the table, never the sessions' ``load`` and ``unload``."""
BLOCK = 1000
"""Lines per Dask task."""
NO_WORKER_SECONDS = 30.0
"""How long a batch waits for a Dask cluster with no worker to get one before it gives up."""

_services: dict[Options, Service] = {}


def _service(options: Options) -> Service:
    found = _services.get(options)
    if found is None:
        found = _services[options] = Service(options)
    return found


def answer_line(number: int, line: bytes | str | ScenarioError, _shared: Facts | None, options: Options) -> str:
    """The answer line to input line ``number``: always one line, whatever it holds."""
    service = _service(options)
    out = service.writer()  # the line as a whole within --max-answer, counted as it is built
    out.write(f'{{"line":{number},"result":')
    try:
        request = read_line(line, options.limits, within=2)  # each of its params' values a document
        if (
            not isinstance(request, dict)
            or set(request) - {"method", "params"}
            or request.get("method") not in BATCH_METHODS
        ):
            shape = f'a line is {{"method": VERB, "params": {{...}}}}, VERB one of {", ".join(BATCH_METHODS)}'
            raise RequestError(KINDS.NOT_A_REQUEST, shape)
        asked = service.ask(request["method"], request.get("params", {}))
        service.write(asked, Bound(asked.seconds), out)
        out.write("}")
        return out.text()
    except RpcError as exc:
        error = exc.as_dict()
    except Exception as exc:
        error = failure(exc).rpc_error()
    return json.dumps({"error": error, "line": number}, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def answer_block(lines: Sequence[tuple[int, bytes | ScenarioError]], options: Options) -> list[str]:
    """The answers to a block of numbered lines (one Dask task)."""
    return [answer_line(number, line, None, options) for number, line in lines]


def _blocks(lines: Iterator[tuple[int, Line]], size: int) -> Iterator[list[tuple[int, Line]]]:
    while block := list(islice(lines, size)):
        yield block


def _on_cluster(
    lines: Iterator[tuple[int, Line]], client: Any, options: Options, block: int, no_worker: float
) -> Iterator[str]:
    """Blocks submitted with a window of a few per worker, their answers yielded in order; a
    cluster lost meanwhile is :class:`ClusterLost`, however it is lost."""
    try:
        window = 4 * max(1, _workers(client))
        pending: deque[Any] = deque()
        for lines_ in _blocks(lines, block):
            pending.append(client.submit(answer_block, lines_, options, pure=False))
            if len(pending) >= window:
                yield from _result(pending.popleft(), client, no_worker)
        while pending:
            yield from _result(pending.popleft(), client, no_worker)
    except ClusterLost:
        raise
    except Exception as exc:
        if _is_cluster_error(exc):
            said = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            said = said.split("cancelled for reason: ")[-1].rstrip(".")  # a future names its task first
            raise ClusterLost(f"its scheduler is gone ({type(exc).__name__}{': ' + said if said else ''})") from None
        raise


def _quiet() -> None:
    """distributed's own loggers say nothing below CRITICAL (they set levels of their own)."""
    names = [n for n in logging.root.manager.loggerDict if n == "distributed" or n.startswith("distributed.")]
    for name in ["distributed", "distributed.client", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _workers(client: Any) -> int:
    return len(client.scheduler_info().get("workers", {}))


POLL = 0.05
"""Seconds between two looks at whether a block is done (the future's own state: no round trip)."""
WORKERS_EVERY = 0.5
"""Seconds between two questions to the scheduler of whether the cluster has a worker (a round trip:
``Client.scheduler_info`` asks the scheduler each time on a synchronous client)."""


def _result(future: Any, client: Any, no_worker: float) -> list[str]:
    """A block's answers, waiting as long as it takes while the cluster has a worker, and at
    most ``no_worker`` seconds while it has none. It waits by looking at whether the future is
    done (its state, here), and asks for the result once it is (:func:`_fetch`, waited for alike):
    never ``future.result(timeout=…)``, whose wait can lose a result that races its timeout and
    raise ``UnboundLocalError`` from distributed's ``sync`` (dask/distributed#8514, open) — a batch
    on a busy machine met it."""
    alone_since: float | None = None
    asked = time.monotonic()
    fetched: concurrent.futures.Future[list[str]] | None = None
    while True:
        if fetched is None and future.done():
            fetched = _fetch(future)
        if fetched is None:
            time.sleep(POLL)
        else:
            with contextlib.suppress(concurrent.futures.TimeoutError):
                return fetched.result(timeout=POLL)
        now = time.monotonic()
        if now - asked < WORKERS_EVERY:
            continue
        asked = now
        if _workers(client):
            alone_since = None
            continue
        alone_since = now if alone_since is None else alone_since
        if now - alone_since >= no_worker:
            raise ClusterLost(f"it has had no worker for {no_worker:g} s (start workers, or run without --scheduler)")


def _fetch(future: Any) -> concurrent.futures.Future[list[str]]:
    """A done block's answers, fetched on a thread of their own: fetching gathers them from the
    worker that holds them, and where that worker was killed after the block was done, Dask waits
    for another to compute them again — for ever, with none left. A clean-clone run hung there, in
    the test that kills every worker; :func:`_result` waits on this as on the block, at most
    ``no_worker`` seconds while the cluster has no worker (the thread ends when the client does)."""
    box: concurrent.futures.Future[list[str]] = concurrent.futures.Future()

    def fetch() -> None:
        try:
            box.set_result(cast(list[str], future.result()))
        except BaseException as exc:  # the block's own error, raised where it is waited for
            box.set_exception(exc)

    threading.Thread(target=fetch, name="triggerstack-dask-fetch", daemon=True).start()
    return box


def _is_cluster_error(exc: BaseException) -> bool:
    """An error that says the scheduler is gone (the connection closed, a future cancelled with it)."""
    import asyncio

    from distributed.comm.core import CommClosedError

    return isinstance(exc, CommClosedError | asyncio.CancelledError | OSError | TimeoutError) or (
        type(exc).__name__ in ("FutureCancelledError", "CancelledError")
    )


_ADDRESS = re.compile(r"(?:(?P<scheme>[a-z][a-z0-9+.-]*)://)?(?P<host>\[[^\]]*\]|[^:/\[\]]+):(?P<port>[0-9]{1,5})")
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?")


def scheduler_address(address: str) -> str:
    """``address`` if it is a Dask scheduler's address — ``tcp://HOST:PORT`` or ``tls://HOST:PORT``
    (``HOST:PORT`` is read as tcp), HOST a name, an IPv4 address or a bracketed IPv6 one, PORT
    1–65535 — else :class:`UsageError` (exit 2) saying what is wrong, before anything connects."""
    shape = "give tcp://HOST:PORT (or tls://HOST:PORT), e.g. tcp://127.0.0.1:8786"
    found = _ADDRESS.fullmatch(address)
    if found is None:
        raise UsageError(f"--scheduler {typed(address)} is not the address of a Dask scheduler: {shape}")
    scheme, host, port = found["scheme"] or "tcp", found["host"], int(found["port"])
    if scheme not in ("tcp", "tls"):
        raise UsageError(f"--scheduler {typed(address)}: a Dask scheduler is reached over tcp:// or tls://, not {scheme}://")
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise UsageError(f"--scheduler {typed(address)}: {host} is not an IPv6 address: {shape}") from None
    elif not _HOST.fullmatch(host):
        raise UsageError(f"--scheduler {typed(address)}: {typed(host)} is not a host name or address: {shape}")
    if not 1 <= port <= 65535:
        raise UsageError(f"--scheduler {typed(address)}: port {port} is not between 1 and 65535")
    return f"{scheme}://{host}:{port}"


def _connect(address: str, wait: float, deadline: float) -> Any:
    """A Dask client of the scheduler at ``address``, or :class:`ClusterLost` (exit 69) within
    ``wait`` seconds (by ``deadline``, on the monotonic clock) whatever answers there: nothing
    (refused, unreachable), silence (a port that accepts and never speaks — Dask's own timeout did
    not hold it), or another service (whose answer Dask reads as a frame of exabytes: MemoryError).
    The client is made in a thread of its own so that the wait is ours; one that comes too late is
    closed by that thread."""
    from distributed import Client

    got: dict[str, Any] = {}
    late, settled = threading.Event(), threading.Lock()
    own_wait = max(0.1, 0.8 * (deadline - time.monotonic()))  # Dask's own error, where it says one, comes first

    def connect() -> None:
        try:
            client = cast(Any, Client)(address, timeout=own_wait)
        except BaseException as exc:  # said by the caller, whatever it is
            got["error"] = exc
            return
        with settled:  # taken, or closed: never both, never neither
            if not late.is_set():
                got["client"] = client
                return
        with contextlib.suppress(Exception):
            client.close(timeout=5)

    _quiet()  # what goes wrong with the cluster is said once, as ClusterLost: not distributed's tracebacks
    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(max(0.0, deadline - time.monotonic()))
    with settled:
        late.set()
        client = got.get("client")
    _quiet()
    if client is not None:
        return client
    exc = got.get("error")
    if exc is None:
        raise ClusterLost(f"--scheduler: {address} did not answer as a Dask scheduler within {wait:g} s")
    if _is_cluster_error(exc):
        raise ClusterLost(f"--scheduler: cannot reach {address}: {exc}")
    raise ClusterLost(f"--scheduler: {address} does not answer as a Dask scheduler ({type(exc).__name__})")


def _targets(inputs: Sequence[str], out_dir: str | None) -> list[Path]:
    """Each input's answer file (``NAME.out.jsonl`` beside it, or in ``out_dir``), refused before
    anything runs when it can't be written: two inputs that would write the same file, an answer
    file that would be an input, a directory where the file or the folder should be."""
    targets: list[Path] = []
    seen: dict[Path, str] = {}
    sources = {Path(name).resolve() for name in inputs}
    for name in inputs:
        path = Path(name)
        folder = Path(out_dir or path.parent)
        target = folder / (path.name.removesuffix(".jsonl") + ".out.jsonl")
        key = target.resolve()
        if key in seen:
            raise UsageError(
                f"{seen[key]} and {name} would both write {target}: give them different names or --out folders",
                source=name,
            )
        if key in sources:
            raise UsageError(f"its answers would overwrite the input {target}", source=name)
        if target.is_dir():
            raise UsageError(f"the answer file {target} is a directory", source=name)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (FileExistsError, NotADirectoryError):
            raise UsageError(f"--out {folder} is not a directory", source=name) from None
        except OSError as exc:
            raise UsageError(f"cannot make the folder {folder}: {exc.strerror}", source=name) from None
        seen[key] = name
        targets.append(target)
    return targets


def _answer_file(target: Path, answers: Iterator[str]) -> bool:
    """``answers`` as the file ``target``, written whole or not at all by the one writer of whole files
    (``model/_parts.py``) with the mode a new file gets; whether every line has a result. A part that
    cannot be made there is bad input (exit 2); a write that fails midway, :class:`OutputFailed` (74),
    whatever closing the part says after it."""
    clean, stage = True, "no part"

    def write(_part: str, stream: IO[bytes]) -> None:
        nonlocal clean, stage
        stage = "answers"  # an OSError of theirs (reading the input) goes on as it is
        for line in answers:
            clean = clean and not line.startswith('{"error"')
            stage = "writing"
            stream.write(line.encode("utf-8") + b"\n")
            stage = "answers"
        stage = "writing"  # flushed, synced, renamed into place

    try:
        write_whole(target, write, shared=True)
    except OSError as exc:
        if stage == "no part":
            raise ScenarioError(f"cannot write there: {exc.strerror}", source=str(target.parent)) from None
        if stage == "writing":
            raise OutputFailed(exc.errno, f"cannot write {target}: {exc.strerror}") from None
        raise
    return clean


def run(
    inputs: Sequence[str],
    out_dir: str | None = None,
    scheduler: str | None = None,
    jobs: int = 1,
    options: Options | None = None,
    block: int = BLOCK,
    client: Any = None,
    no_worker: float = NO_WORKER_SECONDS,
) -> tuple[list[Path], bool]:
    """Answer every line of every input; returns the files written and whether every line has a
    result (none an error). ``client`` is a Dask client to use instead of connecting to ``scheduler``;
    ``no_worker``: how long to wait for a worker when the cluster has none (:class:`ClusterLost`)."""
    started = time.monotonic()
    options = options or Options()
    own = None
    if scheduler is not None and client is None:
        address = scheduler_address(scheduler)  # its form, before anything else: exit 2
        try:
            import distributed  # noqa: F401 - the extra, checked before connecting
        except ImportError as exc:
            missing = f"--scheduler needs the extra: {install_hint('dask')} ({exc.name} is missing)"
            raise MissingExtra(missing) from None
        wait = 30.0 if options.time_limit is None else min(30.0, options.time_limit)
        own = client = _connect(address, wait, started + wait)
    targets = _targets(inputs, out_dir)  # every path checked before anything runs
    written: list[Path] = []
    clean = True
    try:
        for name, target in zip(inputs, targets, strict=True):
            with open_lines(name) as source:
                lines = iter_lines(source, options.limits)
                answers = (
                    _on_cluster(lines, client, options, block, no_worker)
                    if client is not None
                    else check_lines(lines, None, jobs, options, answer=answer_line)
                )
                clean = _answer_file(target, answers) and clean
            written.append(target)
    finally:
        if own is not None:
            with contextlib.suppress(Exception):  # a scheduler already gone has nothing to close
                cast(Any, own).close(timeout=5)
    return written, clean
