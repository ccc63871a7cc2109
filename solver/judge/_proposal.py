"""Judging a proposal (``check``): decide it exactly against docs/rules.md and list every violation.

No solver runs here: order is read off the 603.3b blocks, and each ability's choices are judged
against the facts with what was below it on the proposed stack. ``removed-but-legal`` asks the
shared search whether a legal choice existed, and ``target-must`` asks :mod:`~..core.must`
whether a more obedient one did. Across passes, :class:`~triggerstack.model.Passes` says what
each later pass must hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any
from weakref import WeakKeyDictionary

from triggerstack.model.errors import ProposalError
from triggerstack.model.facts import AbilityFacts, Facts
from triggerstack.model.limits import NO_DEADLINE, Deadline
from triggerstack.model.outcome import Entry, Outcome
from triggerstack.model.passes import Passes, StackItem
from triggerstack.model.rules import CODE_RULE, Code, Rule

from ..core.choices import first_legal_choice, is_mode_legal
from ..core.must import count_obeyed, most_obeyed

__all__ = ["Verdict", "Violation", "judge"]


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: the rule, the code, the ability (None if the proposal names none), a line."""

    rule: Rule
    code: Code
    ability: str | None
    message: str

    def as_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["rule"] = self.rule.value
        d["code"] = self.code.value
        return d


@dataclass(frozen=True, slots=True)
class Verdict:
    """Whether the proposal is legal, and every violation if not."""

    legal: bool
    violations: tuple[Violation, ...]

    def as_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "violations": [v.as_dict() for v in self.violations]}

    def __repr__(self) -> str:
        if self.legal:
            return "<Verdict: legal>"
        rules = ", ".join(sorted({f"{v.rule.value} {v.code.value}" for v in self.violations}))
        n = len(self.violations)
        return f"<Verdict: illegal, {n} violation{'s' if n != 1 else ''} ({rules})>"

    def text(self) -> str:
        """What ``check`` prints: ``legal``, or how many violations and one line for each."""
        if self.legal:
            return "legal"
        n = len(self.violations)
        lines = [f"illegal: {n} violation{'s' if n != 1 else ''}"]
        lines.extend(f"{v.rule.value} {v.code.value} {v.ability or '-'}: {v.message}" for v in self.violations)
        return "\n".join(lines)


class _Report:
    """The violations found so far, and the deadline the judging keeps."""

    def __init__(self, deadline: Deadline = NO_DEADLINE) -> None:
        self.items: list[Violation] = []
        self.deadline = deadline

    def add(self, code: Code, ability: str | None, message: str, rule: Rule | None = None) -> None:
        self.items.append(Violation(rule or CODE_RULE[code], code, ability, message))


def _block_name(facts: Facts, a: AbilityFacts) -> str:
    assert a.block is not None
    return facts.blocks[a.block].describe()


def _refuse_unreadable_passes(outcome: Outcome) -> None:
    """``passes`` that cannot be read against the stack are bad input: they must add up to the
    stack, and a trailing empty pass says nothing (docs/formats.md, Proposal and outcome)."""
    sizes = outcome.passes
    if sizes is None:
        return
    if sum(sizes) != len(outcome.stack):
        raise ProposalError(
            f"passes add up to {sum(sizes)} entries but the stack has {len(outcome.stack)}", ("passes",)
        )
    if len(sizes) > 1 and sizes[-1] == 0:
        raise ProposalError("a trailing empty pass: list only passes that put something on the stack", ("passes",))


def judge(passes: Passes, outcome: Outcome, deadline: Deadline = NO_DEADLINE) -> Verdict:
    """Every violation of ``outcome`` (docs/rules.md, "An outcome"; docs/formats.md, Violation codes) through
    ``passes`` (which keeps each next pass compiled): what :func:`~.legal.check` answers."""
    _refuse_unreadable_passes(outcome)
    report = _Report(deadline)
    _judge(passes, outcome, report)
    return Verdict(not report.items, tuple(report.items))


def _judge(passes: Passes, outcome: Outcome, report: _Report) -> None:
    """603.3b's loop: each pass holds the entries that name its waiting abilities, judged alone;
    what it fires is the next pass. Entries no pass holds did not trigger."""
    stack = outcome.stack
    left = list(range(len(stack)))
    removed_left = list(outcome.removed)
    pass_of: dict[int, int] = {}
    sizes: list[int] = []
    current: Facts | None = passes.first
    on_stack: tuple[StackItem, ...] = ()
    depth = 0
    while current is not None:
        index = current.ability_index
        mine = [i for i in left if stack[i].ability in index]
        left = [i for i in left if stack[i].ability not in index]
        gone = [r for r in removed_left if r in index]
        removed_left = [r for r in removed_left if r not in index]
        for i in mine:
            pass_of[i] = depth
        sizes.append(len(mine))
        _judge_pass(current, [(i, stack[i]) for i in mine], gone, depth, report)
        if passes.single:
            break
        placed = Outcome(stack=tuple(stack[i] for i in mine), removed=tuple(gone))
        successor = passes.after(current, placed, on_stack, depth, capped=not mine)  # a proposal ends its passes
        current, on_stack = successor.facts, successor.on_stack
        depth += 1
    for i in left:
        aid = stack[i].ability
        report.add(
            Code.UNKNOWN_ABILITY,
            aid,
            f"{aid} (stack[{i}]) did not trigger: it is not a waiting ability{_fired(passes)}",
        )
    for aid in dict.fromkeys(removed_left):
        report.add(
            Code.UNKNOWN_ABILITY,
            aid,
            f"{aid} is removed but did not trigger: it is not a waiting ability{_fired(passes)}",
        )
    _check_pass_order(stack, pass_of, report)
    while len(sizes) > 1 and sizes[-1] == 0:
        sizes.pop()  # a last pass whose abilities were all removed puts nothing on the stack
    given = outcome.passes
    if given is not None and given != tuple(sizes) and not left:  # an entry no pass holds is told already
        report.add(
            Code.ORDER,
            None,
            f"passes says {list(given)} entries per pass, but the passes of 603.3b hold {sizes}",
            Rule.R603_3B,
        )


def _fired(passes: Passes) -> str:
    return " of the scenario" if passes.single else " of the scenario, and no pass fired it"


def _check_pass_order(stack: Sequence[Entry], pass_of: Mapping[int, int], report: _Report) -> None:
    """603.3b: a later pass goes on the stack above every earlier one. The fewest entries are
    blamed: those outside a longest run already in pass order."""
    placed = sorted(pass_of)
    numbers = [pass_of[i] for i in placed]
    if all(x <= y for x, y in pairwise(numbers)):
        return
    keep = _longest_in_order(numbers)
    for j, i in enumerate(placed):
        if j in keep:
            continue
        n = numbers[j]
        below = next((placed[q] for q in range(j + 1, len(placed)) if numbers[q] < n), None)
        other = below if below is not None else next(placed[q] for q in range(j) if numbers[q] > n)
        where = "below" if below is not None else "above"
        report.add(
            Code.ORDER,
            stack[i].ability,
            f"{stack[i].ability} (pass {n + 1}) is {where} {stack[other].ability} (pass {pass_of[other] + 1}); "
            "each pass goes on the stack above the passes before it",
            Rule.R603_3B,
        )


def _judge_pass(
    facts: Facts, entries: Sequence[tuple[int, Entry]], removed: Sequence[str], depth: int, report: _Report
) -> None:
    """Every violation of one pass: ``entries`` (with their places on the whole stack) and the
    ``removed`` ids, all naming this pass's waiting abilities."""
    abilities = facts.abilities
    positions: dict[int, int] = {}
    later = f" (it triggered during pass {depth}, so it is put on the stack in pass {depth + 1})" if depth else ""
    for p, e in entries:
        k = facts.ability_index[e.ability]
        if k in positions:
            report.add(
                Code.DUPLICATE_ABILITY,
                e.ability,
                f"{e.ability} is on the stack twice (stack[{positions[k]}] and stack[{p}])",
            )
        else:
            positions[k] = p
    gone: set[int] = set()
    for aid, n in Counter(removed).items():
        k = facts.ability_index[aid]
        if n > 1:
            report.add(Code.DUPLICATE_ABILITY, aid, f"{aid} is listed {n} times in removed")
        if k in positions:
            report.add(Code.DUPLICATE_ABILITY, aid, f"{aid} is both on the stack (stack[{positions[k]}]) and removed")
        gone.add(k)
    for a in abilities:
        if a.index not in positions and a.index not in gone:
            report.add(
                Code.MISSING_ABILITY,
                a.id,
                f"{a.id} is neither on the stack nor removed{later}",
                Rule.R603_3B if depth else None,
            )
    placed = sorted(positions, key=positions.__getitem__)
    _check_order(facts, placed, report)
    by_index = dict(entries)
    below: frozenset[int] = frozenset()
    for k in placed:
        _check_entry(facts, abilities[k], by_index[positions[k]], below, report)
        if abilities[k].forced_removal is None:  # one that is never put there is below nothing
            below = below | {k}
    for k in sorted(gone - positions.keys()):
        _check_removal(facts, abilities[k], positions, report)


_MEMO: WeakKeyDictionary[Facts, dict[Any, Any]] = WeakKeyDictionary()


def _mode_legal(facts: Facts, a: AbilityFacts, mode: int, below: frozenset[int]) -> bool:
    """603.3c, memoised per scenario on the waiting abilities that could matter to the ability."""
    memo = _MEMO.get(facts)
    if memo is None:
        memo = _MEMO[facts] = {}
    key = (a.index, mode, below & a.waiting_targets)
    legal = memo.get(key)
    if legal is None:
        legal = memo[key] = is_mode_legal(facts, a, mode, key[2])
    return legal


def _check_order(facts: Facts, placed: Sequence[int], report: _Report) -> None:
    """603.3b: every block's abilities lie below every later block's.

    The fewest entries are blamed: those outside a longest run that is already in block order
    (so one ability put too low is one violation, not one for each ability above it).
    """
    entries: list[AbilityFacts] = []
    for k in placed:
        a = facts.abilities[k]
        forced = a.forced_removal
        if forced is not None:
            report.add(
                Code.PLACED_BUT_ILLEGAL,
                a.id,
                f"{a.id} is on the stack but is never put there: {forced[1]}",
                forced[0],
            )
        else:
            entries.append(a)
    blocks = [a.block if a.block is not None else -1 for a in entries]
    if all(x <= y for x, y in pairwise(blocks)):
        return  # already in block order: the common case
    keep = _longest_in_order(blocks)
    for i, a in enumerate(entries):
        if i in keep:
            continue
        assert a.block is not None
        above = next((b for b in entries[i + 1 :] if b.block is not None and b.block < a.block), None)
        if above is not None:
            where, other = "below", above
        else:
            other = next(b for b in entries[:i] if b.block is not None and b.block > a.block)
            where = "above"
        first = a if where == "above" else other
        rule = facts.blocks[a.block].rule
        report.add(
            Code.ORDER,
            a.id,
            f"{a.id} ({_block_name(facts, a)}) is {where} {other.id} ({_block_name(facts, other)}); "
            f"{_block_name(facts, first)} go on the stack first, below",
            rule if rule is not Rule.R101_4 else Rule.R603_3B,
        )


def _longest_in_order(values: Sequence[int]) -> set[int]:
    """Positions of a longest non-decreasing subsequence (the earliest such, deterministic)."""
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


def _names(facts: Facts, things: Sequence[int]) -> str:
    return ", ".join(facts.things[t].id for t in things)


def _check_entry(facts: Facts, a: AbilityFacts, e: Entry, below: frozenset[int], report: _Report) -> None:
    if a.forced_removal is not None:
        return
    Chosen = tuple[int, Mapping[str, Sequence[str]], Mapping[str, Mapping[str, int]], str]
    chosen: list[Chosen] = []
    refused: list[Chosen] = []  # modes that can't be chosen: only their targets' own reasons are told
    if not a.modal:
        if e.modes is not None:
            report.add(Code.MODE_UNKNOWN, a.id, f"{a.id} is not modal: it takes no modes")
        chosen = [(0, e.targets, e.divide, a.id)]
    else:
        if e.targets or e.divide:
            key = "targets" if e.targets else "divide"
            report.add(Code.TARGET_UNKNOWN, a.id, f"{a.id} is modal: its {key} go under each chosen mode")
        picks = e.modes or ()
        if len(picks) not in a.choose or not picks:
            allowed = sorted(a.choose - {0})
            zero = " (choosing none removes it: list it in removed)" if a.may_choose_zero else ""
            report.add(
                Code.MODE_COUNT,
                a.id,
                f"{a.id} has {len(picks)} modes chosen; allowed: {', '.join(map(str, allowed))}{zero}",
            )
        seen: dict[str, int] = {}
        for mc in picks:
            seen[mc.mode] = seen.get(mc.mode, 0) + 1
            mk = a.mode_index.get(mc.mode)
            if mk is None:
                report.add(
                    Code.MODE_UNKNOWN, a.id, f"{a.id} has no mode {mc.mode!r} (modes: {', '.join(a.mode_index)})"
                )
                continue
            if seen[mc.mode] == 2 and not a.repeat:
                report.add(
                    Code.MODE_REPEAT,
                    a.id,
                    f"{a.id} chooses mode {mc.mode} more than once, which its text does not allow",
                )
            where = f"{a.id}'s mode {mc.mode}"
            if not a.modes[mk].available:
                report.add(
                    Code.MODE_UNAVAILABLE,
                    a.id,
                    f"{where} is not available (chosen before, or its condition is unmet)",
                )
                refused.append((mk, mc.targets, mc.divide, where))
            elif not _mode_legal(facts, a, mk, below):
                report.add(
                    Code.MODE_ILLEGAL,
                    a.id,
                    f"{where} can't be chosen: it has no legal targets when {a.id} is put on the stack",
                )
                refused.append((mk, mc.targets, mc.divide, where))
            else:
                chosen.append((mk, mc.targets, mc.divide, where))
    for mk, targets, divide, where in refused:
        _check_targets(facts, a, mk, targets, divide, below, where, report, reasons_only=True)
    instances = [
        _check_targets(facts, a, mk, targets, divide, below, where, report) for mk, targets, divide, where in chosen
    ]
    if a.distinct_targets:
        owner: dict[int, str] = {}
        for (_, _, _, where), things in zip(chosen, instances, strict=True):
            for t in sorted(set(things)):
                if t in owner:
                    report.add(
                        Code.MODE_DISTINCT_TARGETS,
                        a.id,
                        f"{a.id}: {facts.things[t].id} is a target of both {owner[t]} and {where}; "
                        "each mode must target a different one",
                    )
                else:
                    owner[t] = where
    if (
        a.must
        and instances
        and not any(v.ability == a.id and v.code.value.startswith(("mode-",)) for v in report.items)
    ):
        obeyed = count_obeyed(a, (t for things in instances for t in things))
        best = most_obeyed(facts, a, [mk for mk, *_ in chosen], below, report.deadline)
        if obeyed < best:
            report.add(
                Code.TARGET_MUST,
                a.id,
                f"{a.id} obeys {obeyed} of the effects that say {_names(facts, a.must)} must be targeted; "
                f"{best} can be obeyed",
            )


def _check_targets(
    facts: Facts,
    a: AbilityFacts,
    mode: int,
    targets: Mapping[str, Sequence[str]],
    divide: Mapping[str, Mapping[str, int]],
    below: frozenset[int],
    where: str,
    report: _Report,
    *,
    reasons_only: bool = False,
) -> list[int]:
    """Check one mode instance's targets; returns every thing chosen (known to the scenario).

    ``reasons_only``: the mode can't be chosen at all; only each chosen target's own reasons
    (exclusions, not yet on the stack, names the scenario lacks) are told, so a judge sees why."""
    m = a.modes[mode]
    index = facts.thing_index
    for key, table in (("targets", targets), ("divide", divide)):
        for rid in table:
            if rid not in m.requirement_index:
                names = ", ".join(r.id for r in m.requirements) or "none"
                report.add(Code.TARGET_UNKNOWN, a.id, f"{where} has no requirement {rid!r} (it has: {names})")
            elif key == "divide" and not reasons_only:
                for name in divide[rid]:
                    if name not in facts.thing_index:
                        report.add(
                            Code.TARGET_UNKNOWN,
                            a.id,
                            f"{where}, target {rid}: {name} is given a part but is not a player, object or ability",
                        )
                if m.requirements[m.requirement_index[rid]].divide is None:
                    report.add(
                        Code.DIVISION, a.id, f"{where}, target {rid}: it divides nothing, but a division is given"
                    )
    chosen: dict[int, tuple[int, ...]] = {}
    everything: list[int] = []
    for r in m.requirements:
        ids = targets.get(r.id, ())
        known: list[int] = []
        for tid in ids:
            t = index.get(tid)
            if t is None:
                report.add(
                    Code.TARGET_UNKNOWN,
                    a.id,
                    f"{where}, target {r.id}: {tid} is not a player, object or waiting ability of the scenario",
                )
            else:
                known.append(t)
        distinct = tuple(known) if len(known) < 2 else tuple(sorted(set(known)))
        chosen[r.index] = distinct
        everything.extend(distinct)
        for t in distinct:
            if t in r.excluded:
                for ex in r.excluded[t]:
                    report.add(ex.code, a.id, f"{where}, target {r.id}: {ex.reason}", ex.rule)
            elif not facts.is_on_stack_target(t, below):
                report.add(
                    Code.TARGET_NOT_YET_ON_STACK,
                    a.id,
                    f"{where}, target {r.id}: {facts.things[t].id} is not on the stack when {a.id} is put there",
                )
        if reasons_only:
            continue
        if len(distinct) != len(known):
            for tid, n in Counter(ids).items():
                if n > 1 and tid in index:
                    report.add(
                        Code.TARGET_DUPLICATE,
                        a.id,
                        f"{where}, target {r.id}: {tid} is chosen {n} times for one instance of 'target'",
                    )
        if len(ids) < r.min or (r.max is not None and len(ids) > r.max):
            if r.max is None:
                asked = f"at least {r.min}"
            elif r.max == r.min:
                asked = f"exactly {r.min}"
            else:
                asked = f"between {r.min} and {r.max}"
            report.add(
                Code.TARGET_COUNT,
                a.id,
                f"{where}, target {r.id}: {len(ids)} target{'s' if len(ids) != 1 else ''} chosen; {asked} required",
            )
        if r.divide is not None:
            _check_division(facts, a, r.divide, distinct, divide.get(r.id, {}), f"{where}, target {r.id}", report)
    if reasons_only or not any(r.different_from or r.depends_on for r in m.requirements):
        return everything
    for r in m.requirements:
        mine = chosen[r.index]
        for d in r.different_from:
            twice = sorted(set(mine) & set(chosen[d]))
            if twice:
                report.add(
                    Code.TARGET_NOT_DISTINCT,
                    a.id,
                    f"{where}: {_names(facts, twice)} chosen for both {r.id} and {m.requirements[d].id}, "
                    "which must differ",
                )
        if r.depends_on:
            deps = {d: chosen[d] for d in r.depends_on}
            for t in mine:
                if t not in r.excluded and not facts.fits_target_of(a.index, mode, r.index, t, deps):
                    refs = ", ".join(m.requirements[d].id for d in r.depends_on)
                    report.add(
                        Code.TARGET_FILTER,
                        a.id,
                        f"{where}, target {r.id}: {facts.things[t].id} does not fit the filter "
                        f"given the targets of {refs}",
                    )
    return everything


def _check_division(
    facts: Facts,
    a: AbilityFacts,
    amount: int,
    targets: Sequence[int],
    given: Mapping[str, int],
    label: str,
    report: _Report,
) -> None:
    """601.2d: the amount is divided among the chosen targets, each getting at least one."""
    names = {facts.things[t].id for t in targets}
    problems = []
    if targets and not given:
        problems.append("no division given")
    extra = sorted(set(given) - names)
    if extra:
        problems.append(f"{', '.join(extra)} divided but not targeted")
    missing = sorted(names - set(given))
    if missing and given:
        problems.append(f"{', '.join(missing)} targeted but given nothing")
    small = sorted(k for k, v in given.items() if v < 1)
    if small:
        problems.append(f"{', '.join(small)} given less than 1")
    total = sum(given.values())
    if given and total != amount:
        problems.append(f"the parts add up to {total}, not {amount}")
    if problems:
        report.add(Code.DIVISION, a.id, f"{label}: {amount} divided wrongly: {'; '.join(problems)}")


def _check_removal(facts: Facts, a: AbilityFacts, positions: Mapping[int, int], report: _Report) -> None:
    """603.3c–d: an ability is removed only if it had no legal choice at the start of its block."""
    if a.forced_removal is not None or a.may_choose_zero:
        return
    assert a.block is not None
    start = frozenset(k for k in positions if (b := facts.abilities[k].block) is not None and b < a.block)
    example = first_legal_choice(facts, a, start)
    if example is not None:
        what = []
        for inst in example.modes:
            m = a.modes[inst.mode]
            tgt = "; ".join(
                f"{r.id}: {_names(facts, ts) or 'none'}" for r, ts in zip(m.requirements, inst.targets, strict=True)
            )
            what.append(f"{m.id or 'its effect'}" + (f" ({tgt})" if tgt else ""))
        report.add(
            Code.REMOVED_BUT_LEGAL,
            a.id,
            f"{a.id} is removed but has a legal choice at the start of {_block_name(facts, a)}, e.g. {', '.join(what)}",
        )
