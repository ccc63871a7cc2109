"""The properties read time limits in CPU time (tests/conftest.py, ``cpu_clock``): each sets aside
the inputs too large to answer within a limit, and must set aside the same ones on a busy machine."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _cpu_time(cpu_clock: None) -> None:
    """Every property here runs with :func:`tests.conftest.cpu_clock`."""
