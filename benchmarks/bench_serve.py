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
from typing import Any

from triggerstack.model import Outcome, Scenario
from triggerstack.solver import LegalOutcomes
from triggerstack.solver.serve._jobs import BLOCK

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


class Http:
    """A ``serve --http`` process on a free loopback port, for the duration of a ``with``."""

    def __enter__(self) -> str:
        import socket

        import httpx

        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.server = subprocess.Popen([*CLI, "serve", "--http", str(port)], stderr=subprocess.DEVNULL)
        self.url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                httpx.get(self.url + "/health")
                return self.url
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("serve --http did not start")

    def __exit__(self, *_: object) -> None:
        self.server.terminate()
        self.server.wait(timeout=10)


def http_rate(url: str, n: int) -> float:
    """check requests per second over one keep-alive connection, one at a time."""
    import httpx

    proposal = json.loads(PROPOSAL.read_text())
    scenario = json.loads(SCENARIO.read_text())
    with httpx.Client(base_url=url) as client:
        handle = client.post("/v1/load", json={"scenario": scenario}).json()["handle"]
        for _ in range(20):
            client.post("/v1/check", json={"handle": handle, "proposal": proposal})
        start = time.perf_counter()
        for _ in range(n):
            assert client.post("/v1/check", json={"handle": handle, "proposal": proposal}).status_code == 200
        return n / (time.perf_counter() - start)


def http_load(url: str, seconds: float, clients: int = 8) -> dict[str, float]:
    """``clients`` concurrent clients checking for ``seconds``: answers, errors, latency percentiles."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    proposal = json.loads(PROPOSAL.read_text())
    scenario = json.loads(SCENARIO.read_text())
    with httpx.Client(base_url=url) as client:
        handle = client.post("/v1/load", json={"scenario": scenario}).json()["handle"]
    end = time.perf_counter() + seconds

    def one(_: int) -> tuple[list[float], int, list[object]]:
        latencies: list[float] = []
        errors = 0
        bodies: list[object] = []
        with httpx.Client(base_url=url, timeout=60) as c:
            while time.perf_counter() < end:
                t = time.perf_counter()
                r = c.post("/v1/check", json={"handle": handle, "proposal": proposal})
                latencies.append(time.perf_counter() - t)
                errors += r.status_code != 200
                bodies.append(r.json())
        return latencies, errors, bodies

    with ThreadPoolExecutor(clients) as pool:
        results = list(pool.map(one, range(clients)))
    latencies = sorted(x for r in results for x in r[0])
    bodies = [b for r in results for b in r[2]]
    want = bodies[0] if bodies else None
    return {
        "answers": len(latencies),
        "errors": sum(r[1] for r in results),
        "differing": sum(b != want for b in bodies),
        "p50_ms": latencies[len(latencies) // 2] * 1e3,
        "p99_ms": latencies[int(len(latencies) * 0.99)] * 1e3,
    }


def batch_rates(lines: int) -> dict[str, float]:
    """Seconds for ``triggerstack batch`` of ``lines`` check requests: one process, --jobs 2, and a
    Dask LocalCluster of two workers (the same bytes each time, or the run stops)."""
    import tempfile

    from triggerstack.solver.serve._jobs import run

    scenario = json.loads(SCENARIO.read_text())
    proposal = json.loads(PROPOSAL.read_text())
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "requests.jsonl"
        line = json.dumps({"method": "check", "params": {"scenario": scenario, "proposal": proposal}})
        source.write_text((line + "\n") * lines)
        answers = []
        for name, jobs in (("one process", 1), ("--jobs 2", 2)):
            start = time.perf_counter()
            (written,), _ = run([str(source)], f"{tmp}/{jobs}", jobs=jobs)
            out[name] = time.perf_counter() - start
            answers.append(written.read_bytes())
        import distributed

        cluster_of: Any = distributed.LocalCluster
        client_of: Any = distributed.Client
        with (
            cluster_of(
                n_workers=2, threads_per_worker=1, dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"}
            ) as cluster,
            client_of(cluster) as client,
        ):
            start = time.perf_counter()
            (written,), _ = run([str(source)], f"{tmp}/dask", client=client)
            out["Dask, 2 local workers"] = time.perf_counter() - start
            answers.append(written.read_bytes())
        assert len(set(answers)) == 1, "the three paths disagree"
    return out


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


LOAD_QUICK = 0.5
"""``--quick``'s seconds of HTTP load: enough for every client to be answered (2 s was 8 clients and
the server busy on a 2-core machine for nothing more)."""
BATCH_QUICK = BLOCK + 100
"""``--quick``'s batch lines: two Dask blocks (the run's blocks are put back in order) and five
--jobs chunks, the least that still tells a path that mixes its parts up (2,000 was 9 s of CPU)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few requests, no goal judged")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="where serve.md and serve.json go")
    args = parser.parse_args(argv)
    n, processes = (50, 3) if args.quick else (3000, 20)
    stdio = max(stdio_rate(n) for _ in range(1 if args.quick else 3))
    cli = cli_rate(processes)
    floor = inprocess_rate(n)
    with Http() as url:
        http = max(http_rate(url, n) for _ in range(1 if args.quick else 3))
        load = http_load(url, LOAD_QUICK if args.quick else 30)
    batch = batch_rates(BATCH_QUICK if args.quick else 100_000)
    ok_dask = batch["Dask, 2 local workers"] <= 1.5 * batch["--jobs 2"]
    goal_dask = (
        f"batch on Dask (2 workers) within 1.5× of --jobs 2: {batch['Dask, 2 local workers']:.1f} s vs "
        f"{batch['--jobs 2']:.1f} s ({batch['Dask, 2 local workers'] / batch['--jobs 2']:.2f}×; one process "
        f"{batch['one process']:.1f} s), the same bytes"
    )
    ok = stdio >= 50 * cli
    goal = f"stdio check of a loaded 10-ability scenario ≥ 50× one CLI process per check: {stdio / cli:.0f}×"
    ok_http = stdio >= 5 * http
    goal_http = f"stdio ≥ 5× the HTTP service on the same requests: {stdio / http:.1f}×"
    ok_load = load["errors"] == 0 and load["differing"] == 0
    goal_load = (
        f"8 concurrent HTTP clients for {LOAD_QUICK if args.quick else 30} s: {load['answers']:,.0f} answers, "
        f"{load['errors']:.0f} errors, {load['differing']:.0f} differing, p50 {load['p50_ms']:.1f} ms, "
        f"p99 {load['p99_ms']:.1f} ms"
    )
    lines = [
        "# Benchmarks: the server",
        "",
        "One run of `python benchmarks/bench_serve.py` on one shared machine: compare ratios within it.",
        "",
        "| how `check` of mixed-10 is asked | checks/s |",
        "|---|---|",
        f"| `serve --stdio`, loaded once, one request at a time | {stdio:,.0f} |",
        f"| `triggerstack check ... --json`, one process per check | {cli:,.1f} |",
        f"| `serve --http`, `POST /v1/check`, one keep-alive connection | {http:,.0f} |",
        f"| `LegalOutcomes.check` in-process (the floor) | {floor:,.0f} |",
        "",
        f"* {'PASS' if ok else 'FAIL'}: {goal}",
        f"* {'PASS' if ok_http else 'FAIL'}: {goal_http}",
        f"* {'PASS' if ok_load else 'FAIL'}: {goal_load}",
        f"* {'PASS' if ok_dask else 'FAIL'}: {goal_dask}",
    ]
    text = "\n".join(lines) + "\n"
    for passed, what in ((ok, goal), (ok_http, goal_http), (ok_load, goal_load), (ok_dask, goal_dask)):
        print(f"{'PASS' if passed else 'FAIL'}  {what}", file=sys.stderr)
    if args.quick:
        print(text)
    else:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "serve.md").write_text(text, encoding="utf-8")

        data: dict[str, object] = {"stdio_checks_per_s": stdio, "cli_checks_per_s": cli}
        data |= {"inprocess_checks_per_s": floor, "http_checks_per_s": http, "http_load": load, "batch_s": batch}
        (args.out / "serve.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out / 'serve.md'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
