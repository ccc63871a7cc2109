"""Lazy exports (PEP 562) for a package's ``__init__``: the public names are listed once, as the
root's ``if TYPE_CHECKING:`` imports (what a type checker reads); each is imported from its home
module on first use, so that importing the package costs nothing it does not use."""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping
from importlib import import_module
from typing import Any

_EXPORT = re.compile(r"^    from (\.+[\w.]*) import (\w+) as (\w+)$", re.M)
"""One public name of a root: ``    from .home import name as name`` (read without ``ast``, which
start-up would pay for; tests/test_layout.py reads the same block with ``ast``)."""


def _homes(source: str) -> dict[str, str]:
    """Each name the root's ``if TYPE_CHECKING:`` block imports, with its home (relative to the package)."""
    block = source.split("if TYPE_CHECKING:", 1)[1].split("\n\n", 1)[0]
    homes: dict[str, str] = {}
    for home, name, alias in _EXPORT.findall(block):
        if alias != name:
            raise ValueError(f"{name} is exported under its own name only")
        homes[name] = home
    return homes


def lazy_exports(
    package: str, init: str, namespace: MutableMapping[str, Any]
) -> tuple[Callable[[str], Any], Callable[[], list[str]], list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for the package whose ``__init__`` is the file
    ``init``: its public names are those its ``if TYPE_CHECKING:`` block imports; a name once
    imported is kept in ``namespace``."""
    with open(init, encoding="utf-8") as f:
        homes = _homes(f.read())

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(home, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted(homes)

    return __getattr__, __dir__, sorted(homes)
