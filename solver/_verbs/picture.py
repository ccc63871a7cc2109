"""``draw``, the verb: the stack as an SVG picture — the walk so far, or a proposal with check's
violations. The drawing itself is :mod:`.draw`'s."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field
from triggerstack.model._numbers import Whole
from triggerstack.model._outcome import parse_outcome

from .base import Result, within
from .steps import Steps

if TYPE_CHECKING:
    from .legal import LegalOutcomes


class Draw(Steps):
    """The stack as an SVG picture: the walk so far, or a proposal with its violations."""

    proposal: Any = Field(None, description="A proposal to draw with check's violations, instead of the walk")
    width: Whole = Field(560, ge=280, le=1600, description="The picture's width in pixels (text keeps its size)")


class Picture(Result):
    svg: str = Field(description="An SVG document: the stack top first, each entry's choices, blocks, violations")

    def text(self) -> str:
        return self.svg

    def picture(self) -> str | None:
        return self.svg


def answer(legal: LegalOutcomes, p: Draw) -> Picture:
    from .draw import outcome_svg, verdict_svg

    if p.proposal is not None:
        proposal = within("proposal", lambda doc: parse_outcome(doc, limits=legal.options.limits), p.proposal)
        return Picture(svg=verdict_svg(legal.facts, proposal, legal.check(proposal), p.width))
    stepper = legal.stepper()
    walk = stepper.walk(p.decisions)
    over = not stepper.legal(walk)
    title = "the stack built: over" if over else "the stack built so far"
    if stepper.pass_number(walk) > 1 and not over:
        title += f" (pass {stepper.pass_number(walk)} of 603.3b: abilities that triggered meanwhile)"
    shown = outcome_svg(legal.facts, stepper.so_far(walk), (), title, stepper.in_hand(walk), p.width)
    return Picture(svg=shown)
