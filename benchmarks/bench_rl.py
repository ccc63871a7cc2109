"""The environments as an RL user drives them, beside PettingZoo's own games in the same run.

    python benchmarks/bench_rl.py [--quick] [--out DIR] [--rounds N] [--classic PYTHON | --install-classic]
                                  [--train PYTHON] [--rllib PYTHON]
    python benchmarks/bench_rl.py --drawn [--rounds N] [--episodes N] ...  # issue 53's goals alone: rl-drawn.md

Both print issue 53's whole goal table: on the boards ``rl.boards`` draws, the warm environment
beside ``connect_four_v3`` and OpenSpiel's ``connect_four`` measured alternately in the same run;
the README trainer (``rl_trainer.py``) in ``--train PYTHON`` (an interpreter with the extra
[train]) and RLlib's PPO with 1 and 2 workers (the docs' command) in ``--rllib PYTHON`` (the extra
[rllib]), each in this interpreter if it has the extra, else reported not measured (``rl_drawn.py``).

Times random masked play through the AEC API exactly as PettingZoo's documentation loops it
(``agent_iter``, ``last``, a uniform draw over the mask, ``step``), on ``rl.env(...)`` — the
wrapped environment a user gets — and on ``connect_four_v3`` and ``chess_v6`` from
``pettingzoo.classic``. Those games need packages the project does not depend on (``chess``,
``pygame-ce``): they are measured in this interpreter if it has them, else in ``--classic
PYTHON``, else in ``benchmarks/.venv-classic`` (made by ``--install-classic``: ``pettingzoo chess
pygame-ce``, never in the project's environment), else skipped with a message.

Beside each scenario's AEC rate, on the same walks (one seeded draw per decision): the stepper
alone (``Stepper.legal`` and ``apply_unchecked``, no observation). A fresh board every episode
against the same boards warm, on the same walks: copies of one scenario parsed anew, and boards
written anew by ``make_scenarios.py``'s families with seeded sizes (each board is parsed before
the clock starts, as a board generator would hand it over; compiling it is the environment's);
and boards of real cards drawn by ``rl.boards`` as each episode starts (drawing and counting them
on the clock) or ahead by one worker process (``rl_drawn.py``). Beside the stepper, the AEC protocol
alone: an environment with no rules replaying the same walks, which bounds what any environment can
reach against the stepper (``rl_bounds.py``).
The vector environment per board-step against the one-board Gymnasium environment. Also
``reset`` on a new 10-ability scenario and ``observe`` + mask beside one step. Writes
``results/rl.md`` and ``results/rl.json``; the goals of the RL issues are judged PASS/FAIL.
Rates are per CPU second of this process (``time.process_time``; a classic game's, of its own), and
ratios only: the machine is shared, so each pair is measured alternately and the best of each
kept (the slowest scenario and ``connect_four_v3``, measured minutes apart, are measured again
alternately at the end). Each figure starts from a collected heap (an environment built on a file is a cycle, and
what one figure leaves the garbage collector would be billed to the next).
"""

from __future__ import annotations

import argparse
import gc
import inspect
import json
import os
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from triggerstack.model import compile_facts
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import ActionLayout, Stepper, rl
from triggerstack.solver.rl._checked import Checked

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SCENARIOS = HERE / "scenarios"
CLASSIC_VENV = HERE / ".venv-classic"


def _sibling(name: str) -> Any:
    """A script beside this one, as a module (``make_scenarios``: the families of the committed scenarios)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_scenarios = _sibling("make_scenarios")
rl_drawn = _sibling("rl_drawn")
rl_bounds = _sibling("rl_bounds")


def play(game: Any, steps: int, seed: int = 0, decisions: bool = False) -> float:
    """Random masked play through the AEC API: env.step calls per second (``decisions``: only
    the calls that take a decision, not those that pass over an agent whose episode is over)."""
    rng = np.random.default_rng(seed)
    done = 0
    episode = 0
    start = time.process_time()
    while done < steps:
        game.reset(seed=episode)
        episode += 1
        for _agent in game.agent_iter():
            observation, _reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                action = None
                done += not decisions
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.integers(len(legal))])
                done += 1
            game.step(action)
    return done / (time.process_time() - start)


CLASSIC = f"""
import json, sys, time
from typing import Any
import numpy as np
from pettingzoo.classic import chess_v6, connect_four_v3
{inspect.getsource(play)}
steps = int(sys.argv[1])
found = {{"connect_four_v3": max(play(connect_four_v3.env(), steps) for _ in range(3))}}
if sys.argv[2:] != ["connect_four_v3"]:
    found["chess_v6"] = play(chess_v6.env(), max(steps // 4, 500))
print(json.dumps(found))
"""
"""The same loop, run in the interpreter that has the classic games."""


T = TypeVar("T")
Goal = tuple[str, str, bool | None]


def _clean(f: Callable[[], T]) -> T:
    """``f()`` from a collected heap: what an earlier figure left for the garbage collector (an
    environment built on a file keeps its scenario's facts, a cycle) is not billed to this one
    (not with ``--quick``: see ``rl_drawn.COLLECT``)."""
    if rl_drawn.COLLECT:
        gc.collect()
    return f()


def _best(f: Callable[[], float], repeat: int) -> float:
    return max(_clean(f) for _ in range(repeat))


def _pair(f: Callable[[], float], g: Callable[[], float], repeat: int) -> tuple[float, float]:
    """Both rates, measured alternately ``repeat`` times: the best of each (a shared machine)."""
    a = b = 0.0
    for _ in range(repeat):
        a = max(a, _clean(f))
        b = max(b, _clean(g))
    return a, b


def _classic(
    python: str | None, steps: int, install: bool, only: str | None = None
) -> tuple[dict[str, float] | None, str]:
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
        [python, "-c", CLASSIC, str(steps), *([only] if only else [])],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        timeout=600,
    )
    if done.returncode != 0:
        return None, f"skipped: the classic games did not run in {python}: {done.stderr.strip().splitlines()[-1:]}"
    return json.loads(done.stdout.strip().splitlines()[-1]), f"measured in {python}"


def _connect_four(args: argparse.Namespace, steps: int) -> float | None:
    """One measure of ``connect_four_v3`` 's steps per CPU second (None: no interpreter has it)."""
    found, _ = _classic(args.classic, steps, args.install_classic, only="connect_four_v3")
    return None if found is None else found["connect_four_v3"]


def _aec(game: Any, steps: int, decisions: bool = False, seed: int = 0) -> float:
    """The AEC rate of a warm environment (warmed with another seed than the one measured, ``seed``)."""
    play(game, 200, seed=1)
    return play(game, steps, seed=seed, decisions=decisions)


def _protocol(path: str, steps: int) -> float:
    """Decisions/s of ``rl_bounds.Protocol`` on ``path`` 's walks, wrapped as ``rl.env`` wraps."""
    return _aec(Checked(rl_bounds.Protocol(path)), steps, decisions=True)


def _gym(path: str, steps: int) -> float:
    """The one-board Gymnasium environment: the seat's steps per second."""
    game = rl.TriggerStackGym(path)
    rng = np.random.default_rng(0)
    done = -200  # the first 200 steps warm it
    start = time.process_time()
    episode = 0
    game.reset(seed=episode)
    while done < steps:
        legal = np.flatnonzero(game.action_masks())
        _, _, terminated, _, _ = game.step(int(legal[rng.integers(len(legal))]))
        done += 1
        if done == 0:
            start = time.process_time()
        if terminated:
            episode += 1
            game.reset(seed=episode)
    return done / (time.process_time() - start)


def _vector(path: str, boards: int, steps: int) -> float:
    """The vector environment: board-steps per second, each board's action drawn uniformly over
    its mask in one batched draw."""
    envs = rl.vector_env(boards, path)
    rng = np.random.default_rng(0)
    envs.reset(seed=0)
    for _ in range(max(200 // boards, 1)):  # warm
        masks = envs.action_masks()
        envs.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
    done = 0
    start = time.process_time()
    while done < steps:
        masks = envs.action_masks()
        envs.step(np.argmax(rng.random(masks.shape) * masks, axis=1))
        done += boards
    return done / (time.process_time() - start)


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


FAMILIES: list[tuple[Callable[..., dict[str, Any]], Callable[[np.random.Generator], tuple[int, ...]]]] = [
    (lambda n, p: make_scenarios.mixed(n, p)[0], lambda r: (int(r.integers(2, 11)), int(r.integers(2, 4)))),
    (make_scenarios.simple, lambda r: (int(r.integers(2, 11)), int(r.integers(2, 4)), int(r.integers(2, 9)))),
    (make_scenarios.wide, lambda r: (int(r.integers(2, 31)),)),
    (make_scenarios.ward, lambda r: (int(r.integers(1, 5)),)),
    (make_scenarios.coupled, lambda r: (int(r.integers(2, 5)),)),
]
"""The generator of fresh boards: make_scenarios.py's families, each board's sizes drawn."""


def _generated(n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` boards from :data:`FAMILIES`, each with a decision to make."""
    rng = np.random.default_rng(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        family, sizes = FAMILIES[int(rng.integers(len(FAMILIES)))]
        doc = family(*sizes(rng))
        stepper = Stepper(compile_facts(parse_scenario(doc)))
        if stepper.legal(stepper.start()):
            out.append(doc)
    return out


def _episodes(game: Any, boards: list[Any] | None, n: int, seed: int = 0) -> float:
    """Decisions per second over ``n`` episodes through the AEC loop: the ``k``-th on
    ``boards[k]`` (None: the one the source draws), one draw per decision seeded by ``seed``."""
    rng = np.random.default_rng(seed)
    done = 0
    start = time.process_time()
    for k in range(n):
        game.reset(options=None if boards is None else {"scenario": boards[k]})  # no seed: it restarts rl.boards
        for _agent in game.agent_iter():
            observation, _reward, terminated, truncated, _info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game.step(int(legal[rng.integers(len(legal))]))
            done += 1
    return done / (time.process_time() - start)


def _fresh_vs_warm(docs: list[dict[str, Any]], repeat: int) -> tuple[float, float]:
    """Decisions/s with a board never seen before every episode, and on the same boards in the
    same order once each was compiled and played: the same walks."""
    layout = ActionLayout.covering(Stepper(compile_facts(parse_scenario(d))).needs for d in docs)
    fresh = deque(parse_scenario(d) for _ in range(repeat) for d in docs)
    warm_boards = [parse_scenario(d) for d in docs]
    warm = rl.env(warm_boards, layout=layout)  # compiled here, before the clock
    _episodes(warm, warm_boards, len(docs))  # each board played once
    if rl_drawn.COLLECT:
        gc.collect()
    gc.freeze()  # the boards waiting in the deque are the benchmark's, not the environment's: never scanned
    games = [rl.env(lambda _rng: fresh.popleft(), layout=layout) for _ in range(repeat)]
    try:
        return _pair(
            lambda: _episodes(games.pop(), None, len(docs)), lambda: _episodes(warm, warm_boards, len(docs)), repeat
        )
    finally:
        gc.unfreeze()


def _measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of one run."""
    steps = 400 if args.quick else 20_000
    repeat = 1 if args.quick else args.rounds
    episodes = 10 if args.quick else args.episodes
    rows: list[dict[str, Any]] = []
    games: dict[str, Any] = {}
    cases = [("examples (one drawn per episode)", str(ROOT / "examples"))]
    names = ("abilities-8", "mixed-10", "candidates-60", "ward-3")
    cases += [(name, str(SCENARIOS / f"{name}.json")) for name in names]
    for name, path in cases:
        print(f"env: {name}", file=sys.stderr)
        game = games[name] = rl.env(path)
        row: dict[str, Any] = {"scenario": name, "aec": _best(partial(_aec, game, steps), repeat)}
        if path.endswith(".json"):
            row["decisions"], row["internal"] = _pair(
                partial(_aec, game, steps, decisions=True), partial(rl_bounds.internal, Path(path), steps), repeat
            )
            row["protocol"] = _best(partial(_protocol, path, steps), repeat)
        row["gym"] = _best(partial(_gym, path, steps // 2), repeat)
        rows.append(row)
    print("a fresh board every episode", file=sys.stderr)
    fresh: list[dict[str, Any]] = []
    for name, docs in [
        ("mixed-10, parsed anew", [json.loads((SCENARIOS / "mixed-10.json").read_text())] * episodes),
        ("candidates-60, parsed anew", [json.loads((SCENARIOS / "candidates-60.json").read_text())] * episodes),
        ("make_scenarios families, sizes drawn", _generated(episodes)),
    ]:
        rate, warm = _fresh_vs_warm(docs, repeat)
        fresh.append({"boards": name, "fresh": rate, "warm": warm})
    issue53, drawn_rows, games["rl.boards (warm, 200 boards)"] = rl_drawn.figures(
        _episodes, _aec, steps, repeat, episodes, args, partial(_connect_four, args, steps)
    )
    fresh += drawn_rows
    print("vector environment", file=sys.stderr)
    vector: list[dict[str, Any]] = []
    for name, path, boards in [
        ("examples", str(ROOT / "examples"), 16),
        ("mixed-10", str(SCENARIOS / "mixed-10.json"), 16),
    ]:
        one, many = _pair(partial(_gym, path, steps // 2), partial(_vector, path, boards, steps // 2), repeat)
        vector.append({"scenario": name, "boards": boards, "one": one, "vector": many})
    print("classic games", file=sys.stderr)
    classic, where = _classic(args.classic, steps, args.install_classic)
    if classic is not None and not args.quick:
        # The goal compares the slowest scenario with connect_four_v3, measured minutes apart on a
        # shared machine: measure the two again alternately, the best of each kept (as every pair).
        slowest = min(rows, key=lambda r: r["aec"])
        for _ in range(repeat):
            slowest["aec"] = max(slowest["aec"], _clean(partial(_aec, games[slowest["scenario"]], steps)))
            again, _ = _classic(args.classic, steps, args.install_classic, only="connect_four_v3")
            if again is not None:
                classic["connect_four_v3"] = max(classic["connect_four_v3"], again["connect_four_v3"])
    reset = _clean(partial(_reset_new, SCENARIOS / "mixed-10.json", 20 if args.quick else 200))
    observe, step = _clean(partial(_observe_vs_step, str(SCENARIOS / "mixed-10.json"), steps // 4))
    return {
        "rows": rows,
        "fresh": fresh,
        "vector": vector,
        "classic": classic,
        "where": where,
        "reset_s": reset,
        "observe_s": observe,
        "step_s": step,
        "issue53": issue53,
    }


def _cap(row: dict[str, Any]) -> float:
    """The best env/stepper ratio an environment could reach on ``row`` 's walks if its rules
    cost the stepper's time and nothing else: per decision, the stepper plus the protocol alone."""
    return float(row["protocol"] / (row["protocol"] + row["internal"]))


def _goals(m: dict[str, Any]) -> list[Goal]:
    """The goals of the RL issues before issue 53, on the benchmark scenarios."""
    rows, classic = m["rows"], m["classic"]
    slowest = min(r["aec"] for r in rows)
    laid = [r for r in rows if "internal" in r]
    worst = min(laid, key=lambda r: r["decisions"] / r["internal"])
    ratio = worst["decisions"] / worst["internal"]
    measured = f"{ratio:.2f}× at worst ({worst['scenario']}: {worst['decisions']:,.0f} vs {worst['internal']:,.0f})"
    measured += f"; the protocol alone caps it at {_cap(worst):.2f}× (retired by issue 53: it rewards a slower stepper)"
    goals: list[Goal] = [("warm AEC env ≥ ½ the stepper alone, same walks (every scenario)", measured, None)]
    if classic is not None:
        c4, chess = classic["connect_four_v3"], classic["chess_v6"]
        measured = f"{slowest / c4:.2f}× ({slowest:,.0f} vs {c4:,.0f})"
        goals.append(("warm AEC env ≥ 3× connect_four_v3 (slowest scenario)", measured, slowest >= 3 * c4))
        measured = f"{slowest / chess:.1f}× ({chess:,.0f}/s)"
        goals.append(("AEC steps/s ≥ 5× chess_v6 (slowest scenario)", measured, slowest >= 5 * chess))
    else:
        goals.append(("AEC steps/s against PettingZoo's classic games", m["where"], None))
    worst = min(m["fresh"], key=lambda f: f["fresh"] / f["warm"])
    ratio = worst["fresh"] / worst["warm"]
    measured = f"{ratio:.2f}× at worst ({worst['boards']})"
    goals.append(("a fresh board every episode ≥ ½ warm, same walks (every source)", measured, ratio >= 0.5))
    worst = min(m["vector"], key=lambda v: v["vector"] / v["one"])
    ratio = worst["vector"] / worst["one"]
    measured = f"{ratio:.2f}× at worst ({worst['scenario']}, {worst['boards']} boards)"
    goals.append(("vector env per board-step ≥ one env", measured, ratio >= 1.0))
    reset = m["reset_s"]
    goals.append(("reset on a new 10-ability scenario ≤ 5 ms", f"{reset * 1e3:.2f} ms", reset <= 0.005))
    observe, step = m["observe_s"], m["step_s"]
    measured = f"{observe * 1e6:.1f} µs vs {step * 1e6:.1f} µs"
    goals.append(("observe + mask ≤ one step", measured, observe <= step))
    return goals


def _against(row: dict[str, Any]) -> str:
    if "protocol" not in row:
        return "—"
    return f"{row['decisions'] / row['internal']:.2f} ({_cap(row):.2f})"


def _table(m: dict[str, Any]) -> str:
    def n(x: float | None) -> str:
        return "—" if x is None else f"{x:,.0f}"

    lines = [
        "# Benchmarks: the RL environments",
        "",
        "One run of `python benchmarks/bench_rl.py` on one shared machine: compare ratios within it (each pair",
        "measured alternately, the best of each kept; rates per CPU second). Steps/s count every `env.step` call of",
        "random masked play through the AEC API, the loop PettingZoo documents, on `rl.env(...)` (with its order",
        "and bounds checks, as PettingZoo's own games are given); decisions/s count the calls that take a decision,",
        "on the walks the",
        f"stepper alone takes (one seeded draw per decision). Classic games: {m['where']}; the slowest scenario",
        "and connect_four_v3 are measured again alternately once every figure is in (the best of each kept).",
        "",
        "## Goals of issue 53",
        "",
        "On the boards `rl.boards` draws for the training example (its section below); the trainer and RLlib in",
        "the interpreters given (`--train`, `--rllib`), RLlib's steps/s its own, wall-clock.",
        "",
        *rl_drawn.goal_rows(rl_drawn.goals(m["issue53"], m["where"])),
        "",
        "## Earlier goals, on the benchmark scenarios",
        "",
        *rl_drawn.goal_rows(_goals(m)),
        "",
        "## Steps per second",
        "",
        "| scenario | AEC env steps/s | AEC env decisions/s | stepper alone decisions/s | protocol alone"
        " decisions/s | env / stepper (cap) | Gymnasium (one seat) |",
        "|---|---|---|---|---|---|---|",
        *[
            f"| {r['scenario']} | {n(r['aec'])} | {n(r.get('decisions'))} | {n(r.get('internal'))}"
            f" | {n(r.get('protocol'))} | {_against(r)} | {n(r['gym'])} |"
            for r in m["rows"]
        ],
        "",
        "The protocol alone: an AEC environment with no rules that replays the env's walks (whose turn,",
        "which mask) with an observation of the same size, through the same wrapper, in the same loop. The",
        "cap is the env / stepper ratio an environment would reach if knowing the rules cost it the stepper's",
        "time and nothing more: protocol / (protocol + stepper), per decision.",
    ]
    if m["classic"] is not None:
        lines += ["", "| PettingZoo game | AEC env |", "|---|---|"]
        lines += [f"| {k} | {v:,.0f} |" for k, v in m["classic"].items()]
    lines += ["", "## A fresh board every episode", "", *rl_drawn.fresh_table(m["fresh"])]
    lines += rl_drawn.section(m["issue53"])
    lines += ["", "## The vector environment", "", "| scenario | boards | one env, steps/s | vector, board-steps/s |"]
    lines += ["|---|---|---|---|"]
    lines += [f"| {v['scenario']} | {v['boards']} | {n(v['one'])} | {n(v['vector'])} |" for v in m["vector"]]
    lines += [
        "",
        f"`reset` on a new 10-ability scenario (mixed-10, compiled anew): {m['reset_s'] * 1e3:.2f} ms median.",
    ]
    observe, step = m["observe_s"] * 1e6, m["step_s"] * 1e6
    lines += [f"`observe` + mask of who decides: {observe:.1f} µs; one `step`: {step:.1f} µs (mixed-10)."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few steps, no goal judged")
    parser.add_argument("--out", type=Path, default=HERE / "results", help="where rl.md and rl.json go")
    parser.add_argument(
        "--episodes", type=int, default=200, help="boards per source for a fresh board every episode (200)"
    )
    parser.add_argument(
        "--drawn", action="store_true", help="issue 53's figures on the boards rl.boards draws alone (rl-drawn.md)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="alternated rounds, the best of each kept (3)")
    parser.add_argument("--classic", metavar="PYTHON", help="an interpreter with pettingzoo, chess and pygame-ce")
    parser.add_argument(
        "--install-classic", action="store_true", help=f"make {CLASSIC_VENV.name} for the classic games"
    )
    parser.add_argument("--train", metavar="PYTHON", help="an interpreter with the extra [train] (the trainer)")
    parser.add_argument("--trainer-steps", type=int, default=4096, help="the trainer's timed steps per source")
    parser.add_argument("--rllib", metavar="PYTHON", help="an interpreter with the extra [rllib] (1 and 2 workers)")
    parser.add_argument("--rllib-iterations", type=int, default=4, help="RLlib iterations per run, the first untimed")
    args = parser.parse_args(argv)
    rl_drawn.COLLECT = not args.quick
    if args.drawn:
        steps, repeat, episodes = (400, 1, 10) if args.quick else (20_000, args.rounds, args.episodes)
        where = "not measured: no interpreter with pettingzoo.classic (give --classic PYTHON or --install-classic)"
        connect_four = partial(_connect_four, args, steps)
        text, figures = rl_drawn.alone(_episodes, _aec, steps, repeat, episodes, args, connect_four, where)
        out = {"rl-drawn.md": text, "rl-drawn.json": json.dumps(figures, indent=2) + "\n"}
    else:
        measured = _measure(args)
        out = {"rl.md": _table(measured), "rl.json": json.dumps(measured, indent=2) + "\n"}
    if args.quick:
        print(next(iter(out.values())))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in out.items():
        (args.out / name).write_text(text, encoding="utf-8")
    print(f"wrote {', '.join(str(args.out / name) for name in out)}", file=sys.stderr)
    return 0

if __name__ == "__main__":
    sys.exit(main())
