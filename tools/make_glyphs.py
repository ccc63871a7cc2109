"""Write solver/rl/_glyphs.py: printable ASCII in DejaVu Sans Mono at 10 px, one bit a pixel, in 6 x 12
cells — the font an ``rgb_array`` frame is drawn in, so that drawing needs no matplotlib.

Run by hand where matplotlib is installed (``python tools/make_glyphs.py``); the table it writes is
checked in. DejaVu's fonts are Bitstream Vera's, whose licence lets them be embedded (the glyphs here
are a bitmap drawn from it). Each glyph is 12 rows, each row 6 pixels read left to right as the bits
of one byte from its high bit, written as two hex digits.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.transforms import IdentityTransform

WIDTH, HEIGHT, BELOW = 6, 12, 3  # a cell's pixels, and its rows below the baseline
OUT = Path(__file__).resolve().parent.parent / "solver" / "rl" / "_glyphs.py"


def main() -> None:
    chars = [chr(c) for c in range(32, 127)]
    figure = Figure(figsize=(WIDTH * len(chars) / 72, HEIGHT / 72), dpi=72, facecolor="white")
    canvas = FigureCanvasAgg(figure)
    for i, ch in enumerate(chars):
        figure.text(
            i * WIDTH, BELOW, ch, family="DejaVu Sans Mono", fontsize=10, ha="left", va="baseline",
            transform=IdentityTransform(), antialiased=False,
        )  # fmt: skip
    canvas.draw()
    ink = np.asarray(canvas.buffer_rgba())[..., 0] < 128
    rows = []
    for i, ch in enumerate(chars):
        cell = ink[:, i * WIDTH : (i + 1) * WIDTH]
        code = "".join(f"{int(''.join('1' if b else '0' for b in row), 2) << 2:02x}" for row in cell)
        rows.append(f"    {code!r},  # {ch!r}")
    OUT.write_text(
        '"""Printable ASCII (32 to 126) as 6 x 12 bitmaps, written by tools/make_glyphs.py (which says how\n'
        'they are read): the font of an ``rgb_array`` frame."""\n\n'
        f"WIDTH, HEIGHT = {WIDTH}, {HEIGHT}\n"
        "GLYPHS = (\n" + "\n".join(rows) + "\n)\n",
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
