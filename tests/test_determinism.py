"""The same input gives byte-identical output: each verb runs twice, in processes with different
hash seeds (which reorder any set or dict iteration that output might leak)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from .conftest import EXAMPLES

pytestmark = pytest.mark.slow  # every verb twice, each in its own process

ERTAI = EXAMPLES / "ertai-resurrected"
WIPE = EXAMPLES / "board-wipe"
LICH = EXAMPLES / "vindictive-lich"
SCORE = EXAMPLES.parent / "tests" / "data" / "empty-score.json"

VERBS = [
    ["check", str(ERTAI / "scenario.yaml"), str(ERTAI / "illegal.json"), "--json"],
    ["check", str(WIPE / "scenario.yaml"), str(WIPE / "illegal.json")],
    ["explain", str(WIPE / "scenario.yaml"), "--json"],
    ["explain", str(LICH / "scenario.yaml")],
    ["count", str(WIPE / "scenario.yaml"), "--json"],
    ["enumerate", str(ERTAI / "scenario.yaml")],
    ["enumerate", str(LICH / "scenario.yaml"), "--engine", "cpsat"],
    ["enumerate", str(LICH / "scenario.yaml"), "--engine", "constraint"],
    ["enumerate", str(WIPE / "scenario.yaml"), "--merge-identical"],
    ["sample", str(WIPE / "scenario.yaml"), "-n", "20", "--seed", "5"],
    ["best", str(ERTAI / "scenario.yaml"), "--score", str(SCORE)],
    ["best", str(LICH / "scenario.yaml"), "--score", str(SCORE), "--engine", "cpsat"],
    ["schema", "scenario"],
    ["enumerate", str(EXAMPLES / "ward" / "scenario.yaml")],
    ["sample", str(EXAMPLES / "ward" / "scenario.yaml"), "-n", "10", "--seed", "2"],
    [
        "check",
        "--batch",
        str(EXAMPLES.parent / "tests" / "data" / "batch.jsonl"),
        "--scenario",
        str(ERTAI / "scenario.yaml"),
        "--jobs",
        "2",
    ],
]


def run(argv: list[str], seed: str) -> bytes:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", *argv], capture_output=True, env=env, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


@pytest.mark.parametrize("argv", VERBS, ids=[" ".join(a[:1] + a[-2:]) for a in VERBS])
def test_byte_identical_twice(argv: list[str]) -> None:
    first = run(argv, "1")
    assert first
    assert run(argv, "12345") == first
