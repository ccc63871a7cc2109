"""The conformance runner's pipes to an engine are closed by no thread that may still use them.

Found under load (tests/test_attacks_67b.py runs four Python runners in threads): an engine's answer
to ``load`` reached the runner without its opening ``{``, was noted as noise, and the case failed at
the time limit. Mechanism: ``ProcessEngine.close`` closed the engine's output while the thread reading
it could still be between two reads; the freed descriptor was reused by the pipe of the next engine
another thread started, and the stale read took that engine's first byte. The input had the same
shape (a writer thread left alive by a timed-out request). Fix: each pipe is closed by the thread
that uses it, or once that thread has ended (solver/conformance/_process.py, ``ProcessEngine``).
The same shape, planted: ``batch --jobs N`` closed the pipes to its workers while its feeder thread
could still be writing to them (a batch stopped early: ``| head -1``, Ctrl-C).

Private unit: solver/serve/_batch.py check_lines (every batch door's pipes to its workers).

The tests hold the mechanism, not the race: every use and close of a pipe is recorded, a thread is
held up at the moment the race needs (right after a read or a failed write), and no pipe may be
closed while a thread other than the closer that used it is still alive.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Generator
from typing import Any, cast

import pytest
from triggerstack.solver.conformance import Failure, ProcessEngine


class _Watched:
    """A pipe that records which threads use it and who closes it while any of them lives on. The
    first read that returns a line, or the first write that fails or is cut short, is held up ``hold`` seconds — the
    moment a descheduled thread is in when another thread closes the pipe under it."""

    def __init__(self, real: Any, hold: float) -> None:
        self.real, self.hold = real, hold
        self.users: set[threading.Thread] = set()
        self.closed_under: list[str] = []
        self.held = False

    def _use(self) -> None:
        self.users.add(threading.current_thread())

    def _hold_once(self) -> None:
        if not self.held:
            self.held = True
            time.sleep(self.hold)

    def readline(self, size: int = -1) -> bytes:
        self._use()
        line: bytes = self.real.readline(size)
        if line:
            self._hold_once()
        return line

    def write(self, data: Any) -> int:
        self._use()
        try:
            written = int(self.real.write(data))
        except OSError:
            self._hold_once()
            raise
        if written < len(data):  # the engine stopped reading mid-request
            self._hold_once()
        return written

    def flush(self) -> None:
        self.real.flush()

    def close(self) -> None:
        me = threading.current_thread()
        self.closed_under += [t.name for t in self.users if t is not me and t.is_alive()]
        self.real.close()

    @property
    def closed(self) -> bool:
        return bool(self.real.closed)


def _watching(monkeypatch: pytest.MonkeyPatch, hold: float) -> list[subprocess.Popen[bytes]]:
    """Every process the runner starts from now on has its pipes watched; the list of them."""
    started: list[subprocess.Popen[bytes]] = []
    real_popen = subprocess.Popen

    class Watching(real_popen):  # type: ignore[valid-type,misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.stdin: Any = _Watched(self.stdin, hold)
            self.stdout: Any = _Watched(self.stdout, hold)
            started.append(self)

    monkeypatch.setattr(subprocess, "Popen", Watching)
    return started


def test_the_output_is_not_closed_under_its_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that says one line and ends; its reader is held up right after that line while the
    runner closes the engine — the moment the next engine's pipe could take the freed descriptor."""
    started = _watching(monkeypatch, hold=1.0)
    engine = ProcessEngine([sys.executable, "-c", "print('a line', flush=True)"], seconds=30)
    time.sleep(0.3)  # the line is read and the reader held
    engine.close()
    output = started[0].stdout
    assert isinstance(output, _Watched)
    assert output.closed_under == []
    assert output.closed  # and it is not left open: its reader closes it


def test_the_input_is_not_closed_under_a_writer_the_engine_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine that never reads: a request larger than a pipe holds keeps its writer thread waiting
    past the limit; the engine is stopped, the write fails, and the writer is held up there while the
    runner closes the engine."""
    started = _watching(monkeypatch, hold=1.0)
    engine = ProcessEngine([sys.executable, "-c", "import time; time.sleep(60)"], seconds=0.5)
    with pytest.raises(Failure, match="did not read its input"):
        engine.call("load", {"scenario": "x" * 1_000_000})
    engine.close()
    pipe = started[0].stdin
    assert isinstance(pipe, _Watched)
    assert pipe.closed_under == []
    assert pipe.closed


def _numbered(n: int, line: object, shared: object, options: object) -> str:
    """A batch's answer to a line, as a worker gives it (module level: a worker may be spawned)."""
    return str(n)


def test_a_batch_stopped_early_closes_no_pipe_under_its_feeder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two workers, an input that is slow after its first line (the feeder waits on it), and a
    reader that stops after the first answer: the pipes may not be closed while the feeder lives."""
    from multiprocessing.connection import Connection

    from triggerstack.solver.serve import _batch

    closed_under: list[str] = []
    real_close = Connection.close

    def close(self: Connection) -> None:
        me = threading.current_thread()
        feeders = [t for t in threading.enumerate() if t.name == "triggerstack-batch-feeder" and t is not me]
        closed_under.extend(t.name for t in feeders if t.is_alive())
        real_close(self)

    monkeypatch.setattr(Connection, "close", close)
    monkeypatch.setattr(_batch, "CHUNK", 1)
    more = threading.Event()

    def lines() -> Any:
        yield 1, "a line"
        more.wait(10)  # the input is slow: the feeder waits on it
        yield 2, "a line"

    answers = cast(Generator[str, None, None], _batch.check_lines(lines(), None, 2, answer=_numbered))
    assert next(answers) == "1"
    answers.close()
    more.set()
    assert closed_under == []
