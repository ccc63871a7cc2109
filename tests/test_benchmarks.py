"""The benchmark runner's smoke test (``--quick``): every operation on every engine runs, and
the engines' counts and optima agree (the runner stops on a disagreement). No timing is judged."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.slow


def test_quick_benchmark_runs_and_engines_agree(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("bench_all", ROOT / "benchmarks" / "bench_all.py")
    assert spec is not None and spec.loader is not None
    bench_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_all)
    assert bench_all.main(["--quick", "--out", str(tmp_path)]) == 0
    records = json.loads((tmp_path / "results.json").read_text())
    assert {r["operation"] for r in records} == {"check", "count", "enumerate", "sample", "best", "step"}
    assert {r["engine"] for r in records} >= {"product", "cpsat", "constraint", "simulator", "check"}
    assert "| count | abilities-4 | product | 324 |" in (tmp_path / "results.md").read_text()
    assert (tmp_path / "cost.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
