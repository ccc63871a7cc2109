"""The README's Python examples run as written, and its claims in comments hold (its sessions and
every other block: tests/test_doc_blocks.py)."""

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
