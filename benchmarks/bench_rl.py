"""The environments as an RL user drives them, beside PettingZoo's own games in the same run.

    python benchmarks/bench_rl.py [--quick] [--out DIR] [--classic PYTHON | --install-classic]

Times random masked play through the AEC API exactly as PettingZoo's documentation loops it
(``agent_iter``, ``last``, a uniform draw over the mask, ``step``), on ``rl.env(...)`` — the
wrapped environment a user gets — and on ``connect_four_v3`` and ``chess_v6`` from
``pettingzoo.classic``. Those games need packages the project does not depend on (``chess``,
``pygame-ce``): they are measured in this interpreter if it has them, else in ``--classic
PYTHON``, else in ``benchmarks/.venv-classic`` (made by ``--install-classic``: ``pettingzoo chess
pygame-ce``, never in the project's environment), else skipped with a message. Also: the
environment's own internal figure (a walk of ``Stepper.legal`` and ``apply_unchecked`` with no
observation), the Gymnasium wrapper, ``reset`` on a new 10-ability scenario, and ``observe`` +
mask beside one step. Writes ``results/rl.md`` and ``results/rl.json``; the goals of the RL issue
are judged PASS/FAIL. Ratios only: the machine is shared.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from triggerstack.model import compile_facts
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import Stepper, rl

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCENARIOS = HERE / "scenarios"
CLASSIC_VENV = HERE / ".venv-classic"



def play(game: Any, steps: int, seed: int = 0) -> float:
    """Random masked play through the AEC API: env.step calls per second."""
    rng = np.random.default_rng(seed)
    done = 0
    episode = 0
    start = time.perf_counter()
    while done < steps:
        game.reset(seed=episode)
        episode += 1
        for _agent in game.agent_iter():
            observation, _reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
            game.step(action)
            done += 1
    return done / (time.perf_counter() - start)


CLASSIC = f"""
import json, sys, time
from typing import Any
import numpy as np
from pettingzoo.classic import chess_v6, connect_four_v3
{inspect.getsource(play)}
steps = int(sys.argv[1])
found = {{"connect_four_v3": play(connect_four_v3.env(), steps)}}
found["chess_v6"] = play(chess_v6.env(), max(steps // 4, 500))
print(json.dumps(found))
"""
"""The same loop, run in the interpreter that has the classic games."""


def _best(f: Callable[[], float], repeat: int) -> float:
    return max(f() for _ in range(repeat))


def _classic(python: str | None, steps: int, install: bool) -> tuple[dict[str, float] | None, str]:
    import importlib.util

    if all(importlib.util.find_spec(m) for m in ("chess", "pygame")):
        python = sys.executable
    else:
        if python is None and (CLASSIC_VENV / "bin" / "python").exists():
            python = str(CLASSIC_VENV / "bin" / "python")
        if python is None and install:
            subprocess.run([sys.executable, "-m", "venv", str(CLASSIC_VENV)], check=True)
            pip = [str(CLASSIC_VENV / "bin" / "pip"), "install", "-q", "pettingzoo", "chess", "pygame-ce", "numpy"]
            subprocess.run(pip, check=True)
            python = str(CLASSIC_VENV / "bin" / "python")
    if python is None:
        why = "no interpreter with pettingzoo.classic's chess and pygame (give --classic or --install-classic)"
        return None, f"skipped: {why}"
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    done = subprocess.run(
        [python, "-c", CLASSIC, str(steps)], capture_output=True, text=True, check=False, env=env, timeout=600
    )
    if done.returncode != 0:
        return None, f"skipped: the classic games did not run in {python}: {done.stderr.strip().splitlines()[-1:]}"
    return json.loads(done.stdout.strip().splitlines()[-1]), f"measured in {python}"


def _aec(path: str, steps: int) -> float:
    game = rl.env(path)
    play(game, 200)  # warm: each ability's choices are listed once, the first time it is put
    return play(game, steps)


def _internal(path: Path, steps: int) -> float:
    """The stepper alone: legal and apply_unchecked, no observation, no PettingZoo."""
    stepper = Stepper(compile_facts(parse_scenario(json.loads(path.read_text()))))
    rng = np.random.default_rng(0)
    for _ in range(20):  # warm, as the environment is
        walk = stepper.start()
        while legal := stepper.legal(walk):
            walk = stepper.apply_unchecked(walk, legal[int(rng.integers(len(legal)))])
    done = 0
    start = time.perf_counter()
    while done < steps:
        walk = stepper.start()
        while legal := stepper.legal(walk):
            walk = stepper.apply_unchecked(walk, legal[int(rng.integers(len(legal)))])
            done += 1
    return done / (time.perf_counter() - start)


def _gym(path: str, steps: int) -> float:
    game = rl.TriggerStackGym(path)
    rng = np.random.default_rng(0)
    done = -200  # the first 200 steps warm it
    start = time.perf_counter()
    while done < steps:
        game.reset(seed=done + 200)
        terminated = False
        while not terminated:
            legal = np.flatnonzero(game.action_masks())
            _, _, terminated, _, _ = game.step(int(legal[rng.integers(len(legal))]))
            done += 1
            if done == 0:
                start = time.perf_counter()
    return done / (time.perf_counter() - start)


def _reset_new(path: Path, n: int) -> float:
    """Seconds per reset on a scenario the environment has never seen (compiling included)."""
    doc = json.loads(path.read_text())
    layout = Stepper(compile_facts(parse_scenario(doc))).needs
    fresh = [parse_scenario(doc) for _ in range(n + 5)]
    game = rl.raw_env(iter(fresh), layout=layout)
    for _ in range(5):
        game.reset()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        game.reset()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def _observe_vs_step(path: str, n: int) -> tuple[float, float]:
    """Seconds per observe + mask of the agent who decides, and per step (observe excluded)."""
    game = rl.raw_env(path)
    rng = np.random.default_rng(0)
    observe = 0.0
    stepping = 0.0
    calls = 0
    while calls < n:
        game.reset(seed=calls)
        while not game.terminations[game.agent_selection]:
            start = time.perf_counter()
            observation = game.observe(game.agent_selection)
            middle = time.perf_counter()
            legal = np.flatnonzero(observation["action_mask"])
            action = int(legal[rng.integers(len(legal))])
            before = time.perf_counter()
            game.step(action)
            observe += middle - start
            stepping += time.perf_counter() - before
            calls += 1
    return observe / calls, stepping / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few steps, no goal judged")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="where rl.md and rl.json go")
    parser.add_argument("--classic", metavar="PYTHON", help="an interpreter with pettingzoo, chess and pygame-ce")
    parser.add_argument(
        "--install-classic", action="store_true", help=f"make {CLASSIC_VENV.name} for the classic games"
    )
    args = parser.parse_args(argv)
    steps = 400 if args.quick else 20_000
    repeat = 1 if args.quick else 3

    rows: list[dict[str, Any]] = []
    cases = [("examples (one drawn per episode)", str(ROOT / "examples"))]
    names = ("abilities-8", "mixed-10", "candidates-60", "ward-3")
    cases += [(name, str(SCENARIOS / f"{name}.json")) for name in names]
    for name, path in cases:
        print(f"env: {name}", file=sys.stderr)
        row: dict[str, Any] = {"scenario": name, "aec": _best(partial(_aec, path, steps), repeat)}
        if path.endswith(".json"):
            row["internal"] = _best(partial(_internal, Path(path), steps), repeat)
        row["gym"] = _best(partial(_gym, path, steps // 2), repeat)
        rows.append(row)
    print("classic games", file=sys.stderr)
    classic, where = _classic(args.classic, steps, args.install_classic)
    reset = _reset_new(SCENARIOS / "mixed-10.json", 20 if args.quick else 200)
    observe, step = _observe_vs_step(str(SCENARIOS / "mixed-10.json"), steps // 4)

    slowest = min(r["aec"] for r in rows)
    goals: list[tuple[str, str, bool | None]] = []
    if classic is not None:
        c4, chess = classic["connect_four_v3"], classic["chess_v6"]
        goals.append((
            "AEC steps/s ≥ connect_four_v3 (slowest scenario)",
            f"{slowest:,.0f} vs {c4:,.0f} ({slowest / c4:.2f}×)",
            slowest >= c4,
        ))
        measured = f"{slowest / chess:.1f}× ({chess:,.0f}/s)"
        goals.append(("AEC steps/s ≥ 5× chess_v6 (slowest scenario)", measured, slowest >= 5 * chess))
    else:
        goals.append(("AEC steps/s against PettingZoo's classic games", where, None))
    goals.append(("reset on a new 10-ability scenario ≤ 5 ms", f"{reset * 1e3:.2f} ms", reset <= 0.005))
    goals.append((
        "observe + mask ≤ one step",
        f"{observe * 1e6:.1f} µs vs {step * 1e6:.1f} µs",
        observe <= step,
    ))

    lines = [
        "# Benchmarks: the RL environments",
        "",
        "One run of `python benchmarks/bench_rl.py` on one shared machine: compare ratios within it.",
        "Steps/s count every `env.step` call of random masked play through the AEC API, the loop",
        "PettingZoo documents, on `rl.env(...)` (with PettingZoo's wrappers, as its own games are given).",
        f"Classic games: {where}.",
        "",
        "## Goals",
        "",
        "| goal | measured | |",
        "|---|---|---|",
        *[f"| {g} | {m} | {'—' if ok is None else 'PASS' if ok else 'FAIL'} |" for g, m, ok in goals],
        "",
        "## Steps per second",
        "",
        "| scenario | AEC env | stepper alone | Gymnasium (one seat) |",
        "|---|---|---|---|",
        *[
            f"| {r['scenario']} | {r['aec']:,.0f} | {r.get('internal', float('nan')):,.0f} | {r['gym']:,.0f} |".replace(
                "| nan |", "| — |"
            )
            for r in rows
        ],
    ]
    if classic is not None:
        lines += ["", "| PettingZoo game | AEC env |", "|---|---|"]
        lines += [f"| {k} | {v:,.0f} |" for k, v in classic.items()]
    lines += ["", f"`reset` on a new 10-ability scenario (mixed-10, compiled anew): {reset * 1e3:.2f} ms median."]
    lines += [f"`observe` + mask of who decides: {observe * 1e6:.1f} µs; one `step`: {step * 1e6:.1f} µs (mixed-10)."]
    text = "\n".join(lines) + "\n"
    for g, m, ok in goals:
        print(f"{'—   ' if ok is None else 'PASS' if ok else 'FAIL'}  {g}: {m}", file=sys.stderr)
    if not args.quick:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "rl.md").write_text(text, encoding="utf-8")
        data = {"rows": rows, "classic": classic, "reset_s": reset, "observe_s": observe, "step_s": step}
        (args.out / "rl.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.out / 'rl.md'}, {args.out / 'rl.json'}", file=sys.stderr)
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
