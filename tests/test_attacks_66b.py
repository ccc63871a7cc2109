"""Doors bounded by mechanism (helper-66b): the graph-not-tree family of 804d08f (a YAML alias
inside its own anchor ran the document reader out of memory: a walker took a graph for a tree)
hunted at every door that reads outside data or a Python caller's objects, then fresh attacks
beside the doors the last rounds fixed. Each section's header names the door, the mechanism that
let the break through, and the fix; each test asserts what the docs promise, over inputs generated
for the door where a list of examples would miss a sibling.

The family, 18 attacks — 8 broke (1, 2, 3, 4, 5, and 6's suite count), 10 held: a list or mapping
holding itself at Scenario, Outcome, Score, model_validate_strings (broke: 1), a caller's list of
ten million (broke: 2), a Python engine's answer holding itself, a set, bytes (broke: 3), a folder
1,200 deep (broke: 4), a phase filter holding itself or 3,000 Nots deep (broke: 5), a suite count
of 5,001 digits read by a program (broke: 6); held — a shared part (a DAG) read as its tree, a
DAG of 2^60 leaves refused at --max-values, links that loop in a folder, rl.env's source and
reset's options holding themselves, a reward's score holding itself, step's decisions holding
themselves, phase's answer and root state holding themselves, a file of depth 64 and a seed of 100
digits read (101 refused).

Fresh, 42 attacks — 13 broke (in four mechanisms: 6, 7, 8, 9), 29 held: a count past 4,300 digits over
stdio, Service.call, batch lines, text and explain, count --divide's refusal (broke: 6); a 200,000
character reference, ESC in a reference, a long phase prompt kind (broke: 7); a phase order of a
million positions (broke: 8); held — YAML's !!python/object/apply, !!binary, !!set, NO, a date
and 0x1F as ids (read as text), ESC in an id and in a proposal's ability, --seed 2^64 for sample
and boards, enumerate --limit and sample -n of 100 digits, Python's sample of 10^99 (time-bounded),
rl reset seeds 2^64 and 2^200, an SVG of a 2 MB trigger text with ]]> (held to --max-answer),
and thirteen protocol variations put to both conformance runners, which print the same lines —
an answer with result and error, a duplicate count, a duplicate id, a string id, a count of 1e400,
a lone surrogate in a handle, no jsonrpc member, jsonrpc 1.0, a count of -0, error null, an answer
in a batch array, a NUL after the line, a count of 12e0.

Private unit: model/_io.py check_data (the one check of every document a Python caller builds) and files_under (the one walk of a folder), and model/_errors.py format_loc (how a place is said), attacked.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import Limits, Outcome, Scenario, ScenarioError, Score
from triggerstack.model._errors import format_loc
from triggerstack.model._io import check_data, files_under

from .conftest import EXAMPLES, ROOT

TINY = {"players": ["A"], "objects": [{"id": "s", "controller": "A"}], "triggers": [{"id": "T", "source": "s"}]}

# ---------------------------------------------------------------------------------------------------
# 1. A document that holds itself. Door: the Python door of every document (`Scenario`, `Outcome`,
# `Score`'s `model_validate` and `model_validate_strings`, and what reads through them: rl's
# sources, the conformance runner's cases). `x = ["A"]; x.append(x); Scenario.model_validate(
# {"players": x})` was "players[1][1][1]…[1] (63 times): nested deeper than the limit of 64 (raise it
# with --max-depth)" — a place of 64 parts, and advice that can never help: no depth holds it.
# Mechanism: the walk that names a place (model/_io.py _walk) took a graph for a tree, as the YAML
# alias counter did before 804d08f; only the depth cap stopped it. Fix, there: the walk keeps the
# containers on the path it walks (by identity) and refuses one met again inside itself, naming the
# place where it closes and the place of the container it is — in the words of YAML's recursive
# anchor. The property: any JSON tree, any container in it made to hold any of its ancestors, at
# any door.

_LEAVES = st.none() | st.booleans() | st.integers(-5, 5) | st.text(max_size=3)
_TREES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)


def _containers(doc: Any, loc: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every list and mapping of ``doc`` with its place, outermost first."""
    if isinstance(doc, dict):
        return [(loc, doc)] + [c for k, v in doc.items() for c in _containers(v, (*loc, k))]
    if isinstance(doc, list):
        return [(loc, doc)] + [c for i, v in enumerate(doc) for c in _containers(v, (*loc, i))]
    return []


_DOORS: dict[str, Callable[[Any], object]] = {
    "Scenario": lambda d: Scenario.model_validate({**TINY, "players": d}),
    "Outcome": lambda d: Outcome.model_validate({"stack": [], "removed": [], "x": d}),
    "Score": lambda d: Score.model_validate({"mode": d}),
    "strings": lambda d: Scenario.model_validate_strings({**TINY, "objects": d}),
}


@settings(max_examples=60, deadline=None)
@given(tree=_TREES, data=st.data(), door=st.sampled_from(sorted(_DOORS)))
def test_a_document_that_holds_itself_is_refused_saying_so_and_where(tree: Any, data: Any, door: str) -> None:
    doc: Any = [tree]  # the root a container, so that something can hold it
    places = _containers(doc)
    inner_loc, inner = data.draw(st.sampled_from(places))
    outer_loc, outer = data.draw(st.sampled_from([p for p in places if inner_loc[: len(p[0])] == p[0]]))
    if isinstance(inner, list):
        inner.append(outer)
        closes = (*inner_loc, len(inner) - 1)
    else:
        inner["\u00a7"] = outer
        closes = (*inner_loc, "\u00a7")
    with pytest.raises(ScenarioError) as refused:
        _DOORS[door](doc)
    said = str(refused.value)
    assert "holds itself" in said and "deeper" not in said and "--max-depth" not in said, said
    assert refused.value.loc[-len(closes) :] == closes  # where the cycle closes, under the door's own field
    assert len(refused.value.loc) <= len(closes) + 1
    assert format_loc(outer_loc) in said.split("this is the ", 1)[1]  # and the place of what it holds


def test_a_document_sharing_a_part_is_read_as_the_tree_it_stands_for() -> None:
    """A part held twice (no cycle) is JSON's tree written with a shared value: read, never refused."""
    shared = {"destroy": 5}
    score = Score.model_validate({"mode": {"E": shared, "F": shared}})
    assert Score.model_validate({"mode": {"E": {"destroy": 5}, "F": {"destroy": 5}}}) == score


# ---------------------------------------------------------------------------------------------------
# 2. (fresh) Memory before the count. Door: the same Python doors. A caller's list of ten million
# values, `Scenario.model_validate({"players": [0] * 10_000_000})`, was refused at --max-values
# (1,000,000) only after 690 MB of pairs were made: the check within the limits (model/_io.py
# _within) pushed every item of a container on its stack before the count of values saw them.
# Fix, there: a container's items are counted before any is pushed (the values waiting on the stack
# each count once popped, so the sum past the cap is past it for certain — never a false refusal).
# The property: a document past the values cap, in any shape, is refused using memory independent
# of how far past it is.


@settings(max_examples=20, deadline=None)
@given(
    shape=st.sampled_from(["list", "mapping", "nested", "wide-then-deep"]),
    times=st.integers(20, 200),
)
def test_a_document_past_the_values_cap_is_refused_in_memory_of_the_cap(shape: str, times: int) -> None:
    limits = Limits(values=500)
    n = 500 * times
    doc: Any = {
        "list": [0] * n,
        "mapping": {str(i): i for i in range(n)},
        "nested": [[0] * n],
        "wide-then-deep": [0, [1, [2, [0] * n]]],
    }[shape]
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError, match="more than 500 values"):
            check_data(doc, limits=limits)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 200_000, f"{peak} bytes to refuse {n} values past a cap of 500"


# ---------------------------------------------------------------------------------------------------
# 3. An engine's answer that is no JSON. Door: the conformance runner's Python door, `run(engine,
# cases)` with an engine of the caller's (docs/python.md: `Engine` is the protocol `call`, `close`).
# A Python engine answering a value that holds itself, a set, bytes, or a mapping keyed by numbers
# crashed the run ("ValueError: Circular reference detected", "TypeError: Object of type set is not
# JSON serializable"), one answering nan was told "count NaN is not a whole number", and a stray
# set beside a right count passed. Mechanism: the runner reads a process engine's answers from
# lines held to its limits (solver/conformance/_lines.py Lines.call), and took a Python engine's as
# JSON without reading them — then showed a wrong one by json.dumps of all of it. Fix: one home
# every answer passes, solver/conformance `_asked`: an answer not read from a line is held to the
# same limits by the documents' check (check_data: a cycle, a set, bytes, nan, values; and its text
# and keys), else the case fails naming the place. The property: any poison at any place of any
# answer of a right engine fails its case saying so, and never ends the run.


def _poisons() -> dict[str, Callable[[], Any]]:
    def cyclic_list() -> Any:
        x: list[Any] = [1]
        x.append(x)
        return x

    def cyclic_mapping() -> Any:
        d: dict[str, Any] = {"a": 1}
        d["b"] = d
        return d

    return {
        "cyclic list": cyclic_list,
        "cyclic mapping": cyclic_mapping,
        "set": lambda: {1, 2},
        "bytes": lambda: b"12",
        "nan": lambda: float("nan"),
        "an object": object,
        "a number key": lambda: {1: 2},
        "a tuple key": lambda: {(1,): 2},
    }


@functools.cache
def _a_legal_case() -> Any:
    """The suite's first case with a legal proposal, read once: reading the whole suite (0.3 s of CPU)
    on every example was most of the property's time; every example poisons an answer about it."""
    from triggerstack.solver.conformance import default_suite, load_suite

    return next(c for c in load_suite(default_suite()) if c.data["legal"])


@settings(max_examples=40, deadline=None)
@given(
    method=st.sampled_from(["load", "count", "check"]),
    poison=st.sampled_from(sorted(_poisons())),
    beside=st.booleans(),
)
def test_a_python_engine_answering_no_json_fails_its_case_naming_it(method: str, poison: str, beside: bool) -> None:
    from triggerstack.solver.conformance import SelfEngine, run

    case = _a_legal_case()

    class Poisoned:
        def __init__(self) -> None:
            self.inner = SelfEngine(30)

        def call(self, name: str, params: dict[str, Any]) -> Any:
            answer = self.inner.call(name, params)
            if name != method:
                return answer
            bad = _poisons()[poison]()
            return {**answer, "x": bad} if beside else {**answer, next(iter(answer)): bad}

        def close(self) -> None:
            self.inner.close()

    report = run(Poisoned(), [case])
    (result,) = report.results
    assert not result.passed and "not JSON data" in result.difference, result
    assert len(result.difference) < 500


# ---------------------------------------------------------------------------------------------------
# 4. A folder deeper than Python's stack. Doors: `triggerstack conformance run --suite DIR` (and
# `load_suite`), and an environment's folder source (`rl.env(folder)`). A case or a scenario 1,100
# folders down (a path of 2,200 characters, well within the system's 4,096) ended the run as
# "internal error: RecursionError" (exit 70) and `rl.env` as a RecursionError. Mechanism: the two
# walks of a folder of documents, os.walk and Path.rglob, recurse a frame per folder in Python 3.11
# (a folder tree is a tree these walkers took as a shallow one). Fix: one walk, model/_io.py
# files_under, with a stack of its own (a link to a folder not entered, as both did), through which
# both doors list a folder. The property: a document at any depth, beside links that loop, is found.


def _deep_folder(root: Path, depth: int) -> Path:
    here = root
    for _ in range(depth):  # made a step at a time: os.makedirs recurses too
        here = here / "d"
        here.mkdir()
    (root / "loop").symlink_to(root, target_is_directory=True)
    (here / "up").symlink_to(root, target_is_directory=True)
    return here


def _remove(root: Path) -> None:
    """``root`` removed, deepest first (shutil.rmtree recurses as well: pytest's own clean-up of a
    folder this deep leaves it behind as garbage for every later run)."""
    for path, is_dir in sorted(files_under(root), key=lambda p: -len(p[0].parts)):
        path.rmdir() if is_dir and not path.is_symlink() else path.unlink()
    root.rmdir()


@settings(max_examples=6, deadline=None)
@given(depth=st.sampled_from([0, 3, 1_200]), door=st.sampled_from(["suite", "rl"]))
def test_a_document_at_any_depth_of_a_folder_is_found(depth: int, door: str) -> None:
    root = Path(tempfile.mkdtemp(prefix="deep-"))
    try:
        bottom = _deep_folder(root, depth)
        if door == "suite":
            from triggerstack.solver.conformance import load_suite

            shutil.copy(ROOT / "conformance" / "cases" / "700.2" / "chooser.json", bottom / "chooser.json")
            assert [c.data["id"] for c in load_suite(root)] == ["700.2/chooser"]
        else:
            from triggerstack.solver import rl

            shutil.copy(EXAMPLES / "board-wipe" / "scenario.yaml", bottom / "scenario.yaml")
            env = rl.env(str(root))
            env.reset(seed=0)
            assert env.unwrapped.scenario.players
    finally:
        _remove(root)


# ---------------------------------------------------------------------------------------------------
# 5. A phase state that holds itself, or is nested past reason. Door: the phase.rs adapter's `read`
# (docs/phase.md: a state phase would not export is a PhaseStateError naming the field by its path).
# A target filter that holds itself (`f = {"type": "Or", "filters": [g]}; f["filters"].append(f)`, a
# Python caller's state) and one nested 3,000 `Not`s deep were both "the state is nested deeper than
# any state phase exports": no place, and for the first not what it is. Mechanism: the one reader,
# adapters/phase/_schema.py Node, made a child at any depth, so the readers that recurse (a filter's
# Or, And, Not) ran into Python's RecursionError, caught at the top where no place is known. Fix,
# in Node: each node knows its depth, and one past DEEPEST (100; the recorded states reach 24) is
# refused there, naming where a container first holds itself and the place of what it holds, or
# the first levels of its path. The property: either shape, at the filter of any recorded prompt.


def _filters() -> list[tuple[dict[str, Any], tuple[Any, ...]]]:
    """Each recorded prompt's state with the place of a target filter the reading reads."""
    import gzip
    import json

    found: list[tuple[dict[str, Any], tuple[Any, ...]]] = []
    for path in sorted((ROOT / "tests" / "data" / "phase").glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            state = json.load(f)["prompts"][0]["state"]
        stack: list[tuple[Any, tuple[Any, ...]]] = [(state, ())]
        while stack:
            value, loc = stack.pop()
            if isinstance(value, dict):
                if value.get("type") == "Typed" and {"pending", "ability", "effect"} <= set(loc) and not {
                    "trigger_event",
                    "trigger_source",
                } & set(loc):
                    found.append((state, loc))
                    break
                stack.extend((v, (*loc, k)) for k, v in value.items())
            elif isinstance(value, list):
                stack.extend((v, (*loc, i)) for i, v in enumerate(value))
    return found


_FILTERS: list[tuple[dict[str, Any], tuple[Any, ...]]] = []


@settings(max_examples=30, deadline=None)
@given(which=st.integers(0, 50), shape=st.sampled_from(["Or", "And", "Not", "list"]), deep=st.integers(101, 3_000))
def test_a_phase_state_holding_itself_or_too_deep_is_refused_naming_the_place(
    which: int, shape: str, deep: int
) -> None:
    import copy

    from triggerstack.adapters.phase import PhaseStateError, read

    _FILTERS[:] = _FILTERS or _filters()
    state, loc = _FILTERS[which % len(_FILTERS)]
    state = copy.deepcopy(state)
    holder = state
    for k in loc[:-1]:
        holder = holder[k]
    inner = holder[loc[-1]]
    if shape == "Not":  # finite, past any state phase exports
        for _ in range(deep):
            inner = {"type": "Not", "filter": inner}
    elif shape == "list":
        cycle: list[Any] = [inner]
        cycle.append({"type": "Or", "filters": cycle})
        inner = {"type": "And", "filters": cycle}
    else:
        inner = {"type": shape, "filters": [inner]}
        inner["filters"].insert(deep % 2, inner)
    holder[loc[-1]] = inner
    with pytest.raises(PhaseStateError) as refused:
        read(state, strict=False)
    said = str(refused.value)
    assert said.startswith("pending_trigger_order.groups["), said  # the place, from the state's field
    if shape == "Not":
        assert "nested deeper than 100 levels" in said
    else:
        assert "holds itself: it is the value at pending_trigger_order" in said
    assert len(said) < 600


# ---------------------------------------------------------------------------------------------------
# 6. (fresh) A count past 4,300 digits. Doors: every one but the command line — the Python server
# (`Service().handle`, `.call`), batch lines, HTTP served by `app()` from a program, `CountResult.text()`,
# `explain`'s text and repr. Forty abilities that may each target any number of 400 creatures have
# about 10^4,864 outcomes: `count` and `explain` over JSON-RPC were -32603 "internal error:
# ValueError: Exceeds the limit (4300 digits) for integer string conversion", `count --divide`'s own
# refusal crashed formatting the count, and `Service().call` could not read the answer back.
# docs/cli.md: "Exact integers print at any size". Mechanism: the integers were written by str() (a
# JSON encoder's, an f-string's), which Python caps unless the process lifts the cap — and only the
# command line's main did. Fix: model/_numbers.py int_text (exact, in halves below the cap) where
# an answer writes an integer (model/_answer.py Answer.value, count's and explain's text), int_said
# (the first 20 digits and how many) where a sentence does (every refusal naming a count, found(),
# the conformance report's count_text), and text_int where one is read back (the documents' reader,
# Service.call). The property: a count past the cap, at every door, exact and never an internal error.


def _huge(abilities: int) -> dict[str, Any]:
    creatures = [{"id": f"c{i}", "controller": "A", "types": ["creature"]} for i in range(400)]
    every = {"id": "t", "min": 0, "max": None, "filter": {"type": "creature"}}
    return {
        "players": ["A"],
        "objects": [*creatures, {"id": "s", "controller": "A"}],
        "triggers": [{"id": f"T{i}", "source": "s", "targets": [every]} for i in range(abilities)],
    }


@settings(max_examples=8, deadline=None)
@given(abilities=st.integers(36, 48), door=st.sampled_from(["stdio", "call", "batch", "text", "divide"]))
def test_a_count_past_pythons_digit_cap_is_exact_at_every_door(abilities: int, door: str) -> None:
    import json
    import sys
    from decimal import Decimal

    from triggerstack.solver import LegalOutcomes, Options, explain
    from triggerstack.solver.serve import Service
    from triggerstack.solver.serve._jobs import answer_line

    def int_text(n: int) -> str:  # decimal's own writer: no cap
        return str(Decimal(n))

    doc = _huge(abilities)
    capped = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)  # as a program has it (the command line in this process lifts it)
    try:
        options = Options(time_limit=60)
        exact = LegalOutcomes(Scenario.model_validate(doc), options).count()
        assert exact > 10**4300
        request = {"scenario": doc}
        if door == "stdio":
            line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "count", "params": request})
            said = Service(options).handle(line) or ""
            assert '"error"' not in said and said.endswith(f'"result":{{"count":{int_text(exact)}}}}}'[-60:]), said[:300]
        elif door == "call":
            assert Service(options).call("count", request)["count"] == exact
        elif door == "batch":
            said = answer_line(1, json.dumps({"method": "count", "params": request}), None, options)
            assert int_text(exact) in said, said[:300]
        elif door == "text":
            legal = LegalOutcomes(Scenario.model_validate(doc), options)
            assert legal.counted().text() == int_text(exact)
            found = explain(Scenario.model_validate(doc), options=options)
            assert f"legal outcomes: {int_text(exact)}" in found.text()
            assert "digits) legal outcomes>" in repr(found)
        else:
            line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "count", "params": {**request, "divide": True}})
            error = json.loads(Service(options).handle(line) or "")["error"]
            assert error["code"] == -32001 and "digits) is more than the limit of" in error["message"], error
    finally:
        sys.set_int_max_str_digits(capped)


# ---------------------------------------------------------------------------------------------------
# 7. (fresh; 65b's 6 in the document reader and the phase adapter) A reference said whole, in
# Python's words. Doors: every reader of a scenario (the command line, the servers, batch lines,
# `Scenario.model_validate`) and phase's `read`. A trigger's `source` of 200,000 characters came back
# whole in "triggers[0].source: unknown object 'xxx…'" (a message of 200 KB, whatever --max-answer),
# and a reference holding ESC as Python's `'s\x1b[31mX'` — where every other message quotes
# through model/_text.py typed (cut at 40, JSON's escapes); likewise an unknown player, a duplicate
# id, an applies_to, a target_of, and phase's prompt kind ("phase is waiting for '…'"), a card type,
# a mana cost. Mechanism: 65b moved the server's messages to typed and left `{x!r}` in the
# references' check (model/_references.py) and the phase adapter. Fix: those messages quote through
# found (typed for text). The property: any text at each place comes back quoted and cut.

_REFERENCES: dict[str, Callable[[str], dict[str, Any]]] = {
    "source": lambda x: {**TINY, "triggers": [{"id": "T", "source": x}]},
    "controller": lambda x: {**TINY, "objects": [{"id": "s", "controller": x}]},
    "owner": lambda x: {**TINY, "objects": [{"id": "s", "owner": x}]},
    "duplicate": lambda x: {**TINY, "objects": [{"id": x, "controller": "A"}, {"id": x, "controller": "A"}]},
}


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(min_size=1, max_size=20).map(lambda t: t * 5_000),
    place=st.sampled_from(sorted(_REFERENCES)),
)
def test_a_reference_comes_back_quoted_and_cut(text: str, place: str) -> None:
    from triggerstack.model._text import typed

    doc = _REFERENCES[place](text if place != "duplicate" else "x" * 50_000)
    with pytest.raises(ScenarioError) as refused:
        Scenario.model_validate(doc)
    said = str(refused.value)
    assert len(said) < 600, said[:200]
    if place != "duplicate":
        assert typed(text, 40) in said, said[:200]
        assert "\\x" not in said.replace(typed(text, 40), "")  # never Python's escapes


@settings(max_examples=20, deadline=None)
@given(text=st.text(min_size=1, max_size=20).map(lambda t: t * 5_000))
def test_a_phase_prompt_kind_comes_back_quoted_and_cut(text: str) -> None:
    from triggerstack.adapters.phase import PhaseGap, read
    from triggerstack.model._text import typed

    _FILTERS[:] = _FILTERS or _filters()
    state = dict(_FILTERS[0][0]["state"])
    state["waiting_for"] = {"type": text, "data": None}
    with pytest.raises(PhaseGap) as refused:
        read(state)
    said = str(refused.value)
    assert typed(text, 40) in said and len(said) < 600, said[:200]


def test_a_suite_count_past_pythons_digit_cap_is_read_from_a_program(tmp_path: Path) -> None:
    """6's sibling at the conformance runner's Python door: a case whose count has 5,001 digits
    (ANSWER_DIGITS allows 20,000) was "ValueError: Exceeds the limit (4300 digits)" from `load_suite`
    in a program — the documents' reader converted its digits by int(). It reads them by text_int."""
    import json
    import sys

    from triggerstack.solver.conformance import load_suite

    text = (ROOT / "conformance" / "cases" / "700.2" / "chooser.json").read_text(encoding="utf-8")
    count = json.loads(text)["count"]
    (tmp_path / "c.json").write_text(text.replace(f'"count": {count}', '"count": 1' + "0" * 5_000, 1), "utf-8")
    capped = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    try:
        (case,) = load_suite(tmp_path)
        assert case.data["count"] == 10**5_000
    finally:
        sys.set_int_max_str_digits(capped)


# ---------------------------------------------------------------------------------------------------
# 8. (fresh) A caller's list said whole. Door: the phase adapter's `Answers.index(action)` (and
# `is_legal_answer`) of an order prompt: an order of a million positions came back whole in the
# ValueError ("order [0, 1, 2, … 999999] is not a permutation …": 7 MB). Mechanism: the message
# wrote the caller's list with str(). Fix: adapters/phase/_prompt.py `_said`, whole up to 24
# positions (a prompt holds a few), else its first ones and how many.


@settings(max_examples=15, deadline=None)
@given(size=st.integers(7, 200_000), start=st.integers(0, 6))
def test_an_order_given_is_said_bounded(size: int, start: int) -> None:
    import gzip
    import json

    from triggerstack.adapters.phase import answers, read

    with gzip.open(ROOT / "tests" / "data" / "phase" / "wrath-of-god.json.gz", "rt", encoding="utf-8") as f:
        state = json.load(f)["prompts"][0]["state"]
    offered = answers(read(state))
    order = list(range(start, start + size))
    with pytest.raises(ValueError) as refused:
        offered.index({"type": "OrderTriggers", "data": {"order": order}})
    said = str(refused.value)
    assert len(said) < 600 and (size <= 24 or f"({size} positions)" in said), said[:300]


# ---------------------------------------------------------------------------------------------------
# 9. (fresh; 1's sibling at the server's Python door) Params a program builds. Door: docs/python.md
# "The server's methods, transport-free, are Service().call(method, params)". A scenario holding
# itself was -32603 "internal error: ValueError: Circular reference detected" (the compiled-scenario
# cache keys a document by json.dumps of it), a set of players was read as a list in its hashes'
# order, and a seed of 5,000 digits was taken where the wire refuses one past --max-digits (100).
# Mechanism: every line and body is held to the limits by check_value (solver/serve/_batch.py)
# before Service.ask reads it; Service.call took a program's values to ask unread. Fix: call holds
# them to the same check first — and that check (model/_io.py check_data) refuses a mapping's key
# that is no text, at its place, which the property found next (a tuple key was "internal error:
# keys must be str"; pydantic had said it after the cache's json.dumps). The property: poison
# anywhere in the params of a method is refused as a line holding the same would be, never an
# internal error or an answer.


@settings(max_examples=40, deadline=None)
@given(
    method=st.sampled_from(["count", "sample", "explain", "check"]),
    poison=st.sampled_from([*sorted(_poisons()), "long integer"]),
    where=st.sampled_from(["players", "params"]),
)
def test_the_servers_python_door_holds_params_to_what_a_line_is_held_to(method: str, poison: str, where: str) -> None:
    from triggerstack.solver.serve import Service
    from triggerstack.solver.serve._rpc import RpcError

    bad = 10**5_000 if poison == "long integer" else _poisons()[poison]()
    params: dict[str, Any] = {"scenario": {**TINY, "players": ["A", bad]} if where == "players" else TINY}
    if method == "check":
        params["proposal"] = {"stack": [{"ability": "T"}]}
    if where == "params":
        params["seed" if method == "sample" else "x"] = bad
    with pytest.raises(RpcError) as refused:
        Service().call(method, params)
    assert refused.value.code in (-32700, -32001, -32602), refused.value.as_dict()
    assert "internal error" not in refused.value.message
