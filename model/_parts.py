"""Files written whole or not at all, whoever is killed meanwhile, and cache files read whole or not
at all: the one home of both (docs/architecture.md).

A writer builds a *part* beside the file (``.NAME.XXXX.part``, a new file of its own from
``mkstemp``, so no link planted there is written through), holds it locked while it writes, and
renames it into place once whole. A part a killed writer left behind is locked by no one, and the
next writer — or reader of a cache (:func:`reclaim_parts`) — for the same file removes it, with
whatever SQLite left beside it (``-journal``, ``-wal``, ``-shm``); a part another live writer holds
is left alone. A write that fails (a full disk) removes its part and all beside it before the error
goes on. Used by the card index, the card pool, ``batch``'s answer files and ``boards --out``
(:func:`write_text`).

A cache file is read by :func:`cached`: a regular file (never a link, a FIFO or a folder, which could
block or lead elsewhere) read whole and handed to its loader; any file the loader cannot make sense
of — corrupt, truncated, of another shape, nested past reason — is None, so its owner builds it
again and writes it over the old one.

A cache file read is marked used (its modification time set to now), and a new one built removes
those of its family (the same kind of file for another version of the data or the reader) that
no one has used for :data:`UNUSED_DAYS` days (:func:`prune`): an upgrade builds a new file, and
the old ones would otherwise stay in the folder for ever.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TypeVar

PART = ".part"
COMPANIONS = ("-journal", "-wal", "-shm")
"""What SQLite may leave beside a database file it was writing."""

T = TypeVar("T")

UNUSED_DAYS = 30
"""How long a cache file of an older version stays unused before a new build of its kind removes it."""

SAY: Callable[[str], object] | None = None
"""Where :func:`building` says a build too, beside the log (the command line sets it to its
standard error)."""

UNREADABLE = (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError, RecursionError, MemoryError)
"""What a loader raises for a cache file it cannot make sense of (a ``UnicodeDecodeError`` and a
``json.JSONDecodeError`` are ``ValueError``\\s; a file nested 200,000 deep is a ``RecursionError``)."""


def remove_part(part: str | Path) -> None:
    """Remove a part and what SQLite may have left beside it."""
    for suffix in ("", *COMPANIONS):
        with contextlib.suppress(OSError):
            os.unlink(f"{part}{suffix}")


def reclaim_parts(target: Path) -> None:
    """Remove the parts killed writers left for ``target`` — those no live writer holds locked —
    with their companions, and companions whose part is gone."""
    prefix = f".{target.name}."
    with contextlib.suppress(OSError):
        names = {p.name for p in target.parent.iterdir() if p.name.startswith(prefix)}
        for name in sorted(names):
            part = target.parent / name
            if not name.endswith(PART):
                base = next((name.removesuffix(c) for c in COMPANIONS if name.endswith(PART + c)), None)
                if base is not None and base not in names:
                    part.unlink(missing_ok=True)  # what SQLite left of a part that is gone
                continue
            try:
                fd = os.open(part, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue  # not a file, or a link: not a part of ours
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                remove_part(part)
            except OSError:
                pass  # a live writer holds it
            finally:
                os.close(fd)


def new_part(target: Path) -> tuple[int, str]:
    """A new part for ``target`` (killed writers' parts removed first), locked as this writer's:
    its descriptor and path (mode 0600, mkstemp's)."""
    reclaim_parts(target)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=PART, dir=target.parent)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        Path(temp).unlink(missing_ok=True)
        raise
    return fd, temp


def write_whole(target: Path, write: Callable[[str, IO[bytes]], object], shared: bool = False) -> None:
    """``target`` written whole or not at all: ``write(part, stream)`` fills a new part (by its path,
    as SQLite does, or through ``stream``), which is synced and renamed into place. Anything that
    fails — a full disk, a kill turned into an exception — removes the part and all beside it, and
    goes on (an ``OSError`` as it was). ``shared``: the file gets the mode a new file gets under the
    process's umask (a user's answer); otherwise it stays private to its user (a cache)."""
    fd, part = new_part(target)
    try:
        if shared:
            os.fchmod(fd, 0o666 & ~umask())
        stream = os.fdopen(os.dup(fd), "wb")
        try:
            write(part, stream)
            stream.flush()
            os.fsync(stream.fileno())
        finally:
            with contextlib.suppress(OSError):  # synced, or failed: what it holds unwritten can't be written
                stream.close()
        if target.is_dir() and not target.is_symlink():
            raise IsADirectoryError(f"{target} is a folder")
        os.replace(part, target)
    except BaseException:
        remove_part(part)
        raise
    finally:
        os.close(fd)


def cached(path: Path, load: Callable[[bytes], T]) -> T | None:
    """What ``load`` makes of the cache file at ``path``, or None — no such file, not a regular file
    (a link, a FIFO, a folder), unreadable, or one ``load`` cannot make sense of (:data:`UNREADABLE`)
    — for its owner to build again. Stale parts of killed writers beside it are removed first."""
    reclaim_parts(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            found = load(f.read())
        used(fd)
        return found
    except UNREADABLE:
        return None
    finally:
        os.close(fd)


def used(file: int | Path) -> None:
    """Mark a cache file (an open descriptor, or a path) as used now, where the folder lets us:
    :func:`prune` keeps what is in use."""
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(file)


def prune(kept: Path, family: str, days: int = UNUSED_DAYS) -> None:
    """Remove the files beside ``kept`` whose names match ``family`` (a glob: ``pool-*.json``), other
    than ``kept``, that no one has used for ``days`` days — regular files only (a link or a folder
    is not ours to remove) — and their companions; what could not be removed stays."""
    cutoff = time.time() - days * 86_400
    with contextlib.suppress(OSError):
        for old in sorted(kept.parent.glob(family)):
            try:
                st = os.lstat(old)
                if old.name == kept.name or not stat.S_ISREG(st.st_mode) or st.st_mtime >= cutoff:
                    continue
                old.unlink()
            except OSError:
                continue
            for companion in COMPANIONS:
                Path(f"{old}{companion}").unlink(missing_ok=True)


def write_text(target: Path, text: str) -> None:
    """``text`` as the file ``target``, whole or not at all (:func:`write_whole`), with the mode a new
    file gets under the process's umask: a link planted at ``target`` is replaced, never written
    through."""
    write_whole(target, lambda _part, stream: stream.write(text.encode("utf-8")), shared=True)


def umask() -> int:
    """The process's umask (read from /proc where there is one: setting it to read it races threads)."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    old = os.umask(0o022)
    os.umask(old)
    return old


@contextlib.contextmanager
def building(what: str) -> Iterator[None]:
    """Say that ``what`` is being built once into the cache, and when it is done with its time, on
    the log ``triggerstack`` (at INFO; ``logging`` is imported only then) and to :data:`SAY`: a
    first run in a new cache takes seconds, and says why."""
    import logging
    import time

    log = logging.getLogger("triggerstack")
    said = f"building {what} (once: later runs read it)"
    log.info(said)
    if SAY is not None:
        SAY(said)
    start = time.perf_counter()
    yield
    done = f"built {what} in {time.perf_counter() - start:.1f} s"
    log.info(done)
    if SAY is not None:
        SAY(done)
