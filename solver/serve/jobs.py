"""``triggerstack batch FILE.jsonl …``: many questions per file, on local processes or a Dask cluster.

Each input line is ``{"method": "check" | "count" | "sample", "params": {…}}`` with the params of
that server method (the scenario inline: ``"scenario"``); each output line is ``{"line": N,
"result": …}`` with what the server would answer, or ``{"line": N, "error": {"code", "message",
"data"}}`` — every line answered, in input order, one output file per input file
(``NAME.out.jsonl`` beside it or in ``--out``), written whole or not at all.

With ``--scheduler tcp://HOST:PORT`` the lines go to a Dask cluster in blocks (one small task per
line would cost more than the work); a worker lost mid-run has its blocks run again elsewhere
(Dask reschedules them), and since a block's answers are written only once it is done, in order,
no line is lost or written twice. Without it, ``--jobs N`` local processes answer them as
``check --batch`` does.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections import deque
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

from triggerstack.model.errors import MissingExtra, ScenarioError, UsageError
from triggerstack.model.facts import Facts

from ..errors import KINDS, OutputFailed, RequestError, failure
from ..options import Options
from ..verbs.batch import check_lines, iter_lines
from .rpc import RpcError, Service, read_line

__all__ = ["BATCH_METHODS", "BLOCK", "answer_block", "answer_line", "run"]

BATCH_METHODS = ("check", "count", "sample")
BLOCK = 1000
"""Lines per Dask task."""

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
        if isinstance(line, ScenarioError):
            raise RequestError(KINDS.NOT_JSON, line.one_line())
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


def _on_cluster(lines: Iterator[bytes | ScenarioError], client: Any, options: Options, block: int) -> Iterator[str]:
    """Blocks submitted with a window of a few per worker, their answers yielded in order."""
    window = 4 * max(1, len(client.scheduler_info().get("workers", {})))
    pending: deque[Any] = deque()
    for first, lines_ in _blocks(lines, block):
        pending.append(client.submit(answer_block, lines_, first, options, pure=False))
        if len(pending) >= window:
            yield from pending.popleft().result()
    while pending:
        yield from pending.popleft().result()


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
) -> tuple[list[Path], bool]:
    """Answer every line of every input; returns the files written and whether every line has a
    result (none an error). ``client`` is a Dask client to use instead of connecting to ``scheduler``."""
    options = options or Options()
    own = None
    if scheduler is not None and client is None:
        try:
            from distributed import Client
        except ImportError as exc:
            missing = f"--scheduler needs the extra: pip install 'triggerstack[dask]' ({exc.name} is missing)"
            raise MissingExtra(missing) from None
        try:
            wait = 30 if options.time_limit is None else min(30.0, options.time_limit)
            own = client = cast(Any, Client)(scheduler, timeout=wait)
        except OSError as exc:
            raise UsageError(f"--scheduler: cannot reach {scheduler}: {exc}") from None
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
                fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
            except OSError as exc:
                source.close()
                raise ScenarioError(f"cannot write there: {exc.strerror}", source=str(target.parent)) from None
            sink = os.fdopen(fd, "w", encoding="utf-8")
            try:
                with source:
                    lines = iter_lines(source, options.limits)
                    answers = (
                        _on_cluster(lines, client, options, block)
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
            cast(Any, own).close()
    return written, clean
