"""The verdict and explain formats: every dict the verbs write validates against the published
models (``triggerstack schema verdict|explain``), unknown fields forbidden, so they cannot drift.

Private unit: model/_reports (VerdictReport, Explanation), the published formats' models."""

from __future__ import annotations

import json

import pytest
from triggerstack.model import Outcome, Scenario
from triggerstack.model._reports import Explanation, VerdictReport
from triggerstack.solver import check, explain, outcomes

from .conftest import EXAMPLE_NAMES, EXAMPLES, main

NAMES = EXAMPLE_NAMES


@pytest.mark.parametrize("name", NAMES)
def test_explain_and_verdicts_fit_their_schemas(name: str) -> None:
    scenario = Scenario.load(str(EXAMPLES / name / "scenario.yaml"))
    Explanation.model_validate(explain(scenario))
    for path in ("legal.json", "illegal.json"):
        VerdictReport.model_validate(check(scenario, Outcome.load(str(EXAMPLES / name / path))).as_dict())
    VerdictReport.model_validate(check(scenario, next(outcomes(scenario))).as_dict())


@pytest.mark.parametrize("what", ["verdict", "explain"])
def test_schemas_are_published(capsys: pytest.CaptureFixture[str], what: str) -> None:
    assert main(["schema", what]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["additionalProperties"] is False
