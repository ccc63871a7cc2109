"""``enumerate``: the legal outcomes in the engine's order — a page of them from a cursor (a
server's answer), or every one as a stream of lines (the command line)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pydantic import Field
from triggerstack.model._answer import Items, Raw
from triggerstack.model._numbers import Whole
from triggerstack.model._outcome import outcome_dict, outcome_json

from .base import MAX_PAGE, Params, Result

if TYPE_CHECKING:
    from .legal import LegalOutcomes


class Enumerate(Params):
    """A page of the legal outcomes, in the engine's order."""

    limit: Whole = Field(100, ge=1, le=MAX_PAGE, description="How many outcomes at most")
    cursor: str = Field("0", pattern=r"^[0-9]{1,4300}$", description="Where the page starts: next from the last page")


class Page(Result):
    outcomes: list[dict[str, Any]] = Field(description="Outcomes in the outcome format, canonical")
    next: str | None = Field(description="The cursor of the next page; null after the last")

    def to_json(self) -> Any:
        return self.model_dump(mode="json")


def _page(legal: LegalOutcomes, p: Enumerate) -> tuple[range, str | None]:
    """The ranks of the page, and the cursor of the next (None after the last)."""
    total = legal.count()
    start = int(p.cursor)
    end = min(total, start + p.limit)
    return range(start, end), str(end) if end < total else None


def answer(legal: LegalOutcomes, p: Enumerate) -> Page:
    ranks, following = _page(legal, p)
    return Page(outcomes=[outcome_dict(legal[i]) for i in ranks], next=following)


def parts(legal: LegalOutcomes, p: Enumerate) -> Any:
    """:func:`answer`'s JSON with each outcome unranked as it is written (``model/_answer.py``)."""
    ranks, following = _page(legal, p)
    return {"next": following, "outcomes": Items(Raw(outcome_json(legal[i])) for i in ranks)}


def lines(legal: LegalOutcomes, p: Enumerate) -> Iterator[str]:
    """Every outcome (at most ``limit``), one canonical JSON line each, as they come."""
    return legal.lines(p.limit)
