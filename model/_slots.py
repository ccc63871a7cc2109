"""How compiled facts pickle (issue 53: a board drawn in a worker process travels compiled, and
what it costs to read one back is billed to the trainer that plays it).

A frozen dataclass with slots pickles through ``dataclasses``' own state functions, which ask
``dataclasses.fields`` again for every object read back — a third of the time a board's facts took
to arrive. :func:`pickled` gives a class a state of its fields in order instead, each written back
through its slot; a read-only mapping (``MappingProxyType``, which does not pickle, or a lazy
mapping such as ``_targeting.Bars``) is sent as the dict it shows and made read-only again, and a
field ``kept`` (what solvers learned, ``Facts.memo``) is not sent and arrives as a new empty dict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")


def pickled(*mappings: str, kept: str | None = None) -> Callable[[type[T]], type[T]]:
    """The class decorator (outermost, over ``@dataclass(frozen=True, slots=True)``): see the module."""

    def wrap(cls: type[T]) -> type[T]:
        names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]  # a dataclass
        slots = tuple(cls.__dict__[n] for n in names)  # each field's slot, written past the frozen __setattr__
        read_only = tuple(i for i, n in enumerate(names) if n in mappings)
        unsent = names.index(kept) if kept is not None else None

        def getstate(self: T) -> tuple[Any, ...]:
            state = [getattr(self, n) for n in names]
            for i in read_only:
                state[i] = dict(state[i])
            if unsent is not None:
                state[unsent] = None
            return tuple(state)

        def setstate(self: T, state: tuple[Any, ...]) -> None:
            if read_only or unsent is not None:
                values = list(state)
                for i in read_only:
                    values[i] = MappingProxyType(values[i])
                if unsent is not None:
                    values[unsent] = {}
                state = tuple(values)
            for slot, value in zip(slots, state, strict=True):
                slot.__set__(self, value)

        # in place of the dataclass's (which read the fields again each time)
        cls.__getstate__ = getstate  # type: ignore[method-assign, assignment]
        cls.__setstate__ = setstate  # type: ignore[attr-defined]
        return cls

    return wrap
