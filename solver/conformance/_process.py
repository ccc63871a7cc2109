"""The engine under test as a process (docs/conformance.md, "How the run stays bounded"): started
in a session of its own with the run's mark in its environment, spoken to over its standard input
and output, and stopped — with everything it started — when it is silent past the time limit,
writes an over-long line, does not read its input or closes its output and lives on."""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from triggerstack.model._errors import UsageError
from triggerstack.model._limits import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT
from triggerstack.model._numbers import counted
from triggerstack.model._text import found, typed

from ._lines import BOM, Failure, Lines, Undecoded, exit_text, seconds_text

_END = b""
_TOO_LONG = object()


def _argv(command: str) -> list[str]:
    """The command as a shell reads it: unbalanced quotes are bad input naming it, never an internal error."""
    try:
        return shlex.split(command)
    except ValueError as exc:
        raise UsageError(f"--engine: {typed(command)} is no command a shell reads: {str(exc).lower()}") from None


class ProcessEngine(Lines):
    """An engine started from a command line, spoken to on its standard input and output, in a
    process group of its own. Each call must be answered within ``seconds`` and each line hold at
    most ``max_bytes``; an engine that is silent longer, writes a longer line, or does not read
    what it is sent is stopped — with every process it started — and the case fails saying so. Its
    output is read line by line into a short queue, so an engine that floods it waits on its pipe
    instead of filling the runner's memory (the runner is bounded whatever the engine does).

    Each pipe is closed only when no thread is using it: the output by its reader thread, once the
    engine's writers have all ended; the input once its last writer thread has ended. A descriptor
    closed under a thread about to read it is free for the next pipe this process opens — runners
    start engines from several threads (the suite does) — and that read took the next engine's first
    byte: its answer to ``load`` arrived without its ``{``, as noise, and the case failed at the limit."""

    def __init__(
        self, command: str | Sequence[str], seconds: float = DEFAULT_TIME_LIMIT, max_bytes: int = DEFAULT_LIMITS.bytes
    ) -> None:
        super().__init__(seconds)
        if self.seconds is None:  # a silent engine would be waited on for ever
            raise UsageError("seconds: an engine under test is given a time limit for each call")
        self.limit = self.seconds  # the time limit of each call
        self.max_bytes = max_bytes
        self._lines: queue.Queue[bytes | object] = queue.Queue(maxsize=16)
        argv = _argv(command) if isinstance(command, str) else list(command)
        self._mark = secrets.token_hex(12)  # this run's, in the environment of all it starts
        if not argv:
            raise UsageError("--engine: give the command that starts the engine under test")
        try:
            self.process = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                bufsize=0,
                start_new_session=True,
                env={**os.environ, RUN_MARK: self._mark},
            )
        except OSError as exc:
            raise UsageError(f"--engine: cannot start {found(argv[0])}: {exc.strerror or exc}") from None
        except (ValueError, TypeError) as exc:  # a NUL in an argument, an argument that is no text
            raise UsageError(f"--engine: cannot start {found(argv[0])}: {exc}") from None
        self._ended: str | None = None  # why every later question fails at once
        self._writer: threading.Thread | None = None  # the last thread that wrote a request
        self._reader = threading.Thread(target=self._read, name="conformance-engine-output", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        """Each line the engine writes, as it comes (``_END`` once it has ended). This thread owns the
        engine's output and closes it when it is done with it: no other thread closes it."""
        output = self.process.stdout
        assert output is not None
        try:
            first = True
            while line := output.readline(self.max_bytes + 1):
                if first and line.startswith(BOM):
                    line = line[len(BOM) :]  # not part of the first line
                first = False
                if len(line) > self.max_bytes:
                    self._lines.put(_TOO_LONG)
                    return
                self._lines.put(line)
        except (OSError, ValueError):  # its output failed under us: it has ended for the runner
            pass
        finally:
            with contextlib.suppress(OSError):
                output.close()
        self._lines.put(_END)

    def _stop(self, why: str) -> Failure:
        """Stop the engine and everything it started; the failure that says why."""
        self._ended = f"the engine was stopped: {why}"
        self._kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        return Failure(f"{why} (the engine was stopped)")

    def _kill(self) -> None:
        """SIGKILL the engine's session and process group, every process it started that left them
        (``setsid``) while its parent still lives, and every process that carries this run's mark in
        its environment — a helper that double-forked and left the session, its parent gone, is
        found so — all through /proc, before the group goes."""
        alive = self.process.poll() is None  # its pid is its own until it is waited for
        pids = [*_descendants(self.process.pid), *([self.process.pid] if alive else []), *_marked(self._mark)]
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            os.killpg(self.process.pid, signal.SIGKILL)

    def _send(self, line: str) -> None:
        if self._ended is not None:  # stopped or ended before: every later question fails at once
            raise Failure(self._ended)
        data = (line + "\n").encode("utf-8")
        failed: list[OSError] = []

        def write() -> None:
            try:
                assert self.process.stdin is not None
                left = memoryview(data)
                while left:  # an unbuffered write may take part of it (a signal mid-write)
                    left = left[self.process.stdin.write(left) :]
            except OSError as exc:
                failed.append(exc)

        writer = self._writer = threading.Thread(target=write, name="conformance-engine-input", daemon=True)
        writer.start()
        writer.join(self.limit)
        if writer.is_alive():
            raise self._stop(f"it did not read its input within {seconds_text(self.limit)} s")
        if failed:  # its input closed: it ended (said so, as when its output ends), or closed it and lives on
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(1)
            if (code := self.process.poll()) is not None:
                self._ended = exit_text(code)
                raise Failure(self._ended)
            raise self._stop("it stopped reading its input")

    def _last(self) -> str:
        """What the engine wrote instead of the answer awaited, if anything: its last line of noise
        since the request (a line the runner refused is the likeliest reason it never answered)."""
        return f"; its last line was {self.noise[-1]}" if len(self.noise) > self._noise_at else ""

    def _next(self, timeout: float | None) -> str | Undecoded:
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            raise self._stop(f"no answer within {seconds_text(self.limit)} s{self._last()}") from None
        if line is _TOO_LONG:
            raise self._stop(f"an answer of more than {counted(self.max_bytes, 'bytes')}")
        assert isinstance(line, bytes)
        if line == _END:
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(1)  # its exit status, once it has ended
            if (code := self.process.poll()) is None:  # it closed its output and lives on
                raise self._stop("it closed its output")
            self._ended = exit_text(code) + self._last()  # every case after it says the same
            raise Failure(self._ended)
        try:
            return line.decode("utf-8")
        except UnicodeDecodeError as exc:  # noted as noise, never JSON
            return Undecoded(exc.start, line.rstrip(b"\r\n").decode("utf-8", "backslashreplace"))

    def close(self) -> None:
        """End the engine: its input closed (the protocol's "no more requests"), 10 s to end, then it
        and all it started are killed. Its pipes are closed by no thread that might still use them
        (the class's docstring says why): the input once its writer has ended; the output by its
        reader, which reads on to the end the kill brings — what it still holds is dropped here so
        that it is not kept waiting on a full queue."""
        self._close_input()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        self._kill()  # whatever it started and left running goes with it
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5)
        if self._writer is not None:
            self._writer.join(5)  # a write the engine never read fails once it has ended
        self._close_input()
        deadline = time.monotonic() + 5
        while self._reader.is_alive() and time.monotonic() < deadline:
            with contextlib.suppress(queue.Empty):
                while True:
                    self._lines.get_nowait()
            self._reader.join(0.02)
        # A reader still alive past that waits on a process out of the runner's reach (one that
        # holds the pipe and was not ours to kill): the output is left to it, never closed under it.

    def _close_input(self) -> None:
        """Close the engine's input unless a thread still writes to it (it ends when the engine does)."""
        writing = self._writer is not None and self._writer.is_alive()
        if self.process.stdin is not None and not writing:
            with contextlib.suppress(OSError):  # an engine that already ended
                self.process.stdin.close()


RUN_MARK = "TRIGGERSTACK_CONFORMANCE_RUN"
"""The variable of an engine's environment that names its run: inherited by every process it starts,
forked or exec'd, in its session or out of it."""


def _marked(mark: str) -> list[int]:
    """Every process (of ours: /proc lets us read only those) whose environment says ``mark`` — what
    an engine started, however far it went (Linux; none elsewhere)."""
    needle = f"{RUN_MARK}={mark}".encode()
    found = []
    me = os.getpid()
    with contextlib.suppress(OSError):
        for entry in os.scandir("/proc"):
            if not entry.name.isdigit() or int(entry.name) == me:
                continue
            with contextlib.suppress(OSError), open(f"/proc/{entry.name}/environ", "rb") as f:
                if needle in f.read().split(b"\0"):
                    found.append(int(entry.name))
    return found


def _descendants(pid: int) -> list[int]:
    """Every living descendant of ``pid`` (Linux's /proc children lists; none elsewhere)."""
    found: list[int] = []
    todo = [pid]
    while todo:
        here = todo.pop()
        try:
            tasks = list(Path(f"/proc/{here}/task").iterdir())
        except OSError:
            continue
        for task in tasks:
            with contextlib.suppress(OSError, ValueError):
                kids = [int(k) for k in (task / "children").read_text().split()]
                found.extend(kids)
                todo.extend(kids)
    return found
