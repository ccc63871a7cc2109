"""The compiled-scenario cache of the surfaces that are sent scenarios as documents: the server
(scenarios sent inline, and each ``load``) and ``check --batch`` (each line's scenario).

:meth:`Compiled.from_document` is the one way in: a document is parsed, compiled, measured and held
to the size caps once, within the deadline of the request that sent it, and kept by its text,
least recently used first out, within a bound on the bytes the kept scenarios take. The caps are
measured by :func:`~.._options.within_limits`, which remembers it: a verb later asked of the same
facts does not measure them again.
"""

from __future__ import annotations

import json
import tracemalloc
from collections import OrderedDict
from typing import Any

from triggerstack.model._errors import ScenarioError
from triggerstack.model._facts import Facts, facts_of
from triggerstack.model._limits import Deadline, raised_by
from triggerstack.model._numbers import counted
from triggerstack.model._scenario import parse_scenario

from .._options import Options, within_limits

CACHE_ENTRIES = 64
"""Scenarios a cache keeps at most."""
CACHE_BYTES = 32 * 1024 * 1024
"""``check --batch``'s cache keeps at most this many bytes of scenario text (and 64 scenarios)."""


class _Measured(Deadline):
    """What a measured compile checks as it goes: the deadline it runs within (no clock of its
    own), and the bytes compiling has taken — more than ``cap`` stops it."""

    __slots__ = ("cap", "within")

    def __init__(self, within: Deadline, cap: int) -> None:
        super().__init__(None)
        self.outer = None
        self.within = within
        self.cap = cap

    def remaining(self) -> float | None:
        return self.within.remaining()

    def check(self, what: str) -> None:
        self.within.check(what)
        used = tracemalloc.get_traced_memory()[0]
        if used > self.cap:
            raise ScenarioError(
                f"the compiled scenario takes more than {counted(self.cap, 'bytes')} while {what}{raised_by('memory')}"
            )


def _measured(doc: Any, options: Options, deadline: Deadline) -> tuple[Facts, int]:
    """``doc`` compiled, and the bytes the compiled scenario takes (what stays allocated of what
    compiling allocated, measured by tracemalloc); over ``options.limits.memory`` it is refused
    while it compiles."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        watch = _Measured(deadline, before + options.limits.memory)
        facts = facts_of(parse_scenario(doc, limits=options.limits), options.limits, watch)
        return facts, max(tracemalloc.get_traced_memory()[0] - before, 0)
    finally:
        if started:
            tracemalloc.stop()


class Compiled:
    """Compiled scenarios kept by their text, least recently used first out: at most ``entries`` of
    them and ``room`` bytes (with ``measure``, the bytes each takes compiled, by tracemalloc, and a
    scenario over the room is refused as it compiles; without, the bytes of its text)."""

    def __init__(self, entries: int = CACHE_ENTRIES, measure: bool = False) -> None:
        self.entries = entries
        self.measure = measure
        self._kept: OrderedDict[str, tuple[Facts, int]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._kept)

    def bytes(self) -> int:
        return sum(cost for _, cost in self._kept.values())

    def make_room(self, cost: int, room: int) -> bool:
        """Drop the oldest until ``cost`` more bytes fit in ``room``; whether they do."""
        while self._kept and self.bytes() + cost > room:
            self._kept.popitem(last=False)
        return self.bytes() + cost <= room

    def from_document(
        self, doc: Any, options: Options, deadline: Deadline, room: int | None = None, keep: bool = True
    ) -> tuple[Facts, int]:
        """``doc`` parsed, compiled within ``deadline`` and ``options``' caps (measured once, here),
        and what it costs; kept if ``keep`` and it fits in ``room`` (by default ``limits.memory``)."""
        key = json.dumps(doc, sort_keys=True, separators=(",", ":"), default=str)
        hit = self._kept.get(key)
        if hit is not None:
            self._kept.move_to_end(key)
            return hit
        limits = options.limits
        if self.measure:
            facts, cost = _measured(doc, options, deadline)
        else:
            facts, cost = facts_of(parse_scenario(doc, limits=limits), limits, deadline), len(key)
        within_limits(facts, limits)
        room = limits.memory if room is None else room
        if keep and len(self._kept) < self.entries and self.make_room(cost, room):
            self._kept[key] = (facts, cost)
        return facts, cost
