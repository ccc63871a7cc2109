"""APNAP order (101.4) and the blocks of 603.3b, with the variants ``cr-1p`` and ``2hg`` (805.7).

A *block* is one group of abilities that one player (or, in ``2hg``, one team) puts on the stack
in any order they choose; blocks go on the stack one after another, the first lowest.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ._rules import Rule
from ._shapes import ScenarioFields
from ._slots import interned, pickled
from ._types import PlayerId


@interned
@pickled()
@dataclass(frozen=True, slots=True)
class Block:
    """One step of 603.3b: ``players`` put ``abilities`` (indices) on the stack in any order."""

    index: int
    part: int  # 1 or 2 (603.3b); 1 for the single-pass variants
    players: tuple[PlayerId, ...]
    abilities: tuple[int, ...]
    rule: Rule

    def describe(self) -> str:
        """``A's part-1 abilities``, ``A+C's abilities`` (a 2HG team)."""
        who = "+".join(self.players)
        return f"{who}'s part-{self.part} abilities" if self.rule is Rule.R603_3B else f"{who}'s abilities"


def apnap_order(scenario: ScenarioFields) -> tuple[PlayerId, ...]:
    """The players still in the game, the active player first, then in turn order (101.4)."""
    return tuple(p.id for p in scenario.players if not p.left_game)


def _teams(scenario: ScenarioFields) -> tuple[tuple[PlayerId, ...], ...]:
    if scenario.rules == "2hg" and scenario.teams is not None:
        return tuple(scenario.teams)
    return tuple((p.id,) for p in scenario.players)


def opponent_relation(scenario: ScenarioFields) -> dict[PlayerId, frozenset[PlayerId]]:
    """Each player's opponents: every other player, or in ``2hg`` the players of other teams."""
    team_of = {p: team for team in _teams(scenario) for p in team}
    everyone = [p.id for p in scenario.players]
    return {p: frozenset(q for q in everyone if q not in team_of.get(p, (p,))) for p in everyone}


def has_parts(scenario: ScenarioFields) -> bool:
    """Whether the scenario's rules put abilities in two parts (603.3b, ``seed``): ``cr-1p`` (101.4)
    and ``2hg`` (805.7) have one APNAP pass, so an ability triggered by another's triggering is in
    no part of its own there (docs/formats.md, ``condition``)."""
    return scenario.rules not in ("2hg", "cr-1p")


def build_blocks(
    scenario: ScenarioFields, controllers: Sequence[PlayerId | None], parts: Sequence[int]
) -> tuple[tuple[Block, ...], tuple[int | None, ...]]:
    """The blocks in stack order, and each ability's block (``None``: never put on the stack).

    ``controllers[i]`` is ability i's controller (``None`` if it has left the game) and
    ``parts[i]`` its part of 603.3b (2 when its trigger condition is another ability triggering and
    the rules have parts, :func:`has_parts`; read only under those rules).
    """
    left = {p.id for p in scenario.players if p.left_game}
    if scenario.rules == "2hg":
        groups = [tuple(p for p in team if p not in left) for team in _teams(scenario)]
        schedule = [(1, g, Rule.R805_7) for g in groups if g]
    elif scenario.rules == "cr-1p":
        schedule = [(1, (p,), Rule.R101_4) for p in apnap_order(scenario)]
    else:
        order = apnap_order(scenario)
        schedule = [(part, (p,), Rule.R603_3B) for part in (1, 2) for p in order]
    blocks: list[Block] = []
    of_ability: list[int | None] = [None] * len(controllers)
    for part, group, rule in schedule:
        members = tuple(
            i
            for i, c in enumerate(controllers)
            if c is not None and c in group and (rule is not Rule.R603_3B or parts[i] == part)
        )
        if not members:
            continue
        for i in members:
            of_ability[i] = len(blocks)
        blocks.append(Block(len(blocks), part, group, members, rule))
    return tuple(blocks), tuple(of_ability)
