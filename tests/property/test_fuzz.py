"""Fuzzing: random JSON documents and near-valid scenarios and proposals, through ``Scenario``,
``check`` and the command line in-process. Nothing but the documented errors escapes, the command
line never exits 70 (an internal error), and every case ends within 5 s of CPU (not hypothesis's
wall-time deadline, which a loaded machine runs past).

Private unit: model/_scenario.parse_scenario, the reader every door uses, fed random documents."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, ScenarioError, compile_facts
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import EngineCannot, TimeLimitReached, check, count

from ..conftest import EXAMPLES, cpu_bounded, main
from .strategies import scenarios

pytestmark = pytest.mark.slow  # hundreds of generated scenarios

FUZZ = settings(max_examples=settings().max_examples // 2, deadline=None, suppress_health_check=list(HealthCheck))

WORDS = st.sampled_from(
    [
        "players",
        "objects",
        "triggers",
        "id",
        "source",
        "targets",
        "filter",
        "modal",
        "modes",
        "choose",
        "min",
        "max",
        "divide",
        "kind",
        "type",
        "controller",
        "A",
        "B",
        "T0",
        "o0",
        "stack",
        "ability",
        "removed",
        "any-target",
        "x",
    ]
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.floats(allow_nan=False, width=16) | WORDS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(WORDS, inner, max_size=5),
    max_leaves=25,
)


@FUZZ
@given(JSON)
@cpu_bounded(5)  # a 2 s time limit, parsing and the answer: CPU time, one worker
def test_random_documents_are_refused_cleanly(doc: Any) -> None:
    try:
        parse_scenario(doc)
    except ScenarioError as exc:
        assert "\n" not in exc.one_line()


@st.composite
def near_valid(draw: st.DrawFn) -> Any:
    doc = copy.deepcopy(draw(scenarios(max_abilities=4)))  # changed in place below: never the strategy's objects
    for _ in range(draw(st.integers(1, 3))):
        node: Any = doc
        path = []
        while isinstance(node, (dict, list)) and node and draw(st.integers(0, 3)):
            key = draw(st.sampled_from(sorted(node) if isinstance(node, dict) else list(range(len(node)))))
            path.append(key)
            node = node[key]
        if not path:
            continue
        parent: Any = doc
        for key in path[:-1]:
            parent = parent[key]
        how = draw(st.integers(0, 3))
        if how == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        elif how == 1 and isinstance(parent, dict):
            parent[draw(WORDS)] = draw(JSON)
        else:
            parent[path[-1]] = draw(JSON)
    return doc


@FUZZ
@given(near_valid())
@cpu_bounded(5)  # a 2 s time limit, parsing and the answer: CPU time, one worker
def test_near_valid_scenarios_parse_or_fail_cleanly_and_answer(doc: Any) -> None:
    try:
        facts = compile_facts(parse_scenario(doc))
    except ScenarioError:
        return
    with contextlib.suppress(EngineCannot, TimeLimitReached):
        count(facts, time_limit=2)


PRINCE = EXAMPLES / "ertai-resurrected"


@FUZZ
@given(JSON)
@cpu_bounded(5)  # a 2 s time limit, parsing and the answer: CPU time, one worker
def test_random_proposals_are_judged_or_refused(doc: Any) -> None:
    from triggerstack.model import Scenario

    scenario = Scenario.load(str(PRINCE / "scenario.yaml"))
    try:
        proposal = Outcome.model_validate(doc)
    except ValueError:
        return
    try:
        verdict = check(scenario, proposal)
    except ScenarioError:
        return
    assert verdict.legal in (True, False)


VERBS = ["count", "enumerate", "sample", "best", "explain", "check"]


@FUZZ
@given(st.one_of(JSON, near_valid()), st.sampled_from(VERBS))
@cpu_bounded(5)  # a 2 s time limit, parsing and the answer: CPU time, one worker
def test_every_verb_of_the_command_line_never_crashes(
    tmp_path_factory: pytest.TempPathFactory, doc: Any, verb: str
) -> None:
    """Random JSON and near-valid scenarios, through every verb: an answer, bad input (a line for
    each problem of the document, at most 20 and a last one saying how many more, each naming the
    file; nothing on standard output), or the time limit — never an internal error."""
    folder: Path = tmp_path_factory.mktemp("fuzz")
    path = folder / "scenario.json"
    path.write_text(json.dumps(doc))
    extra = {
        "enumerate": ["--limit", "50"],
        "sample": ["-n", "3", "--seed", "1"],
        "best": ["--score", str(folder / "score.json")],
        "check": [str(folder / "proposal.json")],
    }.get(verb, [])
    (folder / "score.json").write_text("{}")
    (folder / "proposal.json").write_text('{"stack": []}')
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main([verb, str(path), *extra, "--time-limit", "2", "--max-choices", "20000", "--max-outcomes", "20000"])
    assert code in (0, 1, 2, 3), err.getvalue()
    if code in (2, 3):
        assert out.getvalue() == "" or verb == "enumerate", out.getvalue()
        lines = err.getvalue().splitlines()
        assert 1 <= len(lines) <= 21 and all(line.startswith("triggerstack: ") for line in lines), err.getvalue()
        assert len(lines) == 1 or all(line.startswith(f"triggerstack: {path}: ") for line in lines), err.getvalue()
