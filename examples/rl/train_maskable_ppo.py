"""Train sb3-contrib's MaskablePPO on random boards of real cards, and measure its regret against the
proven optimum of each board beside a random policy's (docs/rl.md, "Training an agent").

    pip install -e '.[rl,cards,train]'
    python examples/rl/train_maskable_ppo.py [--steps 20000] [--eval 100] [--seed 0] [--workers 1] [--threads 1]
        [--plot regret.png]

The learner is seat 0 (the active player) of two-player boards drawn by ``rl.boards`` — a creature
enters, a board wipe, an attack or a spell cast, with real cards on both sides; the other seat plays
uniformly at random. Its reward is a score (docs/formats.md, "Score") of its own abilities' choices:
+1 for each target an opponent controls (or is), −1 for each of its own, −1 for each of its
abilities removed. ``best`` proves the highest score each evaluation board allows; the regret of a
policy on a board is that optimum minus the score the policy reached. The score counts the learner's
own choices only, which the other seat cannot change, so the optimum is the learner's to reach.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from triggerstack.model import Outcome, Scenario, ScenarioError, Score
from triggerstack.solver import ActionLayout, best, rl

LAYOUT = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
"""Every board fits it: one observation and action space for them all."""
LEARNER = 0


_SCORES: dict[int, tuple[Scenario, Score]] = {}


def score_for(scenario: Scenario) -> Score:
    """The learner's score on ``scenario``: +1 per target an opponent controls or is, −1 per target
    of its own, −1 per ability of its removed (only the learner's abilities count)."""
    kept = _SCORES.get(id(scenario))
    if kept is not None and kept[0] is scenario:
        return kept[1]
    me = str(scenario.players[LEARNER].id)
    whose = {str(p.id): str(p.id) for p in scenario.players}
    whose.update({str(o.id): str(o.controller or o.owner) for o in scenario.objects})
    # each waiting ability's controller (603.3a), derived as the scenario was built: nothing compiled again
    mine = [str(t.id) for t, c in zip(scenario.triggers, scenario.controls, strict=True) if str(c.player) == me]
    score = Score.model_validate({
        "target": {a: {thing: -1 if who == me else 1 for thing, who in whose.items()} for a in mine},
        "removed": dict.fromkeys(mine, -1),
    })  # fmt: skip
    if len(_SCORES) > 10_000:
        _SCORES.clear()
    _SCORES[id(scenario)] = (scenario, score)
    return score


def reward(scenario: Scenario, outcome: Outcome) -> dict[str, float]:
    return {str(scenario.players[LEARNER].id): float(score_for(scenario).of(outcome))}


def evaluation(seed: int, n: int) -> list[tuple[Any, float]]:
    """``n`` two-player boards of 2 to 6 waiting abilities on which the learner has a choice to make,
    each with its environment (built once, played at every checkpoint) and the best score it allows."""
    found: list[tuple[Any, float]] = []
    for scenario in rl.boards(seed, players=2, abilities=(2, 6), layout=LAYOUT, max_outcomes=20_000):
        env = rl.TriggerStackGym(scenario, seat=LEARNER, layout=LAYOUT, rewards=reward, auto=True)
        try:
            env.reset(seed=0)
        except ScenarioError:  # the learner never decides on this board (every choice forced, or none its own)
            continue
        found.append((env, float(best(scenario, score_for(scenario)).score)))
        if len(found) == n:
            return found
    return found


def make_env(seed: int, workers: int = 0) -> Any:
    """The training environment: a board every episode, drawn (in ``workers`` processes) among the
    boards on which the learner makes the first choice (``seat``: a board it never decides on teaches
    it nothing, and is not sent), its facts and stepper built once, as it is drawn (docs/rl.md,
    "Boards from real cards")."""
    stream = rl.boards(
        seed, players=2, abilities=(2, 6), layout=LAYOUT, max_outcomes=20_000, workers=workers, seat=LEARNER
    )
    return rl.TriggerStackGym(stream, seat=LEARNER, layout=LAYOUT, rewards=reward, auto=True)


def play(policy: Callable[[np.ndarray, np.ndarray], int], env: Any, seed: int) -> float:
    """The learner's score on ``env`` 's board under ``policy`` (the other seat uniform, seeded)."""
    obs, _info = env.reset(seed=seed)
    done, total = False, 0.0
    while not done:
        obs, r, done, _trunc, _info = env.step(policy(obs, env.action_masks()))
        total += float(r)
    return total


def regrets(policy: Callable[[np.ndarray, np.ndarray], int], boards: Sequence[tuple[Any, float]],
            seed: int) -> list[float]:  # fmt: skip
    return [optimum - play(policy, env, seed + i) for i, (env, optimum) in enumerate(boards)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--steps", type=int, default=20_000, help="training steps (default 20,000)")
    parser.add_argument("--eval", type=int, default=100, help="evaluation boards (default 100)")
    parser.add_argument("--checkpoints", type=int, default=5, help="evaluations during training (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the boards, learner and other seat (default 0)")
    parser.add_argument("--workers", type=int, default=0, help="processes drawing training boards ahead (default 0)")
    parser.add_argument("--threads", type=int, default=1,
                        help="PyTorch's threads (default 1; 0: PyTorch's own default, a thread a core)")  # fmt: skip
    parser.add_argument("--plot", default=None, help="write the regret plot here (PNG)")
    parser.add_argument("--json", default=None, help="write the figures here (JSON)")
    args = parser.parse_args(argv)
    if args.threads < 0:
        parser.error(f"--threads: expected 0 or more, found {args.threads}")
    import torch

    if args.threads:  # PyTorch's threads spin while others load the cores: 118 s against 11 s (docs/rl.md)
        torch.set_num_threads(args.threads)
    from sb3_contrib import MaskablePPO

    start = time.perf_counter()
    boards = evaluation(10_000 + args.seed, args.eval)
    rng = np.random.default_rng(args.seed)

    def uniform(_obs: np.ndarray, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[rng.integers(len(legal))])

    random_regret = float(np.mean(regrets(uniform, boards, args.seed)))
    print(f"random policy: mean regret {random_regret:.3f} over {len(boards)} boards")

    env = make_env(args.seed, args.workers)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, verbose=0, n_steps=512, batch_size=128)
    curve: list[tuple[int, float]] = []
    per = max(1, args.steps // args.checkpoints)

    def learned(obs: np.ndarray, mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask, deterministic=True)
        return int(action)

    done = 0
    curve.append((0, float(np.mean(regrets(learned, boards, args.seed)))))
    while done < args.steps:
        model.learn(per, reset_num_timesteps=False)
        done += per
        curve.append((done, float(np.mean(regrets(learned, boards, args.seed)))))
        print(f"after {done:>7,} steps: mean regret {curve[-1][1]:.3f} (random {random_regret:.3f})")
    elapsed = time.perf_counter() - start
    figures = {"steps": args.steps, "boards": len(boards), "random_regret": random_regret,
               "curve": curve, "seconds": round(elapsed, 1)}  # fmt: skip
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=1)
    if args.plot:
        _plot(curve, random_regret, len(boards), args.plot)
    print(f"learned: mean regret {curve[-1][1]:.3f}, random {random_regret:.3f} ({elapsed:.0f} s)")
    return 0


def _plot(curve: list[tuple[int, float]], random_regret: float, boards: int, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([s for s, _ in curve], [r for _, r in curve], marker="o", label="MaskablePPO (deterministic)")
    ax.axhline(random_regret, color="grey", linestyle="--", label="uniform random policy")
    ax.set_xlabel("training steps")
    ax.set_ylabel(f"mean regret over {boards} boards")
    ax.set_title("Regret against the proven optimum (best)")
    ax.set_ylim(bottom=0)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    raise SystemExit(main())
