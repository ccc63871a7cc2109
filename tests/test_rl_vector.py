"""The vector environment of ``triggerstack.solver.rl`` and the Gymnasium ids: batched observations
and masks of the documented shapes, masks that are the legal decisions, Gymnasium's next-step
autoreset (``AutoresetMode.NEXT_STEP``, docs/rl.md), the same episodes from the same seeds as the
one-board environment, and every episode ending in an outcome ``check`` accepts (603.3b–d).
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium.vector import AutoresetMode  # noqa: E402
from triggerstack.model import Outcome  # noqa: E402
from triggerstack.solver import check, rl  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402

ERTAI = str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")
MIXED = str(EXAMPLES.parent / "benchmarks" / "scenarios" / "mixed-10.json")


def _draw(masks: Any, rng: Any) -> Any:
    """One legal action per board, uniform over its mask (0 where a board has none)."""
    return np.argmax(rng.random(masks.shape) * masks, axis=1)


def test_observations_and_masks_are_batched_and_masks_are_the_legal_decisions() -> None:
    envs = rl.vector_env(5, str(EXAMPLES))
    observations, infos = envs.reset(seed=11)
    size = envs.layout.size
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    assert observations.shape == (5, envs._observations.shape[1]) and observations.dtype == np.int16
    assert envs.observation_space.shape == observations.shape and envs.action_space.shape == (5,)
    rng = np.random.default_rng(2)
    for _ in range(60):
        masks = envs.action_masks()
        assert masks.shape == (5, size) and masks.dtype == np.bool_
        assert np.array_equal(infos["action_mask"], masks.astype(np.int8))
        assert envs.observation_space.contains(observations)
        for board, row in zip(envs.envs, masks, strict=True):
            if board._over:
                assert not row.any()
            else:
                assert board.game.agent_selection == board.agent, "the learning seat decides"
                assert set(np.flatnonzero(row)) == {d.id for d in board.game.legal()}
        observations, rewards, terminated, truncated, infos = envs.step(_draw(masks, rng))
        assert rewards.shape == terminated.shape == truncated.shape == (5,) and not truncated.any()


def test_autoreset_is_next_step_and_every_episode_ends_in_a_legal_outcome() -> None:
    """The step that ends an episode returns its outcome; the next one ignores the board's action,
    gives reward 0 and not terminated, and returns the first observation of a new episode."""
    envs = rl.vector_env(4, str(EXAMPLES), rewards={"A": {"mode": {"E": {"destroy": 1}}}})
    envs.reset(seed=3)
    rng = np.random.default_rng(4)
    ended = 0
    pending: list[int] = []
    for _ in range(150):
        masks = envs.action_masks()
        actions = _draw(masks, rng)
        for i in pending:
            assert not masks[i].any()
            actions[i] = envs.layout.size - 1  # ignored: any id, legal or not, is not taken
        observations, rewards, terminated, _, infos = envs.step(actions)
        for i in pending:
            board = envs.envs[i]
            assert rewards[i] == 0.0 and not terminated[i]
            assert not board._over and "outcome" not in board.game.infos[board.agent], "a new episode"
            assert envs.action_masks()[i].any()
            assert np.array_equal(observations[i], board.game.observation(board.game.player(board.agent)))
        pending = []
        for i in np.flatnonzero(terminated):
            assert infos["_outcome"][i] and "illegal" not in infos
            facts = envs.envs[i].game.stepper.facts
            assert check(facts, Outcome.model_validate_json(infos["outcome"][i])).legal
            pending.append(int(i))
            ended += 1
        assert not infos.get("_outcome", np.zeros(4, bool))[~terminated].any()
    assert ended >= 20


def test_the_same_seeds_give_the_same_episodes_as_the_one_board_environment() -> None:
    """Board ``i`` seeded ``seed + i`` plays what a ``TriggerStackGym`` reset with that seed plays,
    given the same actions; two vector environments with one seed agree step by step."""
    runs = []
    for _ in range(2):
        envs = rl.vector_env(3, MIXED)
        observations, _ = envs.reset(seed=7)
        rng = np.random.default_rng(9)
        trace: list[Any] = [observations]
        for _ in range(40):
            out = envs.step(_draw(envs.action_masks(), rng))
            trace += [out[0], out[1], out[2]]
        runs.append(trace)
    assert all(np.array_equal(a, b) for a, b in zip(*runs, strict=True))

    envs = rl.vector_env(3, MIXED)
    envs.reset(seed=7)
    alone = rl.TriggerStackGym(MIXED)
    first, _ = alone.reset(seed=8)
    assert np.array_equal(envs.envs[1].game.observation(envs.envs[1].game.player("player_0")), first)
    rng = np.random.default_rng(1)
    while True:
        masks = envs.action_masks()
        assert np.array_equal(masks[1], alone.action_masks())
        actions = _draw(masks, rng)
        observations, rewards, terminated, _, _ = envs.step(actions)
        mine = alone.step(int(actions[1]))
        assert np.array_equal(observations[1], mine[0]) and rewards[1] == mine[1] and terminated[1] == mine[2]
        if terminated[1]:
            break


def test_the_boards_share_what_is_compiled() -> None:
    envs = rl.vector_env(3, str(EXAMPLES))
    games = [board.game for board in envs.envs]
    assert all(g._steppers is games[0]._steppers and g.observer is games[0].observer for g in games)
    assert len({id(g) for g in games}) == 3 and len({id(b) for b in envs.envs}) == 3


def test_the_gymnasium_ids_make_both_environments() -> None:
    one = gymnasium.make("triggerstack/TriggerStack-v0", scenario=ERTAI)
    observation, info = one.reset(seed=1)
    assert one.observation_space.contains(observation) and info["action_mask"].any()
    many = gymnasium.make_vec("triggerstack/TriggerStack-v0", num_envs=3, scenario=ERTAI)
    assert isinstance(many.unwrapped, rl.TriggerStackVectorEnv)
    observations, _ = many.reset(seed=1)
    assert observations.shape == (3, one.observation_space.shape[0])
    assert many.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    with pytest.raises(ValueError, match="NEXT_STEP"):
        rl.vector_env(2, ERTAI, autoreset_mode=AutoresetMode.SAME_STEP)


def test_an_illegal_action_ends_that_board_with_the_illegal_reward() -> None:
    envs = rl.vector_env(2, ERTAI, illegal_reward=-2.0)
    envs.reset(seed=5)
    masks = envs.action_masks()
    wrong = int(np.flatnonzero(~masks[0])[0])
    actions = np.array([wrong, int(np.flatnonzero(masks[1])[0])])
    _, rewards, terminated, _, infos = envs.step(actions)
    assert terminated[0] and rewards[0] == -2.0 and infos["_illegal"][0]
    assert isinstance(infos["illegal"][0], str) and infos["illegal"][0]  # why, as IllegalDecision says
    assert not envs.action_masks()[0].any() and not infos["_illegal"][1]
    _, rewards, terminated, _, _ = envs.step(np.array([wrong, 0]))  # board 0 begins again: its action is ignored
    assert rewards[0] == 0.0 and not terminated[0] and envs.action_masks()[0].any()


def test_seeds_per_board_may_be_an_array_and_other_autoreset_modes_are_refused_naming_the_one() -> None:
    envs = rl.vector_env(3, str(EXAMPLES))
    by_list, _ = envs.reset(seed=[4, 9, 2])
    by_array, _ = envs.reset(seed=np.array([4, 9, 2]))
    by_tuple, _ = envs.reset(seed=(4, 9, 2))
    assert (by_list == by_array).all() and (by_list == by_tuple).all()
    for bad, said in ((np.array([[4, 9, 2]]), "array of shape 1×3"), (np.array([4.0, 9.0, 2.0]), "seed.0.: ")):
        with pytest.raises(ValueError, match=said):
            envs.reset(seed=bad)
    with pytest.raises(ValueError, match=r"seed: expected one seed per board \(2\), found a list of 3"):
        rl.vector_env(2, str(EXAMPLES)).reset(seed=[1, 2, 3])
    for mode in (AutoresetMode.SAME_STEP, "SameStep", "same_step", AutoresetMode.DISABLED):
        with pytest.raises(ValueError, match=r"only AutoresetMode\.NEXT_STEP \('NextStep'\) is implemented"):
            rl.vector_env(2, ERTAI, autoreset_mode=mode)
    assert rl.vector_env(1, ERTAI, autoreset_mode="NextStep").metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def test_action_masks_reach_maskable_ppo_through_gymnasium_make() -> None:
    """``gymnasium.make`` hands back an environment whose ``action_masks()`` MaskablePPO finds —
    Gymnasium 1's wrappers forward no other attribute — and whose step before reset is still refused."""
    env = gymnasium.make("triggerstack/TriggerStack-v0", scenario=ERTAI)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    _, info = env.reset(seed=3)
    assert np.array_equal(env.action_masks(), info["action_mask"].astype(bool)) and env.action_masks().any()


@pytest.mark.parametrize("bad", [{"num_envs": 0}, {"num_envs": 2, "autoreset_mode": "SameStep"}])
def test_a_vector_environment_refused_when_made_still_closes(bad: dict[str, Any]) -> None:
    """Gymnasium 1.2 (the version Ray RLlib pins) closes a vector environment when it is collected,
    one whose ``__init__`` refused its arguments too: closing one whose boards were never made says
    nothing (it raised, and pytest turned the unraisable error into a failure elsewhere)."""
    envs = rl.TriggerStackVectorEnv.__new__(rl.TriggerStackVectorEnv)
    with pytest.raises(ValueError):
        rl.TriggerStackVectorEnv.__init__(envs, scenario=ERTAI, **bad)
    envs.close()
    envs.close_extras()
