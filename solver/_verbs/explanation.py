"""``explain``, the verb: its parameters and its answer in the explain format (``triggerstack schema
explain``), with its text and its picture. What it says is worked out in :mod:`.explain`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import PrivateAttr
from triggerstack.model import _reports as reports

from .base import Params, Result

if TYPE_CHECKING:
    from .legal import LegalOutcomes


class Explain(Params):
    """What explain --json prints."""


class Explanation(Result, reports.Explanation):
    # the explain format itself (the same JSON Schema, published under the same name), answered as a verb
    __doc__ = reports.Explanation.__doc__

    _drawing: Callable[[], str] | None = PrivateAttr(None)

    def to_json(self) -> Any:
        return self.model_dump(mode="json", by_alias=True, exclude_unset=True)  # exactly what explain said

    def text(self) -> str:
        from .explain import explain_text

        return explain_text(self.to_json())

    def picture(self) -> str | None:
        return None if self._drawing is None else self._drawing()


def answer(legal: LegalOutcomes, _: Explain) -> Explanation:
    from .draw import outcome_svg

    found = Explanation.model_validate(legal.explain().to_json())
    found._drawing = lambda: outcome_svg(legal.facts, legal[0], (), f"one legal outcome of {legal.count()}")
    return found
