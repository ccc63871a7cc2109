"""The properties read time limits in CPU time (tests/conftest.py, ``cpu_clock``): each sets aside
the inputs too large to answer within a limit, and must set aside the same ones on a busy machine.
And nothing a property runs is unbounded: a call made without a deadline of its own (an engine or
a chain built directly, which checks the deadline in force) ends within :data:`SAFETY` seconds of
CPU for the whole test — once, the literal simulator listed 8 GB of a long loop for half an hour.

Private unit: model/_limits' deadline in force (Deadline, bounded), which a directly built engine checks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from triggerstack.model._limits import Deadline, bounded

SAFETY = 900.0
"""CPU seconds a whole property test may take (every example): far past the slowest's."""


class _Safety(Deadline):
    """The bound of a whole property test, every example: not a call, so what is compiled under it
    directly (a literal walk of the passes, a chain built by hand) is no one call's to keep
    (``--max-compiled`` counts a call's own deadline: a verb given a time limit has its own)."""

    __slots__ = ()

    def compiled_one(self) -> int:
        return 0


@pytest.fixture(autouse=True)
def _cpu_time(cpu_clock: None) -> Iterator[None]:
    """Every property here runs with :func:`tests.conftest.cpu_clock`, within :data:`SAFETY`."""
    with bounded(_Safety(SAFETY)):
        yield
