"""What a researcher meets first (docs/rl.md): the masked draw of PettingZoo's usual loop is
Gymnasium's draw at the cost of the one written out; ``action_masks()`` is found through every
wrapper Gymnasium's ``make`` adds or a user adds; the render modes Gymnasium and Stable-Baselines3
ask for are there or refused the way ``make_vec_env`` falls back on, never with a warning; the
parallel API is PettingZoo's turn-based conversion and passes PettingZoo's ``parallel_api_test``;
the suite's warning filter lets PettingZoo's classic games import.

Private unit: solver/rl/_spaces.MaskedDiscrete, the action space's masked draw; solver/rl/_render, the
frame an ``rgb_array`` environment draws and its font.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")
gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from gymnasium import spaces  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.utils.passive_env_checker import env_render_passive_checker  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pettingzoo.test import parallel_api_test  # noqa: E402
from triggerstack.model import Outcome  # noqa: E402
from triggerstack.solver import check, rl  # noqa: E402
from triggerstack.solver.rl import _render  # noqa: E402
from triggerstack.solver.rl._spaces import MaskedDiscrete  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402
from .property.strategies import SETTINGS  # noqa: E402

ROOT = EXAMPLES.parent
ERTAI = str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")
GYM_ID = "triggerstack/TriggerStack-v0"


def _draws(space: spaces.Discrete, mask: Any, n: int) -> list[Any]:
    """``n`` draws, or the type of what ``sample`` raised."""
    out: list[Any] = []
    for _ in range(n):
        try:
            out.append(space.sample(mask))
        except Exception as exc:
            return [*out, type(exc)]
    return out


# -- the masked draw ------------------------------------------------------------------------------


@settings(SETTINGS, max_examples=max(SETTINGS.max_examples, 200))
@given(
    n=st.integers(1, 80),
    seed=st.integers(0, 2**32 - 1),
    cells=st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, -1, 255]), min_size=1, max_size=80),
    dtype=st.sampled_from(["int8", "int8", "int8", "bool", "uint8", "int64"]),
    stretch=st.booleans(),
)
def test_a_masked_draw_is_gymnasiums_draw(n: int, seed: int, cells: list[int], dtype: str, stretch: bool) -> None:
    """The same seed and mask give Gymnasium's draws, one for one, of the same type; a mask
    Gymnasium refuses (another dtype or shape, a value other than 0 or 1) is refused the same way."""
    values = (cells * n)[:n] if stretch else cells
    mask = np.array(values).astype(dtype) if dtype != "bool" else np.array(values) != 0
    ours, theirs = MaskedDiscrete(n, seed=seed), spaces.Discrete(n, seed=seed)
    got, expected = _draws(ours, mask, 12), _draws(theirs, mask, 12)
    assert got == expected
    assert [type(x) for x in got] == [type(x) for x in expected]


def test_every_environment_draws_masked_actions_fast() -> None:
    """Each environment's action space is the fast one, and a masked draw costs less CPU than
    Gymnasium's (measured: about a fifth; the bound is generous: a loaded machine is fine)."""
    game = rl.env(ERTAI)
    game.reset(seed=1)
    gym = rl.TriggerStackGym(ERTAI)
    vector = rl.vector_env(2, ERTAI)
    for space in (game.action_space("player_0"), gym.action_space, vector.single_action_space):
        assert isinstance(space, MaskedDiscrete)
    mask = game.observe(game.agent_selection)["action_mask"]
    theirs = spaces.Discrete(len(mask), seed=0)

    def cpu(space: spaces.Discrete) -> float:
        start = time.process_time()
        for _ in range(3000):
            space.sample(mask)
        return time.process_time() - start

    assert min(cpu(game.action_space("player_0")) for _ in range(3)) < min(cpu(theirs) for _ in range(3))


# -- action_masks() through Gymnasium's wrappers ----------------------------------------------------


@pytest.mark.parametrize(
    "options", [{}, {"disable_env_checker": False}, {"max_episode_steps": 50}], ids=["plain", "checker", "time-limit"]
)
@pytest.mark.parametrize("wrap", [None, "RecordEpisodeStatistics", "TimeLimit"])
def test_action_masks_are_found_through_every_wrapper(options: dict[str, Any], wrap: str | None) -> None:
    """``gymnasium.make`` with its defaults hands back the environment itself, ``action_masks()``
    and all; through any wrapper (Gymnasium 1's wrappers forward no attribute of their own),
    ``get_wrapper_attr("action_masks")`` finds it, as Stable-Baselines3's ``env_method`` — how
    MaskablePPO asks — does."""
    env = gymnasium.make(GYM_ID, scenario=ERTAI, **options)
    if wrap is not None:
        env = getattr(gymnasium.wrappers, wrap)(env, **({"max_episode_steps": 40} if wrap == "TimeLimit" else {}))
    _, info = env.reset(seed=3)
    masks = env.get_wrapper_attr("action_masks")
    assert np.array_equal(masks(), info["action_mask"].astype(bool)) and masks().any()
    if not options and wrap is None:
        assert np.array_equal(env.action_masks(), masks())
    if importlib.util.find_spec("sb3_contrib") is not None:
        from sb3_contrib.common.maskable.utils import get_action_masks
        from stable_baselines3.common.vec_env import DummyVecEnv

        assert np.array_equal(get_action_masks(DummyVecEnv([lambda: env]))[0], masks())


# -- render modes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("make", ["class", "gymnasium.make"])
def test_rgb_array_is_a_frame_of_the_text_and_an_unknown_mode_is_refused_as_make_vec_env_expects(make: str) -> None:
    """``rgb_array`` (Stable-Baselines3's default in ``make_vec_env(id)``) is listed, so Gymnasium
    makes it without a warning (the suite turns one into an error), and draws the text of ``ansi``
    with nothing past numpy. A mode no environment has is refused as a ``TypeError``, naming the modes."""

    def build(**kwargs: Any) -> Any:
        return (
            rl.TriggerStackGym(ERTAI, **kwargs) if make == "class" else gymnasium.make(GYM_ID, scenario=ERTAI, **kwargs)
        )

    unknown = pytest.raises(TypeError, match=r"render_mode must be one of \['ansi', 'human', 'rgb_array'\], not 'rgb'")
    if make == "class":
        with unknown:
            build(render_mode="rgb")
    else:  # Gymnasium warns of a mode not listed before the environment refuses it
        with pytest.warns(UserWarning, match="render_mode='rgb'"), unknown:
            build(render_mode="rgb")
    assert "rgb_array" in rl.TriggerStackGym.metadata["render_modes"]
    env = build(render_mode="rgb_array")
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert (frame < 128).any() and (frame == 255).mean() > 0.5, "dark text on a white page"
    text = build(render_mode="ansi")
    text.reset(seed=0)
    assert np.array_equal(frame, _render.frame(text.render())), "the frame is the text's"


def test_gymnasiums_check_env_with_its_defaults_passes_through_gymnasium_make() -> None:
    """``check_env(env)`` makes the environment again in every mode it lists and renders it: with
    ``rgb_array`` drawn by matplotlib, it failed wherever matplotlib was not installed (the extra
    ``[rl]`` alone)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns of every doubtful answer: none is expected
        check_env(gymnasium.make(GYM_ID, scenario=ERTAI).unwrapped)


def test_every_character_a_frame_can_show_is_drawn_as_its_own_glyph() -> None:
    """The font (solver/rl/_glyphs.py) holds every printable ASCII character, each inked except the
    space and no two alike, inside its cell; any other character is the hollow box, never dropped."""
    font = _render.FONT
    assert font.shape[0] == 127 - 32 + 1
    inked = {ch: font[ord(ch) - 32] for ch in map(chr, range(33, 127))}
    assert not font[0].any() and all(g.any() for g in inked.values())
    assert len({g.tobytes() for g in inked.values()}) == len(inked), "two characters drawn alike"
    drawn = _render.frame("é\x07" + "".join(inked))
    shown = drawn[..., 0] < 128
    cell_h, cell_w = font.shape[1] * _render.SCALE, font.shape[2] * _render.SCALE
    first = shown[cell_h : 2 * cell_h, cell_w : 2 * cell_w]
    box = font[-1].repeat(_render.SCALE, axis=0).repeat(_render.SCALE, axis=1)
    assert np.array_equal(first, box), "a character past ASCII is the box"


def test_make_vec_env_makes_the_environments_with_its_default_render_mode() -> None:
    pytest.importorskip("stable_baselines3", reason="the extra [train] (Stable-Baselines3) is not installed")
    from stable_baselines3.common.env_util import make_vec_env

    envs = make_vec_env(GYM_ID, n_envs=2, env_kwargs={"scenario": ERTAI})  # no warning: the suite fails on one
    try:
        observations: Any = envs.reset()  # typed only where SB3 is installed
        assert observations.shape[0] == 2 and all(m.any() for m in envs.env_method("action_masks"))
        assert envs.get_attr("render_mode") == ["rgb_array", "rgb_array"]
    finally:
        envs.close()


# -- the parallel API -----------------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
@pytest.mark.parametrize("source", ["examples", "drawn"])
def test_the_parallel_api_passes_pettingzoos_test_and_reaches_legal_outcomes(source: str) -> None:
    boards = str(EXAMPLES) if source == "examples" else list(rl.boards(3, 12, players=(2, 4), cards=False))
    parallel_api_test(rl.parallel_env(boards), num_cycles=200)
    game = rl.parallel_env(boards)
    for seed in range(6):
        observations, _ = game.reset(seed=seed)
        assert set(observations) == set(game.possible_agents), "every agent observes, from the first reset on"
        while game.agents:
            deciding = [a for a in game.agents if observations[a]["action_mask"].any()]
            assert len(deciding) == 1, "one agent decides at a time"
            actions = {a: game.action_space(a).sample(observations[a]["action_mask"]) for a in game.agents}
            observations, _, terminations, _, infos = game.step(actions)
        reached = infos[game.possible_agents[0]]["outcome"]
        assert all(terminations.values())
        assert check(game.unwrapped.scenario, Outcome.model_validate_json(reached)).legal


# -- PettingZoo's classic games import under the suite's warning filter -----------------------------


def test_the_suite_collects_with_pettingzoos_classic_games(tmp_path: Path) -> None:
    """Importing ``pettingzoo.classic`` warns of PettingZoo's own deprecated creation API (a
    ``DeprecationWarning``, an error under the suite's ``filterwarnings = error``): collection under
    the project's pytest configuration survives that warning, PettingZoo's own message, and — where
    ``pettingzoo[classic]`` is installed — the real import of its games and of ``pettingzoo.test``."""
    classic = importlib.util.find_spec("chess") is not None and importlib.util.find_spec("pygame") is not None
    lines = [
        "import warnings",
        "from pettingzoo.utils.deprecated_module import CREATE_ENV_WITHOUT_REGISTRY",
        "warnings.warn(CREATE_ENV_WITHOUT_REGISTRY, DeprecationWarning, stacklevel=2)",
    ]
    if classic:
        lines += [
            "import pettingzoo.classic",
            "import pettingzoo.test",
            "from pettingzoo.classic import connect_four_v3",
        ]
    (tmp_path / "test_classic_import.py").write_text("\n".join([*lines, "def test_nothing(): pass", ""]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-p", "no:randomly", "--collect-only", str(tmp_path)],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("mode", ["ansi", "human"])
def test_gymnasiums_render_check_finds_a_render_fps(mode: str) -> None:
    """Gymnasium's ``check_env`` checks the render metadata of an environment that renders and
    warned "No render fps was declared" (issue 53, helper 69b): both environments declare
    ``render_fps``, a positive number, the same (they render the same frames), and Gymnasium's render
    check warns of nothing."""
    gym = rl.TriggerStackGym(ERTAI, render_mode=mode)
    gym.reset(seed=0)
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        env_render_passive_checker(gym)
    assert not [str(w.message) for w in warned if "render" in str(w.message)]
    fps = gym.metadata["render_fps"]
    assert isinstance(fps, int | float) and fps > 0 and rl.raw_env(ERTAI).metadata["render_fps"] == fps
