"""The two conformance runners apply one protocol (docs/conformance.md): every way of answering in
tests/data/runner_variations.yaml — right values written otherwise, noise, wrong answers, an engine
that errs, crashes or goes silent — is put to ``triggerstack conformance run`` and to the Java
runner (clients/java/ConformanceRunner.java) on the same cases, and both must print the same
lines, pass the right ways and fail the wrong ones with the words the table gives.

Before, the Java runner crashed on a count of ``1.0`` and on a log line, failed every case when
``unload`` answered -32601, and refused ``"targets": {}`` in a first entry, where the Python runner
passed them. The cases are written to files named otherwise than their ids: both runners name a
case by its id.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from triggerstack.solver.conformance import ProcessEngine, load_suite, run

from tests.test_conformance import CASES

ROOT = Path(__file__).resolve().parent.parent
MANGLER = [sys.executable, str(ROOT / "tests" / "doubles" / "mangling_engine.py")]
TABLE: list[dict[str, Any]] = yaml.safe_load((ROOT / "tests" / "data" / "runner_variations.yaml").read_text(encoding="utf-8"))
PICKED = ("115/domain-kind-player-not-you", "601.2d/inferno-titan", "603.3c/modes", "603.3b/ward")
"""A count of 1 (for ``true``), a divided ability's targets, modes, and 603.3b's passes."""
SECONDS = 60  # the time limit of both runners (a variation may give its own): generous, for a busy machine


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("suite")
    by_id = {c.id: c for c in CASES}
    for k, case_id in enumerate(PICKED, 1):
        (folder / "x").mkdir(exist_ok=True)
        (folder / "x" / f"case-{k}.json").write_text(json.dumps(by_id[case_id].data), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def java(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if shutil.which("javac") is None:
        pytest.skip("no JDK on this machine (javac): the Java runner is not compiled")
    out = tmp_path_factory.mktemp("java")
    sources = [ROOT / "clients" / "java" / n for n in ("TriggerStackClient.java", "ConformanceRunner.java")]
    subprocess.run(["javac", "-d", str(out), *map(str, sources)], check=True, timeout=180)
    return out


def test_the_table_covers_the_protocol() -> None:
    """Every way of the test double is in the table once, and the table holds passing and failing ways."""
    ways = [v["way"] for v in TABLE]
    assert len(ways) == len(set(ways)) >= 17
    assert {v["passes"] for v in TABLE} == {True, False}
    assert all(v.get("source") for v in TABLE)


def _python(way: str, suite: Path, seconds: float) -> tuple[int, list[str]]:
    engine = ProcessEngine([*MANGLER, way], seconds=seconds)
    try:
        report = run(engine, load_suite(suite))
    finally:
        engine.close()
    return (1 if report.failed else 0), list(report.lines())


def _java(way: str, suite: Path, out: Path, seconds: float) -> tuple[int, list[str]]:
    done = subprocess.run(
        ["java", "-cp", str(out), "ConformanceRunner", "--time-limit", str(seconds), str(suite), *MANGLER, way],
        capture_output=True, text=True, timeout=10 * seconds, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return done.returncode, done.stdout.splitlines()


@pytest.mark.parametrize("variation", TABLE, ids=[v["way"] for v in TABLE])
def test_both_runners_say_the_same(variation: dict[str, Any], suite: Path, java: Path) -> None:
    way, seconds = variation["way"], variation.get("seconds", SECONDS)
    code, lines = _python(way, suite, seconds)
    assert (code == 0) == variation["passes"], lines
    names = [line.split(":")[0].split(" ", 1)[1] for line in lines if line.startswith(("pass ", "FAIL "))]
    assert names == list(PICKED), names  # by id, in the suite's order, never by file
    if not variation["passes"]:
        failing = [line for line in lines if line.startswith("FAIL ")]
        assert failing and all(variation["says"] in line for line in failing), lines
    elif "says" in variation:
        assert variation["says"] in "\n".join(lines), lines
    java_code, java_lines = _java(way, suite, java, seconds)
    assert (java_code, [_unhandled(x) for x in java_lines]) == (code, [_unhandled(x) for x in lines])


def _unhandled(line: str) -> str:
    """A line with the handles the engine made up (a new one each run: serve's are random) as one word."""
    return re.sub(r'"handle": "[^"]*"', '"handle": HANDLE', line)
