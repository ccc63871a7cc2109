"""The project's own checks, run with the suite: ruff and mypy --strict must be clean."""

from __future__ import annotations

import subprocess
import sys

from .conftest import ROOT


def test_ruff() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "typecheck.py")], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
