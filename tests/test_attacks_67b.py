"""Doors bounded by mechanism (helper-67b): one limit, one meaning, at every door — a limit or a type
that meant different things at different doors — then fresh attacks beside what the last rounds
fixed. Each section's header names the door, the mechanism that let the break through, and the fix;
each test asserts what the docs promise, over inputs generated for the door.

The family, each documented limit at limit-1, limit and limit+1 through every door, 13 attacks — 7
broke (1, 3, 4, 5), 2 left, 4 held: depth and values at stdio, a stdio batch, Service.call, batch and
check --batch lines, HTTP, the command line's JSON and YAML (broke: 1, and YAML's words past
--max-values: 1); --max-depth past what the readers follow (broke: 4); a proposal's caps on an
outcome built in Python (broke: 5); an engine's count of 1e400 and every numeric form at both
conformance runners (broke: 3); held — digits 100/101 in a scenario at the command line and over
JSON-RPC, seeds of 100/101 digits at sample, JSON-RPC and boards (a Python int of 101 digits is
taken: the digits cap bounds text read, not a value a program built — left), a line at --max-bytes
±1 (-32700 past it, as docs/server.md's table says), sample n and enumerate limit at 10,000/10,001
over JSON-RPC and HTTP, a runner's count of 20,000/20,001 digits; left — a conformance case holding a
scenario nested 64 deep is refused by the suite reader (the case's own level), and
`Scenario.model_validate(dict)` reads at the default limits whatever Options a program gives later.

Fresh, 22 attacks — 5 broke (2, 5, and the set's words: 6a973ff), 1 left, 16 held: `Outcome(stack=[1])`,
`Entry(ability=1)`, `Counted(count="x")` (broke: 2), outcome_json/outcome_dict/canonical/by_reactions
of a dict (broke: 2), `Outcome(stack={e1, e2})` (broke: 5), `Score(target={"a"})` said "expected a
list" (broke), `Counted(count=True)` is a count of 1 (left: a result a program builds, not a
document); held — Service.call with a key that is no text or params that are a set, an HTTP body
that is an array, params a list 100 deep, a JSON-RPC batch of nested arrays, a check --batch
proposal 64 deep, `Limits(depth=True)`, U+2028 inside a string, two documents each at the values
cap in one body or call, draw of a scenario 64 deep, `Entry(targets={"t": "ab"})`,
`Outcome(removed="T")`, a division of 1.5, `model_validate_json` of bytes not UTF-8, `rl.env` of a
mapping, `--max-values 1` (read; its words say "1 values").

Private unit: model/_io.py check_data (a document's limits, an envelope's: within, a number as written: written), solver/serve/_batch.py verdict_line and solver/serve/_jobs.py answer_line (the batch doors), solver/_cli._conformance (the Python runner beside the Java one), model/_outcome.py parse_outcome (a proposal read as every door reads it), attacked.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import shlex
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Limits, Scenario
from triggerstack.model._outcome import parse_outcome
from triggerstack.solver import Options
from triggerstack.solver._cli import _conformance
from triggerstack.solver.serve import Service
from triggerstack.solver.serve._batch import verdict_line
from triggerstack.solver.serve._jobs import answer_line

from tests.doubles.mangling_engine import record
from tests.test_conformance import CASES

from .conftest import ROOT, main
from .test_runner_parity import _java_table_of

TINY = {"players": ["A"], "objects": [{"id": "s", "controller": "A"}], "triggers": [{"id": "T", "source": "s"}]}


def _http(options: Options) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient
        from triggerstack.solver.serve import app
    return TestClient(app(options), base_url="http://127.0.0.1")


# ---------------------------------------------------------------------------------------------------
# 1. A limit that meant the request's size, not the document's. Doors: JSON-RPC over stdio (a request,
# a batch array), Service().call, HTTP bodies, `batch` lines and `check --batch` lines, beside the
# command line and the Python door. A scenario nested --max-depth deep (64) was read from a file and
# refused in a request: the request's wrapper added two levels (stdio, batch: params.scenario), one
# (HTTP, Service.call, check --batch). Its sibling, --max-values: a scenario of exactly that many
# values was read from a file and refused in every request (the wrapper's own few values counted with
# it). Mechanism: every door held the whole envelope — request, body, line, params — to the limits
# of one document (model/_io.py check_data of the line's value), where docs/cli.md says "nesting of
# a document", "values of one document". Fix, one home: check_data(..., within=N) — the envelope's
# values N levels in are each held to the limits as a document of its own, its refusal placed inside
# the envelope; each door says how deep its documents sit (a request's params' members: 2; a body,
# params, a check --batch line: 1), and the text's unread guard against millions of values allows an
# envelope a few documents' worth. A sibling the property found: a YAML file past --max-values with no
# alias was "line 1 column 1: more than N values once its aliases expand", where the same JSON is
# "more than N values" (model/_yamlio.py: past the cap in its own values, it says what JSON says).
# The property: a scenario at limit-1, limit and limit+1 of depth or values gets the same verdict, in
# the same words at the same place in the scenario, at every door (the command line's YAML too).


def _nested(depth: int, kinds: list[bool]) -> Any:
    """A value whose deepest part is ``depth`` levels below a scenario's root when put at its ``x``."""
    value: Any = 0
    for i in range(depth - 1):
        value = {"k": value} if kinds[i % len(kinds)] else [value]
    return value


def _values(doc: Any) -> int:
    if isinstance(doc, dict):
        return 1 + sum(1 + _values(v) for v in doc.values())
    if isinstance(doc, list):
        return 1 + sum(_values(v) for v in doc)
    return 1


def _said(message: str) -> str:
    """A refusal as the scenario's own: the envelope's place (``params.scenario``, ``scenario``, the
    file) taken off, so each door's words about the scenario compare alike."""
    message = re.sub(r"^triggerstack: [^:]*: ", "", message.strip())
    message = re.sub(r"^(body: )?(params\.)?scenario(\.|(?=\[)|: |$)", "", message)
    return message.removeprefix("scenario: ")


def _doors(scenario: Any, limits: Limits, tmp: Path) -> dict[str, str]:
    """What each door says of ``count`` asked of ``scenario`` under ``limits``: OK or its refusal."""
    options = Options(limits=limits)
    params = {"scenario": scenario}
    out: dict[str, str] = {}
    request = {"jsonrpc": "2.0", "id": 1, "method": "count", "params": params}
    for name, line in (("stdio", json.dumps(request)), ("stdio batch", json.dumps([request]))):
        got = json.loads(Service(options).handle(line) or "null")
        got = got[0] if isinstance(got, list) else got
        out[name] = _said(got["error"]["message"]) if "error" in got else "OK"
    try:
        Service(options).call("count", params)
        out["call"] = "OK"
    except Exception as exc:
        out["call"] = _said(str(exc))
    got = json.loads(answer_line(1, json.dumps({"method": "count", "params": params}), None, options))
    out["batch"] = _said(got["error"]["message"]) if "error" in got else "OK"
    got = json.loads(verdict_line(1, json.dumps({"scenario": scenario, "proposal": {"stack": []}}), None, options))
    out["check --batch"] = _said(got["error"]["message"]) if "error" in got else "OK"
    answer = _http(options).post("/v1/count", json=params)
    out["http"] = "OK" if answer.status_code == 200 else _said(answer.json()["detail"])
    path = tmp / "scenario.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["count", str(path), "--max-depth", str(limits.depth), "--max-values", str(limits.values)])
    out["cli"] = "OK" if code == 0 else _said(err.getvalue())
    path = tmp / "scenario.yaml"  # the same document in YAML: the same words (it has no alias)
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = main(["count", str(path), "--max-depth", str(limits.depth), "--max-values", str(limits.values)])
    out["cli yaml"] = "OK" if code == 0 else _said(err.getvalue())
    return out


@settings(max_examples=12, deadline=None)
@given(
    cap=st.sampled_from(["depth", "values"]),
    limit=st.integers(8, 40),
    off=st.sampled_from([-1, 0, 1]),
    kinds=st.lists(st.booleans(), min_size=1, max_size=4),
)
def test_a_documents_limit_means_the_documents_size_at_every_door(
    cap: str, limit: int, off: int, kinds: list[bool], tmp_path_factory: pytest.TempPathFactory
) -> None:
    if cap == "depth":
        limits = Limits(depth=limit)
        scenario = {**TINY, "x": _nested(limit + off, kinds)}
    else:
        limits = Limits(values=limit + 20)
        scenario = {**TINY, "x": []}
        scenario["x"] = [0] * (limits.values + off - _values(scenario))
        assert _values(scenario) == limits.values + off
    said = _doors(scenario, limits, tmp_path_factory.mktemp("doors"))
    expected = said["cli"]  # the command line reads the scenario as a file: the document itself
    if off <= 0:
        assert expected == "x: unknown field 'x'", said
    else:
        assert f"raise it with --max-{cap}" in expected, said
    assert {door: words for door, words in said.items() if words != expected} == {}, expected


def test_a_document_at_the_default_limits_is_read_by_every_door(tmp_path: Path) -> None:
    """The reported case: 64 deep, the default, read at every door as the Python door reads it."""
    from triggerstack.model import ScenarioError

    scenario = {**TINY, "x": _nested(64, [False])}
    with pytest.raises(ScenarioError, match="unknown field 'x'"):
        Scenario.model_validate(scenario)
    said = _doors(scenario, Limits(), tmp_path)
    assert set(said.values()) == {"x: unknown field 'x'"}, said


# ---------------------------------------------------------------------------------------------------
# 2. A constructor pydantic answered. Door: the Python API (docs/python.md: bad input is a
# ScenarioError naming each place, "never pydantic's ValidationError"). `Outcome(stack=[1])`,
# `Entry(ability=1)`, `ModeChoice(mode="m", targets=3)`, `Scenario(players=1)`, `Score(height="x")`,
# and a result built by a program (`Counted(count="x")`, `Best(outcome=1)`) raised pydantic's
# ValidationError; `outcome_json({...})`, `outcome_dict`, `canonical(s, {...})` and
# `by_reactions(s, {...})` an AttributeError from inside. Mechanism: model/_scenario.py `Document`
# routed every `model_validate*` of a document through the reader and left the constructor, the
# first door a Python caller tries; an outcome's entries and a verb's results were no Document at
# all; and the functions taking an outcome did not read it (solver's `outcome_of` did, for the
# verbs only). Fix: one `Built.__init__` (model/_scenario.py) every format model and every result
# derives from: pydantic's problems in the format's words (`validation_error`); and one
# `outcome_of` (model/_outcome.py) that every function taking an outcome reads it by. The property:
# every public model of both packages, each field given any value, is built or refused as a
# ScenarioError; every public function taking an outcome refuses any other value as a UsageError.

_ANY = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.floats(allow_nan=True),
    st.text(max_size=5),
    st.binary(max_size=3),
    st.lists(st.integers(0, 3) | st.text(max_size=2), max_size=3),
    st.dictionaries(st.text(max_size=3), st.integers(0, 3) | st.text(max_size=2), max_size=2),
    st.frozensets(st.integers(0, 3), max_size=2),
)


def _public_models() -> list[tuple[str, type[Any]]]:
    import pydantic
    import triggerstack.model as model
    import triggerstack.solver as solver

    return [
        (f"{mod.__name__}.{name}", obj)
        for mod in (model, solver)
        for name in mod.__all__
        if isinstance(obj := getattr(mod, name), type) and issubclass(obj, pydantic.BaseModel)
    ]


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_every_public_model_built_with_any_value_is_built_or_refused_in_the_formats_words(data: Any) -> None:
    import pydantic
    from triggerstack.model import ScenarioError

    name, model = data.draw(st.sampled_from(_public_models()), label="model")
    field = data.draw(st.sampled_from(sorted(model.model_fields)), label="field")
    value = data.draw(_ANY, label="value")
    try:
        model(**{field: value})
    except ScenarioError as exc:
        assert exc.one_line(), name
    except pydantic.ValidationError as exc:  # pragma: no cover - the break
        pytest.fail(f"{name}({field}={value!r}) raised pydantic's {exc.title}: {exc.error_count()} problems")


@settings(max_examples=100, deadline=None)
@given(value=_ANY | st.builds(dict, stack=st.just([]), removed=st.just([])), which=st.integers(0, 3))
def test_every_function_taking_an_outcome_refuses_any_other_value_naming_it(value: Any, which: int) -> None:
    from triggerstack.model import UsageError, by_reactions, canonical, outcome_dict, outcome_json

    scenario = Scenario.model_validate(TINY)
    call: Callable[[], Any] = [
        lambda: outcome_dict(value),
        lambda: outcome_json(value),
        lambda: canonical(scenario, value),
        lambda: by_reactions(scenario, value),
    ][which]
    with pytest.raises(UsageError, match=r"expected an Outcome"):
        call()


# ---------------------------------------------------------------------------------------------------
# 3. A number read one way by each runner, or by neither as the docs say. Doors: the conformance
# runners, Python (`triggerstack conformance run`) and Java (clients/java/ConformanceRunner.java),
# reading an engine's count. docs/conformance.md: "a count is a whole number: an integer, or a float
# with no fraction below 2^53 … neither is a float of 2^53 or more … the case fails saying so, and
# asks for an integer"; a line is "malformed" only for what a strict JSON reader refuses. A count of
# `1e400` (well-formed JSON, a whole number by its text, past the doubles) was "not JSON the runner
# reads (malformed)" in both; and the runners parted on numbers written with an exponent or past a
# double's precision — `1e-400` was "1e-400 is not a whole number" in Python and "1E-400" in Java,
# `9007199254740993.0` shown as written by one and as its double by the other. Mechanism: the
# Python runner read a line with the documents' limits, which refuse a number past the floats
# (model/_io.py check_data's "range": the tool cannot compute with it), and showed a number by
# its text; the Java reader refused it too (TriggerStackClient's parser) and showed a number by
# BigDecimal's own spelling. Fix: both read a number past the doubles as written (Python:
# check_data(..., written=True), the runner's lines only; Java: the parser keeps the text of a
# number with a point or an exponent, `Written`), a whole one of 2^53 or more is "a float of 2^53 or
# more", and both show a number that is not the float it reads as by its text, as Python's `found`.
# The property: any JSON number text as an engine's count, the two runners print the same lines.

_ENGINE = """
import json, sys
sys.path.insert(0, {root!r})
from tests.doubles.mangling_engine import Recorded
service, token = Recorded(sys.argv[1]), sys.argv[2]
for line in sys.stdin:
    request = json.loads(line)
    if request.get("method") == "count":
        answer = '{{"jsonrpc": "2.0", "id": %s, "result": {{"count": %s}}}}' % (json.dumps(request["id"]), token)
    else:
        answer = service.handle(line)
    sys.stdout.write(answer + "\\n")
    sys.stdout.flush()
"""


def _number_texts() -> st.SearchStrategy[str]:
    digits = st.text("0123456789", min_size=1, max_size=22).map(lambda d: d.lstrip("0") or "0")
    fraction = st.none() | st.text("0123456789", min_size=1, max_size=18)
    exponent = st.none() | st.tuples(st.sampled_from(["e", "E"]), st.sampled_from(["", "+", "-"]), st.integers(0, 420))
    built = st.tuples(st.sampled_from(["", "-"]), digits, fraction, exponent).map(
        lambda t: t[0] + t[1] + ("" if t[2] is None else "." + t[2]) + ("" if t[3] is None else f"{t[3][0]}{t[3][1]}{t[3][2]}")
    )
    named = st.sampled_from(
        ["1e400", "-1e400", "1E+400", "1e-400", "-0", "-0.0", "0.0", "9007199254740993.0", "9007199254740992",
         "1.00000000000000001e0", "20E-1", "1e20", "1e308", "1.7976931348623157e308", "1.8e308", "-1", "1"]
    )  # fmt: skip
    long = st.sampled_from(["9" * 20_000, "1" + "0" * 20_000, "-" + "9" * 20_001])  # at the digits cap, past it
    return named | built | long


@pytest.mark.slow
@settings(max_examples=2, deadline=None)
@given(tokens=st.lists(_number_texts(), min_size=16, max_size=20, unique=True))
def test_both_runners_read_any_number_an_engine_counts_alike(
    tokens: list[str], java_classes: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    tmp = tmp_path_factory.mktemp("numbers")
    case = next(c for c in CASES if c.id == "603.3c/modes")
    (tmp / "suite").mkdir()
    (tmp / "suite" / "case.json").write_text(json.dumps(case.data), encoding="utf-8")
    record([case.data], tmp / "answers.json")
    (tmp / "engine.py").write_text(_ENGINE.format(root=str(ROOT)), encoding="utf-8")

    def engine(token: str) -> list[str]:
        return [sys.executable, str(tmp / "engine.py"), str(tmp / "answers.json"), token]

    def limit(token: str) -> int:
        """60 s; 10 for a count past the digits cap, a line neither runner reads: noise, skipped while
        each waits out its time limit for an answer (docs/conformance.md) — at 60 s the test took two
        minutes waiting."""
        return 10 if sum(c.isdigit() for c in token) > 20_000 else 60

    def python(token: str) -> tuple[int, list[str]]:
        asked = argparse.Namespace(
            suite=str(tmp / "suite"), itself=False, engine=shlex.join(engine(token)), time_limit=limit(token), json=False
        )
        code, text = _conformance(asked)
        return code, text.splitlines()

    with ThreadPoolExecutor(4) as pool:
        pythons = dict(zip(tokens, pool.map(python, tokens), strict=True))
    javas = _java_table_of(
        java_classes, [{"name": t, "args": ["--time-limit", str(limit(t)), str(tmp / "suite"), *engine(t)]} for t in tokens]
    )
    differ = {t: (pythons[t], javas[t]) for t in tokens if (javas[t][0], javas[t][1].splitlines()) != pythons[t]}
    assert differ == {}
    for token, (_, lines) in pythons.items():  # what docs/conformance.md says of each
        assert not any("malformed" in line for line in lines), (token, lines)


# ---------------------------------------------------------------------------------------------------
# 4. (fresh; the family's ceiling) A cap raised past what the readers can follow. Doors: every
# `--max-depth` (the command line, `serve`, `batch`) and the Python door's `Limits(depth=...)`. A JSON
# scenario 600 deep read with `--max-depth 100000` was exit 70, "internal error: RecursionError"; one
# 1,200 deep (and a YAML one 600 deep) "nested deeper than the limit of 100000 (raise it with
# --max-depth)", a cap the document was within and advice that could not help. Mechanism: the cap took
# any whole number, while the readers and the validation recurse in Python, within its recursion
# limit: the cap had a ceiling nobody stated. Fix: the cap's field says its most (model/_limits.py
# MOST_DEPTH, 256), read by the flag's type and by `limits_of` (the Python door, the servers' options).
# The property: a scenario at any depth up to the ceiling is read alike at every door with the cap
# raised to it; past it, the cap is refused as a flag out of range, at the command line and in Python.


@settings(max_examples=4, deadline=None)
@given(depth=st.integers(200, 256), kinds=st.lists(st.booleans(), min_size=1, max_size=3))
def test_a_document_as_deep_as_the_cap_may_be_raised_is_read_at_every_door(
    depth: int, kinds: list[bool], tmp_path_factory: pytest.TempPathFactory
) -> None:
    from triggerstack.model._limits import MOST_DEPTH

    assert depth <= MOST_DEPTH
    scenario = {**TINY, "x": _nested(depth, kinds)}
    said = _doors(scenario, Limits(depth=depth), tmp_path_factory.mktemp("deep"))
    assert set(said.values()) == {"x: unknown field 'x'"}, said
    deeper = _doors({**TINY, "x": _nested(depth + 1, kinds)}, Limits(depth=depth), tmp_path_factory.mktemp("deeper"))
    assert {"raise it with --max-depth" in words for words in deeper.values()} == {True}, deeper


@pytest.mark.parametrize("most", ["257", "100000", "1e6"])
def test_a_depth_cap_past_what_the_readers_follow_is_refused_as_a_flag(most: str, capsys: pytest.CaptureFixture[str]) -> None:
    from triggerstack.model import UsageError

    from .conftest import EXAMPLES

    with pytest.raises(SystemExit) as ended:
        main(["count", str(EXAMPLES / "ward" / "scenario.yaml"), "--max-depth", most])
    assert ended.value.code == 2 and "--max-depth: expected at most 256" in capsys.readouterr().err
    with pytest.raises(UsageError, match=r"limits\.depth: expected at most 256"):
        Options(limits=Limits(depth=int(float(most))))


# ---------------------------------------------------------------------------------------------------
# 5. (fresh; 2's siblings, found beside it) An outcome a program builds, read as no document is.
# Door: the Python API's `Outcome(...)` and `check`. `Outcome(stack=[... 1,001 entries])` was
# judged by `check(scenario, outcome)` where `Outcome.model_validate` and every other door refuse
# it at --max-abilities before reading an entry (docs/architecture.md: "A proposal is held to a
# scenario's caps … by parse_outcome … on every door"); `Outcome(stack={e1, e2})` took the set as
# a stack in its hashes' order (docs/python.md: "a set is no … list"). Mechanism: the caps were
# read off the document's mapping (model/_outcome.py _within), which a constructed outcome never
# is, and pydantic reads a set as a list. Fix: `check` reads its proposal by `proposal_of`, the
# same caps over the outcome's entries (an Entry's id read as a mapping's); `Built.__init__`
# refuses a set for any field. The property: any number of entries in any pass around the cap,
# built or read, gets the same verdict; any field given a set is refused saying so.


@settings(max_examples=30, deadline=None)
@given(entries=st.integers(1, 12), fired=st.booleans(), cap=st.integers(2, 10))
def test_an_outcome_built_is_held_to_a_proposals_caps_as_one_read(entries: int, fired: bool, cap: int) -> None:
    from triggerstack.model import Outcome, ScenarioError
    from triggerstack.solver import LegalOutcomes

    stack = [{"ability": ("W@" if fired else "") + f"a{i}"} for i in range(entries)]
    options = Options(limits=Limits(abilities=cap))
    legal = LegalOutcomes(Scenario.model_validate(TINY), options)

    def verdict(read: Callable[[], Any]) -> str:
        try:
            return "legal" if legal.check(read()).legal else "illegal"
        except ScenarioError as exc:
            return exc.one_line()

    built = verdict(lambda: Outcome(stack=stack))
    read = verdict(lambda: parse_outcome({"stack": stack}, limits=options.limits))
    assert built == read
    assert ("--max-abilities" in built) == (entries > cap), built


@given(value=st.frozensets(st.text("ab", min_size=1, max_size=2), min_size=1, max_size=3), data=st.data())
def test_a_set_given_for_any_field_of_any_public_model_is_refused(value: frozenset[str], data: Any) -> None:
    from triggerstack.model import Entry, ScenarioError

    name, model = data.draw(st.sampled_from(_public_models()), label="model")
    field = data.draw(st.sampled_from(sorted(model.model_fields)), label="field")
    given_value: Any = {Entry(ability=v) for v in value} if field == "stack" else set(value)
    with pytest.raises(ScenarioError) as refused:
        model(**{field: given_value})
    said = [e.one_line() for e in refused.value.every()]  # with what else the model misses
    assert any(s.startswith(f"{field}: ") and "set" in s for s in said), (name, said)
    if str(model.model_fields[field].annotation).startswith("dict["):  # a mapping is asked, not a list
        assert not any(s.startswith(f"{field}: expected a list") for s in said), (name, said)
