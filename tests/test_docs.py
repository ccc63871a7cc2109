"""The format reference in ``docs/`` is checked: every example block loads as the format it names
and means what the page says, and every violation code the tool has is in its table.

Private unit: the format's models and what the docs quote of them (model/_shapes.Filter, _filters, _reports, _limits.DEFAULT_TIME_LIMIT, _types.PlayerId; solver/serve/_page.rules_html)."""

from __future__ import annotations

import json
import re

import pytest
from triggerstack.model import Code, Outcome, Scenario, Score
from triggerstack.model._reports import VerdictReport
from triggerstack.model._types import PlayerId
from triggerstack.solver import check

from .conftest import ROOT

FORMATS = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```json (\w+)\n(.*?)```", FORMATS, flags=re.S)


def _block(kind: str) -> object:
    (text,) = [body for name, body in BLOCKS if name == kind]
    return json.loads(text)


def test_every_example_loads_as_its_format() -> None:
    assert {name for name, _ in BLOCKS} == {"scenario", "outcome", "score", "verdict"}
    scenario = Scenario.model_validate(_block("scenario"))
    outcome = Outcome.model_validate(_block("outcome"))
    Score.model_validate(_block("score"))
    assert check(scenario, outcome).legal  # the outcome shown is a legal one of the scenario shown
    shown = VerdictReport.model_validate(_block("verdict"))
    illegal = Outcome.model_validate(
        {"stack": [{"ability": "SWB"}, {"ability": "E", "modes": [{"mode": "counter", "targets": {"ability": ["SWA"]}}]}, {"ability": "SWA"}]}
    )
    assert check(scenario, illegal).as_dict() == shown.model_dump()  # the verdict shown is check's


def test_every_code_is_in_the_table_with_its_rule() -> None:
    from triggerstack.model import CODE_RULE

    table = FORMATS.split("### Violation codes", 1)[1].split("\n## ", 1)[0]
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| ([0-9a-z., ()]+?) \|", table, flags=re.M))
    assert set(rows) == {c.value for c in Code}
    for code, rule in CODE_RULE.items():
        assert rule.value in rows[code.value], (code, rule, rows[code.value])


def test_the_filter_table_is_what_the_filters_do() -> None:
    """Each row of the domains table, checked against a board with one thing of each kind."""
    from triggerstack.model import compile_facts
    from triggerstack.model._filters import Context, matches
    from triggerstack.model._shapes import Filter

    facts = compile_facts(
        Scenario.model_validate(
            {
                "players": ["A", "B"],
                "objects": [
                    {"id": "bear", "controller": "B", "types": ["creature"]},
                    {"id": "land", "controller": "A", "types": ["land"]},
                    {"id": "dead", "kind": "card", "zone": "graveyard", "owner": "B", "types": ["creature"]},
                    {"id": "bolt", "kind": "spell", "controller": "B", "types": ["instant"]},
                ],
            }
        )
    )
    expected = {
        '{"type": "creature"}': {"bear"},
        '{"type": "creature", "zone": "graveyard"}': {"dead"},
        '{"type": "creature", "not": {"kind": "player"}}': {"bear"},
        '{"not": {"zone": "graveyard"}}': {"bear", "land"},
        '{"kind": "player", "not": {"controller": "you"}}': {"B"},
        '{"any": [{"kind": "player"}, {"type": "creature"}]}': {"A", "B", "bear"},
        '{"all": [{}]}': {"bear", "land"},
        '{"kind": "player", "any": [{}, {"controller": "you"}]}': {"A", "B"},
    }
    rows = re.findall(r"^\| `(\{.*\})` \| ", FORMATS, flags=re.M)
    assert set(rows) == set(expected)
    ctx = Context(PlayerId("A"), facts.is_opponent)
    for row in rows:
        flt = Filter.model_validate(json.loads(row))
        got = {t.id for t in facts.things if matches(flt, t, ctx) is True}
        assert got == expected[row], row


def test_every_schema_has_an_id_and_every_property_a_description() -> None:
    from triggerstack.model._reports import SCHEMAS, published_schema

    def properties(node: object) -> list[tuple[str, dict[str, object]]]:
        found: list[tuple[str, dict[str, object]]] = []
        if isinstance(node, dict):
            found += [(k, v) for k, v in (node.get("properties") or {}).items()]
            for value in node.values():
                found += properties(value)
        elif isinstance(node, list):
            for value in node:
                found += properties(value)
        return found

    ids = set()
    for what in SCHEMAS:
        schema = published_schema(what)
        ids.add(schema["$id"])
        every = properties(schema)
        assert every and all(isinstance(p.get("description"), str) and p["description"] for _, p in every), [
            k for k, p in every if not p.get("description")
        ]
    assert len(ids) == len(SCHEMAS)


def test_the_field_reference_is_generated_from_the_schemas() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "tools" / "fields.py"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_architecture_names_functions_that_exist() -> None:
    """Every fact, judgment and cross-check docs/architecture.md's rule map names is there (the map
    does not drift from the code): a fact in the file its cell names (model/_facts.py unless it
    names one), a judgment in the judge room, a cross-check in cpsat.py before the ``;`` and in
    constraint.py after it."""
    import re

    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## Where each rule is decided", 1)[1].split("\n## ", 1)[0]
    judge = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "solver" / "_judge").glob("*.py")))
    engines = [(ROOT / "solver" / "_engines" / f).read_text(encoding="utf-8") for f in ("cpsat.py", "constraint.py")]
    checked = 0

    def defined(name: str, source: str) -> bool:
        last = name.split(".")[-1]
        return bool(re.search(rf"(def|class) {re.escape(last)}\b|\b{re.escape(last)}\b.*=", source))

    rows = re.findall(r"^\|.*\|$", table, flags=re.M)[2:]
    assert len(rows) >= 12, "the map names every rule the tool applies"
    for row in rows:
        _, fact, judgment, checks = row.strip("|").split("|")
        source, where = (ROOT / "model" / "_facts.py").read_text(encoding="utf-8"), "model/_facts.py"
        for name in re.findall(r"`([^`]+)`", fact):
            if name.endswith((".py", "/")):
                assert (ROOT / name).exists(), f"{name} (docs/architecture.md) does not exist"
                where, source = name, (ROOT / name).read_text(encoding="utf-8") if name.endswith(".py") else ""
                continue
            assert defined(name, source), f"{name} is not in {where} (docs/architecture.md)"
            checked += 1
        judged = re.findall(r"`([^`]+)`", judgment)
        assert judged, f"no judgment named for {row}"
        for name in judged:
            assert defined(name, judge), f"{name} is not in solver/_judge/ (docs/architecture.md)"
            checked += 1
        halves = checks.split(";")
        assert len(halves) == 2, f"both cross-checks are named, cpsat.py's then constraint.py's: {row}"
        for half, source in zip(halves, engines, strict=True):
            names = re.findall(r"`([^`]+)`", half)
            assert names, f"a cross-check is missing: {row}"
            for name in names:
                assert defined(name, source), f"{name} is not in its engine (docs/architecture.md)"
                checked += 1
    assert checked > 40


def test_the_limits_table_is_the_limits(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md's Limits table is what ``Limits`` holds (every flag, default and what it bounds),
    and every --help's limits group points at it."""
    from triggerstack.model import Limits
    from triggerstack.model._limits import DEFAULT_TIME_LIMIT

    from .conftest import main

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `--(max-[a-z]+|time-limit)` \| ([0-9,]+) \|", text, flags=re.M))
    assert rows == {
        **{f"max-{name}": f"{default:,}" for name, default, _ in Limits.described()},
        "time-limit": f"{DEFAULT_TIME_LIMIT:g}",
    }
    for name, _, what in Limits.described():
        assert f"| `--max-{name}` | {getattr(Limits(), name):,} | {what} |" in text
    for verb in ("check", "count", "enumerate", "serve"):
        with pytest.raises(SystemExit):
            main([verb, "--help"])
        assert "limits (docs/cli.md#limits" in capsys.readouterr().out


def test_every_rule_the_tool_cites_has_an_anchor_on_the_rules_page() -> None:
    """/docs/rules.html (docs/rules.md rendered): every rule number a message, a violation or the
    page can cite (``Rule``) lands on the paragraph that says it, never at the top, and the page
    shows no markdown (asterisks) where emphasis was meant."""
    pytest.importorskip("fastapi")
    from triggerstack.model import Rule
    from triggerstack.solver.serve._page import rules_html

    page = rules_html((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    anchors = re.findall(r'<p>((?:<a id="r[^"]+"></a>)+)(.*?)</p>', page, flags=re.S)
    home = {name: text for ids, text in anchors for name in re.findall(r'id="r([^"]+)"', ids)}
    for rule in Rule:
        assert rule.value in home, rule
        cited = rule.value.rstrip("abcdefghijklmnopqrstuvwxyz")
        assert cited in home[rule.value] or rule.value[:-1] in home[rule.value], rule  # the paragraph names it
    shown = re.sub(r"<code>.*?</code>", "", page)
    assert "*" not in re.sub(r"<[^>]+>", "", shown)
    assert "<em>not</em>" in page  # "*not* another ability triggering"


def test_the_python_page_lists_exactly_the_public_names() -> None:
    """docs/python.md's last table is the API: each root's names, no more and no fewer."""
    import importlib
    import re

    text = (ROOT / "docs" / "python.md").read_text(encoding="utf-8")
    table = text.split("## Every public name", 1)[1]
    rows = re.findall(r"^\| `(triggerstack[\w.]*)` \| [^|]* \| (.*) \|$", table, flags=re.M)
    assert len(rows) >= 7
    for root, names in rows:
        assert sorted(re.findall(r"`(\w+)`", names)) == sorted(importlib.import_module(root).__all__), root
