"""One seed and argument check (``model/_args.py``) at every door that takes one: a whole number 0
or more, a NumPy integer taken as the number it holds; a negative seed (``random.Random(-k)`` draws
what ``k`` draws), a bool, a float, text or nan is refused naming the argument, never hashed nor a
bare TypeError.

Private unit: model/_args (seed_of, whole_number), the one seed check, and the phase adapter's generator (adapters/phase/_prompt._rng)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from triggerstack.model import Scenario, ScenarioError, UsageError
from triggerstack.model._args import seed_of, whole_number
from triggerstack.solver import LegalOutcomes, sample
from triggerstack.solver.serve import Service

from .conftest import EXAMPLES

ERTAI = EXAMPLES / "ertai-resurrected" / "scenario.yaml"
SCENARIO = Scenario.load(str(ERTAI))
BAD = [-1, -7, True, 1.5, 2.0, "7", float("nan"), np.float64(3.0), np.bool_(True), [1], b"1"]


def _legal(seed: Any) -> Any:
    return list(LegalOutcomes(SCENARIO).sample(2, seed))


def _lines(seed: Any) -> Any:
    return list(LegalOutcomes(SCENARIO).sample_lines(2, seed))


def _function(seed: Any) -> Any:
    return sample(SCENARIO, 1, seed)


def _rpc(seed: Any) -> Any:
    doc = json.loads(json.dumps(Scenario.load(str(ERTAI)).model_dump(mode="json", exclude_defaults=True)))
    request = {"jsonrpc": "2.0", "id": 1, "method": "sample", "params": {"scenario": doc, "seed": seed}}
    try:
        line = json.dumps(request)
    except (TypeError, ValueError):  # not JSON at all (nan is, as NaN; bytes are not): no wire to carry it
        raise UsageError("seed: not JSON") from None
    answer = json.loads(Service().handle(line) or "{}")
    if "error" in answer:
        raise UsageError(answer["error"]["message"])
    return answer["result"]


def _phase_rest(seed: Any) -> Any:
    from triggerstack.adapters.phase._prompt import _rng

    return _rng(seed)


def _boards(seed: Any) -> Any:
    from triggerstack.solver.rl import boards

    return next(boards(seed, 1, cards=False))


def _reset(seed: Any) -> Any:
    pytest.importorskip("pettingzoo")
    from triggerstack.solver import rl

    return rl.env(str(ERTAI)).reset(seed=seed)


def _gym_reset(seed: Any) -> Any:
    pytest.importorskip("gymnasium")
    from triggerstack.solver import rl

    return rl.TriggerStackGym(str(ERTAI)).reset(seed=seed)


def _vector_reset(seed: Any) -> Any:
    gymnasium = pytest.importorskip("gymnasium")
    from triggerstack.solver import rl  # noqa: F401 - registers the id

    return gymnasium.make_vec("triggerstack/TriggerStack-v0", num_envs=2, scenario=str(ERTAI)).reset(seed=seed)


DOORS: dict[str, Callable[[Any], Any]] = {
    "LegalOutcomes.sample": _legal,
    "sample_lines": _lines,
    "sample()": _function,
    "JSON-RPC": _rpc,
    "phase draws": _phase_rest,
    "rl.boards": _boards,
    "env.reset": _reset,
    "gym reset": _gym_reset,
    "vector reset": _vector_reset,
}


@pytest.mark.parametrize("bad", BAD, ids=repr)
@pytest.mark.parametrize("door", list(DOORS))
def test_every_door_refuses_a_seed_that_is_not_a_whole_number(door: str, bad: Any) -> None:
    if door == "JSON-RPC" and bad == 2.0:
        pytest.skip("on the wire 2.0 is the integer 2 (JSON Schema: an integer; docs/formats.md)")
    if door == "JSON-RPC" and isinstance(bad, np.float64):
        pytest.skip("3.0 on the wire is the integer 3")
    if door == "vector reset" and bad == [1]:
        pytest.skip("a list is one seed per board there (its length is checked apart)")
    with pytest.raises(ScenarioError, match=r"seed"):
        DOORS[door](bad)


@pytest.mark.parametrize("door", [d for d in DOORS if d != "JSON-RPC"])
def test_every_door_takes_a_numpy_integer_as_its_number(door: str) -> None:
    """``np.int64(5)`` seeds as 5 does (the vector environment's reset was a TypeError)."""
    if door in ("env.reset", "gym reset", "vector reset"):
        DOORS[door](np.int64(5))  # the same generator: tested by the environments' own determinism tests
        return
    assert _same(DOORS[door](np.int64(5)), DOORS[door](5))


def _same(a: Any, b: Any) -> bool:
    if hasattr(a, "random"):  # a generator
        return bool(a.random() == b.random())
    if isinstance(a, Scenario):
        return bool(a.model_dump() == b.model_dump())
    return bool(a == b)


def test_the_command_line_refuses_a_negative_seed() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "sample", str(ERTAI), "--seed=-3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and "seed: expected at least 0, found -3" in done.stderr, done.stderr


def test_batch_lines_refuse_a_negative_seed() -> None:
    doc = Scenario.load(str(ERTAI)).model_dump(mode="json", exclude_defaults=True)
    line = json.dumps({"method": "sample", "params": {"scenario": doc, "seed": -2}})
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "serve", "--stdio"],
        input=json.dumps({"jsonrpc": "2.0", "id": 1, **json.loads(line)}) + "\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert "seed: expected at least 0, found -2" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda: next(_boards_with(players=2.0)), "players"),
        (lambda: next(_boards_with(abilities=float("nan"))), "abilities"),
        (lambda: next(_boards_with(events=5)), "events"),
        (lambda: next(_boards_with(cards="yes")), "cards"),
        (lambda: next(_boards_with(bodies=(0, "3"))), "bodies"),
        (lambda: next(_boards_with(n=-1)), "n"),
        (lambda: next(_boards_with(max_outcomes=np.float32(10))), "max_outcomes"),
    ],
)
def test_rl_boards_refuses_arguments_naming_them(call: Callable[[], Any], name: str) -> None:
    """Each was a bare TypeError, or (``cards='yes'``) drew boards."""
    with pytest.raises(UsageError, match=rf"^{name}: "):
        call()


def _boards_with(**changes: Any) -> Any:
    from triggerstack.solver.rl import boards

    args: dict[str, Any] = {"cards": False, **changes}
    n = args.pop("n", 1)
    return boards(1, n, **args)


def test_rl_boards_takes_numpy_integers_as_their_numbers() -> None:
    a = next(_boards_with(players=np.int64(3), abilities=(np.int32(2), 4)))
    b = next(_boards_with(players=3, abilities=(2, 4)))
    assert a.model_dump() == b.model_dump()


@given(st.integers(0, 2**70) | st.integers(-(2**70), -1), st.sampled_from([int, np.int64, np.uint64]))
def test_a_whole_number_is_taken_as_the_number_it_holds(n: int, kind: Any) -> None:
    try:
        value = kind(n)
    except (OverflowError, ValueError):  # a NumPy type that cannot hold it
        return
    if n >= 0:
        assert seed_of(value) == n and type(seed_of(value)) is int
    else:
        with pytest.raises(UsageError, match=rf"^seed: expected at least 0, found {n}$"):
            seed_of(value)


@given(st.floats() | st.text() | st.booleans() | st.none() | st.lists(st.integers(), max_size=2))
def test_anything_else_is_refused_naming_the_argument(value: Any) -> None:
    with pytest.raises(UsageError, match=r"^width: expected a whole number, found "):
        whole_number(value, "width", 1)


@pytest.mark.parametrize("n", [-1, 2.5, "3", True])
def test_the_number_of_draws_is_checked_alike(n: Any) -> None:
    """The same check holds a draw's count (``n=-1`` drew nothing, ``2.5`` drew three)."""
    with pytest.raises(UsageError, match=r"^n: expected (a whole number|at least 0), found"):
        LegalOutcomes(SCENARIO).sample(n, 1)
    with pytest.raises(UsageError, match=r"^n: expected (a whole number|at least 0), found"):
        LegalOutcomes(SCENARIO).sample_lines(n, 1)
