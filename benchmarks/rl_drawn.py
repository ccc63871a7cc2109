"""The figures of issue 53 on the boards ``rl.boards`` draws for the training example (two players,
its layout), for ``bench_rl.py``: how many boards a CPU second draws; what a new board costs the
environment that plays it against the same boards warm — drawn as each episode starts, and drawn
ahead by one worker process (this process's CPU alone: the worker's is another core's); the warm
environment on them against OpenSpiel's ``connect_four`` with observation and mask, when
``pyspiel`` is installed; and how to measure the training example itself.

CPU time throughout (``time.process_time``: every thread of this process, no other process), best
of ``repeat`` rounds: on a shared machine the wall clock bills the others' work. The card reader's
and the board builder's caches are first filled as a run that has drawn for a while has them (a
thousand boards of another seed).
"""

from __future__ import annotations

import gc
import importlib.util
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from triggerstack.solver import ActionLayout, rl

LAYOUT = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
"""The training example's layout (examples/rl/train_maskable_ppo.py)."""
ASKED: dict[str, Any] = {"players": 2, "abilities": (2, 6), "layout": LAYOUT, "max_outcomes": 20_000}
"""The training example's boards."""
TRAINER = (
    "not measured here (the extra [train]): `python benchmarks/rl_trainer.py` trains the README example on a fixed"
    " list of its boards (warm) and on fresh boards drawn ahead by one worker and in the trainer, and prints steps"
    " per CPU second, fresh ÷ warm and the environment's share of the trainer's CPU"
)

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
    same boards warm, in the same order once each was compiled and played (``warm``): the same
    boards and walks in each round. The worker is started, and its card pool read, before any clock.

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
            found["warm"] = max(found["warm"], _clean(partial(episodes, warm, boards, n)))
            found["in this process"] = max(found["in this process"], _clean(partial(episodes, here, None, n)))
            ahead_stream.index = first + r * n - LEAD  # the worker starts again LEAD boards before the round's
            episodes(ahead, None, LEAD)  # off the clock
            found["ahead"] = max(found["ahead"], _clean(partial(episodes, ahead, None, n)))
            time.sleep(1)  # the boards asked for land (wall time), before the next figure's clock
    finally:
        ahead_stream.close()
    return found


def _clean(f: Callable[[], float]) -> float:
    gc.collect()
    return f()


def warm_aec(aec: Callable[..., float], steps: int) -> tuple[Any, float]:
    """The warm AEC environment on 200 drawn boards (a fixed list: each reset draws one), its
    ``env.step`` calls per CPU second (``bench_rl._aec``), and the environment."""
    game = rl.env(list(rl.boards(0, 200, **ASKED)), layout=LAYOUT)
    return game, aec(game, steps)


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


def goals(d: dict[str, Any], classic: dict[str, float] | None, where: str) -> list[tuple[str, str, bool | None]]:
    """The goals of issue 53 (``d``: what ``bench_rl`` measured here; ``classic``: PettingZoo's games)."""
    rate, fresh = d["boards_per_cpu_s"], d["fresh"]
    out: list[tuple[str, str, bool | None]] = [
        ("`rl.boards` ≥ 1,500 boards per CPU second (2 players, the example's layout)", f"{rate:,.0f}", rate >= 1500)
    ]
    ahead, here = fresh["ahead"] / fresh["warm"], fresh["in this process"] / fresh["warm"]
    measured = f"{ahead:.2f}× drawn ahead by one worker (a fresh episode costs {1 / ahead:.1f} warm ones);"
    measured += f" {here:.2f}× drawn as each episode starts ({1 / here:.1f})"
    out.append(("a new board costs ≤ 2 warm episodes: fresh ÷ warm ≥ 0.5 (CPU of the process playing)", measured,
                ahead >= 0.5))  # fmt: skip
    what = "warm AEC env on drawn boards ≥ 4× connect_four_v3"
    if classic is None:
        out.append((what, where, None))
    else:
        c4 = classic["connect_four_v3"]
        out.append((what, f"{d['aec'] / c4:.2f}× ({d['aec']:,.0f} vs {c4:,.0f} steps/s)", d["aec"] >= 4 * c4))
    spiel = d["openspiel"]
    what = "warm env on drawn boards ≥ 0.5× OpenSpiel connect_four, observation and mask (decisions)"
    if spiel is None:
        out.append((what, "not measured: pyspiel is not installed (pip install open_spiel)", None))
    else:
        out.append((what, f"{d['decisions'] / spiel:.2f}× ({d['decisions']:,.0f} vs {spiel:,.0f})",
                    d["decisions"] >= 0.5 * spiel))  # fmt: skip
    out.append(("trainer on fresh boards, one drawing worker ≥ 0.8× warm", TRAINER, None))
    return out


def section(d: dict[str, Any]) -> list[str]:
    """The lines of ``rl.md`` that say these figures."""
    spiel = "" if d["openspiel"] is None else f"; OpenSpiel connect_four {d['openspiel']:,.0f} decisions/s"
    return [
        "",
        "## The boards rl.boards draws (issue 53)",
        "",
        "Two players, the training example's layout; CPU time, the card reader's and the builder's caches as a run",
        f"that has drawn a thousand boards has them. `rl.boards`: {d['boards_per_cpu_s']:,.0f} boards per CPU second.",
        f"Warm on 200 of them: {d['aec']:,.0f} AEC steps/s, {d['decisions']:,.0f} decisions/s{spiel}. A fresh",
        "board drawn ahead by one worker: the CPU of the process playing it, the worker's apart (table above).",
    ]


def figures(
    episodes_of: Episodes, aec: Callable[..., float], steps: int, repeat: int, episodes: int, quick: bool
) -> tuple[dict[str, Any], list[dict[str, Any]], Any]:
    """Issue 53's figures on the boards ``rl.boards`` draws for the training example: those
    figures, their rows of the fresh-board table, and the warm environment (``episodes_of``:
    ``bench_rl._episodes``; ``aec``: ``bench_rl._aec``)."""
    print("boards rl.boards draws (issue 53)", file=sys.stderr)
    warmed(50 if quick else 1000)
    drawn = fresh_vs_warm(episodes_of, episodes, repeat)
    rows = [
        {"boards": "rl.boards, drawn as each episode starts", "fresh": drawn["in this process"], "warm": drawn["warm"]},
        {"boards": "rl.boards, drawn ahead by one worker (this process's CPU)", "fresh": drawn["ahead"],
         "warm": drawn["warm"]},
    ]  # fmt: skip
    game, rate = warm_aec(aec, steps)
    issue53 = {
        "boards_per_cpu_s": drawing(60 if quick else 600, repeat),
        "fresh": drawn,
        "aec": rate,
        "decisions": aec(game, steps, decisions=True),
        "openspiel": openspiel(steps),
    }
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


def alone(
    episodes_of: Episodes, aec: Callable[..., float], steps: int, repeat: int, episodes: int, quick: bool
) -> tuple[str, dict[str, Any]]:
    """``bench_rl.py --drawn``: issue 53's figures alone (a minute of CPU, where the whole run takes
    many), as the text of ``results/rl-drawn.md`` and the figures of ``rl-drawn.json``."""
    issue53, rows, _game = figures(episodes_of, aec, steps, repeat, episodes, quick)
    judged = [g for g in goals(issue53, None, "not measured: --drawn measures the drawn boards alone")
              if "connect_four_v3" not in g[0]]  # fmt: skip
    lines = [
        "# Benchmarks: the boards rl.boards draws (issue 53)",
        "",
        f"`python benchmarks/bench_rl.py --drawn --rounds {repeat}` on one shared machine: CPU time, the best of",
        f"{repeat} alternated rounds of {episodes} episodes each (warm, drawn in this process, drawn ahead by one",
        "worker process). The full run (`bench_rl.py`, results/rl.md) measures these beside the classic games.",
        "",
        "| goal | measured | |",
        "|---|---|---|",
        *[f"| {g} | {x} | {'—' if ok is None else 'PASS' if ok else 'FAIL'} |" for g, x, ok in judged],
        "",
        "## A fresh board every episode",
        "",
        *fresh_table(rows),
        *section(issue53),
    ]
    for g, x, ok in judged:
        print(f"{'—   ' if ok is None else 'PASS' if ok else 'FAIL'}  {g}: {x}", file=sys.stderr)
    return "\n".join(lines) + "\n", {"issue53": issue53, "fresh": rows}
