"""The benchmark runner's smoke test (``--quick``): every measurement runs — the public Python
calls, the internal figures, the other engines, the families and the command line as whole
processes — the engines agree (the runner stops on a disagreement), and every goal is reported.
No timing is judged here."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

pytestmark = pytest.mark.slow


def test_quick_benchmark_runs_and_engines_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_all", ROOT / "benchmarks" / "bench_all.py")
    assert spec is not None and spec.loader is not None
    bench_all = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_all)
    assert bench_all.main(["--quick", "--out", str(tmp_path)]) == 0
    records = json.loads((tmp_path / "results.json").read_text())
    operations = {r["operation"] for r in records}
    assert operations >= {"count", "enumerate", "list", "lines", "sample", "sample(s, 1)", "best", "check", "step"}
    assert operations >= {"explain", "coupled count", "process", "cli enumerate", "cli sample"}
    assert {r["how"] for r in records} >= {"public", "internal", "LegalOutcomes", "cpsat", "constraint", "cli"}
    counts = {(r["scenario"], r["how"]): r["count"] for r in records if r["operation"] == "count"}
    assert counts[("abilities-4", "public")] == counts[("abilities-4", "internal")] == 324
    text = (tmp_path / "results.md").read_text()
    assert "| count | abilities-4 | 324 |" in text and "## Goals" in text
    printed = capsys.readouterr().out
    assert printed.count("PASS") + printed.count("FAIL") + printed.count("—  ") >= 10
    if importlib.util.find_spec("matplotlib") is not None:  # the extra [bench]: the plot is skipped without it
        assert (tmp_path / "cost.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    else:
        assert not (tmp_path / "cost.png").exists()


def test_quick_rl_benchmark_runs(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The RL benchmark's smoke run: every measurement runs and every goal is reported (the
    classic games are measured only where an interpreter has them, else reported skipped).

    Issue 53's figures (``rl_drawn.figures``) are measured once: the whole run measures them and
    ``--drawn`` reports them alone, with the same arguments under ``--quick`` (nothing in them reads
    ``--drawn``), so the second run formats the figures the first measured rather than measuring them
    again (6 s of CPU)."""
    pytest.importorskip("pettingzoo")
    spec = importlib.util.spec_from_file_location("bench_rl", ROOT / "benchmarks" / "bench_rl.py")
    assert spec is not None and spec.loader is not None
    bench_rl = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_rl)
    measured: dict[tuple[Any, ...], Any] = {}
    figures = bench_rl.rl_drawn.figures

    def once(*args: Any) -> Any:
        key = (*args[2:5], args[5].quick)  # steps, repeat, episodes, --quick: what the figures are of
        if key not in measured:
            measured[key] = figures(*args)
        return measured[key]

    monkeypatch.setattr(bench_rl.rl_drawn, "figures", once)
    assert bench_rl.main(["--quick"]) == 0
    captured = capsys.readouterr()
    assert "## Steps per second" in captured.out and "| mixed-10 |" in captured.out
    assert "reset on a new 10-ability scenario" in captured.err and "observe + mask" in captured.err
    assert "| rl.boards, drawn ahead by one worker (this process's CPU) |" in captured.out
    assert bench_rl.main(["--quick", "--drawn"]) == 0  # issue 53's rows alone
    assert len(measured) == 1  # the same figures, measured by the first run
    captured = capsys.readouterr()
    assert "fresh ÷ warm ≥ 0.5" in captured.out and "a fresh episode, in warm episodes" in captured.out
    assert "## Steps per second" not in captured.out


def test_quick_serve_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """The server benchmark's smoke run: the stdio server, the CLI and in-process check all run."""
    spec = importlib.util.spec_from_file_location("bench_serve", ROOT / "benchmarks" / "bench_serve.py")
    assert spec is not None and spec.loader is not None
    bench_serve = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_serve)
    assert bench_serve.main(["--quick"]) == 0
    captured = capsys.readouterr()
    assert "serve --stdio" in captured.out and "one process per check" in captured.out


@pytest.mark.slow
def test_quick_sizes_benchmark_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The large-scenario benchmark's smoke run: processes, public calls, the page's clicks and a
    page of outcomes from the middle over HTTP all run, every click's count is exact and the page
    is whole (issue 23); its results go to ``--out``."""
    spec = importlib.util.spec_from_file_location("bench_sizes", ROOT / "benchmarks" / "bench_sizes.py")
    assert spec is not None and spec.loader is not None
    bench_sizes = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_sizes)
    assert bench_sizes.main(["--quick", "--label", "smoke", "--out", str(tmp_path)]) == 0
    result = json.loads((tmp_path / "sizes-smoke.json").read_text())
    assert all(c["exact"] for c in result["clicks"].values()) and set(result["clicks"]) == {"wipe-10", "coupled-8"}
    assert result["pages"]["coupled-8"]["status"] == 200 and result["pages"]["coupled-8"]["n"] == 100
    assert all(p["count"]["exit"] == 0 for p in result["process"].values())
