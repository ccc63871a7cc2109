"""The one table of verbs: each verb's name, its parameters (a pydantic model), its result type and
the method of :class:`~.legal.LegalOutcomes` that answers it.

Every surface is generated from :data:`VERBS`: the JSON-RPC methods and the OpenRPC document
(``serve/rpc.py``), the HTTP routes and the OpenAPI document (``serve/http.py``), batch lines
(``serve/jobs.py``) and the command line's flags (``cli.py``: a field ``limit`` is ``--limit``,
its description the help). A verb's parameters are what it takes besides the scenario; each
surface adds how the scenario is named (a file, ``handle`` or ``scenario``) and the options
(``engine``, ``time_limit``). To add a verb or a parameter, see docs/architecture.md.

Results are frozen and know their JSON (what a server answers, ``--json``) and their text (what
the command line prints).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, StrictStr
from triggerstack.model.errors import ProposalError, ScenarioError
from triggerstack.model.outcome import Outcome, Score, outcome_dict, parse_outcome, parse_score
from triggerstack.model.reports import Explanation, VerdictReport
from triggerstack.model.shapes import Whole
from triggerstack.model.text import compact

from .legal import LegalOutcomes

__all__ = ["MAX_PAGE", "VERBS", "Params", "Result", "Verb"]

MAX_PAGE = 10_000
"""The most outcomes one ``enumerate`` or ``sample`` answer carries (a server's page)."""


class Params(BaseModel):
    """A verb's parameters: frozen, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def canonical(value: Any) -> Any:
    """``value`` with every mapping's keys in sorted order (a server's answers are then written as
    the command line prints them)."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


class Result(BaseModel):
    """A verb's answer: frozen; :meth:`to_json` is what a server answers, :meth:`text` what the command
    line prints, :meth:`report` what ``--json`` prints."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    def to_json(self) -> Any:
        return self.model_dump(mode="json", exclude_none=True)

    def report(self) -> Any:
        return self.to_json()

    def text(self) -> str:
        return compact(self.to_json())

    def picture(self) -> str | None:
        """Its SVG picture (``--format svg``), where it has one."""
        return None

    def code(self) -> int:
        """The command line's exit code when it is the answer: 0, or 1 for an illegal proposal, or
        3 for an optimum the time limit kept from being proven."""
        return 0


def _document(kind: str, description: str, option: bool = False) -> Any:
    """A parameter that is a whole document (``kind``: outcome, score): a file on the command line,
    positional (``PROPOSAL``) or, with ``option``, a required option (``--score SCORE``)."""
    return Field(description=description, json_schema_extra={"document": kind, "option": option})


# -- the verbs' parameters and results --------------------------------------------------------------


class Check(Params):
    """Judge a proposal: the object ``check --json`` prints."""

    proposal: Any = _document("outcome", "The proposal (the outcome format)")


class Count(Params):
    """How many legal outcomes there are."""

    divide: bool = Field(
        False,
        description="Also the count under each first stack entry (the bottom one, with its choices), as a "
        "perft divide prints the count under each first move; they sum to the count",
    )


class Divided(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    first: dict[str, Any] | None = Field(description="The bottom stack entry, canonical; null: nothing is put")
    count: int = Field(description="The legal outcomes with that bottom entry")


class CountResult(Result):
    count: int = Field(description="The exact number of legal outcomes (any size)")
    divide: list[Divided] | None = Field(None, description="With divide: the count under each first entry")
    engine: str | None = Field(None, exclude=True)
    path: str | None = Field(None, exclude=True)

    def to_json(self) -> Any:
        out: dict[str, Any] = {"count": self.count}
        if self.divide is not None:  # "first": null (nothing on the stack) is said, not left out
            out["divide"] = [{"first": d.first, "count": d.count} for d in self.divide]
        return out

    def report(self) -> Any:
        return {**self.to_json(), "engine": self.engine, "path": self.path}

    def text(self) -> str:
        if self.divide is None:
            return str(self.count)
        lines = [
            f"{'(nothing on the stack)' if d.first is None else compact(d.first)}: {d.count}"
            for d in self.divide
        ]
        return "\n".join([*lines, "", str(self.count)])


class Enumerate(Params):
    """A page of the legal outcomes, in the engine's order."""

    limit: Whole = Field(100, ge=1, le=MAX_PAGE, description="How many outcomes at most")
    cursor: str = Field("0", pattern=r"^[0-9]{1,4300}$", description="Where the page starts: next from the last page")


class Page(Result):
    outcomes: list[dict[str, Any]] = Field(description="Outcomes in the outcome format, canonical")
    next: str | None = Field(description="The cursor of the next page; null after the last")

    def to_json(self) -> Any:
        return self.model_dump(mode="json")


class Sample(Params):
    """Uniformly random legal outcomes (with replacement)."""

    n: Whole = Field(1, ge=1, le=MAX_PAGE, description="How many")
    seed: Whole | None = Field(None, description="The seed: the same seed, the same outcomes")


class Outcomes(Result):
    outcomes: list[dict[str, Any]] = Field(description="Outcomes in the outcome format, canonical")


class Best(Params):
    """The legal outcome with the highest score."""

    score: Any = _document("score", "The score (the score format)", option=True)


class BestResult(Result):
    score: int = Field(description="Its score")
    proven: bool = Field(description="False when the time limit stopped the search before optimality was proven")
    outcome: dict[str, Any] = Field(description="The outcome, canonical")

    def code(self) -> int:
        return 0 if self.proven else 3


class Explain(Params):
    """What explain --json prints."""


class Steps(Params):
    """A walk, decision by decision: the decisions so far (ids or readable forms)."""

    decisions: list[Whole | StrictStr] = Field(default_factory=list, description="The decisions taken so far, in order")


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


class Draw(Steps):
    """The stack as an SVG picture: the walk so far, or a proposal with its violations."""

    proposal: Any = Field(None, description="A proposal to draw with check's violations, instead of the walk")
    width: Whole = Field(560, ge=280, le=1600, description="The picture's width in pixels (text keeps its size)")


class DecisionItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: int = Field(description="Its fixed id")
    text: str = Field(description="Its readable form, e.g. 'put E', 'mode E:counter', 'target SWB'")
    kind: str = Field(description="put, remove, mode, end modes, target, end targets or divide")


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
    reason: str | None = Field(None, description="Why it is not (null when legal), from the facts explain uses")
    rule: str | None = Field(None, description="The rule it would break (null where none does)")

    def text(self) -> str:
        if self.legal:
            return f"{self.decision}: legal now"
        return f"{self.decision}: not legal now: {self.reason}" + (f" ({self.rule})" if self.rule else "")


class MaskResult(Result):
    size: int = Field(description="How many decision ids there are")
    mask: list[int] = Field(description="1 for each legal decision id, 0 otherwise")


class Reachable(Result):
    count: int = Field(description="Distinct outcomes the walk can still end in")
    exact: bool = Field(description="False when counting stopped at cap")


class Picture(Result):
    svg: str = Field(description="An SVG document: the stack top first, each entry's choices, blocks, violations")

    def text(self) -> str:
        return self.svg

    def picture(self) -> str | None:
        return self.svg


class OutcomeResult(Result):
    outcome: dict[str, Any] = Field(description="The outcome the finished walk reached")


class Plain(Result):
    """A result that is already its JSON (check's verdict, explain's report): ``value``, shown as
    ``shown``, drawn by ``picture`` and ending the command line with ``exit``."""

    value: Any
    shown: str = ""
    exit: int = 0
    _picture: Callable[[], str] | None = PrivateAttr(None)

    def drawn(self, picture: Callable[[], str]) -> Plain:
        self._picture = picture
        return self

    def to_json(self) -> Any:
        return self.value

    def text(self) -> str:
        return self.shown

    def picture(self) -> str | None:
        return None if self._picture is None else self._picture()

    def code(self) -> int:
        return self.exit


# -- what answers each verb ------------------------------------------------------------------------


def _check(legal: LegalOutcomes, p: Check) -> Plain:
    from .draw import verdict_svg

    proposal = within("proposal", parse_outcome, p.proposal)
    try:
        verdict = legal.check(proposal)
    except ProposalError as exc:  # passes that do not add up: the proposal's place
        raise exc.within("proposal") from None
    result = Plain(value=verdict.as_dict(), shown=verdict.text(), exit=0 if verdict.legal else 1)
    return result.drawn(lambda: verdict_svg(legal.facts, proposal, verdict))


def _count(legal: LegalOutcomes, p: Count) -> CountResult:
    found = legal.counted()
    divide = [Divided(first=first, count=n) for first, n in legal.divide()] if p.divide else None
    return CountResult(count=found.count, divide=divide, engine=found.engine, path=found.path)


def _enumerate(legal: LegalOutcomes, p: Enumerate) -> Page:
    total = legal.count()
    start = int(p.cursor)
    end = min(total, start + p.limit)
    return Page(outcomes=[outcome_dict(legal[i]) for i in range(start, end)], next=str(end) if end < total else None)


def _sample(legal: LegalOutcomes, p: Sample) -> Outcomes:
    return Outcomes(outcomes=[outcome_dict(o) for o in legal.sample(p.n, p.seed)])


def _best(legal: LegalOutcomes, p: Best) -> BestResult:
    try:
        found = legal.best(within("score", parse_score, p.score))
    except ScenarioError as exc:
        if exc.loc and exc.loc[0] in ("height", "mode", "target", "removed"):  # what the score names
            raise exc.within("score") from None
        raise
    return BestResult(score=found.score, proven=found.proven, outcome=outcome_dict(found.outcome))


def _explain(legal: LegalOutcomes, _: Explain) -> Plain:
    from .draw import outcome_svg

    explained = legal.explain()
    result = Plain(value=explained.to_json(), shown=explained.text())
    return result.drawn(lambda: outcome_svg(legal.facts, legal[0], (), f"one legal outcome of {legal.count()}"))


def _state(legal: LegalOutcomes, p: StepLegal, decision: int | str | None = None) -> StepState:
    stepper = legal.stepper()
    walk = stepper.walk(p.decisions)
    if decision is not None:
        walk = stepper.apply(walk, decision)
    taken = 0
    if p.auto:
        walk, taken = stepper.forced(walk)
    moves = stepper.legal(walk)
    return StepState(
        decisions=list(walk.decisions),
        legal=[DecisionItem(id=d.id, text=d.text, kind=d.kind.value) for d in moves],
        decider=stepper.decider(walk),
        over=not moves,
        auto_applied=taken,
        in_pass=stepper.pass_number(walk),
        in_hand=(stepper.in_hand(walk) or (None,))[0],
    )


def _step_apply(legal: LegalOutcomes, p: StepApply) -> StepState:
    return _state(legal, p, p.decision)


def _step_why(legal: LegalOutcomes, p: StepWhy) -> WhyResult:
    stepper = legal.stepper()
    walk = stepper.walk(p.decisions)
    asked = stepper.decision(p.decision)  # IllegalDecision for a decision this scenario does not have
    if any(d.id == asked.id for d in stepper.legal(walk)):
        return WhyResult(decision=asked.text, legal=True)
    why = stepper.why_illegal(walk, asked)
    rule = None if why.rule is None else why.rule.value
    return WhyResult(decision=asked.text, legal=False, reason=why.text, rule=rule)


def _step_mask(legal: LegalOutcomes, p: Steps) -> MaskResult:
    stepper = legal.stepper()
    return MaskResult(size=stepper.size, mask=[int(b) for b in stepper.mask(stepper.walk(p.decisions))])


def _step_outcome(legal: LegalOutcomes, p: Steps) -> OutcomeResult:
    stepper = legal.stepper()
    return OutcomeResult(outcome=outcome_dict(stepper.outcome(stepper.walk(p.decisions))))


def _step_count(legal: LegalOutcomes, p: StepCount) -> Reachable:
    if not p.decisions:
        return Reachable(count=legal.count(), exact=True)
    count, exact = legal.reachable(p.decisions, p.cap)
    return Reachable(count=count, exact=exact)


def _draw(legal: LegalOutcomes, p: Draw) -> Picture:
    from .draw import outcome_svg, verdict_svg

    if p.proposal is not None:
        proposal = within("proposal", parse_outcome, p.proposal)
        return Picture(svg=verdict_svg(legal.facts, proposal, legal.check(proposal), p.width))
    stepper = legal.stepper()
    walk = stepper.walk(p.decisions)
    over = not stepper.legal(walk)
    title = "the stack built: over" if over else "the stack built so far"
    if stepper.pass_number(walk) > 1 and not over:
        title += f" (pass {stepper.pass_number(walk)} of 603.3b: abilities that triggered meanwhile)"
    shown = outcome_svg(legal.facts, stepper.so_far(walk), (), title, stepper.in_hand(walk), p.width)
    return Picture(svg=shown)


P = TypeVar("P", bound=Params)


@dataclass(frozen=True)
class Verb(Generic[P]):
    """One verb: its name (``step.apply``), its parameters, the schema of its result, and what answers it."""

    name: str
    params: type[P]
    result: type[BaseModel]
    run: Callable[[LegalOutcomes, P], Result]
    pictured: bool = False
    """Whether its answer has a picture (``--format svg``)."""
    lines: Callable[[LegalOutcomes, P], Iterator[str]] | None = None
    """Its answer as lines, streamed as they come (the command line), where it has them."""

    @property
    def summary(self) -> str:
        return (self.params.__doc__ or "").strip().splitlines()[0]


def _verbs(*verbs: Verb[Any]) -> dict[str, Verb[Any]]:
    return {v.name: v for v in verbs}


VERBS: dict[str, Verb[Any]] = _verbs(
    Verb("check", Check, VerdictReport, _check, pictured=True),
    Verb("count", Count, CountResult, _count),
    Verb("enumerate", Enumerate, Page, _enumerate, lines=lambda legal, p: legal.lines(p.limit)),
    Verb("sample", Sample, Outcomes, _sample, lines=lambda legal, p: legal.sample_lines(p.n, p.seed)),
    Verb("best", Best, BestResult, _best),
    Verb("explain", Explain, Explanation, _explain, pictured=True),
    Verb("step.legal", StepLegal, StepState, _state),
    Verb("step.apply", StepApply, StepState, _step_apply),
    Verb("step.why", StepWhy, WhyResult, _step_why),
    Verb("step.mask", Steps, MaskResult, _step_mask),
    Verb("step.outcome", Steps, OutcomeResult, _step_outcome),
    Verb("step.count", StepCount, Reachable, _step_count),
    Verb("draw", Draw, Picture, _draw),
)
"""Every verb, in the order the documents list them."""


T = TypeVar("T")


def within(param: str, parse: Callable[[Any], T], doc: Any) -> T:
    """``parse(doc)``, a bad document's place named from the parameter ``param`` (a document the
    command line has read already is taken as it is)."""
    if isinstance(doc, Outcome | Score):
        return doc  # type: ignore[return-value]
    try:
        return parse(doc)
    except ScenarioError as exc:
        raise exc.within(param) from None
