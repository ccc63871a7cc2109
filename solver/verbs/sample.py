"""``sample``: legal outcomes drawn exactly uniformly, by unranking a uniform integer."""

from __future__ import annotations

import random
from typing import Unpack

from triggerstack.model.facts import Facts
from triggerstack.model.outcome import Outcome
from triggerstack.model.scenario import Scenario

from ..engines.select import chain_for
from ..options import OptionChanges, Options, prepare

__all__ = ["sample"]


def sample(
    scenario: Scenario | Facts,
    n: int = 1,
    seed: int | None = None,
    options: Options | None = None,
    **changes: Unpack[OptionChanges],
) -> list[Outcome]:
    """``n`` legal outcomes of ``scenario``, drawn independently and uniformly (with replacement);
    ``seed`` makes them repeatable.

    Each draw is a rank in ``[0, count)`` unranked: the product engine without any enumeration,
    the solver engines from their sorted list, and across passes by the counts of what each
    outcome of a pass leads to."""
    facts, opts, deadline = prepare(scenario, options, changes)
    chain = chain_for(facts, opts, deadline=deadline)
    rng = random.Random(seed)
    total = chain.ranks()
    drawn = []
    for _ in range(n):
        deadline.check(f"drawing {n} outcomes")
        drawn.append(chain.outcome(chain.unrank(rng.randrange(total))))
    return drawn
