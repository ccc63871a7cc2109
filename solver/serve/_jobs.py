"""``triggerstack batch FILE.jsonl …``: many questions per file, on local processes or a Dask cluster.

Each input line is ``{"method": "check" | "count" | "sample", "params": {…}}`` with the params of
that server method (the scenario inline: ``"scenario"``); each output line is ``{"line": N,
"result": …}`` with what the server would answer, or ``{"line": N, "error": {"code", "message",
"data"}}`` — every line answered, in input order, one output file per input file
(``NAME.out.jsonl`` beside it or in ``--out``), written whole or not at all.

With ``--scheduler tcp://HOST:PORT`` the lines go to a Dask cluster in blocks (one small task per
line would cost more than the work); a worker lost mid-run has its blocks run again elsewhere
(Dask reschedules them), and since a block's answers are written only once it is done, in order,
no line is lost or written twice. A cluster that has had no worker for :data:`NO_WORKER_SECONDS`,
or whose scheduler is gone, is :class:`~..errors.ClusterLost` (exit 69) whenever it happens. Without
it, ``--jobs N`` local processes answer them as ``check --batch`` does.

An answer file is written as ``.NAME.out.jsonl.XXXX.part`` beside it and renamed into place once
whole, with the mode the user's umask gives a new file. The writer holds a lock on it: a run
killed outright (SIGKILL, a power cut) leaves the part behind with no lock, and the next run for
the same answer file removes it (a part still locked is another run's, and is left alone).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from triggerstack.model._errors import MissingExtra, ScenarioError, UsageError, install_hint
from triggerstack.model._facts import Facts
from triggerstack.model._io import iter_lines
from triggerstack.model._parts import new_part

from .._errors import KINDS, ClusterLost, OutputFailed, RequestError, failure
from .._options import Options
from ._batch import check_lines, read_line
from ._rpc import RpcError, Service

__all__ = ["BATCH_METHODS", "BLOCK", "answer_block", "answer_line", "run"]

BATCH_METHODS = ("check", "count", "sample")
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
    out: dict[str, Any] = {"line": number}
    try:
        request = read_line(line, options.limits)
        if (
            not isinstance(request, dict)
            or set(request) - {"method", "params"}
            or request.get("method") not in BATCH_METHODS
        ):
            shape = 'a line is {"method": "check" | "count" | "sample", "params": {...}}'
            raise RequestError(KINDS.NOT_A_REQUEST, shape)
        out["result"] = _service(options).call(request["method"], request.get("params"))
    except RpcError as exc:
        out["error"] = exc.as_dict()
    except Exception as exc:
        out["error"] = failure(exc).rpc_error()
    return json.dumps(out, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def answer_block(lines: Sequence[bytes | ScenarioError], first: int, options: Options) -> list[str]:
    """The answers to a block of lines numbered from ``first`` (one Dask task)."""
    return [answer_line(first + i, line, None, options) for i, line in enumerate(lines)]


def _blocks(lines: Iterator[bytes | ScenarioError], size: int) -> Iterator[tuple[int, list[bytes | ScenarioError]]]:
    number = 1
    while True:
        block = []
        for line in lines:
            block.append(line)
            if len(block) == size:
                break
        if not block:
            return
        yield number, block
        number += len(block)


def _on_cluster(
    lines: Iterator[bytes | ScenarioError], client: Any, options: Options, block: int, no_worker: float
) -> Iterator[str]:
    """Blocks submitted with a window of a few per worker, their answers yielded in order; a
    cluster lost meanwhile is :class:`ClusterLost`, however it is lost."""
    try:
        window = 4 * max(1, _workers(client))
        pending: deque[Any] = deque()
        for first, lines_ in _blocks(lines, block):
            pending.append(client.submit(answer_block, lines_, first, options, pure=False))
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


def _result(future: Any, client: Any, no_worker: float) -> list[str]:
    """A block's answers, waiting as long as it takes while the cluster has a worker, and at
    most ``no_worker`` seconds while it has none."""
    from distributed import TimeoutError as DaskTimeout

    alone_since: float | None = None
    while True:
        try:
            return cast(list[str], future.result(timeout=0.5))
        except (DaskTimeout, TimeoutError):
            pass
        if _workers(client):
            alone_since = None
            continue
        now = time.monotonic()
        alone_since = now if alone_since is None else alone_since
        if now - alone_since >= no_worker:
            raise ClusterLost(f"it has had no worker for {no_worker:g} s (start workers, or run without --scheduler)")


def _is_cluster_error(exc: BaseException) -> bool:
    """An error that says the scheduler is gone (the connection closed, a future cancelled with it)."""
    import asyncio

    from distributed.comm.core import CommClosedError

    return isinstance(exc, CommClosedError | asyncio.CancelledError | OSError | TimeoutError) or (
        type(exc).__name__ in ("FutureCancelledError", "CancelledError")
    )


def _umask() -> int:
    """The process's umask (read from /proc where there is one: setting it to read it races threads)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    old = os.umask(0o022)
    os.umask(old)
    return old


def _part(target: Path) -> tuple[int, str]:
    """A new part file for ``target``, locked as this run's, with the mode a new file gets."""
    return new_part(target, 0o666 & ~_umask())


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


@contextlib.contextmanager
def _writing(target: Path) -> Iterator[None]:
    """A write to ``target`` whose OS error (a full disk …) is :class:`OutputFailed` (exit 74)."""
    try:
        yield
    except OSError as exc:
        raise OutputFailed(exc.errno, f"cannot write {target}: {exc.strerror}") from None


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
    options = options or Options()
    own = None
    if scheduler is not None and client is None:
        try:
            from distributed import Client
        except ImportError as exc:
            missing = f"--scheduler needs the extra: {install_hint('dask')} ({exc.name} is missing)"
            raise MissingExtra(missing) from None
        try:
            wait = 30 if options.time_limit is None else min(30.0, options.time_limit)
            # what goes wrong with the cluster is said once, as ClusterLost: not distributed's tracebacks
            _quiet()
            own = client = cast(Any, Client)(scheduler, timeout=wait)
            _quiet()
        except Exception as exc:  # refused, timed out, or gone while connecting: one failure, however
            if not _is_cluster_error(exc):
                raise
            raise ClusterLost(f"--scheduler: cannot reach {scheduler}: {exc}") from None
    targets = _targets(inputs, out_dir)  # every path checked before anything runs
    written: list[Path] = []
    clean = True
    try:
        for name, target in zip(inputs, targets, strict=True):
            try:
                source = open(name, "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                raise ScenarioError(f"cannot read: {exc.strerror}", source=name) from None
            try:
                fd, temp = _part(target)
            except OSError as exc:
                source.close()
                raise ScenarioError(f"cannot write there: {exc.strerror}", source=str(target.parent)) from None
            sink = os.fdopen(fd, "w", encoding="utf-8")
            try:
                with source:
                    lines = iter_lines(source, options.limits)
                    answers = (
                        _on_cluster(lines, client, options, block, no_worker)
                        if client is not None
                        else check_lines(lines, None, jobs, options, answer=answer_line)
                    )
                    for line in answers:
                        clean = clean and not line.startswith('{"error"')
                        with _writing(target):
                            sink.write(line + "\n")
                    with _writing(target):
                        sink.flush()
                        os.fsync(sink.fileno())
                sink.close()
                os.replace(temp, target)  # whole, or not at all
            except BaseException:
                with contextlib.suppress(OSError):  # what it holds unwritten can't be written either
                    sink.close()
                Path(temp).unlink(missing_ok=True)
                raise
            written.append(target)
    finally:
        if own is not None:
            with contextlib.suppress(Exception):  # a scheduler already gone has nothing to close
                cast(Any, own).close(timeout=5)
    return written, clean
