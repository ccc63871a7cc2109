"""Shared helpers for the test suite, and its hypothesis profiles.

``HYPOTHESIS_PROFILE=ci`` (the default, what CI runs) draws 100 examples per property (hypothesis's
own default; a property may scale it, each saying why); ``HYPOTHESIS_PROFILE=full`` 300, for a deep
hunt after a change to the solver or the judge (the suite's properties took 41% of its CPU at 300,
and the suite twice the 10 minutes it is kept under on 2 cores); ``HYPOTHESIS_PROFILE=dev`` 30, for
a quick run while working (with ``-m "not slow"`` to skip the long tests as well; see the README).

No test asserts a wall time: the suite must stay green on a machine another process keeps busy.
A bound on how long something may run is CPU time (:func:`cpu_within`, :func:`cpu_bounded`), a
time limit a test expects to hold is generous, and a figure belongs in ``benchmarks/``.

Private unit: ``solver/_cli.main``, the command line the ``triggerstack`` script runs, which the
command-line tests call in this process through :func:`main` (one door, rather than each test's own).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import ParamSpec, TypeVar

import pytest
from hypothesis import HealthCheck, settings

# print_blob: a failure's log carries the @reproduce_failure line that replays it (hypothesis
# 6.170.27 prints a dict argument of a failing case as "doc=,", so the log alone could not say which)
settings.register_profile(
    "full",
    max_examples=300,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile("ci", settings.get_profile("full"), max_examples=100)
settings.register_profile("dev", settings.get_profile("full"), max_examples=30)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# The suite is true however busy its machine is: no test that does not test the time limit may
# depend on how fast the machine is, so the default time limit of every verb — in this process,
# and in every command line a test starts — is ten times the product's (docs/cli.md, Limits: the
# environment's TRIGGERSTACK_TIME_LIMIT). A test of the limit gives its own. Before, a test of the
# answer cap ran into the default 60 s of wall time on a saturated machine (exit 3 for the 2 it
# asked: issue 52's run 2 of 3 under load).
os.environ.setdefault("TRIGGERSTACK_TIME_LIMIT", "600")

# The suite is true however it is launched. A background job of a shell script (``cmd &``) starts
# with SIGINT ignored, ``nohup`` with SIGHUP ignored, and an ignored signal stays ignored in every
# process started from it: the tests that end a batch with Ctrl-C or a hang-up then saw it run on
# to the end (exit 1, not 130 or 129 — tools/under_load.py, launched so, found it). The tests'
# processes take the signals as a terminal's program does (a run under nohup keeps running on a
# hang-up, as solver/_errors.py's ENDING says: that is nohup's point, not a test's).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, signal.SIG_DFL)

# Issue 52, stop 68: under load two xdist workers were killed by the kernel at 23 GB of memory,
# reported only as "node down" in whatever test was running. Until the cause is found, each test
# process watches its own size: past TRIGGERSTACK_TEST_MEMORY_MB (4,096; the suite's workers peak
# near 1 GB) it writes every thread's stack, once, to triggerstack-memory-<pid>.txt in the temporary
# folder and says so on stderr — what was growing, and where, before the kernel's kill hides it.
_MEMORY_MB = int(os.environ.get("TRIGGERSTACK_TEST_MEMORY_MB", "4096"))


def _watch_memory() -> None:
    import faulthandler
    import tempfile

    while True:
        time.sleep(1)
        with contextlib.suppress(OSError, ValueError), open("/proc/self/status") as status:
            rss = next((int(line.split()[1]) // 1024 for line in status if line.startswith("VmRSS:")), 0)
            if rss > _MEMORY_MB:
                where = Path(tempfile.gettempdir()) / f"triggerstack-memory-{os.getpid()}.txt"
                with open(where, "w", encoding="utf-8") as out:
                    out.write(f"{rss} MB in {os.environ.get('PYTEST_CURRENT_TEST', '?')}\n")
                    out.flush()
                    faulthandler.dump_traceback(out, all_threads=True)
                print(f"tests: this process holds {rss} MB; every thread's stack is in {where}", file=sys.__stderr__)
                return


if sys.platform == "linux":
    import threading

    threading.Thread(target=_watch_memory, name="tests-memory-watch", daemon=True).start()


@pytest.fixture
def cpu_clock() -> Iterator[None]:
    """Within a test: every deadline reads the process's CPU time, not the wall's (model/_limits.py,
    ``clock``). A test that sets aside the inputs too large to answer within a time limit then sets
    aside the same ones however busy the machine is: with wall time, a saturated machine timed out
    a case hypothesis had run whole, and its replay drew other data (FlakyStrategyDefinition)."""
    from triggerstack.model import _limits

    wall, _limits.clock = _limits.clock, time.process_time
    try:
        yield
    finally:
        _limits.clock = wall


def main(argv: Sequence[str] | None = None) -> int:
    """``triggerstack ARGV`` run in this process, as the console script runs it but without ending the
    process: its exit code; what it writes is in the captured output (``capsys``)."""
    from triggerstack.solver._cli import main as command_line

    return command_line(argv)


ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "scenario.yaml").exists())
"""The example scenarios (examples/rl holds the RL scripts, not a scenario)."""
CASES = Path(__file__).resolve().parent / "cases"


@contextlib.contextmanager
def serving(*flags: str) -> Iterator[str]:
    """A ``serve --http`` process on a free loopback port for the duration of a ``with``, with
    ``flags`` (its limits, say) after its own: its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-m", "triggerstack.solver", "serve", "--http", str(port), *flags]
    server = subprocess.Popen(command, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: server.poll() is not None or answers_health(url), "the server answers /health")
        assert server.poll() is None, "the server ended"
        yield url
    finally:
        server.terminate()
        server.wait(timeout=PATIENCE)


_P = ParamSpec("_P")
_R = TypeVar("_R")


@contextmanager
def cpu_within(seconds: float, what: str) -> Iterator[None]:
    """The block spends less than ``seconds`` of this process's CPU time (every thread's; a child
    process's is not counted): a bound that a busy machine does not move, where wall time does."""
    started = time.process_time()
    yield
    spent = time.process_time() - started
    assert spent < seconds, f"{what}: {spent:.2f} s of CPU, more than {seconds:g} s"


def cpu_bounded(seconds: float) -> Callable[[Callable[_P, _R]], Callable[_P, _R]]:
    """:func:`cpu_within` around each call of a test (each example of a property): hypothesis's own
    ``deadline`` is wall time, which a loaded machine runs past."""

    def bound(test: Callable[_P, _R]) -> Callable[_P, _R]:
        @functools.wraps(test)
        def bounded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
            with cpu_within(seconds, test.__name__):
                return test(*args, **kwargs)

        return bounded

    return bound


PATIENCE = 120.0
"""Seconds a test waits for a process or a thread to end once told to (or for one it does not time
to answer): generous, for what a test asserts is how it ends, not how soon. A loaded machine (load 6
on 2 cores, tools/under_load.py) stretched a batch's exit on SIGTERM past the 20 s a test gave it
(stop 74); tests/test_suite_waits.py holds every wait the tests write as a number to at least this."""


def wait_until(ready: Callable[[], bool], what: str, seconds: float = PATIENCE) -> None:
    """Polls ``ready`` until it holds. A bound on the test (something that never happens fails after
    ``seconds``), not a timing: a server or a worker starts as fast as the machine lets it."""
    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"{what} within {seconds:g} s"
        time.sleep(0.05)


def answers_health(url: str) -> bool:
    """Whether the HTTP service at ``url`` answers /health (for :func:`wait_until`)."""
    import httpx

    try:
        return bool(httpx.get(url + "/health", timeout=10).json() == {"status": "ok"})
    except httpx.TransportError:
        return False


JAVA = ["java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
"""The JVM as the tests start it: the quick compiler alone (a run of the conformance runner is short)."""


@pytest.fixture(scope="session")
def java_classes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """clients/java's conformance runner and client, with the tests' driver of many runs
    (tests/doubles/RunnerTable.java), compiled once a session into a temporary folder; every test
    that needs them is skipped, saying why, where there is no JDK."""
    if shutil.which("javac") is None:
        pytest.skip("no JDK on this machine (javac): the Java runner is not compiled")
    out = tmp_path_factory.mktemp("java")
    sources = [ROOT / "clients" / "java" / n for n in ("TriggerStackClient.java", "ConformanceRunner.java")]
    sources.append(ROOT / "tests" / "doubles" / "RunnerTable.java")
    subprocess.run(["javac", "-d", str(out), *map(str, sources)], check=True, timeout=300)
    return out


def load_script(path: Path) -> ModuleType:
    """A script of the clone that is no module of the package (``conformance/build.py``, a
    benchmark), loaded as a module under its file's name so a test can call its functions."""
    spec = importlib.util.spec_from_file_location(f"script_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
