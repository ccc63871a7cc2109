"""Every outcome of a pass by direct search, each once: for the abilities that may target each
other (the product engine's coupled core), where what one may choose depends on what is below it.

Block by block (603.3b), the search first decides which abilities are removed — only those that
may be (603.3c–d: no legal choice at the start of the block, where only earlier blocks are on the
stack, or zero modes allowed, or never put on the stack at all) — and then puts the others on the
stack in every order, each with every legal choice given what is below it at that moment
(:func:`~.must.iter_legal_choices`, "must target" included). A removed set and a sequence of
placed choices is one outcome and no two are the same, so nothing is deduplicated; an order in
which some ability finds no legal choice where it stands leads to no outcome. Choices are listed
once per ability and per set of the waiting abilities it could target that are below it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from triggerstack.model.facts import Facts
from triggerstack.model.limits import NO_DEADLINE, Deadline

from ..errors import EngineCannot
from .choices import has_legal_choice
from .indexed import Choice, IndexedOutcome, Placed
from .must import iter_legal_choices

__all__ = ["search_outcomes"]


class _Search:
    def __init__(self, facts: Facts, max_choices: int, deadline: Deadline) -> None:
        self.facts = facts
        self.max_choices = max_choices
        self.deadline = deadline
        self._choices: dict[tuple[int, frozenset[int]], tuple[Choice, ...]] = {}
        self.steps = 0

    def choices(self, k: int, below: frozenset[int]) -> tuple[Choice, ...]:
        a = self.facts.abilities[k]
        key = (k, below & a.waiting_targets)  # only the waiting abilities it could target matter
        found = self._choices.get(key)
        if found is None:
            listed = iter_legal_choices(self.facts, a, key[1], self.max_choices, self.deadline)
            found = self._choices[key] = tuple(sorted(listed))
        return found

    def removable(self, k: int, below: frozenset[int]) -> bool:
        a = self.facts.abilities[k]
        return a.forced_removal is not None or a.may_choose_zero or not has_legal_choice(self.facts, a, below)

    def blocks(self, b: int, stack: tuple[Placed, ...], removed: tuple[int, ...]) -> Iterator[IndexedOutcome]:
        facts = self.facts
        if b == len(facts.blocks):
            yield IndexedOutcome(stack, tuple(sorted(removed)))
            return
        below = frozenset(p.ability for p in stack)
        mine = facts.blocks[b].abilities
        may_go = [k for k in mine if self.removable(k, below)]
        for n in range(len(may_go) + 1):
            for gone in combinations(may_go, n):
                placed = [k for k in mine if k not in gone]
                for rest in self.orders(placed, stack, below):
                    yield from self.blocks(b + 1, rest, (*removed, *gone))

    def orders(
        self, left: list[int], stack: tuple[Placed, ...], below: frozenset[int]
    ) -> Iterator[tuple[Placed, ...]]:
        if not left:
            yield stack
            return
        self.steps += 1
        if self.steps % 1024 == 0:
            self.deadline.check("searching the abilities that may target each other")
        for i, k in enumerate(left):
            others = left[:i] + left[i + 1 :]
            for choice in self.choices(k, below):
                yield from self.orders(others, (*stack, Placed(k, choice)), below | {k})


def search_outcomes(
    facts: Facts, max_outcomes: int, max_choices: int, deadline: Deadline = NO_DEADLINE
) -> list[IndexedOutcome]:
    """Every outcome of the pass of ``facts``, sorted; more than ``max_outcomes`` is refused
    (:class:`EngineCannot`, naming ``--max-outcomes``)."""
    never = tuple(a.index for a in facts.abilities if a.block is None)
    out: list[IndexedOutcome] = []
    for outcome in _Search(facts, max_choices, deadline).blocks(0, (), never):
        out.append(outcome)
        if len(out) > max_outcomes:
            raise EngineCannot(
                f"the abilities that may target each other have more than {max_outcomes} outcomes together, "
                "listed one by one (raise it with --max-outcomes)"
            )
    out.sort()
    return out
