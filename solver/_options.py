"""How a verb is answered: one frozen :class:`Options` object that every verb takes, the way
OR-Tools takes one parameters object, instead of the same keyword arguments repeated per verb;
the same fields as keyword arguments override the object's (``count(s, fast, engine="cpsat")``,
docs/python.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING, TypedDict
from weakref import WeakKeyDictionary

from triggerstack.model._args import default_time_limit, limits_of, truth_of
from triggerstack.model._errors import UsageError
from triggerstack.model._limits import DEFAULT_LIMITS, Limits, deadline_for, seconds_of
from triggerstack.model._text import found, typed

if TYPE_CHECKING:  # the facts and the pydantic models are imported where a verb needs them
    from triggerstack.model._facts import Facts
    from triggerstack.model._passes import NextPass
    from triggerstack.model._scenario import Scenario


class Engine(StrEnum):
    """Which engine answers. Every engine gives the same answers (the property tests hold them
    to it), so choosing one is for comparing and debugging.

    * ``auto``: the fastest exact engine for the scenario and the question (the one place that
      decides is ``engines.select``);
    * ``product``: counting, ranking and lazy enumeration by product over independent parts, with
      the abilities that may target each other solved together (by a direct search);
    * ``cpsat``: one OR-Tools CP-SAT model of the whole pass;
    * ``constraint``: an independent python-constraint2 formulation, for cross-checking.

    ``fast`` is accepted as another name for ``product`` (docs/cli.md).
    """

    AUTO = "auto"
    PRODUCT = "product"
    CPSAT = "cpsat"
    CONSTRAINT = "constraint"

    @classmethod
    def names(cls) -> list[str]:
        """Every name an engine is known by: the engines', and ``fast`` (``product``)."""
        return [*(e.value for e in cls), *_ALIASES]

    @classmethod
    def parse(cls, value: Engine | str) -> Engine:
        """The engine named ``value`` (``fast`` is ``product``); an unknown name is bad input."""
        if isinstance(value, Engine):
            return value
        if value in _ALIASES:
            return cls(_ALIASES[value])
        try:
            return cls(value)
        except ValueError:
            names = ", ".join(e.value for e in cls)
            raise UsageError(f"unknown engine {typed(str(value))} (engines: {names}; fast is product)") from None


_ALIASES = {"fast": "product"}
"""Other names of engines: docs/cli.md's first name for the product engine."""


@dataclass(frozen=True, slots=True)
class Options:
    """What every verb is answered with.

    ``engine``: see :class:`Engine` (a name is parsed once, here). ``time_limit``: seconds one call
    may take before it gives up (:class:`~triggerstack.solver.TimeLimitReached`, exit 3): 60 by
    default (``TRIGGERSTACK_TIME_LIMIT`` may say otherwise), ``None`` for no limit, else a finite
    number more than 0 (nan, infinity, 0, ``True`` and ``"5"`` are refused,
    :class:`~triggerstack.model.UsageError`); a generator (``outcomes``) counts the time from its
    first outcome asked for to its last. ``limits``: the size caps
    (:class:`~triggerstack.model.Limits`, passes included). ``next_pass``: an engine's own function
    deciding what triggers after each pass of 603.3b (:data:`~triggerstack.model.NextPass`);
    ``None`` reads the scenario's ``reactions``. ``merge_identical``: count and enumerate outcomes
    that only swap identical abilities once. The fields are written here only:
    :class:`OptionChanges`, their keyword form for type checkers, is held to them by a test.
    """

    engine: Engine | str = Engine.AUTO
    time_limit: float | None = field(default_factory=default_time_limit)
    limits: Limits = DEFAULT_LIMITS
    next_pass: NextPass | None = None
    merge_identical: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "engine", Engine.parse(self.engine))
        object.__setattr__(self, "time_limit", seconds_of(self.time_limit))  # model/_limits.py, as every door
        # each field read as it is given, as every argument of a Python door is (model/_args.py):
        # never a cap of nan, a truth of "no", or a next_pass that fails when the first pass ends
        object.__setattr__(self, "limits", limits_of(self.limits))
        object.__setattr__(self, "merge_identical", truth_of(self.merge_identical, "merge_identical"))
        if self.next_pass is not None and not callable(self.next_pass):
            wanted = "None or a function (pass scenario, placed outcome) -> the abilities that wait next"
            raise UsageError(f"next_pass: expected {wanted}, found {found(self.next_pass)}")


class OptionChanges(TypedDict, total=False):
    """The fields of :class:`Options`, as keyword arguments of the verbs (what a type checker reads
    of ``count(s, engine="cpsat")``; tests/test_options.py holds it to :class:`Options`)."""

    engine: Engine | str
    time_limit: float | None
    limits: Limits
    next_pass: NextPass | None
    merge_identical: bool


def resolve(options: Options | None, changes: OptionChanges) -> Options:
    """``options`` (the defaults if ``None``: built as the call is made, so the machine's
    ``TRIGGERSTACK_TIME_LIMIT`` is read then — at import, a bad one was a traceback before any
    command ran) with ``changes`` applied."""
    base = Options() if options is None else options
    return replace(base, **changes) if changes else base


_WITHIN: WeakKeyDictionary[Facts, set[Limits]] = WeakKeyDictionary()


def within_limits(facts: Facts, limits: Limits) -> Facts:
    """``facts`` once they are within ``limits``' size caps (:class:`~triggerstack.model.ScenarioError` naming the cap
    otherwise): the one place the caps of compiled facts are measured, once per facts and caps —
    a verb's call and the server's cache (``serve/cache.py``) alike, so facts the server compiled
    are not measured again when a verb is asked of them."""
    from triggerstack.model._facts import check_limits

    within = _WITHIN.setdefault(facts, set())
    if limits not in within:
        check_limits(facts, limits)
        within.add(limits)
    return facts


def prepare(scenario: Scenario | Facts, options: Options | None, changes: OptionChanges) -> tuple[Facts, Options]:
    """What a verb is answered from (each call builds its own deadline as it starts): the compiled
    facts of ``scenario`` (kept with it) and the resolved options, once the
    scenario is within the options' size caps (:class:`~triggerstack.model.ScenarioError` naming the cap otherwise; a
    scenario found within some caps is not measured again against them). A scenario not yet
    compiled is compiled within the time limit, as a call of its own."""
    from triggerstack.model._facts import Facts, facts_of, scenario_of

    scenario = scenario_of(scenario)  # a dict or a path is refused naming the argument
    resolved = resolve(options, changes)
    if isinstance(scenario, Facts):
        facts = scenario
    else:  # compiling stops at the first cap passed, and at the time limit
        facts = facts_of(scenario, resolved.limits, deadline_for(resolved.time_limit))
    return within_limits(facts, resolved.limits), resolved
