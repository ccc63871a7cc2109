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
