"""What the legal outcomes of a pass do with each ability, read off the product engine without
enumerating them: whether it is placed (in every outcome, some, or none), and the modes and
targets some outcome chooses for it. ``explain`` states these, so it agrees with ``check`` and the
enumeration by construction (a property test compares them with the literal simulator's
outcomes).

An independent ability's placement is its block's classification (mandatory, optional, removed)
and its choices its choice space's :meth:`~..._core.space.ChoiceSpace.reach`; a coupled ability's
are found without listing the core's outcomes (:meth:`~..._core.search.Counting.reach`: the union of
its choice spaces over the places some outcome puts it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..._core.space import Reach
from .engine import ProductEngine


@dataclass
class Projection:
    """One ability across the legal outcomes of a pass."""

    placed: set[bool] = field(default_factory=set)  # True: placed in some outcome; False: removed in some
    reach: Reach = field(default_factory=Reach)

    @property
    def removal(self) -> str:
        """``must`` (removed in every outcome), ``cannot`` (placed in every one) or ``may``."""
        if self.placed == {False}:
            return "must"
        if self.placed == {True}:
            return "cannot"
        return "may"

    def update(self, other: Projection) -> None:
        self.placed |= other.placed
        self.reach.update(other.reach)


def project(engine: ProductEngine) -> list[Projection]:
    """Each ability's projection, by ability index."""
    out = [Projection() for _ in engine.facts.abilities]
    for block in engine.blocks:
        for k in block.mandatory:
            out[k].placed.add(True)
            out[k].reach.update(engine.spaces[k].reach())
        for k in block.optional:
            out[k].placed |= {True, False}
            out[k].reach.update(engine.spaces[k].reach())
        for k in block.removed:
            out[k].placed.add(False)
    for k in engine.never:
        out[k].placed.add(False)
    if engine.plan.coupled:
        for k, placed, reach in engine.core_reach():
            out[k].placed |= placed
            out[k].reach.update(reach)
    return out
