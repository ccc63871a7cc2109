"""The product engine's plan: which abilities are coupled, and so how it answers.

Two abilities are *coupled* when one could target the other as a waiting ability (601.2c, 603.3b:
only once it is on the stack below, :meth:`~triggerstack.model.Facts.may_precede`): then the order
inside a block, and the choices, depend on each other. Every other ability's choices are the same
whatever is below it, so the pass is a product of independent parts (each block's order and each
ability's choices). The coupled abilities, if any, are solved together as one core by a direct search
(:mod:`~..._core.search`); the
rest is combined with them by counting.
"""

from __future__ import annotations

from dataclasses import dataclass

from triggerstack.model._facts import Facts

PRODUCT = "product"  # every ability independent: exact counting, ranking and lazy enumeration
PRODUCT_SEARCH = "product+search"  # a coupled core by direct search, combined with the rest by counting


@dataclass(frozen=True, slots=True)
class Plan:
    """The path taken (:data:`PRODUCT` or :data:`PRODUCT_SEARCH`) and the coupled abilities (sorted)."""

    path: str
    coupled: tuple[int, ...]


def plan(facts: Facts) -> Plan:
    """The abilities that may target another waiting ability that can be below them, and those
    targets; the path is a pure product when there are none."""
    coupled: set[int] = set()
    for a in facts.abilities:
        if a.forced_removal is None and a.precedable_targets:
            coupled.add(a.index)
            coupled.update(a.precedable_targets)
    return Plan(PRODUCT_SEARCH if coupled else PRODUCT, tuple(sorted(coupled)))
