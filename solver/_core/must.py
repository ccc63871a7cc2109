""" "Must target" effects (601.2c): the one home of their maximality.

"If an effect says an object or player must be chosen as a target if able, the choices that obey
the greatest possible number of such effects are the legal ones." The modes are chosen before the
targets (601.2b), so a "must target" effect never forces a mode: choices are compared within one
*shape*, the same modes. The numbers of targets are part of the target choice, so they count:
"up to one target creature" with a must-target creature among the candidates must choose it.

``check``, the product engine (through :func:`iter_legal_choices`), CP-SAT
(:func:`obeys_outcome`) and ``step`` all ask this module; the python-constraint2 engine keeps its
own formulation on purpose (it is the cross-check).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from weakref import WeakKeyDictionary

from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._limits import NO_DEADLINE, Deadline
from triggerstack.model._numbers import counted

from .._errors import EngineCannot
from .choices import iter_choices, iter_divided, iter_mode_targets
from .indexed import Choice, IndexedOutcome

Shape = tuple[int, ...]
"""What a "must target" effect cannot change about a choice: its modes (sorted, repeats repeated)."""


def shape(choice: Choice) -> Shape:
    return tuple(m.mode for m in choice.modes)


def count_obeyed(a: AbilityFacts, things: Iterable[int]) -> int:
    """How many of ``a``'s "must target" effects the chosen ``things`` obey (one per effect)."""
    chosen = set(things)
    return sum(1 for t in a.must if t in chosen)


def most_obeyed(
    facts: Facts, a: AbilityFacts, modes: Sequence[int], on_stack: frozenset[int], deadline: Deadline = NO_DEADLINE
) -> int:
    """The greatest number of effects any legal target choice obeys with the modes ``modes``.

    Worked out once per scenario, ability, shape and the waiting abilities below that it could
    target (nothing else about the stack bears on it), and the search stops as soon as it obeys
    every effect some requirement of those modes could take at all: an effect nothing can obey
    made every proposal search every choice of its shape afresh (40 ms a ``check``)."""
    if not a.must:
        return 0
    memo = _MEMO.get(facts)
    if memo is None:
        memo = _MEMO[facts] = {}
    key = (a.index, tuple(sorted(modes)), on_stack & a.waiting_targets)
    found = memo.get(key)
    if found is None:
        found = memo[key] = _most_obeyed(facts, a, key[1], on_stack, deadline)
    return found


_MEMO: WeakKeyDictionary[Facts, dict[tuple[int, Shape, frozenset[int]], int]] = WeakKeyDictionary()


def _ceiling(facts: Facts, a: AbilityFacts, modes: Sequence[int], on_stack: frozenset[int]) -> int:
    """The effects whose thing some requirement of ``modes`` could take at all: no choice obeys more."""
    reachable: set[int] = set()
    for m in set(modes):
        for r in a.modes[m].requirements:
            reachable.update(facts.available(r, on_stack))
    return sum(1 for t in a.must if t in reachable)


def _most_obeyed(
    facts: Facts, a: AbilityFacts, modes: Sequence[int], on_stack: frozenset[int], deadline: Deadline
) -> int:
    ceiling = _ceiling(facts, a, modes, on_stack)
    best = 0
    if not ceiling:
        return best

    def rec(k: int, used: frozenset[int], things: frozenset[int]) -> None:
        nonlocal best
        if k == len(modes):
            best = max(best, count_obeyed(a, things))
            return
        forbidden = used if a.distinct_targets else frozenset()
        for targets in iter_mode_targets(facts, a, modes[k], on_stack, forbidden):
            deadline.check(f"looking for the most 'must target' effects {a.id} can obey")
            picked = frozenset(t for ts in targets for t in ts)
            rec(k + 1, used | picked, things | picked)
            if best == ceiling:
                return

    rec(0, frozenset(), frozenset())
    return best


def _obeys_most(facts: Facts, a: AbilityFacts, choice: Choice, on_stack: frozenset[int]) -> bool:
    modes = [i.mode for i in choice.modes]
    return count_obeyed(a, choice.things()) >= most_obeyed(facts, a, modes, on_stack)


def obeys_outcome(facts: Facts, outcome: IndexedOutcome) -> bool:
    """601.2c for a whole pass: each placed ability obeys as many effects as any legal choice of
    its shape could, given what is below it."""
    below: set[int] = set()
    for p in outcome.stack:
        a = facts.abilities[p.ability]
        if a.must and not _obeys_most(facts, a, p.choice, frozenset(below)):
            return False
        below.add(p.ability)
    return True


def iter_legal_choices(
    facts: Facts,
    a: AbilityFacts,
    on_stack: frozenset[int],
    limit: int | None = None,
    deadline: Deadline = NO_DEADLINE,
    having: int | None = None,
) -> Iterator[Choice]:
    """Every legal complete choice of ``a`` with ``on_stack`` below — modes, targets, divisions —
    obeying the greatest possible number of "must target" effects for its shape (``having``: only
    those that choose that mode). With ``limit``, finding more than that many is refused
    (:class:`EngineCannot`), so nothing lists without bound; the deadline is checked as the search
    goes."""
    found = _bounded(iter_choices(facts, a, on_stack, deadline, having), a, limit, deadline)
    for choice in found:
        # one at a time, against the most its shape obeys (searched once, kept): the choices were
        # listed whole first, to find that most among them — 12 GB and past for a test's scenario
        # with a must-target effect and millions of choices (issue 52's workers OOM-killed at 23 GB)
        if a.must and count_obeyed(a, choice.things()) < most_obeyed(facts, a, shape(choice), on_stack, deadline):
            continue
        yield from _bounded(iter_divided(a, choice), a, limit, deadline)


def _bounded(choices: Iterator[Choice], a: AbilityFacts, limit: int | None, deadline: Deadline) -> Iterator[Choice]:
    for n, choice in enumerate(choices, 1):
        if n % 1024 == 0:
            deadline.check(f"listing the choices of {a.id}")
        if limit is not None and n > limit:
            raise EngineCannot(
                f"{a.id} has more than {counted(limit, 'legal choices')} that are listed one by one (its targets are "
                "linked by different_from, target_of, distinct modes or a must-target effect); raise it with "
                "--max-choices"
            )
        yield choice
