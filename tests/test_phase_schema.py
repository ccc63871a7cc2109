"""phase's states of another version: the adapter reads a state whole or refuses it naming the field
(docs/phase.md, "The schema"; issue 51).

Before: a missing ``battlefield``, ``players`` or ``stack`` was read as empty (43 mutated states gave
other answers without a word) and a renamed prompt field was a bare ``KeyError``. Here every field the
schema names (``adapters/phase/_schema.py``), at every place it occurs in every recorded prompt, is
deleted, renamed and retyped — the mutations generated from the schema and the fixtures, not listed —
and each is a :class:`PhaseStateError` naming the field by its path, or, for a field with a documented
default, the same reading as the state with that default written in. A second test records every key
the reading and the answers ask of each fixture and holds it to the schema.

Private unit: the phase state's schema (adapters/phase/_schema.paths) and its reader (_board._read).
"""

from __future__ import annotations

import copy
import gzip
import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from triggerstack.adapters.phase import PhaseGap, PhaseStateError, Rest, answers, read
from triggerstack.adapters.phase._board import _read
from triggerstack.adapters.phase._schema import paths
from triggerstack.model import Outcome

HERE = Path(__file__).resolve().parent / "data" / "phase"
FIXTURES = sorted(HERE.glob("*.json.gz"))
SCHEMA = paths()
ODD: list[Any] = [None, "x", 1.5, {}, [], True, {"type": 1}]


def _states(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [p["state"] for p in json.load(f)["prompts"]]


def _shown(place: tuple[Any, ...]) -> str:
    out = ""
    for k in place:
        out += f"[{k}]" if isinstance(k, int) or (out == "objects") else f".{k}" if out else str(k)
    return out


def _schema_path(s: dict[str, Any], place: tuple[Any, ...]) -> str:
    """The schema's name for the field at ``place`` in the state ``s`` (None: not one it names)."""
    out = ""
    for k in place:
        if out == "objects" or isinstance(k, int):
            out += "[]"
        elif out == "waiting_for.data":
            out += f"<{s['waiting_for']['type']}>.{k}"
        else:
            out += f".{k}" if out else k
    return out


def _fields(s: dict[str, Any]) -> Iterator[tuple[tuple[Any, ...], str]]:
    """Every place in ``s`` holding a field the schema names, with that name: walked where the
    schema reads (objects in the zones read, triggered stack entries' data)."""
    zones = {str(o) for o in [*s["battlefield"], *s["exile"], *(g for p in s["players"] for g in p["graveyard"])]}

    def walk(node: Any, place: tuple[Any, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for k, v in items:
            here = (*place, k)
            if place == ("objects",) and k not in zones:
                continue
            if here[:1] == ("stack",) and here[2:] == ("kind", "data") and node["type"] != "TriggeredAbility":
                continue
            name = _schema_path(s, here)
            field = SCHEMA.get(name)
            if isinstance(k, str) and field is not None:
                yield here, name
                if field.opaque:
                    continue
            yield from walk(v, here)

    yield from walk(s, ())


def _answer(state: dict[str, Any]) -> Any:
    """What the adapter makes of ``state``: its reading, or the refusal it says."""
    try:
        r = read(state)
    except PhaseGap as exc:
        return ("refused", type(exc).__name__, str(exc))
    return (json.dumps(r.document, sort_keys=True), json.dumps(r.placed, sort_keys=True, default=str),
            r.index.batch, r.index.objects, r.index.players, r.prompt)  # fmt: skip


def _at(doc: Any, place: tuple[Any, ...]) -> Any:
    for k in place[:-1]:
        doc = doc[k]
    return doc


def _wrong(annotation: Any) -> list[Any]:
    """Values of a type the field does not take (strict, as phase writes JSON): the first two."""
    adapter: TypeAdapter[Any] = TypeAdapter(annotation)
    out = []
    for v in ODD:
        try:
            adapter.validate_python(v, strict=True)
        except ValidationError:
            out.append(v)
    return out[:2]


CASES = [(path, i) for path in FIXTURES for i in range(len(_states(path)))]


@pytest.mark.parametrize(("path", "i"), CASES, ids=[f"{p.name.split('.')[0]}-{i}" for p, i in CASES])
def test_every_field_missing_renamed_or_retyped_is_named_or_its_default(path: Path, i: int) -> None:
    state = _states(path)[i]
    s = state["state"]
    fields = list(_fields(s))
    assert len(fields) > 40  # the walk reaches the state's players, objects, stack and prompt
    as_read = _answer(state)
    for place, name in fields:
        field = SCHEMA[name]
        shown = _shown(place)
        holder, key = _at(s, place), place[-1]
        if not field.required:  # documented optional: left out, it is read as its default says
            if holder[key] == field.default:
                expected = as_read
            else:
                with _changed(holder, key, "retype", copy.deepcopy(field.default)):
                    expected = _answer(state)
        for change, value in [("delete", None), ("rename", None), *(("retype", v) for v in _wrong(field.annotation))]:
            with _changed(holder, key, change, value):
                if field.required or change == "retype":
                    with pytest.raises(PhaseStateError) as caught:
                        read(state)
                    assert f"{shown}:" in str(caught.value), (change, shown, str(caught.value))
                else:
                    assert _answer(state) == expected, (change, shown)
    assert _answer(state) == as_read  # every change undone


@contextmanager
def _changed(holder: dict[str, Any], key: str, change: str, value: Any) -> Iterator[None]:
    """``holder[key]`` deleted, renamed or given ``value`` for the block, then put back in its place
    (a copy of the whole state per change cost 90% of the test's time)."""
    before = list(holder.items())
    old = holder.pop(key)
    if change == "rename":
        holder[key + "_renamed"] = old
    elif change == "retype":
        holder[key] = value
    try:
        yield
    finally:
        holder.clear()
        holder.update(before)


# -- every field the reading touches is one the schema names --------------------------------------


class _Tracked(dict[str, Any]):
    """A state's mapping that notes every key asked of it, by its path in the schema's words."""

    def __init__(self, data: dict[str, Any], path: str, seen: set[str]) -> None:
        super().__init__()
        self._path, self._seen = path, seen
        for k, v in data.items():
            child = "objects[]" if path == "objects" else f"{path}.{k}" if path else k
            dict.__setitem__(self, k, _track(v, child, seen))

    def _note(self, k: Any) -> None:
        if self._path != "objects":  # an object looked up by its id: the id is data
            self._seen.add(f"{self._path}.{k}" if self._path else str(k))

    def __getitem__(self, k: Any) -> Any:
        self._note(k)
        return super().__getitem__(k)

    def get(self, k: Any, default: Any = None) -> Any:
        self._note(k)
        return super().get(k, default)

    def __contains__(self, k: object) -> bool:
        self._note(k)
        return super().__contains__(k)


def _track(v: Any, path: str, seen: set[str]) -> Any:
    if isinstance(v, dict):
        return _Tracked(v, path, seen)
    if isinstance(v, list):
        return [_track(x, f"{path}[]", seen) for x in v]
    return v


def _accounted(path: str, prompt: str) -> bool:
    path = path.replace("waiting_for.data.", f"waiting_for.data<{prompt}>.")
    if path in SCHEMA:
        return True
    return any(f.opaque and path.startswith((p + ".", p + "[]")) for p, f in SCHEMA.items())


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_every_field_the_reading_touches_is_in_the_schema(path: Path) -> None:
    for state in _states(path):
        prompt = state["state"]["waiting_for"]["type"]
        seen: set[str] = set()
        tracked = {"state": _track(state["state"], "", seen)}
        reading = _read(tracked, True, None)
        list(answers(reading))
        Rest(reading).count()
        assert seen, "the tracker saw nothing"
        stray = sorted(p for p in seen if not _accounted(p, prompt))
        assert stray == [], f"read but not in the schema: {stray}"


# -- what Rest and Answers are asked with ----------------------------------------------------------


@pytest.mark.parametrize("given", ["P0", None, 3, {"stack": "x"}, ["a"]])
def test_what_is_no_outcome_or_answer_is_said_so(given: Any) -> None:
    """rest.index/departs of a string, None or a dict raised AttributeError."""
    with gzip.open(FIXTURES[0], "rt", encoding="utf-8") as f:
        reading = read(json.load(f)["prompts"][0]["state"])
    rest = Rest(reading)
    with pytest.raises((TypeError, ValueError)) as caught:
        rest.index(given)
    assert str(caught.value)
    assert rest.departs(given) == str(caught.value)
    assert given not in rest
    with pytest.raises((TypeError, ValueError)):
        answers(reading).index(given)
    assert given not in answers(reading)


def test_an_outcome_document_is_read_as_its_outcome() -> None:
    with gzip.open(FIXTURES[0], "rt", encoding="utf-8") as f:
        reading = read(json.load(f)["prompts"][0]["state"])
    rest = Rest(reading)
    first = rest[0]
    assert isinstance(first, Outcome)
    assert rest.index(first.model_dump(mode="json", exclude_none=True)) == 0


class _Replay:
    """A phase Game that replays one fixture's recorded prompts: each answer moves to the next."""

    def __init__(self, states: list[dict[str, Any]]) -> None:
        self.states, self.at = states, 0

    def state(self) -> dict[str, Any]:
        return self.states[self.at]

    def waiting_for(self) -> Any:
        return self.states[self.at]["state"]["waiting_for"]

    def stack(self) -> Any:
        return self.states[self.at]["state"]["stack"]

    def apply(self, _player: int, _action: Any) -> None:
        self.at += 1


@pytest.mark.parametrize("field", ["id", "controller", "kind"])
def test_a_session_reading_a_later_prompt_holds_the_stack_to_the_schema(field: str) -> None:
    """A session reads a later prompt from waiting_for() and stack() alone: a stack entry of another
    version there is the same PhaseStateError a whole reading gives, not a bare KeyError."""
    from triggerstack.adapters.phase import Session

    states = _states(next(p for p in FIXTURES if p.name.startswith("titan")))
    followed = [i for i in range(1, len(states)) if states[i]["state"]["stack"]
                and states[i]["state"]["waiting_for"]["type"] != "OrderTriggers"]  # fmt: skip
    assert followed
    game = _Replay(states)
    session = Session(game)
    for _ in range(followed[0]):
        session.reading()
        session.apply(answers(session.reading())[0])
    assert game.at == followed[0]
    del states[game.at]["state"]["stack"][-1][field]
    with pytest.raises(PhaseStateError, match=rf"stack\[{len(game.stack()) - 1}\]\.{field}: missing"):
        session.reading()
    assert session.whole_reads == 1  # refused by the session's own reading, not by a whole one
