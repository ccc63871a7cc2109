"""A learning seat that no board of the source has is refused saying so: the seat, and how many
players the boards have (docs/rl.md, "The Gymnasium environment"). A seat past the layout's
players is refused by the layout; a seat within the layout but past every board's players never
decides, and was reported as "player_3 made no decision in 100 episodes" (issue 53, helper 69b).

Where the source says its boards' players before they are drawn (a fixed source, ``rl.boards``)
the seat is refused when the environment is made, naming ``seat``, at every door that takes one;
where it does not (a function, an iterator) the first ``reset`` says it from the boards it drew.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Scenario, ScenarioError, UsageError
from triggerstack.solver import ActionLayout, rl

from .conftest import EXAMPLES

LAYOUT = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=4)
GYM = "triggerstack/TriggerStack-v0"
ERTAI = str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")  # two players
ERTAI_SCENARIO = Scenario.load(ERTAI)
DOORS: dict[str, Callable[..., Any]] = {
    "TriggerStackGym": rl.TriggerStackGym,
    "vector_env": lambda source, **kw: rl.vector_env(2, source, **kw),
    "gymnasium.make": lambda source, **kw: gymnasium.make(GYM, scenario=source, **kw),
    "gymnasium.make_vec": lambda source, **kw: gymnasium.make_vec(GYM, num_envs=2, scenario=source, **kw),
}


@settings(max_examples=25, deadline=None)
@given(
    door=st.sampled_from(sorted(DOORS)),
    players=st.sampled_from([2, 3, (2, 3)]),
    past=st.integers(0, 3),
    fixed=st.booleans(),
)
def test_a_seat_no_board_has_is_refused_naming_the_boards_players(
    door: str, players: int | tuple[int, int], past: int, fixed: bool
) -> None:
    most = players if isinstance(players, int) else players[1]
    seat = most + past
    if seat >= LAYOUT.players:
        return  # past the layout's seats: the layout refuses it (tests/test_rl_arguments.py)
    if fixed:
        source: Any = list(rl.boards(3, 4, players=players, layout=LAYOUT, cards=False))
        counts = {len(b.players) for b in source}
        least, most = min(counts), max(counts)
    else:
        source = rl.boards(3, players=players, layout=LAYOUT, cards=False)
        least = players if isinstance(players, int) else players[0]
    if seat < most:
        return
    with pytest.raises(UsageError) as refused:
        DOORS[door](source, seat=seat, layout=LAYOUT)
    said = str(refused.value)
    count = f"{most} players" if least == most else f"{least} to {most} players"
    assert said.startswith(f"seat: {seat} ") and count in said, said


def test_a_seat_no_drawn_board_had_is_said_at_reset() -> None:
    """A function's boards are known only as drawn: the reset that finds none seating the seat says
    the seat and the players the boards had, not that it made no decision."""
    env = rl.TriggerStackGym(lambda _rng: ERTAI_SCENARIO, seat=3, layout=LAYOUT)
    with pytest.raises(ScenarioError, match=re.escape("player_3 (seat 3) has no seat on these boards") + ".*2 players"):
        env.reset(seed=0)


def test_a_seat_the_boards_have_is_taken() -> None:
    for seat in range(2):
        env = rl.TriggerStackGym(ERTAI, seat=seat, layout=LAYOUT)
        env.reset(seed=0)
        assert env.action_masks().any()
