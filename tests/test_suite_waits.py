"""Every wait a test writes as a number is at least :data:`~tests.conftest.PATIENCE`: a test asserts
how a process or a thread ends, not how soon, and a loaded machine stretches how soon.

The mechanism this holds (stop 74): under ``tools/under_load.py`` (load 6 on 2 cores), a batch
told SIGTERM ended as it should — but past the 20 s ``communicate`` gave it, so the test failed,
and the pipes it left open failed the next test of its worker with a ResourceWarning. Fourteen more
waits of 10 to 60 s stood beside it. Now each is :data:`PATIENCE`, and a new one written as a
smaller number fails here, naming its place."""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import PATIENCE, ROOT

WAITS = frozenset({"communicate", "wait", "join", "run", "check_output", "check_call", "call", "Barrier"})
"""Calls that wait for a process or a thread (subprocess's, threading's, multiprocessing's), whose
``timeout`` bounds how long a test waits for it."""


def _short_waits(path: Path, root: Path = ROOT) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        for kw in node.keywords:
            value = kw.value.value if isinstance(kw.value, ast.Constant) else None
            if name in WAITS and kw.arg == "timeout" and isinstance(value, (int, float)) and value < PATIENCE:
                found.append(f"{path.relative_to(root)}:{node.lineno}: {name}(timeout={value})")
    return found


def test_no_test_waits_less_than_patience() -> None:
    short = [place for path in sorted((ROOT / "tests").rglob("*.py")) for place in _short_waits(path)]
    assert not short, "waits shorter than PATIENCE (tests/conftest.py): " + "; ".join(short)


def test_the_guard_finds_a_short_wait(tmp_path: Path) -> None:
    planted = tmp_path / "test_planted.py"
    planted.write_text("import subprocess\nsubprocess.run(['true'], timeout=20)\nx.join(timeout=PATIENCE)\n")
    assert _short_waits(planted, tmp_path) == ["test_planted.py:2: run(timeout=20)"]
