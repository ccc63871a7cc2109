"""Nothing a scenario or a proposal says can run script or fake a verdict where it is shown (issue
21 items 1 and 6; model/_text.py states the one rule): a scenario's ids are printable or bad input,
and what a proposal names is shown with its controls, bidirectional formatting and noncharacters
written as escapes — in terminal text, SVG and JSON alike.

Private unit: model/_text.visible, the one rule for showing text, parse_scenario's refusals, and the picture's writer (solver/_verbs/draw.verdict_svg)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from triggerstack.model import Outcome, Scenario, ScenarioError, compile_facts
from triggerstack.model._scenario import parse_scenario
from triggerstack.model._text import visible
from triggerstack.solver import check, explain
from triggerstack.solver._verbs.draw import verdict_svg
from triggerstack.solver.serve import Service

from .conftest import EXAMPLES
from .property.strategies import scenarios

ERTAI = EXAMPLES / "ertai-resurrected"
ATTRIBUTE = 'T" tabindex="0" autofocus="" onfocus="window.__pwned=1" x="'
MARKUP = "<img src=x onerror=window.__pwned=2>"
TERMINAL = "SWB\x1b[2K\r\x1b[1Alegal\x1b[8m"
BIDI = "\u202eBWS"


def _cli(*argv: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "triggerstack.solver", *argv], capture_output=True, check=False)


def _proposal(tmp_path: Path, *names: str) -> Path:
    legal = json.loads((ERTAI / "legal.json").read_text())
    legal["stack"] += [{"ability": n} for n in names]
    path = tmp_path / "proposal.json"
    path.write_text(json.dumps(legal))
    return path


@pytest.mark.parametrize(
    ("where", "doc"),
    [
        ("players[1].id", {"players": ["A", BIDI]}),
        ("objects[0].id", {"players": ["A"], "objects": [{"id": "x\x1b[2J", "controller": "A"}]}),
        ("triggers[0].id", {"players": ["A"], "triggers": [{"id": "T\ufdd0", "controller": "A"}]}),
        ("triggers[0].targets[0].id", {"players": ["A"], "triggers": [{"id": "T", "controller": "A", "targets": [{"id": "r\u2066", "filter": {"kind": "player"}}]}]}),
    ],
)
def test_a_scenario_id_that_would_not_show_as_itself_is_bad_input(where: str, doc: dict[str, object]) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(doc)
    line = info.value.one_line()
    assert line.startswith(where + ":") and "must show as itself" in line
    assert visible(line) == line  # the message shows the id escaped, not raw


def test_check_text_cannot_be_rewritten_by_a_proposal(tmp_path: Path) -> None:
    """An id with terminal escapes could erase 'illegal: 2 violations' and write 'legal'; it is
    printed escaped (exit code 1 and every violation still shown)."""
    done = _cli("check", str(ERTAI / "scenario.yaml"), str(_proposal(tmp_path, TERMINAL, BIDI)))
    assert done.returncode == 1
    out = done.stdout.decode()
    assert "\x1b" not in out and "\r" not in out and "\u202e" not in out
    assert out.startswith("illegal: 2 violations\n")
    assert "SWB\\u001b[2K\\u000d\\u001b[1Alegal\\u001b[8m" in out and "\\u202eBWS" in out


def test_json_output_escapes_what_would_not_show_and_means_the_same(tmp_path: Path) -> None:
    service = Service()
    legal = json.loads((ERTAI / "legal.json").read_text())
    legal["stack"].append({"ability": BIDI + "\x85"})
    request = {"jsonrpc": "2.0", "id": 1, "method": "check", "params": {"scenario": parse_scenario_doc(), "proposal": legal}}
    line = service.handle(json.dumps(request))
    assert line is not None and "\u202e" not in line and "\x85" not in line
    answer = json.loads(line)
    assert any(BIDI + "\x85" in v["message"] for v in answer["result"]["violations"])  # the same text, escaped


def parse_scenario_doc() -> object:
    import yaml

    return yaml.safe_load((ERTAI / "scenario.yaml").read_text())


def test_the_svg_of_a_hostile_proposal_is_well_formed_and_adds_no_attribute(tmp_path: Path) -> None:
    """An id that closes the data-ability attribute and adds an event handler is drawn as text: the
    SVG parses as XML, no element has an on* attribute, and data-ability holds the whole id."""
    scenario = compile_facts(parse_scenario(parse_scenario_doc()))
    proposal = Outcome.model_validate(json.loads(_proposal(tmp_path, ATTRIBUTE, MARKUP, TERMINAL).read_text()))
    svg = verdict_svg(scenario, proposal, check(scenario, proposal))
    root = ET.fromstring(svg)
    attributes = {name for node in root.iter() for name in node.attrib}
    assert not any(name.lower().startswith("on") or name in ("tabindex", "autofocus", "src") for name in attributes)
    drawn = {node.get("data-ability") for node in root.iter() if node.get("data-ability") is not None}
    assert {ATTRIBUTE, MARKUP, visible(TERMINAL)} <= drawn
    assert not any(node.tag.endswith("img") for node in root.iter())
    done = _cli("check", str(ERTAI / "scenario.yaml"), str(_proposal(tmp_path, ATTRIBUTE, TERMINAL)), "--format", "svg")
    assert done.returncode == 1 and b"\x1b" not in done.stdout
    ET.fromstring(done.stdout)  # the file a browser opens: XML, so no markup runs from it


def test_a_long_name_is_cut_in_its_box_with_the_whole_name_on_hover(tmp_path: Path) -> None:
    scenario = compile_facts(parse_scenario(parse_scenario_doc()))
    long = "X" * 5000
    proposal = Outcome.model_validate(json.loads(_proposal(tmp_path, long).read_text()))
    root = ET.fromstring(verdict_svg(scenario, proposal, check(scenario, proposal)))
    ns = "{http://www.w3.org/2000/svg}"
    box = next(g for g in root.iter(ns + "g") if g.get("data-ability") == long)
    assert box.findtext(ns + "title") == long
    name = "".join(box.find(ns + "text").itertext())  # type: ignore[union-attr]
    assert name.endswith("…") and len(name) < 60


@pytest.mark.parametrize("cp", [0x00, 0x1B, 0x7F, 0x85, 0x9F, 0x061C, 0x200F, 0x202E, 0x2069, 0xD800, 0xFDD0, 0xFFFF, 0x1FFFE, 0x10FFFF])
def test_every_unsafe_code_point_is_escaped_in_ascii_and_astral_company(cp: int) -> None:
    """The quick searches (model/_text.py) miss nothing the full rule names, whatever the text
    around it holds (ASCII only, or astral characters such as emoji)."""
    for around in ("plain ascii ", "emoji \U0001f600 ", "accents é "):
        text = around + chr(cp) + around
        shown = visible(text)
        assert chr(cp) not in shown and json.loads('"' + shown.replace('"', '\\"') + '"') == text
    for safe in ("plain", "\U0001f600 \U0001fffd é ǅ", "line\nbreak"):
        assert visible(safe.replace("\n", " ")) == safe.replace("\n", " ")


def test_json_lines_are_written_safe_by_their_short_check(capsys: pytest.CaptureFixture[str]) -> None:
    """The command line writes enumerate's lines checking only for DEL (json.dumps escapes the rest):
    a DEL is still escaped, and a line without one is written as it is."""
    from triggerstack.solver import _output

    _output.write('{"a":"x\x7fy"}\n{"b":1}\n', json_lines=True)
    _output.write('{"b":"\\u001b"}\n', json_lines=True)
    assert capsys.readouterr().out == '{"a":"x\\u007fy"}\n{"b":1}\n{"b":"\\u001b"}\n'


def test_what_shows_as_nothing_is_escaped_as_unicode_data_says_and_as_the_id_rule_refuses() -> None:
    """The escaper's class (model/_text.UNSAFE) is held to Python's Unicode data, code point by code
    point: every control, format, surrogate, private-use, line and paragraph separator (Cc, Cf, Cs,
    Co, Zl, Zp), noncharacter, bidirectional mark and default-ignorable code point, and nothing else.
    And it is the id rule's: what :func:`printable_id` refuses as shown as nothing or as something
    else, :func:`visible` escapes (a proposal naming ``SWB`` + U+200B printed as ``SWB``: helper-62e)."""
    import unicodedata

    from triggerstack.model._text import UNSAFE, printable_id

    ignorable = {0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x3164, 0xFFA0, *range(0x180B, 0x1810)}
    ignorable |= {*range(0xFE00, 0xFE10), *range(0xE0000, 0xE1000), *range(0x2060, 0x2070)}
    wrong = []
    for cp in range(0x110000):
        ch = chr(cp)
        category = unicodedata.category(ch)
        noncharacter = 0xFDD0 <= cp <= 0xFDEF or cp & 0xFFFE == 0xFFFE
        expected = category in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") or noncharacter or cp in ignorable
        if cp >= 0xF0000:  # planes 15 and 16: private use, their unassigned two its noncharacters
            expected = True
        escaped = UNSAFE.fullmatch(ch) is not None
        if escaped != expected:
            wrong.append(f"U+{cp:04X} {category}")
        if category in ("Zs", "Mn", "Mc", "Me", "Cs") or escaped or not unicodedata.is_normalized("NFC", ch):
            continue  # look-alike rules of ids (a space, a mark, a form other than C), not shown as nothing
        try:
            printable_id(f"a{ch}a")
        except ValueError:
            wrong.append(f"U+{cp:04X} {category}: refused in an id, shown as itself in a text")
    assert not wrong, wrong[:20]


_BREAKS = st.sampled_from(["\n", "\r\n", "\r", "\u2028", "\u2029", "\x85", "\x0b", "\x0c"])


def _broken(value: Any, brk: str) -> Any:
    """``value`` with a line break inside every ``text`` it holds."""
    if isinstance(value, dict):
        return {k: (f"a{brk}b" if k == "text" else _broken(v, brk)) for k, v in value.items()}
    if isinstance(value, list):
        return [_broken(v, brk) for v in value]
    return value


@settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(doc=scenarios(max_abilities=4), brk=_BREAKS, data=st.data())
def test_a_line_break_a_value_holds_never_adds_a_line(doc: dict[str, Any], brk: str, data: st.DataObject) -> None:
    """Every verb's terminal text is one line per line it means (model/_text.shown_lines): a line
    break inside a trigger's or a mode's text, or inside an id a proposal names, is its escape.
    Before, `check` printed a proposal's ``SWB\\nlegal: 0 violations`` as a line of its own, and
    explain a text's (helper-62e)."""
    try:
        plain = Scenario.model_validate(_broken(doc, " "))
        broken = Scenario.model_validate(_broken(doc, brk))
    except ScenarioError:
        return
    assert len(explain(broken).text().split("\n")) == len(explain(plain).text().split("\n"))
    abilities = [t["id"] for t in doc["triggers"]]
    if not abilities:
        return
    name = data.draw(st.sampled_from(abilities)) + brk + "legal"
    stack = [{"ability": a} for a in abilities] + [{"ability": name, "modes": [{"mode": f"m{brk}x"}]}]
    verdict = check(broken, Outcome.model_validate({"stack": stack}))
    assert len(verdict.text().split("\n")) == 1 + len(verdict.violations), verdict.text()
