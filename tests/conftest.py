"""Shared helpers for the test suite, and its hypothesis profiles.

``HYPOTHESIS_PROFILE=full`` (the default, what CI runs) draws the documented number of examples
per property; ``HYPOTHESIS_PROFILE=dev`` a tenth of them, for a quick run while working (with
``-m "not slow"`` to skip the long tests as well; see the README).
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, settings

settings.register_profile(
    "full",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.register_profile("dev", settings.get_profile("full"), max_examples=30)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "full"))

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EXAMPLE_NAMES = sorted(p.name for p in EXAMPLES.iterdir() if (p / "scenario.yaml").exists())
"""The example scenarios (examples/rl holds the RL scripts, not a scenario)."""
CASES = Path(__file__).resolve().parent / "cases"


@contextlib.contextmanager
def serving() -> Iterator[str]:
    """A ``serve --http`` process on a free loopback port for the duration of a ``with``: its URL."""
    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "triggerstack.solver", "serve", "--http", str(port)], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                httpx.get(url + "/health")
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
