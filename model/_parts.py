"""Files written whole or not at all, whoever is killed meanwhile: a writer builds a *part* beside
the file (``.NAME.XXXX.part``, a new file of its own from ``mkstemp``, so no link planted there is
written through), holds it locked while it writes, and renames it into place once whole. A part a
killed writer left behind is locked by no one, and the next writer for the same file removes it; a
part another live writer holds is left alone. Used by the card index, ``batch``'s answer files and
``boards --out`` (:func:`write_whole`)."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

__all__ = ["PART", "new_part", "reclaim_parts", "umask", "write_whole"]

PART = ".part"


def reclaim_parts(target: Path) -> None:
    """Remove the parts killed writers left for ``target``: those no live writer holds locked."""
    prefix = f".{target.name}."
    with contextlib.suppress(OSError):
        for part in target.parent.iterdir():
            if not (part.name.startswith(prefix) and part.name.endswith(PART)):
                continue
            try:
                fd = os.open(part, os.O_RDONLY | os.O_NOFOLLOW)
            except OSError:
                continue  # not a file, or a link: not a part of ours
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                part.unlink(missing_ok=True)
            except OSError:
                pass  # a live writer holds it
            finally:
                os.close(fd)


def new_part(target: Path, mode: int | None = None) -> tuple[int, str]:
    """A new part for ``target`` (killed writers' parts removed first), locked as this writer's:
    its descriptor and path. ``mode``: the file's mode (mkstemp's is 0600)."""
    reclaim_parts(target)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=PART, dir=target.parent)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        if mode is not None:
            os.fchmod(fd, mode)
    except OSError:
        os.close(fd)
        Path(temp).unlink(missing_ok=True)
        raise
    return fd, temp


def write_whole(target: Path, text: str) -> None:
    """``text`` as the file ``target``, whole or not at all: written to a new part and renamed over
    ``target`` — a link planted at ``target`` is replaced, never written through. ``OSError`` as
    the system says it (the part removed)."""
    fd, temp = new_part(target, 0o666 & ~umask())
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def umask() -> int:
    """The process's umask (read from /proc where there is one: setting it to read it races threads)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    old = os.umask(0o022)
    os.umask(old)
    return old
