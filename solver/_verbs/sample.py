"""``sample``: legal outcomes drawn uniformly at random, with replacement (:meth:`~.legal.LegalOutcomes.sample`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pydantic import Field
from triggerstack.model._answer import Items, Raw
from triggerstack.model._args import FEWEST
from triggerstack.model._numbers import AtLeast0, Whole
from triggerstack.model._outcome import outcome_dict

from .base import MAX_PAGE, Params, Result

if TYPE_CHECKING:
    from .legal import LegalOutcomes


class Sample(Params):
    """Uniformly random legal outcomes (with replacement)."""

    n: Whole = Field(1, ge=FEWEST, le=MAX_PAGE, description="How many")
    seed: AtLeast0 | None = Field(
        None, description="The seed, a whole number 0 or more: the same seed, the same outcomes"
    )


class Outcomes(Result):
    outcomes: list[dict[str, Any]] = Field(description="Outcomes in the outcome format, canonical")


def answer(legal: LegalOutcomes, p: Sample) -> Outcomes:
    return Outcomes(outcomes=[outcome_dict(o) for o in legal.sample(p.n, p.seed)])


def parts(legal: LegalOutcomes, p: Sample) -> Any:
    """:func:`answer`'s JSON with each draw written as it is drawn (``model/_answer.py``)."""
    return {"outcomes": Items(Raw(line) for line in legal.sample_lines(p.n, p.seed))}


def lines(legal: LegalOutcomes, p: Sample) -> Iterator[str]:
    """The draws, one canonical JSON line each, as they come."""
    return legal.sample_lines(p.n, p.seed)
