"""603.3 and 603.3b: each waiting ability is put on the stack or removed once, block by block in
APNAP order, each pass above the passes before it; what did not trigger is not placed."""

from __future__ import annotations

from collections.abc import Sequence

from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._rules import Code, Rule
from triggerstack.model._text import typed

from ._reason import Reason, cite


def placed_twice(aid: str, first: int, second: int) -> Reason:
    return Reason.of(Code.DUPLICATE_ABILITY, f"{aid} is on the stack twice (stack[{first}] and stack[{second}])")


def removed_twice(aid: str, times: int) -> Reason:
    return Reason.of(Code.DUPLICATE_ABILITY, f"{aid} is listed {times} times in removed")


def placed_and_removed(aid: str, place: int) -> Reason:
    return Reason.of(Code.DUPLICATE_ABILITY, f"{aid} is both on the stack (stack[{place}]) and removed")


def already_done(aid: str, removed: bool) -> Reason:
    """A walk's decision about an ability it has already put on the stack or removed."""
    where = "was already removed" if removed else "is already on the stack"
    return Reason.of(Code.DUPLICATE_ABILITY, f"{aid} {where}")


def walk_over() -> Reason:
    """Why no decision is legal once a walk is over."""
    return Reason(None, None, "the walk is over: every waiting ability is on the stack or removed")


def offered(said: str) -> Reason:
    """A walk's decision (``said`` as a sentence names it) that is legal now: it breaks no rule, and
    no sentence may say it does, whichever door asks."""
    return Reason(None, None, f"{said} is legal now: it is one of the decisions offered")


def put_first() -> Reason:
    """A walk's mode, target or part decision while no ability is being put on the stack."""
    return Reason(None, Rule.R603_3, "no ability is being put on the stack: choices are announced after its 'put'")


def not_yet(said: str, how: str) -> Reason:
    """A walk's decision (``said`` as a sentence names it: ``worded``) that is not legal now but that
    a legal outcome takes further on: it breaks no rule, and ``how`` says the way there."""
    return Reason(None, None, f"{said} is not offered yet, but it is legal further on: {how}", later=True)


def _then(path: Sequence[str], said: str) -> str:
    """A way there, said as the decisions to take first, then the decision (``said`` as a sentence
    names it: :func:`~._targets.worded`)."""
    if not path:
        return said
    return ", ".join(typed(p) for p in path) + f", then {said}"


def announce_then(said: str, aid: str, path: Sequence[str]) -> Reason:
    """"Not yet": the ability in hand, ``aid``, is announced first, then the puts and removals of
    ``path``, then the decision."""
    choice = f"{aid}'s choice ({cite(Rule.R601_2B, Rule.R601_2D, dash='–')})"
    return not_yet(said, f"finish announcing {choice}, then " + _then(path, said))


def first_then(said: str, path: Sequence[str], target_of: tuple[str, str] | None = None) -> Reason:
    """"Not yet": the puts and removals of ``path`` come first; ``target_of``: the decision's thing
    is a target of that ability, put last."""
    how = "first " + _then(path, said)
    if target_of is not None:
        how += f" ({target_of[0]} can be one of {target_of[1]}'s targets)"
    return not_yet(said, how)


def modes_first(said: str, aid: str, thing: str) -> Reason:
    """"Not yet": ``thing`` is a target of a mode of ``aid`` still to be chosen."""
    return not_yet(
        said, f"choose {aid}'s modes first ({cite(Rule.R601_2B)}): {thing} is a target of a mode still to choose"
    )


def next_requirement(said: str, aid: str, thing: str, dividing: bool) -> Reason:
    """"Not yet": ``thing`` can be a target of ``aid``'s next requirement, once the amount is divided
    (``dividing``) or the targets being chosen are ended."""
    first = f"finish dividing ({cite(Rule.R601_2D)})" if dividing else "say 'end targets' for the targets being chosen"
    return not_yet(said, f"{first}; {thing} can be a target of {aid}'s next requirement")


def undecided(decision: str, states: int) -> Reason:
    """A walk's decision whose later legality was not searched to the end (past ``states`` states)."""
    return Reason(
        None,
        None,
        f"{typed(decision)} is not legal now; whether a later decision allows it was not searched past "
        f"{states:,} states",
    )


def announce_first(aid: str) -> Reason:
    """A walk's put or remove decision while ``aid``'s modes and targets are being announced."""
    return Reason(None, Rule.R603_3, f"{aid} is being put on the stack: its modes and targets are announced first")


def missing(aid: str, depth: int) -> Reason:
    """An ability of pass ``depth`` (0: the first) that is neither placed nor removed."""
    if not depth:
        return Reason.of(Code.MISSING_ABILITY, f"{aid} is neither on the stack nor removed")
    # it waits there: put on the stack, or removed (one whose controller left the game always is, 800.4d)
    later = f" (it triggered during pass {depth}, so it waits in pass {depth + 1})"
    return Reason.of(Code.MISSING_ABILITY, f"{aid} is neither on the stack nor removed{later}", Rule.R603_3B)


def not_triggered(aid: str, place: int | None, single: bool) -> Reason:
    """A proposal names ``aid`` (at stack[``place``], or in removed) but no pass holds it."""
    where = f"{aid} (stack[{place}]) did not trigger" if place is not None else f"{aid} is removed but did not trigger"
    fired = " of the scenario" if single else " of the scenario, and no pass fired it"
    return Reason.of(Code.UNKNOWN_ABILITY, f"{where}: it is not a waiting ability{fired}")


def triggered_earlier(name: str, earlier: bool) -> Reason:
    """A walk's decision about an ability that is not waiting in the pass it is in."""
    if earlier:
        return Reason.of(Code.UNKNOWN_ABILITY, f"{name} was put on the stack or removed in an earlier pass")
    return Reason.of(Code.UNKNOWN_ABILITY, f"{name} is not waiting in this pass: it has not triggered")


def passes_mismatch(given: Sequence[int], held: Sequence[int]) -> Reason:
    held_by = f"the passes of {cite(Rule.R603_3B)} hold {list(held)}"
    return Reason.of(Code.ORDER, f"passes says {list(given)} entries per pass, but {held_by}")


def _block_name(facts: Facts, a: AbilityFacts) -> str:
    assert a.block is not None
    return facts.blocks[a.block].describe()


def block_order(facts: Facts, a: AbilityFacts, other: AbilityFacts, below: bool) -> Reason:
    """``a`` lies ``below`` (else above) ``other``, of an earlier (else later) block."""
    assert a.block is not None
    first = other if below else a
    rule = facts.blocks[a.block].rule
    return Reason.of(
        Code.ORDER,
        f"{a.id} ({_block_name(facts, a)}) is {'below' if below else 'above'} {other.id} "
        f"({_block_name(facts, other)}); {_block_name(facts, first)} go on the stack first, below",
        rule if rule is not Rule.R101_4 else Rule.R603_3B,
    )


def later_block(facts: Facts, a: AbilityFacts, current: int) -> Reason:
    """A walk's decision about ``a`` while an earlier block (``current``) is being put."""
    assert a.block is not None
    return Reason.of(
        Code.ORDER,
        f"{a.id} is among {facts.blocks[a.block].describe()}, which come after {facts.blocks[current].describe()}",
        Rule.R603_3B,
    )


def pass_order(aid: str, mine: int, other: str, theirs: int, below: bool) -> Reason:
    """``aid`` of pass ``mine`` (0: the first) lies ``below`` (else above) ``other`` of pass ``theirs``."""
    return Reason.of(
        Code.ORDER,
        f"{aid} (pass {mine + 1}) is {'below' if below else 'above'} {other} (pass {theirs + 1}); "
        "each pass goes on the stack above the passes before it",
    )


def longest_in_order(values: Sequence[int]) -> set[int]:
    """Positions of a longest non-decreasing subsequence (the earliest such, deterministic): the
    entries not blamed when an order is wrong, so one entry put too low is one violation."""
    n = len(values)
    length = [1] * n
    prev = [-1] * n
    for i in range(n):
        for j in range(i):
            if values[j] <= values[i] and length[j] + 1 > length[i]:
                length[i], prev[i] = length[j] + 1, j
    if not n:
        return set()
    i = max(range(n), key=lambda k: (length[k], -k))
    out = set()
    while i != -1:
        out.add(i)
        i = prev[i]
    return out
