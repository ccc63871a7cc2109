"""What one call keeps across the passes of 603.3b is bounded by ``--max-compiled``.

Rule 603.3b: the passes go on while something triggers, and a loop whose stack grows makes every
pass a new scenario. Each distinct later pass a call compiles is kept, with its engine and its
table, as long as the scenario is (issue 52: a count followed such a loop to 13.7 GB). Over
generated looping and branching reactions, every verb that follows passes, on every engine:

* no call compiles more than the cap (counted where the facts are compiled, outside the mechanism);
* past it, the call ends with ``PastCompiled`` naming ``--max-compiled``, or — a loop met first —
  the loop's error, whose count, where it stopped, says which flag lets it go further;
* a call the cap lets answer answers as the default limits do.

Private unit: model/_passes.py Passes.reach (the one place a later pass is compiled) and Passes._built, model/_limits.py
Deadline.compiled_one, solver/_core/chain.py Chain._follow's reading of a stopped count, and model/_numbers.py
counted (how the refusal says the cap).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any
from unittest import mock

import pytest
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st
from triggerstack.model import (
    EndlessLoop,
    Limits,
    PastCompiled,
    Scenario,
    ScenarioError,
    Score,
    compile_facts,
    outcome_json,
)
from triggerstack.model._numbers import counted
from triggerstack.model._passes import Passes
from triggerstack.solver import EngineCannot, TimeLimitReached, best, count, explain, outcomes, sample

from .strategies import SETTINGS, _relay, scenarios

pytestmark = pytest.mark.slow  # hundreds of generated scenarios, each asked once or twice

SECONDS = 5
"""The time limit of each call (CPU seconds, tests/property/conftest.py): a small cap ends far sooner."""


@contextmanager
def compiles() -> Iterator[list[int]]:
    """How many scenarios the passes compile while inside, counted around ``compile_facts`` itself."""
    made = [0]
    real = compile_facts

    def counted(*args: Any, **kwargs: Any) -> Any:
        made[0] += 1
        return real(*args, **kwargs)

    with mock.patch("triggerstack.model._passes.compile_facts", counted):
        yield made


VERBS: dict[str, Callable[..., object]] = {
    "count": lambda f, **kw: count(f, **kw),
    "enumerate": lambda f, **kw: [outcome_json(o) for o in outcomes(f, **kw)],
    "sample": lambda f, **kw: [outcome_json(o) for o in sample(f, 3, seed=1, **kw)],
    "best": lambda f, **kw: best(f, Score(), **kw).score,
    "explain": lambda f, **kw: explain(f, **kw).model_dump_json(),
}


@st.composite
def looping(draw: st.DrawFn) -> dict[str, Any]:
    """A generated scenario with reactions, half the time with a relay of 8 to 10 reactions too
    (``strategies._relay``: a long chain, sometimes a loop through it), which branch at every pass."""
    doc = draw(scenarios(max_abilities=3, reactions=True))
    if draw(st.booleans()) and not any(t["id"] == "RT" for t in doc["triggers"]):
        relay = draw(_relay([p if isinstance(p, str) else p["id"] for p in doc["players"]]))
        doc["objects"] = [*doc["objects"], *relay["objects"]]
        doc["triggers"] = [*doc["triggers"], relay["trigger"]]
        doc["reactions"] = [*doc["reactions"], *relay["reactions"]]
    return doc


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 5)  # each asks twice across passes: 84 s at 300
@given(
    doc=looping(),
    cap=st.integers(1, 40),
    verb=st.sampled_from(sorted(VERBS)),
    engine=st.sampled_from(["auto", "cpsat", "constraint"]),
)
def test_a_call_compiles_at_most_the_cap(doc: dict[str, Any], cap: int, verb: str, engine: str) -> None:
    """Issue 52: a call across passes keeps at most ``--max-compiled`` passes, and says so past it."""
    scenario = Scenario.model_validate(doc)
    assume(scenario.reactions)
    if verb == "explain" and engine != "auto":
        engine = "auto"  # explain answers with the product engine's reasons
    ask = VERBS[verb]
    options = {"engine": engine, "time_limit": SECONDS}
    with compiles() as made:
        try:
            answer: object = ask(compile_facts(scenario), limits=Limits(compiled=cap), **options)
        except PastCompiled as exc:
            event("refused past the cap")
            assert made[0] <= cap, (made[0], cap)
            assert "(raise it with --max-compiled)" in str(exc) and f"limit of {counted(cap, 'distinct passes')}" in str(exc)
            return
        except EndlessLoop as exc:
            event("a loop named" + (", its count stopped" if "count stopped" in str(exc) else ""))
            assert made[0] <= cap, (made[0], cap)
            stopped = re.search(r"the count stopped before it was complete(: raise (\S+))?\)", str(exc))
            assert stopped is None or stopped.group(2) in (None, "--time-limit", "--max-compiled", "--max-outcomes")
            return
        except (ScenarioError, EngineCannot, TimeLimitReached):
            assert made[0] <= cap, (made[0], cap)
            assume(False)  # past another cap (passes, outcomes, time): not this property's
            raise
        assert made[0] <= cap, (made[0], cap)
    event("answered" + (" across later passes" if made[0] else ""))
    try:
        default = ask(compile_facts(scenario), **options)  # the same passes, under the default cap
    except (ScenarioError, TimeLimitReached):
        assume(False)
        raise
    if verb != "explain":  # explain names the path it took, which may say how far it got
        assert answer == default


@settings(SETTINGS, max_examples=SETTINGS.max_examples // 5)
@given(doc=looping(), verb=st.sampled_from(["count", "explain"]))
def test_a_later_pass_built_from_validated_parts_is_the_validated_scenario(doc: dict[str, Any], verb: str) -> None:
    """Issue 52: a later pass that the scenario's reactions fired is built from the first pass's
    validated parts (``Passes._built``), not by validating its document again — and is, field for
    field and in the controllers derived (603.3a), the scenario validating that document gives,
    at every pass a verb compiles; never declined for a pass ``by_reactions`` fired (a decline
    would validate again, silently slower)."""
    scenario = Scenario.model_validate(doc)
    assume(scenario.reactions)
    built_at = [0]
    real = Passes._built

    def checked(self: Passes, data: dict[str, Any]) -> Scenario | None:
        built = real(self, data)
        validated = Scenario.model_validate(data, context={"later_pass": True})
        assert built is not None, "a pass the reactions fired was declined"
        assert built.model_dump(by_alias=True) == validated.model_dump(by_alias=True)
        assert built._controls == validated._controls
        built_at[0] += 1
        return built

    # a loop, a cap: the passes compiled before it were checked
    with mock.patch.object(Passes, "_built", checked), suppress(ScenarioError, EngineCannot, TimeLimitReached):
        VERBS[verb](compile_facts(scenario), limits=Limits(compiled=40), time_limit=SECONDS)
    event("later passes built" if built_at[0] else "no later pass")
