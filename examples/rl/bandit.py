"""A tabular learner that raises a score on one scenario, with no network.

Player A (the non-active player of examples/ertai-resurrected) is rewarded for Ertai's ability
destroying B's Soul Warden (10) and less for countering B's trigger (3). The learner keeps, per
(observation, action), the mean return of the episodes that took it, and plays epsilon-greedily
over the legal actions; B plays uniformly at random. After training, its greedy play scores more
than random play does.

    python examples/rl/bandit.py [EPISODES]

Needs the extra: pip install -e '.[rl]' (in a clone).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import numpy as np
from triggerstack.solver import rl

SCENARIO = Path(__file__).resolve().parent.parent / "ertai-resurrected" / "scenario.yaml"
SCORE = {"mode": {"E": {"counter": 3}}, "target": {"E": {"warden_b": 10}}}


Policy = Callable[[bytes, np.ndarray], int]


def play(game: rl.TriggerStackGym, choose: Policy, seed: int) -> tuple[float, list[tuple[bytes, int]]]:
    observation, _ = game.reset(seed=seed)
    taken = []
    while True:
        mask = game.action_masks()
        action = choose(observation.tobytes(), np.flatnonzero(mask))
        taken.append((observation.tobytes(), action))
        observation, reward, terminated, _, _ = game.step(action)
        if terminated:
            return float(reward), taken


def main(episodes: int = 400) -> int:
    game = rl.TriggerStackGym(str(SCENARIO), seat=1, rewards={"A": SCORE})  # seat 1: A (players: [B, A])
    rng = np.random.default_rng(0)
    total: dict[tuple[bytes, int], float] = defaultdict(float)
    times: dict[tuple[bytes, int], int] = defaultdict(int)

    def greedy(state: bytes, legal: np.ndarray) -> int:
        values = [total[(state, int(a))] / times[(state, int(a))] if times[(state, int(a))] else 0.0 for a in legal]
        return int(legal[int(np.argmax(values))])

    def explore(state: bytes, legal: np.ndarray) -> int:
        return int(rng.choice(legal)) if rng.random() < 0.3 else greedy(state, legal)

    def uniform(_state: bytes, legal: np.ndarray) -> int:
        return int(rng.choice(legal))

    for episode in range(episodes):
        reward, taken = play(game, explore, episode)
        for key in taken:
            total[key] += reward
            times[key] += 1
    learned = np.mean([play(game, greedy, 10_000 + i)[0] for i in range(100)])
    random = np.mean([play(game, uniform, 10_000 + i)[0] for i in range(100)])
    print(f"mean score over 100 episodes: learned {learned:.2f}, random {random:.2f}")
    return 0 if learned > random else 1


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 400))
