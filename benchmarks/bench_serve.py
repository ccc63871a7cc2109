"""The server as an engine calls it, beside one command-line process per question, in one run.

    python benchmarks/bench_serve.py [--quick] [--out DIR]

A long-lived ``triggerstack serve --stdio`` child gets a 10-ability scenario once (``load``) and
then ``check`` requests for it one at a time, each answer read before the next request is written
(as an engine validating its players' moves would); beside it, ``triggerstack check SCENARIO
PROPOSAL --json`` as one process per check, and ``check`` called in-process on a LegalOutcomes
(the floor). Writes ``results/serve.md`` and ``results/serve.json``; the stdio goal of the server
issue is judged PASS/FAIL. Ratios only: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from triggerstack.model import Outcome, Scenario
from triggerstack.solver import LegalOutcomes

HERE = Path(__file__).resolve().parent
SCENARIO = HERE / "scenarios" / "mixed-10.json"
PROPOSAL = HERE / "scenarios" / "mixed-10.proposal.json"
CLI = [sys.executable, "-m", "triggerstack.solver"]


def stdio_rate(n: int) -> float:
    """check requests per second through one server process, one request in flight at a time."""
    server = subprocess.Popen([*CLI, "serve", "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert server.stdin is not None and server.stdout is not None
    proposal = json.loads(PROPOSAL.read_text())

    def ask(ident: int, method: str, params: dict[str, object]) -> dict[str, object]:
        assert server.stdin is not None and server.stdout is not None
        line = json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        server.stdin.write(line.encode() + b"\n")
        server.stdin.flush()
        answer = json.loads(server.stdout.readline())
        assert "result" in answer, answer
        return dict(answer)

    handle = ask(0, "load", {"path": str(SCENARIO)})["result"]["handle"]  # type: ignore[index]
    for i in range(20):  # warm
        ask(i, "check", {"handle": handle, "proposal": proposal})
    start = time.perf_counter()
    for i in range(n):
        ask(i, "check", {"handle": handle, "proposal": proposal})
    rate = n / (time.perf_counter() - start)
    server.stdin.close()
    server.wait(timeout=30)
    server.stdout.close()
    return rate


def cli_rate(n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        subprocess.run([*CLI, "check", str(SCENARIO), str(PROPOSAL), "--json"], capture_output=True, check=False)
    return n / (time.perf_counter() - start)


def inprocess_rate(n: int) -> float:
    legal = LegalOutcomes(Scenario.load(str(SCENARIO)))
    proposal = Outcome.load(str(PROPOSAL))
    legal.check(proposal)
    start = time.perf_counter()
    for _ in range(n):
        legal.check(proposal)
    return n / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few requests, no goal judged")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="where serve.md and serve.json go")
    args = parser.parse_args(argv)
    n, processes = (50, 3) if args.quick else (3000, 20)
    stdio = max(stdio_rate(n) for _ in range(1 if args.quick else 3))
    cli = cli_rate(processes)
    floor = inprocess_rate(n)
    ok = stdio >= 50 * cli
    goal = f"stdio check of a loaded 10-ability scenario ≥ 50× one CLI process per check: {stdio / cli:.0f}×"
    lines = [
        "# Benchmarks: the server",
        "",
        "One run of `python benchmarks/bench_serve.py` on one shared machine: compare ratios within it.",
        "",
        "| how `check` of mixed-10 is asked | checks/s |",
        "|---|---|",
        f"| `serve --stdio`, loaded once, one request at a time | {stdio:,.0f} |",
        f"| `triggerstack check ... --json`, one process per check | {cli:,.1f} |",
        f"| `LegalOutcomes.check` in-process (the floor) | {floor:,.0f} |",
        "",
        f"{'PASS' if ok else 'FAIL'}: {goal} (the HTTP service is not built yet: its ratio is not measured).",
    ]
    text = "\n".join(lines) + "\n"
    print(f"{'PASS' if ok else 'FAIL'}  {goal}", file=sys.stderr)
    if args.quick:
        print(text)
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "serve.md").write_text(text, encoding="utf-8")
        data = {"stdio_checks_per_s": stdio, "cli_checks_per_s": cli, "inprocess_checks_per_s": floor}
        (args.out / "serve.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out / 'serve.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
