"""What a stranger with the docs broke beside the last rounds' fixes (helper-62e): the terminal text a
judge reads (a value's line break printed as a line of its own, an invisible character in a
proposal's id printed as nothing), the Java conformance runner printing a case's id raw, the command
line's streams never held to --max-answer, the RL environments' doors that skip the one argument
check, the page's name suggestions that ignore a name's normal form, and a suite file's problems
named in words that do not fit. Each finding is a strict expected failure, in the order of harm: a
sentence that forges or blurs a verdict, then unbounded work, then crashes, then unclear answers.
Variants that held sit beside them as plain tests, so that a fix of one does not undo another.
Each test asserts what the docs promise, on variants generated or crafted for the door, never the
result the product gives today.
"""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from .conftest import EXAMPLES, ROOT
from .test_attacks_60f import _cli, _http

ERTAI = EXAMPLES / "ertai-resurrected" / "scenario.yaml"
CASE = ROOT / "conformance" / "cases" / "family" / "apnap-2x1.json"


def _proposal(tmp_path: Path, first: str) -> Path:
    """A proposal of the README's board whose bottom entry names ``first`` (a proposal is judged,
    never refused: docs/formats.md), the rest legal."""
    doc = {
        "stack": [
            {"ability": first},
            {"ability": "SWA"},
            {"ability": "E", "modes": [{"mode": "destroy", "targets": {"creature": ["warden_b"]}}]},
        ]
    }
    path = tmp_path / "proposal.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------------
# A forged verdict: a line break inside a value is printed as a line of its own. docs/formats.md:
#     "Texts, and the ids a proposal names ... may hold anything, and are shown with each control,
#     bidirectional or noncharacter code point written as its JSON escape ... in terminal text";
#     docs/conformance.md: each character "that would not show as itself ... written as its JSON
#     escape, as this tool writes all text from outside on a terminal". A proposal naming the
#     ability "SWB\nlegal: 0 violations" makes `check` print a line `legal: 0 violations: SWB` under
#     `illegal: 2 violations`; a trigger's text "gain 1 life.\nlegal outcomes: 999" gives explain a
#     line `legal outcomes: 999`; a case whose id is "x\nFAIL ..." makes the runner print `pass x`
#     then `FAIL ...`. U+2028 and U+2029 (which Python's splitlines, a log reader and the page's
#     JavaScript take as line ends) are not escaped at all. Suspected mechanism: terminal text is
#     escaped at the edge, whole, after it is assembled (solver/_cli._write, model/_text.visible_lines
#     keeps "\n" so the lines survive), so a value's "\n" can't be told from a line end; and
#     model/_text.UNSAFE leaves out the line and paragraph separators (Zl, Zp) that printable_id refuses.

_SEPARATORS = [
    pytest.param("\n", id="LF"),
    pytest.param("\u2028", id="LINE-SEPARATOR"),
    pytest.param("\u2029", id="PARAGRAPH-SEPARATOR"),
    pytest.param("\r\n", id="CRLF"),
    pytest.param("\r", id="CR"),  # these held: escaped as \u000d ...
    pytest.param("\x0b", id="VT"),
    pytest.param("\x0c", id="FF"),
    pytest.param("\x1c", id="FS"),
    pytest.param("\x1e", id="RS"),
    pytest.param("\x85", id="NEL"),
]


@pytest.mark.parametrize("sep", _SEPARATORS)
def test_a_proposal_id_forges_no_line_of_checks_verdict(tmp_path: Path, sep: str) -> None:
    proposal = _proposal(tmp_path, f"SWB{sep}legal: 0 violations")
    judged = _cli("check", str(ERTAI), str(proposal))
    as_json = _cli("check", str(ERTAI), str(proposal), "--json")
    violations = json.loads(as_json.stdout)["violations"]
    assert judged.returncode == 1 and len(violations) == 2
    assert len(judged.stdout.splitlines()) == 1 + len(violations), judged.stdout  # a heading, a line each


@pytest.mark.parametrize("sep", _SEPARATORS)
def test_a_trigger_text_forges_no_line_of_explain(tmp_path: Path, sep: str) -> None:
    def explained(text: str) -> list[str]:
        doc = {
            "players": ["A", "B"],
            "objects": [{"id": "x", "controller": "B", "types": ["creature"]}],
            "triggers": [
                {"id": "T", "controller": "A", "text": text, "targets": [{"id": "r", "filter": {"type": "creature"}}]}
            ],
        }
        path = tmp_path / "s.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        done = _cli("explain", str(path))
        assert done.returncode == 0, done.stderr
        return done.stdout.splitlines()

    plain, broken = explained("gain 1 life. legal outcomes: 999"), explained(f"gain 1 life.{sep}legal outcomes: 999")
    assert len(broken) == len(plain), broken


def _case_folder(tmp_path: Path, case_id: str) -> Path:
    folder = tmp_path / "suite"
    folder.mkdir()
    case = json.loads(CASE.read_text(encoding="utf-8"))
    (folder / "c.json").write_text(json.dumps({**case, "id": case_id}), encoding="utf-8")
    return folder


def test_a_case_id_forges_no_line_of_the_runners_report(tmp_path: Path) -> None:
    done = _cli("conformance", "run", "--self", "--suite", str(_case_folder(tmp_path, "x\nFAIL everything")))
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "1 of 1 cases pass"
    assert len(done.stdout.splitlines()) == 2, done.stdout  # the case's line and the summary


# ---------------------------------------------------------------------------------------------------
# The two runners say a case otherwise: the Java runner prints a case's id raw, ESC and all.
#     docs/conformance.md: the Java runner "says every case, difference, noise line and summary in
#     the same words" as the Python runner, which writes text from outside with each character that
#     would not show as itself as its JSON escape. For a case whose id holds a colour code, Python
#     prints `pass x\u001b[31mred`, Java `pass x` + a raw ESC that turns the terminal red. The
#     parity table (tests/data/runner_variations.yaml) varies the engine's answers, never the
#     suite's own text. Suspected mechanism: ConformanceRunner.java escapes noise lines only.


def test_the_java_runner_shows_a_case_id_as_the_python_runner_does(tmp_path: Path, java_classes: Path) -> None:
    folder = _case_folder(tmp_path, "x\x1b[31mred\u202e")
    python = _cli("conformance", "run", "--self", "--suite", str(folder))
    engine = [sys.executable, "-m", "triggerstack.solver", "serve", "--stdio"]
    java = subprocess.run(
        ["java", "-cp", str(java_classes), "ConformanceRunner", str(folder), *engine],
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert "\x1b" not in java.stdout, java.stdout
    assert (java.returncode, java.stdout) == (python.returncode, python.stdout)


# ---------------------------------------------------------------------------------------------------
# A verdict that blurs: an invisible character in a proposal's id is printed as nothing. docs/formats.md:
#     "Every id shows as itself, so no two ids print alike" — and a scenario's id may hold no format
#     character, variation selector or other default-ignorable code point, because "a terminal and
#     a page show X and X alike". A proposal's ids are shown, not refused, with "each control,
#     bidirectional or noncharacter code point" escaped: so a proposal naming "SWB" + U+200B prints
#     `603.3 missing-ability SWB: SWB is neither on the stack nor removed` above `603.3b
#     unknown-ability SWB: SWB (stack[0]) did not trigger` — a judge reads that SWB did not trigger.
#     Suspected mechanism: the text escaper (model/_text.UNSAFE) and the id rule (printable_id) are
#     two classes: what printable_id refuses as invisible, visible() still shows raw.

_INVISIBLE = st.one_of(
    st.characters(
        categories=["Cf"], exclude_characters="\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    ),
    st.sampled_from(["\ufe0f", "\ufe00", "\u034f", "\u115f", "\u17b4", "\u180b", "\U000e0100"]),
)


def _invisible(c: str) -> bool:
    return unicodedata.category(c) == "Cf" or c in "\ufe0f\ufe00\u034f\u115f\u17b4\u180b\U000e0100"


@settings(max_examples=8, deadline=None)
@given(invisible=_INVISIBLE)
def test_a_proposal_id_never_prints_as_the_scenarios_id(
    tmp_path_factory: pytest.TempPathFactory, invisible: str
) -> None:
    proposal = _proposal(tmp_path_factory.mktemp("p"), f"SWB{invisible}")
    judged = _cli("check", str(ERTAI), str(proposal))
    assert judged.returncode == 1
    assert not any(_invisible(c) for c in judged.stdout), ascii(judged.stdout)


# ---------------------------------------------------------------------------------------------------
# Unbounded output: the command line's enumerate and sample are never held to --max-answer.
#     docs/cli.md, Limits: every verb is bounded by the caps "the same on the command line, in batch
#     lines, over JSON-RPC and HTTP", --max-answer "bytes of one answer, counted as written";
#     docs/server.md: the stream /v1/enumerate/lines is held to it "as a whole". `sample -n
#     1000000000000 --max-answer 1000` wrote 66 MB in 60 s and stopped only at the time limit (exit
#     3); `enumerate --max-answer 300` prints all 1,318 bytes, exit 0. Round 61e's fix held count
#     --divide and best (each verb's answer); the streams go around it. Suspected mechanism:
#     solver/_cli._stream writes verb.lines() with no Spending, outside model/_answer.py's writer.


@pytest.mark.parametrize(
    "argv", [("enumerate",), ("sample", "-n", "50"), ("sample", "-n", "3", "--seed", "7")], ids=" ".join
)
def test_the_command_lines_streams_stop_at_max_answer(argv: tuple[str, ...]) -> None:
    done = _cli(*argv[:1], str(ERTAI), *argv[1:], "--max-answer", "200")
    assert len(done.stdout.encode("utf-8")) <= 200, len(done.stdout)
    assert done.returncode == 2 and "--max-answer" in done.stderr, (done.returncode, done.stderr)


# ---------------------------------------------------------------------------------------------------
# Crashes and guesses at the RL doors: reset's options and vector_env's count skip the one check.
#     docs/rl.md: `reset(seed=..., options={"scenario": ...})`; "any other [seed] ... is refused at
#     reset naming it ... by the one check every door that takes a seed or a count shares
#     (model/_args.py)"; vector reset takes "one seed per board: a list, a tuple or a
#     one-dimensional NumPy array of integers". Found: options=[1] raises AttributeError ('list'
#     object has no attribute 'get'); options={"scenari": path} (a misspelt key) is ignored and the
#     old board is played; rl.vector_env("2", ...) raises TypeError ('<' not supported between str
#     and int) and vector_env(2.0, ...) "'float' object cannot be interpreted as an integer"; a set
#     of seeds is taken in the set's iteration order; bytes are "a list of 2". Suspected mechanism:
#     the environments read options with dict.get and num_envs with a bare comparison, not through
#     model/_args.py.


def _refused(call: Any, *names: str) -> None:
    from triggerstack.model import UsageError

    with pytest.raises((UsageError, ValueError)) as caught:
        call()
    assert not isinstance(caught.value, (TypeError, AttributeError)), repr(caught.value)
    assert any(n in str(caught.value) for n in names), str(caught.value)


@pytest.mark.parametrize("options", [[1], "scenario", {"scenari": str(ERTAI)}, {"seed": 1}], ids=repr)
def test_reset_refuses_options_it_does_not_read(options: Any) -> None:
    rl = pytest.importorskip("triggerstack.solver.rl")
    env = rl.env(str(ERTAI))
    _refused(lambda: env.reset(seed=1, options=options), "options")


@pytest.mark.parametrize(
    ("door", "value"),
    [("num_envs", "2"), ("num_envs", 2.0), ("num_envs", True), ("seed", {1, 2}), ("seed", b"12")],
    ids=repr,
)
def test_the_vector_environment_checks_its_counts_and_seeds_as_every_door_does(door: str, value: Any) -> None:
    rl = pytest.importorskip("triggerstack.solver.rl")
    if door == "num_envs":
        _refused(lambda: rl.vector_env(value, str(ERTAI)), "num_envs")
    else:
        envs = rl.vector_env(2, str(ERTAI))
        _refused(lambda: envs.reset(seed=value), "seed")
        if isinstance(value, bytes):  # refused, but as "found a list of 2": bytes are no list of seeds
            with pytest.raises(ValueError, match="seed") as caught:
                envs.reset(seed=value)
            assert "a list" not in str(caught.value), str(caught.value)


# ---------------------------------------------------------------------------------------------------
# Unclear answers. (1) The page's name suggestions ignore a name's normal form. docs/formats.md:
#     "Card names ... are looked up in any letter case and any normal form (Jo + U+0308 + tun Grunt
#     finds Jötun Grunt)"; docs/server.md: /page/cards answers names "beginning with TEXT". `card`,
#     /v1/card, a scenario's `card:` and /page/board all find Jötun Grunt written decomposed;
#     /page/cards answers {"names": [], "near": "Jötun Grunt"} — "no such card, did you mean" the card
#     typed. Suspected mechanism: the suggestion route folds case, not normal form.


@pytest.mark.parametrize("typed", ["Jo\u0308tun Grunt", "jo\u0308tun", "JO\u0308TUN G"])
def test_the_page_suggests_a_card_typed_in_another_normal_form(typed: str) -> None:
    pytest.importorskip("triggerstack.model.cards")
    pytest.importorskip("fastapi")
    found = _http().get("/page/cards", params={"q": typed}).json()
    assert any(n.startswith("Jötun Grunt") for n in found["names"]), found


# (2) A suite file nested too deep is refused "raise it with --max-depth", a flag `conformance run`
#     does not have (docs/conformance.md: the suite is read "within the document limits (16 MiB,
#     nesting 64, 20,000 digits)", fixed). (3) A suite file with a key the published schema does not
#     allow (conformance/schema.json: additionalProperties false) — a misspelt `peer_issues` — is
#     read as a case, where docs/conformance.md says "a file that is not a case — ... the wrong
#     shape — is bad input (exit 2) naming each such file". Suspected mechanism: the suite reader
#     borrows the document reader's messages and checks the required keys only.


def test_a_suite_file_too_deep_names_no_flag_the_verb_lacks(tmp_path: Path) -> None:
    folder = tmp_path / "suite"
    folder.mkdir()
    text = CASE.read_text(encoding="utf-8").rstrip()[:-1] + ', "deep": ' + "[" * 70 + "]" * 70 + "}"
    (folder / "c.json").write_text(text, encoding="utf-8")
    done = _cli("conformance", "run", "--self", "--suite", str(folder))
    assert done.returncode == 2 and "c.json" in done.stderr
    flags = _cli("conformance", "run", "--help").stdout
    assert all(f in flags for f in ("--max-depth",) if f in done.stderr), done.stderr


@pytest.mark.parametrize("key", ["peer_isues", "ilegal_extra", "counts"])
def test_a_suite_file_with_a_key_no_case_has_is_refused(tmp_path: Path, key: str) -> None:
    schema = json.loads((ROOT / "conformance" / "schema.json").read_text(encoding="utf-8"))
    assert schema["additionalProperties"] is False and key not in schema["properties"]
    folder = tmp_path / "suite"
    folder.mkdir()
    case = yaml.safe_load(CASE.read_text(encoding="utf-8"))
    (folder / "c.json").write_text(json.dumps({**case, key: []}), encoding="utf-8")
    done = _cli("conformance", "run", "--self", "--suite", str(folder))
    assert done.returncode == 2 and "c.json" in done.stderr and key in done.stderr, (done.returncode, done.stdout)
