"""Remove ``__all__`` from every private module of the package (docs/python.md, "Every public name").

    python tools/strip_private_all.py          # rewrite the private modules that carry one
    python tools/strip_private_all.py --check  # exit 1 naming each private module that carries one

What a package exports is its public roots' names, listed once in each root's ``if TYPE_CHECKING:``
block (``model/_lazy.py``). A private module's ``__all__`` is a second list nothing reads: no module
imports with ``*``, and a private module is used only by name. The rule, one place
(:func:`is_private`): a module is **private** when any part of its path under ``model/``,
``solver/`` or ``adapters/`` — a folder or the file's own name — starts with ``_``, a package's
``__init__.py`` aside; so the public roots are the ``__init__.py`` of packages whose every folder is
public (``solver/rl/__init__.py`` is one, ``solver/_verbs/step/__init__.py`` is not).

Removing a list changes what mypy calls an explicit export: a name the module imports and listed in
``__all__`` (a re-export, as a private package's ``__init__`` makes its modules' names its own) is
rewritten ``from .x import name as name``, the form mypy and ruff read as "exported on purpose", so
every importer still type-checks. Idempotent: a second run changes nothing. Run after a merge brings
modules that still carry a list; ``tests/test_layout.py`` fails while one does.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("model", "solver", "adapters")
"""The package's folders (pyproject.toml's package-dir: each installs as ``triggerstack.<folder>``)."""


def is_private(path: Path, root: Path = ROOT) -> bool:
    """Whether the module at ``path`` is private (see the module docstring)."""
    parts = path.relative_to(root).parts
    folders, name = parts[:-1], parts[-1]
    if any(p.startswith("_") for p in folders):
        return True
    return name != "__init__.py" and name.startswith("_")


def _all_statements(tree: ast.Module) -> list[ast.stmt]:
    """The module's top-level statements that bind ``__all__`` (``=``, ``: list[str] =``, ``+=``)."""
    found: list[ast.stmt] = []
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in targets
        ):
            found.append(node)
    return found


def carrying(root: Path = ROOT) -> list[Path]:
    """Every private module under ``root``'s package folders that binds ``__all__``."""
    found = []
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            if is_private(path, root) and _all_statements(ast.parse(path.read_text(encoding="utf-8"))):
                found.append(path)
    return found


def _listed(node: ast.stmt) -> set[str]:
    """The names an ``__all__`` statement lists (a literal list or tuple of strings)."""
    value = getattr(node, "value", None)
    if not isinstance(value, ast.List | ast.Tuple) or not all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts
    ):
        raise SystemExit(f"line {node.lineno}: __all__ is not a literal list of names: remove it by hand")
    return {e.value for e in value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}


def _import_lines(node: ast.ImportFrom, exported: set[str]) -> list[str]:
    """``node`` written again with each name of ``exported`` it binds as ``name as name``."""
    module = "." * node.level + (node.module or "")
    moved = [a for a in node.names if (a.asname or a.name) in exported]
    kept = [f"{a.name} as {a.asname}" if a.asname else a.name for a in node.names if a not in moved]
    lines = []
    if kept:
        one = f"from {module} import {', '.join(kept)}"
        wrapped = f"from {module} import (\n" + "".join(f"    {k},\n" for k in kept) + ")"
        lines.append(one if len(one) <= 120 else wrapped)
    for a in moved:
        if a.asname not in (None, a.name):
            raise SystemExit(f"line {node.lineno}: {a.name} is exported as {a.asname}: rename it by hand")
        lines.append(f"from {module} import {a.name} as {a.name}")
    return lines


def strip(path: Path) -> bool:
    """Remove ``path``'s ``__all__`` (every statement binding it), re-exports made explicit; whether
    it changed. A list that is no literal, or a name exported under another, is left to a person
    (``SystemExit`` naming it): the tool never guesses what a module meant to export."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    statements = _all_statements(tree)
    if not statements:
        return False
    listed = {name for node in statements for name in _listed(node)}
    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, list[str]]] = []
    for node in statements:
        start = node.lineno
        while start > 1 and not lines[start - 2].strip():  # with the blank lines above it: the spacing below stays
            start -= 1
        edits.append((start, node.end_lineno or node.lineno, []))
    for stmt in tree.body:
        if isinstance(stmt, ast.Import) and any((a.asname or a.name) in listed for a in stmt.names):
            raise SystemExit(f"{path}: line {stmt.lineno} re-exports a module: rewrite it by hand")
        if isinstance(stmt, ast.ImportFrom) and any(
            (a.asname or a.name) in listed and a.asname != a.name for a in stmt.names
        ):
            edits.append((stmt.lineno, stmt.end_lineno or stmt.lineno, _import_lines(stmt, listed)))
    for start, end, new in sorted(edits, reverse=True):
        lines[start - 1 : end] = [line + "\n" for line in new]
    path.write_text("".join(lines), encoding="utf-8")
    return True


def main(argv: list[str]) -> int:
    found = carrying()
    if "--check" in argv:
        for path in found:
            print(f"{path.relative_to(ROOT)}: a private module carries __all__ (python tools/strip_private_all.py)")
        return 1 if found else 0
    changed = [path for path in found if strip(path)]
    if changed:  # the imports rewritten in the order ruff's isort keeps them
        subprocess.run(
            [sys.executable, "-m", "ruff", "check", "--quiet", "--fix", "--select", "I", *map(str, changed)],
            check=False,
        )
    print(f"{len(changed)} private modules no longer carry __all__")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
