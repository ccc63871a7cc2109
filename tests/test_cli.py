"""The command line: exit codes 0/1/2, one-line errors naming the place, stdin, no traceback.

Private unit: the one table of errors (solver/_errors: KINDS, failure) the exit codes come from, and solver/_cli.main run in a child process to see what a count imports."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLE_NAMES, EXAMPLES, main

PRINCE = str(EXAMPLES / "charming-prince" / "scenario.yaml")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_legal(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", PRINCE, str(EXAMPLES / "charming-prince" / "legal.json"))
    assert (code, out, err) == (0, "legal\n", "")


def test_check_illegal_lists_rule_code_ability(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", PRINCE, str(EXAMPLES / "charming-prince" / "illegal.json"))
    assert code == 1
    assert out.splitlines()[0] == "illegal: 2 violations"
    assert out.splitlines()[1].startswith("603.3c mode-illegal P: ")
    assert out.splitlines()[2].startswith("601.2c target-filter P: ")


def test_check_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", PRINCE, str(EXAMPLES / "charming-prince" / "illegal.json"), "--json")
    assert code == 1
    data = json.loads(out)
    assert data["legal"] is False
    assert [(v["rule"], v["code"], v["ability"]) for v in data["violations"]] == [
        ("603.3c", "mode-illegal", "P"),
        ("601.2c", "target-filter", "P"),
    ]


def test_proposal_from_stdin(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b'{"stack": [{"ability": "P", "modes": [{"mode": "scry"}]}]}')))
    assert run(capsys, "check", PRINCE, "-")[0] == 0


def test_scenario_from_stdin_yaml(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO((Path(PRINCE).read_text()).encode())))
    code, out, _ = run(capsys, "explain", "-")
    assert code == 0 and "controller A (rule 603.3a)" in out


def test_explain_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", PRINCE, "--json")
    data = json.loads(out)
    assert code == 0
    (p,) = data["abilities"]
    assert p["controller"] == "A" and p["removal"] == "cannot"
    assert [m["status"] for m in p["modes"]] == ["legal", "legal", "illegal"]


@pytest.mark.parametrize("what", ["scenario", "outcome", "score"])
def test_schema(capsys: pytest.CaptureFixture[str], what: str) -> None:
    code, out, _ = run(capsys, "schema", what)
    schema = json.loads(out)
    assert code == 0 and schema["type"] == "object" and schema["additionalProperties"] is False


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


BAD_SCENARIOS = [
    ("missing.json", None, "missing.json: no such file"),
    ("scenario.txt", "{}", "expected a .json, .yaml or .yml file"),
    ("bad.json", '{"players": ["A",]}', "bad.json: line 1 column 18: malformed JSON"),
    ("bad.yaml", "players: [A\nobjects: []\n", "malformed YAML"),
    ("dup.json", '{"players": ["A"], "players": ["B"]}', "duplicate key 'players'"),
    (
        "type.json",
        '{"players": ["A"], "objects": [{"id": "x", "controller": "A", "power": "big"}]}',
        "objects[0].power: ",
    ),
    (
        "unknown.json",
        '{"players": ["A"], "triggers": [{"id": "T", "source": "ghost"}]}',
        "triggers[0].source: unknown object 'ghost'",
    ),
    ("dupid.json", '{"players": ["A", "A"]}', "players[1].id: duplicate id 'A'"),
    (
        "contra.json",
        '{"players": ["A", "B"], "objects": [{"id": "x", "controller": "A"}], '
        '"triggers": [{"id": "T", "source": "x", "controller": "B"}]}',
        "triggers[0].controller: controller B contradicts the derived controller A",
    ),
    ("empty.json", '{"players": []}', "players: "),
    ("list.json", "[1, 2]", "expected a scenario: a mapping with players, objects and triggers, found a list of 2"),
    (
        "filter.json",
        '{"players": ["A"], "objects": [{"id": "x", "controller": "A"}], "triggers": [{"id": "T", "source": "x", '
        '"modal": {"choose": [1]}, "modes": [{"id": "a"}, {"id": "b", "targets": [{"id": "t", "filter": {"type": 7}}]}]}]}',
        "triggers[0].modes[1].targets[0].filter.type: expected a string or a list of strings",
    ),
]


@pytest.mark.parametrize(("name", "text", "message"), BAD_SCENARIOS, ids=[b[0] for b in BAD_SCENARIOS])
def test_bad_scenario_exits_2_with_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, text: str | None, message: str
) -> None:
    path = str(tmp_path / name) if text is None else _write(tmp_path, name, text)
    code, out, err = run(capsys, "explain", path)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert message in err, err


def test_bad_proposal_names_the_proposal_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    prop = _write(tmp_path, "p.json", '{"stack": [], "passes": [1]}')
    code, out, err = run(capsys, "check", PRINCE, prop)
    assert (code, out) == (2, "")
    assert err == f"triggerstack: {prop}: passes: passes add up to 1 entries but the stack has 0\n"


def test_a_proposal_of_the_right_shape_is_judged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    prop = _write(tmp_path, "p.json", '{"stack": [{"ability": "P", "targets": {"t": ["A"]}}]}')
    code, out, err = run(capsys, "check", PRINCE, prop)
    assert (code, err) == (1, "")
    assert "target-unknown P: P is modal: its targets go under each chosen mode" in out


def test_proposal_schema_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    prop = _write(tmp_path, "p.yaml", "stack:\n  - {ability: P, mode: [scry]}\n")
    code, _, err = run(capsys, "check", PRINCE, prop)
    assert code == 2 and "stack[0].mode: unknown field 'mode'" in err


def test_both_stdin_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "-", "-")
    assert code == 2 and "only one of" in err


def test_usage_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err


def test_console_script_end_to_end(tmp_path: Path) -> None:
    """The installed entry point, in a real process: exit codes and no traceback."""
    bad = _write(tmp_path, "bad.json", "{")
    legal = subprocess.run(
        [
            sys.executable,
            "-m",
            "triggerstack.solver",
            "check",
            PRINCE,
            str(EXAMPLES / "charming-prince" / "legal.json"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (legal.returncode, legal.stdout) == (0, "legal\n")
    broken = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "explain", bad], capture_output=True, text=True, check=False
    )
    assert broken.returncode == 2 and broken.stdout == "" and "Traceback" not in broken.stderr
    assert broken.stderr.startswith(f"triggerstack: {bad}: line 1 column 2: malformed JSON")





@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_count_enumerate_best_on_every_example(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str) -> None:
    scenario = str(EXAMPLES / name / "scenario.yaml")
    code, out, _ = run(capsys, "count", scenario)
    assert code == 0
    n = int(out)
    code, out, _ = run(capsys, "enumerate", scenario)
    lines = out.splitlines()
    assert code == 0 and len(lines) == n == len(set(lines))
    for i, line in enumerate(lines[:20]):
        assert run(capsys, "check", scenario, _write(tmp_path, f"p{i}.json", line))[0] == 0
    code, out, _ = run(capsys, "enumerate", scenario, "--limit", "2")
    assert out.splitlines() == lines[:2]
    code, out, _ = run(
        capsys, "best", scenario, "--score", str(EXAMPLES.parent / "tests" / "data" / "empty-score.json")
    )
    assert code == 0 and json.loads(out)["score"] == 0 and json.loads(out)["proven"] is True


def test_best_prefers_the_weighted_outcome(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    score = _write(tmp_path, "s.yaml", "height: {E: 5}\ntarget: {E: {SWA: 3}}\n")
    code, out, _ = run(capsys, "best", str(EXAMPLES / "ertai-resurrected" / "scenario.yaml"), "--score", score)
    data = json.loads(out)
    assert code == 0 and data["score"] == 2 * 5 + 3
    assert data["outcome"]["stack"][-1] == {
        "ability": "E",
        "modes": [{"mode": "counter", "targets": {"ability": ["SWA"]}}],
    }


def test_best_score_names_unknown_ability(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    score = _write(tmp_path, "s.json", '{"height": {"Q": 1}}')
    code, out, err = run(capsys, "best", PRINCE, "--score", score)
    assert (code, out) == (2, "") and err == f"triggerstack: {score}: height.Q: unknown ability 'Q'\n"


def test_count_json_names_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", PRINCE, "--json", "--engine", "constraint")
    assert code == 0 and json.loads(out) == {"count": 2, "engine": "constraint", "path": "constraint"}
    code, out, _ = run(capsys, "count", str(EXAMPLES / "ertai-resurrected" / "scenario.yaml"), "--json")
    assert json.loads(out) == {"count": 10, "engine": "product", "path": "product+search"}


def test_time_limit_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "count", str(EXAMPLES / "board-wipe" / "scenario.yaml"), "--engine", "cpsat", "--time-limit", "0.0001"
    )
    assert (code, out) == (3, "") and err.startswith("triggerstack: time limit reached: ")


def test_engine_that_cannot_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    wide = {
        "players": ["A", "B"],
        "objects": [{"id": f"o{i}", "controller": "B", "types": ["land"]} for i in range(20)],
        "triggers": [
            {"id": "T", "controller": "A", "targets": [{"id": "t", "min": 0, "max": None, "filter": {"type": "land"}}]}
        ],
    }
    path = _write(tmp_path, "wide.json", json.dumps(wide))
    code, out, err = run(capsys, "count", path, "--engine", "constraint")
    assert (code, out) == (2, "") and "the constraint engine stops at" in err
    assert run(capsys, "count", path)[1] == f"{2**20}\n"


@pytest.mark.parametrize("bad", ["0", "-1", "soon"])
def test_bad_time_limit(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    with pytest.raises(SystemExit) as info:
        main(["count", PRINCE, "--time-limit", bad])
    assert info.value.code == 2


def test_time_limit_constraint_engine(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "enumerate",
        str(EXAMPLES / "board-wipe" / "scenario.yaml"),
        "--engine",
        "constraint",
        "--time-limit",
        "1e-9",
    )
    assert (code, out) == (3, "") and "ran past the time limit of 1e-09s" in err


def test_sample_and_merge_from_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    wipe = str(EXAMPLES / "board-wipe" / "scenario.yaml")
    code, out, _ = run(capsys, "sample", wipe, "-n", "5", "--seed", "7")
    assert code == 0 and len(out.splitlines()) == 5
    assert run(capsys, "sample", wipe, "-n", "5", "--seed", "7")[1] == out
    assert run(capsys, "count", wipe, "--merge-identical")[1] == "16\n"
    assert len(run(capsys, "enumerate", wipe, "--merge-identical")[1].splitlines()) == 16
    code, _, err = run(capsys, "count", wipe, "--merge-identical", "--engine", "cpsat")
    assert code == 2 and "product engine only" in err


def test_count_of_an_independent_pass_does_not_import_ortools() -> None:
    probe = (
        "import sys; from triggerstack.solver._cli import main; "
        f"code = main(['count', {str(EXAMPLES / 'board-wipe' / 'scenario.yaml')!r}]); "
        "assert code == 0 and 'ortools' not in sys.modules, sorted(m for m in sys.modules if 'ortools' in m)"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert result.returncode == 0 and result.stdout == "768\n", result.stderr


def test_explain_json_shows_the_plan_and_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "explain", str(EXAMPLES / "ertai-resurrected" / "scenario.yaml"), "--json")
    data = json.loads(out)
    assert code == 0 and data["plan"] == {"path": "product+search", "coupled": ["SWB", "SWA", "E"], "independent": []}
    assert data["count"] == data["count_merged_identical"] == 10
    code, out, _ = run(capsys, "explain", str(EXAMPLES / "board-wipe" / "scenario.yaml"), "--json")
    data = json.loads(out)
    assert data["plan"]["path"] == "product" and (data["count"], data["count_merged_identical"]) == (768, 16)
    assert data["identical"] == [["BA1", "BA2", "BA3", "BA4"], ["Z1", "Z2"]]


def test_a_solver_engine_with_a_limit_stops_there(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 10: --limit bounds the work, so a solver engine is not refused a pass with more
    outcomes than --max-outcomes; it yields the first N it finds, sorted, each legal."""
    path = str(EXAMPLES.parent / "benchmarks" / "scenarios" / "abilities-8.json")  # 3,779,136 outcomes
    for engine in ("cpsat", "constraint"):
        code, out, err = run(capsys, "enumerate", path, "--engine", engine, "--limit", "3")
        lines = out.splitlines()
        assert (code, err, len(lines), len(set(lines))) == (0, "", 3, 3), err
        for i, line in enumerate(lines):
            assert run(capsys, "check", path, _write(tmp_path, f"{engine}-{i}.json", line))[0] == 0
    code, _, err = run(capsys, "enumerate", path, "--engine", "cpsat", "--limit", "3000000")
    assert code == 2 and "--max-outcomes" in err  # a limit above the cap bounds nothing


def test_merge_identical_with_reactions_says_why_it_refuses(capsys: pytest.CaptureFixture[str]) -> None:
    """--merge-identical covers one pass; ward's reactions fire a second. The refusal is the
    engine's (the scenario is fine: engine-cannot, not bad input) and says what to do."""
    from triggerstack.model import Scenario
    from triggerstack.solver import EngineCannot, LegalOutcomes
    from triggerstack.solver._errors import KINDS, failure

    ward = str(EXAMPLES / "ward" / "scenario.yaml")
    code, out, err = run(capsys, "count", ward, "--merge-identical")
    assert (code, out) == (2, "") and "count it without --merge-identical" in err
    with pytest.raises(EngineCannot) as info:
        LegalOutcomes(Scenario.load(ward), merge_identical=True).count()
    assert failure(info.value).kind is KINDS.ENGINE_CANNOT


@pytest.mark.parametrize("example", EXAMPLE_NAMES)
def test_a_stream_is_one_answer_held_to_max_answer_as_a_whole(
    example: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """enumerate and sample print their lines within --max-answer bytes as a whole, as the server's
    /v1/enumerate/lines does (docs/cli.md, Limits): every cap from 1 to the whole stream writes the
    longest run of whole lines that fits, then exit 2 with the cap's words; the whole stream's own
    size passes. Before, the command line's streams were never held to it (helper-62e: `sample -n
    10**12 --max-answer 1000` wrote 66 MB)."""
    scenario = str(EXAMPLES / example / "scenario.yaml")
    for argv in (["enumerate", scenario, "--limit", "40"], ["sample", scenario, "-n", "12", "--seed", "5"]):
        assert main(argv) == 0
        whole = capsys.readouterr().out
        lines = whole.splitlines(keepends=True)
        for cap in sorted({1, len(whole) - 1, len(whole), *(len("".join(lines[:k])) for k in range(len(lines)))}):
            if cap < 1:  # --max-answer is at least 1
                continue
            code = main([*argv, "--max-answer", str(cap)])
            done = capsys.readouterr()
            fits = [line for k, line in enumerate(lines) if len("".join(lines[: k + 1])) <= cap]
            assert done.out == "".join(fits), (argv, cap)
            assert (code, "--max-answer" in done.err) == ((0, False) if cap >= len(whole) else (2, True)), (cap, done.err)
