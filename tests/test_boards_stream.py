"""The stream of boards an environment plays (issue 53; docs/rl.md, "Boards from real cards"):
``rl.boards`` draws board ``i`` of a seed from a generator of its own, so the stream is the same
drawn ahead in any number of worker processes; a seeded ``reset`` restarts it at the boards of that
seed (the same boards for the same seed, as Gymnasium's ``check_env`` asks; other boards for each
environment of a vector seeded ``seed + rank``); and what the draw compiled to see that a board
fits its layout — its facts and stepper — is what the environment plays: built once a board.

Private unit: the stream of drawn boards (solver/_boards/_draw, _board, _ahead) and what the environment keeps of a draw (solver/rl/_source).
"""

from __future__ import annotations

import json
import multiprocessing
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import gymnasium
from gymnasium.utils.env_checker import check_env
from triggerstack.model import ScenarioError, UsageError, compile_facts
from triggerstack.solver import ActionLayout, Stepper, rl
from triggerstack.solver._boards import _ahead, _board
from triggerstack.solver._boards._draw import draw
from triggerstack.solver._options import Options
from triggerstack.solver.rl import _source

LAYOUT = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=3)
ASKED: dict[str, Any] = {
    "players": (2, 3),
    "abilities": (2, 6),
    "cards": False,
    "layout": LAYOUT,
    "max_outcomes": 10**4,
}


def _played(stream: Iterator[Any], n: int) -> list[str]:
    return [json.dumps(s.model_dump(mode="json"), sort_keys=True) for s, _ in zip(stream, range(n), strict=False)]


def _seen(env: Any) -> str:
    return json.dumps(env.scenario.model_dump(mode="json"), sort_keys=True)


def test_a_restarted_stream_is_the_same_drawn_in_any_number_of_workers() -> None:
    """Board ``i`` of seed ``s`` restarted at ``k`` is drawn from a generator of ``s``, ``k`` and ``i``:
    the same in this process and in worker processes, and another stream than ``s`` 's own."""
    alone = rl.boards(3, **ASKED)
    own = _played(alone, 4)
    alone.restart(7)
    restarted = _played(alone, 6)
    assert restarted != own[:4]
    for workers in (1, 2):
        ahead = rl.boards(3, workers=workers, **ASKED)
        try:
            assert _played(ahead, 4) == own  # drawn ahead from board 0 of seed 3 …
            ahead.restart(7)  # … then the boards asked ahead are given up
            assert _played(ahead, 6) == restarted
        finally:
            ahead.close()


def test_boards_sent_in_batches_are_the_stream_in_order_across_batches_and_restarts() -> None:
    """A worker sends its first board alone, then batches of 2, 4 … up to ``_ahead.BATCH`` boards:
    the boards arrive in the stream's order whatever the batches — given up in the middle of one by a
    restart, the last one short at the end of a stream of ``n`` — in one worker or several."""
    alone = rl.boards(11, **ASKED)
    own = _played(alone, 40)
    alone.restart(5)
    restarted = _played(alone, _ahead.BATCH * 2 + 3)
    for workers in (1, 3):
        ahead = rl.boards(11, workers=workers, **ASKED)
        try:
            assert _played(ahead, 13) == own[:13]  # one worker: in its fourth batch (1 + 2 + 4 + 8 boards)
            ahead.restart(5)
            assert _played(ahead, len(restarted)) == restarted  # past a worker's whole batches of BATCH boards
        finally:
            ahead.close()
    assert _played(rl.boards(11, 37, workers=2, **ASKED), 40) == own[:37]


def test_a_stream_pickles_as_its_arguments_and_place() -> None:
    """A vector's factory sends its stream to each process: it resumes where it was."""
    stream = rl.boards(4, **ASKED)
    _played(stream, 3)
    stream.restart(2)
    _played(stream, 1)
    copy = pickle.loads(pickle.dumps(stream))
    assert _played(copy, 3) == _played(stream, 3)


def _drawn_in_a_daemon(queue: Any) -> None:
    queue.put(_played(rl.boards(5, 3, workers=2, **ASKED), 3))


def test_a_daemonic_process_draws_the_same_boards_itself() -> None:
    """The processes of Stable-Baselines3's ``SubprocVecEnv`` and Gymnasium's ``AsyncVectorEnv`` are
    daemonic and may start none: there ``workers`` draws in the process itself, the same boards."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    process = context.Process(target=_drawn_in_a_daemon, args=(queue,), daemon=True)
    process.start()
    try:
        assert queue.get(timeout=120) == _played(rl.boards(5, 3, **ASKED), 3)
    finally:
        process.join(30)


def test_a_seeded_reset_plays_the_boards_of_its_seed() -> None:
    """Gymnasium's determinism: ``reset(seed=k)`` then ``reset()`` plays the same boards each time
    (drawn again where the learner never decides, the same way); another seed, other boards; two
    environments of one factory seeded apart (a vector's ``seed + rank``), streams of their own."""

    def make() -> rl.TriggerStackGym:
        return rl.TriggerStackGym(rl.boards(0, **ASKED), layout=LAYOUT, auto=True)

    env = make()
    first = [(env.reset(seed=11), _seen(env))[1], (env.reset(), _seen(env))[1]]
    env.reset(seed=12)
    other = _seen(env)
    again = [(env.reset(seed=11), _seen(env))[1], (env.reset(), _seen(env))[1]]
    assert again == first
    assert other != first[0]
    rank0, rank1 = make(), make()
    rank0.reset(seed=11)
    rank1.reset(seed=12)
    assert [_seen(rank0), _seen(rank1)] == [first[0], other]
    game = rl.raw_env(rl.boards(0, **ASKED), layout=LAYOUT)  # the AEC environment alike
    game.reset(seed=11)
    board = json.dumps(game.scenario.model_dump(mode="json"), sort_keys=True)
    game.reset()
    game.reset(seed=11)
    assert json.dumps(game.scenario.model_dump(mode="json"), sort_keys=True) == board


def test_check_env_passes_on_drawn_boards_through_gymnasium_make() -> None:
    """With a spec (``gymnasium.make``) ``check_env`` asserts that a seeded reset is deterministic."""
    env = gymnasium.make("triggerstack/TriggerStack-v0", scenario=rl.boards(0, **ASKED), layout=LAYOUT, auto=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped, skip_render_check=True)
    assert env.spec is not None and env.spec.nondeterministic is False


def test_a_vector_of_boards_restarts_its_stream_with_its_seed() -> None:
    envs = rl.vector_env(3, rl.boards(0, **ASKED), layout=LAYOUT, auto=True)
    observations, _ = envs.reset(seed=5)
    envs.step(envs.action_masks().argmax(axis=1))
    again, _ = envs.reset(seed=5)
    assert (observations == again).all()


class _Counted:
    """How many times, in this process, the draw compiled a board's facts (``drawn``), the
    environment compiled them (``played``), and a stepper was built (``laid``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.drawn = self.played = self.laid = 0
        build = Stepper.__init__

        def counting(attribute: str) -> Any:
            def compiling(scenario: Any, *args: Any, **kwargs: Any) -> Any:
                setattr(self, attribute, getattr(self, attribute) + 1)
                return compile_facts(scenario, *args, **kwargs)

            return compiling

        def laying(stepper: Any, *args: Any, **kwargs: Any) -> None:
            self.laid += 1
            build(stepper, *args, **kwargs)

        monkeypatch.setattr(_board, "compile_facts", counting("drawn"))
        monkeypatch.setattr(_source, "compile_facts", counting("played"))
        monkeypatch.setattr(Stepper, "__init__", laying)


def test_the_environment_plays_the_facts_and_stepper_the_draw_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 53: a board drawn in this process is compiled once and laid out once — by the draw, to
    see that it fits the layout — and the environment plays those (``Stepper.taken``)."""
    counted = _Counted(monkeypatch)
    stream = rl.boards(6, **ASKED)
    game = rl.raw_env(stream, layout=LAYOUT)
    for episode in range(30):
        game.reset(seed=0 if episode == 0 else None)
        while not game.terminations[game.agent_selection]:
            game.step(int(game.observe(game.agent_selection)["action_mask"].argmax()))
    assert stream.index >= 30
    assert counted.played == 0
    assert counted.laid == counted.drawn >= stream.index  # a board drawn again for its count was laid out too


def test_a_board_drawn_in_a_worker_arrives_compiled_and_laid_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 53: the facts the worker compiled to count a board travel with it (they pickle), and
    so does its stepper in the layout (``_verbs/step/_travel.py``): the process that plays it
    compiles nothing and lays nothing out."""
    counted = _Counted(monkeypatch)
    stream = rl.boards(6, workers=1, **ASKED)
    try:
        game = rl.raw_env(stream, layout=LAYOUT)
        for _ in range(8):
            game.reset()
    finally:
        stream.close()
    assert stream.index == 8 and (counted.drawn, counted.played, counted.laid) == (0, 0, 0)


@pytest.mark.parametrize("passes", [1, 2])
def test_fitting_a_layout_is_what_the_smallest_layout_says(passes: int) -> None:
    """The draw lays a board out in the layout it is asked for and keeps it if that stepper builds
    and no reaction fires past the layout's passes (``Stepper.beyond``): exactly the boards whose
    smallest layout the asked one covers (``layout.fits(Stepper(facts).needs)``)."""
    verdicts = []
    for board in draw(8, 150, players=(2, 4), abilities=(1, 6), bodies=(1, 4), cards=False):  # wards, some
        facts = compile_facts(board.scenario)
        needs = Stepper(facts).needs
        for layout in (ActionLayout(4, 9, 2, 3, passes, 3), ActionLayout(8, 16, 4, 6, passes, 4)):
            try:
                laid = not Stepper(facts, Options(), layout).beyond
            except ValueError:
                laid = False
            assert laid == layout.fits(needs), (needs, layout)
            verdicts.append((laid, needs.passes > passes))
    assert {True, False} <= {laid for laid, _ in verdicts}
    assert any(deeper for _, deeper in verdicts) == (passes == 1)  # a ward fires into a second pass, never a third


def _seat_decides(scenario: Any, seat: int) -> bool:
    """The slow path: a one-seat environment of the board alone finds an episode in which ``seat``
    decides (it plays the others uniformly until the seat does, 100 episodes at most)."""
    gym = rl.TriggerStackGym(scenario, seat=seat, layout=LAYOUT, auto=True)
    try:
        gym.reset(seed=0)
    except ScenarioError:
        return False
    return True


@pytest.mark.parametrize("cards", [False, *([True] if _board.pool_of(None).origin == "cards" else [])])
def test_a_stream_for_a_seat_is_the_boards_that_seat_decides_on(cards: bool) -> None:
    """Issue 53: ``seat=0`` draws again, in the board's own draw, each board on which the active
    player makes no choice — the boards a learner in seat 0 never decides on, which cost the
    trainer a board and teach it nothing. Held to the slow path on every board of a long stream:
    board ``i`` is board ``i`` of the plain stream exactly when the learner decides there (found by
    playing it), and otherwise another board, on which it does. For a later seat the stream is the
    boards on which that seat makes the first choice: no other seat has chosen anything when it does."""
    asked = {**ASKED, "cards": cards}
    n = 300  # seed 21: 91 of the 300 plain boards give the active player no choice
    plain, kept = list(draw(21, n, **asked)), list(draw(21, n, seat=0, **asked))
    idle = 0
    for board, board0 in zip(plain, kept, strict=True):
        if _seat_decides(board.scenario, 0):
            assert board0.document == board.document and board0.idle == 0
        else:
            idle += 1
            assert board0.idle >= 1 and board0.document != board.document
            assert _seat_decides(board0.scenario, 0)
    assert n // 10 < idle < n // 2  # about three boards in ten give the active player no choice
    for board in draw(22, n // 4, seat=1, **asked):
        gym = rl.TriggerStackGym(board.scenario, seat=1, layout=LAYOUT, auto=True)
        gym.reset(seed=0)
        assert len(gym.game.walk.decisions) == gym.game.auto_applied  # every decision before the seat's was forced


def test_a_stream_for_a_seat_is_the_same_drawn_in_any_number_of_workers() -> None:
    alone = [b.document for b in draw(4, 12, seat=0, **ASKED)]
    for workers in (1, 2):
        assert [b.document for b in draw(4, 12, seat=0, workers=workers, **ASKED)] == alone


def test_a_seat_no_board_has_is_refused_naming_it() -> None:
    with pytest.raises(UsageError, match=r"seat: .*2"):
        rl.boards(1, players=2, seat=2)


def test_a_vector_of_boards_shares_one_stream_the_same_for_any_number_of_workers() -> None:
    """docs/rl.md, "The vector environment": on a stream the boards of a vector do not play the
    one-seat environment's streams of ``seed + i`` but share one, each drawing the next board as its
    episode ends, restarted at ``seed`` — the boards begun, in order, are the boards a one-seat
    environment reset with ``seed`` plays — and the same drawn in worker processes."""
    begun: dict[int, list[str]] = {}
    for workers in (0, 2):
        stream = rl.boards(0, **ASKED, workers=workers)
        envs = rl.vector_env(3, stream, layout=LAYOUT, auto=True)
        envs.reset(seed=5)
        seen = [_seen(board) for board in envs.envs]
        ended = [False] * 3
        while len(seen) < 12:
            _, _, terminated, _, _ = envs.step(envs.action_masks().argmax(axis=1))
            seen += [_seen(envs.envs[i]) for i in range(3) if ended[i]]  # NEXT_STEP: it began anew
            ended = list(terminated)
        stream.close()
        begun[workers] = seen[:12]
    alone = rl.TriggerStackGym(rl.boards(0, **ASKED), layout=LAYOUT, auto=True)
    alone.reset(seed=5)
    assert begun[0] == [_seen(alone)] + [(alone.reset(), _seen(alone))[1] for _ in range(11)]
    assert begun[2] == begun[0]
    apart = rl.TriggerStackGym(rl.boards(0, **ASKED), layout=LAYOUT, auto=True)
    apart.reset(seed=6)
    assert _seen(apart) != begun[0][1], "board 1 plays the shared stream's second board, not seed 6's first"


def test_a_closed_stream_asked_again_draws_on_at_its_place() -> None:
    """docs/rl.md, "The same boards for a seed": ``close()`` stops a stream's workers, and a closed
    stream asked for another board starts them again where it was — the stream unchanged, as if it
    had never been closed, an environment's ``close()`` between too."""

    def run(workers: int, closing: bool) -> list[str]:
        stream = rl.boards(3, workers=workers, **ASKED)
        try:
            seen = _played(stream, 4)
            if closing:
                stream.close()
            env = rl.TriggerStackGym(stream, layout=LAYOUT)
            env.reset()
            seen.append(_seen(env))
            env.close()
            return seen + _played(stream, 4)
        finally:
            stream.close()

    plain = run(0, closing=False)
    assert run(2, closing=True) == plain and run(0, closing=True) == plain
