"""One argument, four doors: a seed, a count, a page's limit and a time limit, written as the same
characters on the command line (``--seed T``), in a JSON-RPC request and an HTTP body (``"seed": T``,
or the text ``"T"`` where ``T`` is no JSON), and given to the Python verbs as the value the wire reads,
are taken alike — the same answer — or refused by every door, in the same words.

What each door must do is derived from the documented rule (docs/cli.md, docs/server.md,
docs/python.md), never from what a door answers: a whole number is an integer (a whole-number float
on the wire is the integer it writes, docs/formats.md) within the door's documented range — the
command line streams, so its ``-n`` and ``--limit`` have no page cap; the Python verbs take 0 — and a
time limit is a finite number of seconds more than 0. Text that is no JSON number (``١``, ``１``,
``1_0``, `` 1``, ``inf``) is refused on the command line as the same text sent on the wire is.

Private unit: model/_args (from_text: a flag's text read as the wire reads it), the one reading of
an argument every door shares; the command line runs in this process (conftest's ``main``).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import re
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from triggerstack.model import Scenario, ScenarioError
from triggerstack.model._args import from_text
from triggerstack.solver import LegalOutcomes, TimeLimitReached, count
from triggerstack.solver.serve import Service

from .conftest import EXAMPLES, main

ERTAI = EXAMPLES / "ertai-resurrected" / "scenario.yaml"
SCENARIO = Scenario.load(str(ERTAI))
DOC = json.dumps(SCENARIO.model_dump(mode="json", exclude_defaults=True))
PAGE = 10_000  # docs/server.md: n and limit are 1…10,000 on the servers

HOSTILE = [
    *("nan", "NaN", "inf", "-inf", "Infinity", "1e999", "1e309", "-1e999"),
    *("-0", "0", "-0.0", "0.0", "1", "2", "1.0", "2.0", "2.5", "-1", "1e1", "1E+1", "5e-324"),
    *("1.0000000000000001", "9007199254740993.0", "7.102537503013898e+16"),  # whole or not as written
    *('"1"', "true", "false", "null", "[1]", "{}", ""),
    *("\u0661", "\uff11", "\u0967\u0966", "1_0", "1__0", " 1", "1 ", "+1", "01", "0x1", "1.", ".5"),
    "9" * 101,  # past --max-digits
    "9" * 40,
]
"""Values the attack found taken by one door and refused by another, and their neighbours."""

texts = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(-3, 40).map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.floats(min_value=0, max_value=100, allow_nan=False).map(lambda f: json.dumps(f)),
    st.text(st.characters(categories=["Nd"]) | st.sampled_from("_.-+eE 0123456789"), min_size=1, max_size=5),
)


@dataclass(frozen=True)
class Argument:
    """One argument at every door: the verb and flag or param that take it, the other params the
    question needs, and the range each door documents (whole numbers; None: a time limit)."""

    param: str
    method: str
    argv: Callable[[str], list[str]]
    params: dict[str, Any]
    python: Callable[[Any], Any]
    ranges: dict[str, tuple[int, int | None]] | None


def _lines(text: str) -> list[Any]:
    return [json.loads(line) for line in text.splitlines()]


ARGUMENTS = {
    a.param: a
    for a in (
        Argument(
            "seed",
            "sample",
            lambda t: ["sample", str(ERTAI), "-n", "2", f"--seed={t}"],
            {"n": 2},
            lambda v: _lines("\n".join(LegalOutcomes(SCENARIO).sample_lines(2, v))),
            {"cli": (0, None), "wire": (0, None), "python": (0, None)},
        ),
        Argument(
            "n",
            "sample",
            lambda t: ["sample", str(ERTAI), "--seed", "1", *([f"-n{t}"] if t.startswith("-") else ["-n", t])],
            {"seed": 1},
            lambda v: _lines("\n".join(LegalOutcomes(SCENARIO).sample_lines(v, 1))),
            {"cli": (1, None), "wire": (1, PAGE), "python": (0, None)},
        ),
        Argument(
            "limit",
            "enumerate",
            lambda t: ["enumerate", str(ERTAI), f"--limit={t}"],
            {},
            lambda v: _lines("\n".join(LegalOutcomes(SCENARIO).lines(v))),
            {"cli": (1, None), "wire": (1, PAGE), "python": (0, None)},
        ),
        Argument(
            "time_limit",
            "count",
            lambda t: ["count", str(ERTAI), f"--time-limit={t}"],
            {},
            lambda v: count(SCENARIO, time_limit=v),
            None,
        ),
    )
}


@dataclass(frozen=True)
class Answer:
    """What one door did: took the value (``answer``; ``None`` when the time limit it set ran out,
    which takes it too), or refused it (``why``: the words after the argument's name)."""

    taken: bool
    answer: Any = None
    why: str = ""


def _cli(arg: Argument, text: str) -> Answer:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(arg.argv(text))
        except SystemExit as exc:  # argparse refused the flag (exit 2)
            code = int(exc.code or 0)
    said = err.getvalue()
    if code == 0:
        answer = out.getvalue()
        return Answer(True, _lines(answer) if arg.method != "count" else {"count": int(answer)})
    if code == 3:
        return Answer(True)
    assert code == 2, (code, said)
    found = re.search(r"argument \S+: (.*) \(see triggerstack", said)
    assert found is not None, f"not refused naming the flag: {said!r}"
    return Answer(False, why=found[1])


def _body(arg: Argument, wire: str) -> str:
    """The params as a client writes them: the argument's characters spliced in as they are."""
    others = "".join(f", {json.dumps(k)}: {json.dumps(v)}" for k, v in arg.params.items())
    return f'{{"scenario": {DOC}{others}, "{arg.param}": {wire}}}'


def _refused(arg: Argument, message: str) -> Answer:
    """A refusal, by the words after the argument's name (the JSON reader's refusal of an integer
    past --max-digits, found as the number is read, has no place to name)."""
    return Answer(False, why=message.split(f"{arg.param}: ", 1)[-1])


def _result(arg: Argument, result: Any) -> Answer:
    return Answer(True, result["outcomes"] if arg.method != "count" else result)


def _rpc(service: Service, arg: Argument, wire: str) -> Answer:
    line = f'{{"jsonrpc": "2.0", "id": 1, "method": "{arg.method}", "params": {_body(arg, wire)}}}'
    answer = json.loads(service.handle(line) or "null")
    if "result" in answer:
        return _result(arg, answer["result"])
    if answer["error"]["code"] == -32002:
        return Answer(True)
    return _refused(arg, answer["error"]["message"])


def _http(client: Any, arg: Argument, wire: str) -> Answer:
    answer = client.post(f"/v1/{arg.method}", content=_body(arg, wire), headers={"Content-Type": "application/json"})
    if answer.status_code == 200:
        return _result(arg, answer.json())
    if answer.status_code == 504:
        return Answer(True)
    return _refused(arg, answer.json()["detail"])


def _python(arg: Argument, value: Any) -> Answer:
    try:
        result = arg.python(value)
    except TimeLimitReached:
        return Answer(True)
    except ScenarioError as exc:
        return _refused(arg, exc.message)
    return Answer(True, result if arg.method != "count" else {"count": result})


def _rule(why: str) -> str:
    """What a refusal says the argument must be (its words before what was found)."""
    return why.split(", found ")[0]


def _json(text: str) -> tuple[bool, Any]:
    """Whether ``text`` is one JSON value (RFC 8259: no NaN or Infinity) as it is — spaces around a
    value are a JSON text's formatting, not a value's characters: `` 1`` is sent as text — and its value."""

    def refuse(constant: str) -> Any:
        raise ValueError(constant)

    if text != text.strip(" \t\n\r"):
        return False, text
    try:
        return True, json.loads(text, parse_constant=refuse)
    except ValueError:
        return False, text


def _whole(text: str, value: Any) -> Any:
    """What the wire reads for an integer: a JSON float that writes a whole number is that number,
    as its text says it (docs/formats.md: 6.0 is 6, and 7.102537503013898e+16 is not its float)."""
    if isinstance(value, float) and math.isfinite(value):
        exact = Decimal(text)
        if exact == exact.to_integral_value():
            return int(exact)
    return value


def _expected(arg: Argument, text: str, value: Any, door: str) -> bool:
    """Whether the documented rule takes ``value`` (as the wire reads it) at ``door``."""
    if arg.ranges is None:
        return (
            isinstance(value, int | float)
            and not isinstance(value, bool)
            and math.isfinite(float(value))
            and float(value) > 0
        )
    value = _whole(text, value)
    least, most = arg.ranges[door]
    return type(value) is int and value >= least and (most is None or value <= most)


@pytest.fixture(scope="module")
def http() -> Any:
    pytest.importorskip("fastapi")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
        from triggerstack.solver.serve import app
    return TestClient(app(), base_url="http://127.0.0.1")


@pytest.mark.parametrize("param", list(ARGUMENTS))
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(text=texts)
@example(text="\u0663").via("the attack: Arabic-Indic three")
@example(text="1_0").via("the attack: underscores")
@example(text="inf").via("the attack: infinity")
@example(text="1e309").via("the attack: a float past the largest")
@example(text="true").via("the attack: a boolean")
@example(text="--").via("argparse drops a '--' value: the flag got an empty list its reader never saw")
def test_an_argument_is_taken_alike_or_refused_alike_at_every_door(http: Any, param: str, text: str) -> None:
    arg = ARGUMENTS[param]
    is_json, value = _json(text)
    wire = text if is_json else json.dumps(text)
    if param == "n" and isinstance(value, int | float) and not isinstance(value, bool) and value > 40:
        assume(False)  # a stream of that many draws on the command line (no page cap there) never ends
    assume(not (is_json and value is None))  # null is "not given" on the wire and in Python; a flag is left out
    doors = {"cli": _cli(arg, text), "rpc": _rpc(Service(), arg, wire), "http": _http(http, arg, wire)}
    try:
        from_text(text)
    except ScenarioError as exc:  # JSON past what the documents' reader takes (1e999, --max-digits)
        said = {name: door.why for name, door in doors.items()}
        assert all(not d.taken and d.why.endswith(exc.message) for d in doors.values()), said
        return
    read = _whole(text, value) if arg.ranges is not None else value  # the Python verbs take ints
    doors["python"] = _python(arg, read)
    for name, door in doors.items():
        documented = _expected(arg, text, value, "wire" if name in ("rpc", "http") else name)
        assert door.taken == documented, f"{name} {'took' if door.taken else 'refused'} {text!r}: {door}"
    answers = [d.answer for d in doors.values() if d.taken and d.answer is not None]
    assert all(a == answers[0] for a in answers), (param, text, answers)
    refused = {name: _rule(d.why) for name, d in doors.items() if not d.taken}
    if len(refused) == len(doors):  # refused everywhere: in the same words where the rule is the same
        if isinstance(read, float) and arg.ranges is not None:  # a Python float is never a whole number
            refused.pop("python")
        ranges = arg.ranges or {}
        by_range: dict[Any, set[str]] = {}  # doors documenting one range say one rule
        for name, rule in refused.items():
            by_range.setdefault(ranges.get("wire" if name in ("rpc", "http") else name), set()).add(rule)
        assert all(len(rules) == 1 for rules in by_range.values()), refused
        if not isinstance(read, int) or isinstance(read, bool):  # no whole number at all: one rule said
            assert len(set(refused.values())) == 1, refused
        shown = {name: doors[name].why for name in ("cli", "rpc", "http")}
        if not is_json:  # the same characters reached every door as text: shown alike too
            assert len(set(shown.values())) == 1, shown


def test_a_time_limit_that_never_ends_is_refused_by_every_python_door() -> None:
    """nan, infinity, a bool and text, given as Python values (the command line and the wire can't
    carry them): Options, the verbs' keyword, LegalOutcomes and a conformance engine's alike."""
    from triggerstack.model import UsageError
    from triggerstack.solver import Options
    from triggerstack.solver.conformance import ProcessEngine

    bads: list[Any] = [math.nan, math.inf, -math.inf, True, "5", 0, -1, 10**400]
    for bad in bads:
        with pytest.raises(UsageError, match=r"^time_limit: expected "):
            Options(time_limit=bad)
        with pytest.raises(UsageError, match=r"^time_limit: expected "):
            count(SCENARIO, time_limit=bad)
        with pytest.raises(UsageError, match=r"^time_limit: expected "):
            LegalOutcomes(SCENARIO, time_limit=bad)
        with pytest.raises(UsageError, match=r"^seconds: expected "):  # refused before it starts the engine
            ProcessEngine([sys.executable, "-c", "pass"], bad)


def test_the_flags_of_the_command_lines_own_commands_read_numbers_alike(tmp_path: Path) -> None:
    """boards' --seed and -n, serve's --time-limit, check's --jobs and the limits' --max-*: the
    same reading as the verbs' flags (a flag parsed with int() took ١ and 1_0)."""
    for argv in (
        ["boards", "--generated", "-n", "\u0661"],
        ["boards", "--generated", "--seed", "1_0"],
        ["boards", "--generated", "--abilities", "\uff12-3"],
        ["serve", "--stdio", "--time-limit", "Infinity"],
        ["count", str(ERTAI), "--max-abilities", " 5"],
        ["check", "--batch", str(tmp_path / "none.jsonl"), "--jobs", "1_0"],
    ):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()), pytest.raises(SystemExit) as exited:
            main(argv)
        assert exited.value.code == 2 and "argument " in err.getvalue(), (argv, err.getvalue())


def _bool_params() -> list[tuple[str, str]]:
    """Every true-or-false param of every method, read from the methods' own params models (a
    verb or a field added is covered without a line here)."""
    from triggerstack.solver.serve._rpc import METHODS

    return [
        (method, name)
        for method, (model, _, _) in METHODS.items()
        for name, info in model.model_fields.items()
        if info.annotation is bool
    ]


@pytest.mark.parametrize(("method", "param"), _bool_params())
@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=st.one_of(st.integers(-1, 2), st.sampled_from(["true", "false", "yes", "1", "", "on"]), st.floats(-1e6, 1e6)))
def test_a_true_or_false_param_takes_only_true_or_false(http: Any, method: str, param: str, value: Any) -> None:
    """docs/server.md: params of the wrong shape are -32602 (HTTP 422). pydantic's lax mode read
    1, "false", "yes" and 0.0 as booleans; JSON's true and false are the only ones."""
    params = {"scenario": json.loads(DOC), param: value}
    if method in ("step.apply", "step.why"):
        params["decision"] = 0
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
    answer = json.loads(Service().handle(line) or "null")
    assert answer.get("error", {}).get("code") == -32602 and param in answer["error"]["message"], answer
    problem = http.post(f"/v1/{method.replace('.', '/')}", json=params)
    assert problem.status_code == 422 and problem.json()["place"] == param, problem.json()
    for taken in (True, False):
        line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, param: taken}})
        assert "result" in json.loads(Service().handle(line) or "null")


@pytest.mark.parametrize("players", [True, "2", 1.5, None], ids=repr)
def test_the_pages_board_reads_its_params_as_every_method_does(http: Any, players: Any) -> None:
    """POST /page/board's body is params too (solver/_boards/_named.py): its own lax base read
    true as 1 player and "2" as 2; 2.0 is 2, as on every wire."""
    answer = http.post("/page/board", json={"players": players, "cards": [], "event": "enters"})
    assert answer.status_code == 422 and answer.json()["place"] == "players", answer.json()
