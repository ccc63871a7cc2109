"""``count``: the exact number of legal outcomes (SPEC §3: distinct final stacks and removed sets)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from triggerstack.model.facts import Facts
from triggerstack.model.scenario import Scenario

from ..engines.select import chain_for
from ..options import OptionChanges, Options, prepare

__all__ = ["Counted", "count", "counted"]


@dataclass(frozen=True, slots=True)
class Counted:
    """A count, the engine that made it (of the first pass) and how (``product``, ``product+cpsat``…)."""

    count: int
    engine: str
    path: str


def counted(scenario: Scenario | Facts, options: Options | None = None, **changes: Unpack[OptionChanges]) -> Counted:
    """:func:`count`, with the engine and path that answered."""
    facts, opts, deadline = prepare(scenario, options, changes)
    chain = chain_for(facts, opts, deadline=deadline)
    return Counted(chain.count(), chain.first.name, chain.first.path)


def count(scenario: Scenario | Facts, options: Options | None = None, **changes: Unpack[OptionChanges]) -> int:
    """How many legal outcomes ``scenario`` has. A scenario with no waiting ability has one.

    ``merge_identical`` counts outcomes that differ only by swapping identical abilities once
    (the product engine only). With ``reactions`` in the scenario, or a ``next_pass`` function,
    the count covers every further pass of 603.3b."""
    return counted(scenario, options, **changes).count
