"""Every operation on every engine that can do it, side by side, in one run.

``python benchmarks/bench_all.py [--quick] [--out DIR]`` writes ``results.md`` (a Markdown table),
``results.json`` (one record per measurement: operation, scenario, engine, path, seconds, count)
and ``cost.png`` (cost against size) to ``benchmarks/results/`` (or DIR).

Engines: ``product`` (the product engine, CP-SAT for a coupled core), ``cpsat`` (one model of the
pass), ``constraint`` (python-constraint2), ``simulator`` (the literal 603.3b oracle of the tests).
The solver engines enumerate, so they run only where the count is small. Counts must agree
between engines: a disagreement stops the run (exit 1). ``--quick`` is CI's smoke test: a few small
scenarios, every operation, no timing assertions. Times are from one shared machine: compare
ratios within a run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the literal simulator lives with the tests

from triggerstack.model import Facts, Outcome, Scenario, Score, compile_facts  # noqa: E402
from triggerstack.solver import best, check  # noqa: E402
from triggerstack.solver.core.indexed import from_outcome  # noqa: E402
from triggerstack.solver.engines import constraint, cpsat  # noqa: E402
from triggerstack.solver.engines.product import ProductEngine  # noqa: E402
from triggerstack.solver.verbs.step import Stepper  # noqa: E402

from tests.simulator import simulate  # noqa: E402

SMALL = 5_000  # the solver engines enumerate only up to this many outcomes
ENUMERATED = 300_000  # the product engine is timed over at most this many outcomes

FULL = [
    *(f"abilities-{n}" for n in (2, 4, 6, 8, 16, 40)),
    *(f"players-{p}" for p in (2, 3, 4)),
    "players-4-abilities-40",
    *(f"candidates-{c}" for c in (2, 10, 30, 60)),
    *(f"mixed-{n}" for n in (2, 4, 8, 10, 16, 40)),
    *(f"coupled-{w}" for w in (2, 3, 4, 6)),
]
QUICK = ["abilities-4", "mixed-2", "candidates-2", "coupled-2"]


def clock(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The best of ``repeat`` runs (seconds) and the last result."""
    best_s, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best_s = min(best_s, time.perf_counter() - t0)
    return best_s, out


class Run:
    def __init__(self) -> None:
        self.records: list[dict[str, Any]] = []

    def record(
        self, operation: str, scenario: str, engine: str, path: str, seconds: float, count: int | None, **extra: Any
    ) -> None:
        self.records.append(
            {
                "operation": operation,
                "scenario": scenario,
                "engine": engine,
                "path": path,
                "seconds": seconds,
                "count": count,
                **extra,
            }
        )


def score_for(facts: Facts) -> Score:
    """Height weights rising with the index, and a weight on the first player as a target."""
    first = facts.things[0].id
    return Score(
        height={a.id: (a.index % 5) + 1 for a in facts.abilities},
        target={a.id: {first: 2} for a in facts.abilities},
    )


def bench(run: Run, name: str, quick: bool) -> None:
    facts = compile_facts(Scenario.load(str(HERE / "scenarios" / f"{name}.json")))
    build_s, product = clock(lambda: ProductEngine(facts), 1 if quick else 3)
    path = product.path
    n = product.count()
    run.record("count", name, "product", path, build_s, n)

    # enumerate: the product engine lazily, over a prefix
    take = min(n, 2_000 if quick else ENUMERATED)
    secs, got = clock(lambda: sum(1 for _ in islice(product, take)), 1)
    run.record("enumerate", name, "product", path, secs, n, outcomes=got, rate=got / secs if secs else None)

    # sample: unrank uniform ranks
    rng = random.Random(1)
    draws = 200 if quick else 2_000
    ranks = [rng.randrange(n) for _ in range(draws)]
    secs, _ = clock(lambda: [product.unrank(r) for r in ranks], 1)
    run.record("sample", name, "product", path, secs / draws, n)

    # step: the legal decisions along random walks
    stepper = Stepper(facts)
    calls, t0 = 0, time.perf_counter()
    for walk in range(1 if quick else 5):
        state, wrng = stepper.start(), random.Random(walk)
        while legal := stepper.legal(state):
            calls += 1
            state = stepper.apply_unchecked(state, wrng.choice(legal))
    run.record("step", name, "product", path, (time.perf_counter() - t0) / max(calls, 1), n, calls=calls)

    # best: part by part where it splits, else CP-SAT; and CP-SAT's whole model
    score = score_for(facts)
    secs, top = clock(lambda: best(facts, score), 1)
    run.record("best", name, "product", path, secs, n, score=top.score)
    if len(facts.abilities) <= 16:
        secs, cp_top = clock(lambda: best(facts, score, engine="cpsat"), 1)
        run.record("best", name, "cpsat", "cpsat", secs, n, score=cp_top.score)
        if cp_top.score != top.score:
            raise SystemExit(f"{name}: best disagrees: product {top.score}, cpsat {cp_top.score}")

    # the solver engines, where the count is small enough to enumerate
    if n <= SMALL:
        for engine, fn in (
            ("cpsat", lambda: len(cpsat.solve_all(facts).outcomes)),
            ("constraint", lambda: constraint.ConstraintEngine(facts).count()),
            ("simulator", lambda: len(simulate(facts))),
        ):
            secs, got = clock(fn, 1)
            if got != n:
                raise SystemExit(f"{name}: {engine} counts {got}, the product engine {n}")
            run.record("count", name, engine, engine, secs, n)
            run.record("enumerate", name, engine, engine, secs, n, outcomes=got, rate=got / secs if secs else None)
    elif not quick and not product.plan.coupled:
        # too many to count by enumeration: time the solvers over a prefix of their own order
        prefix = 20_000
        for engine, fn in (
            ("cpsat", lambda: len(cpsat.solve_all(facts, limit=prefix).outcomes)),
            ("constraint", lambda: sum(1 for _ in islice(constraint.iter_solutions(facts), prefix))),
        ):
            widest = max((o.count for o in product.spaces.values()), default=0)
            if engine == "constraint" and (len(facts.abilities) > 8 or widest > 500):
                continue  # its slot constraints bite only once a block is assigned; wide domains crawl
            secs, got = clock(fn, 1)
            run.record("enumerate", name, engine, engine, secs, n, outcomes=got, rate=got / secs if secs else None)

    # check: the direct validator against CP-SAT with the proposal fixed
    proposal_path = HERE / "scenarios" / f"{name}.proposal.json"
    if proposal_path.exists():
        proposal = Outcome.load(str(proposal_path))
        rounds = 100 if quick else 2_000
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            verdict = check(facts, proposal)
            times.append(time.perf_counter() - t0)
        assert verdict.legal
        run.record("check", name, "check", "direct", statistics.median(times), n)
        raw = from_outcome(facts, proposal)
        cp_times = []
        for _ in range(3 if quick else 20):
            t0 = time.perf_counter()
            assert cpsat.validate(facts, raw)
            cp_times.append(time.perf_counter() - t0)
        run.record("check", name, "cpsat", "cpsat", statistics.median(cp_times), n)


def table(records: list[dict[str, Any]]) -> str:
    def cell(r: dict[str, Any] | None) -> str:
        if r is None:
            return "—"
        if r["operation"] == "enumerate":
            return f"{r['rate']:,.0f}/s" if r.get("rate") else "—"
        s = r["seconds"]
        return f"{s * 1e6:,.1f} µs" if s < 1e-3 else f"{s * 1e3:,.2f} ms" if s < 1 else f"{s:,.2f} s"

    engines = ["product", "check", "cpsat", "constraint", "simulator"]
    lines = ["| operation | scenario | path | count | " + " | ".join(engines) + " |", "|---" * (4 + len(engines)) + "|"]
    keys = sorted(
        {(r["operation"], r["scenario"]) for r in records},
        key=lambda k: (k[0], FULL.index(k[1]) if k[1] in FULL else 0),
    )
    for op, sc in keys:
        rows = {r["engine"]: r for r in records if (r["operation"], r["scenario"]) == (op, sc)}
        first = next(iter(rows.values()))
        count = first["count"]
        shown = f"{count:,}" if count < 10**15 else f"{count:.3e}"
        lines.append(
            f"| {op} | {sc} | {first['path']} | {shown} | " + " | ".join(cell(rows.get(e)) for e in engines) + " |"
        )
    return "\n".join(lines) + "\n"


def plot(records: list[dict[str, Any]], out: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for engine, marker in (("product", "o"), ("cpsat", "s"), ("constraint", "^"), ("simulator", "x")):
        pts = sorted(
            (int(r["scenario"].split("-")[1]), r["seconds"])
            for r in records
            if r["operation"] == "count" and r["engine"] == engine and r["scenario"].startswith("abilities-")
        )
        if pts:
            left.plot(*zip(*pts, strict=True), marker=marker, label=engine)
        rates = sorted(
            (int(r["scenario"].split("-")[1]), r["rate"])
            for r in records
            if r["operation"] == "enumerate"
            and r["engine"] == engine
            and r["scenario"].startswith("abilities-")
            and r.get("rate")
        )
        if rates:
            right.plot(*zip(*rates, strict=True), marker=marker, label=engine)
    left.set(xlabel="abilities (2 players, 3 candidates each)", ylabel="seconds to count", yscale="log", title="count")
    right.set(xlabel="abilities", ylabel="outcomes per second", yscale="log", title="enumerate")
    for ax in (left, right):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "cost.png", dpi=110)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="CI's smoke test: small scenarios, every operation")
    ap.add_argument("--out", default=str(HERE / "results"), help="where to write results.md, results.json, cost.png")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    run = Run()
    names = QUICK if args.quick else FULL
    for i, name in enumerate(names, 1):
        print(f"[{i}/{len(names)}] {name}", file=sys.stderr, flush=True)
        bench(run, name, args.quick)
    (out / "results.json").write_text(json.dumps(run.records, indent=1) + "\n")
    (out / "results.md").write_text(table(run.records))
    drew = plot(run.records, out)
    print(table(run.records))
    print(
        f"wrote {out / 'results.md'}, {out / 'results.json'}"
        + (f", {out / 'cost.png'}" if drew else " (no matplotlib: no plot)")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
