"""The closed vocabularies are the Comprehensive Rules' lists (docs/formats.md, Objects: "Closed vocabularies
are the Comprehensive Rules' own lists"): each list in ``model/_words.py`` is
compared with the rule's own sentence in ``tests/data/cr-vocabularies.txt``.

Private unit: model/_words' closed vocabularies (CARD_TYPES, COLORS, SUPERTYPES, ZONES) and parse_scenario's refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from triggerstack.model import ScenarioError
from triggerstack.model._scenario import parse_scenario
from triggerstack.model._words import CARD_TYPES, COLORS, SUPERTYPES, ZONES

TEXT = Path(__file__).parent / "data" / "cr-vocabularies.txt"


def _rule(number: str) -> str:
    for line in TEXT.read_text(encoding="utf-8").splitlines():
        if line.startswith(number + " ") or line.startswith(number + ". "):
            return line
    raise AssertionError(f"rule {number} is not in {TEXT.name}")


def _listed(sentence: str) -> list[str]:
    """The words of an English list: 'a, b, and c' -> [a, b, c]."""
    return [w.strip().removeprefix("and ").strip() for w in sentence.split(",")]


def _after(text: str, lead: str) -> list[str]:
    found = re.search(re.escape(lead) + r" (.*?)\.", text)
    assert found, f"{lead!r} not found in {text!r}"
    return _listed(found.group(1))


def test_colors_are_105_1() -> None:
    assert sorted(COLORS) == sorted(_after(_rule("105.1"), "in the Magic game:"))


@pytest.mark.parametrize("rule", ["205.2a", "300.1"])
def test_card_types_are_205_2a_and_300_1(rule: str) -> None:
    assert sorted(CARD_TYPES) == sorted(_after(_rule(rule), "The card types are"))


def test_supertypes_are_205_4a() -> None:
    assert sorted(SUPERTYPES) == sorted(_after(_rule("205.4a"), "The supertypes are"))


def test_zones_are_400_1() -> None:
    text = _rule("400.1")
    normal = _after(text, "There are normally seven zones:")
    assert len(normal) == 7
    ante = re.search(r"also use the (\w+) zone", text)
    assert ante is not None
    assert sorted(ZONES) == sorted([*normal, ante.group(1)])


@pytest.mark.parametrize("word", CARD_TYPES)
def test_every_card_type_is_read_and_matched(word: str) -> None:
    """Each card type of 300.1 is accepted in any letter case and a filter naming it finds it."""
    from triggerstack.solver import count

    s = parse_scenario(
        {
            "players": ["A", "B"],
            "objects": [{"id": "x", "kind": "card", "zone": "command", "owner": "B", "types": [word.upper()]}],
            "triggers": [
                {"id": "T", "controller": "A", "targets": [{"id": "t", "filter": {"zone": "command", "type": word}}]}
            ],
        }
    )
    assert s.objects[0].types == (word,)
    assert count(s) == 1


def test_tribal_is_the_old_name_of_kindred() -> None:
    """205.2a lists kindred; cards printed before 2024 say Tribal: the same card type."""
    from triggerstack.solver import count

    s = parse_scenario(
        {
            "players": ["A"],
            "objects": [{"id": "x", "controller": "A", "types": ["Tribal", "instant"]}, {"id": "y", "controller": "A", "types": ["kindred"]}],
            "triggers": [{"id": "T", "controller": "A", "targets": [{"id": "t", "filter": {"type": "tribal"}}]}],
        }
    )
    assert s.objects[0].types == ("kindred", "instant")
    assert count(s) == 2


def test_an_unknown_card_type_still_names_its_place() -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"players": ["A"], "objects": [{"id": "x", "types": ["planes"]}]})
    assert "objects[0].types[0]" in info.value.one_line()
    assert "did you mean 'plane'?" in info.value.one_line()
