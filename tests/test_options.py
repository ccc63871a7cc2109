"""Every public verb takes the same :class:`Options` (or its fields as keywords): the engine, the
size caps and an engine's ``next_pass`` hook reach each verb the same way.

Rule 603.3b: "... then the abilities that triggered during this process go on the stack" in a
further pass; an engine's own state-based actions may decide what triggers (the hook).

Private unit: solver/_options.OptionChanges, the verbs' keyword arguments as type checkers see them."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from triggerstack.model import Limits, Outcome, Scenario, ScenarioError, Score, UsageError, facts_of, outcome_json
from triggerstack.solver import (
    Engine,
    Options,
    Stepper,
    best,
    check,
    count,
    explain,
    outcome_lines,
    outcomes,
    sample,
    step,
)

from .conftest import EXAMPLES, main

ERTAI = Scenario.load(str(EXAMPLES / "ertai-resurrected" / "scenario.yaml"))


def dies(pass_scenario: Scenario, placed: Outcome) -> Sequence[dict[str, Any]]:
    """After a pass in which E targeted SWB, B's 'a creature died' triggers (once)."""
    hit = any("SWB" in ts for e in placed.stack for m in e.modes or () for ts in m.targets.values())
    first = not any(t.id == "DIES" for t in pass_scenario.triggers)
    return [{"id": "DIES", "controller": "B", "text": "a creature died"}] if hit and first else []


HOOKED = Options(next_pass=dies)
WITH_DIES = 10  # the two outcomes that counter SWB each gain a pass holding DIES: still 10 outcomes


def test_options_are_frozen_and_keywords_override() -> None:
    options = Options(engine="constraint")
    assert options.engine is Engine.CONSTRAINT
    assert Options(engine="fast").engine is Engine.PRODUCT  # docs/cli.md's other name
    with pytest.raises(ScenarioError, match="unknown engine 'quick'"):
        Options(engine="quick")
    with pytest.raises(AttributeError):
        options.engine = Engine.CPSAT  # type: ignore[misc]
    assert count(ERTAI, options) == count(ERTAI, options, engine="cpsat") == count(ERTAI) == 10


def test_next_pass_reaches_count_and_outcomes() -> None:
    assert count(ERTAI, HOOKED) == count(ERTAI, next_pass=dies) == WITH_DIES
    whole = [o for o in outcomes(ERTAI, HOOKED) if o.passes]
    assert len(whole) == 2 and all(o.stack[-1].ability == "DIES" for o in whole)
    lines = list(outcome_lines(ERTAI, HOOKED))
    assert lines == [outcome_json(o) for o in outcomes(ERTAI, next_pass=dies)]
    assert sum('"DIES"' in line for line in lines) == 2


def test_next_pass_reaches_check() -> None:
    (hooked,) = [o for o in outcomes(ERTAI, HOOKED) if o.passes][:1]
    assert check(ERTAI, hooked, HOOKED).legal
    verdict = check(ERTAI, hooked)  # without the hook nothing fired DIES
    assert [v.code.value for v in verdict.violations] == ["unknown-ability"]


def test_next_pass_reaches_sample() -> None:
    drawn = sample(ERTAI, 200, 5, HOOKED)
    assert any(o.passes for o in drawn)
    every = {outcome_json(o) for o in outcomes(ERTAI, HOOKED)}
    assert {outcome_json(o) for o in drawn} <= every


def test_next_pass_reaches_best() -> None:
    top = best(ERTAI, Score(height={"DIES": 7}), HOOKED)
    assert top.outcome.stack[-1].ability == "DIES" and top.score == 7 * 3
    with pytest.raises(ScenarioError, match="unknown ability 'DIES'"):  # without the hook nothing fires it
        best(ERTAI, Score(height={"DIES": 7}))


def test_next_pass_reaches_explain() -> None:
    assert explain(ERTAI, HOOKED)["count"] == WITH_DIES
    assert "count_merged_identical" not in explain(ERTAI, HOOKED)  # several passes: the chain counted


def test_next_pass_reaches_step() -> None:
    walk = ["put SWB", "put SWA", "put E", "mode E:counter", "end modes", "target SWB", "end targets"]
    assert [d.text for d in step(ERTAI, walk, HOOKED)] == ["put DIES"]
    assert step(ERTAI, walk) == []  # the walk is over without the hook
    stepper = Stepper(facts_of(ERTAI), HOOKED)
    state = stepper.walk([*walk, "put DIES"])
    assert stepper.is_over(state) and stepper.outcome(state).passes == (3, 1)
    assert check(ERTAI, stepper.outcome(state), HOOKED).legal


VERBS: list[tuple[str, Callable[..., object]]] = [
    ("check", lambda s, o: check(s, Outcome(), o)),
    ("count", lambda s, o: count(s, o)),
    ("outcomes", lambda s, o: list(outcomes(s, o))),
    ("outcome_lines", lambda s, o: list(outcome_lines(s, o))),
    ("sample", lambda s, o: sample(s, 1, 1, o)),
    ("best", lambda s, o: best(s, Score(), o)),
    ("explain", lambda s, o: explain(s, o)),
    ("step", lambda s, o: step(s, (), o)),
]


@pytest.mark.parametrize(("name", "verb"), VERBS, ids=[n for n, _ in VERBS])
def test_size_caps_reach_every_verb(name: str, verb: Callable[..., object]) -> None:
    """The caps are options too: a scenario over them is refused by every verb, naming the cap."""
    with pytest.raises(ScenarioError, match="3 waiting abilities is more than the limit of 2"):
        verb(ERTAI, Options(limits=Limits(abilities=2)))
    verb(ERTAI, Options(limits=Limits(abilities=3)))


@pytest.mark.parametrize(("name", "verb"), VERBS, ids=[n for n, _ in VERBS])
def test_the_pass_cap_reaches_every_verb(name: str, verb: Callable[..., object]) -> None:
    """A hook that always fires runs into the pass cap in every verb that follows passes."""

    def forever(pass_scenario: Scenario, placed: Outcome) -> Sequence[dict[str, Any]]:
        return [{"id": f"X{len(pass_scenario.objects)}", "controller": "A", "text": "again"}]

    options = Options(next_pass=forever, limits=Limits(passes=3))
    if name in ("explain", "step"):  # explain reports the first pass; step stops only when walked
        verb(ERTAI, options)
        return
    with pytest.raises(ScenarioError, match="still trigger after 3 passes"):
        verb(ERTAI, options)


def test_the_keyword_options_are_the_fields_of_options() -> None:
    """``OptionChanges`` (the verbs' keyword arguments, for type checkers) names exactly the fields
    of :class:`Options`, with the same defaults reachable: the two cannot drift apart."""
    from dataclasses import fields

    from triggerstack.solver._options import OptionChanges

    keyword = {k: getattr(v, "__forward_arg__", v) for k, v in OptionChanges.__annotations__.items()}
    assert {f.name: f.type for f in fields(Options)} == keyword  # names and types
    assert Options(**{f.name: getattr(Options(), f.name) for f in fields(Options)}) == Options()


@pytest.mark.parametrize("text", ["abc", "0", "-1", "nan", "inf", "", "\u0665", "1_0", " 5", "1e999"])
def test_a_default_time_limit_that_is_no_number_of_seconds_is_refused_naming_the_variable(
    text: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cli.md, Limits: the environment's TRIGGERSTACK_TIME_LIMIT is the default time limit, a
    number of seconds more than 0; anything else is bad input naming the variable (exit 2), on the
    command line and in Options alike — never a time limit of nan, which no deadline ends."""
    monkeypatch.setenv("TRIGGERSTACK_TIME_LIMIT", text)
    with pytest.raises(UsageError, match="TRIGGERSTACK_TIME_LIMIT"):
        Options()
    assert main(["count", str(EXAMPLES / "board-wipe" / "scenario.yaml")]) == 2
    assert "TRIGGERSTACK_TIME_LIMIT" in capsys.readouterr().err


@pytest.mark.parametrize("text", ["inf", "\u0665"])
def test_a_bad_default_time_limit_is_one_line_as_the_command_starts(text: str) -> None:
    """Read in a new process, where the defaults were built as the modules were imported: a
    traceback (exit 1) before any command ran, never the one line naming the variable (exit 2)."""
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "count", str(EXAMPLES / "board-wipe" / "scenario.yaml")],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "TRIGGERSTACK_TIME_LIMIT": text},
    )
    assert done.returncode == 2 and done.stderr.startswith("triggerstack: TRIGGERSTACK_TIME_LIMIT="), done.stderr
    assert "Traceback" not in done.stderr


def test_the_default_time_limit_is_the_variables_or_60(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRIGGERSTACK_TIME_LIMIT", "2.5")
    assert Options().time_limit == 2.5 and Options(time_limit=1).time_limit == 1
    monkeypatch.delenv("TRIGGERSTACK_TIME_LIMIT")
    assert Options().time_limit == 60


def test_the_default_caps_are_taken_unchecked_as_the_whole_check_takes_them() -> None:
    """``limits_of`` takes the default caps without checking each (13 caps, every ``Options()``:
    6% of a board's draw): they pass the whole check unchanged, and caps built anew are checked."""
    from triggerstack.model._args import checked_limits, limits_of
    from triggerstack.model._limits import DEFAULT_LIMITS

    assert checked_limits(DEFAULT_LIMITS) is DEFAULT_LIMITS and limits_of(DEFAULT_LIMITS) is DEFAULT_LIMITS
    assert Options().limits is DEFAULT_LIMITS
    for refused in (0, 3.0, "3"):  # caps built anew: each checked
        with pytest.raises(UsageError, match=r"limits\.passes"):
            Options(limits=Limits(passes=refused))  # type: ignore[arg-type]
