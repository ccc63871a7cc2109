"""phase's states of another version: the adapter reads a state whole or refuses it naming the field
(docs/phase.md, "The schema"; issues 51 and 61).

Before: a missing ``battlefield``, ``players`` or ``stack`` was read as empty (43 mutated states gave
other answers without a word), a renamed prompt field was a bare ``KeyError``, and past the schema's
top (an effect's target, a filter's ``filters``, an event, a mana cost) a missing field read as empty:
another board (helper-60f's attack, ``test_attacks_60f_engines.py``). Now one reader (``Node``) is the
only door to phase's JSON, and:

* every field the reading, the answers and what is left ask of a recorded prompt — recorded as they
  ask it, not listed — is deleted, renamed and retyped: each is refused naming the field by its path,
  or (a field phase may leave out, ``ABSENT``) read as the state with its documented meaning written in,
  or (a value of another type) read the same; never a Python exception, never another board;
* no module of the adapter but the reader touches phase's mappings and lists (a guard that fails
  when one does, shown to fail).

Private unit: the adapter's one reader of phase's JSON (adapters/phase/_schema: ``Node``, ``ABSENT``).
"""

from __future__ import annotations

import copy
import gzip
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from triggerstack.adapters.phase import PhaseError, PhaseGap, PhaseStateError, Rest, _schema, answers, entry_of, read
from triggerstack.adapters.phase._schema import ABSENT, Node
from triggerstack.model import Outcome

HERE = Path(__file__).resolve().parent / "data" / "phase"
FIXTURES = sorted(HERE.glob("*.json.gz"))
ADAPTER = Path(_schema.__file__).resolve().parent


def _states(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [p["state"] for p in json.load(f)["prompts"]]


CASES = [(path, i) for path in FIXTURES for i in range(len(_states(path)))]


def _outcome(state: dict[str, Any]) -> Any:
    """What the adapter makes of ``state`` through every door a prompt has: its reading, its legal
    answers (counted, the first of them, one judged), the ways left to finish, the placed entries as
    ours — or the refusal it says, every line of it."""
    try:
        r = read(state)
        got = answers(r)
        n = got.count()
        first = [got[i] for i in range(min(n, 12))]
        placed = [entry_of(r, p["trigger"], p["ability"]).model_dump(mode="json") for p in r.placed]
        return (json.dumps(r.document, sort_keys=True), r.index.batch, r.index.current, r.kind, n, first,
                bool(first) and first[0] in got, Rest(r).count(), placed)  # fmt: skip
    except (PhaseGap, PhaseError) as exc:
        return ("refused", "\n".join(exc.lines()) if isinstance(exc, PhaseGap) else str(exc))


# -- what the reader asks, recorded --------------------------------------------------------------


@dataclass
class Field:
    """A field the reading asked for: its holder (a mapping of the state), key and path, and — for a
    field phase may leave out — what it means when it does (``optional``)."""

    holder: dict[str, Any]
    key: str
    path: str
    optional: bool = False
    default: Any = None


@dataclass
class Trace:
    fields: dict[tuple[int, str], Field]
    nullable: set[str]
    """The paths the reader asked "or null" of (an Option in phase: another board when retyped to null)."""


@contextmanager
def _traced() -> Iterator[Trace]:
    """Every field :class:`Node` is asked for while the block runs (the reader's own accessors, wrapped)."""
    trace = Trace({}, set())
    get, opt, at, null = Node.__getitem__, Node.opt, Node.at, Node.null

    def note(node: Node, key: str, found: Node, optional: bool = False, default: Any = None) -> None:
        raw = node._raw  # the test's view into the reader: which mapping, which key
        if isinstance(raw, dict) and key in raw:
            place = (id(raw), key)
            if place not in trace.fields or optional:
                trace.fields[place] = Field(raw, key, found.path, optional, default)

    def traced_get(self: Node, key: str) -> Node:
        found = get(self, key)
        note(self, key, found)
        return found

    def traced_opt(self: Node, field: str) -> Node:
        found = opt(self, field)
        note(self, field.rsplit(".", 1)[1], found, field in ABSENT, ABSENT.get(field))
        return found

    def traced_at(self: Node, key: str) -> Node | None:
        found = at(self, key)
        if found is not None:
            note(self, key, found, True, KeyError)  # an entry by id: absent, the reader says so (a gap)
        return found

    def traced_null(self: Node) -> bool:
        trace.nullable.add(self.path)
        return bool(null.fget(self))  # type: ignore[attr-defined]

    Node.__getitem__, Node.opt, Node.at = traced_get, traced_opt, traced_at  # type: ignore[method-assign]
    Node.null = property(traced_null)  # type: ignore[assignment,method-assign]
    try:
        yield trace
    finally:
        Node.__getitem__, Node.opt, Node.at, Node.null = get, opt, at, null  # type: ignore[method-assign]


_TRACES: dict[tuple[Path, int], tuple[dict[str, Any], Any, Trace]] = {}


def _prompt(path: Path, i: int) -> tuple[dict[str, Any], Any, Trace]:
    """A recorded prompt's state (the test's own copy: mutations are undone), what the adapter makes
    of it, and every field that asked."""
    if (path, i) not in _TRACES:
        state = _states(path)[i]
        with _traced() as trace:
            outcome = _outcome(state)
        assert outcome[0] != "refused", outcome
        _TRACES[path, i] = (state, outcome, trace)
    return _TRACES[path, i]


@contextmanager
def _changed(holder: dict[str, Any], key: str, change: str, value: Any = None) -> Iterator[None]:
    """``holder[key]`` deleted, renamed or given ``value`` for the block, then put back in its place."""
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


def _names(outcome: Any, path: str) -> bool:
    """Whether a refusal names the field at ``path`` (or a place inside it)."""
    return outcome[0] == "refused" and re.search(re.escape(path) + r"[:.\[]", outcome[1]) is not None


ODD: list[Any] = ["x", 7, 1.5, True, [1], {"x": 1, "y": 2}, None]
"""A value of each JSON type, none a shape phase writes: an object of two keys is no variant of an enum."""


def _kind(v: Any) -> str:
    return type(v).__name__


def _judge(state: dict[str, Any], as_read: Any, trace: Trace, f: Field, change: str, value: Any = None) -> None:
    """One field changed: refused naming it, or read as the documented meaning of its absence, or the same."""
    with _changed(f.holder, f.key, change, value):
        got = _outcome(state)
    said = f"{change} {f.path}" + (f" to {value!r}" if change == "retype" else "")
    if change != "retype" and f.optional and f.default is not KeyError:
        with _changed(f.holder, f.key, "retype", copy.deepcopy(f.default)):
            meant = _outcome(state)
        assert got == meant, f"{said}: not read as what phase means by leaving it out ({f.default!r})"
    elif change != "retype":
        assert got == as_read or _names(got, f.path), f"{said}: {got if got[0] == 'refused' else 'another board'}"
    elif value is None and f.path in trace.nullable:
        pass  # an Option of phase's: null is another state phase may write
    else:
        assert got == as_read or _names(got, f.path), f"{said}: {got if got[0] == 'refused' else 'another board'}"


def _retypes(value: Any) -> list[Any]:
    return [v for v in ODD if _kind(v) != _kind(value) and not (isinstance(value, dict) and isinstance(v, dict))]


def _generic(path: str) -> str:
    return re.sub(r"\[[^\]]*\]", "[]", path)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name.split(".")[0])
def test_every_field_read_changed_is_refused_by_its_path_or_read_as_phase_means(path: Path) -> None:
    """Each field the doors ask of the fixture's prompts, once per place in phase's shapes (a list's
    items, objects by id, one for all): deleted, renamed and retyped to every other JSON type."""
    done: set[str] = set()
    changed = 0
    for i in range(len(_states(path))):
        state, as_read, trace = _prompt(path, i)
        for f in list(trace.fields.values()):
            if _generic(f.path) in done:
                continue
            done.add(_generic(f.path))
            for change in ("delete", "rename"):
                _judge(state, as_read, trace, f, change)
            for value in _retypes(f.holder[f.key]):
                _judge(state, as_read, trace, f, "retype", value)
            changed += 1
        assert _outcome(state) == as_read  # every change undone
    assert changed > 60  # the doors read the players, objects, stack, prompt and the abilities' trees


@given(st.data())
def test_any_field_read_of_any_prompt_changed_is_refused_or_read_as_phase_means(data: st.DataObject) -> None:
    """The same over every place of every prompt, drawn: a field, then a change."""
    path, i = data.draw(st.sampled_from(CASES), label="prompt")
    state, as_read, trace = _prompt(path, i)
    f = data.draw(st.sampled_from(sorted(trace.fields.values(), key=lambda f: f.path)), label="field")
    change = data.draw(st.sampled_from(["delete", "rename", "retype"]), label="change")
    value = data.draw(st.sampled_from(_retypes(f.holder[f.key]))) if change == "retype" else None
    _judge(state, as_read, trace, f, change, value)


def test_the_attack_fields_are_refused_by_their_path() -> None:
    """helper-60f's findings, as the property above judges them: each named."""
    state, _, _ = _prompt(next(p for p in FIXTURES if p.name.startswith("ertai-destroys")), 1)
    mode = state["state"]["pending_trigger"]["ability"]["mode_abilities"][1]["effect"]
    for value in (KeyError, None):  # Destroy's target is a TargetFilter, not an Option: null is no "no target"
        with _changed(mode, "target", "delete" if value is KeyError else "retype", value):
            got = _outcome(state)
        assert _names(got, "pending_trigger.ability.mode_abilities[1].effect.target"), got


# -- no module but the reader touches phase's JSON ------------------------------------------------


class _Guard:
    """Notes every module of the adapter other than the reader that reads a watched mapping or list."""

    def __init__(self) -> None:
        self.strays: set[str] = set()

    def check(self) -> None:
        caller = sys._getframe(2)  # what called the watched method (phase itself is this test's replay)
        where = Path(caller.f_code.co_filename)
        if where.parent == ADAPTER and where.name != "_schema.py":
            self.strays.add(f"{where.name}:{caller.f_lineno}")

    def watch(self, v: Any) -> Any:
        if isinstance(v, dict):
            return _Mapping(self, {k: self.watch(x) for k, x in v.items()})
        if isinstance(v, list):
            return _List(self, [self.watch(x) for x in v])
        return v


def _watched(cls: type, names: list[str]) -> type:
    def wrap(name: str) -> Callable[..., Any]:
        inner = getattr(cls.__mro__[1], name)

        def method(self: Any, *args: Any) -> Any:
            self._guard.check()
            return inner(self, *args)

        return method

    for name in names:
        setattr(cls, name, wrap(name))
    return cls


class _Mapping(dict[str, Any]):
    def __init__(self, guard: _Guard, data: dict[str, Any]) -> None:
        super().__init__(data)
        self._guard = guard


class _List(list[Any]):
    def __init__(self, guard: _Guard, data: list[Any]) -> None:
        super().__init__(data)
        self._guard = guard


_watched(_Mapping, ["__getitem__", "get", "__contains__", "__iter__", "keys", "items", "values", "__len__"])
_watched(_List, ["__getitem__", "__iter__", "__len__", "index", "count"])


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


def test_no_module_but_the_reader_touches_phases_json() -> None:
    """Every recorded prompt through every door — read whole and after the batch's first prompt, its
    answers, one judged, what is left, the placed entries, a Session following the batch — with
    phase's JSON watched: only adapters/phase/_schema.py may read it."""
    from triggerstack.adapters.phase import Reading, Session, is_legal_answer

    guard = _Guard()
    for path in FIXTURES:
        states = [guard.watch(s) for s in _states(path)]
        first: Reading | None = None
        for state in states:
            for since in (None, first):
                r = read(state, since=since)
                got = answers(r)
                is_legal_answer(r, got[0])
                Rest(r).count()
                [entry_of(r, p["trigger"], p["ability"]) for p in r.placed]
            first = first or read(state)
        session = Session(_Replay(states))
        for _ in states[1:]:
            session.apply(session.answers()[0])
            session.rest().count()
    assert guard.strays == set(), f"read around the reader: {sorted(guard.strays)}"
    # the guard sees what it should: a read of phase's JSON written in another module of the adapter
    code = compile("state['state']", str(ADAPTER / "_board.py"), "eval")
    eval(code, {"state": guard.watch({"state": {}})})
    assert guard.strays == {"_board.py:1"}


# -- what Rest and Answers are asked with ----------------------------------------------------------


@pytest.mark.parametrize("given", ["P0", None, 3, {"stack": "x"}, ["a"]])
def test_what_is_no_outcome_or_answer_is_said_so(given: Any) -> None:
    """rest.index/departs of a string, None or a dict raised AttributeError."""
    reading = read(_states(FIXTURES[0])[0])
    rest = Rest(reading)
    with pytest.raises((TypeError, ValueError)) as caught:
        rest.index(given)
    assert str(caught.value)
    assert rest.departs(given) == str(caught.value)
    assert given not in rest
    with pytest.raises((TypeError, ValueError)):
        answers(reading).index(given)
    assert given not in answers(reading)


@pytest.mark.parametrize("data", [-1, "x", [0, 1], {"order": "x"}, {"order": [0, "1"]}, {}], ids=repr)
def test_an_order_answer_of_another_shape_is_refused_naming_its_place(data: Any) -> None:
    """An answer is read by the same reader as a state: its malformed part named, a ValueError."""
    got = answers(read(_states(FIXTURES[0])[0]))
    with pytest.raises(PhaseStateError, match=r"^action\.data"):
        got.index({"type": "OrderTriggers", "data": data})


def test_an_outcome_document_is_read_as_its_outcome() -> None:
    reading = read(_states(FIXTURES[0])[0])
    rest = Rest(reading)
    first = rest[0]
    assert isinstance(first, Outcome)
    assert rest.index(first.model_dump(mode="json", exclude_none=True)) == 0


@pytest.mark.parametrize("field", ["id", "kind"])
def test_a_session_reading_a_later_prompt_holds_the_stack_to_the_schema(field: str) -> None:
    """A session reads a later prompt from waiting_for() and stack() alone: a stack entry of another
    version there is the same PhaseStateError a whole reading gives, not a bare KeyError (what it does
    not read of an entry — its controller, the batch's reading says — is no matter)."""
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
