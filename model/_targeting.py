"""Targeting restrictions, one function per rule.

Each function answers whether its rule stops an ability (controlled by ``you``, from ``source``)
from targeting ``target``, and if so which: a :class:`Bar`, a fact. Why, in a sentence with its
rule, is the judge room's to say (``solver/_judge/_targets.py``, ``excluded``). ``source`` is
``None`` for an ability with no source object (the monarch's, a delayed ability whose creator is
gone): qualities of a source then match nothing. :class:`Bars` gathers, for one requirement, every
bar of every thing it cannot choose (its filter's among them), when they are asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from ._filters import ANYTHING, Context, matches
from ._shapes import Filter, Requirement
from ._things import Thing
from ._types import PlayerId


class Bar(Enum):
    """Which rule bars a thing from being chosen for a requirement: a fact of the scenario, one
    member per kind of reason (the judge room gives each its code, rule and sentence)."""

    FILTER = "filter"  # it does not fit the requirement's filter
    LINKED = "linked"  # it fits the filter for no legal choice of the targets the filter names
    SOURCE = "source"  # "another": it is the ability's source
    SELF = "self"  # it is the ability itself
    LEFT_GAME = "left-game"  # a player who has left the game
    SHROUD = "shroud"
    HEXPROOF = "hexproof"  # a permanent's hexproof, against an opponent's ability
    HEXPROOF_PLAYER = "hexproof-player"  # a player's hexproof, against an opponent's ability
    HEXPROOF_FROM = "hexproof-from"  # hexproof from a quality of the ability's source
    PROTECTION = "protection"  # protection from a quality of the ability's source
    PROTECTION_FROM_EVERYTHING = "protection-from-everything"
    CANT_BE_TARGETED = "cant-be-targeted"  # an effect: it can't be the target of such abilities


@dataclass(frozen=True, slots=True)
class Restriction:
    """What a restriction function needs to know about the targeting ability."""

    ability: str
    ability_thing: Thing | None
    you: PlayerId | None
    source: Thing | None
    is_opponent: Callable[[PlayerId, PlayerId], bool]

    def opposes(self, target: Thing) -> bool:
        who = target.protector
        return self.you is not None and who is not None and self.is_opponent(self.you, who)

    def source_has(self, target: Thing, qualities: tuple[Filter, ...]) -> bool:
        """Whether the source has one of the qualities (filters judged from the target's side).
        A quality of "everything" (``{}``) applies to an ability with no source too (702.16j)."""
        if self.source is None:
            return any(q.is_everything for q in qualities)
        ctx = Context(target.protector, self.is_opponent)
        return any(matches(q, self.source, ctx, within=ANYTHING) is True for q in qualities)


def is_self(r: Restriction, t: Thing) -> Bar | None:
    """115.5: an ability on the stack is not a legal target for itself."""
    return Bar.SELF if r.ability_thing is not None and t.id == r.ability_thing.id else None


def has_left_the_game(_r: Restriction, t: Thing) -> Bar | None:
    """800.4a: a player who has left the game is not a legal target, nor an object they own (it
    left the game with them)."""
    return Bar.LEFT_GAME if t.left_game else None


def has_shroud(_r: Restriction, t: Thing) -> Bar | None:
    """702.18a: shroud — can't be the target of spells or abilities (whoever controls them)."""
    return Bar.SHROUD if t.shroud and t.own_properties_function else None


def has_hexproof(r: Restriction, t: Thing) -> Bar | None:
    """702.11b (a permanent), 702.11c (a player): hexproof — not by abilities an opponent of its
    controller (of the player) controls."""
    if t.hexproof and t.own_properties_function and r.opposes(t):
        return Bar.HEXPROOF_PLAYER if t.is_player else Bar.HEXPROOF
    return None


def has_hexproof_from(r: Restriction, t: Thing) -> Bar | None:
    """702.11d: hexproof from a quality — as hexproof, only against sources with that quality."""
    if t.hexproof_from and t.own_properties_function and r.opposes(t) and r.source_has(t, t.hexproof_from):
        return Bar.HEXPROOF_FROM
    return None


def has_protection(r: Restriction, t: Thing) -> Bar | None:
    """702.16b: protection from a quality — not by abilities from a source with it, whoever controls
    them; protection from everything (702.16j) stops abilities with no source too."""
    if t.protection and t.own_properties_function and r.source_has(t, t.protection):
        return Bar.PROTECTION_FROM_EVERYTHING if any(q.is_everything for q in t.protection) else Bar.PROTECTION
    return None


def cant_be_targeted(r: Restriction, t: Thing) -> Bar | None:
    """601.2c: an effect says the thing can't be the target of such abilities."""
    for entry in t.cant_be_targeted_by:
        if entry.controller == "you" and r.you != t.protector:
            continue
        if entry.controller == "opponent" and not r.opposes(t):
            continue
        if r.source is None:
            applies = entry.source.is_everything
        else:
            ctx = Context(t.protector, r.is_opponent)
            applies = matches(entry.source, r.source, ctx, within=ANYTHING) is True
        if applies:
            return Bar.CANT_BE_TARGETED
    return None


RESTRICTIONS: tuple[Callable[[Restriction, Thing], Bar | None], ...] = (
    is_self,
    has_left_the_game,
    has_shroud,
    has_hexproof,
    has_hexproof_from,
    has_protection,
    cant_be_targeted,
)
"""Every targeting restriction, in the order their bars are listed."""
_BESIDES_ITSELF = tuple(f for f in RESTRICTIONS if f is not is_self)


def restriction_stops(r: Restriction, t: Thing) -> bool:
    """Whether a restriction other than 115.5's stops ``r`` from targeting ``t``: the first that
    does answers (:func:`restriction_bars` lists every one)."""
    return any(f(r, t) is not None for f in _BESIDES_ITSELF)


def restriction_bars(r: Restriction, t: Thing, *, itself: bool = True) -> tuple[Bar, ...]:
    """Every restriction that stops ``r`` from targeting ``t`` (``itself=False``: but 115.5's,
    the one that reads which ability ``r`` is)."""
    return tuple(b for f in (RESTRICTIONS if itself else _BESIDES_ITSELF) if (b := f(r, t)) is not None)


def ignored_properties(t: Thing) -> tuple[str, ...]:
    """Which of ``t``'s own targeting properties do not function where it is (113.6): none on the
    battlefield, or for a thing without them."""
    if t.own_properties_function:
        return ()
    return tuple(name for name in ("hexproof", "shroud", "protection", "hexproof_from") if getattr(t, name))


class Bars(Mapping[int, tuple[Bar, ...]]):
    """Every thing a requirement cannot choose, with every rule that bars it: told only when asked
    (``check``, ``explain``, an illegal decision's why), since what the candidates are is all a walk
    needs."""

    __slots__ = ("_args", "_found")

    def __init__(self, *args: Any) -> None:
        self._args: tuple[Any, ...] | None = args
        self._found: dict[int, tuple[Bar, ...]] = {}

    def _all(self) -> dict[int, tuple[Bar, ...]]:
        if self._args is not None:
            self._found = _bars(*self._args)
            self._args = None
        return self._found

    def __getitem__(self, key: int) -> tuple[Bar, ...]:
        return self._all()[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


_FILTER_ONLY = (Bar.FILTER,)


def _bars(
    req: Requirement,
    things: Sequence[Thing],
    source: Thing | None,
    restriction: Restriction,
    ctx: Context,
    kinds: frozenset[str],
) -> dict[int, tuple[Bar, ...]]:
    """What bars each thing that is no candidate of ``req`` (every rule, docs/formats.md)."""
    excluded: dict[int, tuple[Bar, ...]] = {}
    for i, thing in enumerate(things):
        fit = matches(req.filter, thing, ctx) if thing.kind in kinds else False
        why: list[Bar] = []
        if fit is False:
            why.append(Bar.FILTER)
            if not thing.has_restrictions and not _is_self_or_source(thing, restriction, req):
                excluded[i] = _FILTER_ONLY  # the common case: one reason is all there is
                continue
        if req.other_than_source and source is not None and thing.id == source.id:
            why.append(Bar.SOURCE)
        why.extend(restriction_bars(restriction, thing))
        if why:
            excluded[i] = tuple(why)
    return excluded


def _is_self_or_source(thing: Thing, restriction: Restriction, req: Requirement) -> bool:
    """Whether ``thing`` is the ability itself (115.5) or, for "another", its source (115.3):
    reasons a thing outside the filter has besides the filter (every reason is told, docs/formats.md, Violation
    codes)."""
    if restriction.ability_thing is not None and thing.id == restriction.ability_thing.id:
        return True
    return req.other_than_source and restriction.source is not None and thing.id == restriction.source.id
