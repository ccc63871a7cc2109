"""Boards from real cards (issue 37, docs/rl.md "Boards from real cards"): ``rl.boards`` and
``triggerstack boards`` draw random boards — real cards whose triggered abilities the reader reads
whole, around one event (a creature enters, a board wipe, an attack, a spell cast) — each a valid
scenario naming its cards, within the sizes asked, answered by ``count``, the same for the same seed;
and, without the extra, the generated families.

Rules: 603.2 and 603.6a (what an event triggers: the entering creature's own "a creature enters"
too), 603.10a (a board wipe's dying creatures see each other die, and their triggers say who
controlled their source, 603.3a), 506.2 and 508.1 (one attacking player, its defending player the
event's), 601.2 (a spell cast is on the stack: its "When you cast this spell" triggers).

Private unit: the board drawer (solver/_boards: _draw, _assemble, _generated, _cli) and the card pool's events (model/cards/_pool).
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from triggerstack.model import MissingExtra, Scenario, UsageError
from triggerstack.model.cards._pool import names_event
from triggerstack.solver import ActionLayout, count
from triggerstack.solver._boards import _cli as boards_cli
from triggerstack.solver._boards._assemble import Scene
from triggerstack.solver._boards._board import Board
from triggerstack.solver._boards._draw import MAX_OUTCOMES, MOST_ABILITIES, MOST_BODIES, draw
from triggerstack.solver._boards._generated import generated

from .conftest import main

try:
    from triggerstack.model.cards import corpus

    corpus()
    CARDS = True
except MissingExtra:
    CARDS = False

needs_cards = pytest.mark.skipif(not CARDS, reason="the extra [cards] is not installed")
EVENTS = ("enters", "dies", "attacks", "cast")
VERB = {"enters": ("enter",), "dies": ("dies", "die", "leaves", "graveyard"), "attacks": ("attack",), "cast": ("cast",)}
"""A word of each event that a trigger condition it makes says (its own, or a watcher's)."""


@pytest.fixture(scope="module")
def card_boards() -> list[Board]:
    if not CARDS:
        pytest.skip("the extra [cards] is not installed")
    return list(draw(37, 300, players=(2, 4), cards=True))


def _documents(boards: list[Board]) -> list[str]:
    return [json.dumps(b.document, sort_keys=True) for b in boards]


# -- the same seed, the same boards ---------------------------------------------------------------


@pytest.mark.parametrize("cards", [pytest.param(True, marks=needs_cards), False])
def test_the_same_seed_gives_the_same_boards(cards: bool) -> None:
    first = _documents(list(draw(5, 40, cards=cards, players=(2, 3))))
    again = _documents(list(draw(5, 40, cards=cards, players=(2, 3))))
    other = _documents(list(draw(6, 40, cards=cards, players=(2, 3))))
    assert first == again
    assert first != other
    assert len(set(first)) > 30  # boards, not one board again and again


def test_the_constants_the_command_line_repeats_are_the_same() -> None:
    """The command line's parser imports nothing heavy, so it repeats two constants: held equal here."""
    from triggerstack.model.cards._pool import EVENTS as POOL_EVENTS

    assert boards_cli.EVENTS == POOL_EVENTS == EVENTS
    assert boards_cli.MAX_OUTCOMES == MAX_OUTCOMES
    assert (boards_cli.MOST_ABILITIES, boards_cli.MOST_BODIES) == (MOST_ABILITIES, MOST_BODIES)


# -- valid, named, read whole ---------------------------------------------------------------------


@needs_cards
def test_every_board_is_valid_and_every_object_names_a_card_read_whole(card_boards: list[Board]) -> None:
    from triggerstack.model.cards import characteristics, read

    for board in card_boards:
        assert board.source == "cards"
        again = Scenario.model_validate(json.loads(json.dumps(board.document)))  # the line a user reads
        assert again.model_dump() == board.scenario.model_dump()
        objects = {o["id"]: o for o in board.document["objects"]}
        for obj in board.document["objects"]:
            card = corpus().lookup(obj["card"])
            assert characteristics(card)[1] == [], card.name
            assert all(a.fragment is not None for a in read(card)), card.name
        for trig in board.document["triggers"]:
            assert set(trig) <= {"id", "source", "card_ability", "source_controller", "event_player"}
            assert trig["source"] in objects and "card" in objects[trig["source"]]
            assert 1 <= trig["card_ability"] <= len(read(corpus().lookup(objects[trig["source"]]["card"])))
        assert sorted(board.cards) == sorted(o["card"] for o in board.document["objects"])


@needs_cards
def test_count_answers_every_board_within_the_bound(card_boards: list[Board]) -> None:
    for board in card_boards:
        assert count(board.scenario) == board.count <= MAX_OUTCOMES
    assert max(b.count for b in card_boards) > 1000  # the bound is what keeps them playable, not their shape


@needs_cards
def test_the_boards_draw_on_many_cards_and_every_keyword(card_boards: list[Board]) -> None:
    names = {n for b in card_boards for n in b.cards}
    assert len(names) > 1000
    keys = Counter(k for b in card_boards for o in b.scenario.objects for k in ("hexproof", "shroud") if getattr(o, k))
    protected = sum(bool(o.protection) for b in card_boards for o in b.scenario.objects)
    warded = sum(len(b.scenario.reactions) for b in card_boards)
    assert keys["hexproof"] and keys["shroud"] and protected and warded


# -- sizes ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("cards", [pytest.param(True, marks=needs_cards), False])
@pytest.mark.parametrize(("players", "abilities", "bodies"), [(2, (2, 8), (0, 3)), ((3, 4), 5, 1), (4, (1, 3), (2, 2))])
def test_sizes_stay_within_the_bounds_asked(
    cards: bool, players: int | tuple[int, int], abilities: int | tuple[int, int], bodies: int | tuple[int, int]
) -> None:
    lo, hi = (abilities, abilities) if isinstance(abilities, int) else abilities
    seats = (players, players) if isinstance(players, int) else players
    least = bodies if isinstance(bodies, int) else bodies[0]
    for board in draw(11, 25, players=players, abilities=abilities, bodies=bodies, cards=cards, max_outcomes=10**4):
        assert lo <= len(board.scenario.triggers) <= hi
        assert seats[0] <= len(board.scenario.players) <= seats[1]
        assert board.count <= 10**4
        sides = Counter(o.controller or o.owner for o in board.scenario.objects if o.kind != "spell")
        assert all(sides[p.id] >= least for p in board.scenario.players)


def test_arguments_out_of_range_are_refused_naming_them() -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"players": 5}, "players"),
        ({"players": (3, 2)}, "players"),
        ({"abilities": 0}, "abilities"),
        ({"abilities": (2, "x")}, "abilities"),
        ({"events": ["enters", "blocks"]}, "events"),
        ({"bodies": -1}, "bodies"),
        ({"abilities": 10**6}, "abilities"),  # a draw adds permanents until they wait: bounded
        ({"abilities": (2, MOST_ABILITIES + 1)}, "abilities"),
        ({"bodies": MOST_BODIES + 1}, "bodies"),
        ({"max_outcomes": 0}, "max_outcomes"),
        ({"n": -1}, "n"),
        ({"seed": -1}, "seed"),  # random.Random(-1) draws what Random(1) does
        ({"seed": "7"}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"layout": "big"}, "layout"),
    ]
    for kwargs, said in cases:
        asked: dict[str, Any] = {"seed": 1, "n": 1, "cards": False, **kwargs}
        with pytest.raises(UsageError, match=f"^{said}: "):
            next(draw(**asked))
    with pytest.raises(UsageError, match="no board with 12 to 12 abilities"):
        next(draw(1, 1, abilities=12, events="cast", bodies=0, cards=False, max_outcomes=100))
    small = ActionLayout(abilities=2, things=2, modes=1, divide=0, passes=1, players=2)
    with pytest.raises(UsageError, match="did not fit the layout: give a larger layout"):
        next(draw(1, 1, players=(3, 4), cards=False, layout=small))


@needs_cards
def test_a_board_whose_count_a_limit_refuses_is_drawn_again() -> None:
    """Twenty abilities of real cards: some draws have an ability with more legal choices than
    counting lists (--max-choices). Such a board cannot be counted, so it is drawn again like one
    over max_outcomes — never the generator's end with the counter's refusal."""
    with pytest.raises(UsageError, match="no board with 20 to 20 abilities"):  # the pool decides which seeds
        next(draw(3, 1, abilities=20))  # finds a countable board: seed 1, then 2, did once the reader read more cards


# -- each event makes its own triggers -------------------------------------------------------------


@pytest.mark.parametrize("cards", [pytest.param(True, marks=needs_cards), False])
@pytest.mark.parametrize("event", EVENTS)
def test_each_event_makes_triggers_of_its_kind(cards: bool, event: str) -> None:
    boards = list(draw(23, 30, events=[event], players=(2, 4), cards=cards))
    assert {b.event for b in boards} == {event}
    for board in boards:
        assert board.scenario.triggers
        for trig in board.scenario.triggers:
            # the trigger condition: from its "when", "whenever" or "at" to the comma (a keyword's
            # reminder may come first: "Partner with Merry … — When this permanent enters, …")
            said = re.search(r"\b(?:whenever|when|at)\b[^,]*", trig.text.lower())
            condition = said.group(0) if said else trig.text.split(",")[0].lower()
            assert any(word in condition for word in VERB[event]), (event, trig.text)
        _holds_to_its_event(board)


def _holds_to_its_event(board: Board) -> None:
    """What the event leaves on the board: the dead in graveyards, the attackers tagged, the spell."""
    doc, objects = board.document, {o.id: o for o in board.scenario.objects}
    if board.event == "dies":
        assert all(o.kind == "card" and o.zone == "graveyard" for o in objects.values() if "creature" in o.types)
        for trig in doc["triggers"]:
            if objects[trig["source"]].kind == "card":
                assert trig["source_controller"] == objects[trig["source"]].owner  # 603.10a, 603.3a
    if board.event == "attacks":
        attackers = [o for o in objects.values() if "attacking" in o.tags]
        assert attackers and {o.controller for o in attackers} == {board.scenario.players[0].id}  # 506.2
    if board.event == "cast":
        assert [o.kind for o in objects.values()].count("spell") == 1
    if board.event != "cast":
        assert all(o.kind != "spell" for o in objects.values())


def test_who_sees_a_creature_enter() -> None:
    """603.6a: the entering creature's own "another creature enters" does not see itself; a
    watcher's "you control" reads the entering creature's controller; a "self" ability triggers only
    for the one that entered."""
    pool = generated()
    flametongue, warden, drainer = pool.makers[0], pool.makers[1], pool.makers[2]
    board = Scene(random.Random(0), ["A", "B"], "enters")
    board.add(warden, "A", entered=True)  # "Whenever another creature enters": not for itself
    board.add(flametongue, "A")  # its enters ability: it did not enter
    board.add(warden, "B")
    board.add(drainer, "B")  # "another creature you control enters": A's entered
    board.add(drainer, "A")
    assert [(p.id, t.fragment["text"][:20]) for p, t, _ in board.triggered()] == [
        ("b1", "Whenever another cre"),
        ("a3", "Whenever another cre"),
    ]


def test_a_board_wipe_is_seen_by_every_dying_creature() -> None:
    """603.10a: "whenever another creature dies" on a creature that dies in the same wipe triggers
    for each other one; its own dies ability once; an enchantment's "a creature you control dies"
    for each of its controller's."""
    pool = generated()
    artist, dies_self, enchantment = pool.makers[6], pool.makers[5], pool.makers[7]
    board = Scene(random.Random(0), ["A", "B"], "dies")
    for entry, player in [(artist, "A"), (dies_self, "B"), (pool.bodies[0], "B"), (enchantment, "B")]:
        board.add(entry, player)
    made = Counter(p.id for p, _, _ in board.triggered())
    assert made == {"a1": 2, "b1": 1, "b3": 2}
    doc = board.document().document
    assert {t["source"]: t.get("source_controller") for t in doc["triggers"]} == {"a1": "A", "b1": "B", "b3": None}


@needs_cards
def test_event_player_is_given_where_the_reading_names_it() -> None:
    """A trigger whose reading names the event's player (``controller: event``: "defending player
    controls") gets ``event_player``, and only such a trigger: in an attack, the defending player
    (506.2), never the attacking one."""
    from triggerstack.model.cards import read

    seen = 0
    for board in draw(3, 150, events="attacks", players=(2, 4), cards=True):
        cards = {o["id"]: o["card"] for o in board.document["objects"]}
        for written in board.document["triggers"]:
            ability = read(corpus().lookup(cards[written["source"]]))[written["card_ability"] - 1]
            assert ability.fragment is not None
            assert names_event(ability.fragment) == ("event_player" in written)
            if "event_player" in written:
                seen += 1
                assert written["event_player"] != board.scenario.players[0].id
    assert seen


# -- the environment and the fallback --------------------------------------------------------------


def test_without_cards_the_generated_families_are_drawn() -> None:
    for board in draw(2, 60, players=(2, 4), cards=False):
        assert board.source == "generated" and board.cards == ()
        assert all(o.card is None and o.types for o in board.scenario.objects)
        assert count(board.scenario) == board.count
    ward = [b for b in draw(2, 200, cards=False) if b.scenario.reactions]
    assert ward and all(r.id.endswith("-ward") for b in ward for r in b.scenario.reactions)


def test_the_environment_plays_the_boards() -> None:
    """``rl.boards`` feeds the environment: a list of boards is a fixed source (the layout covers
    them), and each episode ends in an outcome ``check`` accepts."""
    pytest.importorskip("pettingzoo")
    from triggerstack.model import Outcome
    from triggerstack.solver import check, rl

    boards = list(rl.boards(9, 12, cards=CARDS or False, max_outcomes=10**4))
    assert all(isinstance(b, Scenario) for b in boards)
    game = rl.env(boards)
    for episode in range(6):
        game.reset(seed=episode)
        for agent in game.agent_iter():
            observation, _, terminated, _, info = game.last()
            action = None if terminated else game.action_space(agent).sample(observation["action_mask"])
            game.step(action)
        reached = Outcome.model_validate_json(info["outcome"])
        assert any(check(b, reached).legal for b in boards)


@pytest.mark.parametrize("cards", [pytest.param(True, marks=needs_cards), False])
def test_a_board_played_travels_by_pickle_and_arrives_the_same(cards: bool) -> None:
    """A drawn board whose facts were compiled (played, counted) pickles — to a worker process or
    from one — small, and arrives as the same scenario: the same canonical JSON, the same controllers
    (603.3a) and the same count; the facts it carries are not kept on its scenario
    (tests/test_boards_built.py holds them to compiling it again)."""
    import pickle

    from triggerstack.model import facts_of

    for board in draw(53, 120, players=(2, 4), cards=cards):
        facts_of(board.scenario)  # compiled: read-only mappings that do not pickle themselves
        data = pickle.dumps(board)
        arrived = pickle.loads(data)
        assert arrived.scenario._facts is None  # carried beside it (Board.compiled), not on it
        assert arrived.scenario.model_dump_json() == board.scenario.model_dump_json()
        assert arrived.scenario.controls == board.scenario.controls
        assert count(arrived.scenario) == board.count
        assert len(data) < 64_000  # its fields and facts, not a compiled stepper


def test_a_layout_keeps_only_the_boards_that_fit_it() -> None:
    from triggerstack.model import compile_facts
    from triggerstack.solver import ActionLayout, Stepper

    layout = ActionLayout(abilities=4, things=10, modes=2, divide=3, passes=2, players=3)
    for board in draw(4, 20, abilities=(1, 4), players=(2, 3), cards=False, layout=layout):
        assert layout.fits(Stepper(compile_facts(board.scenario)).needs)


# -- the command line ------------------------------------------------------------------------------


def test_the_command_writes_one_scenario_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["boards", "--seed", "4", "-n", "6", "--players", "2-3", "--abilities", "3-5", "--generated"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 6
    for line in lines:
        scenario = Scenario.model_validate(json.loads(line))
        assert 3 <= len(scenario.triggers) <= 5 and 2 <= len(scenario.players) <= 3
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines() == lines
    expected = [
        json.dumps(b.document, ensure_ascii=False, separators=(",", ":"))
        for b in draw(4, 6, players=(2, 3), abilities=(3, 5), cards=False)
    ]
    assert lines == expected


@needs_cards
def test_the_command_draws_real_cards_into_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "boards"
    assert main(["boards", "--seed", "8", "-n", "3", "--events", "dies,cast", "--out", str(folder)]) == 0
    written = capsys.readouterr().out.split()
    assert written == [str(folder / f"board-{i:05d}.json") for i in (1, 2, 3)]
    for path in written:
        doc: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
        assert all("card" in o for o in doc["objects"])
        assert main(["count", path]) == 0


@pytest.mark.parametrize(
    ("flags", "flag"),
    [
        (["--abilities", "5-2"], "--abilities"),
        (["--abilities", "0"], "--abilities"),
        (["--players", "5"], "--players"),
        (["--players", "two"], "--players"),
        (["--events", "enters,blocks"], "--events"),
        (["-n", "-1"], "-n"),
        (["--seed", "x"], "--seed"),
        (["--max-outcomes", "0"], "--max-outcomes"),
        (["--bodies", "1-x"], "--bodies"),
        (["--abilities", "1000000"], "--abilities"),
        (["--bodies", "21"], "--bodies"),
    ],
)
def test_a_bad_flag_is_one_line_naming_it(flags: list[str], flag: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["boards", *flags])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and f"argument {flag}" in err


def test_sizes_out_of_reach_exit_2_naming_the_flags(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--abilities", "12", "--events", "cast", "--bodies", "0", "--max-outcomes", "100", "-n", "1"]
    assert main(["boards", "--generated", *argv]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--abilities" in err and "--max-outcomes" in err


def test_an_out_folder_that_cannot_be_made_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["boards", "--generated", "-n", "1", "--out", str(blocker / "sub")]) == 2
    assert "--out" in capsys.readouterr().err


@needs_cards
@pytest.mark.slow  # 200 boards drawn, read back and counted (about 5 s)
def test_the_boards_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/boards.py's smoke run: every board valid, named and counted, and the report says so."""
    import importlib.util

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("boards_bench", ROOT / "benchmarks" / "boards.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert (
        "| valid scenarios | 200 of 200 |" in out
        and "| answered by `count`, the count the draw saw | 200 of 200 |" in out
    )


@pytest.mark.parametrize("cards", [False, *([True] if CARDS else [])])
def test_the_stream_of_a_seed_is_the_same_drawn_in_any_number_of_workers(cards: bool) -> None:
    """Issue 53: each board is drawn from a generator seeded by the seed and its place alone, so
    boards drawn ahead in worker processes come in the same order, the same boards, for any N; and
    a stream does not hang on the boards before it (board 7 of a 9-board stream is board 7 of a
    20-board one)."""
    asked: dict[str, Any] = {"players": (2, 3), "abilities": (2, 6), "cards": cards, "max_outcomes": 10**4}
    alone = _documents(list(draw(8, 9, **asked)))
    assert _documents(list(draw(8, 9, workers=1, **asked))) == alone
    assert _documents(list(draw(8, 9, workers=2, **asked))) == alone
    assert _documents(list(draw(8, 20, **asked)))[:9] == alone
    assert _documents(list(draw(9, 9, **asked))) != alone


def test_a_worker_says_sizes_out_of_reach_as_this_process_does() -> None:
    small = ActionLayout(abilities=2, things=2, modes=1, divide=0, passes=1, players=2)
    with pytest.raises(UsageError, match="did not fit the layout: give a larger layout"):
        next(draw(1, 1, players=(3, 4), cards=False, layout=small, workers=1))
