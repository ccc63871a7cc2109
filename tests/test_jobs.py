"""``triggerstack batch``: every line of every file answered in input order, the same bytes on one
process, on ``--jobs 2`` and on a Dask cluster of two workers — even when a worker is killed
mid-run (its blocks run again elsewhere: nothing lost, nothing twice)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from triggerstack.solver import Options
from triggerstack.solver.serve.jobs import run

from .conftest import ROOT

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


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_bytes_even_when_a_worker_dies(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    source = _requests(tmp_path / "b.jsonl", 6000)
    (local,), _ = run([str(source)], str(tmp_path / "local"))
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster,
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


def test_an_unreachable_scheduler_is_one_clear_error(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    from triggerstack.model import ScenarioError

    source = _requests(tmp_path / "c.jsonl", 3)
    with pytest.raises(ScenarioError, match="cannot reach"):
        run([str(source)], str(tmp_path), scheduler="tcp://127.0.0.1:9", options=Options(time_limit=1))
    assert not list(tmp_path.glob("c.out.jsonl")), "nothing half-written"


# -- what could go wrong around the work (issue 21 item 5) ----------------------------------------


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
        workers: set[int] = set()
        for _ in range(200):
            workers = _children(parent.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        assert len(workers) >= 2, "the workers did not start"
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers)
    finally:
        for w in _children(parent.pid) if parent.poll() is None else set():
            os.kill(w, signal.SIGKILL)
        if parent.poll() is None:
            parent.kill()
