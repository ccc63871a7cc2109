"""The two conformance runners apply one protocol (docs/conformance.md): every way of answering in
tests/data/runner_variations.yaml — right values written otherwise, noise, wrong answers, an engine
that errs, crashes, closes its output or goes silent — is put to ``triggerstack conformance run``
and to the Java runner (clients/java/ConformanceRunner.java) on the same cases. Each must pass the
right ways and fail the wrong ones with the words the table gives, and the Java runner must print
the Python runner's lines exactly — only the handles, which the engine makes up afresh each run
(docs/conformance.md: "any string the engine chooses"), are set aside.

Before, the Java runner crashed on a count of ``1.0`` and on a log line, failed every case when
``unload`` answered -32601, and refused ``"targets": {}`` in a first entry, where the Python runner
passed them; and both waited out the time limit on an answer whose id was ``1.0`` or that followed
a byte order mark. The cases are written to files named otherwise than their ids: both runners name
a case by its id.

The whole table runs at once, each runner's runs side by side — the Java ones in one JVM
(tests/doubles/RunnerTable.java) — against an engine answering from answers recorded beforehand
(no import of this package in it): the runs that wait out a time limit overlap the rest.

Private unit: solver/_cli._conformance, the command line's conformance runner, run in this process beside the Java runner.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.solver._cli import _conformance

from tests.doubles.mangling_engine import WAYS, record
from tests.test_conformance import CASES

from .conftest import JAVA, ROOT, load_script, main

MANGLER = ROOT / "tests" / "doubles" / "mangling_engine.py"
TABLE: list[dict[str, Any]] = yaml.safe_load(
    (ROOT / "tests" / "data" / "runner_variations.yaml").read_text(encoding="utf-8")
)
PICKED = ("115/domain-kind-player-not-you", "601.2d/inferno-titan", "603.3c/modes", "603.3b/ward")
"""A count of 1 (for ``true``), a divided ability's targets, modes, and 603.3b's passes."""
SECONDS = 60  # the time limit of both runners (a variation may give its own): generous, for a busy machine
KINDS = ("right", "noise", "wrong")
Said = tuple[int, list[str]]
"""A run's exit code and lines."""


def test_the_table_is_every_way_of_the_double_and_the_docs_say_so() -> None:
    """The table and the test double list the same ways (``nested`` and ``digits`` are
    test_conformance.py's: an answer never given), each once, right forms, noise and wrong answers
    all there; docs/conformance.md gives the table's size."""
    ways = [v["way"] for v in TABLE]
    assert len(ways) == len(set(ways)) >= 17
    assert set(ways) == set(WAYS) - {"nested", "digits"}
    assert {v["kind"] for v in TABLE} == set(KINDS)
    assert all(v.get("source") for v in TABLE)
    assert all(v.get("says") for v in TABLE if v["kind"] != "right")
    assert f"{len(TABLE)} ways an engine may answer" in (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The picked cases, in files named otherwise than their ids, and the answers the engine gives."""
    folder = tmp_path_factory.mktemp("suite")
    (folder / "x").mkdir()
    by_id = {c.id: c for c in CASES}
    for k, case_id in enumerate(PICKED, 1):
        (folder / "x" / f"case-{k}.json").write_text(json.dumps(by_id[case_id].data), encoding="utf-8")
    answers = tmp_path_factory.mktemp("answers") / "answers.json"
    record([by_id[c].data for c in PICKED], answers)
    return folder, answers


@pytest.fixture(scope="module")
def said(suite: tuple[Path, Path], request: pytest.FixtureRequest) -> dict[str, dict[str, Said] | str]:
    """Every way through both runners: ``{"python": {way: said}, "java": {way: said}}`` — or, for
    "java", why it did not run. The Python runs start first and go on while Java compiles."""
    folder, answers = suite
    runs = sorted(TABLE, key=lambda v: "seconds" not in v)  # the runs that wait out a time limit first

    def engine(way: str) -> list[str]:
        return [sys.executable, str(MANGLER), way, str(answers)]

    def python(variation: dict[str, Any]) -> Said:
        command = shlex.join(engine(variation["way"]))
        seconds = variation.get("seconds", SECONDS)
        code, text = _conformance(
            argparse.Namespace(suite=str(folder), itself=False, engine=command, time_limit=seconds, json=False)
        )
        return code, text.splitlines()

    with ThreadPoolExecutor(6) as pool:
        pending = {v["way"]: pool.submit(python, v) for v in runs}
        java = _java_table(
            request,
            [
                {
                    "name": v["way"],
                    "args": ["--time-limit", str(v.get("seconds", SECONDS)), str(folder), *engine(v["way"])],
                }
                for v in runs
            ],
        )
        return {"python": {way: run.result() for way, run in pending.items()}, "java": java}


def _java_table(request: pytest.FixtureRequest, runs: list[dict[str, Any]]) -> dict[str, Said] | str:
    """``runs`` (RunnerTable's lines: a name and ConformanceRunner's arguments) in one JVM, by name;
    or why Java did not run."""
    try:
        classes = request.getfixturevalue("java_classes")
    except pytest.skip.Exception as skipped:
        return str(skipped)
    return {name: (code, out.splitlines()) for name, (code, out) in _java_table_of(classes, runs).items()}


def _java_table_of(classes: Path, runs: list[dict[str, Any]]) -> dict[str, tuple[int, str]]:
    """``runs`` in one JVM (tests/doubles/RunnerTable.java): each run's exit code and output, by name;
    none writes to its error stream."""
    said = _java_runs(classes, runs)
    assert all(err == "" for _, _, err in said.values()), [err for _, _, err in said.values() if err]
    return {name: (code, out) for name, (code, out, _) in said.items()}


def _java_runs(classes: Path, runs: list[dict[str, Any]]) -> dict[str, tuple[int, str, str]]:
    """``runs`` in one JVM (tests/doubles/RunnerTable.java): each run's exit code, output and error
    stream (what ``ConformanceRunner.main`` prints to stderr), by name."""
    feed = "".join(json.dumps(run) + "\n" for run in runs)
    done = subprocess.run([*JAVA, "-cp", str(classes), "RunnerTable"], input=feed, capture_output=True, text=True,
                          encoding="utf-8", timeout=20 * SECONDS, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert sorted(r["name"] for r in results) == sorted(run["name"] for run in runs)
    return {r["name"]: (r["code"], r["out"], r["err"]) for r in results}


def _holds(variation: dict[str, Any], code: int, lines: list[str]) -> None:
    """The run of one way is what the table says: passed or failed, in the table's words, each case
    named by its id in the suite's order."""
    kind, says = variation["kind"], variation.get("says", "")
    assert code == (1 if kind == "wrong" else 0), lines
    names = [line.split(":")[0].split(" ", 1)[1] for line in lines if line.startswith(("pass ", "FAIL "))]
    assert names == list(PICKED), names  # by id, never by file
    noise = [line for line in lines if line.startswith("the engine wrote ")]
    if kind == "wrong":
        failing = [line for line in lines if line.startswith("FAIL ")]
        assert failing and all(says in line for line in failing), lines
    else:
        assert bool(noise) == (kind == "noise"), lines
        assert says in "\n".join(lines), lines


def _unhandled(lines: list[str]) -> list[str]:
    """Lines with the handles the engine made up (a new one each run) as one word."""
    return [re.sub(r'"handle": "[^"]*"', '"handle": HANDLE', line) for line in lines]


@pytest.mark.parametrize("variation", TABLE, ids=[v["way"] for v in TABLE])
def test_the_python_runner_applies_the_protocol(variation: dict[str, Any], said: dict[str, Any]) -> None:
    code, lines = said["python"][variation["way"]]
    _holds(variation, code, lines)


@pytest.mark.parametrize("variation", TABLE, ids=[v["way"] for v in TABLE])
def test_the_java_runner_says_what_the_python_runner_says(variation: dict[str, Any], said: dict[str, Any]) -> None:
    if isinstance(said["java"], str):
        pytest.skip(said["java"])
    code, lines = said["java"][variation["way"]]
    _holds(variation, code, lines)
    python_code, python_lines = said["python"][variation["way"]]
    assert (code, _unhandled(lines)) == (python_code, _unhandled(python_lines))


def test_the_java_command_line_prints_the_run_and_exits_with_its_code(
    java_classes: Path, suite: tuple[Path, Path]
) -> None:
    """``java ConformanceRunner`` is the run the table drives (``main`` prints it and exits with its
    code), and refuses a time limit it cannot use as bad usage, exit 2."""
    folder, answers = suite
    engine = [sys.executable, str(MANGLER), "accept-illegal", str(answers)]
    done = subprocess.run([*JAVA, "-cp", str(java_classes), "ConformanceRunner", str(folder), *engine],
                          capture_output=True, text=True, timeout=10 * SECONDS, check=False)  # fmt: skip
    assert done.returncode == 1 and done.stderr == "", done.stderr
    assert done.stdout.splitlines()[-1] == "0 of 4 cases pass"
    assert done.stdout.splitlines()[0].startswith(f"FAIL {PICKED[0]}: illegal proposal 1 judged legal")
    bad = subprocess.run([*JAVA, "-cp", str(java_classes), "ConformanceRunner", "--time-limit", "soon", str(folder)],
                         capture_output=True, text=True, timeout=10 * SECONDS, check=False)  # fmt: skip
    assert (bad.returncode, bad.stdout, bad.stderr) == (2, "", "--time-limit: a number of seconds above 0, not soon\n")


def _suite_files() -> dict[str, bytes]:
    """A file of a suite folder that is no case, each in a way of its own: the shapes the runner
    reads (conformance/schema.json), and what no JSON reader within the limits takes."""
    case = json.loads((ROOT / "conformance" / "cases" / "examples" / "ward.json").read_text(encoding="utf-8"))

    def but(**changed: Any) -> bytes:
        return json.dumps({k: v for k, v in {**case, **changed}.items() if v is not ...}).encode()

    return {
        "malformed": b'{"id": 3',
        "a-list": b"[1, 2]",
        "no-id": but(id=...),
        "empty-id": but(id=""),
        "count-text": but(count="3"),
        "count-negative": but(count=-1),
        "count-float": but(count=3.0),
        "count-true": but(count=True),
        "divide-object": but(divide={}),
        "divide-first-text": but(divide=[{"first": "IT", "count": 1}]),
        "legal-object": but(legal={}),
        "illegal-codes-numbers": but(illegal=[{"proposal": {"stack": []}, "codes": [1]}]),
        "no-scenario": but(scenario=...),
        "a-key-no-case-has": but(peer_isues=[]),
        "keys-no-case-has": but(zz=1, **{"\u00e9": 1, "\U0001f600": 1, "\uff21": 1}),  # named by code point
        "divide-key": but(divide=[{**case["divide"][0], "counts": 1}]),
        "divide-count-0": but(divide=[{**case["divide"][0], "count": 0}]),
        "illegal-key": but(illegal=[{**case["illegal"][0], "why": "x"}]),
        "illegal-no-rules": but(illegal=[{k: v for k, v in case["illegal"][0].items() if k != "rules"}]),
        "illegal-no-codes": but(illegal=[{**case["illegal"][0], "codes": []}]),
        "no-version": but(version=...),
        "version-2": but(version="2"),
        "empty-source": but(source=""),
        "no-checks": but(checks=[]),
        "peer-issues-text": but(peer_issues="x"),
        "not-utf8": b'\xff{"id": "x"}',
        "nested": b"[" * 100 + b"]" * 100,
        "digits": but(count=0).replace(b'"count": 0', b'"count": ' + b"9" * 25_000),
        "too-big": b'{"id": "' + b"x" * (16 * 1024 * 1024) + b'"}',
    }


def test_both_runners_refuse_a_suite_file_that_is_no_case_naming_it(
    java_classes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Java runner read the suite as it ran it and ended with a Java stack trace on the first file
    that was not a case, where the Python runner refused the folder naming every such file (exit 2,
    docs/conformance.md). Each way a file may be no case, beside a right case: both runners exit 2
    before starting the engine, print nothing, and name the file; where it is JSON of another shape,
    with the same words. The Java runs are one JVM's table (``ConformanceRunner.run`` with its output
    and error streams, as ``main`` prints them: test_the_java_command_line_prints_the_run_and_exits_with_its_code),
    the Python ones the command line in this process (``main``, as the console script runs it)."""
    engine = [sys.executable, "-c", "raise SystemExit(9)"]  # an engine started would fail every case: exit 1

    def python_run(folder: Path) -> tuple[int, str, str]:
        code = main(["conformance", "run", "--suite", str(folder), "--engine", shlex.join(engine)])
        out, err = capsys.readouterr()
        return code, out, err

    files = _suite_files()
    folders = []
    for way, data in files.items():
        folder = tmp_path / way
        (folder / "sub").mkdir(parents=True)
        (folder / "a.json").write_bytes((ROOT / "conformance" / "cases" / "examples" / "ward.json").read_bytes())
        (folder / "sub" / "b.json").write_bytes(data)
        folders.append(folder)
    many = tmp_path / "many"
    many.mkdir()
    for i, (way, data) in enumerate(sorted(files.items())[:12]):
        (many / f"{i:02}-{way}.json").write_bytes(data)
    java_said = _java_runs(java_classes, [{"name": str(f), "args": [str(f), *engine]} for f in [*folders, many]])
    runs = {way: (java_said[str(folder)], python_run(folder)) for way, folder in zip(files, folders, strict=True)}
    for (way, (java, python)), folder in zip(runs.items(), folders, strict=True):
        bad = str(folder / "sub" / "b.json")
        assert java[:2] == (2, "") and python[:2] == (2, ""), (way, java, python)
        assert java[2].startswith(f"--suite: {bad}: ") and python[2].startswith(f"triggerstack: --suite: {bad}: "), way
        shape = re.search(r"not a case of the suite: (.*)", python[2])
        if shape:
            assert java[2].rstrip("\n").endswith(f"not a case of the suite: {shape[1]}"), (way, java[2])
    java, python = java_said[str(many)], python_run(many)
    assert java[2].count("; ") == python[2].count("; ") and "… and 2 more" in java[2] and "… and 2 more" in python[2]


# ---------------------------------------------------------------------------------------------------
# Text from the suite itself, shown alike. The Java runner printed a case's id raw (an ESC turned the
# terminal red where the Python runner printed \u001b): it had its own escaping, of noise lines only,
# and Java's Unicode (13) is not Python's (14). It now reads model/_text.py's UNSAFE as a table
# generated from it (tools/java_unsafe.py) and escapes every line it prints.

UNSAFE_TABLE = load_script(ROOT / "tools" / "java_unsafe.py")


def test_the_java_runners_unsafe_table_is_model_text_unsafe_code_point_by_code_point() -> None:
    from triggerstack.model._text import UNSAFE

    java = UNSAFE_TABLE.read((ROOT / "clients" / "java" / "ConformanceRunner.java").read_text(encoding="utf-8"))
    assert all(lo <= hi < java[k + 1][0] - 1 for k, (lo, hi) in enumerate(java[:-1])), "ranges in order, apart"
    held = {cp for lo, hi in java for cp in range(lo, hi + 1)}
    differ = [cp for cp in range(0x110000) if (UNSAFE.fullmatch(chr(cp)) is not None) != (cp in held)]
    assert not differ, [f"U+{cp:04X}" for cp in differ[:20]]


_EDGES = sorted({cp for lo, hi in UNSAFE_TABLE.ranges() for cp in (lo - 1, lo, hi, hi + 1) if 0x20 <= cp <= 0x10FFFF})
"""The code points at either side of each edge of UNSAFE: where Java's and Python's Unicode part."""
_ODD = st.lists(
    st.one_of(
        st.sampled_from([chr(cp) for cp in _EDGES if not 0xD800 <= cp <= 0xDFFF]),
        st.characters(exclude_categories=["Cs"]),
        st.sampled_from(["\n", "\r\n", "\x1b[31m", "\u202e", "\u2028", "é", "\U0001f600"]),
    ),
    min_size=1,
    max_size=6,
).map("".join)


def _odd_suite(folder: Path, texts: list[str]) -> list[dict[str, Any]]:
    """Three cases whose own text is ``texts``: one that passes (its id), one whose illegal proposal
    names codes the engine does not (its codes said), and one with a legal proposal naming an
    ability the scenario lacks (the engine judges it illegal)."""
    case = json.loads((ROOT / "conformance" / "cases" / "family" / "apnap-2x1.json").read_text(encoding="utf-8"))
    first, *more = case["illegal"]
    folder.mkdir()
    cases = [
        {**case, "id": texts[0]},
        {**case, "id": texts[1], "illegal": [{**first, "codes": [texts[2], texts[3]], "rules": [texts[4]]}, *more]},
        {**case, "id": texts[5], "legal": [*case["legal"], {"stack": [{"ability": texts[6]}], "removed": []}]},
    ]
    for k, c in enumerate(cases):
        (folder / f"{k}.json").write_text(json.dumps(c), encoding="utf-8")
    return cases


_RECORDED = """
import sys
sys.path.insert(0, {root!r})
from tests.doubles.mangling_engine import Recorded
service = Recorded(sys.argv[1])
for line in sys.stdin:
    sys.stdout.write(service.handle(line) + "\\n")
    sys.stdout.flush()
"""
"""The server's answers, recorded in this process (tests/doubles/mangling_engine.py ``record``), given
unchanged: an engine that starts in ~50 ms where ``serve --stdio`` takes ~0.8 s of CPU."""


@settings(max_examples=3, deadline=None)
@given(  # a case's id is its own in a suite (docs/conformance.md): the three ids differ
    suites=st.lists(
        st.lists(_ODD, min_size=7, max_size=7).filter(lambda t: len({t[0], t[1], t[5]}) == 3), min_size=4, max_size=4
    )
)
def test_both_runners_show_the_suites_own_text_alike(
    suites: list[list[str]], java_classes: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Case ids, the codes a case names and the ids its proposals name, drawn from every kind of
    code point (either side of each edge of UNSAFE, line breaks, colour codes): both runners print
    the same bytes and exit with the same code; nothing unsafe reaches the terminal."""
    from triggerstack.model._text import UNSAFE

    root = tmp_path_factory.mktemp("odd")
    folders = [root / str(k) for k in range(len(suites))]
    (root / "engine.py").write_text(_RECORDED.format(root=str(ROOT)), encoding="utf-8")
    for folder, texts in zip(folders, suites, strict=True):
        # the three cases share a scenario: its answers are recorded once, the last case's proposals
        # (the first's, the second's with other codes, and one more) every proposal any of them asks
        record(_odd_suite(folder, texts), folder.with_suffix(".answers.json"))
    with ThreadPoolExecutor(2) as pool:
        pythons = list(pool.map(_python_run, folders))
        java = _java_table_of(java_classes, [
            {"name": str(f), "args": [str(f), sys.executable, str(root / "engine.py"), str(f.with_suffix(".answers.json"))]}
            for f in folders
        ])  # fmt: skip
    for folder, (code, out) in zip(folders, pythons, strict=True):
        assert code in (0, 1) and out.count("\n") == 4, out  # three cases and the summary, a line each
        assert not any(UNSAFE.fullmatch(c) and c != "\n" for c in out), ascii(out)
        assert java[str(folder)] == (code, out), (ascii(java[str(folder)]), ascii(out))


def _python_run(folder: Path) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-m", "triggerstack.solver", "conformance", "run", "--self", "--suite",
                           str(folder)], capture_output=True, encoding="utf-8", errors="surrogateescape",
                          timeout=10 * SECONDS, check=False)  # fmt: skip
    return done.returncode, done.stdout
