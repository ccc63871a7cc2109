"""What bounds the environment's rate on a scenario, for ``bench_rl.py``: the stepper alone on the
same walks (the rules and nothing else) and the AEC protocol alone (an environment with no rules
replaying the same walks through the same wrapper): an environment whose rules cost the stepper's
time and nothing more would reach protocol / (protocol + stepper) of the stepper's rate."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from pettingzoo import AECEnv
from triggerstack.model import compile_facts
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import Stepper, rl

_STEPPERS: dict[Path, Stepper] = {}


def internal(path: Path, steps: int) -> float:
    """The stepper alone on the walks ``bench_rl.play`` takes (the same seeded draw per decision, the
    same warm-up): legal and apply_unchecked, no observation, no PettingZoo. Decisions/s. One
    stepper per scenario, kept from call to call as the environment keeps its own: the two are as
    warm (a stepper built anew each time would pay its later passes' first steps, ward-3's, again)."""
    stepper = _STEPPERS.get(path)
    if stepper is None:
        stepper = _STEPPERS[path] = Stepper(compile_facts(parse_scenario(json.loads(path.read_text()))))

    def walks(n: int, seed: int) -> float:
        rng = np.random.default_rng(seed)
        done = 0
        start = time.process_time()
        while done < n:
            walk = stepper.start()
            while legal := stepper.legal(walk):
                walk = stepper.apply_unchecked(walk, legal[int(rng.integers(len(legal)))])
                done += 1
        return done / (time.process_time() - start)

    walks(200, 1)
    return walks(steps, 0)


class Protocol(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """The AEC protocol with no rules: an environment that replays the walks ``rl.env`` took on a
    scenario (whose turn, which mask), with an observation of the same size, its agents and
    spaces, through the same wrapper. What it costs per decision is what any environment pays
    before it knows a rule: the floor under the env's rate."""

    metadata: ClassVar[dict[str, Any]] = {"name": "protocol_v0", "is_parallelizable": False}

    def __init__(self, path: str, episodes: int = 200) -> None:
        super().__init__()
        game = rl.raw_env(path)
        rng = np.random.default_rng(0)
        self.walks: list[list[tuple[str, np.ndarray]]] = []
        for k in range(episodes):  # the walks of bench_rl.play: one seeded draw per decision
            game.reset(seed=k)
            walk = []
            while not game.terminations[game.agent_selection]:
                mask = game.observe(game.agent_selection)["action_mask"]
                walk.append((game.agent_selection, mask))
                legal = np.flatnonzero(mask)
                game.step(int(legal[rng.integers(len(legal))]))
            self.walks.append(walk)
        self.possible_agents = list(game.possible_agents)
        self.players = len(game.agents)
        self.observation_spaces, self.action_spaces = game.observation_spaces, game.action_spaces
        self.blank = np.zeros(game.observer.space.shape, dtype=game.observer.space.dtype)
        self.size = game.layout.size

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.at < len(self.walk) and agent == self.agent_selection:
            return {"observation": self.blank.copy(), "action_mask": self.walk[self.at][1].copy()}
        return {"observation": self.blank.copy(), "action_mask": np.zeros(self.size, dtype=np.int8)}

    def reset(self, seed: int | None = None, options: Any = None) -> None:
        self.walk, self.at = self.walks[(seed or 0) % len(self.walks)], 0
        self.agents = self.possible_agents[: self.players]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.walk[0][0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent]:  # as the env: the agent leaves
            for table in (self.terminations, self.truncations, self.rewards, self._cumulative_rewards, self.infos):
                del table[agent]
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.at += 1
        if self.at < len(self.walk):
            self.agent_selection = self.walk[self.at][0]
        else:
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
