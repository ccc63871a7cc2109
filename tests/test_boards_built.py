"""A drawn board is built without reading its cards again nor validating again what the generator
made valid (issue 53; ``solver/_boards/_built.py``), and its draw counts the abilities each piece
adds without counting the whole board again (``Scene.added``): each shortcut held to the path it
replaces, on thousands of boards of both pools — every size, event and number of players.

The properties (a seeded loop: each board is a fresh draw of its own generator, as the stream's):
* ``scenario_of(drawn) == Scenario.model_validate(drawn.document)``, field for field, in the fields
  each model was given (``model_dump(exclude_unset=True)``) and in the controllers derived (603.3a);
* a later pass's scenario (603.3b: what a ward fires) reads no card again, and is what reading them
  again would give;
* after each piece added, the abilities waiting are those counted before plus what that piece adds;
* a board pickled (drawn in a worker process) arrives with the facts its draw compiled, and they are
  what compiling its scenario again gives — its scenario sent later when it has no reactions, and
  what it was when read, or when the board is sent on before it is read.

Private unit: the drawn board's shortcuts (solver/_boards/_built.py, the facts a board carries: _board) held to the paths they replace (_assemble, _board, the pool, model/_facts.py).
"""

from __future__ import annotations

import pickle
import random
from types import MappingProxyType
from typing import Any

import pytest
from triggerstack.model import Scenario
from triggerstack.model._facts import Facts, compile_facts
from triggerstack.model._slots import unread
from triggerstack.model.cards._expand import expand
from triggerstack.model.cards._pool import EVENTS, Pool
from triggerstack.solver._boards._assemble import Drawn, Scene, assemble
from triggerstack.solver._boards._board import PLAYERS, pool_of
from triggerstack.solver._boards._built import scenario_of
from triggerstack.solver._boards._draw import draw
from triggerstack.solver._verbs.step import ActionLayout

from .cards_extra import board_pools

POOLS = board_pools()

BOARDS = 1500
"""Boards drawn per pool: each checked against the whole validation (a board of cards is read
again there, about a millisecond)."""


def _drawn(source: Pool, seed: int) -> Drawn | None:
    rng = random.Random(f"built {seed}")
    players = PLAYERS[: rng.randint(2, 4)]
    return assemble(rng, source, players, rng.choice(EVENTS), (1, rng.choice((2, 4, 8, 12))), (0, rng.randint(0, 4)))


def _same(built: Any, valid: Any) -> None:
    assert built == valid
    assert built.model_dump(exclude_unset=True) == valid.model_dump(exclude_unset=True)
    assert built.controls == valid.controls


@pytest.mark.parametrize("cards", POOLS)
def test_a_drawn_board_is_what_validating_its_document_gives(cards: bool) -> None:
    source = pool_of(cards)
    seen = warded = 0
    for seed in range(BOARDS):
        drawn = _drawn(source, seed)
        if drawn is None:
            continue
        seen += 1
        valid = Scenario.model_validate(drawn.document)
        _same(scenario_of(drawn), valid)
        _same(scenario_of(drawn), valid)  # and again, from the templates kept (the first may have made them)
        warded += bool(valid.reactions)
    assert seen > BOARDS // 2
    assert warded > 10  # wards are built too (a reaction each, its trigger's source the warded object)


@pytest.mark.parametrize("cards", POOLS)
def test_a_later_pass_reads_no_card_again_and_is_what_reading_them_gives(cards: bool) -> None:
    """603.3b: a ward fires its reaction into a later pass, whose scenario is the first one's
    written out (``model/_passes.py``): its cards are not read again — reading them again changes
    nothing, as this holds — unless a trigger asks for a card's ability."""
    later = {"later_pass": True}
    checked = 0
    for seed in range(300):
        drawn = _drawn(pool_of(cards), seed)
        if drawn is None:
            continue
        data = scenario_of(drawn).model_dump(by_alias=True)
        assert Scenario.model_validate(data, context=later) == Scenario.model_validate(expand(data), context=later)
        checked += 1
    assert checked > 100


def test_a_later_pass_still_reads_an_ability_a_trigger_asks_for() -> None:
    """An engine's ``next_pass`` hook may name a card's ability: that one is read."""
    if False not in POOLS or True not in POOLS:
        pytest.skip("the extra [cards] is not installed")
    doc = {"players": ["A", "B"], "objects": [{"id": "w", "card": "Soul Warden", "controller": "A"}],
           "triggers": [{"id": "T1@x", "source": "w", "card_ability": 1}]}  # fmt: skip
    scenario = Scenario.model_validate(doc, context={"later_pass": True})
    assert scenario.triggers[0].text.startswith("Whenever another creature enters")


@pytest.mark.parametrize("cards", POOLS)
def test_each_piece_adds_what_counting_the_whole_board_again_would(cards: bool) -> None:
    """603.2, 603.6a, 603.10a: a piece adds its own abilities the event triggers and, if it is
    one of the event's subjects (a creature that dies, an attacker), the abilities of the others
    that it fits — all of theirs when it is the first ("whenever you attack" once)."""
    source = pool_of(cards)
    for seed in range(600):
        rng = random.Random(f"added {seed}")
        players = PLAYERS[: rng.randint(2, 4)]
        kind = rng.choice(EVENTS)
        scene = Scene(rng, players, kind)
        if kind == "cast":
            scene.cast(rng.choice(source.spells))
        waiting = len(scene.triggered())
        for _ in range(rng.randint(1, 12)):
            entry = rng.choice(source.bodies if rng.random() < 0.3 else source.by_kind[kind])
            piece = scene.add(entry, rng.choice(players), entered=kind == "enters" and rng.random() < 0.2)
            waiting += scene.added(piece)
            assert waiting == len(scene.triggered()), (seed, kind)
            if rng.random() < 0.3:
                scene.pop()
                waiting = len(scene.triggered())


def _same_facts(arrived: Facts, compiled: Facts) -> None:
    """Every field of two compiled facts the same — read-only mappings read-only again, the
    lazy bars told in full — and nothing the solvers learned carried over (``memo``)."""
    assert arrived.scenario == compiled.scenario and arrived.scenario.controls == compiled.scenario.controls
    assert arrived.things == compiled.things and arrived.abilities == compiled.abilities
    assert arrived.blocks == compiled.blocks and arrived.first_waiting == compiled.first_waiting
    for name in ("thing_index", "ability_index", "opponents"):
        assert isinstance(getattr(arrived, name), MappingProxyType)
        assert dict(getattr(arrived, name)) == dict(getattr(compiled, name))
    for a in arrived.abilities:
        assert isinstance(a.mode_index, MappingProxyType)
        for m in a.modes:
            assert isinstance(m.requirement_index, MappingProxyType)
            assert all(isinstance(r.excluded, MappingProxyType) and isinstance(r.ignored, MappingProxyType)
                       for r in m.requirements)  # fmt: skip
    assert arrived.memo == {}


@pytest.mark.parametrize("cards", POOLS)
def test_a_board_drawn_in_a_worker_arrives_with_the_facts_compiling_it_gives(cards: bool) -> None:
    """Issue 53: a board pickles with the facts its draw compiled (to count it and lay it out), so
    the process that plays a board a worker drew does not compile it again — and those facts, sent
    and received, are what compiling the board's scenario where it arrives gives, on boards of every
    size, event and number of players, laid out or not (laid out, its stepper arrives with them:
    tests/test_step_shared.py holds it to the one laying them out there builds). Its
    document travels as one byte string, read when first asked for, and is the board's."""
    layout = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=4)
    seen = targets = 0
    for seed, laid in ((53, None), (54, layout)):
        for board in draw(seed, 400, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards, layout=laid):
            arrived = pickle.loads(pickle.dumps(board))
            assert arrived.compiled is not None and (arrived.compiled[1] is None) is (laid is None)  # and its stepper
            facts = arrived.compiled[0]
            assert unread(facts, "scenario") is not bool(board.scenario.reactions)  # sent later without reactions
            if seen % 2:  # sent on again before it is read: it reads it to send it, and arrives whole
                arrived = pickle.loads(pickle.dumps(arrived))
                assert arrived.compiled is not None
                facts = arrived.compiled[0]
            assert facts.scenario is arrived.scenario
            assert "document" not in vars(arrived)  # sent as one byte string, unread (sent on unread too)
            assert arrived.document == board.document and arrived == board  # read when asked for: the board's
            _same_facts(facts, compile_facts(board.scenario))
            seen += 1
            targets += any(r.candidates for a in facts.abilities for m in a.modes for r in m.requirements)
    assert seen == 800 and targets > 200


def test_the_example_stream_is_what_the_validated_path_gives() -> None:
    """The first 200 boards of a seed in the training example's layout (examples/rl/train_maskable_ppo.py,
    benchmarks/rl_drawn.py): one digest of each board's scenario, count and stepper's first choices
    as the stream builds them (templates, facts compiled once, options built once a board) equals
    the digest of the same boards built the validated way — each document validated and compiled
    again, counted and laid out anew. A change of what a board means, or of a board's count, fails it."""
    import hashlib
    import json

    from triggerstack.solver import count
    from triggerstack.solver._verbs.step import Stepper

    layout = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
    fast, valid = hashlib.sha256(), hashlib.sha256()
    for board in draw(72, 200, players=2, abilities=(2, 6), layout=layout, max_outcomes=20_000):
        assert board.compiled is not None
        stepper = board.compiled[1]
        assert stepper is not None
        again = Scenario.model_validate(board.document)
        laid = Stepper(compile_facts(again), stepper.options, layout)
        for digest, scenario, n, walker in (
            (fast, board.scenario, board.count, stepper),
            (valid, again, count(again), laid),
        ):
            digest.update(json.dumps(scenario.model_dump(mode="json"), sort_keys=True).encode())
            digest.update(repr((n, scenario.controls, walker.legal(walker.start()))).encode())
    assert fast.hexdigest() == valid.hexdigest()
