"""``best``: the legal outcome with the highest score (SPEC §7)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import Facts
from triggerstack.model.outcome import Outcome, Score
from triggerstack.model.passes import Passes
from triggerstack.model.scenario import Scenario

from ..engines.select import Task, chain_for
from ..options import OptionChanges, Options, prepare

__all__ = ["Best", "best", "check_score"]


@dataclass(frozen=True, slots=True)
class Best:
    """The best outcome and its score; ``proven`` is False when the time limit stopped CP-SAT with
    this outcome found but its optimality not proven."""

    outcome: Outcome
    score: int
    proven: bool = True


def check_score(facts: Facts, score: Score, passes: Passes | None = None) -> None:
    """Every id a score names exists: abilities, their modes, and things to target. Across the
    passes of 603.3b, abilities fired later may be named too: ``REACTION@ABILITY`` with
    reactions, and any id with an engine's ``next_pass`` hook (what it fires is its own)."""
    hook = passes is not None and passes.next_pass is not None
    fired = passes is not None and not passes.single
    for key in ("height", "mode", "target", "removed"):
        for aid in getattr(score, key):
            if hook or (fired and "@" in aid):
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


def best(
    scenario: Scenario | Facts, score: Score, options: Options | None = None, **changes: Unpack[OptionChanges]
) -> Best:
    """The legal outcome with the highest ``score``; ties go to the first in the engine's order
    for the enumerating engines, and to CP-SAT's choice for CP-SAT."""
    facts, opts, deadline = prepare(scenario, options, changes)
    check_score(facts, score, Passes(facts, opts.next_pass))
    chain = chain_for(facts, opts, Task.BEST, deadline=deadline)
    outcome, value, proven = chain.best(score)
    return Best(outcome, value, proven)
