"""Time ``check`` on a board where a "must target" effect can be obeyed by nothing (issue 51):
a repeatable modal ability whose modes have linked targets (``target_of``), with and without the
effect. Each proposal is a legal outcome, parsed and compiled beforehand; the first ``check`` of
the run is timed too (what a batch of proposals pays once).

``python benchmarks/bench_must.py [--quick]`` prints one Markdown row per board. Goal: with the
effect, within 2x of the same board without it (before: 40 ms a check against 0.2 ms).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

from triggerstack.model import Scenario
from triggerstack.solver import LegalOutcomes


def board(must: bool, creatures: int = 8, most: int = 4) -> dict[str, Any]:
    """"Choose one or more — each mode may be chosen more than once — target player and target
    creature that player controls; or target creature", and, with ``must``, an effect naming a land
    no requirement can target."""
    objects: list[dict[str, Any]] = [{"id": "src", "controller": "A", "types": ["enchantment"]}]
    objects += [{"id": f"c{i}", "controller": "AB"[i % 2], "types": ["creature"]} for i in range(creatures)]
    objects.append({"id": "land", "controller": "B", "types": ["land"]})
    linked = [
        {"id": "p", "filter": {"kind": "player"}},
        {"id": "c", "filter": {"type": "creature", "controller": {"target_of": "p"}}},
    ]
    doc: dict[str, Any] = {
        "players": ["A", "B"],
        "objects": objects,
        "triggers": [
            {
                "id": "T",
                "source": "src",
                "text": "Choose one or more; each mode may be chosen more than once",
                "modal": {"choose": list(range(1, most + 1)), "repeat": True},
                "modes": [
                    {"id": "linked", "targets": linked},
                    {"id": "any", "targets": [{"id": "c", "filter": {"type": "creature"}}]},
                ],
            }
        ],
    }
    if must:
        doc["must_target"] = [{"object": "land", "applies_to": {}}]
    return doc


def measure(must: bool, proposals: int) -> tuple[float, float, int]:
    legal = LegalOutcomes(Scenario.model_validate(board(must)))
    total = legal.count()
    chosen = [legal[i] for i in range(0, total, max(1, total // proposals))]
    t0 = time.perf_counter()
    assert legal.check(chosen[0]).legal
    first = time.perf_counter() - t0
    times = []
    for outcome in chosen:
        t0 = time.perf_counter()
        assert legal.check(outcome).legal, "every benchmark proposal is a legal outcome"
        times.append(time.perf_counter() - t0)
    return first, statistics.median(times), total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="few proposals: a smoke test, not a measurement")
    args = ap.parse_args(argv)
    proposals = 20 if args.quick else 500
    print("| board | outcomes | first check (ms) | check median (ms) |")
    print("|---|---|---|---|")
    measure(False, 2)  # imports and first compiles are no board's
    medians = {}
    for must in (False, True):
        first, median, total = measure(must, proposals)
        medians[must] = median
        name = "with an effect nothing can obey" if must else "without the effect"
        print(f"| {name} | {total} | {first * 1e3:.2f} | {median * 1e3:.3f} |")
    ratio = medians[True] / medians[False]
    print(f"\nwith / without: {ratio:.2f}x (goal: at most 2x) — {'PASS' if ratio <= 2 else 'FAIL'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
