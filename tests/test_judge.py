"""The judge room is the one home of each rule's reason: ``check`` (a whole proposal), ``step``
(one decision of a walk) and ``explain`` (each mode and candidate) say the same sentence for the
same rule, because each asks the same function of ``solver/_judge/``; nothing outside the judge
room words a reason or holds one (a type pairing a rule with a sentence), and no rule number is
written by hand in a string anywhere — the judge room cites :class:`Rule` — except where listed
below with why.

Private unit: the judge room (solver/_judge) and the facts it words (model/_targeting.Bar)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import yaml
from triggerstack.model import Outcome, Rule, Scenario
from triggerstack.model._targeting import Bar
from triggerstack.solver import LegalOutcomes
from triggerstack.solver import _judge as judge

from .conftest import ROOT


def _case(path: str) -> tuple[LegalOutcomes, dict[str, Any]]:
    doc = yaml.safe_load((ROOT / path).read_text(encoding="utf-8"))
    proposals = {p["name"]: p["proposal"] for p in doc.get("proposals", [])}
    return LegalOutcomes(Scenario.model_validate(doc["scenario"])), proposals


def _example(name: str) -> tuple[LegalOutcomes, dict[str, Any]]:
    folder = ROOT / "examples" / name
    scenario = yaml.safe_load((folder / "scenario.yaml").read_text(encoding="utf-8"))
    proposal = yaml.safe_load((folder / "illegal.json").read_text(encoding="utf-8"))
    return LegalOutcomes(Scenario.model_validate(scenario)), proposal


def _why(legal: LegalOutcomes, taken: list[str], asked: str) -> judge.Reason:
    stepper = legal.stepper()
    walk = stepper.walk(taken)
    decision = stepper.decision(asked)
    assert decision.id not in {d.id for d in stepper.legal(walk)}, f"{asked} is legal after {taken}"
    return stepper.why_illegal(walk, decision)


def _ability(legal: LegalOutcomes, aid: str) -> Any:
    return legal.facts.abilities[legal.facts.ability_index[aid]]


def _explained(legal: LegalOutcomes, aid: str) -> dict[str, Any]:
    explained = legal.explain().to_json()
    return next(a for a in explained["abilities"] if a["id"] == aid)


def test_a_mode_not_available_is_one_sentence_in_check_step_and_explain() -> None:
    """700.2: TWO's mode scry is marked unavailable."""
    legal, proposals = _case("tests/cases/603.3c/modes.yaml")
    two = _ability(legal, "TWO")
    said = judge.mode_unavailable(two, two.modes[two.mode_index["scry"]])
    (violation,) = legal.check(Outcome.model_validate(proposals["unavailable-mode"])).violations
    assert (violation.code, violation.rule, violation.message) == (said.code, said.rule, said.text)
    stepped = _why(legal, ["put TWO"], "mode TWO:scry")
    assert stepped == said
    mode = next(m for m in _explained(legal, "TWO")["modes"] if m["id"] == "scry")
    assert (mode["status"], mode["reason"]) == ("unavailable", said.text)


def test_a_target_not_yet_on_the_stack_is_one_sentence_in_check_and_step() -> None:
    """601.2c: Ertai's ability E can target SWA only once SWA is on the stack below it."""
    legal, proposal = _example("ertai-resurrected")
    e = _ability(legal, "E")
    said = judge.not_on_stack(legal.facts, e, legal.facts.thing_index["SWA"])
    (violation,) = legal.check(Outcome.model_validate(proposal)).violations
    assert violation.code is said.code and violation.rule is said.rule
    assert violation.message.endswith(": " + said.text)
    assert _why(legal, ["put SWB", "put E", "mode E:counter", "end modes"], "target SWA") == said


def test_an_excluded_candidate_gives_one_reason_in_check_step_and_explain() -> None:
    """702.11b: Flametongue Kavu's trigger can't target B's hexproof Gladecover Scout."""
    legal, _ = _example("flametongue-kavu")
    ftk = _ability(legal, "FTK")
    requirement = ftk.modes[0].requirements[0]
    (said,) = judge.excluded(legal.facts, ftk, requirement, legal.facts.thing_index["scout"])
    proposal = {"stack": [{"ability": "FTK", "targets": {requirement.id: ["scout"]}}]}
    (violation,) = legal.check(Outcome.model_validate(proposal)).violations
    assert (violation.code, violation.rule) == (said.code, said.rule)
    assert violation.message.endswith(": " + said.text)
    stepped = _why(legal, ["put FTK"], "target scout")
    assert (stepped.code, stepped.rule) == (said.code, said.rule) and stepped.text.endswith(": " + said.text)
    (shown,) = [
        x for x in _explained(legal, "FTK")["modes"][0]["requirements"][0]["excluded"] if x["id"] == "scout"
    ]
    assert (shown["code"], shown["rule"], shown["reason"]) == (said.code, said.rule, said.text)


def _words_a_reason(path: Path) -> list[str]:
    """Where a module outside the judge room builds a reason or a violation itself."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name in ("Reason", "Violation") or (
                isinstance(f, ast.Attribute) and f.attr == "of" and isinstance(f.value, ast.Name) and f.value.id == "Reason"
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_only_the_judge_room_words_a_reason() -> None:
    room = ROOT / "solver" / "_judge"
    inside = [w for p in sorted(room.glob("*.py")) for w in _words_a_reason(p)]
    assert len(inside) > 30  # the check is not vacuous: the judge room words every reason
    outside = [
        w
        for folder in ("model", "solver", "adapters")
        for p in sorted((ROOT / folder).rglob("*.py"))
        if room not in p.parents
        for w in _words_a_reason(p)
    ]
    assert not outside, "a reason worded outside solver/_judge/: " + ", ".join(outside)


def test_every_bar_is_said_with_a_code_and_rule_the_formats_table_gives_it() -> None:
    """Each rule that bars a candidate (a :class:`Bar`, a fact of model/) is given its code and rule
    by the judge room alone, and docs/formats.md's table of violation codes lists that rule for that
    code (702.11c beside 702.11b for target-hexproof, 702.16j beside 702.16b, 800.4a beside 601.2c)."""
    table = (ROOT / "docs" / "formats.md").read_text(encoding="utf-8").split("### Violation codes", 1)[1]
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| ([^|]+?) \|", table.split("\n## ", 1)[0], flags=re.M))
    legal, _ = _example("flametongue-kavu")
    ftk = _ability(legal, "FTK")
    requirement = ftk.modes[0].requirements[0]
    said = {bar: judge.barred(legal.facts, ftk, requirement, legal.facts.thing_index["scout"], bar) for bar in Bar}
    for bar, why in said.items():
        assert why.code is not None and why.rule is not None, bar
        assert why.rule.value in rows[why.code.value], (bar, why.code, why.rule, rows[why.code.value])
    assert {why.rule for why in said.values()} >= {Rule.R702_11B, Rule.R702_11C, Rule.R702_11D, Rule.R702_16J}


# -- the guard: one home ------------------------------------------------------------------------

RULE_NUMBER = re.compile(r"(?<![\w.])[1-9]\d{2}\.\d{1,3}[a-z]?(?!\w|\.\d)")
"""A Comprehensive Rules number (601.2c, 702.11b, 603.3, 702.124j), not an address (127.0.0.1)."""

DOCUMENTATION = {"description", "help", "summary"}
"""Keyword arguments that document a field, a flag or an operation (a schema's ``description``, a
flag's ``help``): what the format is, never why a choice is not legal."""

TEXT_FIELDS = {"reason", "text", "message", "why"}


def _rule_numbers_in(source: str) -> dict[str, list[int]]:
    """Every rule number written in a string of ``source`` (f-strings' literal parts too), by line;
    docstrings and other bare string statements, and documentation keywords, are not looked at."""
    tree = ast.parse(source)
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip.add(id(node.value))
        elif isinstance(node, ast.keyword) and node.arg in DOCUMENTATION:
            skip.update(id(n) for n in ast.walk(node.value))
    found: dict[str, list[int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            for number in RULE_NUMBER.findall(node.value):
                found.setdefault(number, []).append(node.lineno)
    return found


def _exclusion_like_in(source: str) -> list[str]:
    """The types of ``source`` that hold a reason: a class named for one (``Exclusion``, ``Reason``,
    ``Violation``), a class with a ``rule`` field beside a sentence (``reason``, ``text``,
    ``message``, ``why``), and a ``tuple[Rule, str]`` anywhere."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            fields = {s.target.id for s in node.body if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)}
            if re.search(r"Exclusion|Reason|Violation", node.name) or ("rule" in fields and fields & TEXT_FIELDS):
                found.append(node.name)
        annotation: ast.expr | None = None
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            annotation = node.returns
        elif isinstance(node, ast.AnnAssign | ast.arg):
            annotation = node.annotation
        if annotation is not None and "tuple[Rule, str]" in ast.unparse(annotation):
            found.append(f"{ast.unparse(annotation)} (line {annotation.lineno})")
    return found


ALLOWED_RULE_NUMBERS: dict[str, tuple[frozenset[str] | None, str]] = {
    "model/_rules.py": (frozenset(r.value for r in Rule), "the one table of rule numbers: each Rule's value"),
    "model/_controllers.py": (
        frozenset({"113.8", "603.10a", "603.3a"}),
        "603.3a's derivation of a controller says what it assumed and how to say otherwise: no judgment",
    ),
    "model/_shapes.py": (
        frozenset({"601.2d", "603.3a", "700.2d"}),
        "bad input: a document that contradicts the format (a ScenarioError naming the rule), not a choice",
    ),
    "model/_references.py": (
        frozenset({"603.2", "800.4a"}),
        "bad input: a reference the document leaves unresolved, or a state the rules do not allow",
    ),
    "model/_limits.py": (frozenset({"603.3b"}), "what a cap stops: the tool's limit, not a rule broken"),
    "model/_passes.py": (frozenset({"603.3b"}), "the cap on passes: the tool's limit, not a rule broken"),
    "solver/_core/_loops.py": (frozenset({"603.3b"}), "what the deadline interrupted: the tool's limit"),
    "solver/_core/chain.py": (frozenset({"603.3b"}), "what the deadline interrupted: the tool's limit"),
    "solver/_engines/select.py": (frozenset({"603.3b"}), "why an option does not apply: the tool's limit"),
    "solver/_verbs/explain.py": (
        frozenset({"115.3", "601.2c", "603.3b", "700.2e"}),
        "labels of explain's text (what a line shows), not reasons: every reason it shows is the judge's",
    ),
    "solver/_verbs/draw.py": (frozenset({"603.3b"}), "a label of the picture's legend"),
    "adapters/phase/_answers.py": (
        frozenset({"601.2c"}),
        "what phase.rs asked that it should not have: a deviation of the engine, not a judgment",
    ),
    "adapters/phase/_board.py": (frozenset({"702.21a"}), "a ward trigger's text, written into the scenario (data)"),
    "adapters/phase/_prompt.py": (
        frozenset({"603.3b"}),
        "what phase.rs did that the core's walks do not take (the core judged it): a gap of the engine",
    ),
    "model/cards": (
        None,
        "the card reader's words: what a card says and what the reader could not read (docs/cards.md), "
        "its keywords' rules; legality is judged from the scenario it writes",
    ),
}
"""Where a rule number may be written in a string, and why: none is a reason why something is not
legal (those are the judge room's, citing :class:`Rule`). A folder's entry (no set) covers every
module under it."""

ALLOWED_TYPES: dict[tuple[str, str], str] = {
    ("model/_reports.py", "ViolationReport"): "the published shape of check's answer, filled from the judge's reasons",
    ("model/_reports.py", "Exclusion"): "the published shape of explain's excluded thing, filled from the judge",
    ("model/_reports.py", "Ignored"): "the published shape of explain's ignored property, filled from the judge",
    ("model/_reports.py", "LoopReport"): "the published shape of explain's loop, filled from the judge's loop error",
    ("model/_controllers.py", "Control"): "603.3a's controller with the rule that decided it: a fact, no judgment",
    ("solver/_verbs/step/__init__.py", "WhyResult"): "step.why's published answer: the judge's Reason as the verb gives it",
}
"""The types outside the judge room that pair a rule with a sentence, and why each may."""

PRODUCT = ("model", "solver", "adapters")
ROOM = ROOT / "solver" / "_judge"


def _modules() -> list[Path]:
    return [p for folder in PRODUCT for p in sorted((ROOT / folder).rglob("*.py"))]


def _allowance(rel: str) -> tuple[str, frozenset[str] | None] | None:
    key = next((k for k in ALLOWED_RULE_NUMBERS if rel == k or rel.startswith(k + "/")), None)
    return None if key is None else (key, ALLOWED_RULE_NUMBERS[key][0])


def test_no_rule_number_is_written_in_a_string_but_where_listed() -> None:
    """A rule number has one home, :class:`Rule` (model/_rules.py): a sentence cites it from there, so
    changing a number changes one file. Each exception is listed with why, and a stale one fails."""
    wrong, seen = [], set()
    for path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        found = _rule_numbers_in(path.read_text(encoding="utf-8"))
        allowed = _allowance(rel)
        if allowed is not None and found:
            seen.add(allowed[0])
            if allowed[1] is None:
                continue
            seen.update(f"{allowed[0]}:{n}" for n in found)
        for number, lines in sorted(found.items()):
            if allowed is None or (allowed[1] is not None and number not in allowed[1]):
                wrong.append(f"{rel}:{lines[0]}: {number}")
    assert not wrong, "a rule number written in a string (cite Rule in the judge room, or list it here): " + ", ".join(wrong)
    stale = [k for k, (numbers, _) in ALLOWED_RULE_NUMBERS.items() if k not in seen] + [
        f"{k}:{n}" for k, (numbers, _) in ALLOWED_RULE_NUMBERS.items() for n in sorted(numbers or ()) if f"{k}:{n}" not in seen
    ]
    assert not stale, "an allowance no string needs any more: " + ", ".join(stale)


def test_no_type_outside_the_judge_room_holds_a_reason() -> None:
    """What bars a candidate, forces a removal or makes a loop is a fact in model/ and solver/_core/
    (an enum, a rule); only the judge room pairs a rule with a sentence (:class:`~judge.Reason`)."""
    found = {
        (path.relative_to(ROOT).as_posix(), name)
        for path in _modules()
        if ROOM not in path.parents
        for name in _exclusion_like_in(path.read_text(encoding="utf-8"))
    }
    assert not found - set(ALLOWED_TYPES), f"a reason held outside solver/_judge/: {sorted(found - set(ALLOWED_TYPES))}"
    assert not set(ALLOWED_TYPES) - found, f"an allowance no type needs any more: {sorted(set(ALLOWED_TYPES) - found)}"
    inside = [name for path in sorted(ROOM.glob("*.py")) for name in _exclusion_like_in(path.read_text(encoding="utf-8"))]
    assert "Reason" in inside  # the check is not vacuous: the room's own vocabulary is such a type


PLANTED = '''
"""Docstrings cite rules: 702.11b."""
from pydantic import Field


class Exclusion:
    code: str


class Why:
    rule: Rule
    text: str


def forced(a) -> tuple[Rule, str] | None:
    return None


def hexproof(t, you):
    size: int = Field(description="as 601.2d says")
    host = "127.0.0.1"
    return f"{t} has hexproof and {you} is an opponent (702.11b); rule 603.3c-d, 601.2b–d"
'''


def test_the_guards_find_what_they_refuse() -> None:
    """Planted variants nobody listed: a sentence citing rules by hand, an ``Exclusion``, a rule beside
    a text field, a ``tuple[Rule, str]``; docstrings, documentation keywords and addresses pass."""
    assert _rule_numbers_in(PLANTED) == {"702.11b": [22], "603.3c": [22], "601.2b": [22]}
    found = _exclusion_like_in(PLANTED)
    assert found[:2] == ["Exclusion", "Why"] and len(found) == 3 and "tuple[Rule, str]" in found[2]
