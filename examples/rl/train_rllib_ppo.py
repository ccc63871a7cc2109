"""Train Ray RLlib's PPO, with action masking, on random boards of 2 to 4 players, on this machine or
on a Ray cluster (docs/rl.md, "Training past one machine: Ray RLlib").

    pip install -e '.[rl,cards,rllib]'
    python examples/rl/train_rllib_ppo.py [--workers 2] [--iterations 1] [--address ray://HEAD:10001]

Every seat plays one shared policy (self-play). A player's reward is a score of its own choices: +1
for each target an opponent controls (or is), −1 for each of its own, −1 for each of its abilities
removed. The environment goes to RLlib's PettingZoo wrapper as it is: every seat of the layout is an
agent from the first reset on, an illegal action ends the episode with −1 (so RLlib's environment
check, which steps an unmasked action, passes), and ``form="rllib"`` gives each observation as RLlib's
action-masking module reads it. Each environment of each worker draws a stream of boards of its own.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from triggerstack.model import Outcome, Scenario, Score
from triggerstack.solver import ActionLayout, rl

LAYOUT = ActionLayout(abilities=8, things=24, modes=4, divide=6, passes=2, players=4)
"""Every board fits it: one observation and action space for every seat of every board."""


_SCORES: dict[int, tuple[Scenario, dict[str, Score]]] = {}
"""Each board's scores, by its scenario (a list's boards come back; a stream's are played once)."""


def scores(scenario: Scenario) -> dict[str, Score]:
    """Each player's score: +1 per target an opponent controls or is, −1 per own target, −1 per own
    ability removed."""
    kept = _SCORES.get(id(scenario))
    if kept is not None and kept[0] is scenario:
        return kept[1]
    owner = {str(p.id): str(p.id) for p in scenario.players}
    owner.update({str(o.id): str(o.controller or o.owner) for o in scenario.objects})
    # each waiting ability's controller (603.3a), derived as the scenario was built: nothing compiled again
    controls = [(str(t.id), str(c.player)) for t, c in zip(scenario.triggers, scenario.controls, strict=True)]
    found: dict[str, Score] = {}
    for player in (str(p.id) for p in scenario.players):
        own = [a for a, controller in controls if controller == player]
        weights = {thing: 1 if who != player else -1 for thing, who in owner.items()}
        found[player] = Score.model_validate({"target": dict.fromkeys(own, weights), "removed": dict.fromkeys(own, -1)})
    if len(_SCORES) > 10_000:
        _SCORES.clear()
    _SCORES[id(scenario)] = (scenario, found)
    return found


def rewards(scenario: Scenario, outcome: Outcome) -> dict[str, float]:
    return {player: float(score.of(outcome)) for player, score in scores(scenario).items()}


def make_env(config: Any) -> Any:
    """RLlib's PettingZoo wrapper around the environment: boards of 2 to 4 players, a stream for each
    environment of each worker (``seed + 1000 × worker + vector index``)."""
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    seed = int(config.get("seed", 0)) + 1000 * config.worker_index + config.vector_index
    boards = rl.boards(seed, players=(2, 4), abilities=(2, 6), layout=LAYOUT, max_outcomes=20_000)
    return PettingZooEnv(rl.env(boards, layout=LAYOUT, rewards=rewards, auto=True, form="rllib"))


def shared(agent_id: str, episode: Any, **kwargs: Any) -> str:  # noqa: ARG001 - RLlib's signature
    """Every seat plays the one policy (self-play)."""
    return "shared"


def main(argv: Sequence[str] | None = None) -> int:
    import ray
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule as masking
    from ray.tune.registry import register_env

    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--workers", type=int, default=2, help="env runners sampling in parallel (default 2)")
    parser.add_argument("--iterations", type=int, default=1, help="training iterations (default 1)")
    parser.add_argument("--batch", type=int, default=2000, help="environment steps per iteration (default 2,000)")
    parser.add_argument("--address", default=None, help="a Ray cluster's address (default: start Ray here)")
    parser.add_argument("--seed", type=int, default=0, help="seeds the boards (default 0)")
    parser.add_argument("--json", default=None, help="write each iteration's figures here (JSON)")
    args = parser.parse_args(argv)

    if args.address is None:
        ray.init(num_cpus=max(2, args.workers + 1), include_dashboard=False, configure_logging=False)
    else:
        ray.init(address=args.address)
    register_env("triggerstack", make_env)
    config = (
        PPOConfig()
        .environment("triggerstack", env_config={"seed": args.seed})
        # RLlib discards a worker's samples after 60 s by default: a loaded machine may take longer
        .env_runners(num_env_runners=args.workers, rollout_fragment_length="auto", sample_timeout_s=600.0)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(256, args.batch), num_epochs=2)
        .multi_agent(policies={"shared"}, policy_mapping_fn=shared)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"shared": RLModuleSpec(module_class=masking)}))
        .debugging(seed=args.seed)
    )
    algo = config.build_algo()
    figures: list[dict[str, float]] = []
    sampled = 0.0
    try:
        for i in range(args.iterations):
            start = time.perf_counter()
            result = algo.train()
            seconds = time.perf_counter() - start
            # from the lifetime count: a remote worker's count of this iteration may come a report late
            lifetime = float(result["num_env_steps_sampled_lifetime"])
            steps, sampled = lifetime - sampled, lifetime
            figures.append({"iteration": i + 1, "env_steps": steps, "seconds": round(seconds, 2),
                            "steps_per_second": round(steps / seconds, 1)})  # fmt: skip
            print(f"iteration {i + 1}: {steps:,.0f} environment steps in {seconds:.1f} s "
                  f"({steps / seconds:,.0f}/s), {args.workers} workers")  # fmt: skip
    finally:
        algo.stop()
        ray.shutdown()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"workers": args.workers, "iterations": figures}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
