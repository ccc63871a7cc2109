"""Where an environment's episodes come from: a scenario source (a scenario, a file, a folder, a
list, an iterator such as ``rl.boards``, or a function of the environment's generator), read once
into compiled facts or drawn from episode by episode (see :mod:`~triggerstack.solver.rl`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeAlias

import numpy as np
from triggerstack.model._errors import ScenarioError
from triggerstack.model._facts import Facts, compile_facts, facts_of
from triggerstack.model._scenario import Scenario

from .._boards._draw import Boards

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


def _files(folder: Path) -> list[Path]:
    named = sorted(p for p in folder.rglob("scenario.*") if p.suffix in _SUFFIXES)
    if named:
        return named
    return sorted(p for p in folder.iterdir() if p.suffix in _SUFFIXES and ".proposal." not in p.name)


def _load(item: Scenario | Facts | str | os.PathLike[str]) -> Facts:
    if isinstance(item, Scenario | Facts):
        return facts_of(item)
    return facts_of(Scenario.load(os.fspath(item)))


def _compiled(item: Scenario | Facts) -> Facts:
    """The facts of a generated scenario, not kept on it (a scenario keeping its own facts is a
    cycle: a board drawn for one episode would wait for the garbage collector)."""
    if isinstance(item, Facts):
        return item
    kept = item._facts
    return kept if isinstance(kept, Facts) else compile_facts(item)


class _Source:
    """Where an episode's scenario comes from."""

    def __init__(self, source: ScenarioSource) -> None:
        self.fixed: list[Facts] | None = None
        self.draw: Callable[[np.random.Generator], Scenario | Facts] | None = None
        self.iterator: Iterator[Scenario | Facts] | None = None
        if isinstance(source, Scenario | Facts):
            self.fixed = [facts_of(source)]
        elif isinstance(source, str | os.PathLike):
            path = Path(source)
            self.fixed = [_load(p) for p in _files(path)] if path.is_dir() else [_load(path)]
            if not self.fixed:
                raise ScenarioError(f"{path}: no scenario files in this folder")
        elif isinstance(source, Sequence):
            self.fixed = []
            for item in source:
                folder = Path(item) if isinstance(item, str | os.PathLike) else None
                if folder is not None and folder.is_dir():
                    self.fixed.extend(_load(p) for p in _files(folder))
                else:
                    self.fixed.append(_load(item))
            if not self.fixed:
                raise ScenarioError("the list of scenarios is empty")
        elif callable(source):
            self.draw = source
        elif isinstance(source, Iterator):
            self.iterator = source
        else:
            raise TypeError(f"not a scenario source: {type(source).__name__}")

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
            item = next(self.iterator)
        except StopIteration:
            raise ScenarioError(
                "the scenario source is exhausted: the iterator gave no more scenarios (for a board every "
                "episode, give an endless one, as rl.boards(seed) without n, or a list, which is drawn from again)"
            ) from None
        drawn = self.iterator.compiled(item) if isinstance(self.iterator, Boards) else None  # as it was drawn
        return drawn if drawn is not None else _compiled(item)

    def restart(self, seed: int) -> None:
        """A seed given to ``reset``: a board stream (``rl.boards``) begins again at its boards of that seed."""
        if isinstance(self.iterator, Boards):
            self.iterator.restart(seed)
