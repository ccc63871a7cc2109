"""Shared helpers for the test suite."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CASES = Path(__file__).resolve().parent / "cases"
