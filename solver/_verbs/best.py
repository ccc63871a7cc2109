"""``best``: the legal outcome with the highest score (docs/cli.md) — the verb's parameters, its
answer :class:`Best` (what :func:`~.legal.best` returns too), and the score checked against the
scenario. :meth:`~.legal.LegalOutcomes.best` finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Protocol

from pydantic import AfterValidator, ConfigDict, Field, PlainSerializer, WithJsonSchema
from triggerstack.model._errors import ScenarioError
from triggerstack.model._facts import Facts
from triggerstack.model._outcome import Outcome, Score, outcome_dict, parse_score
from triggerstack.model._passes import Passes
from triggerstack.model._text import typed

from .base import Params, Result, document, within


class BestParams(Params):
    """The legal outcome with the highest score."""

    model_config = ConfigDict(title="Best")  # its published name

    score: Any = document("score", "The score (the score format)", option=True)


def _outcome(value: Any) -> Outcome:
    return value if isinstance(value, Outcome) else Outcome.model_validate(value)


if TYPE_CHECKING:
    Canonical = Outcome
else:  # typed Any for the schema's sake: FastAPI would publish every model a field's type names
    Canonical = Annotated[
        Any,
        AfterValidator(_outcome),
        PlainSerializer(outcome_dict, return_type=dict[str, Any]),
        WithJsonSchema({"additionalProperties": True, "type": "object", "title": "Outcome"}),
    ]
"""An outcome, written in its canonical JSON (``outcome_dict``); published as any object."""


class BestResult(Result):
    # The best outcome and its score, for the Python API (``best``) and every surface alike; ``proven``
    # is False when the time limit stopped CP-SAT with this outcome found but its optimality not
    # proven. (No docstring: the published schema of the answer has no description.)

    score: int = Field(description="Its score")
    proven: bool = Field(description="False when the time limit stopped the search before optimality was proven")
    outcome: Canonical = Field(description="The outcome, canonical")

    def exit_code(self) -> int:
        return 0 if self.proven else 3


Best = BestResult
"""The Python API's name of the answer (``triggerstack.solver.Best``); published as ``BestResult``."""


class _Finds(Protocol):
    """What ``answer`` asks of a :class:`~.legal.LegalOutcomes` (named so, not imported: legal imports
    this module for :class:`Best`)."""

    def best(self, score: Score) -> BestResult: ...


def answer(legal: _Finds, p: BestParams) -> BestResult:
    try:
        return legal.best(within("score", parse_score, p.score))
    except ScenarioError as exc:
        if exc.loc and exc.loc[0] in ("height", "mode", "target", "removed"):  # what the score names
            raise exc.within("score") from None
        raise


def check_score(facts: Facts, score: Score, passes: Passes | None = None) -> None:
    """Every id a score names exists: abilities, their modes, and things to target. Across the
    passes of 603.3b, abilities fired later may be named too: ``REACTION@ABILITY`` with
    reactions, and any id with an engine's ``next_pass`` hook (what it fires is its own)."""
    hook = passes is not None and passes.next_pass is not None
    fired = passes is not None and not passes.single
    for key in ("height", "mode", "target", "removed"):
        for aid in getattr(score, key):
            if hook or (fired and "@" in aid):
                continue
            if aid not in facts.ability_index:
                raise ScenarioError(f"unknown ability {typed(aid)}", (key, aid))
    for aid, modes in score.mode.items():
        if aid not in facts.ability_index:
            continue  # a fired ability: its modes are known only once it fires
        a = facts.abilities[facts.ability_index[aid]]
        for mid in modes:
            if mid not in a.mode_index:
                raise ScenarioError(f"{aid} has no mode {typed(mid)}", ("mode", aid, mid))
    for aid, things in score.target.items():
        for tid in things:
            if tid not in facts.thing_index:
                raise ScenarioError(f"unknown player, object or ability {typed(tid)}", ("target", aid, tid))
