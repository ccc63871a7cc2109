"""A rule's citation in the conformance suite has one source (issue 55): the codes and rules of a
published case's proposals are what ``check`` says today, a rule case's source is its file's in
tests/cases, and a family's source and rules are conformance/build.py's, written from ``Rule``.
A published case that cites an old rule fails here, named, before anyone reads it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from triggerstack.model import Rule, Scenario

from .conftest import ROOT, load_script

SUITE = ROOT / "conformance" / "cases"


BUILD = load_script(ROOT / "conformance" / "build.py")
PUBLISHED: list[dict[str, Any]] = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(SUITE.rglob("*.json"))]


def _case(case_id: str) -> dict[str, Any]:
    """A published case as the build would write its citations today (whatever the published file
    says): the ground the planted variants start from."""
    case = copy.deepcopy(next(c for c in PUBLISHED if c["id"] == case_id))
    case["source"], case["checks"] = BUILD.citations()[case_id]
    scenario = Scenario.model_validate(case["scenario"])
    for wrong in case["illegal"]:
        verdict = BUILD._verdict(scenario, wrong["proposal"])
        wrong["codes"], wrong["rules"] = verdict["codes"], verdict["rules"]
    return case


def test_every_published_case_says_what_check_and_its_source_say_today(capsys: pytest.CaptureFixture[str]) -> None:
    """Each legal proposal is legal, each illegal one breaks exactly the codes and rules published,
    and each case's source and rules checked are the build's; ``build.py --check`` says so too."""
    assert len(PUBLISHED) >= 200 and sum(len(c["illegal"]) for c in PUBLISHED) >= 200
    found = BUILD.disagreements(PUBLISHED)
    assert not found, "the published suite disagrees (run python conformance/build.py):\n" + "\n".join(found)
    assert BUILD.main(["--check"]) == 0
    assert "no disagreements" in capsys.readouterr().out


def test_a_case_that_cites_an_old_rule_is_named() -> None:
    """Variants nobody published: a rule renumbered under an illegal proposal (the hexproof case of
    issue 55), a code dropped, a legal proposal that check now refuses, a family's rules checked
    and a rule case's source that their sources no longer give, and a case no source writes."""
    kavu = _case("702/flametongue-kavu")
    hexproof = next(w for w in kavu["illegal"] if w["codes"] == ["target-hexproof"])
    hexproof["rules"] = ["999.9z"]
    dropped = _case("603.3c/modes")
    dropped["illegal"][0]["codes"] = dropped["illegal"][0]["codes"][1:] or ["order"]
    refused = _case("family/apnap-2x1")
    refused["legal"].append(refused["illegal"][0]["proposal"])
    family = _case("family/keywords-3")
    family["checks"] = ["999.9z", *family["checks"][1:]]
    source = _case("702/flametongue-kavu")
    source["source"] += " and 999.9z"
    gone = _case("family/apnap-2x1")
    gone["id"] = "family/apnap-9x9"
    found = BUILD.disagreements([kavu, dropped, refused, family, source, gone])
    named = [line.split(":", 1)[0] for line in found]
    assert named == [
        "702/flametongue-kavu",
        "603.3c/modes",
        "family/apnap-2x1",
        "family/keywords-3",
        "702/flametongue-kavu",
        "family/apnap-9x9",
    ], found
    assert "999.9z" in found[0] and f"'{Rule.R702_11B.value}'" in found[0]  # what is published, and what check says


def test_a_stale_index_fails_the_check(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    here = tmp_path / "conformance"
    cases = [_case(c["id"]) for c in PUBLISHED[:3]]
    for case in cases:
        path = here / "cases" / f"{case['id']}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(case), encoding="utf-8")
    (here / "index.md").write_text(BUILD.index(cases[:2]), encoding="utf-8")
    monkeypatch.setattr(BUILD, "HERE", here)
    monkeypatch.setattr(BUILD, "CASES", here / "cases")
    monkeypatch.setattr(BUILD, "unpublished", lambda _cases: [])  # a suite of three on purpose: the index alone
    assert BUILD.main(["--check"]) == 1
    assert capsys.readouterr().err == "conformance/index.md is not the published cases' index\n"
    (here / "index.md").write_text(BUILD.index(cases), encoding="utf-8")
    assert BUILD.main(["--check"]) == 0


def test_a_case_the_build_writes_and_the_suite_lacks_is_named() -> None:
    """Five rule cases (among them 601.2c's targets-are-a-set, the walk's order fix) stayed out of
    the published suite for a stop because ``--check`` read only the cases published. Every case the
    build writes today is published; a rule case, an example and a family taken out are each named."""
    assert BUILD.unpublished(PUBLISHED) == []
    for gone in ("601.2c/targets-are-a-set", "examples/ward", "family/apnap-2x1"):
        rest = [c for c in PUBLISHED if c["id"] != gone]
        assert BUILD.unpublished(rest) == [f"{gone}: the build writes it and it is not published"]


def test_the_build_refuses_what_it_does_not_know_and_writes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """``build.py --help`` (or any word it did not know) rebuilt the suite over the published one."""
    before = sorted((p.name, p.stat().st_mtime_ns) for p in SUITE.rglob("*.json"))
    for argv in (["--help"], ["--chek"], ["check"]):
        with pytest.raises(SystemExit) as ended:
            BUILD.main(argv)
        assert ended.value.code == (0 if argv == ["--help"] else 2)
    assert sorted((p.name, p.stat().st_mtime_ns) for p in SUITE.rglob("*.json")) == before
    assert "usage: python conformance/build.py" in capsys.readouterr().out
