"""Answers at every size: what users call on large coupled cores and a ten-trigger board wipe, as
whole processes and as public calls, and a click of the judge's page over HTTP.

    pip install --no-deps --target /tmp/old OLD_CHECKOUT
    PYTHONPATH=/tmp/old python benchmarks/bench_sizes.py --label before
    pip install --no-deps --target /tmp/new .
    PYTHONPATH=/tmp/new python benchmarks/bench_sizes.py --label after

(both installed the same way, so that a process's imports cost the same: an editable install's
finder is slower to import through).

Each run writes ``results/sizes-LABEL.json``; ``results/sizes.md`` puts every label found side by
side. Measured: ``triggerstack count`` and ``explain`` as processes (exit code and seconds, the
default time limit of 60 s); ``count(s)``, ``explain(s)``, ``LegalOutcomes(s).sample(1)`` and
``rank`` (``legal[count // 2]`` and ``legal.index`` of it) as public calls; clicks over HTTP
(``serve --http``): each click one ``step.legal``, one ``step.count`` and one ``draw``, the walk
taking the last legal decision each time — the worst click after the first and whether every
count was exact; and a page of 100 outcomes from the middle (``/v1/enumerate`` with the cursor at
half the count). A refusal is recorded as such (exit 2 or an error), never as a time. Ratios
only: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SCENARIOS = HERE / "scenarios"
RESULTS = HERE / "results"
CLI = [sys.executable, "-m", "triggerstack.solver"]
FULL = ["coupled-8", "coupled-10", "coupled-12", "targeting-8", "targeting-12", "wipe-10"]
QUICK = ["coupled-8", "wipe-10"]


def process(verb: str, name: str) -> dict[str, Any]:
    start = time.perf_counter()
    done = subprocess.run([*CLI, verb, str(SCENARIOS / f"{name}.json")], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - start
    first = done.stdout.splitlines()[0] if verb == "count" and done.returncode == 0 else ""
    return {"exit": done.returncode, "seconds": round(seconds, 3), "answer": first, "error": done.stderr.strip()[:200]}


def public(name: str, verbs: tuple[str, ...] = ("count", "explain", "sample", "rank")) -> dict[str, Any]:
    from triggerstack.model import Scenario
    from triggerstack.solver import LegalOutcomes, count, explain

    doc = json.loads((SCENARIOS / f"{name}.json").read_text())
    out: dict[str, Any] = {}
    for verb, call in (
        ("count", lambda s: count(s)),
        ("explain", lambda s: explain(s)),
        ("sample", lambda s: next(LegalOutcomes(s).sample(1, seed=1))),
        ("rank", _middle),
    ):
        if verb not in verbs:
            continue
        start = time.perf_counter()
        try:
            call(Scenario.model_validate(doc))
            out[verb] = {"seconds": round(time.perf_counter() - start, 4)}
        except Exception as exc:  # a refusal (bad input for this size, or the time limit): recorded as such
            seconds = round(time.perf_counter() - start, 4)
            out[verb] = {"refused": f"{type(exc).__name__}: {exc}"[:200], "seconds": seconds}
    return out


def _middle(scenario: Any) -> int:
    """``legal[count // 2]`` and its index back: ranking from the middle."""
    from triggerstack.solver import LegalOutcomes

    legal = LegalOutcomes(scenario)
    middle = legal.count() // 2
    assert legal.index(legal[middle]) == middle
    return middle


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def clicks(names: list[str], pages: list[str], n: int = 12) -> dict[str, Any]:
    import httpx

    port = _port()
    server = subprocess.Popen([*CLI, "serve", "--http", str(port)], stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                httpx.get(base + "/health", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.05)
        out: dict[str, Any] = {}
        with httpx.Client(base_url=base, timeout=120) as client:
            for name in names:
                doc = json.loads((SCENARIOS / f"{name}.json").read_text())
                handle = client.post("/v1/load", json={"scenario": doc}).json()["handle"]
                decisions: list[int] = []
                times, exact = [], True
                for _ in range(n):
                    start = time.perf_counter()
                    state = client.post("/v1/step/legal", json={"handle": handle, "decisions": decisions}).json()
                    reach = client.post("/v1/step/count", json={"handle": handle, "decisions": decisions}).json()
                    client.post("/v1/draw", json={"handle": handle, "decisions": decisions})
                    times.append(time.perf_counter() - start)
                    exact = exact and bool(reach.get("exact"))
                    if not state.get("legal"):
                        break
                    decisions.append(state["legal"][-1]["id"])
                rest = times[1:] or times
                out[name] = {
                    "first_ms": round(times[0] * 1000, 1),
                    "worst_ms": round(max(rest) * 1000, 1),
                    "exact": exact,
                }
            for name in pages:
                doc = json.loads((SCENARIOS / f"{name}.json").read_text())
                handle = client.post("/v1/load", json={"scenario": doc}).json()["handle"]
                start = time.perf_counter()
                counted = client.post("/v1/count", json={"handle": handle}).json()
                count_ms = round((time.perf_counter() - start) * 1000, 1)
                if "count" not in counted:  # refused: the page is not asked for
                    refused = {"ms": 0, "status": "count refused", "n": 0, "count_ms": count_ms}
                    out.setdefault("page", {})[name] = refused
                    continue
                total = int(counted["count"])
                start = time.perf_counter()
                page = client.post("/v1/enumerate", json={"handle": handle, "cursor": str(total // 2), "limit": 100})
                seconds = time.perf_counter() - start
                got = len(page.json().get("outcomes", [])) if page.status_code == 200 else 0
                got_ms = round(seconds * 1000, 1)
                out.setdefault("page", {})[name] = {
                    "ms": got_ms,
                    "status": page.status_code,
                    "n": got,
                    "count_ms": count_ms,
                }
        return out
    finally:
        server.terminate()
        server.wait(timeout=10)


def table() -> str:
    runs = {p.stem.removeprefix("sizes-"): json.loads(p.read_text()) for p in sorted(RESULTS.glob("sizes-*.json"))}
    labels = sorted(runs, key=lambda label: (label != "before", label))
    lines = ["# Answers at every size (benchmarks/bench_sizes.py)", ""]
    lines += ["## Whole processes (seconds; exit 2 is a refusal, 3 the time limit)", ""]
    lines += ["| scenario | verb | " + " | ".join(labels) + " |", "|---|---|" + "---|" * len(labels)]
    names = sorted({n for r in runs.values() for n in r["process"]})
    for name in names:
        for verb in ("count", "explain"):
            cells = []
            for label in labels:
                got = runs[label]["process"].get(name, {}).get(verb)
                cells.append("—" if got is None else f"{got['seconds']} s (exit {got['exit']})")
            lines.append(f"| {name} | {verb} | " + " | ".join(cells) + " |")
    lines += ["", "## Public calls (seconds, or refused)", ""]
    lines += ["| scenario | verb | " + " | ".join(labels) + " |", "|---|---|" + "---|" * len(labels)]
    for name in names:
        for verb in ("count", "explain", "sample", "rank"):
            cells = []
            for label in labels:
                got = runs[label]["public"].get(name, {}).get(verb)
                cells.append("—" if got is None else ("refused" if "refused" in got else f"{got['seconds']} s"))
            lines.append(f"| {name} | {verb} | " + " | ".join(cells) + " |")
    lines += ["", "## A click of the page over HTTP (step.legal + step.count + draw)", ""]
    lines += ["| scenario | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for name in sorted({n for r in runs.values() for n in r["clicks"]}):
        cells = []
        for label in labels:
            got = runs[label]["clicks"].get(name)
            cells.append("—" if got is None else f"worst {got['worst_ms']} ms, exact {got['exact']}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "## A page of 100 outcomes from the middle over HTTP (/v1/enumerate, cursor at count/2)", ""]
    lines += ["The count is asked for first on the same loaded scenario (a client needs it for the cursor).", ""]
    lines += ["| scenario | " + " | ".join(labels) + " |", "|---|" + "---|" * len(labels)]
    for name in sorted({n for r in runs.values() for n in r.get("pages", {})}):
        cells = []
        for label in labels:
            page = runs[label].get("pages", {}).get(name)
            if page is None:
                cells.append("—")
            elif page["status"] == 200:
                cells.append(f"{page['ms']} ms, {page['n']} outcomes (the count first: {page.get('count_ms', '?')} ms)")
            elif page["status"] == "count refused":
                cells.append(f"refused (the count, after {page.get('count_ms', '?')} ms)")
            else:
                cells.append(f"HTTP {page['status']} after {page['ms']} ms")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", default="after", help="the name of this run (before, after …)")
    parser.add_argument("--quick", action="store_true", help="two scenarios: a smoke run")
    parser.add_argument("--out", default=str(RESULTS), help="where the results go")
    parser.add_argument(
        "--only",
        choices=["process", "public", "rank", "http"],
        help="measure only this part (the rest of the label's results are kept)",
    )
    args = parser.parse_args(argv)
    names = QUICK if args.quick else FULL
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"sizes-{args.label}.json"
    result: dict[str, Any] = json.loads(path.read_text()) if args.only and path.exists() else {}
    if args.only in (None, "process"):
        result["process"] = {n: {v: process(v, n) for v in ("count", "explain")} for n in names}
    if args.only in (None, "public"):
        result["public"] = {n: public(n) for n in names}
    if args.only == "rank":
        for n in names:
            result.setdefault("public", {}).setdefault(n, {})["rank"] = public(n, ("rank",))["rank"]
    if args.only in (None, "http"):
        result["clicks"] = clicks(
            ["wipe-10", "coupled-8"] if args.quick else ["wipe-10", "coupled-12", "targeting-12"],
            ["coupled-8"] if args.quick else ["wipe-10", "coupled-10", "coupled-12", "targeting-12"],
        )
        result["pages"] = result["clicks"].pop("page", {})
    path.write_text(json.dumps(result, indent=1) + "\n")
    if out.resolve() == RESULTS.resolve():
        (out / "sizes.md").write_text(table())
    print(json.dumps({k: result.get(k) for k in ("clicks", "pages")}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
