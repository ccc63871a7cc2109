"""The figures of issue 53, for ``bench_rl.py``: on the boards ``rl.boards`` draws for the training
example (two players, its layout), how many boards a CPU second draws; what a new board costs the
environment that plays it against the same boards warm — drawn as each episode starts, and drawn
ahead by one worker process (this process's CPU alone: the worker's is another core's); the warm
environment on them beside its two anchors measured alternately in the same run, PettingZoo's
``connect_four_v3`` (in the interpreter that has the classic games) and OpenSpiel's ``connect_four``
with observation and mask (where ``pyspiel`` is installed: the extra [bench]); and, each in
an interpreter of its extra given on the command line, the README trainer on fresh boards against
warm (``rl_trainer.py``, the extra [train]) and RLlib's PPO with 1 and 2 env runners
(``examples/rl/train_rllib_ppo.py``, the extra [rllib]).

CPU time throughout but for RLlib (``time.process_time``: every thread of this process, no other
process), best of ``repeat`` rounds: on a shared machine the wall clock bills the others' work.
RLlib's steps per second are its own, wall-clock, over several processes: measure them on an idle
machine. The card reader's and the board builder's caches are first filled as a run that has drawn
for a while has them (a thousand boards of another seed).
"""

from __future__ import annotations

import gc
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from triggerstack.solver import ActionLayout, rl

LAYOUT = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
"""The training example's layout (examples/rl/train_maskable_ppo.py)."""
ASKED: dict[str, Any] = {"players": 2, "abilities": (2, 6), "layout": LAYOUT, "max_outcomes": 20_000}
"""The training example's boards."""
ROOT = Path(__file__).resolve().parent.parent
TRAINER = "python benchmarks/rl_trainer.py --steps 4096"
"""The README trainer on a fixed list of drawn boards (warm), fresh boards drawn ahead by one worker
and drawn in the trainer: steps per CPU second and the environment's share of the trainer's CPU."""
RLLIB = "python examples/rl/train_rllib_ppo.py --workers {workers} --iterations {iterations}"
"""The docs' command (docs/rl.md, "Training past one machine: Ray RLlib"), run with 1 and 2 workers."""

Episodes = Callable[..., float]
"""``bench_rl._episodes``: decisions per CPU second over ``n`` episodes of an environment."""


def warmed(n: int = 1000) -> None:
    """The caches of a run that has drawn ``n`` boards (not on any clock)."""
    for _ in rl.boards(1, n, **ASKED):
        pass


def drawing(n: int, repeat: int) -> float:
    """Boards ``rl.boards`` draws per CPU second, in this process (drawing, building, counting)."""
    best = 0.0
    for r in range(repeat):
        if COLLECT:
            gc.collect()
        start = time.process_time()
        for _ in rl.boards(100 + r, n, **ASKED):
            pass
        best = max(best, n / (time.process_time() - start))
    return best


LEAD = 64
"""Episodes the stream drawn ahead plays, off the clock, before each of its rounds: past the boards
its worker drew while the process did something else, to the pace at which boards arrive while it
plays (see :func:`fresh_vs_warm`)."""


def fresh_vs_warm(episodes: Episodes, n: int, repeat: int) -> dict[str, float]:
    """Decisions per CPU second with a new board every episode — drawn in this process as the
    episode starts (``in this process``), or ahead by one worker process (``ahead``) — and on the
    same boards warm, in the same order once each was compiled and played (``warm``), on walks of
    another seed than the one that warmed them (a walk played again is a look-up in the board's
    trees of walks, which no fresh board has). The worker is started, and its card pool read, before any clock.

    A board drawn ahead is read back (unpickled, by the process pool's thread) in this process as it
    arrives, which may be before it is played: the boards a worker drew while this process slept
    or measured something else would be read off the clock, and the ones drawn during another
    figure billed to it. So each round of ``ahead`` begins :data:`LEAD` boards early, off the clock
    (the stream at the pace boards arrive as they are played, as in a trainer), and ends by letting
    the boards asked for land before the next figure starts."""
    first = 1 + LEAD  # board 0 starts the worker, LEAD more lead the first round in: not measured
    drawn = list(rl.boards(0, first + repeat * n, **ASKED))[first:]
    rounds = [drawn[r * n : (r + 1) * n] for r in range(repeat)]
    warm = rl.env(drawn, layout=LAYOUT)
    for boards in rounds:
        episodes(warm, boards, n)  # each board played once
    found = {"warm": 0.0, "in this process": 0.0, "ahead": 0.0}
    ahead_stream = rl.boards(0, None, workers=1, **ASKED)
    ahead = rl.env(ahead_stream, layout=LAYOUT)
    ahead.reset()  # board 0: the worker started and its pool read (waited for, not on any clock)
    try:
        for r, boards in enumerate(rounds):
            here_stream = rl.boards(0, None, **ASKED)
            here_stream.index = first + r * n  # the round's boards, as the worker's stream has them
            here = rl.env(here_stream, layout=LAYOUT)
            # walks of a seed not played on these boards yet: a warm board's trees of walks (docs/rl.md)
            # replay a walk played before, which a fresh board cannot, and a learner's walks differ
            found["warm"] = max(found["warm"], _clean(partial(episodes, warm, boards, n, 1 + r)))
            found["in this process"] = max(found["in this process"], _clean(partial(episodes, here, None, n)))
            ahead_stream.index = first + r * n - LEAD  # the worker starts again LEAD boards before the round's
            episodes(ahead, None, LEAD)  # off the clock
            found["ahead"] = max(found["ahead"], _clean(partial(episodes, ahead, None, n)))
            time.sleep(1)  # the boards asked for land (wall time), before the next figure's clock
    finally:
        ahead_stream.close()
    return found


T = TypeVar("T")


COLLECT = True
"""Whether each figure starts from a collected heap (``gc.collect``). Not in a smoke run (``--quick``),
which judges no figure: in the test suite's worker, whose heap holds what a thousand tests left, the
57 collections of ``bench_rl.py --quick`` and ``--quick --drawn`` were most of the test's CPU."""


def _clean(f: Callable[[], T]) -> T:
    if COLLECT:
        gc.collect()
    return f()


def warm_aec() -> Any:
    """The warm AEC environment on 200 drawn boards (a fixed list: each reset draws one)."""
    return rl.env(list(rl.boards(0, 200, **ASKED)), layout=LAYOUT)


def anchors(
    aec: Callable[..., float], game: Any, steps: int, repeat: int, connect_four: Callable[[], float | None]
) -> dict[str, float | None]:
    """The warm environment and its two anchors, measured alternately ``repeat`` times, the best of
    each: its ``env.step`` calls and decisions per CPU second (``bench_rl._aec``: every round plays
    the same walks, which the environment's trees of walks keep), its decisions on walks of a new
    seed each round (``new walks``, and its steps, ``new aec``: what its trees do not keep yet, past
    the walks the rounds before played — the figures the goals are judged on), OpenSpiel's
    ``connect_four`` decisions with observation and mask, and ``connect_four_v3`` 's steps per CPU
    second of its own process (``connect_four``; None: that anchor is not installed)."""
    found: dict[str, float | None] = {"aec": 0.0, "decisions": 0.0, "new walks": 0.0, "new aec": 0.0}
    found |= {"openspiel": None, "connect_four_v3": None}
    for r in range(repeat):
        measures: list[tuple[str, Callable[[], float | None]]] = [
            ("aec", partial(aec, game, steps)),
            ("decisions", partial(aec, game, steps, decisions=True)),
            ("new walks", partial(aec, game, steps, decisions=True, seed=1000 + r)),
            ("new aec", partial(aec, game, steps, seed=2000 + r)),
            ("openspiel", partial(openspiel, steps)),
            ("connect_four_v3", connect_four),
        ]
        for name, measure in measures:
            rate = _clean(measure)
            if rate is not None:
                found[name] = max(found[name] or 0.0, rate)
    return found


def openspiel(steps: int) -> float | None:
    """OpenSpiel's ``connect_four``, random masked play with the observation tensor and a 0/1
    mask each decision: decisions per CPU second (None: ``pyspiel`` is not installed)."""
    if importlib.util.find_spec("pyspiel") is None:
        return None
    import pyspiel  # type: ignore[import-not-found]  # optional: OpenSpiel ships no type information

    game = pyspiel.load_game("connect_four")
    size = game.num_distinct_actions()
    rng = np.random.default_rng(0)
    done = 0
    start = time.process_time()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal():
            np.asarray(state.observation_tensor(), dtype=np.float32)
            mask = np.zeros(size, dtype=np.int8)
            mask[state.legal_actions()] = 1
            legal = np.flatnonzero(mask)
            state.apply_action(int(legal[rng.integers(len(legal))]))
            done += 1
    return done / (time.process_time() - start)


def trainer(python: str | None, steps: int) -> dict[str, Any] | str:
    """The README trainer's figures per source (``rl_trainer.py`` in ``python``, an interpreter with
    the extra [train]; this one if it has it), or why they were not measured."""
    if python is None:
        if not all(importlib.util.find_spec(m) for m in ("torch", "sb3_contrib")):
            return f"not measured: no interpreter with the extra [train] (give --train PYTHON; alone: `{TRAINER}`)"
        python = sys.executable
    command = [python, str(ROOT / "benchmarks" / "rl_trainer.py"), "--steps", str(steps)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=7200)
    if done.returncode != 0:
        return f"not measured: rl_trainer.py failed in {python}: {done.stderr.strip().splitlines()[-1:]}"
    return {row["boards"]: row for row in (json.loads(x) for x in done.stdout.splitlines() if x.startswith("{"))}


def rllib(python: str | None, iterations: int) -> dict[str, Any] | str:
    """RLlib's environment steps per second (wall clock, its own figure) with 1 and then 2 env
    runners, from the docs' command in ``python`` (an interpreter with the extra [rllib]; this one
    if it has it), over the iterations after the first (which starts the runners' boards and
    PyTorch); or why they were not measured."""
    if python is None:
        if not all(importlib.util.find_spec(m) for m in ("ray", "torch")):
            alone = RLLIB.format(workers="1|2", iterations=iterations)
            return f"not measured: no interpreter with the extra [rllib] (give --rllib PYTHON; alone: `{alone}`)"
        python = sys.executable
    found: dict[str, Any] = {"iterations": iterations}
    for workers in (1, 2):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "rllib.json"
            command = [python, str(ROOT / "examples" / "rl" / "train_rllib_ppo.py"), "--workers", str(workers)]
            command += ["--iterations", str(iterations), "--json", str(out)]
            done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=7200)
            if done.returncode != 0 or not out.exists():
                return f"not measured: {workers} workers failed in {python}: {done.stderr.strip().splitlines()[-1:]}"
            timed = json.loads(out.read_text())["iterations"]
        timed = timed[1:] or timed
        found[str(workers)] = sum(i["env_steps"] for i in timed) / sum(i["seconds"] for i in timed)
    return found


Goal = tuple[str, str, bool | None]


def goals(d: dict[str, Any], where: str) -> list[Goal]:
    """The goals of issue 53, in its order (``d``: what was measured; ``where``: where the classic
    games were looked for)."""
    out: list[Goal] = []
    what = "README trainer on fresh boards, one drawing worker ≥ 0.8× warm; env share of its CPU ≤ 25%"
    found = d.get("trainer") or "not measured: --quick"
    if isinstance(found, str):
        out.append((what, found, None))
    else:
        ahead, share = found["1"]["steps_per_cpu_s"] / found["warm"]["steps_per_cpu_s"], found["1"]["env_share"]
        here = found["0"]["steps_per_cpu_s"] / found["warm"]["steps_per_cpu_s"]
        measured = f"{ahead:.2f}× ({found['1']['steps_per_cpu_s']:,.0f} vs {found['warm']['steps_per_cpu_s']:,.0f}"
        measured += f" steps per CPU s), env {share:.0%} (warm: {found['warm']['env_share']:.0%}); drawn in the"
        measured += f" trainer {here:.2f}×"
        full = found["1"].get("full_collections_share")
        if full is not None:  # where one full collection lands moves the env share (rl_trainer.py)
            measured += f"; full collections of the cycle collector {full:.1%} of the CPU (warm: "
            measured += f"{found['warm']['full_collections_share']:.1%})"
        out.append((what, measured, ahead >= 0.8 and share <= 0.25))
    rate, fresh = d["boards_per_cpu_s"], d["fresh"]
    out.append(("`rl.boards` ≥ 1,500 boards per CPU second (2 players, the example's layout)", f"{rate:,.0f}",
                rate >= 1500))  # fmt: skip
    ahead, here = fresh["ahead"] / fresh["warm"], fresh["in this process"] / fresh["warm"]
    measured = f"{ahead:.2f}× drawn ahead by one worker (a fresh episode costs {1 / ahead:.1f} warm ones);"
    measured += f" {here:.2f}× drawn as each episode starts ({1 / here:.1f})"
    out.append(("a consumer pays ≤ 2 warm episodes per new board: fresh ÷ warm ≥ 0.5 (CPU of the process playing)",
                measured, ahead >= 0.5))  # fmt: skip
    what = "warm env on drawn boards ≥ 4× connect_four_v3 (steps)"
    c4 = d["connect_four_v3"]
    if c4 is None:
        out.append((what, where, None))
    else:
        new = d.get("new aec") or 0.0  # judged on walks of a new seed: a replayed walk is a look-up (docs/rl.md)
        measured = f"{new / c4:.2f}× on new walks ({new:,.0f} vs {c4:,.0f} steps/s);"
        out.append((what, f"{measured} {d['aec'] / c4:.2f}× replaying the same walks ({d['aec']:,.0f})", new >= 4 * c4))
    spiel = d["openspiel"]
    what = "… and ≥ 0.5× OpenSpiel connect_four with observation and mask (decisions), same run"
    if spiel is None:
        out.append((what, "not measured: pyspiel is not installed (the extra [bench])", None))
    else:
        new = d.get("new walks") or 0.0  # judged on walks the trees do not keep yet; the replayed figure beside
        measured = f"{new / spiel:.2f}× on new walks ({new:,.0f} vs {spiel:,.0f});"
        replayed = f"{d['decisions'] / spiel:.2f}× replaying the same walks ({d['decisions']:,.0f})"
        out.append((what, f"{measured} {replayed}", new >= 0.5 * spiel))
    what = "RLlib PPO on `rl.boards`, the docs' command: steps/s with 2 workers ≥ 1.6× with 1 (wall clock, idle)"
    found = d.get("rllib") or "not measured: --quick"
    if isinstance(found, str):
        out.append((what, found, None))
    else:
        ratio = found["2"] / found["1"]
        measured = f"{ratio:.2f}× ({found['2']:,.0f} vs {found['1']:,.0f} steps/s, iterations 2–{found['iterations']})"
        out.append((what, measured, ratio >= 1.6))
    return out


def section(d: dict[str, Any]) -> list[str]:
    """The lines of ``rl.md`` that say these figures."""
    c4 = "" if d["connect_four_v3"] is None else f"; connect_four_v3 {d['connect_four_v3']:,.0f} steps/s"
    spiel = "" if d["openspiel"] is None else f"; OpenSpiel connect_four {d['openspiel']:,.0f} decisions/s"
    return [
        "",
        "## The boards rl.boards draws (issue 53)",
        "",
        "Two players, the training example's layout; CPU time, the card reader's and the builder's caches as a run",
        f"that has drawn a thousand boards has them. `rl.boards`: {d['boards_per_cpu_s']:,.0f} boards per CPU second.",
        f"Warm on 200 of them: {d['aec']:,.0f} AEC steps/s, {d['decisions']:,.0f} decisions/s{c4}{spiel} (measured",
        "alternately, the best of each). Each round plays the same walks, which the environment keeps as trees",
        f"(docs/rl.md, \"What a step costs\"); on walks of a new seed each round, {d['new walks']:,.0f} decisions/s.",
        "A fresh board drawn ahead by one worker: the CPU of the process playing it, the worker's apart (table above).",
    ]


def figures(
    episodes_of: Episodes, aec: Callable[..., float], steps: int, repeat: int, episodes: int, args: Any,
    connect_four: Callable[[], float | None],
) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:  # fmt: skip
    """Issue 53's figures: those on the boards ``rl.boards`` draws for the training example, the
    warm environment beside its anchors (``connect_four``: one measure of ``connect_four_v3``), the
    trainer's and RLlib's where ``args`` gives their interpreters (not with ``--quick``); their rows
    of the fresh-board table; and the warm environment (``episodes_of``: ``bench_rl._episodes``;
    ``aec``: ``bench_rl._aec``)."""
    print("boards rl.boards draws (issue 53)", file=sys.stderr)
    warmed(50 if args.quick else 1000)
    drawn = fresh_vs_warm(episodes_of, episodes, repeat)
    rows = [
        {"boards": "rl.boards, drawn as each episode starts", "fresh": drawn["in this process"], "warm": drawn["warm"]},
        {"boards": "rl.boards, drawn ahead by one worker (this process's CPU)", "fresh": drawn["ahead"],
         "warm": drawn["warm"]},
    ]  # fmt: skip
    game = warm_aec()
    aec(game, steps)  # warm: every board played
    issue53 = {"boards_per_cpu_s": drawing(60 if args.quick else 600, repeat), "fresh": drawn}
    print("the warm environment beside connect_four_v3 and OpenSpiel, alternately", file=sys.stderr)
    issue53.update(anchors(aec, game, steps, repeat, connect_four))
    if not args.quick:
        print("the README trainer (rl_trainer.py) and RLlib (1 and 2 workers)", file=sys.stderr)
        issue53["trainer"] = trainer(args.train, args.trainer_steps)
        issue53["rllib"] = rllib(args.rllib, args.rllib_iterations)
    return issue53, rows, game


def fresh_table(fresh: list[dict[str, Any]]) -> list[str]:
    """The table of a fresh board every episode: each source's rates and fresh ÷ warm, and what a
    fresh episode costs in warm episodes on the same boards (warm ÷ fresh)."""
    lines = ["| boards | fresh, decisions/s | warm, decisions/s | fresh ÷ warm | a fresh episode, in warm episodes |"]
    lines.append("|---|---|---|---|---|")
    for f in fresh:
        lines.append(f"| {f['boards']} | {f['fresh']:,.0f} | {f['warm']:,.0f} | {f['fresh'] / f['warm']:.2f}"
                     f" | {f['warm'] / f['fresh']:.1f} |")  # fmt: skip
    return lines


def goal_rows(goals: list[Goal]) -> list[str]:
    """A goal table's lines, and each goal printed to stderr."""
    for g, x, ok in goals:
        print(f"{'—   ' if ok is None else 'PASS' if ok else 'FAIL'}  {g}: {x}", file=sys.stderr)
    lines = ["| goal | measured | |", "|---|---|---|"]
    return lines + [f"| {g} | {x} | {'—' if ok is None else 'PASS' if ok else 'FAIL'} |" for g, x, ok in goals]


def alone(
    episodes_of: Episodes, aec: Callable[..., float], steps: int, repeat: int, episodes: int, args: Any,
    connect_four: Callable[[], float | None], where: str,
) -> tuple[str, dict[str, Any]]:  # fmt: skip
    """``bench_rl.py --drawn``: issue 53's figures alone (a few minutes of CPU without the trainer and
    RLlib, where the whole run takes many), as the text of ``results/rl-drawn.md`` and the figures
    of ``rl-drawn.json``."""
    issue53, rows, _game = figures(episodes_of, aec, steps, repeat, episodes, args, connect_four)
    lines = [
        "# Benchmarks: issue 53's goals, on the boards rl.boards draws",
        "",
        f"`python benchmarks/bench_rl.py --drawn --rounds {repeat}` on one shared machine: CPU time, the best of",
        f"{repeat} alternated rounds ({episodes} episodes each for a fresh board every episode; the warm environment,",
        "connect_four_v3 and OpenSpiel alternated in the same run). The full run (`bench_rl.py`, results/rl.md)",
        "measures these beside the benchmark scenarios.",
        "",
        *goal_rows(goals(issue53, where)),
        "",
        "## A fresh board every episode",
        "",
        *fresh_table(rows),
        *section(issue53),
    ]
    return "\n".join(lines) + "\n", {"issue53": issue53, "fresh": rows}
