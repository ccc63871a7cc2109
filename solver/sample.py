"""``sample``: legal outcomes drawn exactly uniformly, by unranking a uniform integer."""

from __future__ import annotations

import random

from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.limits import DEFAULT_LIMITS
from triggerstack.model.outcome import Outcome
from triggerstack.model.scenario import Scenario

from .engines import Engine, pick, raw_outcomes
from .errors import EngineCannot
from .passes import DEFAULT_MAX_PASSES
from .raw import RawOutcome, to_outcome

__all__ = ["sample", "sample_raw"]


def sample_raw(
    facts: Facts,
    n: int,
    seed: int | None = None,
    *,
    engine: Engine | str = Engine.AUTO,
    time_limit: float | None = None,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
) -> list[RawOutcome]:
    """``n`` outcomes drawn independently and uniformly (with replacement).

    The fast path draws a rank in ``[0, count)`` and unranks it (no enumeration, any size); the
    solver engines enumerate every outcome and draw from the list, which is exact but costs the
    whole enumeration.
    """
    rng = random.Random(seed)
    if pick(facts, engine) is Engine.FAST:
        from .fast import FastPass

        fast = FastPass(facts, time_limit=time_limit)
        return [fast.unrank(rng.randrange(fast.count)) for _ in range(n)]
    found = list(raw_outcomes(facts, engine, time_limit=time_limit, max_outcomes=max_outcomes))
    return [found[rng.randrange(len(found))] for _ in range(n)]


def sample(
    scenario: Scenario | Facts,
    n: int = 1,
    seed: int | None = None,
    *,
    engine: Engine | str = Engine.AUTO,
    time_limit: float | None = None,
    max_outcomes: int = DEFAULT_LIMITS.outcomes,
    max_passes: int = DEFAULT_MAX_PASSES,
) -> list[Outcome]:
    """``n`` legal outcomes of ``scenario``, each uniformly random; ``seed`` makes them repeatable."""
    facts = facts_of(scenario)
    if facts.scenario.reactions:
        # Several passes: every whole outcome is listed (bounded by max_outcomes), then drawn from.
        from itertools import islice

        from .enumerate import outcomes

        found = outcomes(facts, engine=engine, time_limit=time_limit, max_passes=max_passes)
        every = list(islice(found, max_outcomes + 1))
        if len(every) > max_outcomes:
            raise EngineCannot(
                f"sampling across passes lists every outcome; there are more than {max_outcomes} "
                "(raise it with --max-outcomes)"
            )
        rng = random.Random(seed)
        return [every[rng.randrange(len(every))] for _ in range(n)]
    drawn = sample_raw(facts, n, seed, engine=engine, time_limit=time_limit, max_outcomes=max_outcomes)
    return [to_outcome(facts, r) for r in drawn]
