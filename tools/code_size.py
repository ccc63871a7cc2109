"""Counts the product's lines by folder and by kind: code, docstrings, comments, blank.

    python tools/code_size.py                  # the table, printed
    python tools/code_size.py --label before   # also kept: results/code-size-before.json, and
                                               # results/code-size.md rewritten with every label kept

Product code is every ``.py`` file under ``model/``, ``solver/`` and ``adapters/`` (issue 55 counts
it with ``find ... | xargs cat | wc -l``; the total here is the same number). A line is a docstring's
when it lies in the string that opens a module, class or function; a comment's when it holds only a
comment; blank when it holds nothing but white space; code otherwise. The table also names the files
within 40 lines of the 600-line cap.
"""

from __future__ import annotations

import ast
import io
import json
import sys
import tokenize
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("model", "solver", "adapters")
KINDS = ("code", "docstring", "comment", "blank")
CAP = 600
RESULTS = ROOT / "benchmarks" / "results"


def kinds_of(source: str) -> Counter[str]:
    """How many lines of ``source`` are of each kind."""
    lines = source.splitlines()
    kind = ["code"] * len(lines)
    for i, line in enumerate(lines):
        if not line.strip():
            kind[i] = "blank"
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and not lines[tok.start[0] - 1][: tok.start[1]].strip():
            kind[tok.start[0] - 1] = "comment"
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                for n in range(first.lineno - 1, first.end_lineno or first.lineno):
                    kind[n] = "docstring"
    return Counter(kind)


def folder_of(path: Path) -> str:
    parts = path.relative_to(ROOT).parts
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def measure() -> dict[str, Any]:
    """Lines of each kind per folder (two levels deep), and the files within 40 lines of the cap."""
    table: dict[str, Counter[str]] = {}
    near: dict[str, int] = {}
    for root in PRODUCT:
        for path in sorted((ROOT / root).rglob("*.py")):
            source = path.read_text()
            table.setdefault(folder_of(path), Counter()).update(kinds_of(source))
            if len(source.splitlines()) > CAP - 40:
                near[str(path.relative_to(ROOT))] = len(source.splitlines())
    folders = {folder: {k: counts[k] for k in KINDS} for folder, counts in sorted(table.items())}
    return {"folders": folders, "near cap": near}


def render(measured: dict[str, Any]) -> str:
    rows = ["| folder | code | docstrings | comments | blank | total |", "|---|---|---|---|---|---|"]
    totals: Counter[str] = Counter()
    for folder, counts in measured["folders"].items():
        totals.update(counts)
        rows.append(f"| `{folder}` | " + " | ".join(f"{counts[k]:,}" for k in KINDS) + f" | {sum(counts.values()):,} |")
    rows.append("| **all** | " + " | ".join(f"{totals[k]:,}" for k in KINDS) + f" | {sum(totals.values()):,} |")
    near = ", ".join(f"`{p}` ({n})" for p, n in measured["near cap"].items()) or "none"
    return "\n".join([*rows, "", f"Files within 40 lines of the {CAP}-line cap: {near}"])


def compared(runs: dict[str, dict[str, Any]]) -> str:
    """Every kept label's total by folder, side by side, then each label's table."""
    labels = list(runs)
    folders = sorted({f for run in runs.values() for f in run["folders"]})
    out = ["# Product code by folder and kind (tools/code_size.py)", "", "| folder | " + " | ".join(labels) + " |"]
    out.append("|---" * (len(labels) + 1) + "|")
    for folder in [*folders, "all"]:
        cells = []
        for label in labels:
            table = runs[label]["folders"]
            n = sum(sum(c.values()) for c in table.values()) if folder == "all" else sum(table.get(folder, {}).values())
            cells.append(f"{n:,}")
        out.append(f"| `{folder}` | " + " | ".join(cells) + " |")
    for label in labels:
        out += ["", f"## {label}", "", render(runs[label])]
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    table = measure()
    print(render(table))
    if argv[:1] == ["--label"] and len(argv) == 2:
        RESULTS.joinpath(f"code-size-{argv[1]}.json").write_text(json.dumps(table, indent=1) + "\n")
        order = {"before": 0, "after": 2}
        kept = sorted(RESULTS.glob("code-size-*.json"), key=lambda p: (order.get(p.stem[10:], 1), p.stem))
        RESULTS.joinpath("code-size.md").write_text(compared({p.stem[10:]: json.loads(p.read_text()) for p in kept}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
