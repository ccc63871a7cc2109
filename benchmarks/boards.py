"""Boards from real cards (issue 37): 10,000 seeded boards, each checked as a user would.

    python benchmarks/boards.py              # results/boards.md and results/boards.json
    python benchmarks/boards.py --quick      # a smoke run of 200 boards, printed only

Draws the boards with ``rl.boards``' own generator (seed 37, the defaults: 2 to 4 players, 2 to 8
waiting abilities, every event, at most 1,000,000 outcomes), then reads each back as a user does —
its JSON line through ``Scenario.model_validate`` (which reads every card it names) — and asks
``count`` of it. Reports: how many are valid, name every object's card and are answered by
``count`` with the count the draw saw; the size distribution (players, waiting abilities, objects,
ward reactions, outcome counts); how many draws were taken back and why; how many distinct cards the
boards drew from, of a pool of how many; and the time taken.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def measure(n: int, seed: int) -> dict[str, Any]:
    from triggerstack.model import Scenario
    from triggerstack.model.cards._pool import _build, pool
    from triggerstack.solver import count
    from triggerstack.solver._boards._draw import draw

    start = time.perf_counter()
    cards = pool()
    pool_time = time.perf_counter() - start
    start = time.perf_counter()
    built = _build()  # what a first run pays, before the pool is kept in the cache folder
    build_time = time.perf_counter() - start
    assert [e.name for e in built.spells] == [e.name for e in cards.spells]
    start = time.perf_counter()
    boards = list(draw(seed, n, players=(2, 4)))
    draw_time = time.perf_counter() - start

    start = time.perf_counter()
    valid = named = counted = 0
    for board in boards:
        line = json.dumps(board.document, ensure_ascii=False, separators=(",", ":"))
        scenario = Scenario.model_validate(json.loads(line))  # raises on an invalid board: none may be
        valid += 1
        doc = board.document
        objects = {o["id"]: o for o in doc["objects"]}
        named += all("card" in o for o in doc["objects"]) and all(
            "card_ability" in t and "card" in objects[t["source"]] for t in doc["triggers"]
        )
        counted += count(scenario) == board.count
    check_time = time.perf_counter() - start

    drawn = Counter(name for b in boards for name in b.cards)
    sizes = [len(b.scenario.objects) for b in boards]
    outcomes = [b.count for b in boards]
    keywords: Counter[str] = Counter()
    for b in boards:
        for o in b.scenario.objects:
            for key in ("hexproof", "shroud"):
                keywords[key] += bool(getattr(o, key))
            keywords["protection"] += bool(o.protection)
            keywords["hexproof_from"] += bool(o.hexproof_from)
        keywords["ward"] += len(b.scenario.reactions)
    return {
        "n": n,
        "seed": seed,
        "valid": valid,
        "named": named,
        "counted": counted,
        "events": dict(Counter(b.event for b in boards)),
        "players": dict(sorted(Counter(len(b.scenario.players) for b in boards).items())),
        "abilities": dict(sorted(Counter(len(b.scenario.triggers) for b in boards).items())),
        "objects": _summary(sizes),
        "objects_histogram": _buckets(sizes, (4, 8, 12, 16, 20, 30)),
        "outcomes": _summary(outcomes),
        "outcomes_histogram": {shown: k for (_, shown), k in sorted(Counter(_decade(c) for c in outcomes).items())},
        "ward_boards": sum(bool(b.scenario.reactions) for b in boards),
        "keywords": dict(keywords),
        "missed": sum(b.missed for b in boards),
        "over": sum(b.over for b in boards),
        "distinct_cards": len(drawn),
        "card_objects": sum(drawn.values()),
        "most_drawn": drawn.most_common(10),
        "pool": {
            "makers": len(cards.makers),
            "bodies": len(cards.bodies),
            "spells": len(cards.spells),
            "by_event": {k: len(v) for k, v in cards.by_kind.items()},
            "distinct": len({e.name for e in (*cards.makers, *cards.bodies, *cards.spells)}),
        },
        "pool_seconds": round(pool_time, 2),
        "build_seconds": round(build_time, 1),
        "draw_seconds": round(draw_time, 1),
        "check_seconds": round(check_time, 1),
    }


def _summary(values: list[int]) -> dict[str, float]:
    return {
        "min": min(values),
        "median": statistics.median(values),
        "mean": round(statistics.fmean(values), 1),
        "max": max(values),
    }


def _buckets(values: list[int], edges: tuple[int, ...]) -> dict[str, int]:
    out: Counter[str] = Counter()
    for v in values:
        low = 1
        for edge in edges:
            if v <= edge:
                out[f"{low}–{edge}"] += 1
                break
            low = edge + 1
        else:
            out[f"{edges[-1] + 1}+"] += 1
    order = [f"{lo}–{hi}" for lo, hi in zip((1, *[e + 1 for e in edges]), edges, strict=False)] + [f"{edges[-1] + 1}+"]
    return {k: out[k] for k in order if out[k]}


def _decade(n: int) -> tuple[int, str]:
    """The bucket of an outcome count: exactly 1, then by powers of ten (sortable, shown)."""
    if n == 1:
        return 0, "1"
    d = int(math.log10(n))
    low = max(2, 10**d)
    return d + 1, f"{low:,}–{10 ** (d + 1) - 1:,}"


def report(r: dict[str, Any]) -> str:
    n = r["n"]
    per = (r["draw_seconds"] + r["check_seconds"]) / n * 1000
    kw = r["keywords"]
    lines = [
        "# Boards from real cards (benchmarks/boards.py)",
        "",
        f"{n:,} boards of `rl.boards` (seed {r['seed']}, 2 to 4 players, 2 to 8 waiting abilities, every event, "
        "bodies 0 to 3 a side, at most 1,000,000 outcomes), each read back from its JSON line with "
        "`Scenario.model_validate` (which reads every card it names) and counted with `count`.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| valid scenarios | {r['valid']:,} of {n:,} |",
        f"| every object names its card, every trigger its card's ability | {r['named']:,} of {n:,} |",
        f"| answered by `count`, the count the draw saw | {r['counted']:,} of {n:,} |",
        f"| distinct cards drawn | {r['distinct_cards']:,} (in {r['card_objects']:,} objects), of a pool of "
        f"{r['pool']['distinct']:,} |",
        f"| draws taken back: abilities out of range / over 1,000,000 outcomes | {r['missed']:,} / {r['over']:,} |",
        f"| building the card pool (a first run) / reading it from the cache folder | {r['build_seconds']} s / "
        f"{r['pool_seconds']} s |",
        f"| drawing the boards (assembly, validation, count) | {r['draw_seconds']} s |",
        f"| reading them back and counting them again | {r['check_seconds']} s |",
        f"| per board, both | {per:.1f} ms |",
        "",
        "## The pool",
        "",
        f"{r['pool']['makers']:,} permanents whose abilities an event triggers (enters "
        f"{r['pool']['by_event']['enters']:,}, dies {r['pool']['by_event']['dies']:,}, attacks "
        f"{r['pool']['by_event']['attacks']:,}, cast {r['pool']['by_event']['cast']:,}), "
        f"{r['pool']['bodies']:,} creatures without triggered abilities, {r['pool']['spells']:,} cards to cast.",
        "",
        "## Sizes",
        "",
        _table("event", r["events"]),
        _table("players", r["players"]),
        _table("waiting abilities", r["abilities"]),
        f"Objects per board: min {r['objects']['min']}, median {r['objects']['median']}, mean "
        f"{r['objects']['mean']}, max {r['objects']['max']}.",
        "",
        _table("objects", r["objects_histogram"]),
        f"Legal outcomes per board: min {r['outcomes']['min']:,}, median {r['outcomes']['median']:,}, "
        f"max {r['outcomes']['max']:,}.",
        "",
        _table("outcomes", r["outcomes_histogram"]),
        f"Boards with a ward reaction: {r['ward_boards']:,}. Objects with hexproof {kw.get('hexproof', 0):,}, "
        f"shroud {kw.get('shroud', 0):,}, protection {kw.get('protection', 0):,}, hexproof from "
        f"{kw.get('hexproof_from', 0):,}; ward reactions {kw.get('ward', 0):,}.",
        "",
        "## The ten cards drawn most",
        "",
        "| card | objects |",
        "|---|---|",
        *[f"| {name} | {k} |" for name, k in r["most_drawn"]],
        "",
    ]
    return "\n".join(lines)


def _table(what: str, counts: dict[Any, int]) -> str:
    total = sum(counts.values())
    rows = [f"| {what} | boards | share |", "|---|---|---|"]
    rows += [f"| {k} | {v:,} | {100 * v / total:.1f}% |" for k, v in counts.items()]
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=10_000, help="how many boards (default 10,000)")
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--quick", action="store_true", help="200 boards, printed only")
    args = parser.parse_args(argv)
    n = 200 if args.quick else args.n
    result = measure(n, args.seed)
    text = report(result)
    if not args.quick:
        RESULTS.mkdir(exist_ok=True)
        (RESULTS / "boards.md").write_text(text, encoding="utf-8")
        (RESULTS / "boards.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    sys.stdout.write(text)
    ok = result["valid"] == result["named"] == result["counted"] == n
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
