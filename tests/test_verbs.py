"""The table of verbs: every row names a function whose annotations name a params and a result
model, the command line lists exactly the rows that have a command, a verb's parser imports only
its own module, and docs/architecture.md's worked example (``count --divide``) is the code.

Private unit: the table of verbs (solver/_verbs: table, base) and what the command line imports for each."""

from __future__ import annotations

import re
import subprocess
import sys

from triggerstack.solver._verbs.base import Params, Result
from triggerstack.solver._verbs.table import VERBS

from .conftest import ROOT


def test_every_row_names_a_function_of_its_module() -> None:
    assert len({v.name for v in VERBS}) == len(VERBS)
    for verb in VERBS:
        assert issubclass(verb.params, Params) and issubclass(verb.result, Result), verb.name
        assert verb.scenario == (verb.name != "card"), verb.name
        if verb.cli is not None and verb.cli.streams:
            assert callable(verb._module.lines), verb.name


def test_card_builds_its_parser_without_the_solver() -> None:
    probe = (
        "import sys; from triggerstack.solver._cli import _parser; _parser('card'); "
        "print(sorted(m for m in sys.modules if m.startswith('triggerstack.solver._verbs')))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "triggerstack.solver._verbs.card" in out and "triggerstack.solver._verbs.legal" not in out
    assert "triggerstack.solver._verbs.count" not in out


def test_the_worked_example_is_the_code() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## How to add a verb", 1)[1].split("\n## ", 1)[0]
    count = (ROOT / "solver" / "_verbs" / "count.py").read_text(encoding="utf-8")
    for name in re.findall(r"^(?:class|def) (\w+)", section, flags=re.M):
        assert re.search(rf"^(?:class|def) {name}\b", count, flags=re.M), name
    table = (ROOT / "solver" / "_verbs" / "table.py").read_text(encoding="utf-8")
    assert '"count:answer"' in table and '"count:answer"' in section
