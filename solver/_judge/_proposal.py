"""Judging a proposal (``check``): decide it exactly against docs/rules.md and list every violation.

No solver runs here: order is read off the 603.3b blocks, and each ability's choices are judged
against the facts with what was below it on the proposed stack. ``removed-but-legal`` asks the
shared search whether a legal choice existed, and ``target-must`` asks :mod:`~.._core.must`
whether a more obedient one did. Across passes, :class:`~triggerstack.model.Passes` says what
each later pass must hold.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from triggerstack.model._answer import Spending
from triggerstack.model._errors import ProposalError
from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts, reactions_of
from triggerstack.model._limits import NO_DEADLINE, Deadline
from triggerstack.model._outcome import Entry, Outcome
from triggerstack.model._passes import Passes, StackItem
from triggerstack.model._rules import Code, Rule
from triggerstack.model._targeting import Bar
from triggerstack.model._text import shown_lines

from .._core.choices import first_legal_choice, is_mode_legal
from .._core.must import count_obeyed, most_obeyed
from .._core.space import has_legal_choice
from . import _division, _modes, _order, _removal, _targets
from ._reason import Reason


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
        return shown_lines(lines)


class _Report:
    """The violations found so far, counted as the verdict's answer is (``cap`` bytes: a proposal
    listing one mode 100,000 times breaks a rule 100,000 times), within the judging's deadline."""

    def __init__(self, deadline: Deadline, cap: int | None) -> None:
        self.items: list[Violation] = []
        self.removed_in: dict[str, int] = {}
        """Each ability removed in a pass before the one judged, with that pass's number."""
        self.fired: frozenset[str] = frozenset()
        """The ids of the scenario's reactions: ``R@A`` names what ``R`` fires (ids hold no other ``@``)."""
        self.first: frozenset[str] = frozenset()
        """The ids of the first pass's abilities: the ``A`` at the end of every chain ``R@…@A``."""
        big = cap if cap is not None else 1 << 62
        self.spending = Spending(big, deadline, "judging the proposal", "send a proposal that breaks fewer rules")

    def add(self, ability: str | None, reason: Reason) -> None:
        assert reason.code is not None and reason.rule is not None  # a proposal's violations all have both
        self.spending.spend(reason.text, ability, reason.code.value, reason.rule.value)
        self.items.append(Violation(reason.rule, reason.code, ability, reason.text))


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


def judge(passes: Passes, outcome: Outcome, deadline: Deadline = NO_DEADLINE, cap: int | None = None) -> Verdict:
    """Every violation of ``outcome`` (docs/rules.md, "An outcome"; docs/formats.md, Violation codes) through
    ``passes`` (which keeps each next pass compiled): what :func:`~.._verbs.legal.check` answers,
    refused as its violations pass ``cap`` bytes (``--max-answer``; None: kept whole)."""
    _refuse_unreadable_passes(outcome)
    report = _Report(deadline, cap)
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
    report.fired = frozenset(r.id for r in reactions_of(passes.first))
    report.first = frozenset(passes.first.ability_index)
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
        report.removed_in.update((r, depth + 1) for r in gone if r not in report.removed_in)
        if passes.single:
            break
        placed = Outcome(stack=tuple(stack[i] for i in mine), removed=tuple(gone))
        successor = passes.after(current, placed, on_stack, depth, capped=not mine)  # a proposal ends its passes
        current, on_stack = successor.facts, successor.on_stack
        depth += 1
    for i in left:
        report.add(stack[i].ability, _order.not_triggered(stack[i].ability, i, passes.single))
    for aid in dict.fromkeys(removed_left):
        report.add(aid, _order.not_triggered(aid, None, passes.single))
    _check_pass_order(stack, pass_of, report)
    while len(sizes) > 1 and sizes[-1] == 0:
        sizes.pop()  # a last pass whose abilities were all removed puts nothing on the stack
    given = outcome.passes
    if given is not None and given != tuple(sizes) and not left:  # an entry no pass holds is told already
        report.add(None, _order.passes_mismatch(given, sizes))


def _check_pass_order(stack: Sequence[Entry], pass_of: Mapping[int, int], report: _Report) -> None:
    """603.3b: a later pass goes on the stack above every earlier one. The fewest entries are
    blamed: those outside a longest run already in pass order."""
    placed = sorted(pass_of)
    numbers = [pass_of[i] for i in placed]
    if all(x <= y for x, y in pairwise(numbers)):
        return
    keep = _order.longest_in_order(numbers)
    for j, i in enumerate(placed):
        if j in keep:
            continue
        n = numbers[j]
        below = next((placed[q] for q in range(j + 1, len(placed)) if numbers[q] < n), None)
        other = below if below is not None else next(placed[q] for q in range(j) if numbers[q] > n)
        reason = _order.pass_order(stack[i].ability, n, stack[other].ability, pass_of[other], below is not None)
        report.add(stack[i].ability, reason)


def _judge_pass(
    facts: Facts, entries: Sequence[tuple[int, Entry]], removed: Sequence[str], depth: int, report: _Report
) -> None:
    """Every violation of one pass: ``entries`` (with their places on the whole stack) and the
    ``removed`` ids, all naming this pass's waiting abilities."""
    abilities = facts.abilities
    positions: dict[int, int] = {}
    for p, e in entries:
        k = facts.ability_index[e.ability]
        if k in positions:
            report.add(e.ability, _order.placed_twice(e.ability, positions[k], p))
        else:
            positions[k] = p
    gone: set[int] = set()
    for aid, n in Counter(removed).items():
        k = facts.ability_index[aid]
        if n > 1:
            report.add(aid, _order.removed_twice(aid, n))
        if k in positions:
            report.add(aid, _order.placed_and_removed(aid, positions[k]))
        gone.add(k)
    for a in abilities:
        if a.index not in positions and a.index not in gone:
            report.add(a.id, _order.missing(a.id, depth))
    placed = sorted(positions, key=positions.__getitem__)
    _check_order(facts, placed, report)
    by_index = dict(entries)
    below: frozenset[int] = frozenset()
    for k in placed:
        report.spending.deadline.check("judging the proposal")  # each entry: a long proposal ends within its time limit
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
        if a.forced_removal is not None:
            report.add(a.id, _removal.never_put(a, placed=True))
        else:
            entries.append(a)
    blocks = [a.block if a.block is not None else -1 for a in entries]
    if all(x <= y for x, y in pairwise(blocks)):
        return  # already in block order: the common case
    keep = _order.longest_in_order(blocks)
    for i, a in enumerate(entries):
        if i in keep:
            continue
        assert a.block is not None
        above = next((b for b in entries[i + 1 :] if b.block is not None and b.block < a.block), None)
        if above is not None:
            report.add(a.id, _order.block_order(facts, a, above, below=True))
        else:
            other = next(b for b in entries[:i] if b.block is not None and b.block > a.block)
            report.add(a.id, _order.block_order(facts, a, other, below=False))


class _Instance(NamedTuple):
    """One mode instance of a proposal's entry: the mode, its targets and division as given, and
    how it is named (``E's mode counter``)."""

    mode: int
    targets: Mapping[str, Sequence[str]]
    divide: Mapping[str, Mapping[str, int]]
    where: str
    at: int = 0  # its place among the entry's modes


def _check_entry(facts: Facts, a: AbilityFacts, e: Entry, below: frozenset[int], report: _Report) -> None:
    """Every violation of one entry put on the stack above ``below``: its modes, its targets, the
    targets its modes share, and must-target effects."""
    if a.forced_removal is not None:
        return
    told = len(report.items)
    _check_choice(facts, a, e, below, report)
    if len(report.items) > told and not has_legal_choice(facts, a, below, deadline=report.spending.deadline):
        report.add(a.id, _removal.must_be_removed(a))  # 603.3d too: with no legal choice it is removed, never put


def _check_choice(facts: Facts, a: AbilityFacts, e: Entry, below: frozenset[int], report: _Report) -> None:
    """Every violation of the modes and targets ``e`` chooses for ``a`` above ``below``."""
    if not a.modal:
        if e.modes is not None:
            report.add(a.id, _modes.modes_of_unmodal(a))
        chosen: list[_Instance] = [_Instance(0, e.targets, e.divide, a.id)]
        refused: list[_Instance] = []
    else:
        chosen, refused = _check_modes(facts, a, e, below, report)
    # a mode that can't be chosen has its targets judged as any mode's: every violation (SPEC), not
    # only its targets' own reasons — an unavailable mode's two targets for "target creature" break 601.2c too
    judged = [_check_targets(facts, a, inst, below, report) for inst in refused]
    instances = [_check_targets(facts, a, inst, below, report) for inst in chosen]
    if a.distinct_targets:  # one violation a thing, naming every instance it is a target of (by mode, then place)
        holders: dict[int, list[_Instance]] = {}
        for inst, things in zip([*refused, *chosen], [*judged, *instances], strict=True):
            for t in set(things):
                holders.setdefault(t, []).append(inst)
        for t, held in sorted(holders.items()):
            if len(held) > 1:
                where = [inst.where for inst in sorted(held, key=lambda inst: (inst.mode, inst.at))]
                report.add(a.id, _modes.shared_target(a, facts.things[t].id, where))
    if a.must and instances and not any(v.ability == a.id and v.code.value.startswith("mode-") for v in report.items):
        obeyed = count_obeyed(a, (t for things in instances for t in things))
        best = most_obeyed(facts, a, [inst.mode for inst in chosen], below, report.spending.deadline)
        if obeyed < best:
            report.add(a.id, _targets.must_disobeyed(facts, a, obeyed, best))


def _check_modes(
    facts: Facts, a: AbilityFacts, e: Entry, below: frozenset[int], report: _Report
) -> tuple[list[_Instance], list[_Instance]]:
    """700.2 and 603.3c for a modal entry: the mode instances that can be chosen, and those that can't."""
    chosen: list[_Instance] = []
    refused: list[_Instance] = []
    if e.targets or e.divide:
        report.add(a.id, _modes.targets_outside_modes(a, "targets" if e.targets else "divide"))
    picks = e.modes or ()
    if (miscounted := _modes.modes_miscounted(a, len(picks))) is not None:
        report.add(a.id, miscounted)
    seen: dict[str, int] = {}
    times = Counter(mc.mode for mc in picks)
    for at, mc in enumerate(picks):
        seen[mc.mode] = seen.get(mc.mode, 0) + 1
        mk = a.mode_index.get(mc.mode)
        if mk is None:
            report.add(a.id, _modes.no_such_mode(a, mc.mode))
            continue
        if seen[mc.mode] == 2 and not a.repeat:
            report.add(a.id, _modes.mode_repeat(a, mc.mode))
        m = a.modes[mk]
        inst = _Instance(mk, mc.targets, mc.divide, _modes.instance_named(a, m, seen[mc.mode], times[mc.mode]), at)
        if not m.available:
            report.add(a.id, _modes.mode_unavailable(a, m))
            refused.append(inst)
        elif not _mode_legal(facts, a, mk, below):
            report.add(a.id, _modes.mode_illegal(a, m))
            refused.append(inst)
        else:
            chosen.append(inst)
    return chosen, refused


def _check_keys(facts: Facts, a: AbilityFacts, m: ModeFacts, inst: _Instance, report: _Report) -> None:
    """The requirements ``inst`` names that ``m`` lacks, divisions where none is taken, and the
    names each part is given to that the scenario lacks."""
    for key, table in (("targets", inst.targets), ("divide", inst.divide)):
        for rid in table:
            if rid not in m.requirement_index:
                report.add(a.id, _targets.no_such_requirement(m, rid, inst.where))
            elif key == "divide":
                place = f"{inst.where}, target {rid}"
                for name in inst.divide[rid]:
                    if name not in facts.thing_index:
                        report.add(a.id, _targets.not_a_thing(name, divided=True).at(place))
                if m.requirements[m.requirement_index[rid]].divide is None:
                    report.add(a.id, _division.nothing_to_divide().at(place))


def _not_a_thing(tid: str, report: _Report) -> Reason:
    """A target that names no thing of the pass: an ability an earlier pass removed, or one a
    reaction fires that has not triggered, is named as such (what a walk says: the same sentence);
    else it is no thing of the scenario. What a reaction may fire is a chain ``R@…@A``: reactions
    down to an ability of the first pass — ``WARD@troll`` (an object) or ``WARD@X`` (no ability)
    could never trigger, and is no thing (it was told "has not triggered" by its first part alone)."""
    if tid in report.removed_in:
        return _targets.not_in_pass(tid, report.removed_in[tid])
    *reactions, anchor = tid.split("@")
    if reactions and all(r in report.fired for r in reactions) and anchor in report.first:
        return _targets.not_in_pass(tid)
    return _targets.not_a_thing(tid)


def _check_targets(
    facts: Facts,
    a: AbilityFacts,
    inst: _Instance,
    below: frozenset[int],
    report: _Report,
) -> list[int]:
    """Check one mode instance's targets; returns every thing chosen (known to the scenario)."""
    m = a.modes[inst.mode]
    if inst.divide or not inst.targets.keys() <= m.requirement_index.keys():
        _check_keys(facts, a, m, inst, report)
    chosen: dict[int, tuple[int, ...]] = {}
    index = facts.thing_index
    for r in m.requirements:
        ids = inst.targets.get(r.id, ())
        known = [t for tid in ids if (t := index.get(tid)) is not None]
        if len(known) != len(ids):
            for tid in ids:
                if tid not in index:
                    report.add(a.id, _not_a_thing(tid, report).at(_place(inst, r)))
        distinct = tuple(known) if len(known) < 2 else tuple(sorted(set(known)))
        chosen[r.index] = distinct
        for t in distinct:
            for bar in r.excluded.get(t, ()):  # what bars it whatever else is chosen (a linked misfit: below)
                if bar is not Bar.LINKED:
                    report.add(a.id, _targets.barred(facts, a, r, t, bar).at(_place(inst, r)))
            # every violation: a barred ability not yet on the stack breaks 601.2c as well (itself:
            # 115.5 alone, it is never on the stack before it is put there)
            if t != facts.first_waiting + a.index and not facts.is_on_stack_target(t, below):
                report.add(a.id, _targets.not_on_stack(facts, a, t).at(_place(inst, r)))
        if len(distinct) != len(known):
            for tid, n in Counter(ids).items():
                if n > 1 and tid in facts.thing_index:
                    report.add(a.id, _targets.chosen_twice(tid, n).at(_place(inst, r)))
        if (miscounted := _targets.targets_miscounted(r, len(ids))) is not None:
            report.add(a.id, miscounted.at(_place(inst, r)))
        if r.divide is not None:
            names: set[str] = {facts.things[t].id for t in distinct}
            unknown = frozenset(tid for tid in ids if tid not in index)
            wrong = _division.divided_wrongly(r.divide, names, inst.divide.get(r.id, {}), unknown)
            if wrong is not None:
                report.add(a.id, wrong.at(_place(inst, r)))
    if m.linked:
        _check_links(facts, a, m, inst, chosen, report)
    return [t for r in m.requirements for t in chosen[r.index]]


def _place(inst: _Instance, r: RequirementFacts) -> str:
    """Where a violation of one requirement's targets is said to be (``E's mode counter, target ability``)."""
    return f"{inst.where}, target {r.called}"


def _check_links(
    facts: Facts, a: AbilityFacts, m: ModeFacts, inst: _Instance, chosen: Mapping[int, Sequence[int]], report: _Report
) -> None:
    """115.3 and 601.2c across one instance's requirements: those that must differ, and targets
    whose description names another requirement's targets."""
    for r in m.requirements:
        mine = chosen[r.index]
        for d in r.different_from:
            twice = sorted(set(mine) & set(chosen[d]))
            if twice:
                report.add(a.id, _targets.not_distinct(facts, twice, r.id, m.requirements[d].id).at(inst.where))
        if r.depends_on:
            # 601.2c judged with the targets this proposal chose for what the description names: a
            # thing that fits no legal choice of them (Bar.LINKED) is told so only where the choice
            # made leaves it unfit too; fitting an illegal choice, the choice is what is wrong
            deps = {d: chosen[d] for d in r.depends_on}
            for t in mine:  # a thing barred by a rule misfits the description too (every violation)
                told = r.excluded.get(t, ())
                if Bar.FILTER in told or facts.fits_target_of(a.index, inst.mode, r.index, t, deps):
                    continue
                if Bar.LINKED in told:
                    reason = _targets.barred(facts, a, r, t, Bar.LINKED)
                else:
                    reason = _targets.linked_misfit(facts, t, m, r)
                report.add(a.id, reason.at(_place(inst, r)))


def _check_removal(facts: Facts, a: AbilityFacts, positions: Mapping[int, int], report: _Report) -> None:
    """603.3c–d: an ability is removed only if it had no legal choice at the start of its block."""
    if a.forced_removal is not None or a.may_choose_zero:
        return
    assert a.block is not None
    start = frozenset(k for k in positions if (b := facts.abilities[k].block) is not None and b < a.block)
    if not has_legal_choice(facts, a, start, deadline=report.spending.deadline):
        return
    example = first_legal_choice(facts, a, start, report.spending.deadline)
    if example is not None:
        report.add(a.id, _removal.removed_but_legal(facts, a, facts.blocks[a.block].describe(), example))
