"""The filter language (docs/formats.md, Scenario): implicit kinds (115.2), any-target (115.4), relative words,
comparisons, combinators, and three-valued ``target_of``.

Private unit: model/_filters (matches, matcher, Context …) over model/_things and model/_shapes: the filter language evaluated."""

from __future__ import annotations

from typing import Any

import pytest
from triggerstack.model._filters import ANYTHING, Context, is_relative, matcher, matches, possible_kinds, reads_you
from triggerstack.model._shapes import Filter, Object, Player
from triggerstack.model._things import Thing, object_thing, player_thing
from triggerstack.model._types import PlayerId


def f(data: Any) -> Filter:
    from pydantic import TypeAdapter
    from triggerstack.model._shapes import FilterField

    return TypeAdapter(FilterField).validate_python(data)


def opp(a: PlayerId, b: PlayerId) -> bool:
    return a != b


A = Context(PlayerId("A"), opp)
PLAYER_A = player_thing(Player(id=PlayerId("A")))
PLAYER_B = player_thing(Player(id=PlayerId("B")))
BEAR = object_thing(Object.model_validate({"id": "bear", "controller": "B", "types": ["creature"], "power": 2}))
WALKER = object_thing(Object.model_validate({"id": "jace", "controller": "B", "types": ["planeswalker"]}))
LAND = object_thing(Object.model_validate({"id": "land", "controller": "A", "types": ["land"], "tags": ["tapped"]}))
CARD = object_thing(
    Object.model_validate({"id": "dead", "kind": "card", "zone": "graveyard", "owner": "B", "types": ["creature"]})
)
SPELL = object_thing(
    Object.model_validate({"id": "bolt", "kind": "spell", "controller": "B", "types": ["instant"], "colors": ["red"]})
)


@pytest.mark.parametrize(
    ("data", "yes", "no"),
    [
        ({"type": "creature"}, [BEAR], [CARD, PLAYER_A, SPELL]),  # 115.2: permanents only
        ({"type": "creature", "zone": "graveyard"}, [CARD], [BEAR]),  # a zone names cards
        ("any-target", [BEAR, WALKER, PLAYER_B], [LAND, CARD, SPELL]),  # 115.4
        ({"not": {"type": "creature"}}, [LAND, WALKER], [BEAR, PLAYER_A, CARD]),  # noncreature permanent
        ({"kind": "player", "controller": "opponent"}, [PLAYER_B], [PLAYER_A, BEAR]),
        ({"kind": "player", "controller": "you"}, [PLAYER_A], [PLAYER_B]),
        ({"controller": "opponent"}, [BEAR, WALKER], [LAND, PLAYER_B]),
        ({"owner": "B", "zone": "graveyard"}, [CARD], [BEAR]),
        ({"power": {"lte": 2}}, [BEAR], [WALKER]),  # no power: no match
        ({"power": {"gte": 3}}, [], [BEAR]),
        ({"tag": ["tapped"]}, [LAND], [BEAR]),
        ({"kind": ["spell", "ability"], "color": "red"}, [SPELL], [BEAR]),
        ({"kind": "spell", "colorless": True}, [], [SPELL]),
        ({"id": ["bear", "land"]}, [BEAR, LAND], [WALKER]),
        ({"any": [{"type": "land"}, {"kind": "player", "controller": "you"}]}, [LAND, PLAYER_A], [BEAR, PLAYER_B]),
        ({"all": [{"type": "creature"}, {"controller": "you"}]}, [], [BEAR]),
    ],
)
def test_matches(data: Any, yes: list[Thing], no: list[Thing]) -> None:
    assert_matches(data, yes, no)


def assert_matches(data: Any, yes: list[Thing], no: list[Thing]) -> None:
    flt = f(data)
    for t in yes:
        assert matches(flt, t, A) is True, t.id
    for t in no:
        assert matches(flt, t, A) is False, t.id


def test_target_of_is_unknown_until_chosen() -> None:
    flt = f({"type": "creature", "controller": {"target_of": "p"}})
    assert matches(flt, BEAR, A) is None
    assert matches(flt, LAND, A) is False  # not a creature whatever p is
    chosen_b = Context(A.you, opp, {"p": (PLAYER_B,)})
    chosen_a = Context(A.you, opp, {"p": (PLAYER_A,)})
    assert matches(flt, BEAR, chosen_b) is True
    assert matches(flt, BEAR, chosen_a) is False
    assert matches(f({"not": {"controller": {"target_of": "p"}}}), BEAR, A) is None


def test_possible_kinds() -> None:
    assert possible_kinds(f({})) == {"permanent"}
    assert possible_kinds(f("any-target")) == {"player", "permanent"}
    assert possible_kinds(f({"zone": ["graveyard", "exile"]})) >= {"card"}  # the zone decides
    assert possible_kinds(f({"type": "creature", "not": {"kind": "player"}})) == {"permanent"}


ABILITY = object_thing(Object.model_validate({"id": "trig", "kind": "ability", "controller": "B", "ability_kind": "triggered"}))


@pytest.mark.parametrize(
    ("data", "yes", "no"),
    [
        # docs/formats.md, Filters, "Domains (115.2)": a kind or zone inside `not` never changes the domain
        ({"type": "creature", "not": {"kind": "player"}}, [BEAR], [PLAYER_A, CARD, SPELL]),
        ({"not": {"zone": "graveyard"}}, [BEAR, LAND, WALKER], [CARD, PLAYER_A, SPELL]),
        ({"kind": "player", "not": {"controller": "you"}}, [PLAYER_B], [PLAYER_A, BEAR]),
        ({"any": [{"kind": "player"}, {"type": "creature"}]}, [PLAYER_A, PLAYER_B, BEAR], [CARD, LAND, SPELL]),
        ({"all": [{}]}, [BEAR, LAND, WALKER], [PLAYER_A, CARD, SPELL]),  # each child decides: permanents
        ({"kind": "player", "any": [{}, {"controller": "you"}]}, [PLAYER_A, PLAYER_B], [BEAR]),  # children inherit
        ({"zone": "stack"}, [SPELL, ABILITY], [BEAR, CARD, PLAYER_A]),  # the zone decides, whatever the kind
        ({"any": [{"zone": "graveyard"}, {"type": "land"}]}, [CARD, LAND], [BEAR, PLAYER_A]),
        ({"kind": "card", "not": {"any": [{"type": "land"}]}}, [CARD], [BEAR, LAND]),  # `not` keeps {card}
    ],
)
def test_domains_under_combinators(data: Any, yes: list[Thing], no: list[Thing]) -> None:
    assert_matches(data, yes, no)


def test_quality_matching_ignores_kind() -> None:
    """Protection from red stops a red card's ability even from the graveyard (702.16a)."""
    red_card = object_thing(
        Object.model_validate({"id": "c", "kind": "card", "zone": "graveyard", "owner": "A", "colors": ["red"]})
    )
    assert matches(f({"color": "red"}), red_card, A) is False
    assert matches(f({"color": "red"}), red_card, A, within=ANYTHING) is True
    assert matches(f({}), red_card, A, within=ANYTHING) is True


@pytest.mark.parametrize(
    ("data", "relative"),
    [
        ({"type": "creature"}, False),
        ("any-target", False),
        ({"controller": "A"}, False),
        ({"controller": "any", "owner": "B"}, False),
        ({"controller": {"target_of": "x"}}, False),
        ({"controller": "opponent"}, True),
        ({"owner": "you"}, True),
        ({"not": {"controller": "you"}}, True),
        ({"any": [{"kind": "player"}, {"all": [{"type": "creature"}, {"owner": "opponent"}]}]}, True),
    ],
)
def test_a_filter_reads_whose_point_of_view_only_through_you_and_opponent(data: Any, relative: bool) -> None:
    """Compiling judges a filter that does not read ``you`` once for every player (Known.fit):
    such a filter must judge every thing the same from every player's point of view."""
    filt = f(data)
    assert reads_you(filt) is relative and is_relative(matcher(filt)) is relative
    things = [PLAYER_A, PLAYER_B, BEAR, WALKER, LAND, CARD, SPELL]
    seen = {tuple(matches(filt, t, Context(PlayerId(p), opp)) for t in things) for p in ("A", "B")}
    assert (len(seen) == 2) is relative
