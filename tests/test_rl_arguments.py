"""Every argument of every RL door is read by the one reader every door shares (model/_args.py), so
a wrong value — of the wrong type, a bool, a float, text of digits, a negative or huge number, a
set or bytes where a list is meant, a key no option has — is refused naming the argument, as a
``ValueError`` (Gymnasium and PettingZoo expect one where they check), never an ``AttributeError``
or ``TypeError`` from deeper in, and never taken or ignored. docs/rl.md: a seed "is refused at
``reset`` naming it ... by the one check every door that takes a seed or a count shares";
``reset(seed=..., options={"scenario": ...})``; the vector's size is 1 to ``MOST_BOARDS``.

What each argument takes is written once below (its kind and range, from the docs), and the wrong
values are generated from the kind, not listed from what a door answers today.

Private unit: solver/rl/_vector_env.py (``MOST_BOARDS``, the documented cap of a vector's size).
"""

from __future__ import annotations

import math
import resource
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from triggerstack.model import Scenario  # noqa: E402
from triggerstack.solver import rl  # noqa: E402
from triggerstack.solver.rl._vector_env import MOST_BOARDS  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402

ERTAI = str(EXAMPLES / "ertai-resurrected" / "scenario.yaml")
SCENARIO = Scenario.load(ERTAI)
PLAYERS = len(SCENARIO.players)
PLAYER_IDS = {p.id for p in SCENARIO.players} | {"A", "B"}  # the scenario's, and rl.boards' of 2 players
AGENTS = {f"player_{i}" for i in range(PLAYERS)}
LAYOUT = rl.ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
SCORE = {"mode": {"E": {"destroy": 1}}}


@dataclass(frozen=True)
class Door:
    """One argument of one door: the name a refusal must say, the kind of value it documents (and
    its range, for whole numbers), and the call giving it ``value``."""

    label: str
    name: str
    kind: str
    call: Callable[[Any], Any]
    least: int = 0
    most: int | None = None


@pytest.fixture(scope="module")
def made() -> dict[str, Any]:
    """One environment of each kind, reset once, whose doors the property knocks on."""
    aec, gym, vec = rl.env(SCENARIO), rl.TriggerStackGym(SCENARIO), rl.vector_env(2, SCENARIO)
    par = rl.parallel_env(SCENARIO)
    aec.reset(seed=0)
    gym.reset(seed=0)
    vec.reset(seed=0)
    par.reset(seed=0)
    return {"aec": aec, "raw": rl.raw_env(SCENARIO), "gym": gym, "vec": vec, "par": par}


def _doors(made: dict[str, Any]) -> list[Door]:
    aec, raw, gym, vec, par = (made[k] for k in ("aec", "raw", "gym", "vec", "par"))
    seat_most = PLAYERS - 1
    doors = [
        Door("env reset", "seed", "whole", lambda v: aec.reset(seed=v)),
        Door("raw_env reset", "seed", "whole", lambda v: raw.reset(seed=v)),
        Door("gym reset", "seed", "whole", lambda v: gym.reset(seed=v)),
        Door("vector reset", "seed", "whole", lambda v: vec.reset(seed=v)),
        Door("parallel reset", "seed", "whole", lambda v: par.reset(seed=v)),
        Door("vector reset, a seed per board", "seed", "whole", lambda v: vec.reset(seed=[0, v])),
        Door("vector reset, seeds", "seed", "list", lambda v: vec.reset(seed=v)),
        Door("env reset", "options", "options", lambda v: aec.reset(options=v)),
        Door("raw_env reset", "options", "options", lambda v: raw.reset(options=v)),
        Door("gym reset", "options", "options", lambda v: gym.reset(options=v)),
        Door("vector reset", "options", "options", lambda v: vec.reset(options=v)),
        Door("parallel reset", "options", "options", lambda v: par.reset(options=v)),
        Door("env reset", "options['scenario']", "source", lambda v: aec.reset(options={"scenario": v})),
        Door("gym reset", "options['scenario']", "source", lambda v: gym.reset(options={"scenario": v})),
        Door("vector reset", "options['scenario']", "source", lambda v: vec.reset(options={"scenario": v})),
        Door("vector_env", "num_envs", "whole", lambda v: rl.vector_env(v, SCENARIO), 1, MOST_BOARDS),
        Door("TriggerStackGym", "seat", "whole", lambda v: rl.TriggerStackGym(SCENARIO, seat=v), 0, seat_most),
        Door("vector_env", "seat", "whole", lambda v: rl.vector_env(1, SCENARIO, seat=v), 0, seat_most),
        Door("vector_env", "autoreset_mode", "choice", lambda v: rl.vector_env(1, SCENARIO, autoreset_mode=v)),
        Door("env", "form", "choice", lambda v: rl.env(SCENARIO, form=v)),
        Door("env", "render_mode", "choice", lambda v: rl.env(SCENARIO, render_mode=v)),
        Door("TriggerStackGym", "render_mode", "choice", lambda v: rl.TriggerStackGym(SCENARIO, render_mode=v)),
        Door("gymnasium.make_vec", "num_envs", "whole", lambda v: _make_vec(v), 1, MOST_BOARDS),
    ]
    for label, factory in (
        ("env", lambda **k: rl.env(SCENARIO, **k)),
        ("raw_env", lambda **k: rl.raw_env(SCENARIO, **k)),
        ("parallel_env", lambda **k: rl.parallel_env(SCENARIO, **k)),
        ("TriggerStackGym", lambda **k: rl.TriggerStackGym(SCENARIO, **k)),
        ("vector_env", lambda **k: rl.vector_env(1, SCENARIO, **k)),
    ):
        kinds = {"auto": "truth", "illegal_reward": "finite", "layout": "object", "options": "object"}
        doors += [Door(label, name, kind, _keyword(factory, name)) for name, kind in {**kinds, "rewards": "rewards"}.items()]
    for label, of_source in (
        ("env", rl.env),
        ("raw_env", rl.raw_env),
        ("TriggerStackGym", rl.TriggerStackGym),
        ("vector_env", lambda v: rl.vector_env(1, v)),
    ):
        doors.append(Door(label, "scenario", "source", of_source))
    doors += [
        Door("TriggerStackGym", "opponent", "object", lambda v: rl.TriggerStackGym(SCENARIO, opponent=v)),
        Door("boards", "seed", "whole", lambda v: rl.boards(v)),
        Door("boards", "n", "whole", lambda v: rl.boards(0, v)),
        Door("boards", "workers", "whole", lambda v: rl.boards(0, workers=v), 0, 64),
        Door("boards", "max_outcomes", "whole", lambda v: rl.boards(0, max_outcomes=v), 1),
        Door("boards", "seat", "whole", lambda v: rl.boards(0, seat=v), 0, 1),
        Door("boards", "cards", "truth", lambda v: rl.boards(0, cards=v)),
        Door("boards", "players", "span", lambda v: rl.boards(0, players=v), 2, 4),
        Door("boards", "abilities", "span", lambda v: rl.boards(0, abilities=v), 1, 50),
        Door("boards", "bodies", "span", lambda v: rl.boards(0, bodies=v), 0, 20),
        Door("boards", "events", "events", lambda v: rl.boards(0, events=v)),
        Door("env of boards", "rewards", "rewards", lambda v: rl.env(rl.boards(0, players=2), layout=LAYOUT, rewards=v)),
    ]
    for label, game in (("env", aec), ("env, unwrapped", aec.unwrapped)):
        doors += [_method(f"{label} {m}", game, m, "agent") for m in ("observe", "observation_space", "action_space")]
    doors += [
        Door("env mask", "agent", "agent", lambda v: aec.unwrapped.mask(v)),
        Door("env player", "agent", "agent", lambda v: aec.unwrapped.player(v)),
        _method("env observation", aec.unwrapped, "observation", "player"),
        Door("Observer encode", "player", "player", lambda v: _encode(aec.unwrapped, v)),
        Door("parallel observation_space", "agent", "agent", lambda v: par.observation_space(v)),
        Door("parallel action_space", "agent", "agent", lambda v: par.action_space(v)),
    ]
    return doors


def _encode(game: Any, player: Any) -> Any:
    """The observer's encoding of the walk under way from ``player`` 's seat."""
    return game.observer.encode(game.stepper, game.walk, player)


def _method(label: str, owner: Any, method: str, name: str) -> Door:
    """The door of ``owner`` 's ``method`` whose one argument is ``name``."""
    return Door(label, name, name, lambda value: getattr(owner, method)(value))


def _keyword(factory: Callable[..., Any], name: str) -> Callable[[Any], Any]:
    """The call of ``factory`` giving ``value`` as its argument ``name``."""
    return lambda value: factory(**{name: value})


def _make_vec(n: Any) -> Any:
    import gymnasium

    return gymnasium.make_vec("triggerstack/TriggerStack-v0", num_envs=n, scenario=SCENARIO)


# -- wrong values, by kind ---------------------------------------------------------------------------

text = st.text(max_size=8)
digits = st.integers(0, 10**6).map(str)
sets_and_bytes = st.one_of(st.sets(st.integers(0, 9), max_size=3), st.binary(max_size=3), st.binary(max_size=3).map(bytearray))
other_things = st.one_of(st.dictionaries(text, st.integers(), max_size=2), st.just(object()), st.just(int))


def _wrong_whole(door: Door) -> st.SearchStrategy[Any]:
    """What no whole number from ``least`` to ``most`` is: a bool, a float (whole ones too: a Python
    float is never a whole number at a Python door), text of digits, below the least, past the most."""
    below = st.integers(max_value=door.least - 1)
    wrong = [st.booleans(), st.booleans().map(np.bool_), st.floats(), digits, below, sets_and_bytes, other_things]
    wrong.append(st.integers(door.least, door.least + 5).map(float))
    wrong.append(st.integers(-5, 5).map(np.float64))
    if door.most is not None:
        wrong.append(st.integers(min_value=door.most + 1))
        wrong.append(st.just(10**7))  # the attack's vector size
    if door.name != "seed" or door.label != "vector reset":  # a vector's seed may be a list: the "list" door
        wrong.append(st.lists(st.integers(0, 9), min_size=1, max_size=3))
    return st.one_of(wrong)


def _wrong(door: Door) -> st.SearchStrategy[Any]:
    bools = st.booleans()
    if door.kind == "whole":
        return _wrong_whole(door)
    if door.kind == "span":
        whole = Door(door.label, door.name, "whole", door.call, door.least, door.most)
        bad = _wrong_whole(whole).filter(lambda v: not isinstance(v, list))
        fine = st.integers(door.least, door.least if door.most is None else door.most)
        return st.one_of(
            bad,
            st.tuples(fine, bad),
            st.tuples(bad, fine),
            st.lists(fine, min_size=3, max_size=4),
            st.sets(fine, min_size=2, max_size=2),  # a set's order is its hashes', never a low and a high
            st.just([door.least + 1, door.least]),  # low above high
        )
    if door.kind == "truth":
        return st.one_of(st.integers(), st.floats(), text, digits, sets_and_bytes, other_things, st.lists(bools))
    if door.kind == "finite":
        no_number = st.one_of(text, digits, bools, bools.map(np.bool_), sets_and_bytes, other_things, st.lists(bools))
        return st.one_of(no_number, st.sampled_from([math.nan, math.inf, -math.inf, 10**400]))
    if door.kind == "choice":
        return st.one_of(text.filter(lambda t: t not in ("pettingzoo", "rllib", "ansi", "human", "NextStep")),
                         st.integers(), bools, sets_and_bytes, st.lists(text, max_size=2))
    if door.kind == "options":
        keys = text.filter(lambda k: k not in ("scenario", "options"))
        return st.one_of(
            st.lists(st.integers(), max_size=2),
            text,
            st.integers(),
            bools,
            sets_and_bytes,
            st.dictionaries(keys, st.integers(), min_size=1, max_size=2),
            st.dictionaries(st.integers(), st.integers(), min_size=1, max_size=2),
            st.dictionaries(keys, st.integers(), min_size=1, max_size=1).map(lambda d: {"scenario": ERTAI, **d}),
        )
    if door.kind == "source":
        return st.one_of(st.integers(), st.floats(), bools, st.just(""), sets_and_bytes, st.just(int), st.just({}),
                         st.lists(st.integers(), min_size=1, max_size=2), st.just([SCENARIO, 3]), st.just([]))
    if door.kind == "list":
        return st.one_of(
            sets_and_bytes,
            st.dictionaries(st.integers(0, 9), st.integers(0, 9), min_size=1, max_size=3),
            st.lists(st.integers(0, 9), min_size=3, max_size=4),  # not one per board
            st.just([0]),
            st.just(np.zeros((2, 1), dtype=np.int64)),
            st.just(np.array([0.0, 1.0])),
            st.just(iter([0, 1])),
        )
    if door.kind == "rewards":  # a key no board of the source seats: refused, never scored 0
        no_player = st.one_of(text, st.sampled_from(["a", "C", "player_0", " A", "A\u200b"]))
        no_player = no_player.filter(lambda t: t not in PLAYER_IDS)
        return st.one_of(st.lists(st.integers(), max_size=2), text, st.integers(), bools, sets_and_bytes,
                         st.just({"A": 1}), st.just({"A": "mode"}), st.just({1: {}}),
                         no_player.map(lambda p: {"A": SCORE, p: SCORE}))
    if door.kind == "events":  # shown as typed: a terminal escape in a refused name is escaped
        events = ("enters", "dies", "attacks", "cast")
        no_event = st.one_of(text, st.sampled_from(["\x1b[31mred", "Enters", "enters ", "x" * 5000]))
        no_event = no_event.filter(lambda t: t not in events)
        return st.one_of(no_event, st.lists(no_event, min_size=1, max_size=3), st.integers(), bools, st.just([]))
    if door.kind == "player":  # a player no board has: refused, never the observation of no seat
        crafted = st.sampled_from(["a", "C", "player_0", " A", "A\u200b", "", "b"])
        return st.one_of(st.one_of(text, crafted).filter(lambda t: t not in PLAYER_IDS), st.integers(0, 3), st.none())
    if door.kind == "agent":  # an agent id is an argument: a name no agent has is refused, never a mask of zeros
        crafted = st.sampled_from(["player_9", "player_00", "Player_0", "player_0 ", "A", "", "player_1\u200b"])
        return st.one_of(st.one_of(text, crafted).filter(lambda t: t not in AGENTS), st.integers(0, 3), bools,
                         st.lists(st.sampled_from(sorted(AGENTS)), min_size=1, max_size=2))
    assert door.kind == "object"
    return st.one_of(st.integers(), text, bools, st.lists(st.integers(), max_size=1), st.just(object()))


def _refused(door: Door, value: Any) -> None:
    from triggerstack.solver.rl import RenderModeError

    try:
        door.call(value)
    except ValueError as exc:  # UsageError, IllegalDecision, RenderModeError are ValueErrors
        assert not isinstance(exc, AttributeError | TypeError) or isinstance(exc, RenderModeError), repr(exc)
        said = str(exc)
        assert "\x1b" not in said and len(said) < 2000, f"{door.label} {door.name}: {said[:300]!r}"
        assert door.name in said or door.name.split("[")[0] in said, f"{door.label} {door.name}={value!r}: {said}"
        return
    except Exception as exc:  # what the property reports
        raise AssertionError(f"{door.label} {door.name}={value!r} raised {exc!r}, not a ValueError naming it") from exc
    raise AssertionError(f"{door.label} took {door.name}={value!r}: taken or ignored, never refused")


@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_every_argument_of_every_rl_door_refuses_a_wrong_value_naming_it(made: dict[str, Any], data: Any) -> None:
    doors = _doors(made)
    door = data.draw(st.sampled_from(doors), label="door")
    value = data.draw(_wrong(door), label="value")
    _refused(door, value)


@pytest.mark.parametrize(
    ("label", "name", "value"),
    [
        ("env reset", "options", [1]),
        ("env reset", "options", {"scenari": ERTAI}),
        ("env reset", "options", {"seed": 1}),
        ("vector_env", "num_envs", "2"),
        ("vector_env", "num_envs", 2.0),
        ("vector_env", "num_envs", 10**7),
        ("vector reset, seeds", "seed", {1, 2}),
        ("vector reset", "seed", b"12"),
        ("TriggerStackGym", "seat", True),
        ("env", "auto", "no"),
        ("env", "scenario", b"examples"),
    ],
)
def test_the_attacks_values_are_refused(made: dict[str, Any], label: str, name: str, value: Any) -> None:
    door = next(d for d in _doors(made) if d.label == label and d.name == name)
    _refused(door, value)


def test_a_huge_vector_is_refused_before_anything_is_built() -> None:
    """``vector_env(10**7, …)`` took 23 s and 2.9 GB to end in a MemoryError; past the documented cap
    it ends with the documented error, having built nothing (CPU and memory bounded generously)."""
    from triggerstack.model import UsageError

    before = resource.getrusage(resource.RUSAGE_SELF)
    with pytest.raises(UsageError, match=f"num_envs: expected at most {MOST_BOARDS}, found 10000000"):
        rl.vector_env(10**7, SCENARIO)
    after = resource.getrusage(resource.RUSAGE_SELF)
    assert after.ru_utime - before.ru_utime < 2.0
    assert after.ru_maxrss - before.ru_maxrss < 200 * 1024  # KB: nothing the size of a board per board


def test_the_right_values_are_taken_at_every_door(made: dict[str, Any]) -> None:
    """Each door takes what it documents, in every form the docs give (a NumPy integer or bool as
    its value, a seed per board as a list, a tuple or an array, the scenario in options, PettingZoo's
    probe ``{"options": 1}``): the refusals above are of wrong values, not of the door."""
    aec, gym, vec = made["aec"], made["gym"], made["vec"]
    aec.reset(seed=np.int64(3), options={"scenario": ERTAI})
    aec.reset(seed=0, options={"options": 1})  # PettingZoo's api_test asks whether reset takes options
    gym.reset(seed=np.uint8(2), options={})
    for seeds in ([1, None], (1, 2), np.array([1, 2]), range(2)):
        vec.reset(seed=seeds, options={"scenario": [SCENARIO]})
    assert rl.TriggerStackGym(SCENARIO, seat=np.int64(PLAYERS - 1), auto=np.bool_(True), illegal_reward=np.float32(-2))
    assert rl.vector_env(np.int32(2), SCENARIO, illegal_reward=0).num_envs == 2
    assert rl.env(SCENARIO, illegal_reward=None, form="rllib", rewards={"A": {"mode": {"E": {"destroy": 1}}}})
    assert rl.boards(np.int64(0), np.int64(1), players=np.array([2, 3]), cards=np.bool_(False), workers=0)
