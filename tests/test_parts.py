"""Cache and answer files written whole or not at all, and cache files read whole or rebuilt
(``model/_parts.py``; issue 51, "The card cache").

Before: on a full disk every run left another SQLite ``-journal`` beside the card index; a build killed
among concurrent ones left its part for good once the index existed (parts were reclaimed only by
the next build); a card pool file nested 200,000 deep was exit 70 on every run. A full disk is
simulated (SQLite's own "database or disk is full", and ``OSError(ENOSPC)`` from a write), a killed
build is a subprocess killed mid-write, and the pool file is spoiled in shapes nobody listed.

Private unit: model/_parts (write_whole, cached, reclaim_parts): files written and caches read whole.
"""

from __future__ import annotations

import errno
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import IO, Any

import pytest
from triggerstack.model import _parts
from triggerstack.model._parts import cached, reclaim_parts, write_whole

from .conftest import PATIENCE


def _beside(folder: Path, target: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{target.name}."))


def test_a_write_that_fails_leaves_nothing_and_says_the_disk_is_full(tmp_path: Path) -> None:
    target = tmp_path / "answer.json"

    def write(_part: str, stream: IO[bytes]) -> None:
        stream.write(b"x" * 100_000)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(OSError) as caught:
        write_whole(target, write)
    assert caught.value.errno == errno.ENOSPC
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("stopped", [KeyboardInterrupt, RuntimeError, OSError])
def test_a_write_that_stops_is_told_as_it_stopped_whatever_closing_the_part_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stopped: type[BaseException]
) -> None:
    """On a full disk, closing a part that still holds unwritten bytes fails too: that second
    error is not what the caller hears (an interrupted ``batch`` was an OSError, not exit 130)."""
    import io

    class Full(io.BufferedWriter):
        def close(self) -> None:
            super().close()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fdopen", lambda fd, _mode: Full(io.FileIO(fd, "wb")))
    target = tmp_path / "answer.json"

    def write(_part: str, stream: IO[bytes]) -> None:
        stream.write(b"x" * 100)
        raise stopped("stopped")

    with pytest.raises(stopped, match="stopped"):
        write_whole(target, write)
    assert list(tmp_path.iterdir()) == []


def test_a_sqlite_build_that_fills_the_disk_leaves_no_journal(tmp_path: Path) -> None:
    """SQLite's own "database or disk is full" (max_page_count plays the disk), in its default
    journal mode: the part and its -journal both go."""
    target = tmp_path / "index.sqlite"

    def write(part: str, _stream: IO[bytes]) -> None:
        db = sqlite3.connect(part)
        try:
            db.execute("CREATE TABLE t (x TEXT)")
            db.commit()
            db.execute("PRAGMA max_page_count = 8")
            db.execute("BEGIN")
            for i in range(10_000):
                db.execute("INSERT INTO t VALUES (?)", ("x" * 200 + str(i),))
        finally:
            db.close()

    for _ in range(3):  # every run: nothing left each time
        with pytest.raises(sqlite3.OperationalError, match="full"):
            write_whole(target, write)
        assert list(tmp_path.iterdir()) == []


_WRITER = """
import os, sqlite3, sys, time
from pathlib import Path
from triggerstack.model._parts import new_part
target, how = Path(sys.argv[1]), sys.argv[2]
fd, part = new_part(target)
if how == "sqlite":  # a build in SQLite's default journal mode, killed inside its transaction
    db = sqlite3.connect(part)
    db.execute("CREATE TABLE t (x TEXT)")
    db.commit()
    db.execute("BEGIN")
    for i in range(40_000):
        db.execute("INSERT INTO t VALUES (?)", ("x" * 100,))
    db.execute("UPDATE t SET x = 'y'")
else:
    os.write(fd, b"x" * 4_500_000)
print("written", flush=True)
time.sleep(600)
"""


def _writer(target: Path, how: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, str(target), how], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "written"
    return proc


def test_a_build_killed_among_live_ones_is_removed_and_the_live_ones_kept(tmp_path: Path) -> None:
    """Seven concurrent builds, two killed mid-write (one of them inside a SQLite transaction, its
    -journal beside it): the next reader of the cache removes what the killed ones left — even though
    the file itself is whole already — and leaves the live ones' parts alone."""
    target = tmp_path / "cards.sqlite"
    target.write_bytes(b"whole")
    writers = [_writer(target, "sqlite" if i == 0 else "bytes") for i in range(7)]
    try:
        killed = writers[:2]
        for proc in killed:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=PATIENCE)
        before = _beside(tmp_path, target)
        assert any(n.endswith(".part-journal") for n in before), before
        assert cached(target, bytes) == b"whole"  # reading the cache reclaims
        after = _beside(tmp_path, target)
        assert len([n for n in after if n.endswith(".part")]) == 5, after
        assert not any(n.endswith("-journal") for n in after), after
    finally:
        for proc in writers:
            proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
    reclaim_parts(target)
    assert _beside(tmp_path, target) == []


def test_a_journal_whose_part_is_gone_is_removed(tmp_path: Path) -> None:
    target = tmp_path / "cards.sqlite"
    (tmp_path / ".cards.sqlite.abc.part-journal").write_bytes(b"j" * 1000)
    (tmp_path / ".cards.sqlite.abc.part-wal").write_bytes(b"w")
    reclaim_parts(target)
    assert list(tmp_path.iterdir()) == []


# -- the card pool's file: read whole or built again ------------------------------------------------


@pytest.fixture
def pool_module() -> Any:
    """The card pool's module (the extra [cards]): only its tests are skipped without it."""
    return pytest.importorskip("triggerstack.model.cards._pool")


def _spoil(path: Path, how: str) -> None:
    if how == "deep":
        path.write_text("[" * 200_000 + "]" * 200_000)
    elif how == "deep-object":
        path.write_text('{"entries": ' + '{"a": ' * 200_000 + "1" + "}" * 200_001)
    elif how == "binary":
        path.write_bytes(bytes(range(256)) * 50)
    elif how == "shape":
        path.write_text('{"entries": [{"name": 3, "abilities": [[1]]}]}')
    elif how == "list":
        path.write_text("[1, 2, 3]")
    elif how == "truncated":
        path.write_text('{"entries": [{"name": "x", "fie')
    elif how == "folder":
        path.mkdir()
    elif how == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(path.parent / "elsewhere.json")
        (path.parent / "elsewhere.json").write_text('{"entries": []}')


@pytest.mark.parametrize(
    "how", ["deep", "deep-object", "binary", "shape", "list", "truncated", "folder", "fifo", "link"]
)
def test_a_pool_file_that_is_no_pool_is_built_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, how: str, pool_module: Any
) -> None:
    """A pool file nested 200,000 deep was exit 70 on every run; a FIFO in its place would block
    every run for ever. Each is built again (and written over, where a file can be)."""
    path = tmp_path / "pool-x.json"
    _spoil(path, how)
    built = pool_module.Pool()
    monkeypatch.setattr(pool_module, "_stored_path", lambda: path)
    monkeypatch.setattr(pool_module, "_build", lambda: built)
    started = time.process_time()
    assert pool_module._stored() is built
    assert time.process_time() - started < 30  # read, refused and rebuilt: not stuck on the file
    if how != "folder":
        assert path.is_file() and not path.is_symlink()
        assert pool_module._stored() is not built  # the next run reads the file it wrote
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(_parts.PART)] == []


def test_a_full_disk_while_writing_the_pool_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pool_module: Any
) -> None:
    path = tmp_path / "pool-x.json"
    built = pool_module.Pool()
    monkeypatch.setattr(pool_module, "_stored_path", lambda: path)
    monkeypatch.setattr(pool_module, "_build", lambda: built)

    def full(_fd: Any) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    for _ in range(2):
        assert pool_module._stored() is built  # this process keeps its own
        assert list(tmp_path.iterdir()) == []


def test_a_full_disk_while_building_the_card_index_leaves_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """On a full disk every run left another SQLite -journal in the cache folder: the build keeps no
    journal and a failed build removes its part, so each run leaves the folder as it found it and
    keeps its index in memory (docs/cards.md)."""
    corpus_module = pytest.importorskip("triggerstack.model.cards._corpus")
    original = corpus_module._build

    def on_a_full_disk(db: sqlite3.Connection, data: Path) -> sqlite3.Connection:
        if db.execute("PRAGMA database_list").fetchone()[2]:  # a file: its disk fills after 20 pages
            db.execute("PRAGMA max_page_count = 20")
        built: sqlite3.Connection = original(db, data)
        return built

    monkeypatch.setattr(corpus_module, "_build", on_a_full_disk)
    monkeypatch.setenv("TRIGGERSTACK_CACHE", str(tmp_path))
    for _ in range(2):
        index = corpus_module.Corpus.open()
        assert index.lookup("Inferno Titan").name == "Inferno Titan"
        assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("days", [0, 29, 31, 400])
def test_a_new_pool_removes_the_old_ones_no_one_uses_and_only_those(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, pool_module: Any, days: int
) -> None:
    """Every change of the reader's code or the data built a new 6 MB pool file and left the old one
    in the cache folder for ever (353 MB in one developer's folder). A new build removes the files of
    its family unused for 30 days — a read marks a file used — and nothing else: not a recent one,
    not one read lately whatever its age, not a link or a folder, not another family's file."""
    old = time.time() - days * 86_400
    family = {name: tmp_path / name for name in ("pool-a.json", "pool-read.json", "pool-dir.json")}
    family["pool-a.json"].write_text("{}")
    family["pool-read.json"].write_text("{}")
    family["pool-dir.json"].mkdir()
    other = tmp_path / "cards-a.sqlite"
    other.write_text("")
    link = tmp_path / "pool-link.json"
    link.symlink_to(other)
    for p in (*family.values(), other):
        os.utime(p, (old, old))
    assert cached(family["pool-read.json"], lambda raw: raw) == b"{}"  # read: marked used now
    path = tmp_path / "pool-new.json"
    built = pool_module.Pool()
    monkeypatch.setattr(pool_module, "_stored_path", lambda: path)
    monkeypatch.setattr(pool_module, "_build", lambda: built)
    assert pool_module._stored() is built
    left = sorted(p.name for p in tmp_path.iterdir())
    expected = {"pool-new.json", "pool-read.json", "pool-dir.json", "pool-link.json", "cards-a.sqlite"}
    if days <= _parts.UNUSED_DAYS:
        expected.add("pool-a.json")
    assert left == sorted(expected)
    assert pool_module._stored() is not built  # the new file itself is read, never pruned


def test_a_new_card_index_removes_the_indexes_no_one_uses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each data version (or each install, where the wheel records no hash) built a 17 MB index and
    kept the old ones for ever: the build removes those of other versions unused for 30 days, with
    what SQLite left beside them; one opened lately is kept."""
    corpus_module = pytest.importorskip("triggerstack.model.cards._corpus")
    monkeypatch.setenv("TRIGGERSTACK_CACHE", str(tmp_path))
    old = time.time() - (_parts.UNUSED_DAYS + 1) * 86_400
    for name in ("cards-0-old.sqlite", "cards-0-old.sqlite-journal", "cards-0-recent.sqlite", "pool-0.json"):
        (tmp_path / name).write_text("")
        os.utime(tmp_path / name, (old, old))
    os.utime(tmp_path / "cards-0-recent.sqlite")  # opened lately by another environment
    index = corpus_module.Corpus.open()
    assert index.lookup("Inferno Titan").name == "Inferno Titan"
    left = sorted(p.name for p in tmp_path.iterdir())
    assert "cards-0-old.sqlite" not in left and "cards-0-old.sqlite-journal" not in left
    assert {"cards-0-recent.sqlite", "pool-0.json"} <= set(left) and len(left) == 3
