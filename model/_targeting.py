"""Targeting restrictions, one function per rule.

Each function answers whether its rule stops an ability (controlled by ``you``, from ``source``)
from targeting ``target``, and if so why, in one line. ``source`` is ``None`` for an ability with
no source object (the monarch's, a delayed ability whose creator is gone): qualities of a source
then match nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._filters import ANYTHING, Context, matches
from ._rules import Code, Rule
from ._shapes import Filter
from ._things import Thing
from ._types import PlayerId

__all__ = ["RESTRICTIONS", "Exclusion", "Restriction", "restriction_exclusions", "restriction_stops"]


@dataclass(frozen=True, slots=True)
class Exclusion:
    """Why one thing cannot be chosen: the code, the rule, and a one-line reason."""

    code: Code
    rule: Rule
    reason: str


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


def _name(thing: Thing | None) -> str:
    return thing.id if thing is not None else "no source"


def is_self(r: Restriction, t: Thing) -> Exclusion | None:
    """115.5: an ability on the stack is not a legal target for itself."""
    if r.ability_thing is not None and t.id == r.ability_thing.id:
        return Exclusion(Code.TARGET_SELF, Rule.R115_5, f"{r.ability} can't target itself")
    return None


def has_left_the_game(_r: Restriction, t: Thing) -> Exclusion | None:
    """800.4a: a player who has left the game is not a legal target."""
    if t.left_game:
        return Exclusion(Code.TARGET_RESTRICTED, Rule.R800_4A, f"{t.id} has left the game")
    return None


def has_shroud(_r: Restriction, t: Thing) -> Exclusion | None:
    """702.18a: shroud — can't be the target of spells or abilities (whoever controls them)."""
    if t.shroud and t.own_properties_function:
        return Exclusion(Code.TARGET_SHROUD, Rule.R702_18A, f"{t.id} has shroud")
    return None


def has_hexproof(r: Restriction, t: Thing) -> Exclusion | None:
    """702.11b (a permanent), 702.11c (a player): hexproof — not by abilities an opponent of its
    controller (of the player) controls."""
    if t.hexproof and t.own_properties_function and r.opposes(t):
        return Exclusion(
            Code.TARGET_HEXPROOF,
            Rule.R702_11C if t.is_player else Rule.R702_11B,
            f"{t.id} has hexproof and {r.you} is an opponent of {t.protector}",
        )
    return None


def has_hexproof_from(r: Restriction, t: Thing) -> Exclusion | None:
    """702.11d: hexproof from a quality — as hexproof, only against sources with that quality."""
    if t.hexproof_from and t.own_properties_function and r.opposes(t) and r.source_has(t, t.hexproof_from):
        return Exclusion(
            Code.TARGET_HEXPROOF,
            Rule.R702_11D,
            f"{t.id} has hexproof from a quality of {_name(r.source)} and {r.you} is an opponent of {t.protector}",
        )
    return None


def has_protection(r: Restriction, t: Thing) -> Exclusion | None:
    """702.16b: protection from a quality — not by abilities from a source with it, whoever controls
    them; protection from everything (702.16j) stops abilities with no source too."""
    if t.protection and t.own_properties_function and r.source_has(t, t.protection):
        return Exclusion(
            Code.TARGET_PROTECTION,
            Rule.R702_16J if any(q.is_everything for q in t.protection) else Rule.R702_16B,
            f"{t.id} has protection from a quality of {_name(r.source)}",
        )
    return None


def cant_be_targeted(r: Restriction, t: Thing) -> Exclusion | None:
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
            return Exclusion(
                Code.TARGET_RESTRICTED,
                Rule.R601_2C,
                f"{t.id} can't be the target of abilities from {_name(r.source)} controlled by {r.you}",
            )
    return None


RESTRICTIONS: tuple[Callable[[Restriction, Thing], Exclusion | None], ...] = (
    is_self,
    has_left_the_game,
    has_shroud,
    has_hexproof,
    has_hexproof_from,
    has_protection,
    cant_be_targeted,
)
"""Every targeting restriction, in the order their reasons are listed."""
_BESIDES_ITSELF = tuple(f for f in RESTRICTIONS if f is not is_self)


def restriction_stops(r: Restriction, t: Thing) -> bool:
    """Whether a restriction other than 115.5's stops ``r`` from targeting ``t``: the first that
    does answers (:func:`restriction_exclusions` lists every one, with its reason)."""
    return any(f(r, t) is not None for f in _BESIDES_ITSELF)


def restriction_exclusions(r: Restriction, t: Thing, *, itself: bool = True) -> tuple[Exclusion, ...]:
    """Every restriction that stops ``r`` from targeting ``t`` (``itself=False``: but 115.5's,
    the one that reads which ability ``r`` is)."""
    return tuple(e for f in (RESTRICTIONS if itself else _BESIDES_ITSELF) if (e := f(r, t)) is not None)


def ignored_properties(t: Thing) -> str | None:
    """Why ``t``'s own targeting properties are ignored, if they are (113.6)."""
    if t.own_properties_function:
        return None
    own = [name for name in ("hexproof", "shroud", "protection", "hexproof_from") if getattr(t, name)]
    if not own:
        return None
    return f"{t.id}'s own {', '.join(own)} do not function in the {t.zone} (only on the battlefield)"
