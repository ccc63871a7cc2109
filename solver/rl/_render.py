"""What ``render()`` shows, in each render mode: the stack so far and who decides what, as text
(``ansi`` returns it, ``human`` prints it), or that text drawn as an RGB frame (``rgb_array``).

Gymnasium's ``make`` warns about a render mode an environment does not list, and Stable-Baselines3's
``make_vec_env(id)`` asks every environment for ``rgb_array`` (for its video recorder): listing the
mode and drawing the text keeps both quiet and gives a recorder a real picture. The drawing is
matplotlib's (the extras ``[bench]`` and ``[train]``; Stable-Baselines3 brings it too); without it
the mode is refused when the environment is made, as a :class:`RenderModeError`, a ``TypeError`` on
which ``make_vec_env`` makes the environment without a render mode.
"""

from __future__ import annotations

import importlib.util
import textwrap
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from triggerstack.model._outcome import outcome_json
from triggerstack.model._text import found

from .._verbs.step import Decision, Stepper, Walk

MODES = ("ansi", "human", "rgb_array")
FPS = 1
"""Frames a second a recording of the frames plays at (``metadata["render_fps"]``, which
Gymnasium's ``check_env`` asks of an environment that renders, and its video recorder reads): one
decision a second, each frame a board's text; PettingZoo's classic games declare 1 or 2."""
WIDTH = 100
"""Characters a line of a frame holds (a longer line, an outcome's JSON, wraps)."""


class RenderModeError(ValueError, TypeError):
    """A render mode the environment has not (``ansi``, ``human`` and ``rgb_array``, the last only
    where matplotlib is installed to draw it): a bad value, and a ``TypeError`` too, because that is
    what Stable-Baselines3's ``make_vec_env`` takes to mean "this environment renders no
    ``rgb_array``" — it asks for one first and tries again without it only on a ``TypeError``
    (docs/rl.md, "Gymnasium ids")."""


def check_mode(mode: str | None) -> None:
    """Refuse a render mode that cannot be rendered here (:class:`RenderModeError`)."""
    if mode is not None and mode not in MODES:
        raise RenderModeError(f"render_mode must be one of {list(MODES)}, not {found(mode)}")
    if mode == "rgb_array" and importlib.util.find_spec("matplotlib") is None:  # found, not imported: heavy
        raise RenderModeError(
            "render_mode 'rgb_array' draws the text with matplotlib, which is not installed (the extra [train])"
        )


def shown(
    mode: str, stepper: Stepper, walk: Walk, legal: Sequence[Decision], illegal: str | None
) -> str | NDArray[np.uint8] | None:
    """What ``render()`` gives in ``mode`` (``legal``: sorted by id; ``illegal``: why the episode
    ended on an illegal action, if it did)."""
    lines = [f"pass {len(walk.done) + 1}; decisions so far: {len(walk.decisions)}"]
    lines += [f"  {stepper.decision(i).text}" for i in walk.decisions[-5:]]
    if illegal is not None:
        lines.append(f"over, on an illegal action: {illegal}")
    elif legal:
        lines.append(f"{stepper.decider(walk)} decides: " + ", ".join(d.text for d in legal))
    else:
        lines.append("over: " + outcome_json(stepper.outcome(walk)))
    text = "\n".join(lines)
    if mode == "human":
        print(text)
        return None
    return frame(text) if mode == "rgb_array" else text


def frame(text: str) -> NDArray[np.uint8]:
    """``text`` in a monospaced font, black on white: an array of shape ``(height, width, 3)``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lines = [piece for line in text.splitlines() for piece in textwrap.wrap(line, WIDTH) or [""]]
    columns = max([40, *map(len, lines)])
    figure = Figure(figsize=(0.3 + 0.07 * columns, 0.2 + 0.15 * len(lines)), dpi=100, facecolor="white")
    canvas: Any = FigureCanvasAgg(figure)  # typed only where matplotlib is installed: one type either way
    figure.text(0.01, 0.99, "\n".join(lines), family="monospace", fontsize=8, va="top", ha="left")
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()
