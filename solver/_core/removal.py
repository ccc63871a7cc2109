"""When may an ability be removed? (603.3c–d): the abilities of earlier blocks that decide it.

An ability without a legal choice at the start of its block is removed; what is on the stack
then is the abilities of earlier blocks that were put there. Only those it could target matter
(:attr:`~triggerstack.model.AbilityFacts.earlier_targets`), and having a legal choice only becomes
easier as more of them are on the stack. So the lawful removals are described by the *minimal
enabling sets*: the smallest sets of earlier-block abilities whose presence gives it a legal
choice. Engines encode "removed ⇒ no enabling set is fully on the stack".
"""

from __future__ import annotations

from itertools import combinations

from triggerstack.model._facts import AbilityFacts, Facts

from .._errors import EngineCannot
from .space import has_legal_choice

MAX_RELEVANT = 14
"""More earlier-block abilities than this that one ability could target: too many subsets."""


def minimal_enabling_sets(facts: Facts, a: AbilityFacts) -> tuple[frozenset[int], ...] | None:
    """The minimal sets of earlier-block abilities that give ``a`` a legal choice when they are
    on the stack; ``()`` if none does (removal always lawful); ``None`` if its removal is always
    lawful for another reason (illegal, left the game, or zero modes allowed)."""
    if a.forced_removal is not None or a.may_choose_zero:
        return None
    relevant = sorted(a.earlier_targets)
    if len(relevant) > MAX_RELEVANT:
        raise EngineCannot(
            f"{a.id} could target {len(relevant)} abilities of earlier blocks; at most {MAX_RELEVANT} are supported"
        )
    found: list[frozenset[int]] = []
    for n in range(len(relevant) + 1):
        for subset in combinations(relevant, n):
            s = frozenset(subset)
            if any(f <= s for f in found):
                continue
            if has_legal_choice(facts, a, s):
                found.append(s)
    return tuple(found)
