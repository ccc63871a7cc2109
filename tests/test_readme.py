"""The README's Python examples run as written, and its claims in comments hold."""

from __future__ import annotations

import os
import re

from .conftest import ROOT


def test_readme_python_blocks_run() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    namespace: dict[str, object] = {}
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        for block in blocks:
            exec(compile(block, "README.md", "exec"), namespace)
    finally:
        os.chdir(here)
    from triggerstack.solver import Stepper

    counted = namespace["count"](namespace["scenario"], next_pass=namespace["dies_trigger"])  # type: ignore[operator]
    assert counted == 10
    stepper = namespace["stepper"]
    assert isinstance(stepper, Stepper)
    assert namespace["verdict"].legal is False  # type: ignore[attr-defined]
    assert [d.text for d in namespace["step"](namespace["scenario"], ["put SWB", "put SWA", "put E"])] == [  # type: ignore[operator]
        "mode E:counter",
        "mode E:destroy",
    ]
    legal = namespace["legal"]
    first = namespace["first"]
    assert legal.count() == 10  # type: ignore[attr-defined]
    assert legal.index(first) == 0  # type: ignore[attr-defined]
    assert first in legal  # type: ignore[operator]
    assert len(set(legal)) == 10  # type: ignore[call-overload]
    assert all(o in legal for o in legal.sample(5, seed=7))  # type: ignore[attr-defined,operator]
    why = stepper.why_illegal(namespace["walk"], stepper.decision("target SWA"))  # type: ignore[arg-type]
    assert why.text == "SWA is not on the stack when E is put there"


def _sessions(text: str) -> list[tuple[str, list[str]]]:
    """Each ``$ triggerstack …`` line of the README's shell blocks, with the lines it shows."""
    found: list[tuple[str, list[str]]] = []
    fence: str | None = None  # the open block's language ("" for a plain block), None outside
    for line in text.splitlines():
        if line.startswith("```"):
            fence = line[3:] if fence is None else None
            if fence is None:
                found.append(("", []))  # a block's end ends its last command's output
        elif fence == "" and line.startswith("$ triggerstack "):
            found.append((line[len("$ triggerstack ") :], []))
        elif fence == "" and found and found[-1][0]:
            found[-1][1].append(line)
    return [f for f in found if f[0]]


def test_readme_shell_sessions_print_what_they_show() -> None:
    """Each command the README shows prints what it shows: exactly, or where it writes ``...`` the
    lines it keeps, in order, as runs of consecutive lines."""
    import shlex
    import subprocess
    import sys

    sessions = _sessions((ROOT / "README.md").read_text(encoding="utf-8"))
    assert len(sessions) >= 3
    for command, shown in sessions:
        run = subprocess.run(
            [sys.executable, "-m", "triggerstack.solver", *shlex.split(command)],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
        )
        printed = run.stdout.splitlines()
        if "..." not in shown:
            assert printed == shown, command
            continue
        at = 0
        runs: list[list[str]] = [[]]
        for line in shown:
            if line == "...":
                runs.append([])
            else:
                runs[-1].append(line)
        for part in (r for r in runs if r):
            while at + len(part) <= len(printed) and printed[at : at + len(part)] != part:
                at += 1
            assert printed[at : at + len(part)] == part, f"{command}: {part[0]!r} … not printed as shown"
            at += len(part)
