"""Targeting restrictions, one rule each: 115.5, 702.11b-d, 702.16b, 702.18a, 601.2c."""

from __future__ import annotations

from typing import Any

from triggerstack.model._rules import Code, Rule
from triggerstack.model._shapes import Object
from triggerstack.model._targeting import Restriction, restriction_exclusions
from triggerstack.model._things import Thing, object_thing
from triggerstack.model._types import PlayerId, ThingId


def thing(**data: Any) -> Thing:
    return object_thing(Object.model_validate({"types": ["creature"], **data}))


def opp(a: PlayerId, b: PlayerId) -> bool:
    return a != b


RED = thing(id="red", controller="A", colors=["red"])
BLACK = thing(id="black", controller="A", colors=["black"])


def codes(you: str, source: Thing | None, target: Thing) -> list[tuple[Code, Rule]]:
    r = Restriction("T", None, PlayerId(you), source, opp)
    return [(e.code, e.rule) for e in restriction_exclusions(r, target)]


def test_hexproof_only_against_opponents() -> None:
    troll = thing(id="troll", controller="B", hexproof=True)
    assert codes("A", RED, troll) == [(Code.TARGET_HEXPROOF, Rule.R702_11B)]
    assert codes("B", RED, troll) == []  # B's own ability, whatever the source


def test_hexproof_from_quality() -> None:
    knight = thing(id="k", controller="B", hexproof_from=[{"color": "black"}])
    assert codes("A", BLACK, knight) == [(Code.TARGET_HEXPROOF, Rule.R702_11D)]
    assert codes("A", RED, knight) == []
    assert codes("B", BLACK, knight) == []
    assert codes("A", None, knight) == []  # no source, no quality


def test_protection_whoever_controls() -> None:
    knight = thing(id="k", controller="B", protection=[{"color": "red"}])
    assert codes("A", RED, knight) == [(Code.TARGET_PROTECTION, Rule.R702_16B)]
    assert codes("B", RED, knight) == [(Code.TARGET_PROTECTION, Rule.R702_16B)]
    assert codes("B", BLACK, knight) == []


def test_protection_from_everything() -> None:
    """702.16j: protection from everything stops every ability, those with no source too."""
    knight = thing(id="k", controller="B", protection=[{}])
    assert codes("B", BLACK, knight) == [(Code.TARGET_PROTECTION, Rule.R702_16J)]
    assert codes("B", None, knight) == [(Code.TARGET_PROTECTION, Rule.R702_16J)]
    red_only = thing(id="r", controller="B", protection=[{"color": "red"}])
    assert codes("A", None, red_only) == []  # a quality no source-less ability has


def test_shroud_against_everyone() -> None:
    wall = thing(id="w", controller="A", shroud=True)
    assert codes("A", RED, wall) == [(Code.TARGET_SHROUD, Rule.R702_18A)]
    assert codes("A", None, wall) == [(Code.TARGET_SHROUD, Rule.R702_18A)]


def test_cant_be_targeted_by_relative_to_its_controller() -> None:
    shy = thing(id="s", controller="B", cant_be_targeted_by=[{"source": {"color": "red"}, "controller": "opponent"}])
    assert codes("A", RED, shy) == [(Code.TARGET_RESTRICTED, Rule.R601_2C)]
    assert codes("B", RED, shy) == []
    assert codes("A", BLACK, shy) == []


def test_self() -> None:
    me = Thing(id=ThingId("T"), kind="ability", zone="stack", controller=PlayerId("A"), owner=PlayerId("A"))
    r = Restriction("T", me, PlayerId("A"), RED, opp)
    assert [e.code for e in restriction_exclusions(r, me)] == [Code.TARGET_SELF]
