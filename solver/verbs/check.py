"""``check``: decide a proposal exactly against SPEC §3 and list every violation.

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
from typing import Any, Unpack
from weakref import WeakKeyDictionary

from triggerstack.model.errors import ProposalError
from triggerstack.model.facts import AbilityFacts, Facts
from triggerstack.model.outcome import Entry, Outcome
from triggerstack.model.passes import Passes, StackItem
from triggerstack.model.rules import CODE_RULE, Code, Rule
from triggerstack.model.scenario import Scenario

from ..core.choices import first_legal_choice, is_mode_legal
from ..core.must import count_obeyed, most_obeyed
from ..options import OptionChanges, Options, prepare

__all__ = ["Verdict", "Violation", "check"]


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


class _Report:
    def __init__(self) -> None:
        self.items: list[Violation] = []

    def add(self, code: Code, ability: str | None, message: str, rule: Rule | None = None) -> None:
        self.items.append(Violation(rule or CODE_RULE[code], code, ability, message))


def _block_name(facts: Facts, a: AbilityFacts) -> str:
    assert a.block is not None
    return facts.blocks[a.block].describe()


def _check_shape(facts: Facts, outcome: Outcome) -> None:
    """Raise :class:`ProposalError` where the proposal does not fit the scenario: an ability, mode,
    requirement or target the scenario does not have (bad input, exit 2, as issue 6 settles over
    SPEC §6's ``unknown-ability``, ``mode-unknown`` and ``target-unknown``), or targets where the
    ability has none."""
    for p, e in enumerate(outcome.stack):
        loc: tuple[str | int, ...] = ("stack", p)
        k = facts.ability_index.get(e.ability)
        if k is None:
            raise ProposalError(f"{e.ability} is not a waiting ability of the scenario", (*loc, "ability"))
        a = facts.abilities[k]
        if a.modal:
            if e.targets or e.divide:
                key = "targets" if e.targets else "divide"
                raise ProposalError(f"{a.id} is modal: its {key} go under each chosen mode", (*loc, key))
            for j, mc in enumerate(e.modes or ()):
                mk = a.mode_index.get(mc.mode)
                if mk is None:
                    raise ProposalError(
                        f"{a.id} has no mode {mc.mode!r} (modes: {', '.join(a.mode_index)})", (*loc, "modes", j, "mode")
                    )
                _check_requirement_keys(facts, a, mk, mc.targets, mc.divide, (*loc, "modes", j))
        else:
            if e.modes is not None:
                raise ProposalError(f"{a.id} is not modal: it takes no modes", (*loc, "modes"))
            _check_requirement_keys(facts, a, 0, e.targets, e.divide, loc)
    for i, aid in enumerate(outcome.removed):
        if aid not in facts.ability_index:
            raise ProposalError(f"{aid} is not a waiting ability of the scenario", ("removed", i))


def _check_requirement_keys(
    facts: Facts,
    a: AbilityFacts,
    mode: int,
    targets: Mapping[str, Sequence[str]],
    divide: Mapping[str, Mapping[str, int]],
    loc: tuple[str | int, ...],
) -> None:
    m = a.modes[mode]
    known = facts.thing_index
    if (
        targets.keys() <= m.requirement_index.keys()
        and not divide
        and all(t in known for ts in targets.values() for t in ts)
    ):
        return  # the common case: nothing to report
    where = f"{a.id}'s mode {m.id}" if m.id is not None else a.id
    for key, table in (("targets", targets), ("divide", divide)):
        for rid in table:
            if rid not in m.requirement_index:
                names = ", ".join(r.id for r in m.requirements) or "none"
                raise ProposalError(f"{where} has no requirement {rid!r} (it has: {names})", (*loc, key, rid))
            if key == "divide" and m.requirements[m.requirement_index[rid]].divide is None:
                raise ProposalError(f"{where}'s requirement {rid!r} divides nothing", (*loc, key, rid))
    for rid, ts in targets.items():
        for i, t in enumerate(ts):
            if t not in known:
                raise ProposalError(
                    f"{t} is not a player, object or waiting ability of the scenario", (*loc, "targets", rid, i)
                )
    for rid, amounts in divide.items():
        for t in amounts:
            if t not in known:
                raise ProposalError(
                    f"{t} is not a player, object or waiting ability of the scenario", (*loc, "divide", rid, t)
                )


def check(
    scenario: Scenario | Facts, outcome: Outcome, options: Options | None = None, **changes: Unpack[OptionChanges]
) -> Verdict:
    """Every violation of ``outcome`` against ``scenario`` (SPEC §3, §6); legal when there is none.

    With ``reactions`` (or an engine's ``next_pass`` function, see :class:`~..options.Options`),
    each pass is checked in turn and the abilities of each later pass must be exactly those the
    earlier choices fired (603.3b). Raises :class:`~triggerstack.model.ProposalError` when the
    proposal names what the scenario lacks, or puts targets where the ability has none.
    """
    facts, opts = prepare(scenario, options, changes)
    passes = Passes(facts, opts.next_pass, opts.limits.passes)
    if passes.single and outcome.passes in (None, (len(outcome.stack),)):
        return _check_one(facts, outcome)
    return _check_passes(passes, outcome)


def _check_passes(passes: Passes, outcome: Outcome) -> Verdict:
    """603.3b's loop: pass after pass, each judged alone, each later pass holding exactly what
    the earlier ones fired."""
    facts = passes.first
    sizes = outcome.passes or (len(outcome.stack),)
    if sum(sizes) != len(outcome.stack):
        raise ProposalError(
            f"passes add up to {sum(sizes)} entries but the stack has {len(outcome.stack)}", ("passes",)
        )
    report = _Report()
    on_stack: tuple[StackItem, ...] = ()
    start = 0
    claimed: set[str] = set()
    current: Facts | None = facts
    for k, size in enumerate(sizes):
        entries = outcome.stack[start : start + size]
        start += size
        if current is None:  # nothing fired: these entries were never triggered
            for e in entries:
                report.add(
                    Code.UNKNOWN_ABILITY,
                    e.ability,
                    f"{e.ability} is in pass {k + 1}, but nothing triggered it",
                    Rule.R603_3B,
                )
                claimed.add(e.ability)
            continue
        mine = [e for e in entries if e.ability in current.ability_index]
        for e in entries:
            if e.ability not in current.ability_index:
                if k == 0:
                    raise ProposalError(
                        f"{e.ability} is not a waiting ability of the scenario",
                        ("stack", outcome.stack.index(e), "ability"),
                    )
                report.add(
                    Code.UNKNOWN_ABILITY,
                    e.ability,
                    f"{e.ability} is in pass {k + 1}, but no choice of pass {k} fired it",
                    Rule.R603_3B,
                )
        removed = tuple(r for r in outcome.removed if r in current.ability_index)
        claimed.update(e.ability for e in entries)
        claimed.update(removed)
        this = Outcome(stack=tuple(mine), removed=removed)
        report.items.extend(_check_one(current, this).violations)
        successor = passes.after(current, this, on_stack, k)
        current, on_stack = successor.facts, successor.on_stack
    while current is not None:  # the proposal stops while abilities still wait
        for a in current.abilities:
            if a.id not in outcome.removed:
                report.add(
                    Code.MISSING_ABILITY,
                    a.id,
                    f"{a.id} triggered in pass {len(sizes)} but is in no later pass",
                    Rule.R603_3B,
                )
        current = None
    for r in outcome.removed:
        if r not in claimed:
            if r in facts.ability_index:
                continue
            report.add(Code.UNKNOWN_ABILITY, r, f"{r} is removed, but nothing triggered it", Rule.R603_3B)
    return Verdict(not report.items, tuple(report.items))


def _check_one(facts: Facts, outcome: Outcome) -> Verdict:
    """Every violation of one pass."""
    _check_shape(facts, outcome)
    report = _Report()
    abilities = facts.abilities
    positions: dict[int, int] = {}
    removed: set[int] = set()

    for p, e in enumerate(outcome.stack):
        k = facts.ability_index.get(e.ability)
        assert k is not None  # _check_shape refuses unknown abilities
        if k in positions:
            report.add(
                Code.DUPLICATE_ABILITY,
                e.ability,
                f"{e.ability} is on the stack twice (stack[{positions[k]}] and stack[{p}])",
            )
        else:
            positions[k] = p
    for aid, n in Counter(outcome.removed).items():
        k = facts.ability_index[aid]
        if n > 1:
            report.add(Code.DUPLICATE_ABILITY, aid, f"{aid} is listed {n} times in removed")
        if k in positions:
            report.add(Code.DUPLICATE_ABILITY, aid, f"{aid} is both on the stack (stack[{positions[k]}]) and removed")
        removed.add(k)
    for a in abilities:
        if a.index not in positions and a.index not in removed:
            report.add(Code.MISSING_ABILITY, a.id, f"{a.id} is neither on the stack nor removed")

    placed = sorted(positions, key=positions.__getitem__)
    _check_order(facts, placed, report)
    below: frozenset[int] = frozenset()
    for k in placed:
        _check_entry(facts, abilities[k], outcome.stack[positions[k]], below, report)
        below = below | {k}
    for k in sorted(removed - positions.keys()):
        _check_removal(facts, abilities[k], positions, report)
    return Verdict(not report.items, tuple(report.items))


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
    chosen: list[tuple[int, Mapping[str, Sequence[str]], Mapping[str, Mapping[str, int]], str]]
    if not a.modal:
        chosen = [(0, e.targets, e.divide, a.id)]
    else:
        chosen = []
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
            mk = a.mode_index[mc.mode]  # _check_shape refuses unknown modes
            if seen[mc.mode] == 2 and not a.repeat:
                report.add(
                    Code.MODE_REPEAT,
                    a.id,
                    f"{a.id} chooses mode {mc.mode} more than once, which its text does not allow",
                )
            if not a.modes[mk].available:
                report.add(
                    Code.MODE_UNAVAILABLE,
                    a.id,
                    f"{a.id}'s mode {mc.mode} is not available (chosen before, or its condition is unmet)",
                )
                continue
            if not _mode_legal(facts, a, mk, below):
                report.add(
                    Code.MODE_ILLEGAL,
                    a.id,
                    f"{a.id}'s mode {mc.mode} can't be chosen: it has no legal targets when {a.id} is put on the stack",
                )
                continue
            chosen.append((mk, mc.targets, mc.divide, f"{a.id}'s mode {mc.mode}"))
    instances = []
    for mk, targets, divide, where in chosen:
        instances.append(_check_targets(facts, a, mk, targets, divide, below, where, report))
    if a.distinct_targets:
        owner: dict[int, str] = {}
        for (_, _, _, where), things in zip(chosen, instances, strict=True):
            for t in sorted(set(things[1])):
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
        obeyed = count_obeyed(a, (t for inst in instances for t in inst[1]))
        modes = [mk for mk, *_ in chosen]
        counts = [inst[0] for inst in instances]
        best = most_obeyed(facts, a, modes, counts, below)
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
) -> tuple[list[int], list[int]]:
    """Check one mode instance's targets; returns the counts per requirement and all things chosen."""
    m = a.modes[mode]
    chosen: dict[int, tuple[int, ...]] = {}
    counts = []
    everything: list[int] = []
    index = facts.thing_index
    for r in m.requirements:
        ids = targets.get(r.id, ())
        known = [index[tid] for tid in ids]  # _check_shape refuses unknown things
        distinct = tuple(known) if len(known) < 2 else tuple(sorted(set(known)))
        if len(distinct) != len(known):
            for tid, n in Counter(ids).items():
                if n > 1:
                    report.add(
                        Code.TARGET_DUPLICATE,
                        a.id,
                        f"{where}, target {r.id}: {tid} is chosen {n} times for one instance of 'target'",
                    )
        chosen[r.index] = distinct
        counts.append(len(ids))
        everything.extend(distinct)
        if len(ids) < r.min or (r.max is not None and len(ids) > r.max):
            top = "any number" if r.max is None else str(r.max)
            report.add(
                Code.TARGET_COUNT,
                a.id,
                f"{where}, target {r.id}: {len(ids)} targets chosen; between {r.min} and {top} required",
            )
        excluded = r.excluded
        for t in distinct:
            if t in excluded:
                for ex in excluded[t]:
                    report.add(ex.code, a.id, f"{where}, target {r.id}: {ex.reason}", ex.rule)
            elif not facts.is_on_stack_target(t, below):
                report.add(
                    Code.TARGET_NOT_YET_ON_STACK,
                    a.id,
                    f"{where}, target {r.id}: {facts.things[t].id} is not on the stack when {a.id} is put there",
                )
        if r.divide is not None:
            _check_division(facts, a, r.divide, distinct, divide.get(r.id, {}), f"{where}, target {r.id}", report)
    if not any(r.different_from or r.depends_on for r in m.requirements):
        return counts, everything
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
    return counts, everything


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
