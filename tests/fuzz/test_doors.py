"""Every verb on every surface attacked from the published schemas (issue 56, hypothesis-jsonschema).

One parametrized test per method of the verb table: its params generated from the published
OpenAPI document (the method's schema, its scenario the scenario format's: valid in form, mostly
not in content), or with a scenario valid by construction (tests/property/strategies.py), or one
change away from a valid one. hypothesis-jsonschema 0.23.1, the generator the issue names, fails
under this Hypothesis (``'many' object has no attribute 'more'``, no release since 2024), so the
schemas are generated from by Schemathesis's own generator, through its public ``as_strategy``. On every surface (:data:`doors.SURFACES`):

* nothing is an internal error, and a request generated from the schemas is never refused for
  its form (not JSON, not a request, invalid params): bad content is bad input, with its place;
* the surfaces agree: the same request, the same answer;
* what a valid scenario's answer claims holds: every outcome it gives is one ``check`` accepts and
  ``count`` counts.

A new method of the verb table, a new field of a format, is attacked without new code.

Private unit: model/_outcome.parse_outcome (a generated proposal's errors) and the verb table (solver/_verbs/table.VERBS) whose methods are attacked.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from triggerstack.model import Scenario

pytest.importorskip("schemathesis", reason="schemathesis is in [dev]: pip install -e '.[dev]'")

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ..property.strategies import scenarios
from .doors import FORM, NEVER, SCENARIO_METHODS, SURFACES, Answer, mutations, requests

TIME_LIMIT = -32002  # the time limit ran out (docs/server.md's error codes)

FAST = settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), database=None)


def _outcomes(method: str, result: Any) -> list[Any]:
    """The outcomes an answer gives (each one check must accept)."""
    if not isinstance(result, dict):
        return []
    if method == "sample":
        return list(result.get("outcomes", []))
    if method == "enumerate":
        return list(result.get("outcomes", []))
    if method in ("best", "step.outcome"):
        return [result["outcome"]] if result.get("outcome") else []
    return []


def _ask(method: str, params: dict[str, Any]) -> dict[str, Answer]:
    answers = {}
    for name, door in SURFACES.items():
        said = door(method, params)
        if said is not None:
            answers[name] = said
    return answers


def _holds(method: str, params: dict[str, Any], generated_in_form: bool) -> dict[str, Answer]:
    if method == "sample" and params.get("seed") is None:
        params = {**params, "seed": 0}  # without a seed each surface draws afresh: nothing to compare
    answers = _ask(method, params)
    for name, said in answers.items():
        assert said.code not in NEVER, f"{name} {method}: an internal error: {said.raw[:400]}"
        if generated_in_form:
            assert said.code not in FORM, f"{name} {method}: refused for its form: {said.raw[:400]}"
        else:
            assert said.code is None or said.message, f"{name} {method}: an error that says nothing"
    codes = {name: (said.code, None if said.code else json.dumps(said.result, sort_keys=True)) for name, said in answers.items()}
    # A time limit reached is no verdict: whether a request ends before its limit (0.001 s is in the
    # schema) is the machine's, so one surface may reach it where another finished (seen under load:
    # stdio said bad input, batch reached 0.001 s reading the same document's problems). Every answer
    # that was reached agrees; a surface that reached its limit says so in the limit's words.
    decided = {name: code for name, code in codes.items() if code[0] != TIME_LIMIT}
    for name, said in answers.items():
        if name not in decided:
            assert "time limit" in said.message, f"{name} {method}: a time limit that does not say so: {said.raw[:400]}"
    assert len(set(decided.values())) <= 1, f"{method}: the surfaces disagree: {codes}"
    return answers


@pytest.mark.parametrize("method", SCENARIO_METHODS)
@FAST
@given(data=st.data())
def test_a_request_from_the_schemas_is_answered_alike_everywhere_and_never_refused_for_its_form(
    method: str, data: st.DataObject
) -> None:
    from triggerstack.model import ScenarioError
    from triggerstack.model._outcome import parse_outcome
    from triggerstack.solver import check, count

    params = data.draw(requests(method), label="params")
    valid = data.draw(st.booleans(), label="valid")
    if valid:  # a scenario valid in content too, by construction
        params = {k: v for k, v in params.items() if k != "handle"} | {"scenario": data.draw(scenarios(max_abilities=4))}
    elif params.get("handle") is not None or params.get("scenario") is None:
        return  # a handle names nothing loaded here: the stateful HTTP test follows load's links
    answers = _holds(method, params, generated_in_form=True)
    said = answers["stdio"]
    if said.code is None and valid:
        parsed = Scenario.model_validate(params["scenario"])
        for outcome in _outcomes(method, said.result):
            try:
                verdict = check(parsed, parse_outcome(outcome))
            except ScenarioError:
                pytest.fail(f"{method} gave an outcome check cannot read: {outcome}")
            assert verdict.legal, f"{method} gave an outcome check refuses: {outcome}"
        if method == "count" and not params.get("divide"):
            assert said.result["count"] == count(parsed)


@pytest.mark.parametrize("method", ["check", "count", "explain", "step.legal"])
@FAST
@given(doc=scenarios(max_abilities=3), data=st.data())
def test_a_scenario_one_change_away_is_an_answer_or_a_clear_error_on_every_surface(
    method: str, doc: dict[str, Any], data: st.DataObject
) -> None:
    changed = list(mutations(doc))
    assume(changed)
    scenario = data.draw(st.sampled_from(changed[:400]), label="changed")
    params = {k: v for k, v in data.draw(requests(method), label="params").items() if k != "handle"}
    _holds(method, params | {"scenario": scenario}, generated_in_form=False)


def _commands() -> list[Any]:
    from triggerstack.solver._verbs.table import VERBS

    return [pytest.param(v, id=v.name) for v in VERBS if v.cli is not None and v.scenario and v.name in SCENARIO_METHODS]


@pytest.mark.parametrize("verb", _commands())
@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(data=st.data())
def test_every_command_line_verb_from_the_schemas_answers_or_says_why_and_never_fails_inside(
    verb: Any, data: st.DataObject, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The command line from the same generated requests: a scenario valid by construction is
    answered (exit 0, or 1 for an illegal proposal) or refused for its content with a line saying
    why (exit 2, or 3 past the time limit) — never an internal error (70) nor a traceback."""

    from triggerstack.solver import count

    from .doors import command_line

    params = {k: v for k, v in data.draw(requests(verb.name), label="params").items() if k != "handle"}
    valid = data.draw(st.booleans(), label="valid")
    if valid:
        params["scenario"] = data.draw(scenarios(max_abilities=3), label="scenario")
    if params.get("scenario") is None:
        return
    code, out, err = command_line(verb, params, tmp_path_factory.mktemp("cli"))
    assert code in (0, 1, 2, 3), f"{verb.name}: exit {code}\n{err[-2000:]}"
    assert "Traceback" not in err, err[-2000:]
    if code in (2, 3):
        assert err.strip(), f"{verb.name}: exit {code} with nothing said"
    if valid and code == 0 and verb.name == "count" and not params.get("divide"):
        assert out.split()[0] == str(count(Scenario.model_validate(params["scenario"]))), out
