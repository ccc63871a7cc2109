"""phase.rs beside this tool (docs/phase.md): the share of phase's triggered abilities that translate
without a gap, over every card of our Oracle data with a triggered ability, built into phase's card
data by phase's own builder; and the seeded differential run's figures.

Usage: python benchmarks/phase_rs.py [--boards N] [--seed S] [--cards N] (needs the extra [phase]).
Writes benchmarks/results/phase.md and prints the same.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path

from triggerstack.adapters.phase import translate
from triggerstack.adapters.phase.differential import run
from triggerstack.adapters.phase.live import _mtgjson, phase_module
from triggerstack.model.cards.corpus import corpus

OUT = Path(__file__).resolve().parent / "results" / "phase.md"


def coverage(limit: int | None) -> list[str]:
    phase = phase_module()
    cards = [c for c in corpus().cards() if re.search(r"(^|\n)(When|Whenever|At) ", c.text)]
    if limit:
        cards = cards[:limit]
    abilities = whole = built = 0
    gaps: Counter[str] = Counter()
    t0 = time.perf_counter()
    for card in cards:
        try:
            face = phase.build_oracle_face(_mtgjson(card), None)
        except Exception:
            continue
        built += 1
        for trig in face.get("triggers") or ():
            execute = trig.get("execute")
            if not isinstance(execute, dict):
                continue
            abilities += 1
            got = translate(execute)
            if not got.gaps:
                whole += 1
            for g in {re.sub(r"\[\d+\]", "[]", g.message) for g in got.gaps}:
                gaps[g] += 1
    dt = time.perf_counter() - t0
    lines = [
        f"cards with a triggered ability in our Oracle data: {len(cards)}; built by phase: {built} ({dt:.0f} s)",
        f"phase's triggered abilities (with an effect) read without a gap: {whole} of {abilities} "
        f"({100 * whole / max(abilities, 1):.1f}%)",
        "the most common gaps:",
    ]
    lines += [f"  {n:5d}  {g}" for g, n in gaps.most_common(10)]
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cards", type=int, default=0, help="only the first N cards (0: all)")
    args = ap.parse_args()
    t0 = time.perf_counter()
    report = run(
        args.boards, seed=args.seed, progress=lambda k: print(f"board {k}", file=sys.stderr) if k % 25 == 0 else None
    )
    dt = time.perf_counter() - t0
    text = [
        "# phase.rs 0.103.0 beside triggerstack",
        "",
        "## Translation",
        "",
        "```",
        *coverage(args.cards or None),
        "```",
        "",
        f"## Differential run ({args.boards} boards, seed {args.seed}, {dt:.0f} s)",
        "",
        "```",
        *report.lines(),
        "```",
        "",
    ]
    text += ["Disagreements (first 20):", ""]
    import json

    text += [f"* `{json.dumps(d)[:400]}`" for d in report.disagreements[:20]]
    OUT.write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
