"""What users call, timed the way they call it, beside the internal figure and the other engines,
in one run — with the goals of the speed issue judged on the ratios.

``python benchmarks/bench_all.py [--quick] [--out DIR] [--before PYTHON]`` writes ``results.md``,
``results.json`` (one record per measurement) and ``cost.png`` to ``benchmarks/results/`` (or DIR)
and prints the goals with PASS or FAIL.

* **Python, public**: the documented functions on a scenario object as a user holds it —
  ``count(s)``, ``outcomes(s)`` iterated and kept in a list, ``outcome_lines``, ``sample(s, n)``,
  ``sample(s, 1)`` called again and again, ``LegalOutcomes.sample``, ``best``, ``check``,
  ``step(s, decisions)``, ``explain`` — beside the **internal** figure (the product engine's own
  count, raw iterator and unrank; a warm ``Stepper`` walk) and beside ``engine="cpsat"`` and
  ``engine="constraint"`` through the same public functions where they can enumerate.
* **The command line as whole processes**: ``python -c pass`` beside ``triggerstack --help``,
  ``count`` of a ten-ability scenario, ``enumerate`` (lines per second against the raw iterator in
  this process) and the peak memory of ``sample -n 1000`` against ``-n 1000000``.
* **Families**: the ward family (k = 1…8 warded creatures, a second pass of 603.3b) against its
  single-pass twins, and the coupled family (2…8 abilities that may target each other) on every
  engine.
* ``--before PYTHON``: the interpreter of a checkout from before the speed work; the coupled
  count is timed with it too, for the "≥ 5× faster than today" goal (a separate process on the
  same scenario files, in this run).

Counts and optima must agree between engines: a disagreement stops the run (exit 1). Times are the
best of a few runs on a shared machine: read the ratios, which are taken within this run.
``--quick`` is CI's smoke test: a few small scenarios, every measurement, nothing judged.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"
BIN = Path(sys.executable).parent

from triggerstack.model import Facts, Outcome, Scenario, Score, compile_facts  # noqa: E402
from triggerstack.solver import LegalOutcomes, best, check, count, explain, outcome_lines, outcomes, sample, step  # noqa: E402
from triggerstack.solver._engines.product import ProductEngine  # noqa: E402
from triggerstack.solver._verbs.step import Stepper  # noqa: E402

SMALL = 5_000  # the solver engines are asked only where the count is this small
TAKE = 200_000  # outcomes iterated at most per enumeration measurement

FULL = [
    *(f"abilities-{n}" for n in (2, 4, 8, 16)),
    "players-4",
    *(f"candidates-{c}" for c in (2, 10, 60)),
    *(f"mixed-{n}" for n in (2, 4, 10, 16)),
    *(f"coupled-{w}" for w in (2, 4, 6)),
]
QUICK = ["abilities-4", "mixed-2", "candidates-2", "coupled-2"]
WARD = list(range(1, 9))
COUPLED = list(range(2, 9))


def clock(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The best of ``repeat`` runs (seconds) and the last result."""
    best_s, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best_s = min(best_s, time.perf_counter() - t0)
    return best_s, out


def load(name: str) -> Scenario:
    return Scenario.load(str(SCENARIOS / f"{name}.json"))


def _count(name: str, engine: str) -> int:
    return count(load(name), engine=engine)


def _draws(s: Scenario, n: int) -> list[Outcome]:
    return [sample(s, 1)[0] for _ in range(n)]


def _best(name: str, score: Score) -> int:
    return best(load(name), score).score


def score_for(facts: Facts) -> Score:
    """Height weights rising with the index, and a weight on the first player as a target."""
    first = facts.things[0].id
    return Score(
        height={a.id: (a.index % 5) + 1 for a in facts.abilities},
        target={a.id: {first: 2} for a in facts.abilities},
    )


class Run:
    def __init__(self, quick: bool) -> None:
        self.quick = quick
        self.records: list[dict[str, Any]] = []
        self.repeat = 1 if quick else 3

    def record(self, operation: str, scenario: str, how: str, seconds: float, **extra: Any) -> dict[str, Any]:
        """``how``: ``public`` (the documented call), ``internal``, ``cpsat``, ``constraint``, ``cli``…"""
        r = {"operation": operation, "scenario": scenario, "how": how, "seconds": seconds, **extra}
        self.records.append(r)
        return r

    def get(self, operation: str, scenario: str, how: str) -> dict[str, Any] | None:
        return next(
            (r for r in self.records if (r["operation"], r["scenario"], r["how"]) == (operation, scenario, how)), None
        )


def disagree(what: str) -> None:
    raise SystemExit(f"engines disagree: {what}")


# -- one scenario, every verb -----------------------------------------------------------------------


def bench(run: Run, name: str) -> None:
    facts = compile_facts(load(name))
    engine = ProductEngine(facts)
    n = engine.count()
    path = engine.path
    rep = run.repeat

    secs, got = clock(lambda: count(load(name)), rep)
    run.record("count", name, "public", secs, count=got, path=path)
    secs, _ = clock(lambda: ProductEngine(facts).count(), rep)
    run.record("count", name, "internal", secs, count=n, path=path)

    take = min(n, 2_000 if run.quick else TAKE)
    s = load(name)
    secs, got = clock(lambda: sum(1 for _ in islice(outcomes(s), take)), 1)
    run.record("enumerate", name, "public", secs, rate=got / secs, count=n)
    secs, got = clock(lambda: len(list(islice(outcomes(s), take))), 1)
    run.record("list", name, "public", secs, rate=got / secs, count=n)
    secs, got = clock(lambda: sum(1 for _ in islice(outcome_lines(s), take)), 1)
    run.record("lines", name, "public", secs, rate=got / secs, count=n)
    secs, got = clock(lambda: sum(1 for _ in islice(iter(engine), take)), 1)
    run.record("enumerate", name, "internal", secs, rate=got / secs, count=n)

    draws = 200 if run.quick else 2_000
    # Both sides warmed first (choice spaces list and tabulate lazily): the steady cost per draw.
    sample(s, draws, seed=0)
    secs, _ = clock(lambda: sample(s, draws, seed=1), rep)  # the best of a few: a collection may land in any
    run.record("sample", name, "public", secs / draws, count=n)
    rng = random.Random(1)
    ranks = [rng.randrange(n) for _ in range(draws)]
    for r in ranks:
        engine.unrank(r)
    rng = random.Random(2)
    secs, _ = clock(lambda: [engine.unrank(rng.randrange(n)) for _ in range(draws)], rep)  # a uniform rank, unranked
    unrank = secs / draws
    run.record("sample", name, "internal", unrank, count=n)
    calls = 100 if run.quick else 1_000
    sample(s, 1)  # what sample(s, 1) learns is kept with s
    secs, _ = clock(lambda: [sample(s, 1) for _ in range(calls)], rep)
    run.record("sample(s, 1)", name, "public", secs / calls, count=n)
    legal = LegalOutcomes(s)
    draw = legal.sample(None, seed=2)
    next(draw)
    secs, _ = clock(lambda: [next(legal.sample(1)) for _ in range(calls)], rep)
    run.record("sample(s, 1)", name, "LegalOutcomes", secs / calls, count=n)
    run.record("sample(s, 1)", name, "internal", unrank, count=n)

    score = score_for(facts)
    secs, top = clock(lambda: best(load(name), score), rep)
    run.record("best", name, "public", secs, count=n, score=top.score)
    if len(facts.abilities) <= 16:
        secs, cp = clock(lambda: best(load(name), score, engine="cpsat"), rep)
        run.record("best", name, "cpsat", secs, count=n, score=cp.score)
        if cp.score != top.score:
            disagree(f"{name}: best {top.score} (auto) vs {cp.score} (cpsat)")

    if n <= SMALL:
        for solver in ("cpsat", "constraint"):
            secs, got = clock(partial(_count, name, solver), rep)
            if got != n:
                disagree(f"{name}: {solver} counts {got}, the product engine {n}")
            run.record("count", name, solver, secs, count=n)
            run.record("enumerate", name, solver, secs, rate=n / secs, count=n)

    proposal_path = SCENARIOS / f"{name}.proposal.json"
    if proposal_path.exists():
        proposal = Outcome.load(str(proposal_path))
        rounds = 100 if run.quick else 2_000
        check(s, proposal)
        times = []
        for _ in range(rounds):
            t0 = time.perf_counter()
            verdict = check(s, proposal)
            times.append(time.perf_counter() - t0)
        assert verdict.legal
        run.record("check", name, "public", statistics.median(times), count=n)

    stepper = Stepper(facts)
    walks = []
    for w in range(3 if run.quick else 10):
        walk, wrng, taken = stepper.start(), random.Random(w), []
        while legal_now := stepper.legal(walk):
            d = wrng.choice(legal_now)
            taken.append(d.id)
            walk = stepper.apply_unchecked(walk, d)
        walks.append(taken)
    secs, _ = clock(lambda: [stepper.legal(stepper.walk(t)) for t in walks], rep)
    run.record("step", name, "internal", secs / len(walks), count=n)
    step(s, walks[0])
    secs, _ = clock(lambda: [step(s, t) for t in walks], rep)
    run.record("step", name, "public", secs / len(walks), count=n)

    if len(facts.abilities) <= 16:
        secs, _ = clock(lambda: explain(load(name)), 1)
        run.record("explain", name, "public", secs, count=n)


# -- families ------------------------------------------------------------------------------------------


def ward_family(run: Run, ks: list[int]) -> None:
    """count, sample(s, 1) and best of ward-k against ward-k-single (the same without reactions)."""
    for k in ks:
        for name in (f"ward-{k}", f"ward-{k}-single"):
            secs, got = clock(partial(_count, name, "auto"), run.repeat)
            run.record("count", name, "public", secs, count=got, path=LegalOutcomes(load(name)).counted().path)
            s = load(name)
            sample(s, 1, seed=0)
            secs, _ = clock(partial(_draws, s, 100), 1)
            run.record("sample(s, 1)", name, "public", secs / 100, count=got)
            facts = compile_facts(s)
            score = Score(
                height={a.id: a.index % 3 for a in facts.abilities},
                target={a.id: {"w0": 1 + a.index % 2} for a in facts.abilities},
            )
            secs, top = clock(partial(_best, name, score), run.repeat)
            run.record("best", name, "public", secs, count=got, score=top)
        if k <= 2:  # small enough to list: classes and listing agree
            listed = sum(1 for _ in LegalOutcomes(load(f"ward-{k}"), engine="cpsat"))
            if listed != run.get("count", f"ward-{k}", "public")["count"]:  # type: ignore[index]
                disagree(f"ward-{k}: classes vs CP-SAT across passes")


def coupled_family(run: Run, ws: list[int], before: str | None) -> None:
    for w in ws:
        name = f"coupled-{w}"
        counts = {}
        for how in ("auto", "cpsat", "constraint"):
            secs, got = clock(partial(_count, name, how), run.repeat)
            counts[how] = got
            run.record("coupled count", name, how, secs, count=got)
        if len(set(counts.values())) != 1:
            disagree(f"{name}: {counts}")
        if before:
            code = (
                "import sys, time\nfrom triggerstack.model import Scenario\nfrom triggerstack.solver import count\n"
                f"p = {str(SCENARIOS / (name + '.json'))!r}\nbest = 1e9\n"
                f"for _ in range({run.repeat}):\n    t = time.perf_counter(); count(Scenario.load(p)); "
                "best = min(best, time.perf_counter() - t)\nprint(best)"
            )
            done = subprocess.run([before, "-c", code], capture_output=True, text=True, timeout=600)
            if done.returncode == 0:
                run.record("coupled count", name, "before", float(done.stdout.strip()), count=counts["auto"])


# -- the command line ------------------------------------------------------------------------------------


LAUNCHER = """
import os, sys, time
t = time.perf_counter()
pid = os.fork()
if pid == 0:
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
print(time.perf_counter() - t, usage.ru_maxrss, os.waitstatus_to_exitcode(status))
"""
"""Runs one process and reports its wall time, peak memory and exit code. It is a small
interpreter of its own (``-S``, a few MiB): a child forked from this big process would start
with its peak memory (Linux carries the parent's high-water mark across fork and exec)."""


def process(args: list[str]) -> tuple[float, int, int]:
    """(wall seconds, peak RSS in KiB, exit code) of one whole process, output discarded."""
    done = subprocess.run([sys.executable, "-S", "-c", LAUNCHER, *args], capture_output=True, text=True, check=True)
    secs, rss, code = done.stdout.split()
    return float(secs), int(rss), int(code)


def best_process(args: list[str], repeat: int) -> tuple[float, int]:
    runs = [process(args) for _ in range(repeat)]
    if any(code != 0 for _, _, code in runs):
        raise SystemExit(f"{' '.join(args)} failed")
    return min(t for t, _, _ in runs), max(m for _, m, _ in runs)


def cli(run: Run) -> None:
    tool = str(BIN / "triggerstack")
    rep = 1 if run.quick else 7  # --quick: every process runs, once (nothing is judged, no best of several)
    for label, args in (
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("triggerstack --help", [tool, "--help"]),
        ("triggerstack count mixed-10", [tool, "count", str(SCENARIOS / "mixed-10.json")]),
    ):
        secs, rss = best_process(args, rep)
        run.record("process", label, "cli", secs, peak_kib=rss)
    if importlib.util.find_spec("mtg") is not None:  # the extra [cards]
        secs, rss = best_process([tool, "card", "Llanowar Elves"], rep)
        run.record("process", "triggerstack card NAME", "cli", secs, peak_kib=rss)
    # enumerate's cost per line, start-up and compiling left out: the difference of two runs
    small, large = (50_000, 250_000) if run.quick else (200_000, 1_200_000)
    enum = [tool, "enumerate", str(SCENARIOS / "mixed-10.json"), "--limit"]
    first, _ = best_process([*enum, str(small)], rep)
    second, _ = best_process([*enum, str(large)], rep)
    secs = max(second - first, 0.0) / (large - small)
    run.record("cli enumerate per line", "mixed-10", "cli", secs, rate=1 / secs if secs else 0.0, peak_kib=rss)
    n_lines = 20_000 if run.quick else 1_000_000
    name = "abilities-8"  # 3,779,136 outcomes
    secs, rss = best_process([tool, "enumerate", str(SCENARIOS / f"{name}.json"), "--limit", str(n_lines)], 1)
    run.record("cli enumerate", name, "cli", secs, rate=n_lines / secs, lines=n_lines, peak_kib=rss)
    engine = ProductEngine(compile_facts(load(name)))
    secs, got = clock(lambda: sum(1 for _ in islice(iter(engine), n_lines)), 1)
    run.record("cli enumerate", name, "internal", secs, rate=got / secs, lines=got)
    for n in (1_000, 20_000 if run.quick else 1_000_000):
        secs, rss = best_process([tool, "sample", str(SCENARIOS / "mixed-10.json"), "-n", str(n), "--seed", "1"], 1)
        run.record("cli sample", f"mixed-10 -n {n}", "cli", secs, peak_kib=rss, n=n)


# -- goals ------------------------------------------------------------------------------------------------


class Goal(NamedTuple):
    name: str
    measured: str
    target: str
    passed: bool | None  # None: not measured in this run


def _ratio(run: Run, op: str, sc: str, a: str, b: str) -> float | None:
    x, y = run.get(op, sc, a), run.get(op, sc, b)
    if x is None or y is None:
        return None
    return float(x["seconds"]) / float(y["seconds"])


def goals(run: Run, names: list[str]) -> list[Goal]:
    out: list[Goal] = []
    per = [(sc, r) for sc in names if (r := _ratio(run, "sample", sc, "public", "internal")) is not None]
    worst = max(per, key=lambda x: x[1])
    out.append(
        Goal(
            "public sample per outcome ≤ 2× internal unrank",
            f"{worst[1]:.2f}× (worst: {worst[0]})",
            "≤ 2×",
            worst[1] <= 2,
        )
    )
    per = [(sc, r) for sc in names if (r := _ratio(run, "sample(s, 1)", sc, "LegalOutcomes", "internal")) is not None]
    worst = max(per, key=lambda x: x[1])
    out.append(
        Goal(
            "sample(1) repeated on one LegalOutcomes ≤ 3× one unrank",
            f"{worst[1]:.2f}× (worst: {worst[0]})",
            "≤ 3×",
            worst[1] <= 3,
        )
    )
    cli_rate, raw = run.get("cli enumerate", "abilities-8", "cli"), run.get("cli enumerate", "abilities-8", "internal")
    if cli_rate and raw:
        share = cli_rate["rate"] / raw["rate"]
        out.append(
            Goal(
                "CLI enumerate ≥ 40% of the raw iterator's rate",
                f"{share:.0%} ({cli_rate['rate']:,.0f} vs {raw['rate']:,.0f} lines/s)",
                "≥ 40%",
                share >= 0.4,
            )
        )
    small = [r for r in run.records if r["operation"] == "cli sample"]
    if len(small) == 2:
        grow = (small[1]["peak_kib"] - small[0]["peak_kib"]) / 1024
        out.append(
            Goal(
                f"sample -n {small[1]['n']:,} in flat memory",
                f"{small[1]['peak_kib'] / 1024:.0f} MiB vs {small[0]['peak_kib'] / 1024:.0f} MiB for -n 1,000 "
                f"(+{grow:.1f} MiB)",
                "within 50 MiB",
                grow <= 50,
            )
        )
    k = 6 if run.get("count", "ward-6", "public") else 2
    for op in ("count", "sample(s, 1)", "best"):
        r = _ratio_pair(run, op, f"ward-{k}", f"ward-{k}-single")
        if r is not None:
            out.append(Goal(f"ward-{k} {op} within 50× its single-pass twin", f"{r:.1f}×", "≤ 50×", r <= 50))
    c6 = "coupled-6" if run.get("coupled count", "coupled-6", "auto") else "coupled-2"
    before = _ratio(run, "coupled count", c6, "before", "auto")
    out.append(
        Goal(
            f"count {c6} ≥ 5× faster than before",
            f"{before:.1f}×" if before else "not measured (give --before PYTHON)",
            "≥ 5×",
            None if before is None else before >= 5,
        )
    )

    def against_fastest(r: dict[str, Any]) -> float:
        same = [x for x in run.records if x["operation"] == "coupled count" and x["scenario"] == r["scenario"]]
        return float(r["seconds"]) / min(float(x["seconds"]) for x in same if x["how"] != "before")

    autos = [r for r in run.records if r["operation"] == "coupled count" and r["how"] == "auto"]
    slowest = max(((r["scenario"], against_fastest(r)) for r in autos), key=lambda x: x[1])
    out.append(
        Goal(
            "coupled count (auto) never slower than the fastest engine by more than 1.5×",
            f"{slowest[1]:.2f}× the fastest (worst: {slowest[0]})",
            "≤ 1.5×",
            slowest[1] <= 1.5,
        )
    )
    bare, help_, count10 = (
        run.get("process", p, "cli") for p in ("python -c pass", "triggerstack --help", "triggerstack count mixed-10")
    )
    if bare and help_ and count10:
        ratio = float(help_["seconds"]) / float(bare["seconds"])
        out.append(
            Goal(
                "--help ≤ 4× python -c pass, as whole processes in the same run",
                f"{ratio:.1f}× ({help_['seconds'] * 1e3:.0f} ms; python -c pass: {bare['seconds'] * 1e3:.0f} ms)",
                "≤ 4×",
                ratio <= 4,
            )
        )
        out.append(
            Goal(
                "count of a 10-ability scenario ≤ 300 ms as a whole process",
                f"{count10['seconds'] * 1e3:.0f} ms (python -c pass: {bare['seconds'] * 1e3:.0f} ms)",
                "≤ 300 ms",
                count10["seconds"] <= 0.300,
            )
        )
    card = run.get("process", "triggerstack card NAME", "cli")
    if card:
        out.append(
            Goal(
                "card NAME ≤ 0.3 s as a whole process",
                f"{card['seconds'] * 1e3:.0f} ms",
                "≤ 300 ms",
                card["seconds"] <= 0.300,
            )
        )
    line = run.get("cli enumerate per line", "mixed-10", "cli")
    judged = run.get("check", "mixed-10", "public") or run.get("check", "mixed-2", "public")  # --quick: mixed-2
    if line and judged:
        ratio = float(line["seconds"]) / float(judged["seconds"])
        out.append(
            Goal(
                f"enumerate's cost per line (mixed-10) ≤ 0.02 of a check ({judged['scenario']}), the same run",
                f"{ratio:.4f} ({line['seconds'] * 1e6:.2f} µs per line; check {judged['seconds'] * 1e6:.1f} µs)",
                "≤ 0.02",
                ratio <= 0.02,
            )
        )
    return out


def _ratio_pair(run: Run, op: str, a: str, b: str) -> float | None:
    x, y = run.get(op, a, "public"), run.get(op, b, "public")
    return None if x is None or y is None else float(x["seconds"]) / float(y["seconds"])


# -- output --------------------------------------------------------------------------------------------


def _t(s: float | None) -> str:
    if s is None:
        return "—"
    return f"{s * 1e6:,.1f} µs" if s < 1e-3 else f"{s * 1e3:,.2f} ms" if s < 1 else f"{s:,.2f} s"


def _n(n: int | None) -> str:
    return "—" if n is None else f"{n:,}" if n < 10**15 else f"{n:.3e}"


def report(run: Run, names: list[str], judged: list[Goal]) -> str:
    lines = ["# Benchmarks: what users call", ""]
    lines += [
        "One run of `python benchmarks/bench_all.py` on one shared machine: compare ratios within it.",
        "*public* is the documented call on a scenario object as a user holds it (`count(s)` includes",
        "loading the file and compiling it; `sample(s, 1)` is called again and again on the same `s`);",
        "*internal* is the product engine's own figure in the same run; *cpsat* and *constraint* are the",
        "same public call with `engine=`.",
        "",
        "## Goals",
        "",
        "| goal | measured | target | |",
        "|---|---|---|---|",
    ]
    for g in judged:
        verdict = "—" if g.passed is None else "PASS" if g.passed else "FAIL"
        lines.append(f"| {g.name} | {g.measured} | {g.target} | {verdict} |")
    lines += ["", "## Python, per scenario", ""]
    hows = ["public", "LegalOutcomes", "internal", "cpsat", "constraint"]
    lines += ["| operation | scenario | count | " + " | ".join(hows) + " |", "|---" * (3 + len(hows)) + "|"]
    ops = ["count", "enumerate", "list", "lines", "sample", "sample(s, 1)", "best", "check", "step", "explain"]
    for op in ops:
        for sc in names:
            rows = {h: run.get(op, sc, h) for h in hows}
            if not any(rows.values()):
                continue
            first = next(r for r in rows.values() if r)

            def cell(r: dict[str, Any] | None) -> str:
                if r is None:
                    return "—"
                return f"{r['rate']:,.0f}/s" if "rate" in r else _t(r["seconds"])

            lines.append(
                f"| {op} | {sc} | {_n(first.get('count'))} | " + " | ".join(cell(rows[h]) for h in hows) + " |"
            )
    lines += ["", "## The ward family across passes (public calls)", ""]
    lines += ["| k | count | path | count | twin | ratio | sample(s, 1) | twin | ratio | best | twin | ratio |"]
    lines += ["|---" * 12 + "|"]
    for k in WARD:
        a, b = run.get("count", f"ward-{k}", "public"), run.get("count", f"ward-{k}-single", "public")
        if not a or not b:
            continue
        cells = [str(k), _n(a["count"]), a["path"]]
        for op in ("count", "sample(s, 1)", "best"):
            x, y = run.get(op, f"ward-{k}", "public"), run.get(op, f"ward-{k}-single", "public")
            assert x and y
            cells += [_t(x["seconds"]), _t(y["seconds"]), f"{x['seconds'] / y['seconds']:.1f}×"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## The coupled family: count on every engine (public calls)", ""]
    lines += ["| scenario | count | auto | cpsat | constraint | before |", "|---|---|---|---|---|---|"]
    for w in COUPLED:
        sc = f"coupled-{w}"
        rows = {h: run.get("coupled count", sc, h) for h in ("auto", "cpsat", "constraint", "before")}
        if rows["auto"]:
            lines.append(
                f"| {sc} | {_n(rows['auto']['count'])} | "
                + " | ".join(_t(r["seconds"]) if r else "—" for r in rows.values())
                + " |"
            )
    lines += ["", "## The command line, whole processes", ""]
    lines += ["| what | wall | peak memory | rate |", "|---|---|---|---|"]
    for r in run.records:
        if r["how"] == "cli":
            rate = f"{r['rate']:,.0f} lines/s" if "rate" in r else "—"
            lines.append(
                f"| {r['operation']}: {r['scenario']} | {_t(r['seconds'])} | {r['peak_kib'] / 1024:.0f} MiB | {rate} |"
            )
    return "\n".join(lines) + "\n"


def plot(run: Run, out: Path) -> bool:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for how, marker in (("auto", "o"), ("cpsat", "s"), ("constraint", "^"), ("before", "x")):
        pts = [
            (int(r["scenario"].split("-")[1]), r["seconds"])
            for r in run.records
            if r["operation"] == "coupled count" and r["how"] == how
        ]
        if pts:
            left.plot(*zip(*sorted(pts), strict=True), marker=marker, label=how)
    for name, marker in (("ward-{}", "o"), ("ward-{}-single", "s")):
        pts = [(k, r["seconds"]) for k in WARD if (r := run.get("count", name.format(k), "public"))]
        if pts:
            right.plot(*zip(*pts, strict=True), marker=marker, label=name.format("k"))
    left.set(
        xlabel="abilities that may target each other", ylabel="seconds to count (public)", yscale="log", title="coupled"
    )
    right.set(xlabel="k warded creatures", ylabel="seconds to count (public)", yscale="log", title="across passes")
    for ax in (left, right):
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "cost.png", dpi=110)
    plt.close(fig)
    return True


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="CI's smoke test: small scenarios, every measurement")
    ap.add_argument("--out", default=str(HERE / "results"), help="where to write results.md, results.json, cost.png")
    ap.add_argument("--before", metavar="PYTHON", help="an interpreter with the triggerstack of before, for the goal")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    run = Run(args.quick)
    names = QUICK if args.quick else FULL
    steps: list[tuple[str, Callable[[], None]]] = [(f"scenario {n}", partial(bench, run, n)) for n in names]
    steps.append(("the ward family", partial(ward_family, run, [1, 2] if args.quick else WARD)))
    steps.append(("the coupled family", partial(coupled_family, run, [2, 3] if args.quick else COUPLED, args.before)))
    steps.append(("the command line", partial(cli, run)))
    for i, (label, fn) in enumerate(steps, 1):
        print(f"[{i}/{len(steps)}] {label}", file=sys.stderr, flush=True)
        fn()
    judged = goals(run, names)
    text = report(run, names, judged)
    (out / "results.json").write_text(json.dumps(run.records, indent=1) + "\n")
    (out / "results.md").write_text(text)
    drew = plot(run, out)
    for g in judged:
        verdict = "—   " if g.passed is None else "PASS" if g.passed else "FAIL"
        print(f"{verdict}  {g.name}: {g.measured} (target {g.target})")
    print(f"wrote {out / 'results.md'}, {out / 'results.json'}" + (f", {out / 'cost.png'}" if drew else " (no plot)"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
