"""``best``: the legal outcome with the highest score (SPEC §7), proven optimal."""

from __future__ import annotations

from dataclasses import dataclass

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import Facts, facts_of
from triggerstack.model.outcome import Outcome, Score
from triggerstack.model.scenario import Scenario

from .engines import Engine, pick, raw_outcomes
from .fast import FastPass
from .passes import DEFAULT_MAX_PASSES
from .raw import Placed, RawOutcome, score_of, to_outcome

__all__ = ["Best", "best", "check_score"]


@dataclass(frozen=True, slots=True)
class Best:
    """The best outcome and its score; ``proven`` is True when the optimum is proven."""

    outcome: Outcome
    score: int
    proven: bool = True


def score_outcome(outcome: Outcome, score: Score) -> int:
    """The score of SPEC §7 of a whole outcome (every pass), read by ids."""
    total = 0
    for pos, e in enumerate(outcome.stack):
        total += score.height.get(e.ability, 0) * pos
        modes = score.mode.get(e.ability, {})
        targets = score.target.get(e.ability, {})
        for m in e.modes or ():
            total += modes.get(m.mode, 0)
            total += sum(targets.get(t, 0) for ts in m.targets.values() for t in ts)
        total += sum(targets.get(t, 0) for ts in e.targets.values() for t in ts)
    return total + sum(score.removed.get(r, 0) for r in outcome.removed)


def check_score(facts: Facts, score: Score, allow_fired: bool = False) -> None:
    """Every id a score names exists: abilities, their modes, and things to target (with
    reactions, abilities fired in later passes, ``REACTION@ABILITY``, may be named too)."""
    for key in ("height", "mode", "target", "removed"):
        for aid in getattr(score, key):
            if allow_fired and "@" in aid:
                continue
            if aid not in facts.ability_index:
                raise ScenarioError(f"unknown ability {aid!r}", (key, aid))
    for aid, modes in score.mode.items():
        if aid not in facts.ability_index:
            continue  # a fired ability: its modes are known only once it fires
        a = facts.abilities[facts.ability_index[aid]]
        for mid in modes:
            if mid not in a.mode_index:
                raise ScenarioError(f"{aid} has no mode {mid!r}", ("mode", aid, mid))
    for aid, things in score.target.items():
        for tid in things:
            if tid not in facts.thing_index:
                raise ScenarioError(f"unknown player, object or ability {tid!r}", ("target", aid, tid))


MAX_SCANNED = 200_000
"""The most options of one ability that ``best_by_parts`` scans for its best choice."""


def best_by_parts(fast: FastPass, score: Score) -> RawOutcome | None:
    """The optimum part by part, where the score splits: no coupled core, no optional ability
    (whose removal would move every later block), and few enough options to scan. Within a
    block, the heaviest ``height`` weight goes highest (rearrangement); each ability takes its
    best-scoring option. ``None`` when the score does not split so simply."""
    facts = fast.facts
    if fast.plan.coupled or any(b.optional for b in fast.blocks):
        return None
    if any(fast.options[a].count > MAX_SCANNED for b in fast.blocks for a in b.mandatory):
        return None
    stack: list[Placed] = []
    removed = list(fast.never)
    for block in fast.blocks:
        removed.extend(block.removed)
        height = [(score.height.get(facts.abilities[a].id, 0), a) for a in block.mandatory]
        for _, a in sorted(height):
            alone = [RawOutcome((Placed(a, c),), ()) for c in fast.options[a].as_list()]
            top = max(alone, key=lambda r: score_of(facts, r, score))  # height 0: modes and targets only
            stack.append(top.stack[0])
    return RawOutcome(tuple(stack), tuple(sorted(removed)))


def best(
    scenario: Scenario | Facts,
    score: Score,
    *,
    engine: Engine | str = Engine.AUTO,
    time_limit: float | None = None,
    max_passes: int = DEFAULT_MAX_PASSES,
) -> Best:
    """The legal outcome with the highest ``score``; ties go to the first in enumeration order
    for the enumerating engines, and to CP-SAT's choice for CP-SAT."""
    facts = facts_of(scenario)
    check_score(facts, score, allow_fired=bool(facts.scenario.reactions))
    chosen = pick(facts, engine)
    if facts.scenario.reactions:
        from .enumerate import outcomes

        leader: Outcome | None = None
        leader_score = 0
        for whole in outcomes(facts, engine=engine, time_limit=time_limit, max_passes=max_passes):
            value = score_outcome(whole, score)
            if leader is None or value > leader_score:
                leader, leader_score = whole, value
        assert leader is not None
        return Best(leader, leader_score)
    if chosen is Engine.FAST:
        from .fast import FastPass

        fast = FastPass(facts, time_limit=time_limit)
        split = best_by_parts(fast, score)
        if split is not None:
            return Best(to_outcome(facts, split), score_of(facts, split, score))
        chosen = Engine.CPSAT  # the score does not split over the parts: one model of the whole pass
    if chosen is Engine.CPSAT:
        from . import cpsat

        found = cpsat.best_raw(facts, score, time_limit=time_limit)
        return Best(to_outcome(facts, found.outcome), found.score)
    top = max(raw_outcomes(facts, engine, time_limit=time_limit), key=lambda r: score_of(facts, r, score))
    return Best(to_outcome(facts, top), score_of(facts, top, score))
