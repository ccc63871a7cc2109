"""What the environment would first build of a new board, built where the board is drawn and sent
with it (issue 53; ``solver/rl/_prepared.py``, ``Boards.prepare``): each seat's observation rows of
the board's first pass. The shortcut is held to the path it replaces:

* on boards of two to four players, of both the generated families and the card pool, an
  environment playing a board with its rows taken observes, at every decision of a random walk and
  from every seat, what an environment building them itself observes, and what the observer's
  reference (``Observer.encode``) encodes; the masks are the same;
* the rows are taken when they came (from a worker process drawing ahead, read back), once, and
  only in the layout they were made in; a board drawn in this process comes without them (its
  player builds them, once);
* an environment drawing from a stream asks for them; a stream of another layout is refused;
* a board read back sends its scenario as one byte string when it has no reactions: it is played
  from its facts alone, laid out and walked as the same board built from its scenario, and the
  scenario read when asked for is the board's;
* what its first pass asks of each waiting ability with nothing below it (whether it has a legal
  choice, its announcer), sent with it, is what its pass stepper builds itself.

Private unit: the rows sent with a board (solver/rl/_prepared, the hook of solver/_boards/_draw and
_board) and where the environment takes them (solver/rl/_env, _tracker); a field sent later
(model/_slots, model/_facts), the stepper laid out from facts (solver/_verbs/step/_walk) and a pass
stepper's answers and announcers (solver/_verbs/step/_pass, _announce).
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from triggerstack.model import UsageError, compile_facts
from triggerstack.model._slots import LATER, unread
from triggerstack.solver import ActionLayout, rl
from triggerstack.solver._boards._board import PREPARED, Board
from triggerstack.solver._boards._draw import Boards
from triggerstack.solver.rl import _prepared
from triggerstack.solver.rl._env import TriggerStackEnv

from .cards_extra import board_pools

LAYOUT = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=4)
POOLS = board_pools()
BOARDS = 60
"""Boards per pool and player count: each walked once, observed from every seat at every decision."""


def _asked(cards: bool, players: int) -> dict[str, Any]:
    return {"players": players, "abilities": (2, 6), "cards": cards, "layout": LAYOUT, "max_outcomes": 10**4}


def _same_walk(taken: TriggerStackEnv, built: TriggerStackEnv, rng: random.Random) -> int:
    """Walk both environments (on the same board) with the same random legal decisions, holding
    every seat's observation and mask equal, and equal to the reference; the decisions taken."""
    steps = 0
    for agent in taken.agent_iter():
        assert agent == built.agent_selection
        for seat in taken.agents:
            seen, again = taken.observe(seat), built.observe(seat)
            assert np.array_equal(seen["observation"], again["observation"]), (seat, taken.walk.decisions)
            assert np.array_equal(seen["action_mask"], again["action_mask"])
            if seat in taken._player_of:
                player = taken.player(seat)
                reference = taken.observer.encode(taken.stepper, taken.walk, player)
                assert np.array_equal(seen["observation"], reference), (seat, taken.walk.decisions)
        if taken.terminations[agent]:
            taken.step(None)
            built.step(None)
            continue
        action = rng.choice(np.flatnonzero(taken.mask()).tolist())
        taken.step(action)
        built.step(action)
        steps += 1
    return steps


class _Worker:
    """What a worker process does with a board (``_ahead._work``), in this process: drawn from the
    stream's ask, its hook run, pickled, and read back."""

    def __init__(self, stream: Boards) -> None:
        self.stream = stream

    def board(self, key: str, index: int, n: int | None) -> Board:
        found: Board = pickle.loads(pickle.dumps(self.stream.asked.board(key, index), pickle.HIGHEST_PROTOCOL))
        return found


@pytest.mark.parametrize("cards", POOLS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_rows_sent_with_a_board_are_the_rows_built_for_it(
    cards: bool, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = rl.boards(7 + players, BOARDS, **_asked(cards, players))
    taken = TriggerStackEnv(stream, layout=LAYOUT)  # asks the stream for them (Boards.prepare)
    assert stream.asked.prepare is _prepared.first_rows
    monkeypatch.setattr(stream, "_drawing_ahead", lambda: _Worker(stream))
    rng = random.Random(players)
    steps = 0
    for _ in range(BOARDS):
        board = stream.board()
        facts = stream.compiled(board.scenario)
        assert facts is not None and (PREPARED, _prepared.first_rows) in facts.memo  # they came
        taken.start(facts)
        assert (PREPARED, _prepared.first_rows) not in facts.memo  # and were taken, once
        assert taken._tracker is not None and any(k[1] == id(facts) for k in taken._tracker.shared)
        built = TriggerStackEnv(compile_facts(board.scenario), layout=LAYOUT)  # builds its own
        built.reset()
        steps += _same_walk(taken, built, rng)
    assert steps > BOARDS  # the walks went past their first decision


def test_rows_drawn_ahead_by_a_worker_are_taken() -> None:
    """A board read back from a worker process brings its rows, and the environment's observations
    on it are those of the same board built here."""
    stream = rl.boards(3, 6, workers=1, **_asked(False, 3))
    try:
        taken = TriggerStackEnv(stream, layout=LAYOUT)
        rng = random.Random(3)
        for _ in range(6):
            board = stream.board()
            assert isinstance(board.prepared, tuple) and board.prepared[0] == LAYOUT
            facts = stream.compiled(board.scenario)
            assert facts is not None
            taken.start(facts)
            assert taken._tracker is not None and any(k[1] == id(facts) for k in taken._tracker.shared)
            built = TriggerStackEnv(compile_facts(board.scenario), layout=LAYOUT)
            built.reset()
            _same_walk(taken, built, rng)
    finally:
        stream.close()


def test_a_board_drawn_here_comes_without_rows() -> None:
    """Drawn in the process that plays it, a board is drawn without the hook: its player builds
    its rows, once, rather than the draw and then the player."""
    stream = rl.boards(4, 2, **_asked(False, 2))
    TriggerStackEnv(stream, layout=LAYOUT)
    assert stream.asked.prepare is _prepared.first_rows
    assert stream.board().prepared is None


def test_rows_of_another_layout_are_not_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows made in one layout are refused by an environment of another (its ids and rows differ),
    and a stream of another layout is refused by the environment (docs/rl.md, "Action ids"), never
    asked for rows."""
    wider = ActionLayout(abilities=9, things=16, modes=4, divide=6, passes=2, players=4)
    stream = rl.boards(5, 3, **_asked(False, 2))
    stream.prepare(_prepared.first_rows)
    monkeypatch.setattr(stream, "_drawing_ahead", lambda: _Worker(stream))
    board = stream.board()
    assert board.prepared is not None
    facts = stream.compiled(board.scenario)
    assert facts is not None
    env = TriggerStackEnv(lambda _rng: board.scenario, layout=wider)  # a board of the stream, in another layout
    env.start(facts)
    assert env._tracker is not None and not env._tracker.shared  # built here, as asked
    other = rl.boards(5, 3, **_asked(False, 2))
    with pytest.raises(UsageError, match=r"layout: the environment's layout.*rl\.boards\(\.\.\., layout=layout\)"):
        TriggerStackEnv(other, layout=wider)
    assert other.asked.prepare is None


class _Kept(_Worker):
    """:class:`_Worker`, keeping each board as it was drawn (its scenario read, never pickled)."""

    def __init__(self, stream: Boards) -> None:
        super().__init__(stream)
        self.drawn: list[Board] = []

    def board(self, key: str, index: int, n: int | None) -> Board:
        drawn = self.stream.asked.board(key, index)
        self.drawn.append(drawn)
        found: Board = pickle.loads(pickle.dumps(drawn, pickle.HIGHEST_PROTOCOL))
        return found


_LAID = ("universe", "thing_slots", "needs", "beyond", "_modes", "_most", "size")
"""What a stepper lays out of its board (``Stepper.__init__``), from the facts alone on a first pass."""


@pytest.mark.parametrize("cards", POOLS)
@pytest.mark.parametrize("players", [2, 4])
def test_a_board_read_back_is_played_without_reading_its_scenario(
    cards: bool, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A board drawn ahead arrives with its scenario as one byte string (``model/_slots.py``, a
    field sent later): an environment drawing it lays it out and plays it from its facts alone —
    its stepper laid out as one built on the board's scenario read whole, every observation, mask
    and legal decision of a random walk the same — and the scenario, read when first asked for
    (``env.scenario``), is the board's. A board with reactions (ward) sends its scenario whole:
    playing it may fire them, which reads their triggers. Its things wait the same way: laying it
    out and opening it read their ids, and they are read whole where a filter is judged anew."""
    stream = rl.boards(70 + players, BOARDS, bodies=(0, 4), **_asked(cards, players))
    taken = TriggerStackEnv(stream, layout=LAYOUT)
    kept = _Kept(stream)
    monkeypatch.setattr(stream, "_drawing_ahead", lambda: kept)
    rng = random.Random(players)
    later = whole = ids = 0
    for k in range(BOARDS):
        taken.reset()
        drawn, facts = kept.drawn[k], taken.stepper.facts
        ids += unread(facts, "things")  # laid out and opened on their ids (the reference encoder below reads them)
        reactive = bool(drawn.scenario.reactions)
        built = TriggerStackEnv(compile_facts(drawn.scenario), layout=LAYOUT)
        built.reset()
        for name in _LAID:
            assert getattr(taken.stepper, name) == getattr(built.stepper, name), (name, k)
        _same_walk(taken, built, rng)
        assert taken.legal() == built.legal() and taken.walk.decisions == built.walk.decisions
        assert unread(facts, "scenario") is not reactive, k  # played to its end: read only if it has reactions
        later += not reactive
        whole += reactive
        assert facts.thing_ids == tuple(t.id for t in built.stepper.facts.things), k
        assert facts.things == built.stepper.facts.things, k  # read when asked for: the board's
        assert taken.scenario == drawn.scenario and taken.scenario.controls == drawn.scenario.controls
        assert not unread(facts, "scenario") and facts.memo.get((LATER, "scenario")) is None  # read once, kept
    assert later > BOARDS // 3 and (whole > 0 or not cards)  # both kinds met where the pool has ward
    assert ids > BOARDS // 2  # most boards are laid out and opened without reading their things whole


@pytest.mark.parametrize("cards", POOLS)
@pytest.mark.parametrize("players", [2, 3])
def test_answers_and_announcers_sent_with_a_board_are_those_built_for_it(
    cards: bool, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a board's first pass asks of each waiting ability with nothing below it — whether it
    has a legal choice (603.3c–d), and its announcer — sent with the board are what its pass
    stepper builds itself, equal field by field; an environment taking them offers, observes and
    ends every walk as one building them (``_same_walk`` above), and builds no choice space for an
    ability they answer. Every board of both pools, two and three players."""
    stream = rl.boards(40 + players, BOARDS, **_asked(cards, players))
    taken = TriggerStackEnv(stream, layout=LAYOUT)
    monkeypatch.setattr(stream, "_drawing_ahead", lambda: _Worker(stream))
    rng = random.Random(players)
    sent = 0
    for _ in range(BOARDS):
        taken.reset()
        facts, local = taken.stepper.facts, taken.stepper.pass_stepper(taken.stepper.facts)
        built = TriggerStackEnv(compile_facts(facts.scenario), layout=LAYOUT)
        built.reset()
        theirs = built.stepper.pass_stepper(built.stepper.facts)
        for a in facts.abilities:
            key: tuple[int, frozenset[int]] = (a.index, frozenset())
            if key in local._announcers:  # sent: the one built from its space, which is never built here
                sent += 1
                assert local._announcers[key] == theirs._announcer(facts.abilities[a.index], key)
                assert key not in local._spaces
            if key in local._has and a.forced_removal is None:
                assert local._has[key] == theirs._has_choice(a, frozenset())
        _same_walk(taken, built, rng)
    assert sent > BOARDS // 4  # boards with a targeted or modal ability met
