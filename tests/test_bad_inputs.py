"""The bad-input corpus (``tests/bad_inputs/``, written by its ``make.py``): each file makes the
command line exit 2 with a line on stderr for each problem of the document, one of them the
expected one naming its place, nothing on stdout, and never a traceback."""

from __future__ import annotations

import json
import os

import pytest

from .conftest import ROOT, main

CORPUS = ROOT / "tests" / "bad_inputs"
CASES = json.loads((CORPUS / "expected.json").read_text())


def test_the_corpus_is_large() -> None:
    assert len(CASES) >= 150
    assert len({c["file"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["file"] for c in CASES])
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], case: dict[str, object]) -> None:
    here = os.getcwd()
    os.chdir(CORPUS)
    try:
        code = main(list(case["argv"]))  # type: ignore[call-overload]
    finally:
        os.chdir(here)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert out == ""
    lines = err.splitlines()
    assert lines and all(line.startswith("triggerstack: ") for line in lines), err
    assert "Traceback" not in err
    assert any(str(case["contains"]) in line for line in lines), err
