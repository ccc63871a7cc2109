"""``triggerstack batch``: every line of every file answered in input order, the same bytes on one
process, on ``--jobs 2`` and on a Dask cluster of two workers — even when a worker is killed
mid-run (its blocks run again elsewhere: nothing lost, nothing twice).

Private unit: batch's runner (solver/serve/_jobs.run, and _result: how it waits for a block on Dask), the signal handling it relies on (solver/_errors: catch_ending, restore, ClusterLost) and the verb table it serves."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from triggerstack.solver import Options
from triggerstack.solver.serve._jobs import _result, run

from .conftest import PATIENCE, ROOT, wait_until

SCENARIOS = ROOT / "benchmarks" / "scenarios"


def _requests(path: Path, n: int) -> Path:
    scenario = json.loads((SCENARIOS / "mixed-4.json").read_text())
    proposal = json.loads((SCENARIOS / "mixed-4.proposal.json").read_text())
    with path.open("w") as f:
        for i in range(n):
            kind = ("check", "check", "count", "sample")[i % 4]
            params: dict[str, Any] = {"scenario": scenario}
            if kind == "check":
                params["proposal"] = proposal if i % 8 else {"stack": []}
            if kind == "sample":
                params |= {"n": 2, "seed": i}
            f.write(json.dumps({"method": kind, "params": params}) + "\n")
        f.write("not json\n")
        f.write(json.dumps({"method": "load", "params": {}}) + "\n")
    return path


def test_every_line_is_answered_in_order_locally(tmp_path: Path) -> None:
    source = _requests(tmp_path / "a.jsonl", 400)
    (one,), clean = run([str(source)], str(tmp_path / "one"))
    assert not clean  # the last two lines are errors
    (two,), _ = run([str(source)], str(tmp_path / "two"), jobs=2)
    assert one.read_bytes() == two.read_bytes()
    answers = [json.loads(line) for line in one.read_text().splitlines()]
    assert [a["line"] for a in answers] == list(range(1, 403))
    assert answers[-2]["error"]["code"] == -32700 and answers[-1]["error"]["code"] == -32600
    assert answers[2]["result"] == {"count": answers[6]["result"]["count"]}
    assert answers[0]["result"]["legal"] is False and answers[1]["result"]["legal"] is True
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "batch", str(source), "--out", str(tmp_path / "cli")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and (tmp_path / "cli" / "a.out.jsonl").read_bytes() == one.read_bytes()


ERTAI = ROOT / "examples" / "ertai-resurrected"
WALK = ["put SWB", "put SWA", "put E", "mode E:destroy", "end modes", "target warden_a", "end targets"]
ASKED: dict[str, dict[str, Any]] = {
    "check": {"proposal": json.loads((ERTAI / "illegal.json").read_text())},
    "count": {"divide": True},
    "enumerate": {"limit": 3, "cursor": "2"},
    "sample": {"n": 2, "seed": 7},
    "best": {"score": {"mode": {"E": {"destroy": 5}}}},
    "explain": {},
    "step.legal": {"decisions": WALK[:3], "auto": True},
    "step.apply": {"decisions": WALK[:3], "decision": "mode E:destroy"},
    "step.why": {"decisions": WALK[:1], "decision": "put E"},
    "step.mask": {"decisions": WALK[:2]},
    "step.outcome": {"decisions": WALK},
    "step.count": {"decisions": WALK[:1]},
    "draw": {"decisions": WALK[:4], "width": 400},
    "card": {"name": "Ertai Resurrected"},
}
"""A question for each verb of the table, about Ertai Resurrected (docs/python.md's walk)."""


def test_a_batch_serves_every_verb_of_the_table_as_the_server_does(tmp_path: Path) -> None:
    """Each verb of the one table (``solver/_verbs/table.py``), a new one too, is a batch line's
    method: its answer line is what the server answers the same request (a verb added to the table
    with no question here fails)."""
    from triggerstack.solver._verbs.table import VERBS
    from triggerstack.solver.serve import Service

    assert set(ASKED) == {v.name for v in VERBS}, "a question for every verb of the table"
    scenario = yaml.safe_load((ERTAI / "scenario.yaml").read_text())
    requests = [
        {"method": v.name, "params": {**({"scenario": scenario} if v.scenario else {}), **ASKED[v.name]}}
        for v in VERBS
    ]
    source = tmp_path / "every.jsonl"
    source.write_text("".join(json.dumps(r) + "\n" for r in requests))
    (answers,), clean = run([str(source)], str(tmp_path / "out"))
    got = [json.loads(line) for line in answers.read_text().splitlines()]
    service = Service()
    for n, (request, line) in enumerate(zip(requests, got, strict=True), 1):
        served = json.loads(service.handle(json.dumps({"jsonrpc": "2.0", "id": n, **request})) or "")
        assert "result" in served and line == {"line": n, "result": served["result"]}, (request["method"], served)
    assert clean


@pytest.fixture
def patient_dask() -> Iterator[None]:
    """Dask's connection and start-up waits made generous (30 s by default): a cluster on a machine
    another process keeps busy starts late, which is no failure of the batch."""
    dask = pytest.importorskip("dask")
    # distributed's defaults join dask's config as it is imported: imported inside the set below, they
    # would leave with it, and every later Dask test would find no 'distributed' config at all
    pytest.importorskip("distributed")
    with dask.config.set({"distributed.comm.timeouts.connect": "300s", "distributed.comm.timeouts.tcp": "300s"}):
        yield


@pytest.mark.slow
@pytest.mark.usefixtures("patient_dask")
def test_a_dask_cluster_gives_the_same_bytes_even_when_a_worker_dies(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    source = _requests(tmp_path / "b.jsonl", 6000)
    (local,), _ = run([str(source)], str(tmp_path / "local"))
    with (
        _local_cluster(distributed, n_workers=2, threads_per_worker=1) as cluster,
        distributed.Client(cluster) as client,
    ):
        (clustered,), _ = run([str(source)], str(tmp_path / "cluster"), client=client, block=200)
        assert clustered.read_bytes() == local.read_bytes()

        pids = client.run(os.getpid)
        victim = sorted(pids.values())[0]
        timer = threading.Timer(0.7, os.kill, (victim, signal.SIGKILL))  # mid-run
        timer.start()
        started = time.perf_counter()
        (survived,), _ = run([str(source)], str(tmp_path / "killed"), client=client, block=200)
        timer.join()
        assert time.perf_counter() - started > 0.7, "the run outlived the worker"
        assert survived.read_bytes() == local.read_bytes()


class _Racing:
    """A Dask future as dask/distributed#8514 leaves one on a busy machine: asked for its result with a
    timeout, the wait loses it (``UnboundLocalError`` from distributed's ``sync``); asked once it is
    done, it answers. It is done after ``polls`` looks."""

    def __init__(self, polls: int) -> None:
        self.polls, self.asked = polls, 0

    def done(self) -> bool:
        self.polls -= 1
        return self.polls <= 0

    def result(self, timeout: float | None = None) -> list[str]:
        self.asked += 1
        if timeout is not None:
            raise UnboundLocalError("cannot access local variable 'result' where it is not associated with a value")
        assert self.polls <= 0, "asked for the result before it was done: the wait is the result's own"
        return ['{"line":1,"result":{}}']


class _Cluster:
    def __init__(self, workers: int) -> None:
        self.workers = workers

    def scheduler_info(self) -> dict[str, Any]:
        return {"workers": {f"w{k}": {} for k in range(self.workers)}}


def test_a_block_is_waited_for_by_its_state_and_asked_for_once_done() -> None:
    """A loaded run failed the Dask test with the ``UnboundLocalError`` of #8514: the batch polled
    ``future.result(timeout=0.5)``. Now it looks at whether the block is done and asks once; with no
    worker it still gives up after ``no_worker`` seconds."""
    from triggerstack.solver._errors import ClusterLost

    future = _Racing(polls=5)
    assert _result(future, _Cluster(2), no_worker=30) == ['{"line":1,"result":{}}'] and future.asked == 1
    never = _Racing(polls=10**9)
    started = time.monotonic()
    with pytest.raises(ClusterLost, match=r"no worker for 0\.3 s"):
        _result(never, _Cluster(0), no_worker=0.3)
    assert never.asked == 0 and time.monotonic() - started < PATIENCE


class _Lost:
    """A Dask future done on a worker killed since: asked for its result, distributed gathers it from
    that worker and, finding it gone, waits for another to compute it again — with none, for ever
    (here: for ``hang`` seconds, then an error no wait gives)."""

    def __init__(self, hang: float) -> None:
        self.hang, self.asked = hang, 0

    def done(self) -> bool:
        return True

    def result(self, timeout: float | None = None) -> list[str]:
        self.asked += 1
        threading.Event().wait(timeout if timeout is not None else self.hang)
        raise RuntimeError("the test's fake waited its whole time")


def test_a_done_block_whose_worker_was_killed_fails_in_bounded_time() -> None:
    """A clean-clone run hung for ever in the test that kills every worker: the block was done,
    and fetching its answers waited for a worker to compute them again. The fetch is waited for as
    the block is: at most ``no_worker`` seconds while the cluster has no worker."""
    from triggerstack.solver._errors import ClusterLost

    lost = _Lost(hang=PATIENCE)
    started = time.monotonic()
    with pytest.raises(ClusterLost, match=r"no worker for 0\.3 s"):
        _result(lost, _Cluster(0), no_worker=0.3)
    assert lost.asked == 1 and time.monotonic() - started < PATIENCE / 2


def test_an_unreachable_scheduler_is_one_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from triggerstack.solver._errors import ClusterLost

    source = _requests(tmp_path / "c.jsonl", 3)
    with pytest.raises(ClusterLost, match="cannot reach"):
        run([str(source)], str(tmp_path), scheduler="tcp://127.0.0.1:9", options=Options(time_limit=1))
    assert not list(tmp_path.glob("c.out.jsonl")), "nothing half-written"


# -- what could go wrong around the work (issue 21 item 5) ----------------------------------------


def _local_cluster(distributed: Any, **kw: Any) -> Any:
    """A local Dask cluster of processes that takes no fixed port: without a dashboard its
    scheduler still serves HTTP on Dask's default 8787, and where another run on the machine holds
    it (a second worker of this suite, another checkout's), Dask warns, which this suite raises —
    red on a busy machine only. Port 0 takes any free one."""
    return distributed.LocalCluster(
        processes=True, dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"}, **kw
    )


def test_a_local_cluster_starts_beside_another_holding_dasks_default_port() -> None:
    distributed = pytest.importorskip("distributed")
    import socket

    with socket.socket() as held:
        held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        with contextlib.suppress(OSError):  # held already, by another run: the same test
            held.bind(("0.0.0.0", 8787))
        held.listen()
        with _local_cluster(distributed, n_workers=0) as cluster:  # raises on Dask's port warning before
            assert cluster.scheduler.http_server.port != 8787


def _cli(*argv: str, **kw: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "triggerstack.solver", *argv], capture_output=True, text=True, check=False, **kw)


def test_outputs_that_would_collide_are_refused_before_anything_runs(tmp_path: Path) -> None:
    """Two inputs of the same name with one --out used to overwrite each other, exit 0."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _requests(tmp_path / "a" / "x.jsonl", 3)
    second = _requests(tmp_path / "b" / "x.jsonl", 5)
    done = _cli("batch", str(first), str(second), "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and "would both write" in done.stderr and str(second) in done.stderr
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())  # nothing ran


def test_a_bad_output_path_exits_2_and_a_failed_write_74(tmp_path: Path) -> None:
    """An answer file that is a directory, or --out that is a file: exit 2 naming it (they gave 70,
    'a bug'). A write that fails midway (here the file-size limit, as a full disk would): exit 74,
    nothing half-written left."""
    source = _requests(tmp_path / "d.jsonl", 50)
    (tmp_path / "d.out.jsonl").mkdir()
    done = _cli("batch", str(source))
    assert done.returncode == 2 and "is a directory" in done.stderr
    (tmp_path / "d.out.jsonl").rmdir()
    (tmp_path / "file").write_text("")
    done = _cli("batch", str(source), "--out", str(tmp_path / "file"))
    assert done.returncode == 2 and "is not a directory" in done.stderr

    def small_files() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG) instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = _cli("batch", str(source), "--out", str(tmp_path / "full"), preexec_fn=small_files)
    assert done.returncode == 74 and "cannot write" in done.stderr and "Traceback" not in done.stderr
    assert not list((tmp_path / "full").iterdir())


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.update(int(t) for t in text)
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in status and "\nState:\tX" not in status


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs /proc")
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    """SIGKILL gives the parent no chance to end its workers: they used to live on forever (each
    forked worker held the other pipes' ends, so none read end of file)."""
    source = _requests(tmp_path / "w.jsonl", 20000)
    parent = subprocess.Popen(
        [sys.executable, "-m", "triggerstack.solver", "check", "--batch", str(source), "--jobs", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until(lambda: len(_children(parent.pid)) >= 2, "the workers start")
        workers = _children(parent.pid)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=PATIENCE)
        wait_until(lambda: not any(_alive(w) for w in workers), "the workers end with their parent")
    finally:
        for w in _children(parent.pid) if parent.poll() is None else set():
            os.kill(w, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()


# -- batch under kills, and its files' modes (issue 39) --------------------------------------------


def _leftovers(folder: Path, name: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(f".{name}.")]


def _writing_a_part(tmp_path: Path, name: str, stderr: int, *more: str) -> subprocess.Popen[str]:
    """A batch of 20,000 lines into ``tmp_path/out`` (in a session of its own), caught mid-run: its
    part file holds some answers and the run — its whole process group — is stopped (SIGSTOP), so
    a signal the caller sends reaches a run still under way, however busy the machine (on a loaded
    one the run could finish between a look at its part and the signal: exit 1, not the signal's).
    The caller sends its signal, then :func:`_resume`."""
    source = _requests(tmp_path / f"{name}.jsonl", 20000)
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "triggerstack.solver", "batch", str(source), "--out", str(out), *more]
    running = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr, text=True, start_new_session=True)
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and running.poll() is None:
        if out.exists() and any(p.stat().st_size for p in _leftovers(out, f"{name}.out.jsonl")):
            os.killpg(running.pid, signal.SIGSTOP)  # frozen: now look again, with nothing moving
            if running.poll() is None and any(p.stat().st_size for p in _leftovers(out, f"{name}.out.jsonl")):
                return running
            _resume(running)
        time.sleep(0.02)
    running.kill()
    running.wait()
    raise AssertionError("the run was never caught mid-way with a part written")


def _resume(running: subprocess.Popen[str]) -> None:
    """Let the stopped run go on: signals sent while it was stopped reach it now."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(running.pid, signal.SIGCONT)


def test_a_run_killed_outright_leaves_a_part_that_the_next_run_removes(tmp_path: Path) -> None:
    """SIGKILL gives the writer no chance to remove its part file (it used to stay for ever, 7 MB
    of it); the next run for the same answer file removes it, since no live writer holds it."""
    out = tmp_path / "out"
    killed = _writing_a_part(tmp_path, "k", subprocess.DEVNULL)
    killed.kill()
    killed.wait()
    assert _leftovers(out, "k.out.jsonl") and not (out / "k.out.jsonl").exists()
    small = _requests(tmp_path / "k2.jsonl", 3)
    (small.parent / "k.jsonl").write_bytes(small.read_bytes())  # the same answer file, quickly
    done = _cli("batch", str(tmp_path / "k.jsonl"), "--out", str(out))
    assert done.returncode == 1, done.stderr  # its last two lines are errors
    assert _leftovers(out, "k.out.jsonl") == [] and (out / "k.out.jsonl").exists()


def test_a_part_another_live_run_is_writing_is_left_alone(tmp_path: Path) -> None:
    import fcntl

    out = tmp_path / "out"
    out.mkdir()
    live = out / ".l.out.jsonl.abcd1234.part"
    live.write_text("half")
    with live.open("rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        run([str(_requests(tmp_path / "l.jsonl", 3))], str(out))
        assert live.exists(), "a live run's part was removed"
    run([str(tmp_path / "l.jsonl")], str(out))
    assert not live.exists()


@pytest.mark.parametrize(("umask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_the_answer_file_gets_the_mode_the_umask_gives_a_new_file(tmp_path: Path, umask: int, mode: int) -> None:
    """A part file is made private (mkstemp) and renamed into place: it kept 0600 under umask 022."""
    source = _requests(tmp_path / "m.jsonl", 3)
    done = _cli("batch", str(source), "--out", str(tmp_path / "out"), preexec_fn=lambda: os.umask(umask))
    assert done.returncode == 1, done.stderr
    assert (tmp_path / "out" / "m.out.jsonl").stat().st_mode & 0o777 == mode


@pytest.mark.slow
@pytest.mark.usefixtures("patient_dask")
def test_a_cluster_whose_every_worker_is_killed_fails_in_bounded_time(tmp_path: Path) -> None:
    """The batch used to wait for ever for a worker; now it waits ``no_worker`` seconds, says the
    cluster is lost, and writes nothing."""
    distributed = pytest.importorskip("distributed")
    from triggerstack.solver._errors import ClusterLost

    source = _requests(tmp_path / "n.jsonl", 20000)
    with (
        _local_cluster(distributed, n_workers=0) as cluster,
        distributed.Client(cluster) as client,
    ):
        worker = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address, "--no-nanny",
             "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            client.wait_for_workers(1, timeout=60)
            threading.Timer(1.0, worker.kill).start()  # mid-run
            started = time.perf_counter()
            with pytest.raises(ClusterLost, match="no worker for 3 s"):
                run([str(source)], str(tmp_path / "out"), client=client, block=200, no_worker=3)
            assert 3 <= time.perf_counter() - started < 60
        finally:
            worker.kill()
            worker.wait()
    assert not list((tmp_path / "out").iterdir()), "nothing half-written"


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.0, 2.5])
def test_a_scheduler_killed_at_any_moment_is_one_failure(tmp_path: Path, after: float) -> None:
    """Killing the scheduler exited 70 (an internal error) or 2, depending on the moment: now 69,
    'the Dask cluster is lost', with nothing written and no traceback, before or during the run."""
    pytest.importorskip("distributed")
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    source = _requests(tmp_path / "s.jsonl", 20000)
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--port", str(port), "--no-dashboard"], **quiet
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard"], **quiet
    )
    try:
        import distributed

        with distributed.Client(address, timeout=60) as probe:  # type: ignore[no-untyped-call]
            probe.wait_for_workers(1, timeout=60)
        batch = subprocess.Popen(
            [sys.executable, "-m", "triggerstack.solver", "batch", str(source), "--out", str(tmp_path / "out"),
             "--scheduler", address, "--time-limit", "10"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(after)
        scheduler.kill()
        _, err = batch.communicate(timeout=120)
        assert batch.returncode == 69, err
        assert "the Dask cluster is lost" in err and "Traceback" not in err and len(err.splitlines()) == 1, err
    finally:
        for p in (scheduler, worker):
            p.kill()
            p.wait()
    assert not (tmp_path / "out").exists() or not list((tmp_path / "out").iterdir())


# -- scheduler addresses and signals that end a run (issue 51) -------------------------------------


@pytest.mark.parametrize(
    "address", ["file:///tmp/x", "http://127.0.0.1:8786", "tcp://", "127.0.0.1", "tcp://[::1", "tcp://[::g]:1",
                "tcp://127.0.0.1:0", "tcp://127.0.0.1:65536", "tcp://a b:1", "inproc://x", "tcp://h:1/path", ""],
)  # fmt: skip
def test_a_malformed_scheduler_address_is_bad_input_naming_it(tmp_path: Path, address: str) -> None:
    """file://, http://, tcp://, 127.0.0.1, tcp://[::1 were exit 70 "internal error: ValueError"."""
    source = _requests(tmp_path / "a.jsonl", 1)
    done = _cli("batch", str(source), "--scheduler", address, "--out", str(tmp_path / "out"), timeout=60)
    assert done.returncode == 2, done.stderr
    assert "--scheduler" in done.stderr and "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert not (tmp_path / "out" / "a.out.jsonl").exists()


class _Port:
    """A loopback port that accepts and then never speaks, or answers anything with ``reply``."""

    def __init__(self, reply: bytes | None) -> None:
        import socket

        self.server = socket.create_server(("127.0.0.1", 0))
        self.address = f"tcp://127.0.0.1:{self.server.getsockname()[1]}"
        self.held: list[Any] = []
        self.reply = reply
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.held.append(conn)
            if self.reply is not None:
                try:
                    conn.recv(65536)
                    conn.sendall(self.reply)
                except OSError:
                    pass

    def close(self) -> None:
        self.server.close()
        for conn in self.held:
            conn.close()


@pytest.mark.parametrize(
    "reply",
    [None, b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", b"SSH-2.0-OpenSSH_9.6\r\n", b"\x00" * 8 + b"\xff" * 8],
    ids=["silent", "http", "ssh", "frames"],
)
def test_a_port_that_is_no_dask_scheduler_is_unavailable_within_the_time_limit(tmp_path: Path, reply: bytes | None) -> None:
    """A port that accepts and never speaks hung `batch --time-limit 3` for 90 s and on; a port of
    another service was exit 70 "out of memory" (its answer read as a frame of exabytes)."""
    pytest.importorskip("distributed")
    source = _requests(tmp_path / "s.jsonl", 2)
    port = _Port(reply)
    try:
        done = _cli("batch", str(source), "--scheduler", port.address, "--time-limit", "2", "--out", str(tmp_path),
                    timeout=120)  # fmt: skip
    finally:
        port.close()
    assert done.returncode == 69, done.stderr
    assert "Dask" in done.stderr and "Traceback" not in done.stderr and "memory" not in done.stderr
    assert not list(tmp_path.glob("s.out.jsonl")) and not _leftovers(tmp_path, "s.out.jsonl")


@pytest.mark.parametrize(("sig", "code"), [(signal.SIGHUP, 129), (signal.SIGTERM, 143), (signal.SIGINT, 130)])
@pytest.mark.parametrize("to", ["process", "group-of-jobs-2"])
def test_a_signal_that_ends_a_run_leaves_nothing_half_written(tmp_path: Path, sig: int, code: int, to: str) -> None:
    """SIGHUP mid-run left a 1-7 MB part file: every signal that ends a run ends it as an exception
    where it is, and the part is removed on the way out — also when a hang-up reaches the whole
    group, the workers of --jobs 2 included (they leave it to their parent)."""
    out = tmp_path / "out"
    running = _writing_a_part(tmp_path, "h", subprocess.PIPE, *(["--jobs", "2"] if to != "process" else []))
    try:
        if to == "process":
            running.send_signal(sig)
        else:
            os.killpg(running.pid, sig)
        _resume(running)
        _, err = running.communicate(timeout=180)
    finally:
        if running.poll() is None:
            running.kill()
            running.wait()
    assert running.returncode == code, err
    assert _leftovers(out, "h.out.jsonl") == [] and not (out / "h.out.jsonl").exists()
    assert "Traceback" not in err


def test_a_hang_up_ignored_at_the_start_stays_ignored() -> None:
    """Under nohup SIGHUP is ignored, and a run must go on: only the signals not ignored are caught."""
    from triggerstack.solver._errors import catch_ending, restore

    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        caught = catch_ending()
        try:
            assert signal.getsignal(signal.SIGHUP) is signal.SIG_IGN
            assert signal.SIGTERM in caught and signal.SIGHUP not in caught
        finally:
            restore(caught)
    finally:
        signal.signal(signal.SIGHUP, before)
