"""The planner: which abilities are coupled, and which path answers.

Two abilities are *coupled* when one could target the other as a waiting ability (601.2c, 603.3b:
only once it is on the stack below): then the order inside a block, and the choices, depend on
each other. Every other ability's options are the same whatever is below it, so the pass is a
product of independent parts (each block's order and each ability's options). The coupled
abilities, if any, are solved together by CP-SAT; the rest is combined with them by counting.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from triggerstack.model.facts import Facts

__all__ = ["Path", "Plan", "plan"]


class Path(StrEnum):
    PRODUCT = "product"  # every ability independent: exact counting, ranking and lazy enumeration
    PRODUCT_CPSAT = "product+cpsat"  # coupled abilities through CP-SAT, combined with the rest by counting
    CPSAT = "cpsat"  # the whole pass as one CP-SAT model
    CONSTRAINT = "constraint"  # the whole pass as one python-constraint2 problem


@dataclass(frozen=True, slots=True)
class Plan:
    """The path taken and the abilities that are coupled (indices, sorted)."""

    path: Path
    coupled: tuple[int, ...]

    def as_dict(self, facts: Facts) -> dict[str, object]:
        coupled = set(self.coupled)
        return {
            "path": self.path.value,
            "coupled": [facts.abilities[k].id for k in self.coupled],
            "independent": [a.id for a in facts.abilities if a.index not in coupled],
        }


def coupled_abilities(facts: Facts) -> tuple[int, ...]:
    """Abilities that may target another waiting ability that can be below them, and those targets."""
    out: set[int] = set()
    for a in facts.abilities:
        if a.block is None or a.forced_removal is not None:
            continue
        for m in a.modes:
            for r in m.requirements:
                for t in r.candidates:
                    b = facts.waiting_ability(t)
                    if b is None:
                        continue
                    blk = facts.abilities[b].block
                    if blk is not None and blk <= a.block and facts.abilities[b].forced_removal is None:
                        out.update((a.index, b))
    return tuple(sorted(out))


def plan(facts: Facts) -> Plan:
    """The fast path for ``facts``: a pure product, or a product around a CP-SAT core."""
    coupled = coupled_abilities(facts)
    return Plan(Path.PRODUCT_CPSAT if coupled else Path.PRODUCT, coupled)
