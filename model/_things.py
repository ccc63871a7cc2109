"""One flat view of everything that can be chosen as a target: players, objects and waiting
abilities, in the scenario's canonical order (players in turn order, then objects, then waiting
abilities). Filters and targeting restrictions read only this view."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from ._shapes import Filter, Object, Player, ScenarioFields, SourceRestriction
from ._types import PlayerId, ThingId

_NO_COUNTERS: Mapping[str, int] = MappingProxyType({})
_EMPTY: frozenset[Any] = frozenset()


class Thing(NamedTuple):
    """A player, an object, or a waiting ability, as filters see it.

    A named tuple, not a frozen dataclass: compiling builds one per player, object and waiting
    ability of every board, and a frozen dataclass of these 21 fields took 2.4 µs to build against
    0.6 µs (a board of 60 creatures drawn anew every episode spent a tenth of its episode here).
    Frozen either way; never hashed (``counters`` is a mapping)."""

    id: ThingId
    kind: str  # player, permanent, card, spell, ability, emblem
    zone: str | None
    controller: PlayerId | None  # a card's owner where it has no controller (108.4a)
    owner: PlayerId | None
    types: frozenset[str] = frozenset()
    subtypes: frozenset[str] = frozenset()
    supertypes: frozenset[str] = frozenset()
    colors: frozenset[str] = frozenset()
    power: int | None = None
    toughness: int | None = None
    mana_value: int | None = None
    counters: Mapping[str, int] = _NO_COUNTERS
    tags: frozenset[str] = frozenset()
    ability_kind: str | None = None
    hexproof: bool = False
    shroud: bool = False
    protection: tuple[Filter, ...] = ()
    hexproof_from: tuple[Filter, ...] = ()
    cant_be_targeted_by: tuple[SourceRestriction, ...] = ()
    left_game: bool = False  # a player who has left the game, or an object its owner took with them (800.4a)

    def __reduce__(self) -> tuple[type[Thing], tuple[Any, ...]]:
        """What it pickles as: its fields, ``counters`` as the dict it shows (a read-only mapping
        does not pickle; compiled facts do: ``model/_facts.py``)."""
        return Thing, tuple(_EMPTY if x == _EMPTY else x for x in self._replace(counters=dict(self.counters)))

    @property
    def is_player(self) -> bool:
        return self.kind == "player"

    @property
    def own_properties_function(self) -> bool:
        """Whether its own hexproof, shroud, protection and hexproof from function: only on a
        player or a permanent — not on a card outside the battlefield, nor on a spell on the stack
        (113.6: a permanent card's abilities function only on the battlefield; the keywords protect
        a permanent or a player, 702.11b–d, 702.16b, 702.18a), nor on an ability or an emblem.
        ``cant_be_targeted_by`` may be another object's effect, and applies wherever the thing is."""
        return self.kind in ("player", "permanent")

    @property
    def has_restrictions(self) -> bool:
        """Whether any targeting restriction could apply to it at all."""
        return bool(
            self.hexproof
            or self.shroud
            or self.protection
            or self.hexproof_from
            or self.cant_be_targeted_by
            or self.left_game
        )

    @property
    def protector(self) -> PlayerId | None:
        """Whose point of view judges restrictions on this thing: a player's own, or the
        controller (else owner) of an object."""
        if self.is_player:
            return PlayerId(self.id)
        return self.controller if self.controller is not None else self.owner


def player_thing(player: Player) -> Thing:
    return Thing(
        id=ThingId(player.id),
        kind="player",
        zone=None,
        controller=player.id,
        owner=player.id,
        hexproof=player.hexproof,
        shroud=player.shroud,
        protection=player.protection,
        hexproof_from=player.hexproof_from,
        cant_be_targeted_by=player.cant_be_targeted_by,
        left_game=player.left_game,
    )


def object_thing(obj: Object, left: frozenset[str] = frozenset()) -> Thing:
    """The object as a thing; ``left``: the players who have left the game, whose objects left it
    with them (800.4a: "all objects owned by that player leave the game"), so no ability can target
    them — listed still, as the source an ability triggered from, or its last known information."""
    zone = obj.where  # read once: Object.has_controller and effective_* read it again each
    owner = obj.owner if obj.owner is not None else obj.controller  # Object.effective_owner
    controlled = zone in ("battlefield", "stack", "command")  # Object.has_controller (108.4)
    return Thing(
        id=ThingId(obj.id),
        kind=obj.kind,
        zone=zone,
        # 108.4a: "If anything asks for the controller of a card that doesn't have one (because
        # it's not a permanent or spell), use its owner instead."
        controller=(obj.controller if obj.controller is not None else obj.owner) if controlled else owner,
        owner=owner,
        types=frozenset(obj.types),
        subtypes=frozenset(obj.subtypes),
        supertypes=frozenset(obj.supertypes),
        colors=frozenset(obj.colors),
        power=obj.power,
        toughness=obj.toughness,
        mana_value=obj.mana_value,
        counters=dict(obj.counters),
        tags=frozenset(obj.tags),
        ability_kind=obj.ability_kind,
        hexproof=obj.hexproof,
        shroud=obj.shroud,
        protection=obj.protection,
        hexproof_from=obj.hexproof_from,
        cant_be_targeted_by=obj.cant_be_targeted_by,
        left_game=owner in left,
    )


def scenario_things(scenario: ScenarioFields) -> tuple[Thing, ...]:
    """Players and objects in canonical order (waiting abilities are added by ``facts``, which
    knows their controllers)."""
    left = frozenset(p.id for p in scenario.players if p.left_game)
    return tuple(player_thing(p) for p in scenario.players) + tuple(object_thing(o, left) for o in scenario.objects)
