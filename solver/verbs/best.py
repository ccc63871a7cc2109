"""``best``: the legal outcome with the highest score (docs/cli.md): the result, and the score checked
against the scenario. :func:`~.legal.best` answers."""

from __future__ import annotations

from dataclasses import dataclass

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import Facts
from triggerstack.model.outcome import Outcome, Score
from triggerstack.model.passes import Passes

__all__ = ["Best", "check_score"]


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
