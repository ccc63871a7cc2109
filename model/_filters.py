"""The filter language of docs/formats.md (Scenario) and ``matches``.

Evaluation is three-valued: a filter that compares with ``{"target_of": REQ}`` cannot be decided
before REQ's targets are known, and then answers ``None`` ("unknown"). Candidate lists keep the
things for which a filter is not ``False``; a proposal is judged with the chosen targets known.
Every filter object matches within its *domain* (115.2), the kinds of thing it can match at all,
decided under combinators as docs/formats.md's "Domains" says (its table of examples is the
suite's); a *quality* (protection, hexproof from, a restriction's or a "must target" effect's
source filter) is matched against a source in any zone (702.16a), in the domain :data:`ANYTHING`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ._shapes import Comparison, Filter, TargetOf
from ._things import Thing
from ._types import PlayerId

Truth = bool | None
"""True, False, or None for "depends on targets not chosen yet"."""


@dataclass(frozen=True, slots=True)
class Context:
    """Whose point of view relative words take, and what is known of other requirements."""

    you: PlayerId | None
    is_opponent: Callable[[PlayerId, PlayerId], bool]
    chosen: Mapping[str, Sequence[Thing]] | None = None  # requirement id → chosen things
    seen: Mapping[tuple[str, str], frozenset[PlayerId]] | None = None
    """Instead of ``chosen``: per (requirement id, key), the players its chosen targets give
    (what ``target_of`` reads of them, and all it reads; a model of the choices uses it)."""

    def with_you(self, you: PlayerId | None) -> Context:
        return Context(you, self.is_opponent, self.chosen, self.seen)


def _and(values: Sequence[Truth]) -> Truth:
    if any(v is False for v in values):
        return False
    if any(v is None for v in values):
        return None
    return True


def _or(values: Sequence[Truth]) -> Truth:
    if any(v is True for v in values):
        return True
    if any(v is None for v in values):
        return None
    return False


def _not(value: Truth) -> Truth:
    return None if value is None else not value


def _compare(cmp: Comparison, value: int | None) -> bool:
    if value is None:
        return False
    return (
        (cmp.lte is None or value <= cmp.lte)
        and (cmp.gte is None or value >= cmp.gte)
        and (cmp.eq is None or value == cmp.eq)
    )


def who(thing: Thing, key: str) -> PlayerId | None:
    """The player ``key`` (controller or owner) names of ``thing``: a player is both its own
    controller and owner; a card's controller is its owner (108.4a)."""
    if thing.is_player:
        return PlayerId(thing.id)
    return thing.controller if key == "controller" else thing.owner


def _player_ref(ref: str | TargetOf, key: str, thing: Thing, ctx: Context) -> Truth:
    mine = who(thing, key)
    if isinstance(ref, TargetOf):
        if ctx.seen is not None:
            return mine is not None and mine in ctx.seen.get((ref.target_of, key), frozenset())
        if ctx.chosen is None:
            return None
        chosen = ctx.chosen.get(ref.target_of, ())
        return mine is not None and any(who(c, key) == mine for c in chosen)
    if ref == "any":
        return True
    if mine is None:
        return False
    if ref == "you":
        return mine == ctx.you
    if ref == "opponent":
        return ctx.you is not None and ctx.is_opponent(ctx.you, mine)
    return mine == ref


Domain = frozenset[str]

PERMANENTS: Domain = frozenset({"permanent"})
ANYTHING: Domain = frozenset({"permanent", "card", "spell", "ability", "emblem", "player"})
"""Every kind: the domain of a quality matched against a source in any zone (702.16a)."""


def domain(f: Filter, inherited: Domain | None = None) -> Domain | None:
    """The kinds ``f`` can match (see the module docstring); ``None``: each child decides."""
    if f.kind is not None:
        return frozenset(f.kind)
    if inherited is not None:
        return inherited
    if f.zone is not None:
        return ANYTHING  # the zone decides
    if f.only_combinators:
        return None
    return PERMANENTS


def possible_kinds(f: Filter, inherited: Domain | None = None) -> Domain:
    """Every kind ``f`` could match: a superset, used to skip things without evaluating ``f``."""
    own = domain(f, inherited)
    if own is not None:
        return own
    out: frozenset[str] = frozenset()
    for child in (*(f.any or ()), *(f.all or ())):
        out |= possible_kinds(child, None)
    return out


Check = Callable[[Thing, Context], Truth]
PLANS = 4096
"""Filters whose plan is kept (each with the filter, so that the id it is kept by stays its own)."""
_plans: dict[tuple[int, Domain | None], tuple[Filter, Check]] = {}
_by_value: dict[tuple[tuple[Any, ...], Domain | None], Check] = {}
_relative: dict[Check, bool] = {}
"""Per plan, whether it reads ``Context.you`` (:func:`reads_you`)."""
_RELATIVE_REFS = frozenset({"you", "opponent"})


def reads_you(f: Filter) -> bool:
    """Whether ``f`` reads whose point of view it is judged from (``Context.you``): a
    ``controller`` or ``owner`` of ``you`` or ``opponent`` anywhere in it. Every other condition
    reads the thing alone, or (``target_of``) the targets chosen."""
    if f.controller in _RELATIVE_REFS or f.owner in _RELATIVE_REFS:
        return True
    nested = (*((f.not_,) if f.not_ is not None else ()), *(f.any or ()), *(f.all or ()))
    return any(reads_you(x) for x in nested)


def is_relative(check: Check) -> bool:
    """Whether a plan (:func:`matcher`) reads ``Context.you``: if not, it judges a thing the same
    from every player's point of view (one judged unknown: True)."""
    return _relative.get(check, True)


def _value(f: Filter) -> tuple[Any, ...]:
    """``f`` as plain values, a nested filter as its own: a key that hashes and compares several
    times faster than the pydantic model does (1.2–3.6 µs an ``==`` in pydantic 2.14)."""
    fields = f.__dict__
    if fields["not_"] is None and fields["any"] is None and fields["all"] is None:
        return tuple(fields.values())  # no nested filter (most are): 0.4 µs, not 7.5
    return tuple(
        _value(v)
        if isinstance(v, Filter)
        else tuple(_value(x) for x in v)
        if type(v) is tuple and v and isinstance(v[0], Filter)
        else v
        for v in f.__dict__.values()
    )


def _plan(f: Filter, inherited: Domain | None) -> Check:
    """``f`` as one function of a thing and a context, its conditions read once (a filter is
    frozen): the conjunction of the conditions it names, False as soon as one is False, None
    ("unknown") if one is unknown and none is False."""
    key = (id(f), inherited)
    kept = _plans.get(key)
    if kept is not None and kept[0] is f:
        return kept[1]
    value = (_value(f), inherited)
    same = _by_value.get(value)  # an equal filter of another scenario (a board drawn anew)
    if same is not None:
        if len(_plans) >= PLANS:
            _plans.clear()
        _plans[key] = (f, same)
        return same
    own = domain(f, inherited)
    checks = _checks(f, own)

    def check(thing: Thing, ctx: Context) -> Truth:
        if own is not None and thing.kind not in own:
            return False
        out: Truth = True
        for c in checks:
            v = c(thing, ctx)
            if v is False:
                return False
            if v is None:
                out = None
        return out

    if len(_plans) >= PLANS:
        _plans.clear()
        _by_value.clear()
        _relative.clear()
    _plans[key] = (f, check)
    _by_value[value] = check
    _relative[check] = reads_you(f)
    return check


def _checks(f: Filter, own: Domain | None) -> list[Check]:
    """One function per condition ``f`` names, in the order of its keys."""
    out: list[Check] = []
    if (types := f.type) is not None:
        out.append(lambda t, _c: bool(t.types.intersection(types)))
    if (subtypes := f.subtype) is not None:
        out.append(lambda t, _c: bool(t.subtypes.intersection(subtypes)))
    if (supertypes := f.supertype) is not None:
        out.append(lambda t, _c: bool(t.supertypes.intersection(supertypes)))
    if (colors := f.color) is not None:
        out.append(lambda t, _c: bool(t.colors.intersection(colors)))
    if (colorless := f.colorless) is not None:
        out.append(lambda t, _c: (not t.colors) == colorless and not t.is_player)
    if (zones := f.zone) is not None:
        out.append(lambda t, _c: t.zone in zones)
    if (tags := f.tag) is not None:
        out.append(lambda t, _c: t.tags.issuperset(tags))
    if (ids := f.id) is not None:
        out.append(lambda t, _c: t.id in ids)
    if (controller := f.controller) is not None:
        out.append(lambda t, c: _player_ref(controller, "controller", t, c))
    if (owner := f.owner) is not None:
        out.append(lambda t, c: _player_ref(owner, "owner", t, c))
    if (power := f.power) is not None:
        out.append(lambda t, _c: _compare(power, t.power))
    if (toughness := f.toughness) is not None:
        out.append(lambda t, _c: _compare(toughness, t.toughness))
    if (mana_value := f.mana_value) is not None:
        out.append(lambda t, _c: _compare(mana_value, t.mana_value))
    if (counter := f.counter) is not None:
        out.append(lambda t, _c: t.counters.get(counter, 0) > 0)
    if (ability_kind := f.ability_kind) is not None:
        out.append(lambda t, _c: t.ability_kind == ability_kind)
    if f.not_ is not None:
        inner = _plan(f.not_, own)
        out.append(lambda t, c: _not(inner(t, c)))
    if f.any is not None:
        some = [_plan(x, own) for x in f.any]
        out.append(lambda t, c: _or([x(t, c) for x in some]))
    if f.all is not None:
        every = [_plan(x, own) for x in f.all]
        out.append(lambda t, c: _and([x(t, c) for x in every]))
    return out


def matcher(f: Filter, *, within: Domain | None = None) -> Callable[[Thing, Context], Truth]:
    """:func:`matches` of ``f`` as one function of a thing and a context (to judge many things)."""
    return _plan(f, within)


def matches(f: Filter, thing: Thing, ctx: Context, *, within: Domain | None = None) -> Truth:
    """Whether ``thing`` fits ``f`` from the point of view of ``ctx.you``.

    ``within`` is the domain ``f`` inherits: none for a target requirement's filter (115.2's
    default applies), :data:`ANYTHING` for a quality matched against a source in any zone.
    """
    return _plan(f, within)(thing, ctx)
