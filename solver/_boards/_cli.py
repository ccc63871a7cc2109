"""``triggerstack boards``: random boards, one scenario document per line (JSON Lines) on standard
output, or one file each in ``--out DIR`` (docs/cli.md). Its parser is built on every start of the
command line, so this module imports nothing heavy: the boards are drawn by ``_draw`` when the
command runs. A flag out of range is an argparse error naming it (exit 2)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from triggerstack.model._args import flag, how_many, whole_from_text, whole_number
from triggerstack.model._errors import ScenarioError
from triggerstack.model._text import typed

EVENTS = ("enters", "dies", "attacks", "cast")
"""The events (``model/cards/_pool.py`` ``EVENTS``: tests/test_boards.py holds them equal)."""
MAX_OUTCOMES = 10**6
"""``_draw.MAX_OUTCOMES``, held equal likewise."""
MOST_ABILITIES, MOST_BODIES = 50, 20
"""``_draw.MOST_ABILITIES`` and ``_draw.MOST_BODIES``, held equal likewise."""


FLAGGED = ("players", "abilities", "events", "bodies", "max_outcomes", "seat")
"""The keywords of ``rl.boards`` (``_draw.draw``) the command passes as its flags name them
(``--max-outcomes`` is ``max_outcomes``); ``cards`` is ``--generated``'s. tests/test_boards.py holds
every keyword of ``draw`` to one of them or to :data:`PYTHON_ONLY`, so a keyword added to the
Python surface is a flag here too, or says why not."""
PYTHON_ONLY = {
    "layout": "an ActionLayout is a Python object: the boards an environment of that layout takes",
    "workers": "worker processes draw ahead of an environment playing them; the command writes as it draws",
}
"""The keywords of ``draw`` with no flag, and why."""


_whole = flag(lambda value: whole_number(value, "", 0), whole=True)
"""``--seed``: a whole number 0 or more, read as every door reads one (model/_args.py)."""
_whole_1 = flag(lambda value: whole_number(value, "", 1), whole=True)
_how_many = flag(lambda value: how_many(value, ""), whole=True)
"""``-n``: how many boards, 1 or more, as every count asked for is read (model/_args.py ``how_many``)."""


def _span(least: int, most: int | None = None) -> Callable[[str], tuple[int, int]]:
    """A flag's value ``N`` or ``LO-HI``, within ``least`` … ``most``."""

    def parse(text: str) -> tuple[int, int]:
        lo, sep, hi = text.partition("-")
        try:
            pair = (whole_number(whole_from_text(lo), ""), whole_number(whole_from_text(hi if sep else lo), ""))
        except ScenarioError:
            raise argparse.ArgumentTypeError(f"expected N or LO-HI, not {typed(text)}") from None
        if pair[0] > pair[1]:
            raise argparse.ArgumentTypeError(f"LO is above HI in {typed(text)}")
        if pair[0] < least or (most is not None and pair[1] > most):
            top = f" to {most}" if most is not None else " or more"
            raise argparse.ArgumentTypeError(f"expected {least}{top}, not {typed(text)}")
        return pair

    return parse


def _events(text: str) -> tuple[str, ...]:
    asked = tuple(e.strip() for e in text.split(",") if e.strip())
    unknown = [e for e in asked if e not in EVENTS]
    if unknown or not asked:
        raise argparse.ArgumentTypeError(f"expected some of {','.join(EVENTS)}, not {typed(text)}")
    return asked


def parser(sub: Any, _limits: argparse.ArgumentParser) -> None:
    """The ``boards`` subcommand's parser."""
    b = sub.add_parser(
        "boards",
        help="random boards of real cards, each a valid scenario: one JSON per line (docs/rl.md)",
        description="Draw random boards: each player's permanents (real cards whose triggered abilities the reader "
        "reads whole, with their hexproof, shroud, protection and ward), one event that makes them trigger (a "
        "creature enters, a board wipe, an attack, a spell cast), and the abilities it makes wait. Each is a valid "
        "scenario naming its cards, with at most --max-outcomes legal outcomes; the same --seed gives the same "
        "boards. Written one JSON per line on standard output, or one file each in --out. Without the extra "
        "[cards] (or with --generated), the generated families.",
    )
    b.add_argument("--seed", type=_whole, default=0, metavar="S", help="the seed (default 0)")
    b.add_argument("-n", type=_how_many, default=10, metavar="N", help="how many boards (default 10)")
    b.add_argument("--players", type=_span(2, 4), default=(2, 2), metavar="P|LO-HI", help="players, 2 to 4 (default 2)")
    b.add_argument(
        "--abilities",
        type=_span(1, MOST_ABILITIES),
        default=(2, 8),
        metavar="N|LO-HI",
        help=f"waiting abilities, 1 to {MOST_ABILITIES} (default 2-8)",
    )
    b.add_argument(
        "--bodies",
        type=_span(0, MOST_BODIES),
        default=(0, 3),
        metavar="N|LO-HI",
        help=f"creatures without triggered abilities on each side, to be targets, 0 to {MOST_BODIES} (default 0-3)",
    )
    b.add_argument(
        "--events",
        type=_events,
        default=EVENTS,
        metavar="E[,E…]",
        help=f"the events drawn (default {','.join(EVENTS)})",
    )
    b.add_argument(
        "--max-outcomes",
        type=_whole_1,
        default=MAX_OUTCOMES,
        metavar="N",
        help=f"draw again a board with more legal outcomes than this (default {MAX_OUTCOMES:,})",
    )
    b.add_argument(
        "--seat",
        type=_whole,
        default=None,
        metavar="K",
        help="only boards on which seat K (0: the active player) makes the first choice once every forced "
        "decision is taken: the boards a one-seat environment's learner decides on (below --players' highest)",
    )
    b.add_argument("--generated", action="store_true", help="the generated families, not real cards")
    b.add_argument(
        "--out", metavar="DIR", help="write board-00001.json … in DIR (made if missing), not standard output"
    )


def run(args: argparse.Namespace, write: Callable[..., None]) -> tuple[int, str] | None:
    """Draw the boards and write them with ``write`` (the command line's, which escapes and says
    when standard output fails): one line each, or one file each in ``--out`` (their paths
    printed)."""
    import sys

    from triggerstack.model._errors import UsageError
    from triggerstack.model._parts import write_text

    from .._errors import OutputFailed
    from ._draw import draw

    folder = Path(args.out) if args.out is not None else None
    if folder is not None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UsageError(f"--out: cannot make the folder {folder}: {exc.strerror}") from None
    if args.seat is not None and args.seat >= args.players[1]:
        raise UsageError(f"--seat: expected at most {args.players[1] - 1} (a seat of --players), found {args.seat}")
    asked = {name: getattr(args, name) for name in FLAGGED}
    boards = draw(args.seed, args.n, cards=False if args.generated else None, **asked)
    written = []
    for i, board in enumerate(boards, 1):
        if i == 1 and board.source == "generated" and not args.generated:
            sys.stderr.write("triggerstack: the extra [cards] is not installed: drawing the generated families\n")
        if folder is None:
            write(json.dumps(board.document, ensure_ascii=False, separators=(",", ":")) + "\n", flush=i % 64 == 0)
            continue
        path = folder / f"board-{i:05d}.json"
        try:
            write_text(path, json.dumps(board.document, ensure_ascii=False, indent=1) + "\n")
        except OSError as exc:
            raise OutputFailed(exc.errno, f"cannot write {path}: {exc.strerror}") from None
        written.append(str(path))
    if folder is None:
        write("", flush=True)
        return None
    return 0, "\n".join(written)
