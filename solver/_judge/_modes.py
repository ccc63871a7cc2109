"""700.2 and 603.3c: how many modes, which, whether one may repeat, and a mode that can't be chosen
because it has no legal targets when its ability is put on the stack."""

from __future__ import annotations

from functools import lru_cache

from triggerstack.model._facts import AbilityFacts, ModeFacts
from triggerstack.model._rules import Code, Rule
from triggerstack.model._text import typed

from ._reason import Reason, cite


def modes_of_unmodal(a: AbilityFacts) -> Reason:
    return Reason.of(Code.MODE_UNKNOWN, f"{a.id} is not modal: it takes no modes")


def targets_outside_modes(a: AbilityFacts, key: str) -> Reason:
    """A modal ability given ``targets`` or ``divide`` outside its modes."""
    return Reason.of(Code.TARGET_UNKNOWN, f"{a.id} is modal: its {key} go under each chosen mode")


def mode_count(a: AbilityFacts, chosen: int) -> Reason:
    allowed = sorted(a.choose - {0})
    zero = " (choosing none removes it: list it in removed)" if a.may_choose_zero else ""
    return Reason.of(
        Code.MODE_COUNT, f"{a.id} has {chosen} modes chosen; allowed: {', '.join(map(str, allowed))}{zero}"
    )


def modes_miscounted(a: AbilityFacts, chosen: int) -> Reason | None:
    """700.2: ``chosen`` modes in a number the text does not allow (none on the stack: it is removed
    instead). What ``check`` says of an entry's modes and ``step`` of 'end modes' after ``chosen``."""
    return mode_count(a, chosen) if chosen not in a.choose or not chosen else None


def no_such_mode(a: AbilityFacts, mode: str) -> Reason:
    return Reason.of(Code.MODE_UNKNOWN, f"{a.id} has no mode {typed(mode)} (modes: {', '.join(a.mode_index)})")


def mode_not_its_own(a: AbilityFacts, owner: AbilityFacts, mode: str) -> Reason:
    """A walk's mode decision of ``owner`` while ``a`` is being announced."""
    return Reason.of(
        Code.MODE_UNKNOWN, f"{owner.id}:{_called(owner, mode)} is a mode of {owner.id}, not of {a.id} (in hand)"
    )


def mode_repeat(a: AbilityFacts, mode: str) -> Reason:
    return Reason.of(
        Code.MODE_REPEAT, f"{a.id} chooses mode {_called(a, mode)} more than once, which its text does not allow"
    )


def _called(a: AbilityFacts, mode: str) -> str:
    """A mode of ``a`` named by its id, as every sentence names it (with its words)."""
    k = a.mode_index.get(mode)
    return mode if k is None else a.modes[k].called


def mode_named(a: AbilityFacts, m: ModeFacts) -> str:
    """How every sentence names ``a``'s mode ``m``: ``T0's mode m1 “…”``; a non-modal ability's one
    mode, which has no id and often no words, ``T0's mode`` (it was ``T0's mode  can't …``)."""
    return _mode_named(a.id, m.called)


@lru_cache(maxsize=4096)
def _mode_named(ability: str, called: str) -> str:
    """:func:`mode_named` of an ability's id and a mode's words (a proposal's every target names
    its mode: 240,000 times in one explain)."""
    return " ".join(part for part in (f"{ability}'s mode", called) if part)


def mode_unavailable(a: AbilityFacts, m: ModeFacts) -> Reason:
    return Reason.of(
        Code.MODE_UNAVAILABLE, f"{mode_named(a, m)} is not available (chosen before, or its condition is unmet)"
    )


def mode_illegal(a: AbilityFacts, m: ModeFacts) -> Reason:
    """603.3c: a mode with no legal targets when ``a`` is put on the stack can't be chosen."""
    when = f"it has no legal targets when {a.id} is put on the stack"
    return Reason.of(Code.MODE_ILLEGAL, f"{mode_named(a, m)} can't be chosen: {when}")


def legal_only_if_below(a: AbilityFacts, m: ModeFacts) -> str:
    """What ``explain`` says of a mode legal in some outcomes only: those with its target below."""
    return f"{mode_named(a, m)} is legal only if an ability it can target is already on the stack below {a.id}"


def instance_named(a: AbilityFacts, m: ModeFacts, k: int, of: int) -> str:
    """How every sentence names the ``k``-th of ``of`` instances of ``a``'s mode ``m`` in a choice:
    as :func:`mode_named` where it is chosen once; ``T0's mode m0 (2nd of 3)`` where it is chosen
    again (700.2d) — "P0 is a target of both T0's mode m0 and T0's mode m0" named neither."""
    named = mode_named(a, m)
    return named if of == 1 else f"{named} ({ordinal(k)} of {of})"


def ordinal(k: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … ``11th``, ``21st``."""
    last = {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th") if k % 100 not in (11, 12, 13) else "th"
    return f"{k}{last}"


def shared_target(a: AbilityFacts, thing: str, where: list[str]) -> Reason:
    """700.2: modes that must target different things share ``thing``, a target of each of
    ``where`` (two or more mode instances): one violation a thing, however many share it."""
    held = f"both {where[0]} and {where[1]}" if len(where) == 2 else f"{', '.join(where[:-1])} and {where[-1]}"
    return Reason.of(
        Code.MODE_DISTINCT_TARGETS,
        f"{a.id}: {thing} is a target of {held}; each mode must target a different one",
    )


def instances_in_order(a: AbilityFacts, m: ModeFacts, said: str, order: list[list[str]]) -> Reason:
    """A walk's target, end of targets or part that a legal choice takes with the instances of a
    mode chosen more than once (700.2d) announced in another order: a walk announces them in one
    order (by their targets, then their divisions), and the choice is the same in any. It breaks no
    rule; ``order`` is how the instances of that legal choice are announced."""
    how = "; then ".join(" ".join(typed(w) for w in words) or "nothing" for words in order)
    return Reason(
        None,
        None,
        f"{said} is not offered in this order, but it is legal: a walk announces the instances of "
        f"{mode_named(a, m)}, chosen more than once ({cite(Rule.R700_2D)}), in order — by their targets, then "
        f"their divisions — and a legal choice of {a.id} takes it announced so: {how}",
    )
