"""603.3b's loop and 104.4b: what a judge hears when the passes never end — which pass repeats
which, what kind of loop it is, what keeps it going, which choice enters it and how many outcomes
avoid it. The chain finds the loops and what they are (``solver/_core/_loops.py``: facts); every
sentence about them is said here, one :class:`Reason` (no code: a loop is no proposal's violation)."""

from __future__ import annotations

from collections.abc import Sequence

from triggerstack.model._numbers import counted
from triggerstack.model._outcome import Outcome, outcome_dict
from triggerstack.model._rules import Rule
from triggerstack.model._text import compact

from ._reason import Reason, cite


def loop_repeats(now: int, now_ids: Sequence[str], then: int, then_ids: Sequence[str], more: int | None = None) -> str:
    """Which pass (1-based, with its abilities) repeats which, up to names; ``more``: but for that
    many more abilities on the stack below it, the same choices making it again."""
    again = f"pass {now} ({', '.join(now_ids)}) repeats pass {then} ({', '.join(then_ids)}) up to names"
    if more is not None:
        again += (
            f" but for {more} more abilit{'y' if more == 1 else 'ies'} on the stack below it; the same choices "
            "make it again on a stack that only grows, so the passes never end that way"
        )
    return again


def endless_chain(again: str, max_passes: int) -> Reason:
    """A stack that only grows and no choice found to end it within the cap on passes."""
    return Reason(
        None,
        Rule.R603_3B,
        f"an endless chain: {again}; no choice found within {counted(max_passes, 'passes')} ends it, so the outcomes "
        "are unboundedly many if some choice ends it, and if none does they are only those that never enter it "
        f"({cite(Rule.R104_4B)})",
    )


def undecided_loop(again: str, max_passes: int) -> Reason:
    """A loop whose kind is not decided within the cap on passes."""
    return Reason(
        None,
        Rule.R603_3B,
        f"an endless loop: {again}, and whether a choice ends it is not decided within {counted(max_passes, 'passes')} "
        "(raise the cap with --max-passes)",
    )


def mandatory_loop(again: str) -> Reason:
    """104.4b: no choice ends the loop once it is entered."""
    said = f"a mandatory loop: {again}, and once there no choice ends it: the game is a draw"
    return Reason(None, Rule.R104_4B, said)


def optional_loop(again: str) -> Reason:
    """A choice ends the loop after any number of rounds."""
    return Reason(
        None,
        Rule.R603_3B,
        f"an optional loop: {again}; a choice ends it after any number of rounds, so the outcomes are unboundedly many",
    )


def loop_goes_on(fired: str, gone: Sequence[str]) -> str:
    """Why the passes go on: what fires the reactions again (``fired``, as
    :func:`~triggerstack.model._passes.firing` says it), and the abilities on the way that are
    removed for want of a target (then they change nothing)."""
    out = f" It goes on because {fired} again." if fired else ""
    if gone:
        one = len(gone) == 1
        out += (
            f" {', '.join(gone)} {'has' if one else 'have'} no legal target and {'is' if one else 'are'} removed, "
            f"as {'it' if one else 'they'} will be every round: no ability on the stack, nor a copy the rounds "
            "put there, could be one."
        )
    return out


def endless_loop(
    loop: Reason,
    cause: str,
    mandatory: bool,
    entered: tuple[int, Outcome] | None,
    others: int,
    avoiding: int,
    stopped: str | None,
    named: Sequence[Outcome] = (),
) -> Reason:
    """The one error that tells a judge about the loops of a chain: ``loop`` (the first that is not
    mandatory, else the first) and what keeps it going, the choice that ``entered`` it (the pass and
    that pass's outcome) and how many ``others`` enter a loop, and the ``avoiding`` outcomes — every
    one in which no pass repeats an earlier one (``stopped`` None: all were counted; else at least
    so many were, and ``stopped`` is the flag that lets the count go further, "" if none), the first
    of them ``named``. "No outcome" is said only when none avoids a mandatory loop: every other
    outcome is one ``check`` accepts."""
    text = loop.text
    complete = stopped is None
    if mandatory:
        text += ", so there is no outcome to give" if complete and not avoiding else " once it is entered"
    out = f"{text}.{cause}"
    if entered is not None:
        pass_, choice = entered
        out += f" It is entered by the choice {compact(outcome_dict(choice))} in pass {pass_}"
        if others:
            many = others > 1
            least = "" if complete else "at least "  # where the count stopped, more may
            out += f", and {least}{others} other choice{'s' if many else ''} of earlier passes "
            out += f"enter{'' if many else 's'} a loop"
        out += "."
    if complete and not avoiding and mandatory:
        return Reason(None, loop.rule, out)
    n = f"{avoiding}" if complete else f"At least {avoiding}"  # a sentence's start
    one = complete and avoiding == 1
    if mandatory:
        what = "avoids it, the only outcome check accepts" if one else "avoid it, every outcome check accepts"
    else:
        what = f"end{'s' if one else ''} with no pass repeating an earlier one"
    out += f" {n} outcome{'' if one else 's'} {what}"
    if named:
        shown = "; ".join(compact(outcome_dict(o)) for o in named)
        out += f": {shown}{' …' if len(named) < avoiding or not complete else ''}"
    if not complete:
        out += f" (the count stopped before it was complete{f': raise {stopped}' if stopped else ''})"
    return Reason(None, loop.rule, out + ".")
