"""Issue 54, items 3 and 4: what the format can say, read — each class by made-up wordings no card
prints (the probes), then by the cards that showed it — and what it cannot, refused naming the real
cause (docs/cards.md, "What the reader understands", "Tags").

Private unit: model/cards/_states.keyword_tag, the tag a keyword only the board knows is carried as."""

from __future__ import annotations

from typing import Any

import pytest
from triggerstack.model import Scenario

from .cards_extra import require_cards

require_cards()

from triggerstack.model.cards import (  # noqa: E402
    Card,
    corpus,
    expand,
    read,
)
from triggerstack.model.cards._states import keyword_tag  # noqa: E402
from triggerstack.solver import LegalOutcomes  # noqa: E402

from .test_card_readings import card_targets, probe, refused, targets  # noqa: E402

# -- states the board knows, carried as tags ---------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "tag"),
    [
        ("that was dealt damage this turn", "was dealt damage this turn"),
        ("that dealt damage this turn", "dealt damage this turn"),
        ("that attacked this turn", "attacked this turn"),
        ("that entered this turn", "entered this turn"),
        ("that entered the battlefield this turn", "entered this turn"),
    ],
)
def test_what_happened_to_a_permanent_this_turn_is_a_tag(words: str, tag: str) -> None:
    """601.2c: "target artifact … that was dealt damage this turn" asks for what the board alone knows
    (120.1, 508.1a, 603.6a): the tag of the Oracle's words, with the phrase's other qualifiers."""
    (req,) = targets(f"When this creature enters, tap target artifact an opponent controls {words}.")
    assert req["filter"] == {"type": "artifact", "controller": "opponent", "tag": tag}
    (req,) = targets(f"Whenever this creature attacks, untap each of up to two target tapped Elves {words}.")
    assert req["filter"] == {"subtype": "elf", "tag": ["tapped", tag]} and req["max"] == 2


@pytest.mark.parametrize(
    ("words", "tag"),
    [
        ("that was put there from the battlefield this turn", "put there from the battlefield this turn"),
        ("that was put there from anywhere this turn", "put there this turn"),
    ],
)
def test_a_card_put_into_a_graveyard_this_turn_is_a_tag(words: str, tag: str) -> None:
    """400.7: a card put into a graveyard is a new object; where it came from is the board's to say."""
    (req,) = targets(f"When this creature enters, exile target artifact card in your graveyard {words}.")
    assert req["filter"] == {"type": "artifact", "kind": "card", "zone": "graveyard", "owner": "you", "tag": tag}


def test_a_state_tag_decides_the_candidates() -> None:
    """A creature the scenario tags "was dealt damage this turn" is a candidate; one without is not."""
    doc = {
        "players": ["A", "B"],
        "objects": [
            {"id": "m", "controller": "A", "card": "Manticore"},
            {"id": "hurt", "controller": "B", "types": ["creature"], "tags": ["was dealt damage this turn"]},
            {"id": "whole", "controller": "B", "types": ["creature"]},
        ],
        "triggers": [{"id": "T", "source": "m"}],
    }
    assert [o.stack[0].targets for o in LegalOutcomes(Scenario.model_validate(doc))] == [{"t": ("hurt",)}]


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("target attacking equipped creature", {"type": "creature", "tag": ["attacking", "equipped"]}),
        ("target creature that isn't enchanted", {"type": "creature", "not": {"tag": "enchanted"}}),
        ("target face-up exiled card", {"kind": "card", "zone": "exile", "not": {"tag": "face down"}}),
        ("target exiled card with suspend", {"kind": "card", "zone": "exile", "tag": "suspend"}),
        (
            "target creature or suspended card",
            {"any": [{"type": "creature"}, {"kind": "card", "zone": "exile", "counter": "time", "tag": "suspend"}]},
        ),
    ],
)
def test_a_state_word_is_its_tag_and_suspended_is_702_62b(words: str, expected: dict[str, Any]) -> None:
    """301.5, 303.4: equipped, enchanted; 406.3: a card exiled face down; 702.62b: a card is suspended
    when it is in exile, has suspend and has a time counter on it."""
    (req,) = targets(f"When this creature enters, remove a counter from {words}.")
    assert req["filter"] == expected


def test_a_state_before_a_list_of_nouns_is_refused() -> None:
    """Nyx Herald: "target enchanted creature or enchantment creature" — is the enchantment creature
    enchanted too? The phrase does not say: refused, not guessed."""
    refused("When this creature enters, tap target equipped creature or Vehicle.", "a state before a list")
    assert read(corpus().lookup("Nyx Herald"))[0].unread is not None


# -- keyword qualities ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("with a cycling ability", {"tag": "cycling"}),
        ("with cycling abilities", {"tag": "cycling"}),
        ("with a kicker ability", {"tag": "kicker"}),
        ("with mutate", {"tag": "mutate"}),
        ("without unearth", {"not": {"tag": "unearth"}}),
    ],
)
def test_a_keyword_quality_is_its_tag(words: str, expected: dict[str, Any]) -> None:
    """702: "target card with a cycling ability" asks for the keyword's ability, carried as its tag."""
    (req,) = targets(f"When this creature enters, return target card {words} from your graveyard to your hand.")
    assert req["filter"] == {"kind": "card", "zone": "graveyard", "owner": "you", **expected}


def test_a_keyword_quality_after_one_noun_of_several_types_is_every_types() -> None:
    """ "target artifact or creature card with a cycling ability": one noun, "card", of two types —
    the quality is both's (Spellpyre Phoenix); after a list of nouns it stays refused."""
    (req,) = targets(
        "When this creature enters, return target artifact or creature card with a cycling ability to your hand."
    )
    assert [f["tag"] for f in req["filter"]["any"]] == ["cycling", "cycling"]
    refused(
        "When this creature enters, tap target artifact, Vehicle, or creature with toxic.",
        "keyword quality after a list",
    )


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("Cycling {2}", "cycling"),
        ("Swampcycling {2}", "cycling"),  # 702.29e–f: a typecycling ability is a cycling ability
        ("Basic landcycling {1}{G}", "cycling"),
        ("Multikicker {1}", "kicker"),  # 702.33c
        ("Megamorph {2}{G}", "morph"),  # 702.37b
        ("Toxic 2", "toxic"),
        ("Suspend 4—{R}", "suspend"),
        ("First strike", "first strike"),
        ("Ward {2}", None),
        ("Equip {1}", None),
    ],
)
def test_a_keyword_lines_tag(line: str, tag: str | None) -> None:
    assert keyword_tag(line) == tag


@pytest.mark.parametrize(
    ("name", "tag"),
    [("Ash Barrens", "cycling"), ("Den Protector", "morph"), ("Everflowing Chalice", "kicker")],
)
def test_a_cards_keyword_variant_gives_the_keywords_tag(name: str, tag: str) -> None:
    """A card with basic landcycling, megamorph or multikicker has a cycling, morph or kicker ability."""
    doc = {"players": ["A"], "objects": [{"id": "x", "controller": "A", "card": name}]}
    assert tag in expand(doc)["objects"][0]["tags"]


# -- who "that player", "they" and "their" are ---------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (
            "When this creature dies, target opponent discards a card. Tap up to two target creatures that player controls.",
            "controller",
        ),
        ("When this creature enters, choose target player and up to one target artifact they control.", "controller"),
        (
            "When this creature enters, target player shuffles any number of target cards from their graveyard into their library.",
            "owner",
        ),
    ],
)
def test_that_player_after_one_target_player_is_the_player_chosen(text: str, key: str) -> None:
    """601.2c: where the only player the effect names before it is one target player, "that player"
    ("they", "their") is the player chosen for it: ``{"target_of": "t"}`` (Yosei, Loaming Shaman)."""
    reqs = targets(text)
    assert reqs[1]["filter"][key] == {"target_of": "t"}


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            "When this creature enters, target player and target opponent each draw a card. Tap target creature that player controls.",
            "after 2 target players",
        ),
        (
            "Whenever an opponent casts a spell, target player mills a card. Tap target creature that player controls.",
            "names a player too",
        ),
        (
            "When this creature enters, target player draws a card. Tap target creature that opponent controls.",
            "may not be an opponent",
        ),
        (
            "When this creature enters, for each opponent, tap target creature that player controls.",
            "a target required for each opponent",
        ),
        ("When this creature enters, tap up to one target creature they control.", "does not name one player"),
    ],
)
def test_that_player_where_the_words_name_more_than_one_is_refused(text: str, words: str) -> None:
    refused(text, words)


def test_yoseis_permanents_are_the_chosen_players() -> None:
    """With B chosen for t, only B's permanents may be tapped; with C, only C's."""
    doc = {
        "players": ["A", "B", "C"],
        "objects": [
            {"id": "yosei", "kind": "card", "owner": "A", "zone": "graveyard", "card": "Yosei, the Morning Star"},
            {"id": "pb", "controller": "B", "types": ["artifact"]},
            {"id": "pc", "controller": "C", "types": ["artifact"]},
        ],
        "triggers": [{"id": "Y", "source": "yosei", "source_controller": "A"}],
    }
    pairs = {(o.stack[0].targets["t"], o.stack[0].targets.get("t2", ())) for o in LegalOutcomes(Scenario.model_validate(doc))}
    for player, chosen in pairs:
        owner = {"pb": ("B",), "pc": ("C",)}
        assert all(owner[p] == player for p in chosen), (player, chosen)
    assert (("B",), ("pb",)) in pairs and (("C",), ("pc",)) in pairs and (("B",), ("pc",)) not in pairs


def test_they_after_an_event_naming_one_player_is_that_player() -> None:
    """603.2: "At the beginning of each opponent's upkeep, … target creature they control" (Persistent
    Constrictor): the event's player."""
    (req,) = targets("At the beginning of each opponent's upkeep, tap up to one target creature they control.")
    assert req["filter"] == {"type": "creature", "controller": "event"}
    assert card_targets("Persistent Constrictor")[0]["filter"]["controller"] == "event"


# -- words after the phrase that say no more of the target --------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "When this creature enters, destroy target artifact if it's tapped.",
        "When this creature enters, exile target creature if it blocked this turn.",
        "When this creature enters, put a +1/+1 counter on target creature you control if it has no counters on it.",
    ],
)
def test_an_if_after_the_phrase_is_checked_as_it_resolves(text: str) -> None:
    """608.2c: "destroy target creature if it's tapped" may target any creature; the "if" is checked as
    the ability resolves (Deathbringer Liege, Vizier of Deferment, The Hippodrome)."""
    (req,) = targets(text)
    assert req["text"] in ("target artifact", "target creature", "target creature you control")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("two target players exchange life totals", {"kind": "player"}),
        ("target opponent looks at the top card of your library", {"kind": "player", "controller": "opponent"}),
        ("up to two target players each manifest the top card of their library", {"kind": "player"}),
        ("you and target opponent each secretly choose a number", {"kind": "player", "controller": "opponent"}),
        ("search target opponent's library for two cards and exile them", {"kind": "player", "controller": "opponent"}),
        ("look at target opponent's hand and choose a card from it", {"kind": "player", "controller": "opponent"}),
        ("tap target creature and this creature gets +1/+0", {"type": "creature"}),
        ("switch target creature's power and toughness until end of turn", {"type": "creature"}),
        ("you gain life equal to target artifact's mana value", {"type": "artifact"}),
        ("exile any number of target players' graveyards", {"kind": "player"}),
    ],
)
def test_a_verb_after_the_phrase_ends_it(text: str, expected: dict[str, Any]) -> None:
    """601.2c: the phrase is its noun and qualifiers; a verb after it ("exchange", "looks", "each
    manifest"), "and this creature …" or a possessive's "power and toughness" says no more of it."""
    (req,) = targets(f"When this creature enters, {text}.")
    assert req["filter"] == expected


# -- qualifiers after the noun ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("that's one or more colors", {"kind": "permanent", "colorless": False}),  # 105.2
        ("that doesn't have a +1/+1 counter on it", {"kind": "permanent", "not": {"counter": "+1/+1"}}),  # 122.1
        ("that doesn't have a stun counter on it", {"kind": "permanent", "not": {"counter": "stun"}}),
        ("that isn't an artifact or token", {"kind": "permanent", "not": {"any": [{"type": "artifact"}, {"tag": "token"}]}}),
        ("that isn't a Saga", {"kind": "permanent", "not": {"subtype": "saga"}}),
        ("you own but don't control", {"kind": "permanent", "owner": "you", "not": {"controller": "you"}}),  # 108.3-4
        (
            "you neither own nor control",
            {"kind": "permanent", "not": {"any": [{"owner": "you"}, {"controller": "you"}]}},
        ),
        (
            "with power or toughness 2",
            {"kind": "permanent", "all": [{"any": [{"power": {"eq": 2}}, {"toughness": {"eq": 2}}]}]},
        ),
        (
            "with mana value 1 or 2",
            {"kind": "permanent", "all": [{"any": [{"mana_value": {"eq": 1}}, {"mana_value": {"eq": 2}}]}]},
        ),
    ],
)
def test_a_qualifier_the_format_can_say_is_read(words: str, expected: dict[str, Any]) -> None:
    (req,) = targets(f"When this creature enters, tap target permanent {words}.")
    assert req["filter"] == expected


def test_from_the_battlefield_is_a_permanent_and_refused_after_a_card() -> None:
    """110.1: "other target creatures from the battlefield and/or creature cards from graveyards" is a
    creature permanent or a creature card in a graveyard (Angel of Serenity); "card on the battlefield"
    names no thing (a card there is a permanent) and is refused."""
    (req,) = targets(
        "When this creature enters, exile up to two other target creatures from the battlefield and/or creature cards from graveyards."
    )
    assert req["filter"] == {"any": [{"type": "creature"}, {"type": "creature", "kind": "card", "zone": "graveyard"}]}
    assert req["other_than_source"] and req["max"] == 2
    refused("When this creature enters, exile target creature card on the battlefield.", "110.1")


def test_other_than_the_cards_short_name_is_the_source() -> None:
    """201.5: a card's text may call it by the first words of its name ("other than Rosie Cotton")."""
    card = Card(
        "Probe Beast of the Hills", "{2}{G}", "Creature", ("Creature",), ("Beast",), (), (), "2", "2",
        "Whenever you gain life, put a +1/+1 counter on target creature you control other than Probe Beast.",
        "normal",
    )  # fmt: skip
    (ability,) = read(card)
    assert ability.fragment is not None and ability.fragment["targets"][0]["other_than_source"]
    assert card_targets("Rosie Cotton of South Lane", 2)[0]["other_than_source"]


def test_a_spell_cast_targeting_something_is_no_requirement() -> None:
    """601.2c: "cast it … targeting that creature" is the cast spell's target (Ring Out)."""
    assert targets("When this creature dies, you may cast it without paying its mana cost targeting that creature.") == []
    assert card_targets("Ring Out") == []


# -- refusals name the real cause (item 4) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("words", "cause"),
    [
        ("target creature with power less than that creature's power", "a comparison with a number the board decides"),
        (
            "target creature with mana value less than or equal to the number of Elves you control",
            "a comparison with a number the board decides",
        ),
        ("any number of target creature cards with total mana value X or less", "a condition on the targets together"),
        ("target creature with power or toughness X or less", "a comparison with X in words this reader does not read (107.3)"),
        ("up to two target cards from a single graveyard", "a condition on the targets together"),
        ("two target creatures controlled by different players", "a condition on the targets together"),
        ("target creature blocking it", "a relation to another object or player"),
        ("target creature that crewed it this turn", "a relation to another object or player"),
        ("target creature controlled by the player to your left", "a relation to another object or player"),
        ("target creature you control with the greatest power", "a comparison with a number the board decides"),
        ("target creature card of an opponent's choice", "a target another player chooses (700.2e)"),
        ("target card named Grizzly Bears", "a name, which a filter cannot say"),
        ("target creature with a vow counter on it beside the river", "words after a target phrase this reader does not know"),
    ],
)
def test_a_refusal_names_what_no_filter_can_say(words: str, cause: str) -> None:
    """A door never guesses, and says why: the words, and what they say that a filter cannot."""
    refused(f"When this creature enters, exile {words}.", cause)


def test_an_amount_divided_up_to_what_the_board_decides_is_named() -> None:
    """601.2d: "distribute up to that many counters among …" (Lathiel) named the word 'up' as an unknown amount."""
    refused(
        "At the beginning of each end step, distribute up to that many +1/+1 counters among any number of target creatures.",
        "an amount divided that the board decides or the player chooses: 'up to that many",
    )


def test_the_probe_reads_a_made_up_card_whole() -> None:
    """The helper itself: a made-up card's one ability, read."""
    assert isinstance(probe("When this creature enters, tap target creature that attacked this turn."), dict)


# -- newly read cards, each checked by hand against its Oracle text (the auditor's list) ---------------

NEWLY_READ = [  # (card, ability, requirement, its exact filter)
    ("Manticore", 1, 1, {"type": "creature", "controller": "opponent", "tag": "was dealt damage this turn"}),
    ("Red Guardian, Super-Soldier", 1, 1, {"type": "creature", "controller": "opponent", "tag": "dealt damage this turn"}),
    ("Octomancer", 1, 1, {"type": "creature", "tag": ["token", "entered this turn"]}),
    ("Besieged Viking Village", 1, 1, {"type": "creature", "controller": "you", "tag": "attacked this turn"}),
    ("Yosei, the Morning Star", 1, 2, {"kind": "permanent", "controller": {"target_of": "t"}}),
    ("Cloak and Dagger, Entwined", 1, 2, {"type": "creature", "controller": {"target_of": "t"}}),
    ("Loaming Shaman", 1, 2, {"kind": "card", "zone": "graveyard", "owner": {"target_of": "t"}}),
    ("Deathbringer Liege", 2, 1, {"type": "creature"}),
    ("Devourer of Destiny", 1, 1, {"kind": "permanent", "colorless": False}),
    ("Coiling Stalker", 1, 1, {"type": "creature", "controller": "you", "not": {"counter": "+1/+1"}}),
    ("Coveted Falcon", 1, 1, {"kind": "permanent", "owner": "you", "not": {"controller": "you"}}),
    ("Rooting Moloch", 1, 1, {"kind": "card", "zone": "graveyard", "owner": "you", "tag": "cycling"}),
    ("Master of the Veil", 1, 1, {"type": "creature", "tag": "morph"}),
    ("Highway Reaver", 1, 1, {"type": "creature", "kind": "card", "zone": "graveyard", "owner": "you", "not": {"tag": "unearth"}}),
    ("Riftsweeper", 1, 1, {"kind": "card", "zone": "exile", "not": {"tag": "face down"}}),
    ("Item Shopkeep", 1, 1, {"type": "creature", "tag": ["attacking", "equipped"]}),
    ("Axis of Mortality", 1, 1, {"kind": "player"}),
    ("Crookclaw Transmuter", 1, 1, {"type": "creature"}),
    (
        "Frodo, Determined Hero", 1, 1,
        {"subtype": "equipment", "controller": "you", "all": [{"any": [{"mana_value": {"eq": 2}}, {"mana_value": {"eq": 3}}]}]},
    ),
    (
        "Tan Jolom, the Worldwalker", 1, 1,
        {"any": [
            {"type": "artifact", "controller": "you", "not": {"any": [{"type": "creature"}, {"tag": "token"}]}},
            {"type": "land", "controller": "you", "not": {"any": [{"type": "creature"}, {"tag": "token"}]}},
        ]},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("name", "n", "r", "expected"), NEWLY_READ, ids=[f"{c[0]}-{c[1]}" for c in NEWLY_READ])
def test_a_newly_read_card_reads_as_checked_by_hand(name: str, n: int, r: int, expected: dict[str, Any]) -> None:
    assert card_targets(name, n)[r - 1]["filter"] == expected
