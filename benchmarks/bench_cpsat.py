"""CP-SAT side by side with python-constraint2 and the literal simulator: model-build time and
enumeration rate (distinct outcomes per second) on the examples and the ``mixed-N`` scenarios.

``python benchmarks/bench_cpsat.py [--quick]``. Counts must agree between engines (a changed
count is a failure); times are ratios on one machine in one run, not targets.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from triggerstack.model import Facts, Scenario, compile_facts
from triggerstack.solver._engines import constraint, cpsat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the literal simulator lives with the tests

from tests.simulator import simulate  # noqa: E402

T = TypeVar("T")

CASES = [
    ("examples/ertai-resurrected", ROOT / "examples/ertai-resurrected/scenario.yaml"),
    ("examples/inferno-titan", ROOT / "examples/inferno-titan/scenario.yaml"),
    ("examples/board-wipe", ROOT / "examples/board-wipe/scenario.yaml"),
    ("mixed-2", ROOT / "benchmarks/scenarios/mixed-2.json"),
]


def timed(fn: Callable[[Facts], T], facts: Facts) -> tuple[float, T]:
    t0 = time.perf_counter()
    out = fn(facts)
    return time.perf_counter() - t0, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="the two smallest cases only (a smoke test)")
    args = ap.parse_args()
    cases = CASES[:2] if args.quick else CASES
    print(
        "| scenario | outcomes | CP-SAT build (ms) | CP-SAT enumerate (outcomes/s) "
        "| python-constraint (outcomes/s) | simulator (outcomes/s) |"
    )
    print("|---|---|---|---|---|---|")
    for name, path in cases:
        facts = compile_facts(Scenario.load(str(path)))
        build_s, _ = timed(cpsat.build, facts)
        cp_s, found = timed(cpsat.solve_all, facts)
        pc_s, pc = timed(lambda f: list(constraint.ConstraintEngine(f)), facts)
        sim_s, sim = timed(simulate, facts)
        n = len(found.outcomes)
        if not (n == len(pc) == len(sim)):
            raise SystemExit(f"{name}: engines disagree: cpsat {n}, constraint {len(pc)}, simulator {len(sim)}")
        print(f"| {name} | {n} | {build_s * 1e3:.1f} | {n / cp_s:,.0f} | {n / pc_s:,.0f} | {n / sim_s:,.0f} |")


if __name__ == "__main__":
    main()
