"""``--merge-identical``: outcomes that differ only by swapping identical abilities count once.

Two waiting abilities are *identical* when they have the same source, text, controller, part and
choices (the same trigger but for its id) — two Soul Warden triggers for two creatures entering.
Arena, XMage and Forge order such abilities automatically. Only independent abilities are merged
(an ability another one may target is not interchangeable with its twin).

Count: per block, the placed abilities are a sequence of group labels around the core slots, each
position with its own choice: Σ over how many of each group are placed of
(k + P)! / (k! · Π pᵍ!) · Π wᵍ^pᵍ. Enumeration keeps, from the product enumeration, the one outcome of
each class in which the placed members of every group are its lowest indices, bottom to top.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from itertools import islice
from math import factorial, perm

from triggerstack.model._facts import Facts
from triggerstack.model._outcome import Score

from ..._core.engine import Found
from ..._core.indexed import IndexedOutcome
from ..._errors import EngineCannot
from .engine import ProductEngine


def identical_groups(engine: ProductEngine) -> list[tuple[int, ...]]:
    """Groups (sorted indices) of identical independent abilities, in the same block."""
    facts: Facts = engine.facts
    coupled = set(engine.plan.coupled)
    keys: dict[str, list[int]] = {}
    for a in facts.abilities:
        if a.block is None or a.index in coupled:
            continue
        body = facts.scenario.triggers[a.index].model_dump(exclude={"id"}, mode="json")
        key = json.dumps([a.block, a.controller, body, a.must], sort_keys=True)
        keys.setdefault(key, []).append(a.index)
    return sorted(tuple(g) for g in keys.values())


def _block_total(engine: ProductEngine, block_index: int, k: int, groups: list[tuple[int, ...]]) -> int:
    block = engine.blocks[block_index]
    mine = [g for g in groups if g[0] in block.mandatory or g[0] in block.optional]
    poly: dict[int, Fraction] = {0: Fraction(1)}
    for g in mine:
        w = block.weight[g[0]]
        sizes = [len(g)] if g[0] in block.mandatory else list(range(len(g) + 1))
        nxt: dict[int, Fraction] = {}
        for placed, coeff in poly.items():
            for p in sizes:
                nxt[placed + p] = nxt.get(placed + p, Fraction(0)) + coeff * Fraction(w**p, factorial(p))
        poly = nxt
    total = sum((coeff * perm(k + placed, placed) for placed, coeff in poly.items()), Fraction(0))
    assert total.denominator == 1
    return int(total)


def merged_count(engine: ProductEngine) -> int:
    """The number of outcomes when identical abilities are interchangeable."""
    groups = identical_groups(engine)
    return engine.weighted(lambda b, k: _block_total(engine, b, k, groups))


def is_representative(outcome: IndexedOutcome, groups: list[tuple[int, ...]]) -> bool:
    """Whether ``outcome`` is its class's representative: each group's placed members are its lowest
    indices, in increasing order from the bottom."""
    order = [p.ability for p in outcome.stack]
    for g in groups:
        if len(g) < 2:
            continue
        members = set(g)
        placed = [a for a in order if a in members]
        if placed != list(g[: len(placed)]):
            return False
    return True


def iter_merged(engine: ProductEngine) -> Iterator[IndexedOutcome]:
    """One outcome per class, in the product engine's rank order."""
    groups = [g for g in identical_groups(engine) if len(g) > 1]
    return (o for o in engine if is_representative(o, groups))


class MergedEngine:
    """The product engine's pass with identical abilities interchangeable: count by formula,
    iterate one representative per class (in the product engine's rank order). It does not rank,
    unrank or optimise: those questions go to the plain engines."""

    name = "product"

    def __init__(self, engine: ProductEngine) -> None:
        self.engine = engine
        self.facts = engine.facts
        self.path = engine.path

    def count(self) -> int:
        return merged_count(self.engine)

    def __iter__(self) -> Iterator[IndexedOutcome]:
        return iter_merged(self.engine)

    def head(self, limit: int) -> Iterator[IndexedOutcome]:
        return islice(iter_merged(self.engine), limit)

    def _cannot(self) -> EngineCannot:
        return EngineCannot("--merge-identical answers count and enumerate only")

    def unrank(self, rank: int) -> IndexedOutcome:  # noqa: ARG002 - the engine interface
        raise self._cannot()

    def rank(self, outcome: IndexedOutcome) -> int:  # noqa: ARG002
        raise self._cannot()

    def __contains__(self, outcome: IndexedOutcome) -> bool:
        raise self._cannot()

    def best(self, score: Score) -> Found:  # noqa: ARG002
        raise self._cannot()
