"""601.2d: an amount divided among the chosen targets, each getting at least one."""

from __future__ import annotations

from collections.abc import Mapping

from triggerstack.model._facts import AbilityFacts
from triggerstack.model._rules import Code

from ._reason import Reason


def nothing_to_divide() -> Reason:
    return Reason.of(Code.DIVISION, "it divides nothing, but a division is given")


def divided_wrongly(amount: int, targets: set[str], given: Mapping[str, int]) -> Reason | None:
    """What is wrong with dividing ``amount`` among ``targets`` as ``given`` (None: nothing)."""
    problems = []
    if targets and not given:
        problems.append("no division given")
    extra = sorted(set(given) - targets)
    if extra:
        problems.append(f"{', '.join(extra)} divided but not targeted")
    missing = sorted(targets - set(given))
    if missing and given:
        problems.append(f"{', '.join(missing)} targeted but given nothing")
    small = sorted(k for k, v in given.items() if v < 1)
    if small:
        problems.append(f"{', '.join(small)} given less than 1")
    total = sum(given.values())
    if given and total != amount:
        problems.append(f"the parts add up to {total}, not {amount}")
    if not problems:
        return None
    return Reason.of(Code.DIVISION, f"{amount} divided wrongly: {'; '.join(problems)}")


def divide_first(a: AbilityFacts) -> Reason:
    """A walk's decision other than a part while ``a``'s parts are being announced."""
    return Reason.of(Code.DIVISION, f"the amounts {a.id} divides among the targets just chosen come first")
