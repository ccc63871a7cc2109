"""The tree of walks an environment keeps per board (solver/rl/_tree.py) changes nothing an agent
sees: on boards played again and again — so that decisions are taken from points already reached,
observations asked at some steps and not others (the tracker following the decisions later),
the trees dropped past their bound, with and without ``auto`` — every step's walk, legal decisions,
mask, decider, reward and outcome line are what a stepper makes of the same decisions from scratch,
and every seat's observation is that of an environment that keeps no tree and what
``Observer.encode`` makes of the walk. (With ``auto``, what the tracker kept per placed ability once
differed on a board played again after its set's members were clicked in another order: this
property found it.)

Rules: 603.3b (who decides: the controller of the block being put), 700.2e (the chooser of the
ability in hand), docs/rl.md ("What a step costs").

Private unit: the trees' bound (solver/rl/_tree.NODES), set small here so that the trees are dropped while played.
"""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from triggerstack.model import Outcome, Score, compile_facts, outcome_json  # noqa: E402
from triggerstack.solver import ActionLayout, Stepper, rl  # noqa: E402
from triggerstack.solver.rl import _tree  # noqa: E402

from .property.strategies import SETTINGS  # noqa: E402


def _score(boards: list[Any]) -> dict[str, Any]:
    """A score that tells outcomes apart (each ability's height, 2 for each removed): the rewards
    kept at a final point of a tree."""
    ids = sorted({a.id for b in boards for a in compile_facts(b).abilities})
    return {"height": dict.fromkeys(ids, 1), "removed": dict.fromkeys(ids, 2)}


def _reference(game: Any, stepper: Stepper, taken: list[int], auto: bool) -> Any:
    """The walk of ``taken`` from scratch by ``stepper``, each decision checked, forced decisions
    taken as the environment takes them (``Stepper.forced``)."""
    walk = stepper.start()
    if auto:
        walk, _ = stepper.forced(walk)
    for d in taken:
        walk = stepper.apply(walk, d)
        if auto:
            walk, _ = stepper.forced(walk)
    return walk


@settings(
    SETTINGS,
    max_examples=max(SETTINGS.max_examples // 10, 6),
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],  # a failure is whole episodes: shrinking it takes minutes
)
@given(seed=st.integers(0, 2**16), auto=st.booleans(), bound=st.sampled_from([3, 40, None]), data=st.data())
def test_the_kept_tree_changes_nothing_an_agent_sees(seed: int, auto: bool, bound: int | None, data: Any) -> None:
    boards = list(rl.boards(seed, 3, players=(2, 3), abilities=(2, 5), cards=False))
    layout = ActionLayout.covering(Stepper(compile_facts(b)).needs for b in boards)
    score = _score(boards)
    game = rl.raw_env(boards, layout=layout, auto=auto, rewards={p.id: score for b in boards for p in b.players})
    game._trees.limit = _tree.NODES if bound is None else bound  # a small bound drops the trees while played
    plain = rl.raw_env(boards, layout=layout, auto=auto)
    plain._trees.limit = 0  # every point dropped as soon as kept: no decision is taken from a kept one
    rng = np.random.default_rng(seed)
    for episode in range(12):
        board = int(rng.integers(3))  # few boards, few choices: points are reached again
        game.reset(seed=board)
        plain.reset(seed=board)
        fresh = game.stepper  # its slots (a hook's abilities numbered as they fire) are the observation's
        taken: list[int] = []
        while True:
            walk = _reference(game, fresh, taken, auto)
            assert game.walk.decisions == walk.decisions, (episode, taken)
            legal = [d.id for d in fresh.legal(walk)]
            assert [d.id for d in game.legal()] == legal
            assert np.flatnonzero(game.mask()).tolist() == legal
            asked = data.draw(st.sets(st.sampled_from(sorted(game._player_of))), label="seats observed")
            for agent in asked:  # some steps observe no seat: the tracker follows several decisions later
                player = game.player(agent)
                anew = plain.observe(agent)["observation"]
                assert np.array_equal(game.observe(agent)["observation"], anew), (episode, agent)
                assert np.array_equal(game.observation(player), anew)
                assert np.array_equal(anew, game.observer.encode(fresh, walk, player, fresh.legal(walk)))
            if not legal:
                outcome = fresh.outcome(walk)
                for agent in game._player_of:
                    assert game.infos[agent]["outcome"] == outcome_json(outcome)
                    assert game.rewards[agent] == float(Score.model_validate(score).of(outcome))
                assert Outcome.model_validate_json(game.infos[agent]["outcome"]) == outcome
                break
            assert game.player(game.agent_selection) == fresh.decider(walk)
            chosen = legal[int(rng.integers(len(legal)))] if rng.random() < 0.9 else legal[0]
            taken.append(chosen)
            game.step(chosen)
            plain.step(chosen)
            given_out = game.observe(game.agent_selection)["observation"]
            given_out += 1  # the agent's to change: what is kept at the point is not
            assert not np.array_equal(game.observe(game.agent_selection)["observation"], given_out)
    assert game._trees.count <= game._trees.limit
    assert plain._trees.count <= 1
