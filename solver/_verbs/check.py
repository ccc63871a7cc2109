"""``check``: judge a proposal — legal, or every violation with its rule. The judging is the judge
room's (``solver/_judge/``); this is the verb: its parameters, its answer in the verdict format
(``triggerstack schema verdict``) and its picture."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import PrivateAttr
from triggerstack.model import _reports as reports
from triggerstack.model._errors import ProposalError
from triggerstack.model._outcome import parse_outcome

from .base import Params, Result, document, within

if TYPE_CHECKING:
    from .._judge import Verdict
    from .legal import LegalOutcomes


class Check(Params):
    """Judge a proposal: the object ``check --json`` prints."""

    proposal: Any = document("outcome", "The proposal (the outcome format)")


class VerdictReport(Result, reports.VerdictReport):
    # the verdict format itself (the same JSON Schema, published under the same name), answered as a verb
    __doc__ = reports.VerdictReport.__doc__

    _verdict: Verdict | None = PrivateAttr(None)
    _drawing: Callable[[], str] | None = PrivateAttr(None)

    @classmethod
    def of(cls, verdict: Verdict, drawing: Callable[[], str] | None = None) -> VerdictReport:
        """The report of ``verdict``; ``drawing`` draws it (``--format svg``)."""
        found = cls.model_validate(verdict.as_dict())
        found._verdict = verdict
        found._drawing = drawing
        return found

    def to_json(self) -> Any:
        return self.model_dump(mode="json")  # "ability": null is said

    def text(self) -> str:
        """``legal``, or how many violations and one line for each (the judge's words)."""
        assert self._verdict is not None, "made by VerdictReport.of"
        return self._verdict.text()

    def picture(self) -> str | None:
        return None if self._drawing is None else self._drawing()

    def exit_code(self) -> int:
        return 0 if self.legal else 1


def answer(legal: LegalOutcomes, p: Check) -> VerdictReport:
    from .draw import verdict_svg

    proposal = within("proposal", lambda doc: parse_outcome(doc, limits=legal.options.limits), p.proposal)
    try:
        verdict = legal.check(proposal)
    except ProposalError as exc:  # passes that do not add up: the proposal's place
        raise exc.within("proposal") from None
    return VerdictReport.of(verdict, lambda: verdict_svg(legal.facts, proposal, verdict))
