"""What Ray RLlib's PettingZoo wrapper relies on, held without Ray (docs/rl.md, "Training past one
machine: Ray RLlib"), and, where the extra ``[rllib]`` is installed, the wrapper itself and the
example (examples/rl/train_rllib_ppo.py).

The wrapper reads the agents and their spaces once, after its first ``reset``; its environment check
steps an action drawn from the action space without the mask; its action-masking module reads
``"observations"`` (float, for its default encoder) and ``"action_mask"``. So: every seat of the
layout is an agent from the first reset on, whatever the board's players (2 to 4), each observation
lies in its agent's space, and an action of the action space is never refused with an error by
``rl.env`` — an illegal one ends the episode with ``illegal_reward`` for the agent who took it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from triggerstack.model import Outcome  # noqa: E402
from triggerstack.solver import ActionLayout, IllegalDecision, check, rl  # noqa: E402

from .property.strategies import SETTINGS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LAYOUT = ActionLayout(abilities=8, things=24, modes=4, divide=6, passes=2, players=4)
FORMS = {"pettingzoo": ("observation", np.int16), "rllib": ("observations", np.float32)}


def _boards(seed: int) -> Any:
    return rl.boards(seed, players=(2, 4), abilities=(2, 6), layout=LAYOUT, max_outcomes=20_000, cards=False)


def _observed(game: Any, form: str) -> None:
    """Every agent's observation lies in its space, with the form's keys and dtype."""
    key, dtype = FORMS[form]
    for agent in game.agents:
        seen = game.observe(agent)
        assert set(seen) == {key, "action_mask"} and seen[key].dtype == dtype
        assert game.observation_space(agent).contains(seen), (agent, form)


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples // 4, 10))
@given(seed=st.integers(0, 2**20), form=st.sampled_from(sorted(FORMS)), unmasked=st.floats(0, 1))
def test_every_seat_is_an_agent_from_the_first_reset_and_any_action_of_the_space_is_taken(
    seed: int, form: str, unmasked: float
) -> None:
    """On boards of 2 to 4 players: the agents and their spaces are known before ``reset`` and are
    the same after every ``reset``; an empty seat is never selected, observes zeros and is rewarded
    0; an action drawn from the action space without the mask (as RLlib's check draws) is taken if
    legal, and otherwise ends the episode with −1 for the agent who took it, 0 for the others, and
    says why; a masked episode ends in an outcome ``check`` accepts."""
    game = rl.env(_boards(seed), layout=LAYOUT, form=form, auto=True)
    everyone = [f"player_{i}" for i in range(4)]
    assert game.possible_agents == everyone
    assert all(game.observation_space(a) is not None and game.action_space(a).n == LAYOUT.size for a in everyone)
    rng = np.random.default_rng(seed)
    for episode in range(3):
        game.reset(seed=seed + episode)
        assert game.agents == everyone
        seated = len(game.unwrapped.scenario.players)
        _observed(game, form)
        for empty in everyone[seated:]:
            with pytest.raises(ValueError, match=f"{empty}'s seat is empty on this board"):
                game.unwrapped.player(empty)
            assert not game.observe(empty)[FORMS[form][0]].any()
        illegal = None
        for agent in game.agent_iter():
            observation, _, terminated, truncated, info = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            assert int(agent.rpartition("_")[2]) < seated, "an empty seat is never selected"
            mask = observation["action_mask"]
            action = game.action_space(agent).sample() if rng.random() < unmasked else game.action_space(agent).sample(mask)
            game.step(action)
            _observed(game, form)
            if not mask[action]:  # the episode is over: this agent -1, the others 0, and why
                illegal = agent
                rewards = game.unwrapped.rewards
                assert rewards[illegal] == -1.0 and all(r == 0.0 for a, r in rewards.items() if a != illegal)
                assert all("illegal" in game.infos[a] and "outcome" not in game.infos[a] for a in game.agents)
                assert all(game.terminations.values()) and game.agents == everyone
        if illegal is None:
            assert check(game.unwrapped.scenario, Outcome.model_validate_json(info["outcome"])).legal


def test_illegal_actions_raise_where_asked_and_out_of_the_space_always() -> None:
    """``raw_env`` raises by default (``illegal_reward=None``), as ``env(..., illegal_reward=None)``
    does; an id out of the action space, or not an id at all, raises from either."""
    for game in (rl.raw_env(_boards(1), layout=LAYOUT), rl.env(_boards(1), layout=LAYOUT, illegal_reward=None)):
        game.reset(seed=0)
        blocked = int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"] == 0)[0])
        with pytest.raises(IllegalDecision):
            game.step(blocked)
    game = rl.env(_boards(1), layout=LAYOUT)
    game.reset(seed=0)
    for bad in (LAYOUT.size, -1, 2.5):
        with pytest.raises(IllegalDecision):
            game.step(bad)
    assert not any(game.terminations.values()), "nothing was taken"


def test_a_form_that_is_not_one_is_refused_naming_the_forms() -> None:
    with pytest.raises(ValueError, match="form: expected one of 'pettingzoo', 'rllib', found 'ray'"):
        rl.raw_env(_boards(1), layout=LAYOUT, form="ray")


def test_the_rllib_examples_rewards_score_each_players_own_abilities_without_compiling() -> None:
    """The example's reward reads each waiting ability's controller from the scenario as built
    (it compiled every board again at every episode's end): on 300 boards of 2 to 4 players, of
    generated stand-ins and of real cards where the extra is installed, each player's reward of a
    sampled outcome is +1 per target an opponent controls or is, −1 per own target, −1 per own ability
    removed (of the board's waiting abilities: a reaction's are not scored) — counted here from the
    compiled facts — and a board's scores are kept, not built again."""
    from triggerstack.model import compile_facts
    from triggerstack.solver import sample

    spec = importlib.util.spec_from_file_location("train_rllib", ROOT / "examples" / "rl" / "train_rllib_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    pools = [False] + ([True] if importlib.util.find_spec("mtg") is not None else [])
    for cards in pools:
        boards = rl.boards(3, 150, players=(2, 4), abilities=(2, 6), layout=LAYOUT, max_outcomes=20_000, cards=cards)
        for k, board in enumerate(boards):
            facts = compile_facts(board)
            owner = {str(p.id): str(p.id) for p in board.players}
            owner.update({str(o.id): str(o.controller or o.owner) for o in board.objects})
            controller = {str(a.id): str(a.controller) for a in facts.abilities}
            for outcome in sample(board, n=3, seed=k):
                expected = {str(p.id): 0.0 for p in board.players}
                for entry in outcome.stack:
                    who = controller.get(str(entry.ability))
                    if who is None:  # a reaction's ability (ward): not the board's, not scored
                        continue
                    chosen = [entry.targets] if entry.modes is None else [m.targets for m in entry.modes]
                    for thing in (t for targets in chosen for ts in targets.values() for t in ts):
                        expected[who] += -1 if owner[str(thing)] == who else 1
                for ability in outcome.removed:
                    if str(ability) in controller:
                        expected[controller[str(ability)]] -= 1
                assert example.rewards(board, outcome) == expected, (cards, k, outcome)
            assert example.scores(board) is example.scores(board)


# -- with Ray RLlib installed (the extra [rllib]) -------------------------------------------------------


def _needs_ray() -> None:
    missing = [m for m in ("ray", "torch") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"Ray RLlib is the extra [rllib] ({', '.join(missing)} not installed; docs/rl.md)")


def test_rllibs_own_wrapper_and_check_take_the_environment_as_it_is() -> None:
    """RLlib's ``PettingZooEnv`` around ``rl.env`` on boards of 2 to 4 players: its environment
    check passes (it steps an unmasked action), its spaces name every seat, and episodes run
    through it to the end with every observation in its agent's space."""
    _needs_ray()
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
    from ray.rllib.utils.pre_checks.env import check_multiagent_environments

    for seed in range(3):
        env = PettingZooEnv(rl.env(_boards(seed), layout=LAYOUT, form="rllib"))
        check_multiagent_environments(env)
        assert sorted(env.observation_spaces) == sorted(env.action_spaces) == [f"player_{i}" for i in range(4)]
        rng = np.random.default_rng(seed)
        for episode in range(4):
            observations, _ = env.reset(seed=episode)
            done = False
            while not done:
                (agent, seen), = observations.items()
                assert env.get_observation_space(agent).contains(seen)
                legal = np.flatnonzero(seen["action_mask"])
                observations, _, terminated, _, _ = env.step({agent: int(legal[rng.integers(len(legal))])})
                observations = {a: o for a, o in observations.items() if not terminated.get(a)}
                done = terminated["__all__"]


@pytest.mark.slow
def test_the_rllib_example_trains_an_iteration_with_two_local_workers(tmp_path: Path) -> None:
    """The docs' command, one iteration with 2 local workers (the figures it writes are read back)."""
    _needs_ray()
    import json

    spec = importlib.util.spec_from_file_location("train_rllib", ROOT / "examples" / "rl" / "train_rllib_ppo.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    out = tmp_path / "figures.json"
    assert example.main(["--workers", "2", "--iterations", "1", "--batch", "400", "--json", str(out)]) == 0
    figures = json.loads(out.read_text())
    assert figures["workers"] == 2 and figures["iterations"][0]["env_steps"] >= 400
