"""A decision: its kind, what it names, its id and its readable form; and what every stepper
answers from its legal decisions (the checked ``apply``, the mask)."""

from __future__ import annotations

import operator
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from triggerstack.model import _text

from ..._errors import IllegalDecision
from ..._judge import Reason

S = TypeVar("S")


class DecisionKind(StrEnum):
    PUT = "put"
    REMOVE = "remove"
    MODE = "mode"
    END_MODES = "end modes"
    TARGET = "target"
    END_TARGETS = "end targets"
    DIVIDE = "divide"


PUT, REMOVE, MODE, END_MODES, TARGET, END_TARGETS, DIVIDE = DecisionKind
"""The kinds as module names: a member read off the enum class costs 0.2 µs on Python 3.11 (a
descriptor), a global a tenth of that — and what a new board's walk first builds (its tokens, each
decision's id and readable form) reads them dozens of times."""

Key = tuple[DecisionKind, str, str, int]
"""What a decision means, whatever its id: its kind, the ability or thing it names, the mode, the amount."""


@dataclass(frozen=True, slots=True, repr=False)
class Decision:
    """One decision: its fixed ``id`` (an agent's action), its ``kind`` and what it names — the
    ``subject`` (the ability put, removed or whose mode it is; the player, object or ability
    targeted), the ``mode``, the ``amount`` divided. ``str(d)`` is its readable form (``put E``,
    ``mode E:counter``, ``target SWB``, ``divide 2``), which :meth:`parse` reads back, as a chess
    move's ``uci()`` and ``from_uci()``."""

    id: int
    kind: DecisionKind
    text: str
    subject: str = ""
    mode: str = ""
    amount: int = 0

    @property
    def key(self) -> Key:
        return (self.kind, self.subject, self.mode, self.amount)

    @staticmethod
    def parse(text: str) -> Key:
        """What a readable form means (``ValueError`` if it is not one)."""
        for kind in (END_MODES, END_TARGETS):
            if text == kind.value:
                return (kind, "", "", 0)
        word, _, rest = text.partition(" ")
        kind = DecisionKind(word)
        if kind is MODE:
            ability, _, mode = rest.rpartition(":")
            return (kind, ability, mode, 0)
        if kind is DIVIDE:
            return (kind, "", "", int(rest))
        return (kind, rest, "", 0)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<Decision {self.id}: {self.text}>"


_WORD = {kind: kind.value for kind in DecisionKind}
"""Each kind's word (``Enum.value`` is a descriptor: a lookup here costs a third as much)."""


def spell(key: Key) -> str:
    """The readable form of what a decision means."""
    kind, subject, mode, amount = key
    if kind is TARGET or kind is PUT or kind is REMOVE:
        return f"{_WORD[kind]} {subject}"
    if kind is MODE:
        return f"mode {subject}:{mode}"
    if kind is DIVIDE:
        return f"divide {amount}"
    return _WORD[kind]


MADE = 65_536
"""Decisions :func:`made` keeps per process before it starts afresh (a long run of new boards)."""
_made: dict[tuple[int, DecisionKind, str, str, int], Decision] = {}


def made(i: int, key: Key) -> Decision:
    """The decision with id ``i`` that means ``key``: one object per process for each id and
    meaning, shared by every stepper that makes it (a decision is frozen and compared by value).
    Boards drawn anew name their abilities, players and objects alike (``T0``, ``A`` …), so a new
    board's walk finds most of its decisions made by the boards before it instead of building each
    and spelling its readable form again (issue 53: what a new board costs)."""
    found = _made.get((i, *key))
    if found is None:
        if len(_made) >= MADE:
            _made.clear()
        found = _made[(i, *key)] = Decision(i, key[0], spell(key), key[1], key[2], key[3])
    return found


class Checked(Generic[S]):
    """``decision``, ``mask`` and checked ``apply`` from ``legal``, ``why_illegal`` and ``apply_unchecked``."""

    size: int
    _by_id: dict[int, Decision]
    _by_text: dict[str, Decision]

    def legal(self, state: S) -> list[Decision]:
        raise NotImplementedError

    def why_illegal(self, state: S, decision: Decision) -> Reason:
        raise NotImplementedError

    def decision(self, ref: Decision | int | str) -> Decision:
        """A decision from its id (any integer type), its readable form, or a decision with the
        same meaning (one pass's decisions name the scenario's by what they name). An id or a form
        this scenario lacks raises :class:`~triggerstack.solver.IllegalDecision`."""
        if isinstance(ref, Decision):
            ref = ref.text
        if isinstance(ref, str):
            found = self._by_text.get(ref)
            return found if found is not None else self._unmade_text(ref)
        if isinstance(ref, bool):  # an int to Python, never a decision's id (JSON's true is not 1)
            raise IllegalDecision(str(ref).lower(), "a decision is an id (a whole number) or its readable form")
        try:
            i = operator.index(ref)
        except TypeError:  # None, a float, a list: no decision, said as a decision is (never a TypeError)
            said = "a decision is an id (a whole number), its readable form or a Decision"
            shown = _text.found(ref)  # bounded, its text escaped: never repr() of what a caller sent
            raise IllegalDecision(shown, f"{said}, not a {type(ref).__name__}") from None
        found = self._by_id.get(i)
        return found if found is not None else self._unmade_id(i)

    def _unmade_text(self, text: str) -> Decision:
        """A readable form no decision of :attr:`_by_text` has (a stepper that makes its decisions
        as they are asked for makes it here): none."""
        raise IllegalDecision(text, "this scenario has no such decision")

    def _unmade_id(self, i: int) -> Decision:
        """An id no decision of :attr:`_by_id` has (see :meth:`_unmade_text`): none."""
        where = f"ids run from 0 to {self.size - 1}" if not 0 <= i < self.size else "its slot is empty here"
        raise IllegalDecision(i, f"no decision has this id ({where})")

    def apply_unchecked(self, state: S, ref: Decision | int | str) -> S:
        raise NotImplementedError

    def mask(self, state: S) -> list[bool]:
        """A 0/1 mask over all ``size`` decision ids."""
        legal = {d.id for d in self.legal(state)}
        return [i in legal for i in range(self.size)]

    def legal_actions(self, state: S) -> list[int]:
        """The ids of the legal next decisions, ascending (OpenSpiel's ``legal_actions``)."""
        return [d.id for d in self.legal(state)]

    def decision_at(self, state: S, ref: Decision | int | str, legal: Sequence[Decision] | None = None) -> Decision:
        """:meth:`decision`, asked where a walk stands: an id or a form this scenario lacks raises
        :class:`~triggerstack.solver.IllegalDecision` with what is legal in ``state``, as ``apply``
        and ``step.why`` both say it."""
        try:
            return self.decision(ref)
        except IllegalDecision as exc:
            shown = tuple(x.text for x in (self.legal(state) if legal is None else legal))
            raise IllegalDecision(exc.decision, exc.reason, None, shown) from None

    def apply(self, state: S, ref: Decision | int | str, legal: Sequence[Decision] | None = None) -> S:
        """The state after ``ref``; a decision that is not legal now raises
        :class:`~triggerstack.solver.IllegalDecision` saying why (the rule it breaks, and what is legal).
        ``legal``: the legal decisions of ``state`` where the caller already has them."""
        if legal is None:
            legal = self.legal(state)
        d = self.decision_at(state, ref, legal)
        if all(x.id != d.id for x in legal):
            why = self.why_illegal(state, d)
            raise IllegalDecision(d.text, why.text, why.rule, tuple(x.text for x in legal))
        return self.apply_unchecked(state, d)
