"""Run ``mypy --strict`` on the project as it installs (``triggerstack.model``, ``triggerstack.solver``).

The folders ``model/`` and ``solver/`` are mapped to ``triggerstack.*`` by setuptools, which mypy
cannot see through an editable install; this lays a tree of symlinks in a temporary folder and
points mypy at it. Usage: ``python tools/typecheck.py`` (exit code is mypy's).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="triggerstack-mypy-") as tmp:
        pkg = Path(tmp) / "triggerstack"
        pkg.mkdir()
        for name in ("model", "solver", "adapters"):
            (pkg / name).symlink_to(ROOT / name, target_is_directory=True)
        env = {**os.environ, "MYPYPATH": os.pathsep.join([tmp, str(ROOT)])}
        sources = sorted(
            str(pkg / d / f.relative_to(ROOT / d))
            for d in ("model", "solver", "adapters")
            for f in (ROOT / d).rglob("*.py")
        )
        cmd = [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(ROOT / ".mypy_cache"),
            "--explicit-package-bases",
            *sources,
            *[str(p) for p in sorted((ROOT / "tests").rglob("*.py"))],
            *[str(p) for p in sorted((ROOT / "tools").rglob("*.py"))],
            *[str(p) for p in sorted((ROOT / "benchmarks").glob("*.py"))],
            *[str(p) for p in sorted((ROOT / "examples").rglob("*.py"))],
        ]
        return subprocess.call(cmd, env=env, cwd=tmp)


if __name__ == "__main__":
    raise SystemExit(main())
