"""Where an environment's episodes come from: a scenario source (a scenario, a file, a folder, a
list, an iterator such as ``rl.boards``, or a function of the environment's generator), read once
into compiled facts or drawn from episode by episode (see :mod:`~triggerstack.solver.rl`)."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np
from triggerstack.model._errors import LayoutOverflow, ScenarioError, UsageError
from triggerstack.model._facts import Facts, compile_facts, facts_of
from triggerstack.model._io import files_under
from triggerstack.model._scenario import Scenario
from triggerstack.model._text import found

from .._boards._draw import Boards
from .._verbs.step import ActionLayout

ScenarioLike: TypeAlias = Scenario | Facts | str | os.PathLike[str]
ScenarioSource: TypeAlias = (
    ScenarioLike
    | Sequence[ScenarioLike]
    | Iterator[Scenario | Facts]
    | Callable[[np.random.Generator], Scenario | Facts]
)
"""A scenario; a file; a folder (every ``scenario.json|yaml|yml`` under it, or if it has none,
every ``.json|.yaml|.yml`` file directly in it that is not a ``*.proposal.*``); a list of any of
these (drawn uniformly with the environment's generator); an iterator (the next one per episode);
or a function of the environment's ``numpy`` generator."""

DRAWS = 100
"""How many scenarios :meth:`~._env.TriggerStackEnv.reset` draws before it gives up finding one with a decision."""
_SUFFIXES = (".json", ".yaml", ".yml")
_M64 = (1 << 64) - 1


def _mixed(seed: int) -> int:
    """SplitMix64's output for ``seed``: a seeded reset's draw among fixed boards, without the
    generator (building NumPy's from a seed, 9 µs, costs what a third of a step does)."""
    z = (seed + 0x9E3779B97F4A7C15) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def _load_path(item: str | os.PathLike[str], name: str) -> str:
    """A path's text, never empty (``Path("")`` would be the working folder: a guess)."""
    text = os.fspath(item)
    if not isinstance(text, str) or not text:
        raise _not_a_source(item, name)
    return text


def _files(folder: Path) -> list[Path]:
    named = [p for p, _ in files_under(folder) if fnmatch.fnmatchcase(p.name, "scenario.*") and p.suffix in _SUFFIXES]
    if named:
        return named
    return sorted(p for p in folder.iterdir() if p.suffix in _SUFFIXES and ".proposal." not in p.name)


def _load(item: Any, name: str) -> Facts:
    if isinstance(item, Scenario | Facts):
        return facts_of(item)
    if not isinstance(item, str | os.PathLike):
        raise _not_a_source(item, name)
    return facts_of(Scenario.load(_load_path(item, name)))


def _not_a_source(value: Any, name: str) -> UsageError:
    """A value that is no scenario source, refused naming the argument (model/_args.py's words)."""
    what = "bytes" if isinstance(value, bytes | bytearray) else found(value)
    return UsageError(
        f"{name}: expected a scenario source (a Scenario, compiled facts, a file or folder's path, a list of "
        f"them, an iterator of scenarios or a function of a generator), found {what}"
    )


def _compiled(item: Scenario | Facts) -> Facts:
    """The facts of a generated scenario, not kept on it (a scenario keeping its own facts is a
    cycle: a board drawn for one episode would wait for the garbage collector)."""
    if isinstance(item, Facts):
        return item
    kept = item._facts
    return kept if isinstance(kept, Facts) else compile_facts(item)


class _Source:
    """Where an episode's scenario comes from."""

    def __init__(self, source: ScenarioSource, name: str = "scenario") -> None:
        """``source`` read whole, or refused naming ``name`` (the argument that gave it)."""
        self.fixed: list[Facts] | None = None
        self.draw: Callable[[np.random.Generator], Scenario | Facts] | None = None
        self.iterator: Iterator[Scenario | Facts] | None = None
        if isinstance(source, Scenario | Facts):
            self.fixed = [facts_of(source)]
        elif isinstance(source, str | os.PathLike):
            path = Path(_load_path(source, name))
            self.fixed = [_load(p, name) for p in _files(path)] if path.is_dir() else [_load(path, name)]
            if not self.fixed:
                raise UsageError(f"{name}: {path}: no scenario files in this folder")
        elif isinstance(source, Sequence) and not isinstance(source, bytes | bytearray):  # in its order: never a set
            self.fixed = []
            for i, item in enumerate(source):
                place = f"{name}[{i}]"
                folder = Path(_load_path(item, place)) if isinstance(item, str | os.PathLike) else None
                if folder is not None and folder.is_dir():
                    self.fixed.extend(_load(p, place) for p in _files(folder))
                else:
                    self.fixed.append(_load(item, place))
            if not self.fixed:
                raise UsageError(f"{name}: the list of scenarios is empty")
        elif callable(source) and not isinstance(source, type):
            self.draw = source
        elif isinstance(source, Iterator):
            self.iterator = source
        else:
            raise _not_a_source(source, name)

    def players(self) -> tuple[str, ...] | None:
        """The ids of every player a board of the source may seat, in order of first seat: a fixed
        source's boards', a board stream's (``rl.boards``); None where the boards are not known
        before they are drawn (a function, another iterator)."""
        if self.fixed is not None:
            return tuple(dict.fromkeys(p.id for f in self.fixed for p in f.scenario.players))
        if isinstance(self.iterator, Boards):
            return self.iterator.players()
        return None

    def seats(self) -> tuple[int, int] | None:
        """The fewest and the most players a board of the source seats: a fixed source's boards', a
        board stream's ``players`` (``rl.boards``); None where the boards are not known before they
        are drawn."""
        if self.fixed is not None:
            counts = [len(f.scenario.players) for f in self.fixed]
            return min(counts), max(counts)
        if isinstance(self.iterator, Boards):
            return self.iterator.asked.seats
        return None

    def layout(self, given: ActionLayout | None, name: str = "layout") -> ActionLayout | None:
        """The layout an environment of this source plays in, read where every environment is made
        (and for ``reset``'s ``options``): ``given``, or a board stream's own
        (``rl.boards(..., layout=L)``) when none is given — the stream drew only boards that fit it.
        A layout given that is not the stream's is refused naming ``name``: the stream's boards fit
        the stream's layout, not the environment's (given twice, the two would be read apart)."""
        drawn_in = self.iterator.asked.layout if isinstance(self.iterator, Boards) else None
        if drawn_in is None or given is None or given == drawn_in:
            return given or drawn_in
        raise UsageError(
            f"{name}: the environment's layout, {_said(given)}, is not the one the stream of boards is drawn in, "
            f"{_said(drawn_in)}; give the environment no layout (it takes the stream's) or the stream's, or draw the "
            "stream in the environment's, rl.boards(..., layout=layout)"
        )

    def overflow(self, exc: LayoutOverflow) -> LayoutOverflow:
        """``exc``, raised by a board this source drew that does not fit the environment's layout,
        saying how to draw only boards that fit when the source is a board stream drawn without one."""
        if isinstance(self.iterator, Boards) and self.iterator.asked.layout is None:
            return LayoutOverflow(
                f"{exc}: the stream of boards is drawn without a layout; draw it in the environment's, "
                "rl.boards(..., layout=layout), and it draws only boards that fit (the environment then takes "
                "the stream's layout: layout= is not needed again)"
            )
        return exc

    def next(self, rng: Callable[[], np.random.Generator], seed: int | None = None) -> Facts:
        """The next scenario (``rng``: the environment's generator, asked for only to draw;
        ``seed``: a seed just given, which draws among fixed boards by itself)."""
        if self.fixed is not None:
            n = len(self.fixed)
            if n == 1:
                return self.fixed[0]
            return self.fixed[_mixed(seed) % n if seed is not None else int(rng().integers(n))]
        if self.draw is not None:
            return _compiled(self.draw(rng()))
        assert self.iterator is not None
        try:
            if isinstance(self.iterator, Boards):  # its facts as drawn, the scenario not read back
                return self.iterator.next_facts()
            item = next(self.iterator)
        except StopIteration:
            raise ScenarioError(
                "the scenario source is exhausted: the iterator gave no more scenarios (for a board every "
                "episode, give an endless one, as rl.boards(seed) without n, or a list, which is drawn from again)"
            ) from None
        return _compiled(item)

    def restart(self, seed: int) -> None:
        """A seed given to ``reset``: a board stream (``rl.boards``) begins again at its boards of that seed."""
        if isinstance(self.iterator, Boards):
            self.iterator.restart(seed)


def players_said(least: int, most: int) -> str:
    """How many players boards have, in words: ``2 players``, ``2 to 4 players``."""
    return f"{most} players" if least == most else f"{least} to {most} players"


def _said(layout: ActionLayout) -> str:
    """A layout as a sentence shows it, ``ActionLayout(abilities=8, things=12, …)``: its capacities
    (whole numbers), as a caller writes it."""
    sizes = ", ".join(f"{f.name}={int(getattr(layout, f.name))}" for f in fields(layout))
    return f"ActionLayout({sizes})"
