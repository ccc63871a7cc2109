"""A limit set to 1 is said in the singular: "more than 1 value", never "more than 1 values".

Every cap a user sets (`--max-values`, `--max-bytes`, `--max-answer`, `--max-passes`, …) may be 1,
and its refusal named it with the plural built in ("more than 1 values", "the limit of 1 bytes").
Mechanism: each message wrote its count and noun itself. Fix: one home, model/_numbers.py
``counted``, that every message naming a limit's count asks. The property: every ``--max-*`` flag
at 1, on every example and verb, says no "1 <plural>".

Private unit: model/_numbers.py counted; solver/_cli.py main (the command line in process).
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from triggerstack.model._numbers import counted
from triggerstack.solver._cli import main

from .conftest import EXAMPLES

FLAGS = [
    "--max-abilities", "--max-answer", "--max-bytes", "--max-candidates", "--max-choices", "--max-compiled",
    "--max-depth", "--max-digits", "--max-memory", "--max-objects", "--max-outcomes", "--max-passes", "--max-values",
]  # fmt: skip
_ONE_PLURAL = re.compile(r"\b1 (?!is\b|was\b|has\b|does\b)([a-z]*[a-rt-z]s)\b")  # pass, class: singular


def test_every_max_flag_is_one_of_the_command_lines() -> None:
    """The list above is the command line's own: a flag added later is held here too."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["count", "--help"])
    assert sorted(set(re.findall(r"--max-[a-z-]+", out.getvalue()))) == FLAGS


@pytest.mark.parametrize("flag", FLAGS)
@pytest.mark.parametrize("verb", ["count", "enumerate", "explain"])
def test_a_limit_of_one_is_said_in_the_singular(flag: str, verb: str, capsys: pytest.CaptureFixture[str]) -> None:
    for scenario in sorted(EXAMPLES.glob("*/scenario.yaml")):
        main([verb, str(scenario), flag, "1"])
        said = capsys.readouterr()
        assert not _ONE_PLURAL.search(said.err), (scenario.parent.name, said.err)


@given(n=st.integers(0, 10**6), noun=st.sampled_from(["values", "bytes", "digits", "passes", "classes", "choices"]))
def test_counted_is_singular_for_one_only(n: int, noun: str) -> None:
    said = counted(n, noun)
    assert said.startswith(f"{n} ")
    assert said.endswith(noun) == (n != 1)
    assert said == {"values": "1 value", "bytes": "1 byte", "digits": "1 digit", "passes": "1 pass",
                    "classes": "1 class", "choices": "1 choice"}[noun] or n != 1  # fmt: skip
