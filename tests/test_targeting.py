"""Targeting restrictions, one rule each: 115.5, 702.11b-d, 702.16b, 702.18a, 601.2c. Each says which
rule bars a thing (a :class:`Bar`, a fact); the judge room's code, rule and sentence for each bar are
held to docs/formats.md by tests/test_judge.py.

Private unit: model/_targeting (Bar, Restriction, restriction_bars) over model/_things and model/_shapes."""

from __future__ import annotations

from typing import Any

from triggerstack.model._shapes import Object, Player
from triggerstack.model._targeting import Bar, Restriction, restriction_bars
from triggerstack.model._things import Thing, object_thing, player_thing
from triggerstack.model._types import PlayerId, ThingId


def thing(**data: Any) -> Thing:
    return object_thing(Object.model_validate({"types": ["creature"], **data}))


def opp(a: PlayerId, b: PlayerId) -> bool:
    return a != b


RED = thing(id="red", controller="A", colors=["red"])
BLACK = thing(id="black", controller="A", colors=["black"])


def codes(you: str, source: Thing | None, target: Thing) -> list[Bar]:
    r = Restriction("T", None, PlayerId(you), source, opp)
    return list(restriction_bars(r, target))


def test_hexproof_only_against_opponents() -> None:
    troll = thing(id="troll", controller="B", hexproof=True)
    assert codes("A", RED, troll) == [Bar.HEXPROOF]
    assert codes("B", RED, troll) == []  # B's own ability, whatever the source
    leyline = player_thing(Player.model_validate({"id": "B", "hexproof": True}))  # a player's hexproof: 702.11c
    assert codes("A", RED, leyline) == [Bar.HEXPROOF_PLAYER]
    assert codes("B", RED, leyline) == []


def test_hexproof_from_quality() -> None:
    knight = thing(id="k", controller="B", hexproof_from=[{"color": "black"}])
    assert codes("A", BLACK, knight) == [Bar.HEXPROOF_FROM]
    assert codes("A", RED, knight) == []
    assert codes("B", BLACK, knight) == []
    assert codes("A", None, knight) == []  # no source, no quality


def test_protection_whoever_controls() -> None:
    knight = thing(id="k", controller="B", protection=[{"color": "red"}])
    assert codes("A", RED, knight) == [Bar.PROTECTION]
    assert codes("B", RED, knight) == [Bar.PROTECTION]
    assert codes("B", BLACK, knight) == []


def test_protection_from_everything() -> None:
    """702.16j: protection from everything stops every ability, those with no source too."""
    knight = thing(id="k", controller="B", protection=[{}])
    assert codes("B", BLACK, knight) == [Bar.PROTECTION_FROM_EVERYTHING]
    assert codes("B", None, knight) == [Bar.PROTECTION_FROM_EVERYTHING]
    red_only = thing(id="r", controller="B", protection=[{"color": "red"}])
    assert codes("A", None, red_only) == []  # a quality no source-less ability has


def test_shroud_against_everyone() -> None:
    wall = thing(id="w", controller="A", shroud=True)
    assert codes("A", RED, wall) == [Bar.SHROUD]
    assert codes("A", None, wall) == [Bar.SHROUD]


def test_cant_be_targeted_by_relative_to_its_controller() -> None:
    shy = thing(id="s", controller="B", cant_be_targeted_by=[{"source": {"color": "red"}, "controller": "opponent"}])
    assert codes("A", RED, shy) == [Bar.CANT_BE_TARGETED]
    assert codes("B", RED, shy) == []
    assert codes("A", BLACK, shy) == []


def test_self() -> None:
    me = Thing(id=ThingId("T"), kind="ability", zone="stack", controller=PlayerId("A"), owner=PlayerId("A"))
    r = Restriction("T", me, PlayerId("A"), RED, opp)
    assert list(restriction_bars(r, me)) == [Bar.SELF]
