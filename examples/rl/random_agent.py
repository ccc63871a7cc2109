"""A masked random agent over every example: each episode ends in an outcome `check` accepts.

    python examples/rl/random_agent.py [EPISODES]

Needs the extra: pip install -e '.[rl]' (in a clone).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from triggerstack.model import Outcome
from triggerstack.solver import check, rl

EXAMPLES = Path(__file__).resolve().parent.parent


def main(episodes: int = 200) -> int:
    game = rl.env(str(EXAMPLES))  # every examples/*/scenario.yaml, drawn per episode
    rng = np.random.default_rng(0)
    steps = 0
    for episode in range(episodes):
        game.reset(seed=episode)
        scenario = game.unwrapped.stepper.facts
        for _agent in game.agent_iter():
            observation, _, terminated, truncated, info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            game.step(int(rng.choice(legal)))
            steps += 1
        outcome = Outcome.model_validate_json(info["outcome"])
        if not check(scenario, outcome).legal:
            print(f"episode {episode}: an illegal outcome {info['outcome']}", file=sys.stderr)
            return 1
    print(f"{episodes} episodes, {steps} decisions, every outcome legal")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 200))
