"""Files written whole or not at all, whoever is killed meanwhile: a writer builds a *part* beside
the file (``.NAME.XXXX.part``, a new file of its own from ``mkstemp``, so no link planted there is
written through), holds it locked while it writes, and renames it into place once whole. A part a
killed writer left behind is locked by no one, and the next writer for the same file removes it; a
part another live writer holds is left alone. Used by the card index and ``batch``'s answer files."""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from pathlib import Path

__all__ = ["PART", "new_part", "reclaim_parts"]

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
