"""The map is true (issue 55): every cross-reference a docstring makes (``:func:`~.._parts.cached```
and the like) names something that exists, and every path the docs, the code and the tests name
(``solver/_verbs/step/_later.py``) is a file or folder of the clone. A module renamed
(``core`` → ``_core``) left 39 references pointing at nothing, which nothing noticed.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import inspect
import re
import subprocess
from pathlib import Path

import pytest

from .conftest import ROOT

PACKAGES = {"model": "triggerstack.model", "solver": "triggerstack.solver", "adapters": "triggerstack.adapters"}
ROLE = re.compile(r":(?:mod|func|class|meth|data|attr|exc|obj):`~?([^`<>]+?)`")
PATH = re.compile(
    r"(?<![\w/.-])((?:model|solver|adapters|tests|benchmarks|tools|examples|docs|clients|conformance)/[\w./-]*[\w/])"
)


def _modules() -> list[tuple[Path, list[str], bool]]:
    """Each product module: its file, its dotted name's parts, and whether it is a package."""
    found = []
    for top, package in PACKAGES.items():
        for path in sorted((ROOT / top).rglob("*.py")):
            parts = [*package.split("."), *path.relative_to(ROOT / top).with_suffix("").parts]
            if parts[-1] == "__main__":
                continue
            is_package = parts[-1] == "__init__"
            found.append((path, parts[:-1] if is_package else parts, is_package))
    return found


def _exists(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for name in parts[i:]:
            if not hasattr(obj, name):
                return inspect.isclass(obj) and name == parts[-1] and _given(obj, name)
            obj = getattr(obj, name)
        return True
    return False


def _given(cls: type, name: str) -> bool:
    """Whether ``cls`` gives its instances the attribute ``name`` (``self.name = …`` in a method)."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return re.search(rf"\bself\.{re.escape(name)}\s*(?::[^=]+)?=[^=]", source) is not None


def _absolute(package: list[str], dots: int, rest: str) -> str:
    base = package[: len(package) - (dots - 1)] if dots > 1 else package
    return ".".join([*base, rest] if rest else base)


class _Names:
    """What a module's own text binds: its imports wherever they are (under ``TYPE_CHECKING``, in a
    function), its top-level names, and the attributes its classes give their instances."""

    def __init__(self, path: Path, module: list[str], is_package: bool) -> None:
        self.package = module if is_package else module[:-1]
        self.imported: dict[str, str] = {}
        self.defined: set[str] = set()
        self.attributes: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                source = _absolute(self.package, node.level, node.module or "") if node.level else node.module or ""
                for alias in node.names:
                    self.imported[alias.asname or alias.name] = f"{source}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    self.imported[alias.asname or alias.name.split(".")[0]] = alias.name
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                self.defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                self.attributes.add(node.attr)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                self.defined.add(node.target.id)
            elif isinstance(node, ast.Assign):
                self.defined.update(t.id for t in node.targets if isinstance(t, ast.Name))

    def resolves(self, module: str, target: str) -> bool:
        if target.startswith("."):
            dots = len(target) - len(target.lstrip("."))
            return _exists(_absolute(self.package, dots, target.lstrip(".")))
        head, _, rest = target.partition(".")
        if head in self.imported:
            return _exists(self.imported[head] + (f".{rest}" if rest else ""))
        if _exists(f"{module}.{target}") or (("." in target) and _exists(target)):
            return True
        if head in self.defined:  # a class's attribute given in __init__, a name bound in a function
            return not rest or rest.split(".")[-1] in self.attributes or rest.split(".")[-1] in self.defined
        return not rest and (head in self.attributes or hasattr(builtins, head))


def test_every_cross_reference_of_a_docstring_names_what_exists() -> None:
    stale = []
    for path, module, is_package in _modules():
        names = _Names(path, module, is_package)
        dotted = ".".join(module)
        for m in ROLE.finditer(path.read_text(encoding="utf-8")):
            target = m.group(1).strip().lstrip("~").removesuffix("()")
            if not names.resolves(dotted, target):
                line = path.read_text(encoding="utf-8").count("\n", 0, m.start()) + 1
                stale.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0)}")
    assert not stale, "references to nothing:\n" + "\n".join(stale)


def _tracked() -> list[Path]:
    try:
        listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git clone: the tracked files are not known")
    suffixes = (".py", ".md", ".toml", ".yaml", ".yml", ".java", ".html", ".js")
    return [ROOT / name for name in listed.split() if name.endswith(suffixes)]


def test_every_path_the_clone_names_is_there() -> None:
    missing = []
    for path in _tracked():
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in PATH.finditer(text):
            ref = m.group(1).rstrip(".")
            module = ref.rsplit(".", 1)[0] if "." in ref.rsplit("/", 1)[-1] else ref
            after = text[m.end() : m.end() + 2]
            braced = after[:1] in ("{", "*") or after in ("-{", "-*", "_{", "_*")  # seed-{35,36}.md, seed-*.md
            if braced or any(c in ref for c in "*<>{}") or (ROOT / ref).exists() or (ROOT / f"{module}.py").exists():
                continue  # a pattern, or a module (or a name in it: make_scenarios.coupled) without its suffix
            if any(
                subprocess.run(["git", "check-ignore", "-q", r], cwd=ROOT).returncode == 0 for r in (ref, ref + "/")
            ):
                continue  # what a tool makes where git ignores it (benchmarks/.venv-classic)
            line = text.count("\n", 0, m.start()) + 1
            missing.append(f"{path.relative_to(ROOT)}:{line}: {ref}")
    assert not missing, "paths to nothing:\n" + "\n".join(missing)
