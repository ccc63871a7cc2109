"""Time ``check`` in-process on the committed ``mixed-N`` scenarios (no solver involved).

``python benchmarks/bench_check.py [--quick]`` prints one Markdown row per scenario: the median
and the 90th percentile of many calls, with the proposal already parsed and the facts compiled
(what an engine that validates moves in a loop pays), and the cost of compiling the facts once.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from triggerstack.model import Outcome, Scenario, compile_facts
from triggerstack.solver import check

HERE = Path(__file__).resolve().parent / "scenarios"


def measure(n: int, rounds: int) -> tuple[float, float, float]:
    scenario = Scenario.load(str(HERE / f"mixed-{n}.json"))
    proposal = Outcome.load(str(HERE / f"mixed-{n}.proposal.json"))
    t0 = time.perf_counter()
    facts = compile_facts(scenario)
    compile_s = time.perf_counter() - t0
    assert check(facts, proposal).legal, "the benchmark proposal must be legal"
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        check(facts, proposal)
        times.append(time.perf_counter() - t0)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)], compile_s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="few rounds: a smoke test, not a measurement")
    args = ap.parse_args()
    rounds = 50 if args.quick else 2000
    print("| scenario | abilities | check median (µs) | check p90 (µs) | compile facts (ms) |")
    print("|---|---|---|---|---|")
    for n in (2, 10, 40):
        med, p90, comp = measure(n, rounds)
        print(f"| mixed-{n} | {n} | {med * 1e6:.1f} | {p90 * 1e6:.1f} | {comp * 1e3:.2f} |")


if __name__ == "__main__":
    main()
