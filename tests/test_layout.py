"""The architecture, read from the imports of every module: no cycle, no module importing a
layer above its own, ``model/`` free of solvers, and the cross-check engine free of the search
code it checks.

Private unit: every module of the package, its imports read by name: the private modules' layout is what is tested."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import ROOT, load_script

PACKAGES = {"model": "triggerstack.model", "solver": "triggerstack.solver", "adapters": "triggerstack.adapters"}

LAYERS = [
    ("triggerstack.model", 0),
    ("triggerstack.solver._errors", 1),
    ("triggerstack.solver._options", 1),
    ("triggerstack.solver._core", 2),
    ("triggerstack.solver._judge", 2),  # the rules' "why not": check, step, explain and the chain's loops ask here
    ("triggerstack.solver._engines", 3),
    ("triggerstack.solver._verbs", 4),
    ("triggerstack.adapters", 5),  # real games in (phase.rs): above the verbs, below the surfaces
    ("triggerstack.solver.rl", 6),  # the environments (the extra [rl]): on top of the verbs, beside the cli
    ("triggerstack.solver.serve", 6),  # the server's methods and transports: on top of the verbs
    ("triggerstack.solver.conformance", 6),  # the suite's runner: a client of engines, this one's server among them
    ("triggerstack.solver", 6),  # __init__, cli, __main__
]
"""Bottom up; a module's layer is that of the longest prefix that names it."""

SEARCH = {
    "triggerstack.solver._core.choices",
    "triggerstack.solver._core.must",
    "triggerstack.solver._core.removal",
    "triggerstack.solver._core.search",
    "triggerstack.solver._core.space",
    "triggerstack.solver._core._programme",
    "triggerstack.solver._core._ranks",
    "triggerstack.solver._core.chain",
    "triggerstack.solver._core._loops",
    "triggerstack.solver._engines.cpsat",
    "triggerstack.solver._engines.select",
}


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join((package, *parts))] = path
    return out


MODULES = _modules()


def _is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def _imports(name: str) -> Iterator[str]:
    """Every module ``name`` imports, anywhere in its body (functions and TYPE_CHECKING too)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                yield sub if sub in MODULES else target


def _graph() -> dict[str, set[str]]:
    return {m: {t for t in _imports(m) if t in MODULES and t != m} for m in MODULES}


def _layer_of(name: str) -> int:
    best = max((p for p, _ in LAYERS if name == p or name.startswith(p + ".")), key=len)
    return dict(LAYERS)[best]


def test_every_module_is_read() -> None:
    assert {"triggerstack.model._facts", "triggerstack.solver._core.chain", "triggerstack.solver._cli"} <= set(MODULES)
    assert len(MODULES) > 30


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return [
        f"{m} (layer {_layer_of(m)}) imports {t} (layer {_layer_of(t)})"
        for m, targets in sorted(graph.items())
        for t in sorted(targets)
        if _layer_of(t) > _layer_of(m)
    ]


def _cycles(graph: dict[str, set[str]]) -> list[str]:
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []
    cycles: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        path.append(m)
        for t in sorted(graph.get(m, ())):
            if state.get(t) == 1:
                cycles.append(" -> ".join([*path[path.index(t) :], t]))
            elif t not in state:
                visit(t)
        path.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return cycles


def test_no_module_imports_a_layer_above_its_own() -> None:
    assert not (found := _upward(_graph())), "\n".join(found)


def test_no_import_cycle() -> None:
    assert not (found := _cycles(_graph())), "\n".join(found)


def test_the_checks_catch_what_they_refuse() -> None:
    """Each check finds an upward import and a cycle planted in the real graph (it is not vacuous)."""
    graph = _graph()
    graph["triggerstack.solver._core.chain"] = graph["triggerstack.solver._core.chain"] | {
        "triggerstack.solver._engines.select"
    }
    assert _upward(graph) == [
        "triggerstack.solver._core.chain (layer 2) imports triggerstack.solver._engines.select (layer 3)"
    ]
    cycle = "triggerstack.solver._core.chain -> triggerstack.solver._engines.select"
    assert any(cycle in c for c in _cycles(graph))


PUBLIC = {
    "triggerstack.model",
    "triggerstack.model.cards",
    "triggerstack.solver",
    "triggerstack.solver.__main__",
    "triggerstack.solver.conformance",
    "triggerstack.solver.rl",
    "triggerstack.solver.serve",
    "triggerstack.adapters",
    "triggerstack.adapters.phase",
}
"""The public face: the package roots users import (docs/python.md lists their names)."""


def _public(names: set[str]) -> list[str]:
    """Modules neither a public root nor private (a ``_`` in their dotted name)."""
    return sorted(m for m in names if m not in PUBLIC and not any(p.startswith("_") for p in m.split(".")[1:]))


def test_implementation_modules_are_private() -> None:
    """Every module is a public root or private, its own name or a package above it starting with
    ``_`` (as httpx's are): what users import is the roots."""
    assert not (found := _public(set(MODULES))), "public modules that are no root: " + ", ".join(found)
    assert _public({"triggerstack.solver._verbs.count", "triggerstack.solver.verbs.count"}) == [
        "triggerstack.solver.verbs.count"
    ]


_PRIVATE_NAME = re.compile(r"\btriggerstack(?:\.[A-Za-z0-9_]+)*\._[A-Za-z0-9_]+")


def _private_names(text: str) -> list[str]:
    return sorted(set(_PRIVATE_NAME.findall(text)))


def test_what_users_read_names_only_public_modules() -> None:
    """The README, docs/, examples/ and clients/ (what a user copies) import only the roots."""
    shown = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    shown += [p for folder in ("examples", "clients") for p in sorted((ROOT / folder).rglob("*.py"))]
    found = [f"{p.relative_to(ROOT)}: {n}" for p in shown for n in _private_names(p.read_text(encoding="utf-8"))]
    assert not found, "\n".join(found)
    assert _private_names("from triggerstack.solver._verbs.legal import count") == ["triggerstack.solver._verbs"]


def _root_names(name: str) -> list[str]:
    """The names a root's ``if TYPE_CHECKING:`` block imports: its public names, listed once."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            names += [a.asname or a.name for n in node.body if isinstance(n, ast.ImportFrom) for a in n.names]
    return names


def test_each_root_lists_its_public_names_once() -> None:
    """A lazy root names each public name once (its TYPE_CHECKING import, read by model/_lazy.py),
    with no second list; ``__all__`` at run time is exactly those names."""
    import importlib

    lazy = [m for m in sorted(PUBLIC) if "lazy_exports" in MODULES[m].read_text(encoding="utf-8")]
    assert len(lazy) >= 5
    for m in lazy:
        names = _root_names(m)
        assert len(names) == len(set(names)), f"{m} lists a name twice"
        text = MODULES[m].read_text(encoding="utf-8")
        assert "__all__ = [" not in text and "_HOMES" not in text, f"{m} lists its names a second time"
        assert sorted(importlib.import_module(m).__all__) == sorted(names), m


STRIP = load_script(ROOT / "tools" / "strip_private_all.py")
"""The one rule of which modules are private, and the tool that takes ``__all__`` out of them."""


def test_private_modules_carry_no_all(tmp_path: Path) -> None:
    """A private module (a ``_`` in a folder or its own name, a package's ``__init__.py`` aside:
    tools/strip_private_all.py ``is_private``) carries no ``__all__``: the roots' names are the API.
    The rule's public modules are exactly the roots (``__main__`` is the command line's, no names);
    planted lists the tool strips, re-exports kept explicit, and a second run changes nothing."""
    pkg = STRIP.FOLDERS[1]  # solver, named so: the planted paths are no paths of the clone (tests/test_map.py)
    public = {m for m, path in MODULES.items() if not STRIP.is_private(path)}
    assert public == PUBLIC - {"triggerstack.solver.__main__"}
    assert not (found := STRIP.carrying()), "private modules that carry __all__: " + ", ".join(map(str, found))
    planted = {
        f"{pkg}/_x/inner.py": 'from .a import A, B\n\n__all__: list[str] = ["A", "C"]\n\nC = B\n',
        f"{pkg}/_x/__init__.py": "from .inner import A\n__all__ = ('A',)\n",
        f"{pkg}/open/_part.py": 'from .a import (\n    D,\n    E as E,\n)\n\n__all__ = ["D"]\n__all__ += ["E"]\n',
        f"{pkg}/open/__init__.py": '__all__ = ["G"]\nG = 1\n',  # a public root keeps its list
    }
    for name, text in planted.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    carrying = STRIP.carrying(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in carrying] == sorted(set(planted) - {f"{pkg}/open/__init__.py"})
    assert all(STRIP.strip(p) for p in carrying) and not any(STRIP.strip(p) for p in carrying)
    assert (tmp_path / f"{pkg}/_x/inner.py").read_text() == "from .a import B\nfrom .a import A as A\n\nC = B\n"
    assert (tmp_path / f"{pkg}/_x/__init__.py").read_text() == "from .inner import A as A\n"
    assert (tmp_path / f"{pkg}/open/_part.py").read_text() == "from .a import D as D\nfrom .a import E as E\n"
    assert not STRIP.carrying(tmp_path)
    (tmp_path / f"{pkg}/_y.py").write_text("__all__ = sorted(['A'])\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="by hand"):  # what it cannot read, it names and leaves alone
        STRIP.strip(tmp_path / f"{pkg}/_y.py")


def _private_uses(text: str) -> list[str]:
    """The private modules a test's source imports — by an import statement anywhere in it, or by a
    string its code holds (``import_module("...")``, a child process's ``-c`` code); docstrings aside."""
    tree = ast.parse(text)
    documented = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level:
            found += [f"{node.module}.{a.name}" for a in node.names if _private_names(f"{node.module}.{a.name}")]
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if _private_names(a.name)]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documented:
            found += _private_names(node.value)
    return sorted(set(found))


def _unsaid(text: str) -> list[str]:
    """What a test imports of private modules without saying, in one line of its module docstring
    that starts with ``Private unit:``, which private unit it tests and why; [] when it says so."""
    doc = ast.get_docstring(ast.parse(text)) or ""
    said = [line for line in doc.splitlines() if line.startswith("Private unit:")]
    return [] if len(said) == 1 and len(said[0]) > len("Private unit: ") + 10 else _private_uses(text)


def test_tests_import_the_public_roots_or_name_the_private_unit() -> None:
    """A test uses the package through its public roots (docs/python.md), as a user does; one that
    tests a private unit says so, and which, in one line of its docstring starting ``Private unit:``.
    Variants planted: an import in a function, a module imported whole, a child process's code, the
    line in a comment (not said), a private name only in a docstring (no import)."""
    planted = {
        "def f():\n    from triggerstack.model._io import read_file\n": ["triggerstack.model._io.read_file"],
        "import triggerstack.solver._cli\n": ["triggerstack.solver._cli"],
        "# Private unit: the reader\nCODE = 'from triggerstack.solver._cli import main'\n": ["triggerstack.solver._cli"],
        '"""Public only; see ``triggerstack.model._io``."""\nfrom triggerstack.model import Scenario\n': [],
        '"""Reads.\n\nPrivate unit: model/_io, the one reader, fed bytes."""\nfrom triggerstack.model._io import parse_text\n': [],
    }
    for text, expected in planted.items():
        assert _unsaid(text) == expected, text
    unsaid = {
        str(path.relative_to(ROOT)): found
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if (found := _unsaid(path.read_text(encoding="utf-8")))
    }
    assert not unsaid, "private modules imported without a 'Private unit:' line: " + repr(unsaid)


def test_model_imports_no_solver() -> None:
    for m in MODULES:
        if m.startswith("triggerstack.model"):
            bad = [t for t in _imports(m) if t.startswith(("ortools", "constraint", "triggerstack.solver"))]
            assert not bad, f"{m} imports {bad}"


def test_the_cross_check_imports_none_of_the_search_code() -> None:
    """The python-constraint2 engine is a cross-check only if it shares no search with what it checks."""
    imported = set(_imports("triggerstack.solver._engines.constraint"))
    assert not imported & SEARCH, sorted(imported & SEARCH)
    assert not any(t.startswith("triggerstack.solver._engines.product") for t in imported)


def test_only_the_environments_import_the_rl_extra() -> None:
    """NumPy, Gymnasium and PettingZoo are the optional extra ``[rl]``: nothing outside
    ``solver/rl`` imports them (the library, the CLI and its ``--help`` start without them)."""
    extra = ("numpy", "gymnasium", "pettingzoo")
    for m in MODULES:
        if not m.startswith("triggerstack.solver.rl"):
            bad = [t for t in _imports(m) if t.split(".")[0] in extra or t.startswith("triggerstack.solver.rl")]
            assert not bad, f"{m} imports {bad}"
    assert any(t.startswith("pettingzoo") for t in _imports("triggerstack.solver.rl._env"))


def test_only_the_http_service_imports_the_serve_extra() -> None:
    """FastAPI and uvicorn are the optional extra ``[serve]``: only ``serve/http`` imports them (and
    its connections, ``serve/connections``, and its OpenAPI document, ``serve/openapi``, which it
    alone imports; and the command line's ``serve --http``, inside that verb)."""
    http = ("triggerstack.solver.serve._http", "triggerstack.solver.serve._connections", "triggerstack.solver.serve._openapi")
    for m in MODULES:
        if m not in (*http, "triggerstack.solver._cli"):
            bad = [t for t in _imports(m) if t.split(".")[0] in ("fastapi", "uvicorn", "starlette")]
            assert not bad, f"{m} imports {bad}"


def test_only_the_batch_imports_dask() -> None:
    """Dask is the optional extra ``[dask]``: only ``serve/jobs`` imports it, inside ``--scheduler``."""
    for m in MODULES:
        if m != "triggerstack.solver.serve._jobs":
            bad = [t for t in _imports(m) if t.split(".")[0] in ("dask", "distributed")]
            assert not bad, f"{m} imports {bad}"


MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80
"""Nothing too big to hold: a module is read in one sitting, a function on a screen or so."""


def _long_files(sources: dict[str, str]) -> list[str]:
    """Each of ``sources`` (name -> text) longer than :data:`MAX_FILE_LINES`, with its length."""
    sizes = {name: len(text.splitlines()) for name, text in sorted(sources.items())}
    return [f"{name}: {n} lines" for name, n in sizes.items() if n > MAX_FILE_LINES]


def _long_functions(name: str, text: str) -> list[str]:
    """Each function of ``text`` (methods, ``async`` and nested ones included) longer than
    :data:`MAX_FUNCTION_LINES`, counted from its ``def`` line to its last line, with its length."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            n = (node.end_lineno or node.lineno) - node.lineno + 1
            if n > MAX_FUNCTION_LINES:
                found.append((node.lineno, f"{name}:{node.lineno} {node.name}: {n} lines"))
    return [said for _, said in sorted(found)]


def _sources() -> dict[str, str]:
    """The text of every module of ``model/``, ``solver/`` and ``adapters/``, by its path."""
    return {str(path.relative_to(ROOT)): path.read_text(encoding="utf-8") for path in MODULES.values()}


def test_no_module_is_over_600_lines() -> None:
    """Every module of ``model/``, ``solver/`` and ``adapters/`` has at most 600 lines."""
    assert _long_files({"planted.py": "x = 1\n" * 601, "fits.py": "x = 1\n" * 600}) == ["planted.py: 601 lines"]
    found = _long_files(_sources())
    assert not found, f"{len(found)} modules over {MAX_FILE_LINES} lines:\n" + "\n".join(found)


def test_no_function_is_over_80_lines() -> None:
    """Every function of ``model/``, ``solver/`` and ``adapters/`` (methods and nested ones too)
    has at most 80 lines."""
    fits = "def fits() -> None:\n" + "".join(f"    x{i} = {i}\n" for i in range(79))  # 80 lines: fits
    nested = "".join(f"            x{i} = {i}\n" for i in range(80))
    planted = f"class C:\n    async def outer(self) -> None:\n        def inner() -> None:\n{nested}\n{fits}"
    assert _long_functions("planted.py", planted) == ["planted.py:2 outer: 82 lines", "planted.py:3 inner: 81 lines"]
    found = [f for name, text in sorted(_sources().items()) for f in _long_functions(name, text)]
    assert not found, f"{len(found)} functions over {MAX_FUNCTION_LINES} lines:\n" + "\n".join(found)


def _sets_aside_by_time(text: str) -> bool:
    """Whether a test file sets inputs aside when a time limit runs out: an ``except`` naming
    ``TimeLimitReached`` whose body calls ``assume`` or returns False."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.ExceptHandler) and node.type is not None and "TimeLimitReached" in ast.unparse(node.type):
            body = ast.unparse(ast.Module(body=node.body, type_ignores=[]))
            if "assume(" in body or "return False" in body:
                return True
    return False


def test_a_test_that_sets_inputs_aside_by_a_time_limit_reads_cpu_time() -> None:
    """A property that sets aside the inputs too large to answer within a time limit must set aside
    the same ones on a busy machine (issue 52: a saturated machine timed out a case hypothesis had
    run whole, and its replay drew other data). So its deadlines read CPU time: it is in
    tests/property (whose conftest gives every test ``cpu_clock``) or asks for ``cpu_clock``.
    Planted: a handler that assumes, one that returns False, and one that tests the limit."""
    assert _sets_aside_by_time("try:\n    f()\nexcept (ValueError, TimeLimitReached):\n    assume(False)\n")
    assert _sets_aside_by_time("def g():\n    try:\n        f()\n    except TimeLimitReached:\n        return False\n")
    assert not _sets_aside_by_time("with pytest.raises(TimeLimitReached):\n    f()\n")
    unread = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "property" not in path.parts
        and _sets_aside_by_time(text := path.read_text(encoding="utf-8"))
        and '"cpu_clock"' not in text
    ]
    assert not unread, f"set inputs aside by a wall-time limit (ask for cpu_clock): {unread}"
