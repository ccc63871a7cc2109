"""What an action is, read once for every environment (docs/rl.md): an action that is not of the
action space — not a Python ``int`` or NumPy integer, or an id out of ``0 … layout.size − 1`` —
raises ``rl.NotAnAction`` from the one-board, Gymnasium and vector environments alike, whatever
their ``illegal_reward``; an action of the space that is not legal now ends the episode with
``illegal_reward`` where one is set, and raises an ``IllegalDecision`` that is not ``NotAnAction``
where none is.

Found: the Gymnasium environment (and the vector one, through it) read ``2.5``, ``True``, ``-1`` or
``10**6`` as an illegal move and paid −1, where ``rl.env`` raised — the Gymnasium wrapper caught
every ``IllegalDecision`` the game raised, and only the game knew which were of the space.

Private unit: solver/rl/_spaces (space_id, the one reading of an action of the space)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from triggerstack.solver import IllegalDecision, rl
from triggerstack.solver.rl._spaces import space_id

from .conftest import EXAMPLES

SCENARIO = str(EXAMPLES / "board-wipe" / "scenario.yaml")

_ACTIONS = st.one_of(
    st.integers(-(10**9), 10**9),
    st.integers(-3, 40),
    st.integers(-3, 40).map(np.int64),
    st.integers(-3, 40).map(lambda i: np.array(i, dtype=np.int32)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(0, 5).map(float),
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.lists(st.integers(0, 3), max_size=2),
)


def _of_the_space(action: Any, size: int) -> int | None:
    """The id ``action`` is in a space of ``size`` ids, as docs/rl.md says (None: not of it)."""
    if isinstance(action, bool) or action is None:
        return None
    if isinstance(action, np.ndarray):
        return int(action) if action.shape == () and np.issubdtype(action.dtype, np.integer) and 0 <= action < size else None
    if isinstance(action, int | np.integer) and 0 <= int(action) < size:
        return int(action)
    return None


def _first_mask(kind: str, game: Any) -> np.ndarray[Any, Any]:
    if kind == "gym":
        return np.asarray(game.action_masks())
    if kind == "vector":
        return np.asarray(game.action_masks()[0])
    return np.asarray(game.observe(game.agent_selection)["action_mask"])


_MADE: dict[str, Any] = {}
"""One environment of each kind, reset for each example: building one reads and compiles the board
(7-10 ms, most of an example); ``reset(seed=0)`` puts it back at the first decision (0.05 ms)."""


def _made(kind: str) -> Any:
    game = _MADE.get(kind)
    if game is None:
        if kind == "raw":
            game = rl.raw_env(SCENARIO)
        elif kind == "env":
            game = rl.env(SCENARIO)
        elif kind == "gym":
            game = rl.TriggerStackGym(SCENARIO)
        else:
            game = rl.vector_env(2, SCENARIO)
        _MADE[kind] = game
    game.reset(seed=0)
    return game


def _step(kind: str, game: Any, action: Any) -> tuple[float, bool]:
    """The reward of the agent who took ``action``, and whether its episode ended."""
    if kind == "gym":
        _obs, reward, over, _trunc, _info = game.step(action)
        return float(reward), bool(over)
    if kind == "vector":
        _obs, rewards, over, _trunc, _info = game.step(np.array([action, 0], dtype=object))
        return float(rewards[0]), bool(over[0])
    agent = game.agent_selection
    game.step(action)
    return float(game.rewards[agent]), bool(game.terminations[agent])


@pytest.mark.parametrize("kind", ["raw", "env", "gym", "vector"])
@given(action=_ACTIONS)
def test_an_action_not_of_the_space_raises_from_every_environment_and_an_illegal_one_is_a_move(
    kind: str, action: Any
) -> None:
    game = _made(kind)
    mask = _first_mask(kind, game)
    size = len(mask)
    chosen = _of_the_space(action, size)
    if chosen is None:
        with pytest.raises(rl.NotAnAction):
            _step(kind, game, action)
        return
    if mask[chosen]:
        _step(kind, game, action)  # a legal move is taken
        return
    if kind == "raw":  # no illegal_reward: an illegal move raises, as a move, not as no action
        with pytest.raises(IllegalDecision) as refused:
            _step(kind, game, action)
        assert not isinstance(refused.value, rl.NotAnAction)
        return
    reward, over = _step(kind, game, action)
    assert (reward, over) == (-1.0, True)


def test_the_vector_environment_checks_every_board_before_any_moves() -> None:
    game = rl.vector_env(2, SCENARIO)
    game.reset(seed=0)
    legal = int(np.flatnonzero(game.action_masks()[0])[0])
    before = [board.game.walk for board in game.envs]
    with pytest.raises(rl.NotAnAction, match="board 1"):
        game.step(np.array([legal, 10**6]))
    assert [board.game.walk for board in game.envs] == before


@given(st.integers(-5, 40), st.integers(1, 32))
def test_space_id_reads_an_id_of_the_space_and_words_the_rest_as_the_stepper(action: int, size: int) -> None:
    if 0 <= action < size:
        assert space_id(action, "player_0", size) == action
    else:
        with pytest.raises(rl.NotAnAction, match=rf"no decision has this id \(ids run from 0 to {size - 1}\)"):
            space_id(action, "player_0", size)
