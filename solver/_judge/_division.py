"""601.2d: an amount divided among the chosen targets, each getting at least one."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from triggerstack.model._facts import AbilityFacts
from triggerstack.model._rules import Code

from ._reason import Reason


def nothing_to_divide() -> Reason:
    return Reason.of(Code.DIVISION, "it divides nothing, but a division is given")


def divided_wrongly(
    amount: int, targets: set[str], given: Mapping[str, int], unknown: frozenset[str] = frozenset()
) -> Reason | None:
    """What is wrong with dividing ``amount`` among ``targets`` (the things chosen, each known to the
    scenario) as ``given`` (None: nothing). ``unknown``: names chosen as targets that the scenario
    lacks — told apart (601.2c ``target-unknown``); a part given to one is a part the things
    targeted do not get, and is said so, never "not targeted"."""
    problems = []
    if targets and not given:
        problems.append("no division given")
    extra = sorted(set(given) - targets - unknown)
    if extra:
        problems.append(f"{', '.join(extra)} divided but not targeted")
    lost = sorted(set(given) & unknown)
    if lost:
        problems.append(f"{', '.join(lost)} given a part but no player, object or ability of the scenario")
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


def part_refused(amount: int, targets: Sequence[str], given: Sequence[int], part: int) -> Reason | None:
    """What ``check`` says of a division of ``amount`` among ``targets`` (in the walk's order) that
    gives them ``given`` and then ``part`` to the next one, whatever the targets still to come are
    given — each at least 1 (601.2d): the parts can't add up to ``amount``. None when they can."""
    total = sum(given) + part
    left = len(targets) - len(given) - 1
    if left == 0:
        return divided_wrongly(amount, set(targets), dict(zip(targets, (*given, part), strict=True)))
    if total + left <= amount:
        return None
    rest = f"{left} more target{'s' if left != 1 else ''}, each given at least 1"
    said = f"{targets[len(given)]} given {part} leaves {max(amount - total, 0)} for {rest}: the parts add up to more"
    return Reason.of(Code.DIVISION, f"{amount} divided wrongly: {said} than {amount}")
