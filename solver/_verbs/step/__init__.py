"""``step``: the legal next decisions, one at a time, for agents that decide as 603.3 reads.

A walk goes block by block (603.3b). With no ability in hand, the next decision is ``put X`` (X
has a legal choice with what is on the stack now) or ``remove X`` (it has none, or may choose no
mode, or can never be put there). After ``put X``, X's choices are announced token by token:
``mode X:m`` for each chosen mode (in mode order; repeats repeated) and ``end modes`` for a modal
ability; then for each chosen mode and each of its requirements, ``target T`` for each target
(in scenario order) and ``end targets``, followed by ``divide N`` per target where the amount is
divided. Only decisions that still extend to a legal outcome are offered, so every walk ends in
an outcome that ``check`` accepts, and every outcome is reachable.

Decision ids are fixed per scenario (``Stepper.size`` of them), so an agent can keep a 0/1 mask:
they are the ids of the scenario's smallest :class:`ActionLayout` (:attr:`Stepper.needs`; the
table of ids is in its docstring), or of a layout given to the :class:`Stepper`, whose ids mean
the same in every scenario that fits it (a fixed action space). An id whose slot the scenario
leaves empty is never legal.

Who decides (:meth:`Stepper.decider`): the chooser of the ability in hand while its modes and
targets are announced (its controller unless the scenario names one, 700.2e); otherwise the player
whose block is being put on the stack (603.3b; a Two-Headed Giant team's block is decided by its
first player in turn order, 805.7). An illegal :meth:`~Stepper.apply` raises
:class:`~triggerstack.solver.IllegalDecision`, which says why.

States are values: :meth:`Stepper.apply` returns a new one and never changes its input.

This package is the ``step.*`` verbs (``table.py``: ``step:legal`` …): their parameters (the
decisions so far, :class:`~..base.Steps`, and what each adds), their answers, and the function
answering each, here; they share their parameters and their state, so they share one home. What
they ask is the :class:`Stepper`: ``_decision`` (a decision, its readable form and its parser),
``_layout`` (the action layout), ``_pass`` (one pass, with its caches) and ``_walk`` (the walk
across passes, and replaying an outcome); only what this package exports is used outside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, StrictStr
from triggerstack.model._numbers import Whole
from triggerstack.model._outcome import outcome_dict
from triggerstack.model._text import quoted, shown_lines

from ..base import Result, Steps
from ._decision import Decision as Decision
from ._decision import DecisionKind as DecisionKind
from ._layout import ActionLayout as ActionLayout
from ._pass import PassStepper as PassStepper
from ._replay import IllegalOutcome as IllegalOutcome
from ._state import State as State
from ._state import Walk as Walk
from ._walk import Stepper as Stepper

if TYPE_CHECKING:
    from triggerstack.model._facts import Facts


class StepLegal(Steps):
    """The legal next decisions of a walk."""

    auto: bool = Field(
        False,
        description="Take each decision that is the only legal one (an end targets with no target left to add …) "
        "after the decisions given; the answer's decisions then hold them, and auto_applied says how many",
    )


class StepApply(StepLegal):
    """Take one more decision."""

    decision: Whole | StrictStr = Field(description="The decision to take: its id or readable form")


class StepWhy(Steps):
    """Whether a decision is legal now, and if not, why (a question: nothing is taken)."""

    decision: Whole | StrictStr = Field(description="The decision asked about: its id or readable form")


class StepCount(Steps):
    """How many outcomes the walk can still end in."""

    cap: Whole = Field(10_000, ge=1, le=100_000, description="Stop counting past this many (then exact is false)")


class DecisionItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: int = Field(description="Its fixed id")
    text: str = Field(description="Its readable form, e.g. 'put E', 'mode E:counter', 'target SWB'")
    kind: str = Field(description="put, remove, mode, end modes, target, end targets or divide")
    words: str | None = Field(None, description="For a mode: its own words, in quotes, as every sentence shows them")


class StepState(Result):
    decisions: list[int] = Field(description="The decisions taken, by id")
    legal: list[DecisionItem] = Field(description="The legal next decisions (empty: the walk is over)")
    decider: str | None = Field(description="The player who decides next (700.2e, 603.3b); null once over")
    over: bool = Field(description="Whether the walk is over")
    auto_applied: int = Field(0, description="How many lone legal decisions auto took (0 without auto)")
    in_pass: int = Field(1, description="The pass of 603.3b the walk is in (1: the scenario's waiting abilities)")
    in_hand: str | None = Field(None, description="The ability being announced (put, its choice not complete)")

    def to_json(self) -> Any:
        return self.model_dump(mode="json")


class WhyResult(Result):
    decision: str = Field(description="The decision's readable form")
    legal: bool = Field(description="Whether it is legal now")
    reason: str | None = Field(None, description="Why it is not (null when legal): the sentence check and explain say")
    rule: str | None = Field(None, description="The rule it would break (null where none does)")
    code: str | None = Field(
        None, description="The violation code check gives a proposal that breaks the rule so (null where none does)"
    )
    later: bool = Field(
        False,
        description="Not legal now but taken by a legal outcome further on: it breaks no rule, and the reason says "
        "how to get there",
    )

    def text(self) -> str:
        if self.legal:
            said = f"{self.decision}: legal now"
        elif self.later:
            said = f"{self.decision}: not yet: {self.reason}"
        else:
            said = f"{self.decision}: not legal now: {self.reason}" + (f" ({self.rule})" if self.rule else "")
        return shown_lines([said])


class MaskResult(Result):
    size: int = Field(description="How many decision ids there are")
    mask: list[int] = Field(description="1 for each legal decision id, 0 otherwise")


class Reachable(Result):
    count: int = Field(description="Distinct outcomes the walk can still end in")
    exact: bool = Field(description="False when counting stopped at cap")


class OutcomeResult(Result):
    outcome: dict[str, Any] = Field(description="The outcome the finished walk reached")


class _Walks(Protocol):
    """What the ``step.*`` verbs ask of a :class:`~..legal.LegalOutcomes` (named so, not imported:
    legal imports this package for :class:`Stepper`)."""

    def stepper(self) -> Stepper: ...

    def count(self) -> int: ...

    def reachable(self, decisions: Sequence[Decision | int | str], cap: int) -> tuple[int, bool]: ...


def legal(outcomes: _Walks, p: StepLegal) -> StepState:
    return _state(outcomes, p)


def apply(outcomes: _Walks, p: StepApply) -> StepState:
    return _state(outcomes, p, p.decision)


def _words(facts: Facts | None, d: Decision) -> str | None:
    """A mode decision's mode's own words (:func:`~triggerstack.model._text.quoted`), None for any other."""
    if facts is None or d.kind is not DecisionKind.MODE or (k := facts.ability_index.get(d.subject)) is None:
        return None
    a = facts.abilities[k]
    m = a.mode_index.get(d.mode)
    return (quoted(d.mode, a.modes[m].text) or None) if m is not None else None


def _state(outcomes: _Walks, p: StepLegal, decision: int | str | None = None) -> StepState:
    stepper = outcomes.stepper()
    walk = stepper.walk(p.decisions)
    if decision is not None:
        walk = stepper.apply(walk, decision)
    taken = 0
    if p.auto:
        walk, taken = stepper.forced(walk)
    moves = stepper.legal(walk)
    return StepState(
        decisions=list(walk.decisions),
        legal=[DecisionItem(id=d.id, text=d.text, kind=d.kind.value, words=_words(walk.facts, d)) for d in moves],
        decider=stepper.decider(walk),
        over=not moves,
        auto_applied=taken,
        in_pass=stepper.pass_number(walk),
        in_hand=(stepper.in_hand(walk) or (None,))[0],
    )


def why(outcomes: _Walks, p: StepWhy) -> WhyResult:
    stepper = outcomes.stepper()
    walk = stepper.walk(p.decisions)
    asked = stepper.decision_at(walk, p.decision)  # IllegalDecision, with what is legal, for one it lacks
    if any(d.id == asked.id for d in stepper.legal(walk)):
        return WhyResult(decision=asked.text, legal=True)
    why = stepper.why_illegal(walk, asked)
    return WhyResult(
        decision=asked.text,
        legal=False,
        reason=why.text,
        rule=None if why.rule is None else why.rule.value,
        code=None if why.code is None else why.code.value,
        later=why.later,
    )


def mask(outcomes: _Walks, p: Steps) -> MaskResult:
    stepper = outcomes.stepper()
    return MaskResult(size=stepper.size, mask=[int(b) for b in stepper.mask(stepper.walk(p.decisions))])


def outcome(outcomes: _Walks, p: Steps) -> OutcomeResult:
    stepper = outcomes.stepper()
    return OutcomeResult(outcome=outcome_dict(stepper.outcome(stepper.walk(p.decisions))))


def count(outcomes: _Walks, p: StepCount) -> Reachable:
    if not p.decisions:
        return Reachable(count=outcomes.count(), exact=True)
    found, exact = outcomes.reachable(p.decisions, p.cap)
    return Reachable(count=found, exact=exact)
