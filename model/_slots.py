"""How compiled facts pickle (issue 53: a board drawn in a worker process travels compiled, and
what it costs to read one back is billed to the trainer that plays it).

A frozen dataclass with slots pickles through ``dataclasses``' own state functions, which ask
``dataclasses.fields`` again for every object read back — a third of the time a board's facts took
to arrive. :func:`pickled` gives a class a state of its fields in order instead, each written back
through its slot; a read-only mapping (``MappingProxyType``, which does not pickle, or a lazy
mapping such as ``_targeting.Bars``) is sent as the dict it shows and made read-only again (an
empty one as None, read back as one shared empty mapping), and a field ``kept`` (what solvers
learned, ``Facts.memo``) is not sent and arrives as a new empty dict.

A field ``later`` (``Facts.scenario``: about half of what a board's facts took to read back, and
what playing a board without reactions never reads; ``Facts.things``, a quarter of the rest, of
which play reads the ids alone) is sent as a pickle of its own, one byte string, where its
``later_if`` says so of its value: read back, the object keeps the string in its ``kept`` dict
and reads the field from it the first time it is asked for (a ``__getattr__``, which Python calls
only for a slot not yet set: no cost once read, nor for an object never pickled). :func:`unread`
says whether it still waits.

A small frozen value that boards drawn anew share — the control of an ability (33 distinct ones in
260 boards of the training example's, 3.7 a board), a block of 603.3b, a target filter — pickles
:func:`interned`: as the bytes of its state, read back once per process and the same object each
time after (a dictionary look-up, where building it again was a third of what reading a board's
abilities back cost; one object, already in the cache, where each board made its own).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Mapping
from dataclasses import fields
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")
_EMPTY: frozenset[Any] = frozenset()
"""Every empty frozenset a state holds, as one object: a pickle writes it once and reads each
other back from its memo, not as a new set (a board's compiled facts hold some 60)."""
LATER = "slots:later"
"""The key, in an object's ``kept`` dict, of a field sent ``later`` and not read yet (with its name)."""
_NO_ENTRIES: Mapping[Any, Any] = MappingProxyType({})
"""Every empty read-only mapping a state holds, read back as one object (sent as None: seven in nine
of a board's, each a dict and a proxy of its own before)."""


def pickled(
    *mappings: str,
    kept: str | None = None,
    later: tuple[str, ...] = (),
    later_if: Mapping[str, Callable[[Any], bool]] | None = None,
) -> Callable[[type[T]], type[T]]:
    """The class decorator (outermost, over ``@dataclass(frozen=True, slots=True)``): see the module
    (``later`` needs ``kept``: where the unread fields wait; ``later_if``: per field sent later,
    whether its value is — each always, unless named there)."""

    def wrap(cls: type[T]) -> type[T]:
        names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]  # a dataclass
        slots = tuple(cls.__dict__[n] for n in names)  # each field's slot, written past the frozen __setattr__
        puts = tuple(s.__set__ for s in slots)  # bound once: a tenth of what reading a board's facts back costs
        read_only = tuple(i for i, n in enumerate(names) if n in mappings)
        unsent = names.index(kept) if kept is not None else None
        deferred = {names.index(n): n for n in later}
        assert not deferred or unsent is not None, "a field sent later waits in the kept dict"
        sent_if = tuple((i, (later_if or {}).get(n)) for i, n in deferred.items())

        def getstate(self: T) -> tuple[Any, ...]:
            state = [_EMPTY if type(v) is frozenset and not v else v for v in (getattr(self, n) for n in names)]
            for i in read_only:
                state[i] = dict(state[i]) or None  # an empty one: read back as one shared object
            if unsent is not None:
                state[unsent] = None
            for i, when in sent_if:
                if when is None or when(state[i]):
                    state[i] = pickle.dumps(state[i], pickle.HIGHEST_PROTOCOL)  # never bytes otherwise
            return tuple(state)

        setstate = _setter(cls.__qualname__, puts, read_only, unsent, deferred, _twin(cls, names))
        LOOPED[cls] = _looped(puts, slots, read_only, unsent, deferred)
        slot_of = {n: slots[i] for i, n in deferred.items()}

        def read_later(self: T, name: str) -> Any:
            """A field sent later, read back now (only a slot not set is looked up here)."""
            slot = slot_of.get(name)
            if slot is None or unsent is None:
                raise AttributeError(name)
            waiting = slots[unsent].__get__(self)
            data = waiting.get((LATER, name))
            if data is None:
                raise AttributeError(name)
            value = pickle.loads(data)
            slot.__set__(self, value)
            waiting.pop((LATER, name), None)  # after: another thread asking meanwhile reads it too, never fails
            return value

        # in place of the dataclass's (which read the fields again each time)
        cls.__getstate__ = getstate  # type: ignore[method-assign, assignment]
        cls.__setstate__ = setstate  # type: ignore[attr-defined]
        if deferred:
            cls.__getattr__ = read_later  # type: ignore[attr-defined]
        return cls

    return wrap


LOOPED: dict[type, Callable[[Any, tuple[Any, ...]], None]] = {}
"""Per class, the ``__setstate__`` a loop over its setters makes (:func:`_looped`): the reference
``tests/test_step_shared.py`` holds each class's made one (:func:`_setter`) to."""


def _looped(
    puts: tuple[Callable[[Any, Any], None], ...],
    slots: tuple[Any, ...],
    read_only: tuple[int, ...],
    unsent: int | None,
    deferred: Mapping[int, str],
) -> Callable[[Any, tuple[Any, ...]], None]:
    """The ``__setstate__`` :func:`_setter` makes, as a loop over the setters (what it replaced)."""

    def setstate(self: Any, state: tuple[Any, ...]) -> None:
        if read_only or unsent is not None:
            values = list(state)
            for i in read_only:
                values[i] = _NO_ENTRIES if values[i] is None else MappingProxyType(values[i])
            if unsent is not None:
                values[unsent] = {}
            state = tuple(values)
        for put, value in zip(puts, state, strict=True):
            put(self, value)
        for i, name in deferred.items():
            if isinstance(state[i], bytes):  # left unset: read when asked for
                assert unsent is not None
                slots[unsent].__get__(self)[LATER, name] = state[i]
                slots[i].__delete__(self)

    return setstate


def _twin(cls: type, names: tuple[str, ...]) -> tuple[type, type, tuple[str, ...]] | None:
    """A class of ``cls`` 's slots, in its order, without its frozen ``__setattr__``: an object of
    ``cls`` switched to it for a moment has its fields written as plain attributes (a slot's
    setter called through its bound ``__set__`` costs several times more), then switched back.
    None where Python refuses the switch (another layout: the setters are used)."""
    slots = cls.__dict__.get("__slots__")
    if not isinstance(slots, tuple) or not set(names) <= set(slots) or not all(n.isidentifier() for n in names):
        return None
    twin = type(f"{cls.__name__}Fields", (object,), {"__slots__": slots, "__module__": cls.__module__})
    try:
        probe = cls.__new__(cls)  # type: ignore[call-overload]
        object.__setattr__(probe, "__class__", twin)
        probe.__class__ = cls
    except TypeError:
        return None
    return cls, twin, names


def _setter(
    name: str,
    puts: tuple[Callable[[Any, Any], None], ...],
    read_only: tuple[int, ...],
    unsent: int | None,
    deferred: Mapping[int, str],
    twin: tuple[type, type, tuple[str, ...]] | None = None,
) -> Callable[[Any, tuple[Any, ...]], None]:
    """A class's ``__setstate__``: each field written in straight-line code made for the class —
    ``v0, v1 … = state``, then each field —, as ``dataclasses`` makes a class's ``__init__``: as a
    plain attribute of the object switched for the while to the class's :func:`_twin` (issue 53:
    half of what setting them through each slot's setter, bound once, ``put0(self, v0)`` …, costs;
    that where there is no twin). A loop over the setters zipped with the state cost twice as much
    again (a board's compiled facts read back are some 20 of these objects and 150 fields, and
    setting them was two fifths of reading them back). The state's fields in order (a state of
    another length is refused, as unpacking refuses it); a read-only mapping made read-only again;
    the ``kept`` field a new empty dict; each field sent ``later`` (bytes) left unset and waiting in
    it. ``tests/test_step_shared.py`` holds it to the loop it replaced."""
    values = [f"v{i}" for i in range(len(puts))]
    lines = [f"def setstate(self, state):  # {name}", f"    {', '.join(values)}, = state"]
    if unsent is not None:
        lines.append(f"    v{unsent} = {{}}")
    lines += [f"    v{i} = empty if v{i} is None else read_only(v{i})" for i in read_only]
    if twin is not None:
        lines.append("    become(self, '__class__', twin)")
    for i in range(len(puts)):
        put = f"put{i}(self, v{i})" if twin is None else f"self.{twin[2][i]} = v{i}"
        if i in deferred:  # left unset: read when asked for (read_later)
            lines += [f"    if isinstance(v{i}, bytes):", f"        v{unsent}[waiting{i}] = v{i}", "    else:"]
            lines.append(f"        {put}")
        else:
            lines.append(f"    {put}")
    if twin is not None:
        lines.append("    self.__class__ = cls")
    scope: dict[str, Any] = {f"put{i}": put for i, put in enumerate(puts)}
    if twin is not None:
        scope |= {"become": object.__setattr__, "cls": twin[0], "twin": twin[1]}
    scope |= {"read_only": MappingProxyType, "empty": _NO_ENTRIES}
    scope |= {f"waiting{i}": (LATER, name) for i, name in deferred.items()}
    exec("\n".join(lines), scope)  # code made here from field numbers alone, as dataclasses does
    return scope["setstate"]  # type: ignore[no-any-return]


def unread(obj: object, name: str, kept: str = "memo") -> bool:
    """Whether ``obj`` 's field ``name``, sent later, has not been read back yet."""
    return (LATER, name) in getattr(obj, kept)


MOST_INTERNED = 4096
"""Values :func:`interned` keeps per process before it starts afresh (a long run of new boards)."""
_interned: dict[bytes, Any] = {}


def interned(cls: type[T]) -> type[T]:
    """The class decorator (outermost) of a frozen value that many pickles hold equal: it pickles
    as its class and state (``__getstate__``), themselves pickled to one byte string, and reads
    back as the object this process last read from those bytes, built from them (``__new__`` and
    ``__setstate__``, as a pickle builds it) only the first time. Equal objects, never one that
    differs: the bytes are its whole state."""

    def reduce(self: Any) -> tuple[Callable[[bytes], Any], tuple[bytes]]:
        return _read_interned, (pickle.dumps((type(self), self.__getstate__()), pickle.HIGHEST_PROTOCOL),)

    cls.__reduce__ = reduce  # type: ignore[method-assign]
    return cls


def _read_interned(data: bytes) -> Any:
    """The object ``data`` (an :func:`interned` value's class and state) reads back as."""
    found = _interned.get(data)
    if found is None:
        cls, state = pickle.loads(data)
        found = cls.__new__(cls)
        found.__setstate__(state)
        if len(_interned) >= MOST_INTERNED:
            _interned.clear()
        _interned[data] = found
    return found
