"""Size caps with flags to raise them, a clear message rather than a stall, enumeration in
constant memory, and exact counts at any size."""

from __future__ import annotations

import subprocess
import sys
from math import factorial

import pytest
from triggerstack.model import Scenario
from triggerstack.solver import count
from triggerstack.solver._cli import main

from .conftest import EXAMPLES, ROOT

WIPE = str(EXAMPLES / "board-wipe" / "scenario.yaml")
BENCH = ROOT / "benchmarks" / "scenarios"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--max-abilities", "5"],
            "triggers: 6 waiting abilities is more than the limit of 5 (raise it with --max-abilities)",
        ),
        (["--max-objects", "3"], "objects: 4 objects is more than the limit of 3 (raise it with --max-objects)"),
        (
            ["--max-candidates", "1"],
            "triggers[0].targets[0]: 2 candidates is more than the limit of 1 (raise it with --max-candidates)",
        ),
    ],
)
def test_caps_refuse_with_the_flag_to_raise_them(
    capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    assert main(["count", WIPE, *flags]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"triggerstack: {WIPE}: {message}\n"
    assert main(["explain", WIPE, *flags]) == 2


def test_raising_a_cap_lets_it_through(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", WIPE, "--max-abilities", "6"]) == 0
    assert capsys.readouterr().out == "768\n"


def test_a_solver_engine_refuses_what_it_would_stall_on(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(BENCH / "abilities-8.json")
    assert main(["count", path, "--engine", "cpsat"]) == 2
    _, err = capsys.readouterr()
    assert "this pass has 3779136 outcomes" in err and "--max-outcomes" in err
    assert main(["count", path]) == 0 and capsys.readouterr().out == "3779136\n"


def test_counts_are_exact_at_any_size() -> None:
    s = Scenario.load(str(BENCH / "abilities-40.json"))
    assert count(s) == factorial(20) ** 2 * 3**40


def _peak_rss_kib(limit: int) -> int:
    probe = (
        "import os, resource, sys\n"
        "from triggerstack.solver._cli import main\n"
        "sys.stdout = open(os.devnull, 'w')\n"
        f"assert main(['enumerate', {str(BENCH / 'abilities-8.json')!r}, '--limit', '{limit}']) == 0\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1])


@pytest.mark.slow
def test_enumerate_streams_a_million_outcomes_in_constant_memory() -> None:
    small, large = _peak_rss_kib(10_000), _peak_rss_kib(1_000_000)
    assert large - small < 20 * 1024, f"peak RSS {small} KiB for 10^4 outcomes, {large} KiB for 10^6"
