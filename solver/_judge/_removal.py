"""603.3c–d (and 800.4d): an ability is removed only when it has no legal choice when its block
starts, or is never put on the stack at all; one with a legal choice is put there."""

from __future__ import annotations

from collections.abc import Sequence

from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._rules import Code, Rule

from .._core.indexed import Choice
from ._reason import Reason, cite


def _forced(a: AbilityFacts) -> Reason:
    """Why ``a`` is never put on the stack: the rule (``AbilityFacts.forced_removal``) and its words."""
    if a.forced_removal is Rule.R603_3D:
        return Reason(None, Rule.R603_3D, f"illegal: {a.illegal}")
    if a.forced_removal is Rule.R800_4D:
        return Reason(None, Rule.R800_4D, f"{a.controller} has left the game")
    return Reason(None, Rule.R800_4D, "it is never put on the stack")


def never_put(a: AbilityFacts, placed: bool) -> Reason:
    """``a`` is never put on the stack (its controller left the game …); ``placed``: a proposal put it there."""
    why = _forced(a)
    said = "is on the stack but is never put there" if placed else "cannot be put on the stack"
    return Reason.of(Code.PLACED_BUT_ILLEGAL, f"{a.id} {said}: {why.text}", why.rule)


def must_be_removed(a: AbilityFacts) -> Reason:
    """603.3d: a walk puts ``a``, or a proposal has it on the stack, although it has no legal choice
    with what is below it (check tells this beside what its choice breaks; step refuses ``put``)."""
    return Reason.of(
        Code.PLACED_BUT_ILLEGAL, f"{a.id} has no legal choice with what is below it on the stack, so it is removed"
    )


def must_be_put(a: AbilityFacts) -> Reason:
    """603.3d: a walk removes ``a`` although it has a legal choice now and may not choose no mode."""
    if not a.modal and not any(m.requirements for m in a.modes):
        return Reason.of(
            Code.REMOVED_BUT_LEGAL, f"{a.id} has no mode or target to choose, so it is put on the stack, never removed"
        )
    return Reason.of(
        Code.REMOVED_BUT_LEGAL,
        f"{a.id} can be put on the stack now (it has a legal choice) and may not choose no mode, so it must be",
    )


def removed_but_legal(facts: Facts, a: AbilityFacts, block: str, example: Choice) -> Reason:
    """A proposal removes ``a`` though ``example`` was a legal choice at the start of its ``block``."""
    what = []
    for inst in example.modes:
        m = a.modes[inst.mode]
        tgt = "; ".join(
            f"{r.called}: {_names(facts, ts) or 'none'}" for r, ts in zip(m.requirements, inst.targets, strict=True)
        )
        what.append(f"{m.called if m.id else 'its effect'}" + (f" ({tgt})" if tgt else ""))
    return Reason.of(
        Code.REMOVED_BUT_LEGAL,
        f"{a.id} is removed but has a legal choice at the start of {block}, e.g. {', '.join(what)}",
    )


def _names(facts: Facts, things: Sequence[int]) -> str:
    return ", ".join(facts.things[t].id for t in things)


_REMOVAL = cite(Rule.R603_3C, Rule.R603_3D)
"""How explain's sentences about removal cite it: 603.3c (no mode) and 603.3d (no legal choice)."""


def _removal(text: str, rule: Rule = Rule.R603_3D, cited: str = _REMOVAL) -> Reason:
    """What ``explain`` says of an ability's removal: no code (it judges no proposal), the rule, and
    the sentence with its citation (``explain`` shows no rule of its own for it)."""
    return Reason(None, rule, f"{text} ({cited})")


def cannot_be_removed(a: AbilityFacts, below: Sequence[str]) -> Reason:
    """What ``explain`` says of an ability every legal outcome places (``below``: the abilities it can
    target that every outcome puts under it by then)."""
    if below:
        return _removal(f"it always has a legal choice: {', '.join(below)} is on the stack below it by then")
    if not a.modal and not any(m.requirements for m in a.modes):
        return _removal("it has no mode or target to choose, so it never lacks a legal choice")
    return _removal("it has a legal choice whatever else is on the stack")


def removal_depends() -> Reason:
    """What ``explain`` says of a fired ability that later passes remove or not as the earlier passes went."""
    return _removal("it depends on what the earlier passes put on the stack")


def may_be_removed(facts: Facts, a: AbilityFacts) -> Reason:
    """What ``explain`` says of an ability some legal outcomes remove (docs/rules.md, 603.3c–d): its
    controller may choose no mode; or its legal choices need a waiting ability below it — one of an
    earlier block, on the stack when its block starts in some outcomes and not in others, or one of
    its own block, which it may be put above (then it targets it) or not (then it is removed). It said
    "only if an ability it could target is on the stack when its block starts" of an ability whose
    only targets were of its own block, which is never so, beside outcomes that put it above one."""
    if a.may_choose_zero:
        return _removal("its controller may choose no mode", Rule.R700_2, cite(Rule.R700_2))
    earlier = [facts.abilities[b].id for b in sorted(a.earlier_targets)]
    own = [facts.abilities[b].id for b in sorted(a.precedable_targets - a.earlier_targets)]
    if earlier and own:
        text = (
            f"it has a legal choice when its block starts only if {_either(earlier)} is on the stack by then; "
            f"otherwise it may be removed, or put above {_either(own)} of its own block and target it"
        )
    elif own:
        text = (
            f"it has no legal choice when its block starts, and has one once {_either(own)} of its own block "
            "is below it: it may be removed, or put above it and target it"
        )
    elif earlier:
        text = f"it has a legal choice only if {_either(earlier)} is on the stack when its block starts"
    else:  # no waiting ability decides it: said as the outcomes show it, no cause named
        text = "some legal outcomes put it on the stack and others remove it"
    return _removal(text)


def _either(names: Sequence[str]) -> str:
    """``G``, ``G or H``, ``G, H or K``."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def removed_always(a: AbilityFacts) -> Reason:
    """What ``explain`` says of an ability every legal outcome removes."""
    if (rule := a.forced_removal) is not None:
        return _removal(_forced(a).text, rule, f"rule {cite(rule)}")
    return _removal("no legal choice of modes and targets exists when it is put on the stack")
