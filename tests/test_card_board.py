"""Issue 54, coverage: what only the board can give a reading, read from what the scenario states
(docs/cards.md, "What the board states"; model/cards/_board.py) — "for each opponent, … target …
that player controls" as one requirement per opponent of the trigger's controller, a target's
number compared with its source's ("with lesser power", "with power less than this creature's
power") as the number the scenario gives the source, and X (107.3: "up to X target creatures",
"with mana value X or less", "X damage divided", "choose up to X") as the trigger's ``x``, and a
target "of their choice" (700.2e) as chosen by the trigger's ``event_player``. Each
class by made-up wordings (probes no card prints), then by real cards, then as properties over
generated boards: the candidates are exactly what the rule demands, and a board that does not
state what the template needs is refused, naming the field and the object, never assumed.

Private unit: model/cards/_board (the templates' markers and what the board must state), with the
compiled facts and parse_scenario's errors of a scenario completing one."""

from __future__ import annotations

import json
from math import comb
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
from triggerstack.model.cards._board import CHOOSER, EACH, STATED, X, needs  # noqa: E402
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


# -- X: the number the scenario states as the trigger's x (107.3) ---------------------------------------


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("When this creature enters, tap up to X target artifacts, where X is the number of Elves you control.", {"min": 0, "max": X}),
        ("Whenever this creature attacks, exile X target cards from a graveyard.", {"min": X, "max": X}),
        ("When this creature dies, put a +1/+1 counter on each of up to X target creatures, where X is the number of times it was kicked.", {"min": 0, "max": X}),
        ("When this creature enters, destroy target enchantment with mana value X or less, where X is the amount of life you gained this turn.", {"filter": {"type": "enchantment", "mana_value": {"lte": X}}}),
        ("Whenever you cycle this card, untap target artifact with mana value X.", {"filter": {"type": "artifact", "mana_value": {"eq": X}}}),
        ("When this creature enters, it deals X damage divided as you choose among any number of target creatures.", {"min": 0, "max": None, "divide": X}),
        ("When this creature enters, distribute X +1/+1 counters among any number of other target creatures you control.", {"min": 0, "max": None, "divide": X}),
        ("Whenever this creature attacks, exile target creature with toughness X or less, where X is this creature's toughness.", {"filter": {"type": "creature", "toughness": {"lte": {**SOURCE, STATED: "toughness"}}}}),
    ],
)  # fmt: skip
def test_x_before_or_in_a_target_phrase_is_the_triggers_x(text: str, want: dict[str, Any]) -> None:
    """107.3: X in "up to X target …", "X target …", "with mana value X", "X damage divided" is the
    number the board gives it when the ability is put on the stack, whatever the text says counts
    it; "where X is this creature's toughness" is the source's own number."""
    (req,) = targets(text)
    assert {k: req.get(k) for k in want} == want
    lines = needs(probe(text))
    if "this creature's" not in text:
        assert lines == ["X: the number its text calls X, as it is when the ability is put on the stack (107.3), as the trigger's x"]


def test_choose_up_to_x_is_none_to_x_modes() -> None:
    fragment = probe("When this creature enters, choose up to X —\n• Tap target creature.\n• You gain 2 life.\n• Untap target land.")
    assert fragment["modal"]["choose"] == X and len(fragment["modes"]) == 3


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("When this creature dies, you may pay {X}. If you do, return target creature card with mana value X from your graveyard to your hand.", "X is paid as the ability resolves"),
        ("When this creature enters, return up to that many target creature cards from your graveyard to your hand.", "'to that many'"),
        ("When this creature enters, it deals X damage divided as you choose among up to X target creatures.", "an amount divided among up to N targets"),
        ("When this creature enters, exile up to one target card. If X is 5 or more, tap any number of other target creatures.", "a target required only 'If X is 5 or more'"),
    ],
)  # fmt: skip
def test_an_x_the_scenario_cannot_state_is_refused(text: str, words: str) -> None:
    """An X chosen as the ability resolves comes after its targets (601.2c); "that many" is no X;
    a target that exists only if X is great enough is the board's to decide."""
    refused(text, words)


def _x_board(card: str, x: int | None, n: int) -> dict[str, Any]:
    creatures = [{"id": f"c{i}", "controller": "B", "types": ["creature"]} for i in range(n)]
    trigger: dict[str, Any] = {"id": "T", "source": "src", **({} if x is None else {"x": x})}
    return {"players": ["A", "B"], "objects": [{"id": "src", "controller": "A", "card": card}, *creatures], "triggers": [trigger]}


@given(x=st.integers(0, 6), n=st.integers(0, 5))
def test_x_bounds_the_targets_as_the_rules_count_them(x: int, n: int) -> None:
    """Over generated boards, the number of ways each card's ability may be put on the stack:
    Lost in the Maze "tap X target creatures" — exactly X of them, or removed if there are fewer
    (603.3d); Archipelagore "up to X target creatures" (itself one of them); Polukranos "X damage
    divided as you choose among any number of target creatures your opponents control" — one to X
    targets each getting at least 1, none when X is 0 (601.2d and its ruling)."""

    def count(card: str) -> int:
        return LegalOutcomes(parse_scenario(_x_board(card, x, n))).count()

    assert count("Lost in the Maze") == (comb(n, x) if x <= n else 1)
    assert count("Archipelagore") == sum(comb(n + 1, k) for k in range(min(x, n + 1) + 1))
    divided = sum(comb(n, k) * comb(x - 1, k - 1) for k in range(1, min(x, n) + 1))
    assert count("Polukranos, World Eater") == (divided if divided else 1)


@given(x=st.integers(0, 5), values=st.lists(st.integers(0, 7), max_size=6))
def test_a_mana_value_compared_with_x_takes_exactly_the_cards_at_most_x(x: int, values: list[int]) -> None:
    """Dune Drifter: "return target artifact or creature card with mana value X or less from your
    graveyard to the battlefield" (X paid for the Vehicle, 107.3m)."""
    cards = [
        {"id": f"g{i}", "kind": "card", "zone": "graveyard", "owner": "A", "types": ["creature"], "mana_value": v}
        for i, v in enumerate(values)
    ]
    doc = {
        "players": ["A", "B"],
        "objects": [{"id": "src", "controller": "A", "card": "Dune Drifter"}, *cards],
        "triggers": [{"id": "T", "source": "src", "x": x}],
    }
    assert candidates(doc) == {"t": [f"g{i}" for i, v in enumerate(values) if v <= x]}


@given(x=st.integers(0, 5))
def test_choose_up_to_x_modes_is_none_to_x(x: int) -> None:
    """The Ruinous Wrecking Crew: "choose up to X" of four modes (700.2); none chosen removes it."""
    facts = compile_facts(parse_scenario(_x_board("The Ruinous Wrecking Crew", x, 0)))
    assert facts.abilities[0].choose == frozenset(range(min(x, 4) + 1))


def test_an_x_not_stated_is_refused_naming_the_field(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Never read as 0: the trigger's x is named, the card and its ability, exit 2 with one line."""
    for card in ("Archipelagore", "Polukranos, World Eater", "The Ruinous Wrecking Crew", "Dune Drifter"):
        with pytest.raises(ScenarioError) as info:
            parse_scenario(_x_board(card, None, 1))
        assert info.value.loc == ("triggers", 0, "x"), card
        assert f"{card}, triggered ability 1 (triggers[0]): its text says X" in info.value.message
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_x_board("Archipelagore", None, 1)))
    assert main(["count", str(path)]) == 2
    err = capsys.readouterr().err
    assert "triggers[0].x" in err and "Traceback" not in err


def test_where_x_is_this_creatures_power_is_the_sources_stated_power() -> None:
    """Guardian Scalelord: "return target nonland permanent card with mana value X or less …, where X
    is this creature's power" — the power the scenario gives it (its +1/+1 counters counted by the
    writer), no x needed."""
    (req,) = card_targets("Guardian Scalelord", 2)
    assert req["filter"]["mana_value"] == {"lte": SOURCE}


# -- a target "of their choice": the event's player chooses (700.2e) ----------------------------------


@pytest.mark.parametrize(
    ("text", "filt"),
    [
        ("At the beginning of each player's upkeep, tap target creature of their choice.", {"type": "creature"}),
        ("Whenever this creature attacks, exile target artifact of defending player's choice.", {"type": "artifact"}),
        ("Whenever this creature deals combat damage to a player, destroy target land that player controls of that player's choice.", {"type": "land", "controller": "event"}),
        ("Whenever an opponent casts a spell, untap target permanent of that opponent's choice that one of your opponents controls.", {"kind": "permanent", "controller": "opponent"}),
    ],
)  # fmt: skip
def test_a_target_of_the_event_players_choice_is_chosen_by_the_event_player(text: str, filt: dict[str, Any]) -> None:
    """603.2, 700.2e: "of their choice" where "their" is the player the trigger's event names — the
    ability's chooser, completed from the trigger's event_player; legality is still its controller's."""
    fragment = probe(text)
    assert fragment["chooser"] == CHOOSER and fragment["targets"][0]["filter"] == filt
    assert "the chooser: the player its event names (603.2)" in needs(fragment)[0]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Whenever a creature dies, tap target creature of their choice.", "where the trigger condition does not name one player"),
        ("Whenever a player attacks enchanted player, tap target permanent of their choice.", "does not name one player"),
        ("When this creature enters, target opponent sacrifices a creature, then untaps target land of their choice.", "a target another player chooses"),
        ("When this creature enters, tap target creature of an opponent's choice.", "a target another player chooses"),
        ("At the beginning of each player's upkeep, choose one —\n• Tap target creature of their choice.\n• You gain 2 life.", "in one mode"),
    ],
)  # fmt: skip
def test_a_chooser_the_event_does_not_name_is_refused(text: str, words: str) -> None:
    """A pronoun that may be no one player, an earlier target's player, an opponent not named, or a
    mode's target chosen by another while the controller chooses the modes: no chooser says it."""
    refused(text, words)


def _erithizon(event_player: str | None) -> dict[str, Any]:
    return {
        "players": ["A", "B", "C"],
        "objects": [
            {"id": "eri", "controller": "A", "card": "Erithizon", "tags": ["attacking"]},
            {"id": "bear", "controller": "B", "types": ["creature"]},
            {"id": "rock", "controller": "C", "types": ["artifact"]},
        ],
        "triggers": [{"id": "E", "source": "eri", **({} if event_player is None else {"event_player": event_player})}],
    }


def test_erithizons_defending_player_chooses_among_every_creature(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Erithizon: "put a +1/+1 counter on target creature of defending player's choice" — the
    defending player (the event's, 506.2) chooses, among every creature, Erithizon too; without the
    defending player stated, refused naming triggers[0].event_player."""
    facts = compile_facts(parse_scenario(_erithizon("B")))
    assert facts.abilities[0].chooser == "B" and facts.abilities[0].controller == "A"
    assert candidates(_erithizon("C")) == {"t": ["eri", "bear"]}
    with pytest.raises(ScenarioError) as info:
        parse_scenario(_erithizon(None))
    assert info.value.loc == ("triggers", 0, "event_player")
    assert "its targets are chosen by the player its event names" in info.value.message
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_erithizon(None)))
    assert main(["count", str(path)]) == 2
    assert "triggers[0].event_player" in capsys.readouterr().err


@given(upkeep=st.sampled_from("ABC"), owners=st.lists(st.sampled_from("ABC"), max_size=6), art=st.lists(st.booleans(), max_size=6))
def test_the_abyss_takes_a_creature_of_the_upkeep_player_chosen_by_them(upkeep: str, owners: list[str], art: list[bool]) -> None:
    """The Abyss: "At the beginning of each player's upkeep, destroy target nonartifact creature that
    player controls of their choice" — that player's nonartifact creatures, chosen by that player."""
    creatures = [
        {"id": f"c{i}", "controller": p, "types": ["creature", "artifact"] if i < len(art) and art[i] else ["creature"]}
        for i, p in enumerate(owners)
    ]
    doc = {
        "players": ["A", "B", "C"],
        "objects": [{"id": "abyss", "controller": "A", "card": "The Abyss"}, *creatures],
        "triggers": [{"id": "T", "source": "abyss", "event_player": upkeep}],
    }
    assert candidates(doc) == {"t": [c["id"] for c in creatures if c["controller"] == upkeep and "artifact" not in c["types"]]}
    assert compile_facts(parse_scenario(doc)).abilities[0].chooser == upkeep
