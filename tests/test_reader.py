"""The one document reader (``model/_io.py`` ``read_file``, ``model/_yamlio.py``) and the one whole-file
writer (``model/_parts.py`` ``write_whole``): YAML aliases are held to ``--max-values`` and
``--max-bytes`` as the document they stand for, whatever their shape; a named file that is not a
regular file is refused naming its kind at every door, never waited on; nothing is written through
a planted link.

Private unit: model/_io (read_file, parse_text), the one document reader."""

from __future__ import annotations

import json
import math
import os
import re
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import BaseModel
from triggerstack.model import Limits, Outcome, Scenario, ScenarioError, Score
from triggerstack.model._io import parse_text, read_file

from .conftest import EXAMPLES, PATIENCE, main

CAP = Limits(bytes=20_000)
LONG = "y" * 1_000

# Each shape stands for more than 20,000 bytes of text in under 5,000 bytes of YAML.
SHAPES = {
    "a string, aliased": "a: &s " + LONG + "\nb: [" + ", ".join(["*s"] * 30) + "]\n",
    "a mapping, aliased": "a: &m {text: " + LONG + "}\nb: [" + ", ".join(["*m"] * 30) + "]\n",
    "a chain of aliases of aliases": (
        "a: &a [" + LONG + "]\nb: &b [*a, *a, *a]\nc: &c [*b, *b, *b]\nd: [*c, *c, *c, *c]\n"
    ),
    "merge keys": "a: &m {text: " + LONG + "}\nb: [" + ", ".join(["{<<: *m, n: 1}"] * 30) + "]\n",
    "a sequence, aliased in block style": "a: &l [" + LONG + ", " + LONG + "]\nb:\n" + "  - *l\n" * 15,
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_aliases_count_against_max_bytes_as_expanded(shape: str) -> None:
    text = SHAPES[shape]
    assert len(text) < 5_000
    with pytest.raises(ScenarioError, match=r"more than 20000 bytes of text once its aliases expand.*--max-bytes"):
        parse_text(text, "doc.yaml", "yaml", limits=CAP)


def test_the_same_aliases_within_the_cap_are_read(tmp_path: Path) -> None:
    doc = parse_text("a: &s " + LONG + "\nb: [*s, *s]\n", "doc.yaml", "yaml", limits=CAP)
    assert doc == {"a": LONG, "b": [LONG, LONG]}


_TEXT = st.characters(exclude_categories=("Cc", "Cs", "Zl", "Zp"))  # line breaks YAML folds (U+0085)
_data: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(_TEXT, max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(_TEXT, max_size=8), inner, max_size=4),
    max_leaves=20,
)


@given(_data, st.sampled_from([None, False, True]))
def test_a_document_without_aliases_is_never_refused_for_its_expanded_text(data: Any, flow: bool | None) -> None:
    """Counting text as expanded refuses only what aliases add: any document without them that is
    within ``--max-bytes`` as written is within it as expanded."""
    text = yaml.safe_dump(data, default_flow_style=flow, allow_unicode=True)
    size = len(text.encode("utf-8"))
    assert parse_text(text, "doc.yaml", "yaml", limits=Limits(bytes=size)) == data


def test_explain_refuses_aliased_text_at_the_cap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line's door: 60 waiting abilities sharing one 2,000-byte text by alias."""
    text = "x" * 2_000
    lines = ["players: [A, B]", "objects: []", "triggers:", f"  - {{id: T0, controller: A, text: &t '{text}'}}"]
    lines += [f"  - {{id: T{i}, controller: A, text: *t}}" for i in range(1, 60)]
    path = tmp_path / "aliased.yaml"
    path.write_text("\n".join(lines) + "\n")
    code = main(["explain", "--json", str(path), "--max-bytes", "100000"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "once its aliases expand" in err and "--max-bytes" in err, err


@st.composite
def _aliased(draw: st.DrawFn) -> tuple[str, Any, set[str]]:
    """A flow-style YAML document whose values may be anchored and aliased anywhere an alias may
    stand — a list item, a mapping value, a merge key ``<<`` — naming a value already written
    (``defined``) or one still being written around it (``open``: the value would hold itself).
    Returns the text, the value it reads as (None for a recursive one) and the anchors whose value
    would hold itself — through its own alias, or an alias of a value that holds it (``&a [&b
    [*a]]`` : both). Keys are unique in the document, so merges never clash."""
    defined: dict[str, Any] = {}
    holds: dict[str, set[str]] = {}  # per anchor, the anchored values its own value holds or aliases
    keys = iter(range(10**6))

    def alias(open_: list[tuple[str, bool]], mapping: bool) -> tuple[str, Any, set[str]] | None:
        names = [n for n in defined if not mapping or isinstance(defined[n], dict)]
        names += [n for n, is_map in open_ if not mapping or is_map]
        if not names:
            return None
        name = draw(st.sampled_from(names))
        return f"*{name}", defined.get(name), {name}

    def value(depth: int, open_: list[tuple[str, bool]]) -> tuple[str, Any, set[str]]:
        """A value's text, what it reads as, and the anchored values it holds or aliases."""
        kind = draw(st.sampled_from(["scalar", "alias", "list", "map"] if depth < 4 else ["scalar", "alias"]))
        if kind == "alias":
            found = alias(open_, mapping=False)
            if found is not None:
                return found
            kind = "scalar"
        anchor = f"a{len(defined) + len(open_)}" if draw(st.booleans()) else None
        inner = [*open_, (anchor, kind == "map")] if anchor else open_
        out: Any
        reach: set[str] = set()
        if kind == "scalar":
            text, out = (str(n := draw(st.integers(-99, 99))), n)
        elif kind == "list":
            items = [value(depth + 1, inner) for _ in range(draw(st.integers(0, 3)))]
            text, out = "[" + ", ".join(t for t, _, _ in items) + "]", [v for _, v, _ in items]
            reach = set().union(*(r for _, _, r in items))
        else:
            parts: list[str] = []
            out = {}
            merged = alias(inner, mapping=True) if draw(st.booleans()) else None
            if merged is not None:
                parts.append(f"<<: {merged[0]}")
                out.update(merged[1] or {})
                reach |= merged[2]
            for _ in range(draw(st.integers(0, 3))):
                key = f"k{next(keys)}"
                t, v, r = value(depth + 1, inner)
                parts.append(f"{key}: {t}")
                out[key] = v
                reach |= r
            text = "{" + ", ".join(parts) + "}"
        if not anchor:
            return text, out, reach
        defined[anchor] = out
        holds[anchor] = reach
        return f"&{anchor} {text}", out, {anchor}

    def reaches(start: str) -> set[str]:
        seen: set[str] = set()
        todo = list(holds[start])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(holds[name])
        return seen

    text, out, _ = value(0, [])
    recursive = {name for name in holds if name in reaches(name)}
    return text + "\n", None if recursive else out, recursive


@example(("[&a0 0, &a1 [&a2 {}, &a3 [*a1, 0]], *a3]\n", None, {"a1", "a3"}))  # a3 holds itself through a1
@given(_aliased())
def test_an_alias_inside_the_value_it_names_is_refused_and_any_other_is_read(case: tuple[str, Any, set[str]]) -> None:
    """A recursive alias (found by the fuzzer as ``a: &x [1, 2, *x]``: the alias counter walked the
    cycle until memory ran out) is refused naming its anchor, in a list, a mapping or a merge key,
    at any depth; a document whose aliases name values already written reads as its expansion."""
    text, expanded, recursive = case
    if not recursive:
        assert parse_text(text, "doc.yaml", "yaml") == expanded
        return
    with pytest.raises(ScenarioError, match=r"the value anchored '&(\w+)' holds an alias of itself") as refused:
        parse_text(text, "doc.yaml", "yaml")
    named = re.search(r"'&(\w+)'", str(refused.value))
    assert named is not None and named.group(1) in recursive, (str(refused.value), recursive)


# -- files that are not regular files -------------------------------------------------------------


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "a FIFO"


def _socket(path: Path) -> str:
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(path))  # closed as the test ends
    _SOCKETS.append(s)
    return "a socket"


def _directory(path: Path) -> str:
    path.mkdir()
    return "a directory"


def _dev_zero(path: Path) -> str:
    path.symlink_to("/dev/zero")
    return "a character device"


_SOCKETS: list[socket.socket] = []


@pytest.fixture(autouse=True)
def _close_sockets() -> Iterator[None]:
    yield
    while _SOCKETS:
        _SOCKETS.pop().close()


KINDS: dict[str, Callable[[Path], str]] = {
    "fifo": _fifo,
    "socket": _socket,
    "directory": _directory,
    "dev-zero-link": _dev_zero,
}


def _ends(call: Callable[[], Any]) -> BaseException | None:
    """What ``call`` raised, or None; a call still waiting after 20 s fails the test (a FIFO would
    wait for a writer for ever: the thread is left behind, daemonic)."""
    raised: list[BaseException | None] = [None]
    done = threading.Event()

    def run() -> None:
        try:
            call()
        except BaseException as exc:
            raised[0] = exc
        done.set()

    threading.Thread(target=run, daemon=True).start()
    assert done.wait(20), "the reader waited on a file that is not a regular file"
    return raised[0]


@pytest.mark.parametrize("kind", list(KINDS))
def test_the_reader_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "scenario.json"
    said = KINDS[kind](path)
    exc = _ends(lambda: read_file(str(path)))
    assert isinstance(exc, ScenarioError) and said in str(exc) and str(path) in str(exc), exc


def _rl_folder(folder: Path) -> None:
    from triggerstack.solver import rl

    rl.env(str(folder)).reset(seed=1)


def _suite_folder(folder: Path) -> None:
    from triggerstack.solver.conformance import load_suite

    load_suite(folder)


def _scenario_load(folder: Path) -> None:
    Scenario.load(str(folder / "scenario.json"))


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("door", [_scenario_load, _rl_folder, _suite_folder], ids=["load", "rl.env", "suite"])
def test_every_door_refuses_a_planted_file_that_is_not_regular(
    tmp_path: Path, kind: str, door: Callable[[Path], None]
) -> None:
    if door is _rl_folder:
        pytest.importorskip("pettingzoo")
    folder = tmp_path / "in"
    (folder / "b").mkdir(parents=True)
    target = folder / "b" / "case.json" if door is _suite_folder else folder / "scenario.json"
    said = KINDS[kind](target)
    if kind == "directory" and door is _suite_folder:
        pytest.skip("a folder named case.json is walked as a folder by the suite, never read as a case")
    exc = _ends(lambda: door(folder))
    assert isinstance(exc, ScenarioError) and said in str(exc), exc


def test_check_batch_refuses_a_device_behind_a_link(tmp_path: Path) -> None:
    """``check --batch`` reads lines from a regular file or a FIFO (a stream, as standard input
    is); ``/dev/zero`` would be read for ever."""
    link = tmp_path / "lines.jsonl"
    link.symlink_to("/dev/zero")
    run = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "check", "--batch", str(link)],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
        check=False,
    )
    assert run.returncode == 2 and "a character device" in run.stderr, run.stderr


# -- writing -------------------------------------------------------------------------------------


def test_boards_out_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (folder / "board-00001.json").symlink_to(victim)
    assert main(["boards", "--generated", "--seed", "3", "-n", "1", "--out", str(folder)]) == 0
    assert victim.read_text() == "keep me\n"
    written = folder / "board-00001.json"
    assert not written.is_symlink() and json.loads(written.read_text())["players"]
    assert sorted(p.name for p in folder.iterdir()) == ["board-00001.json"]  # no part left


def test_an_example_still_reads(tmp_path: Path) -> None:
    assert Scenario.load(str(EXAMPLES / "board-wipe" / "scenario.yaml")).triggers


@pytest.mark.filterwarnings("ignore::UserWarning")  # starlette's TestClient on this httpx
def test_the_pages_parse_refuses_aliased_text_at_the_cap() -> None:
    """The page's door: a paste whose aliases stand for more than ``--max-bytes`` of text is its
    news (a problem), not a 90 MB answer."""
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient
    from triggerstack.solver import Options
    from triggerstack.solver.serve import app

    text = "players: [A]\ntriggers:\n  - {id: T0, controller: A, text: &t '" + LONG + "'}\n"
    text += "".join(f"  - {{id: T{i}, controller: A, text: *t}}\n" for i in range(1, 40))
    with TestClient(app(Options(limits=Limits(bytes=30_000))), base_url="http://127.0.0.1") as client:
        answer = client.post("/page/parse", json={"text": text})
    assert answer.status_code == 200 and len(answer.content) < 2_000
    assert "once its aliases expand" in answer.json()["problem"]["detail"]


@pytest.mark.parametrize("kind", ["fifo", "dev-zero-link"])
def test_a_load_by_path_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    """The JSON-RPC door: ``load`` with a path."""
    from triggerstack.solver.serve import Service

    path = tmp_path / "scenario.json"
    said = KINDS[kind](path)
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "load", "params": {"path": str(path)}})
    answer: list[str | None] = []
    assert _ends(lambda: answer.append(Service().handle(line))) is None
    error = json.loads(answer[0] or "{}")["error"]
    assert "not a regular file" in error["message"] or said in error["message"], error


_PLAIN = st.one_of(
    st.from_regex(r"\A[-+]?[0-9_]{1,12}(\.[0-9_]{0,20})?([eE][-+]?[0-9]{1,4})?\Z"),
    st.from_regex(r"\A[-+]?0[xob][0-9a-fA-F_]{1,6}\Z"),
    st.from_regex(r"\A[0-9]{1,2}(:[0-5][0-9]){1,2}\Z"),
    st.from_regex(r"\A[0-9]{4}-[0-9]{2}-[0-9]{2}\Z"),
    st.sampled_from(["yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "n",
                     "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL", "~", "=",
                     ".inf", "-.inf", ".NaN", ".5", "1.", "+1", "-0", "1e3", "1E+3"]),
)  # fmt: skip


def _says(token: str) -> Any:
    """What a plain scalar says in YAML 1.2's JSON-compatible core schema (ScenarioError: refused, a
    number no JSON writes)."""
    if re.fullmatch(r"[-+]?[0-9]+", token):
        return int(token, 10)
    if re.fullmatch(r"[-+]?(\.[0-9]+|[0-9]+\.[0-9]*)([eE][-+][0-9]+)?", token):  # a point (1e3 is text)
        near = float(token)  # as JSON's reader reads it (exactness: tests/test_attacks_60f.py, open)
        return near if math.isfinite(near) and abs(near) < 10**100 else ScenarioError  # --max-digits
    if re.fullmatch(r"[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN)", token):
        return ScenarioError
    words = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
    return words.get(token, None if token in ("null", "Null", "NULL", "~") else token)


@given(token=_PLAIN)
def test_a_plain_yaml_scalar_means_what_its_text_says_as_json_reads_it(token: str) -> None:
    """PyYAML resolves plain scalars by YAML 1.1: 010 was eight (octal), 1:30 ninety (base 60), 1_000
    a thousand, NO false — another value than the text says, and a scenario judged on it. A plain
    scalar is read by YAML 1.2's JSON-compatible core schema, its numbers as JSON reads them; where
    the token is JSON, JSON reads the same."""
    try:
        as_yaml: Any = parse_text(f"v: {token}\n", "doc", "yaml")["v"]
    except ScenarioError:
        as_yaml = ScenarioError
    says = _says(token)
    assert as_yaml == says and _kind(as_yaml) is _kind(says), (token, as_yaml, says)
    if not isinstance(says, str) and re.fullmatch(
        r"-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?|true|false|null", token
    ):
        try:
            as_json: Any = parse_text(f'{{"v": {token}}}', "doc", "json")["v"]
        except ScenarioError:
            as_json = ScenarioError
        assert as_json == as_yaml and type(as_json) is type(as_yaml), (token, as_json, as_yaml)


def _kind(value: Any) -> type:
    """A value's type, a float's subclass (a float that keeps its text: model/_numbers.Inexact) a float."""
    return float if isinstance(value, float) else type(value)


@given(
    whole=st.integers(-(10**20), 10**20),
    fraction=st.text(alphabet="0123456789", min_size=1, max_size=20),
    exponent=st.one_of(st.none(), st.integers(-25, 25)),
    fmt=st.sampled_from(["json", "yaml", "model_validate_json"]),
)
def test_a_whole_number_is_read_as_its_text_says_never_as_its_nearest_float(
    whole: int, fraction: str, exponent: int | None, fmt: str
) -> None:
    """A number written with a point or an exponent, in JSON or YAML, where a whole number is asked
    (a power, a count): the integer its text says, or refused — never the integer of its nearest
    binary float (``1.0000000000000001`` is not 1, ``9007199254740993.0`` is not 9007199254740992)."""
    from decimal import Decimal

    text = f"{whole}.{fraction}" + ("" if exponent is None else f"e{exponent:+d}")
    said = Decimal(text)
    object_ = f'{{"id": "x", "controller": "A", "types": ["creature"], "power": {text}}}'
    text_of_doc = f'{{"players": ["A"], "objects": [{object_}]}}'
    try:
        if fmt == "model_validate_json":  # the Python door that takes the text itself
            read = Scenario.model_validate_json(text_of_doc).objects[0].power
        else:
            read = Scenario.model_validate(parse_text(text_of_doc, "s", fmt)).objects[0].power
    except (ScenarioError, ValueError):
        assert said != said.to_integral_value() or not math.isfinite(float(text)), text
        return
    assert said == said.to_integral_value() and read == int(said), (text, read)


@pytest.mark.parametrize("model", [Scenario, Outcome, Score])
def test_every_pydantic_entry_point_of_a_document_is_the_readers(model: type[BaseModel]) -> None:
    """A document model's every ``model_validate*`` is read as a file is (model/_scenario.py
    ``Document``): pydantic's own took a JSON text's ``1.0000000000000001`` as 1 and raised its
    ``ValidationError``. An entry point pydantic adds later fails here until it is routed too."""
    entry_points = {name for name in dir(BaseModel) if name.startswith("model_validate")}
    assert entry_points >= {"model_validate", "model_validate_json", "model_validate_strings"}
    assert all(getattr(model, name).__func__.__module__.startswith("triggerstack.") for name in entry_points)
    for name in entry_points:
        with pytest.raises(ScenarioError):
            getattr(model, name)('{"stack": [], "stack": []}' if name.endswith("json") else {"nothing": 1})
