"""A stream of boards drawn in a layout (``rl.boards(..., layout=L)``) gives every environment that
takes a source its layout (docs/rl.md, "Action ids"): the layout is said once. Given with the
stream, the environment takes it; a layout given beside it that is not the stream's is refused
naming ``layout`` and saying how to give it once; a stream drawn without a layout whose board
overflows the environment's says to draw it in that layout (``rl.boards(..., layout=...)``).

Before (issue 53, helper 69b): ``rl.env(rl.boards(0, layout=L))`` was refused with "needs
layout=ActionLayout(...)", and ``rl.env(rl.boards(0), layout=L)`` raised ``LayoutOverflow`` at a
later ``reset`` without saying why the stream drew a board too big.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import gymnasium
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import LayoutOverflow, UsageError
from triggerstack.solver import ActionLayout, rl

LAYOUT = ActionLayout(abilities=8, things=12, modes=3, divide=5, passes=2, players=4)
"""docs/rl.md's layout: boards of rl.boards' defaults overflow it within a few draws."""
GYM = "triggerstack/TriggerStack-v0"

DOORS: dict[str, Callable[..., Any]] = {
    "env": rl.env,
    "raw_env": rl.raw_env,
    "parallel_env": rl.parallel_env,
    "TriggerStackGym": rl.TriggerStackGym,
    "vector_env": lambda source, **kw: rl.vector_env(2, source, **kw),
    "gymnasium.make": lambda source, **kw: gymnasium.make(GYM, scenario=source, **kw),
    "gymnasium.make_vec": lambda source, **kw: gymnasium.make_vec(GYM, num_envs=2, scenario=source, **kw),
}
"""Every constructor that takes a source."""


def _layout(made: Any) -> ActionLayout:
    """The layout an environment made by a door plays in (each names it its own way)."""
    for route in ("layout", "unwrapped.layout", "aec_env.unwrapped.layout"):
        found: Any = made
        try:
            for name in route.split("."):
                found = getattr(found, name)
        except AttributeError:
            continue
        if isinstance(found, ActionLayout):
            return found
    raise AssertionError(f"no layout on {made!r}")


def _reset(made: Any, seed: int) -> None:
    made.reset(seed=seed)


@pytest.mark.parametrize("door", sorted(DOORS))
def test_an_environment_takes_the_streams_layout(door: str) -> None:
    """Given a stream drawn in a layout and none of its own, every door plays in the stream's
    layout, and the boards it draws fit it."""
    made = DOORS[door](rl.boards(0, layout=LAYOUT, cards=False))
    assert _layout(made) == LAYOUT
    for seed in range(3):
        _reset(made, seed)


@settings(max_examples=20, deadline=None)
@given(
    door=st.sampled_from(sorted(DOORS)),
    field=st.sampled_from(["abilities", "things", "modes", "divide", "passes", "players"]),
    by=st.integers(-1, 3).filter(bool),
    same=st.booleans(),
)
def test_a_layout_given_beside_a_stream_is_the_streams_or_refused(door: str, field: str, by: int, same: bool) -> None:
    """The stream's own layout given again is taken; any other is refused naming ``layout``, with
    the stream's layout and how to say it once — never a stream whose boards the environment's
    layout is read apart from."""
    theirs = {f: getattr(LAYOUT, f) for f in ("abilities", "things", "modes", "divide", "passes", "players")}
    ours = dict(theirs, **{field: max(1, theirs[field] + by)})
    given_layout = ActionLayout(**theirs) if same else ActionLayout(**ours)
    stream = rl.boards(1, layout=LAYOUT, cards=False)
    if given_layout == LAYOUT:
        assert _layout(DOORS[door](stream, layout=given_layout)) == LAYOUT
        return
    with pytest.raises(UsageError) as refused:
        DOORS[door](stream, layout=given_layout)
    said = str(refused.value)
    assert said.startswith("layout: ") and repr(LAYOUT) in said and "rl.boards(..., layout=layout)" in said


def test_a_stream_of_another_layout_in_resets_options_is_refused() -> None:
    """``reset(options={"scenario": stream})`` is a source too: a stream drawn in another layout is
    refused naming ``options['scenario']``."""
    other = ActionLayout(abilities=9, things=12, modes=3, divide=5, passes=2, players=4)
    game = rl.env(rl.boards(0, layout=LAYOUT, cards=False))
    with pytest.raises(UsageError, match=r"^options\['scenario'\]: .*rl\.boards\(\.\.\., layout=layout\)"):
        game.reset(seed=0, options={"scenario": rl.boards(0, layout=other, cards=False)})
    game.reset(seed=0, options={"scenario": rl.boards(2, layout=LAYOUT, cards=False)})


@pytest.mark.parametrize("door", ["env", "TriggerStackGym", "vector_env"])
def test_a_board_of_a_stream_drawn_without_the_layout_says_how_to_draw_it_in_one(door: str) -> None:
    """A stream drawn without a layout draws boards too big for the environment's: the
    ``LayoutOverflow`` names what overflows and says to draw the stream in the layout."""
    made = DOORS[door](rl.boards(0, cards=False), layout=LAYOUT)
    with pytest.raises(LayoutOverflow) as overflowed:
        for seed in range(200):
            _reset(made, seed)
    said = str(overflowed.value)
    assert "does not fit the action layout" in said and "rl.boards(..., layout=layout)" in said


@pytest.mark.parametrize("door", ["TriggerStackGym", "gymnasium.make", "vector_env"])
def test_a_gymnasium_environment_names_its_layout_and_observer_read_only(door: str) -> None:
    """``TriggerStackGym`` (and the vector one) give their layout and observer as read-only
    properties, the AEC environment's: with a stream as the source the route was ``.game``, undocumented
    (docs/rl.md, "The observation")."""
    made = DOORS[door](rl.boards(0, layout=LAYOUT, cards=False))
    inner = made.unwrapped if door == "gymnasium.make" else made
    assert inner.layout == LAYOUT and inner.observer.layout == LAYOUT
    assert inner.observer.fields() == rl.Observer(LAYOUT).fields()
    with pytest.raises(AttributeError):
        inner.observer = rl.Observer(LAYOUT)
    if door != "vector_env":
        with pytest.raises(AttributeError):
            inner.layout = LAYOUT
