"""Issue 54, coverage: what only the board can give a reading, read from what the scenario states
(docs/cards.md, "What the board states"; model/cards/_board.py) — "for each opponent, … target …
that player controls" as one requirement per opponent of the trigger's controller, and a target's
number compared with its source's ("with lesser power", "with power less than this creature's
power") as the number the scenario gives the source. Each class by made-up wordings (probes no card
prints), then by real cards, then as properties over generated boards: the candidates are exactly
what the rule demands, and a board that does not state what the template needs is refused, naming
the field and the object, never assumed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .cards_extra import require_cards

require_cards()

from triggerstack.model._errors import ScenarioError  # noqa: E402
from triggerstack.model._facts import compile_facts  # noqa: E402
from triggerstack.model._scenario import parse_scenario  # noqa: E402
from triggerstack.model.cards import card_report  # noqa: E402
from triggerstack.model.cards._board import EACH, STATED, needs  # noqa: E402
from triggerstack.solver import LegalOutcomes  # noqa: E402
from triggerstack.solver._cli import main  # noqa: E402

from .test_card_readings import card_targets, probe, refused, targets  # noqa: E402

SOURCE = {STATED: "power", "of": "source"}


def candidates(doc: dict[str, Any]) -> dict[str, list[str]]:
    """Each requirement of the first trigger, by id: the things it may choose (601.2c)."""
    facts = compile_facts(parse_scenario(doc))
    (mode, *_) = facts.abilities[0].modes
    return {r.id: [facts.things[c].id for c in r.candidates] for r in mode.requirements}


# -- "for each opponent, … that player": one requirement per player ------------------------------------


@pytest.mark.parametrize(
    ("text", "who", "key"),
    [
        ("When this creature enters, for each opponent, tap up to one target artifact that player controls.", "opponent", "controller"),
        ("Whenever this creature attacks, for each player, exile up to one target land they control.", "player", "controller"),
        ("At the beginning of your upkeep, for each opponent, return up to one target creature card from that player's graveyard to your hand.", "opponent", "owner"),
        ("When this creature dies, for each opponent, you may destroy up to one target enchantment that opponent controls.", "opponent", "controller"),
        ("When this creature enters, for each player, put a +1/+1 counter on any number of target creatures that player controls.", "player", "controller"),
    ],
)  # fmt: skip
def test_that_player_after_for_each_is_each_player_of_the_set(text: str, who: str, key: str) -> None:
    """The pronoun stands for the player the "for each" is at (601.2c: one instance of "target" each)."""
    (req,) = targets(text)
    assert req["filter"][key] == {EACH: who} and req["min"] == 0
    assert needs(probe(text))[0].startswith(f"the players: requirement t is written once for each {who} P")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("When this creature enters, for each opponent, destroy target artifact that player controls.", "a target required for each opponent"),
        ("When this creature enters, for each player, tap two target creatures they control.", "a target required for each player"),
        ("When this creature enters, for each player, exile up to one target creature that opponent controls.", "may not be an opponent"),
        ("When this creature enters, for each opponent, target player exiles up to one target creature that player controls.", "which of them it stands for is not read"),
    ],
)  # fmt: skip
def test_for_each_where_the_rule_is_not_said_is_refused(text: str, words: str) -> None:
    """A target each player must get "if able" (the Primordials' ruling) is no min the format has;
    a player named after the "for each" is another player."""
    refused(text, words)


def _primordial(players: list[Any], objects: list[dict[str, Any]], **trigger: Any) -> dict[str, Any]:
    return {
        "players": players,
        "objects": [{"id": "mp", "controller": "A", "card": "Molten Primordial"}, *objects],
        "triggers": [{"id": "M", "source": "mp", **trigger}],
    }


def test_molten_primordial_takes_one_creature_of_each_opponent_still_in_the_game() -> None:
    """Molten Primordial: "for each opponent, gain control of up to one target creature that player
    controls" — B's and C's, never A's (its controller's), none for D who has left the game (800.4a)."""
    creatures = [{"id": f"c{p}", "controller": p, "types": ["creature"]} for p in "ABC"]
    doc = _primordial(["A", "B", "C", {"id": "D", "left_game": True}], creatures)
    assert candidates(doc) == {"t-B": ["cB"], "t-C": ["cC"]}
    assert LegalOutcomes(parse_scenario(doc)).count() == 4  # each of B's and C's taken or not
    assert card_targets("Molten Primordial")[0]["filter"] == {"type": "creature", "controller": {EACH: "opponent"}}


def test_for_each_opponent_follows_the_controller_the_rules_give() -> None:
    """603.3a: a card in a graveyard whose ability triggered under B's control (source_controller) is
    B's, so A and C are the opponents; in Two-Headed Giant the opponents are the other team (805.7)."""
    creatures = [{"id": f"c{p}", "controller": p, "types": ["creature"]} for p in "ABCD"]
    doc = _primordial(["A", "B", "C"], creatures[:3], source_controller="B")
    assert list(candidates(doc)) == ["t-A", "t-C"]
    doc = {**_primordial(["A", "B", "C", "D"], creatures), "rules": "2hg", "teams": [["A", "B"], ["C", "D"]]}
    assert candidates(doc) == {"t-C": ["cC"], "t-D": ["cD"]}


def test_for_each_player_needs_no_controller_and_other_stays_other_than_the_source() -> None:
    """Kitesail Larcenist: "for each player, choose up to one other target artifact or creature that
    player controls" — its own controller's too, but never itself (115.3)."""
    doc = {
        "players": ["A", "B"],
        "objects": [
            {"id": "kl", "controller": "A", "card": "Kitesail Larcenist"},
            {"id": "rock", "controller": "A", "types": ["artifact"]},
            {"id": "bear", "controller": "B", "types": ["creature"]},
        ],
        "triggers": [{"id": "K", "source": "kl"}],
    }
    assert candidates(doc) == {"t-A": ["rock"], "t-B": ["bear"]}


def test_for_each_from_that_players_graveyard_is_their_graveyard() -> None:
    doc = {
        "players": ["A", "B", "C"],
        "objects": [
            {"id": "sp", "controller": "A", "card": "Sepulchral Primordial"},
            *({"id": f"g{p}", "kind": "card", "zone": "graveyard", "owner": p, "types": ["creature"]} for p in "ABC"),
        ],
        "triggers": [{"id": "S", "source": "sp"}],
    }
    assert candidates(doc) == {"t-B": ["gB"], "t-C": ["gC"]}


@given(
    n=st.integers(2, 6),
    me=st.integers(0, 5),
    left=st.sets(st.integers(0, 5)),
    owned=st.lists(st.integers(0, 5), max_size=8),
)
def test_each_opponent_in_the_game_gets_exactly_one_requirement_with_exactly_their_creatures(
    n: int, me: int, left: set[int], owned: list[int]
) -> None:
    """Over generated tables: the requirements are the controller's opponents still in the game, in
    turn order, each choosing among exactly that opponent's creatures."""
    me %= n
    left.discard(me)
    players = [{"id": f"P{k}", "left_game": k in left} for k in range(n)]
    creatures = [{"id": f"c{j}", "controller": f"P{k % n}", "types": ["creature"]} for j, k in enumerate(owned)]
    doc = {
        "players": players,
        "objects": [{"id": "mp", "controller": f"P{me}", "card": "Molten Primordial"}, *creatures],
        "triggers": [{"id": "M", "source": "mp"}],
    }
    found = candidates(doc)
    opponents = [f"P{k}" for k in range(n) if k != me and k not in left]
    assert list(found) == [f"t-{p}" for p in opponents]
    for p in opponents:
        assert found[f"t-{p}"] == [c["id"] for c in creatures if c["controller"] == p]


def test_a_for_each_whose_players_are_not_valid_is_refused_naming_why() -> None:
    doc = _primordial(["A", "B"], [], controller="B")
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    assert "'for each opponent' is a requirement per opponent" in info.value.message
    assert "controller B contradicts the derived controller A" in info.value.message


# -- a number compared with the source's ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key", "compared"),
    [
        ("Whenever this creature attacks, tap target creature with lesser power.", "power", {"lt": SOURCE}),
        ("When this creature enters, exile target creature an opponent controls with greater toughness.", "toughness", {"gt": {**SOURCE, STATED: "toughness"}}),
        ("When this creature dies, return target creature card with equal or lesser mana value from your graveyard to your hand.", "mana_value", {"lte": {**SOURCE, STATED: "mana_value"}}),
        ("At the beginning of your upkeep, tap target creature with power greater than or equal to this creature's power.", "power", {"gte": SOURCE}),
        ("At the beginning of combat on your turn, untap target artifact with mana value equal to Probe Beast's power.", "mana_value", {"eq": SOURCE}),
        ("At the beginning of your end step, return target creature card with toughness less than Probe Beast's from your graveyard to your hand.", "toughness", {"lt": {**SOURCE, STATED: "toughness"}}),
        ("Whenever Probe Beast blocks, destroy target creature with mana value less than its power.", "mana_value", {"lt": SOURCE}),
    ],
)  # fmt: skip
def test_a_number_compared_with_the_sources_is_the_sources_stated_number(
    text: str, key: str, compared: dict[str, Any]
) -> None:
    """ "With lesser power" is lesser than the source's (702.134a's words), as are "this creature's",
    the card's name's and, in a trigger naming the source alone, "its"."""
    (req,) = targets(text)
    assert req["filter"][key] == compared
    field = next(iter(compared.values()))[STATED]
    assert needs(probe(text))[0].startswith(f"its source's {field.replace('_', ' ')}: the {field} the scenario states")


@pytest.mark.parametrize(
    "text",
    [
        "Whenever this creature or another creature you control dies, return target creature card with lesser power from your graveyard to your hand.",
        "At the beginning of your upkeep, destroy target creature with lesser power.",
        "Whenever a creature enters, exile target creature with greater mana value.",
        "At the beginning of your upkeep, tap target creature with power less than its power.",
    ],
)  # fmt: skip
def test_a_comparison_not_said_to_be_with_the_source_is_refused(text: str) -> None:
    """ "Lesser" than what the trigger's event names (the creature that died, 603.2) is not the source's."""
    refused(text, "a comparison with a number of an object the words do not say is the source")


def _mentor(others: dict[str, int], **source: Any) -> dict[str, Any]:
    return {
        "players": ["A", "B"],
        "objects": [
            {"id": "tajic", "controller": "A", "card": "Tajic, Legion's Edge", "tags": ["attacking"], **source},
            *({"id": k, "controller": "A", "types": ["creature"], "power": p, "tags": ["attacking"]} for k, p in others.items()),
        ],
        "triggers": [{"id": "M", "source": "tajic"}],
    }  # fmt: skip


@given(power=st.integers(-2, 6), others=st.dictionaries(st.sampled_from("abcdef"), st.integers(-2, 6), max_size=5))
def test_mentor_takes_exactly_the_attackers_with_lesser_power(power: int, others: dict[str, int]) -> None:
    """702.134a: "target attacking creature with lesser power" — lesser than the power the scenario
    gives the source (Tajic prints 3; a scenario's own power wins)."""
    found = candidates(_mentor(others, power=power))["t"]
    assert found == [k for k, p in others.items() if p < power]


def test_the_printed_power_is_stated_and_a_missing_one_is_refused_naming_the_field(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Tajic prints 3; an object that says its power is unknown (null) states none: refused, naming
    objects[0].power and the trigger, exit 2 — never read as 0."""
    assert candidates(_mentor({"two": 2, "three": 3})) == {"t": ["two"]}
    doc = _mentor({"two": 2}, power=None)
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    assert info.value.loc == ("objects", 0, "power")
    assert "Tajic, Legion's Edge, triggered ability 1 (triggers[0])" in info.value.message
    assert "the power of its source 'tajic', which the scenario does not state" in info.value.message
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc))
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err
    assert "objects[0].power" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("name", "key", "compared"),
    [
        ("Radha's Firebrand", "power", {"lt": SOURCE}),
        ("A-Radha's Firebrand", "power", {"lte": SOURCE}),
        ("Alesha, Who Laughs at Fate", "mana_value", {"lte": SOURCE}),
        ("Mirko, Obsessive Theorist", "power", {"lt": SOURCE}),
        ("Helmut Zemo, Mastermind", "mana_value", {"lte": SOURCE}),
        ("Éowyn, Fearless Knight", "power", {"gt": SOURCE}),
        ("Thunderkin Awakener", "toughness", {"lt": {**SOURCE, STATED: "toughness"}}),
    ],
)
def test_the_cards_compare_with_their_own_number(name: str, key: str, compared: dict[str, Any]) -> None:
    reqs = [r for a in range(1, 3) for r in _some_targets(name, a)]
    assert any(
        r["filter"].get(key) == compared or any(f.get(key) == compared for f in r["filter"].get("any", []))
        for r in reqs
    )


def _some_targets(name: str, n: int) -> list[dict[str, Any]]:
    try:
        return card_targets(name, n)
    except (IndexError, AssertionError):
        return []


def test_the_card_command_prints_the_template_and_what_the_board_states(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["card", "Molten Primordial"]) == 0
    out = capsys.readouterr().out
    assert '  template: {"targets":[{"filter":{"controller":{"for_each":"opponent"},"type":"creature"}' in out
    assert "  the board states: the players: requirement t is written once for each opponent P of its controller" in out
    (ability,) = card_report("Tajic, Legion's Edge")["triggered_abilities"]
    assert "trigger" not in ability and ability["board"] == needs(ability["template"])
