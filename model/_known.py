"""What compiling a scenario asks of every thing once, shared by the requirements of all its
abilities (:func:`~._facts.compile_facts`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._filters import Context, is_relative, matcher, possible_kinds
from ._shapes import Filter
from ._targeting import Restriction, ignored_properties, restriction_stops
from ._things import Thing
from ._types import PlayerId, ThingId


@dataclass(frozen=True, slots=True)
class Known:
    """What compiling asks of every thing once: whether a restriction could apply to it, which of
    its own targeting properties do not function where it is (113.6), and per filter and point of view, which things
    fit (requirements of several abilities often share both; a filter that does not read whose
    point of view it is, as most do not, once for every player)."""

    things: tuple[Thing, ...]
    restricted: tuple[bool, ...]
    ignored: tuple[tuple[str, ...], ...]
    fitting: dict[tuple[Callable[[Thing, Context], bool | None], PlayerId | None], tuple[int, ...]]
    stopped: dict[tuple[int, PlayerId | None, ThingId | None], bool]

    @classmethod
    def of(cls, things: tuple[Thing, ...]) -> Known:
        return cls(things, tuple(t.has_restrictions for t in things), tuple(map(ignored_properties, things)), {}, {})

    def stops(self, i: int, restriction: Restriction) -> bool:
        """Whether a restriction other than 115.5 (the caller's own check) stops ``restriction``'s
        ability from targeting thing ``i``. Those read only who controls the ability and its
        source, so this is judged once per thing, controller and source, whatever the ability."""
        source = restriction.source
        key = (i, restriction.you, None if source is None else source.id)
        found = self.stopped.get(key)
        if found is None:
            found = self.stopped[key] = restriction_stops(restriction, self.things[i])
        return found

    def fit(self, f: Filter, ctx: Context) -> tuple[int, ...]:
        """The things ``f`` does not rule out (True, or unknown until other targets are chosen)."""
        fits = matcher(f)
        key = (fits, ctx.you if is_relative(fits) else None)  # most filters read the thing alone: one answer
        found = self.fitting.get(key)
        if found is None:
            kinds = possible_kinds(f)
            found = tuple([i for i, t in enumerate(self.things) if t.kind in kinds and fits(t, ctx) is not False])
            self.fitting[key] = found
        return found
