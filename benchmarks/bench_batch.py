"""Throughput of ``check --batch``: verdict lines per second, one process and several.

``python benchmarks/bench_batch.py [--lines N]`` checks N proposals (legal, illegal and malformed
mixed) against ``examples/ertai-resurrected`` and against ``mixed-10``, as the command line does,
output discarded.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from triggerstack.model import Facts, Scenario, compile_facts
from triggerstack.solver.serve._batch import check_lines

ROOT = Path(__file__).resolve().parent.parent


def lines_for(name: str, n: int) -> tuple[Facts, list[str]]:
    if name == "ertai":
        facts = compile_facts(Scenario.load(str(ROOT / "examples/ertai-resurrected/scenario.yaml")))
        shapes = [
            (ROOT / "examples/ertai-resurrected/legal.json").read_text(),
            (ROOT / "examples/ertai-resurrected/illegal.json").read_text(),
            "{oops",
        ]
    else:
        facts = compile_facts(Scenario.load(str(ROOT / "benchmarks/scenarios/mixed-10.json")))
        shapes = [(ROOT / "benchmarks/scenarios/mixed-10.proposal.json").read_text()]
    shapes = [json.dumps(json.loads(s)) if not s.startswith("{oops") else s for s in shapes]
    return facts, [shapes[i % len(shapes)] for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lines", type=int, default=50_000)
    args = ap.parse_args()
    print("| scenario | lines | jobs | lines/s |")
    print("|---|---|---|---|")
    for name in ("ertai", "mixed-10"):
        facts, lines = lines_for(name, args.lines)
        for jobs in (1, 2):
            t0 = time.perf_counter()
            got = sum(1 for _ in check_lines(enumerate(lines, 1), facts, jobs))
            secs = time.perf_counter() - t0
            assert got == len(lines)
            print(f"| {name} | {got:,} | {jobs} | {got / secs:,.0f} |")


if __name__ == "__main__":
    main()
