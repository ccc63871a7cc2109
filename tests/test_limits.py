"""Size caps with flags to raise them, a clear message rather than a stall, enumeration in
constant memory, and exact counts at any size.

Private unit: model/_io's JSON readers (parse_text, parse_json_line) with PastLimit, and solver/_cli.main run in a child process."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from math import factorial
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import DEFAULT_LIMITS, Scenario
from triggerstack.model._errors import PastLimit, ScenarioError
from triggerstack.model._facts import check_limits, compile_facts
from triggerstack.model._io import parse_json_line, parse_text
from triggerstack.model._limits import Limits
from triggerstack.solver import count

from .conftest import EXAMPLES, ROOT, main
from .property.strategies import SETTINGS, scenarios

WIPE = str(EXAMPLES / "board-wipe" / "scenario.yaml")
BENCH = ROOT / "benchmarks" / "scenarios"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (
            ["--max-abilities", "5"],
            "triggers: 6 waiting abilities is more than the limit of 5 (raise it with --max-abilities)",
        ),
        (["--max-objects", "3"], "objects: 4 objects is more than the limit of 3 (raise it with --max-objects)"),
        (
            ["--max-candidates", "1"],
            "triggers[0].targets[0]: 2 candidates is more than the limit of 1 (raise it with --max-candidates)",
        ),
    ],
)
def test_caps_refuse_with_the_flag_to_raise_them(
    capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    assert main(["count", WIPE, *flags]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"triggerstack: {WIPE}: {message}\n"
    assert main(["explain", WIPE, *flags]) == 2


def test_raising_a_cap_lets_it_through(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", WIPE, "--max-abilities", "6"]) == 0
    assert capsys.readouterr().out == "768\n"


def test_a_solver_engine_refuses_what_it_would_stall_on(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(BENCH / "abilities-8.json")
    assert main(["count", path, "--engine", "cpsat"]) == 2
    _, err = capsys.readouterr()
    assert "this pass has 3779136 outcomes" in err and "--max-outcomes" in err
    assert main(["count", path]) == 0 and capsys.readouterr().out == "3779136\n"


def test_counts_are_exact_at_any_size() -> None:
    s = Scenario.load(str(BENCH / "abilities-40.json"))
    assert count(s) == factorial(20) ** 2 * 3**40


def _peak_rss_kib(limit: int) -> int:
    probe = (
        "import os, resource, sys\n"
        "from triggerstack.solver._cli import main\n"
        "sys.stdout = open(os.devnull, 'w')\n"
        f"assert main(['enumerate', {str(BENCH / 'abilities-8.json')!r}, '--limit', '{limit}']) == 0\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1])


@pytest.mark.slow
def test_enumerate_streams_a_million_outcomes_in_constant_memory() -> None:
    small, large = _peak_rss_kib(10_000), _peak_rss_kib(1_000_000)
    assert large - small < 20 * 1024, f"peak RSS {small} KiB for 10^4 outcomes, {large} KiB for 10^6"


_SMALL = replace(DEFAULT_LIMITS, depth=6, digits=8, values=40, bytes=300)
_PAST = {
    "depth": "[" * 9 + "]" * 9,
    "digits": "-" + "9" * 9,
    "values": "[" + ",".join(["0"] * 45) + "]",
    "text": '"\\ud800"',
}
_PAST_BY_ALIASES = {  # YAML only: small as written, past the cap as the document it stands for
    "values": "{a: &x [0, 0, 0, 0, 0, 0, 0, 0], b: [*x, *x, *x, *x, *x]}",
    "bytes": "{a: &s " + "x" * 80 + ", b: [*s, *s, *s, *s]}",
}


@settings(max_examples=60)
@given(
    past=st.sampled_from(
        [(k, t, f) for k, t in _PAST.items() for f in ("json", "yaml")]
        + [(k, t, "yaml") for k, t in _PAST_BY_ALIASES.items()]
    ),
    wrap=st.lists(st.sampled_from(["list", "object"]), max_size=3),
)
def test_a_document_past_a_limit_says_which_limit_whatever_its_words(
    past: tuple[str, str, str], wrap: list[str]
) -> None:
    """Whoever says a refusal in other words (the conformance runner's noise line, docs/conformance.md)
    asks the error which limit it passed: ``PastLimit.limit`` is that limit wherever in the document it
    was passed and whichever reader (JSON, YAML with or without aliases, the line reader) found it, and
    its message names the flag that raises that cap — never a "malformed" document, which it is not."""
    kind, text, fmt = past
    for w in wrap:
        text = f"[{text}]" if w == "list" else f'{{"k": {text}}}'
    for line in [False, True] if fmt == "json" else [False]:
        with pytest.raises(PastLimit) as caught:
            parse_json_line(text, _SMALL) if line else parse_text(text, "doc", fmt, _SMALL)
        found = caught.value
        # nesting a value deeper may pass the depth first: that is the limit it names then
        assert found.limit == kind or (
            found.limit == "depth" and len(wrap) + (8 if kind == "depth" else 2) > _SMALL.depth
        )
        assert "malformed" not in found.message
        assert kind == "text" or f"(raise it with --max-{found.limit})" in found.message


@given(doc=scenarios(), caps=st.tuples(st.integers(0, 6), st.integers(0, 8), st.integers(0, 6)))
@SETTINGS
def test_facts_measured_after_compiling_are_refused_as_compiling_refuses_them(
    doc: dict[str, Any], caps: tuple[int, int, int]
) -> None:
    """The caps of compiled facts are measured twice — as they compile, and later for facts compiled
    already (a server's cache, ``within_limits``) — by one check (model/_facts.py): the same cap
    is refused with the same words and place by both, modal abilities' requirements among them."""
    limits = Limits(abilities=caps[0], objects=caps[1], candidates=caps[2])
    scenario = Scenario.model_validate(doc)
    try:
        compile_facts(scenario, limits)
        compiling = None
    except ScenarioError as exc:
        compiling = (exc.message, exc.loc)
    try:
        check_limits(compile_facts(scenario), limits)
        measured = None
    except ScenarioError as exc:
        measured = (exc.message, exc.loc)
    assert compiling == measured


@pytest.mark.usefixtures("cpu_clock")
def test_a_deadline_on_the_tests_cpu_clock_counts_work_not_waiting() -> None:
    """tests/conftest.py's ``cpu_clock``: what a property's time limit counts is the work done, so
    a busy machine (this process waiting for a core) sets aside no input an idle one keeps."""
    import time

    from triggerstack.model._errors import TimeLimitReached
    from triggerstack.model._limits import Deadline

    deadline = Deadline(0.05)
    time.sleep(0.1)  # waiting: no CPU time passes
    deadline.check("waiting")
    with pytest.raises(TimeLimitReached):
        while True:  # working: it runs out
            deadline.check("working")
