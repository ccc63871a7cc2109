"""What ``render()`` shows, in each render mode: the stack so far and who decides what, as text
(``ansi`` returns it, ``human`` prints it), or that text drawn as an RGB frame (``rgb_array``).

Gymnasium's ``make`` warns about a render mode an environment does not list, its ``check_env`` makes
the environment in every mode it lists and renders it, and Stable-Baselines3's ``make_vec_env(id)``
asks every environment for ``rgb_array`` (for its video recorder): listing the mode and drawing the
text keeps all three quiet and gives a recorder a real picture. The drawing needs nothing past numpy:
the text is laid in a bitmap font of its own (solver/rl/_glyphs.py, DejaVu Sans Mono's printable
ASCII), so the mode works wherever the environment does (it needed matplotlib, and Gymnasium's own
``check_env`` failed on an environment made by ``gymnasium.make`` without it).
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray
from triggerstack.model._outcome import outcome_json
from triggerstack.model._text import found

from .._verbs.step import Decision, Stepper, Walk
from ._glyphs import GLYPHS
from ._glyphs import HEIGHT as GLYPH_HEIGHT
from ._glyphs import WIDTH as GLYPH_WIDTH

MODES = ("ansi", "human", "rgb_array")
FPS = 1
"""Frames a second a recording of the frames plays at (``metadata["render_fps"]``, which
Gymnasium's ``check_env`` asks of an environment that renders, and its video recorder reads): one
decision a second, each frame a board's text; PettingZoo's classic games declare 1 or 2."""
WIDTH = 100
"""Characters a line of a frame holds (a longer line, an outcome's JSON, wraps)."""


class RenderModeError(ValueError, TypeError):
    """A render mode the environment has not (it has ``ansi``, ``human`` and ``rgb_array``): a bad
    value, and a ``TypeError`` too, because that is
    what Stable-Baselines3's ``make_vec_env`` takes to mean "this environment renders no
    ``rgb_array``" — it asks for one first and tries again without it only on a ``TypeError``
    (docs/rl.md, "Gymnasium ids")."""


def check_mode(mode: str | None) -> None:
    """Refuse a render mode that cannot be rendered here (:class:`RenderModeError`)."""
    if mode is not None and mode not in MODES:
        raise RenderModeError(f"render_mode must be one of {list(MODES)}, not {found(mode)}")


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


SCALE = 2
"""Screen pixels a font pixel takes, each way: a cell is 12 x 24, a frame of 40 columns 504 wide."""


def _font() -> NDArray[np.bool_]:
    """The glyphs as ink, indexed by character code less 32; the last, a hollow box, stands for
    every character the font has not (past ASCII, control)."""
    rows = [[int(code[k : k + 2], 16) >> 2 for k in range(0, len(code), 2)] for code in GLYPHS]
    bits = np.array(rows, dtype=np.uint8)[..., None] >> np.arange(GLYPH_WIDTH - 1, -1, -1, dtype=np.uint8)
    box = np.zeros((GLYPH_HEIGHT, GLYPH_WIDTH), dtype=bool)
    box[2:10, 0] = box[2:10, 4] = box[2, :5] = box[9, :5] = True
    return np.concatenate([(bits & 1).astype(bool), box[None]])


FONT = _font()


def frame(text: str) -> NDArray[np.uint8]:
    """``text`` in a monospaced font, black on white, a line wrapped at :data:`WIDTH` characters and
    a margin of a cell round it: an array of shape ``(height, width, 3)``."""
    lines = [piece for line in text.splitlines() for piece in textwrap.wrap(line, WIDTH) or [""]]
    columns = max([40, *map(len, lines)])
    codes = np.full((len(lines) + 2, columns + 2), 0, dtype=np.intp)  # the margin: spaces
    unknown = len(FONT) - 1
    for row, line in enumerate(lines, start=1):
        codes[row, 1 : 1 + len(line)] = [o - 32 if 32 <= (o := ord(c)) < 127 else unknown for c in line]
    ink = FONT[codes].transpose(0, 2, 1, 3).reshape(codes.shape[0] * GLYPH_HEIGHT, codes.shape[1] * GLYPH_WIDTH)
    ink = ink.repeat(SCALE, axis=0).repeat(SCALE, axis=1)
    page = np.where(ink, np.uint8(0), np.uint8(255))
    return np.repeat(page[..., None], 3, axis=2)
