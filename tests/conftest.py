"""Shared helpers for the test suite, and its hypothesis profiles.

``HYPOTHESIS_PROFILE=full`` (the default, what CI runs) draws the documented number of examples
per property; ``HYPOTHESIS_PROFILE=dev`` a tenth of them, for a quick run while working (with
``-m "not slow"`` to skip the long tests as well; see the README).
"""

from __future__ import annotations

import os
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
