"""Issue 53's first goal: the README trainer (examples/rl/train_maskable_ppo.py: sb3-contrib's
MaskablePPO, seat 0 of two-player boards of ``rl.boards``) on fresh boards, against the same trainer
on a fixed list of drawn boards (warm), and the environment's share of its CPU.

    python benchmarks/rl_trainer.py [--steps 4096] [--threads 1]     # the extra [train]

Each source is trained in a process of its own (one worker process draws ahead for ``workers 1``):
after 1,024 steps off the clock (the card pool read, the worker started, PyTorch's first calls),
``--steps`` more are timed — steps per CPU second of that process (every thread: PyTorch's, and
the process pool's that reads back the boards drawn ahead), the share of it spent in the
environment's ``step`` and ``reset`` (their thread's CPU), and the share spent by threads other than
the trainer's own (with one PyTorch thread: the pool's, reading the boards drawn ahead back).
And the share spent by Python's cycle collector, apart for its full collections: one full
collection of the trainer's half a million objects took 0.43 to 0.67 s of the 12 to 14 timed CPU
seconds, once a run, billed to whatever code allocated when it fell due — in the environment's
``step`` or not, three to five points of its share one way or the other (stop 79).
PyTorch runs ``--threads`` threads (one by default: on a shared two-core machine more spin, and
bill the process for waiting). About
ten CPU seconds a source at 4,096 steps; prints one JSON line per source.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("warm", "1", "0")
"""A fixed list of 200 boards drawn as the example's ``make_env`` draws them (those the learner makes
the first choice on); fresh boards drawn ahead by one worker process; drawn in the trainer's."""


def _trainer() -> Any:
    spec = importlib.util.spec_from_file_location(
        "train_maskable_ppo", ROOT / "examples" / "rl" / "train_maskable_ppo.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def measure(source: str, steps: int, threads: int) -> dict[str, Any]:
    """One source's figures (in this process)."""
    import torch
    from sb3_contrib import MaskablePPO
    from triggerstack.solver import rl

    torch.set_num_threads(threads)
    ex = _trainer()
    if source == "warm":
        asked = {"players": 2, "abilities": (2, 6), "layout": ex.LAYOUT, "max_outcomes": 20_000, "seat": ex.LEARNER}
        boards = list(rl.boards(0, 200, **asked))  # the boards make_env draws: those the learner decides on
        env = rl.TriggerStackGym(boards, seat=ex.LEARNER, layout=ex.LAYOUT, rewards=ex.reward, auto=True)
    else:
        env = ex.make_env(0, int(source))
    spent = [0.0]
    for name in ("step", "reset"):
        call = getattr(env, name)

        def timed(*args: Any, _call: Any = call, **kwargs: Any) -> Any:
            start = time.thread_time()
            try:
                return _call(*args, **kwargs)
            finally:
                spent[0] += time.thread_time() - start

        setattr(env, name, timed)
    model: Any = MaskablePPO("MlpPolicy", env, seed=0, verbose=0, n_steps=512, batch_size=128)
    model.learn(1024)
    spent[0] = 0.0
    collecting = {"full": 0.0, "young": 0.0, "began": 0.0}  # the cycle collector's CPU (this thread's)

    def collector(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collecting["began"] = time.thread_time()
        else:
            collecting["full" if info["generation"] == 2 else "young"] += time.thread_time() - collecting["began"]

    gc.callbacks.append(collector)
    start, main = time.process_time(), time.thread_time()
    model.learn(steps, reset_num_timesteps=False)
    cpu, main = time.process_time() - start, time.thread_time() - main
    gc.callbacks.remove(collector)
    env.close()
    return {
        "boards": source,
        "steps_per_cpu_s": round(steps / cpu, 1),
        "env_share": round(spent[0] / cpu, 3),
        "other_threads_share": round(1 - main / cpu, 3),
        "full_collections_share": round(collecting["full"] / cpu, 3),
        "young_collections_share": round(collecting["young"] / cpu, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--steps", type=int, default=4096, help="timed training steps per source (4,096)")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads (1)")
    parser.add_argument("--source", choices=SOURCES, help=argparse.SUPPRESS)  # one source, in a process of its own
    args = parser.parse_args(argv)
    if args.source is not None:
        print(json.dumps(measure(args.source, args.steps, args.threads)))
        return 0
    found = {}
    for source in SOURCES:
        cmd = [sys.executable, __file__, "--source", source, "--steps", str(args.steps), "--threads", str(args.threads)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        found[source] = json.loads(done.stdout.strip().splitlines()[-1])
        print(json.dumps(found[source]))
    warm = found["warm"]["steps_per_cpu_s"]
    print(f"fresh ÷ warm: {found['1']['steps_per_cpu_s'] / warm:.2f} (one drawing worker), "
          f"{found['0']['steps_per_cpu_s'] / warm:.2f} (drawn in the trainer)")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
