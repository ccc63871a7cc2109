"""One OR-Tools CP-SAT model of a placement pass (603.3b–d), built only from the facts.

``build(facts)`` returns the model and its variable families; :class:`CpsatEngine` answers the
engine interface with it (``solve_all`` enumerates, ``best_found`` optimises, ``validate`` fixes
every variable to a proposal). Every solution is one outcome (docs/rules.md, "An outcome"): removed abilities take
no slot and no choice, placed abilities fill the first slots of their block, repeated instances of a
mode are ordered, and every auxiliary literal is fully reified; the callback still deduplicates
by outcome as a safety net, and the property tests check that it never has to.

Variable families (keys are index tuples; each solver variable's name repeats its key):

* ``placed[a]``        ability a is put on the stack (else it is removed)
* ``slot[a, k]``       a is the k-th ability its block puts on the stack
* ``index[a]``         a's slot number in its block (0 when removed)
* ``used[a, j]``       mode instance j of a is chosen
* ``tgt[a, j, r, c]``  instance j of a chooses thing c for requirement r
* ``amt[a, j, r, c]``  the amount thing c gets from divided requirement r
* ``below[b, a]``      b is on the stack below a (b and a in the same block)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise, product
from typing import Any

from ortools.sat.python import cp_model
from triggerstack.model._errors import TimeLimitReached
from triggerstack.model._facts import AbilityFacts, Facts
from triggerstack.model._filters import who
from triggerstack.model._limits import Deadline
from triggerstack.model._outcome import Score

from .._core.engine import Found, ListedEngine
from .._core.indexed import Choice, IndexedOutcome, ModeInstance, Placed, score_of
from .._core.must import obeys_outcome
from .._core.removal import minimal_enabling_sets
from .._errors import EngineCannot
from .._options import Options


@dataclass(frozen=True, slots=True)
class Instance:
    """Mode instance ``j`` of ability ``a``: mode ``mode``, the ``copy``-th chosen copy of it."""

    a: int
    j: int
    mode: int
    copy: int


@dataclass
class PassModel:
    """The CP-SAT model of one pass and its named variable families."""

    facts: Facts
    model: cp_model.CpModel
    placed: dict[int, cp_model.IntVar] = field(default_factory=dict)
    slot: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    index: dict[int, cp_model.IntVar] = field(default_factory=dict)
    instances: dict[int, list[Instance]] = field(default_factory=dict)
    used: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    tgt: dict[tuple[int, int, int, int], cp_model.IntVar] = field(default_factory=dict)
    amt: dict[tuple[int, int, int, int], cp_model.IntVar] = field(default_factory=dict)
    below: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)
    symmetry_broken: bool = True


def _bool(m: PassModel, name: str) -> cp_model.IntVar:
    return m.model.new_bool_var(name)


def _sum(terms: Iterable[Any]) -> cp_model.LinearExpr:
    return cp_model.LinearExpr.sum(list(terms))


def add_placement_constraints(m: PassModel) -> None:
    """603.3b: each block's placed abilities fill its first slots, one per slot, in any order;
    800.4d and 603.3d: an ability that can never be put on the stack is removed."""
    facts = m.facts
    for a in facts.abilities:
        m.placed[a.index] = _bool(m, f"placed[{a.index}]")
        if a.block is None or a.forced_removal is not None:
            m.model.add(m.placed[a.index] == 0)
    for block in facts.blocks:
        n = len(block.abilities)
        for k_a in block.abilities:
            for k in range(n):
                m.slot[k_a, k] = _bool(m, f"slot[{k_a},{k}]")
            m.model.add(_sum(m.slot[k_a, k] for k in range(n)) == m.placed[k_a])
            m.index[k_a] = m.model.new_int_var(0, max(n - 1, 0), f"index[{k_a}]")
            m.model.add(
                m.index[k_a] == cp_model.LinearExpr.weighted_sum([m.slot[k_a, k] for k in range(n)], list(range(n)))
            )
        occupied = [_sum(m.slot[k_a, k] for k_a in block.abilities) for k in range(n)]
        for k in range(n):
            m.model.add(occupied[k] <= 1)
            if k:
                m.model.add(occupied[k] <= occupied[k - 1])


def add_removal_constraints(m: PassModel) -> None:
    """603.3c–d: removed only if no legal choice at the start of its block (or zero modes, or
    illegal, or its controller left)."""
    for a in m.facts.abilities:
        enabling = minimal_enabling_sets(m.facts, a)
        if enabling is None:
            continue
        for s in enabling:
            m.model.add_bool_or([m.placed[a.index], *[~m.placed[b] for b in sorted(s)]])


def _instances(a: AbilityFacts) -> list[Instance]:
    out: list[Instance] = []
    copies = max(a.choose) if a.repeat else 1
    for mode in a.modes:
        for c in range(copies):
            out.append(Instance(a.index, len(out), mode.index, c))
    return out


def add_mode_constraints(m: PassModel) -> None:
    """700.2: a placed ability chooses an allowed number of available modes (repeats only where
    allowed, 700.2d); a removed one chooses none."""
    for a in m.facts.abilities:
        insts = m.instances[a.index] = _instances(a)
        for inst in insts:
            m.used[a.index, inst.j] = _bool(m, f"used[{a.index},{inst.j}]")
            if not a.modes[inst.mode].available:
                m.model.add(m.used[a.index, inst.j] == 0)
            if inst.copy:
                m.model.add_implication(m.used[a.index, inst.j], m.used[a.index, inst.j - 1])
        chosen = _sum(m.used[a.index, i.j] for i in insts)
        allowed = sorted(a.choose - {0})
        if allowed:
            m.model.add_linear_expression_in_domain(chosen, cp_model.Domain.from_values(allowed)).only_enforce_if(
                m.placed[a.index]
            )
        else:
            m.model.add(m.placed[a.index] == 0)
        m.model.add(chosen == 0).only_enforce_if(~m.placed[a.index])


def _below(m: PassModel, b: int, a: int) -> cp_model.IntVar:
    """``below[b, a]``: b is on the stack below a, both in the same block (fully reified)."""
    if (b, a) not in m.below:
        lit = m.below[b, a] = _bool(m, f"below[{b},{a}]")
        m.model.add_implication(lit, m.placed[a])
        m.model.add_implication(lit, m.placed[b])
        m.model.add(m.index[b] < m.index[a]).only_enforce_if(lit)
        m.model.add(m.index[b] > m.index[a]).only_enforce_if([~lit, m.placed[a], m.placed[b]])
    return m.below[b, a]


def add_target_constraints(m: PassModel) -> None:
    """601.2c / 115: targets within bounds from the candidates, a waiting ability only once it is
    on the stack below, ``different_from`` (115.3), ``target_of``, ``distinct_targets`` (700.2)."""
    facts = m.facts
    for a in facts.abilities:
        for inst in m.instances[a.index]:
            used = m.used[a.index, inst.j]
            reqs = a.modes[inst.mode].requirements
            for r in reqs:
                chosen = []
                for c in r.candidates:
                    b = facts.waiting_ability(c)
                    if b is not None and not facts.may_precede(b, a.index):
                        continue  # never below a
                    lit = m.tgt[a.index, inst.j, r.index, c] = _bool(m, f"tgt[{a.index},{inst.j},{r.index},{c}]")
                    m.model.add_implication(lit, used)
                    if b is not None:
                        if facts.abilities[b].block == a.block:
                            m.model.add_implication(lit, _below(m, b, a.index))
                        else:
                            m.model.add_implication(lit, m.placed[b])
                    chosen.append(lit)
                n = _sum(chosen)
                m.model.add(n >= r.min).only_enforce_if(used)
                m.model.add(n <= r.upper).only_enforce_if(used)
            _different_from(m, a, inst)
            _target_of(m, a, inst)
        if a.distinct_targets:
            _distinct_targets(m, a)


def _different_from(m: PassModel, a: AbilityFacts, inst: Instance) -> None:
    for r in a.modes[inst.mode].requirements:
        for d in r.different_from:
            for c in r.candidates:
                x, y = m.tgt.get((a.index, inst.j, r.index, c)), m.tgt.get((a.index, inst.j, d, c))
                if x is not None and y is not None:
                    m.model.add_bool_or([~x, ~y])


MAX_LINKED_ANSWERS = 12
"""The most (requirement, key) answers one target_of filter may read for CP-SAT to encode it: each
thing forbids every combination under which it does not fit (2^n of them)."""


def _target_of(m: PassModel, a: AbilityFacts, inst: Instance) -> None:
    """A target of a ``target_of`` filter fits it for what the named requirements chose: the
    filter reads, per named requirement and key, only whether some chosen target gives a player
    (:meth:`~triggerstack.model.Facts.linked_atoms`), so each such answer is one literal and
    every combination of answers under which the thing does not fit is forbidden with it."""
    facts = m.facts
    reqs = a.modes[inst.mode].requirements
    seen: dict[tuple[int, str, str], cp_model.IntVar] = {}  # (requirement, key, player) → some target gives it

    def gives(d: int, key: str, p: str) -> cp_model.IntVar:
        lit = seen.get((d, key, p))
        if lit is None:
            lit = seen[d, key, p] = _bool(m, f"gives[{a.index},{inst.j},{d},{key},{p}]")
            lits = [
                x
                for c in reqs[d].candidates
                if who(facts.things[c], key) == p and (x := m.tgt.get((a.index, inst.j, d, c))) is not None
            ]
            for x in lits:
                m.model.add_implication(x, lit)
            m.model.add_bool_or([~lit, *lits])
        return lit

    for r in reqs:
        if not r.depends_on:
            continue
        for c in r.candidates:
            lit = m.tgt.get((a.index, inst.j, r.index, c))
            if lit is None:
                continue
            atoms = facts.linked_atoms(a.index, inst.mode, r.index, c)
            if len(atoms) > MAX_LINKED_ANSWERS:
                raise EngineCannot(
                    f"cpsat: {a.id}'s target {r.id} reads {len(atoms)} answers of other requirements' targets, "
                    f"more than {MAX_LINKED_ANSWERS} (2^n combinations each): use --engine product"
                )
            lits = [gives(d, key, p) for d, key, p in atoms]
            for answers in product((False, True), repeat=len(atoms)):
                if not facts.fits_seen(a.index, inst.mode, r.index, c, dict(zip(atoms, answers, strict=True))):
                    # never this thing with exactly these answers
                    m.model.add_bool_or([~lit, *(x if not yes else ~x for x, yes in zip(lits, answers, strict=True))])


def _distinct_targets(m: PassModel, a: AbilityFacts) -> None:
    things: dict[int, list[cp_model.IntVar]] = {}
    for inst in m.instances[a.index]:
        per: dict[int, list[cp_model.IntVar]] = {}
        for (ai, j, _r, c), lit in m.tgt.items():
            if ai == a.index and j == inst.j:
                per.setdefault(c, []).append(lit)
        for c, lits in per.items():
            if len(lits) == 1:
                things.setdefault(c, []).append(lits[0])
            else:
                has = _bool(m, f"has[{a.index},{inst.j},{c}]")
                m.model.add_max_equality(has, lits)
                things.setdefault(c, []).append(has)
    for lits in things.values():
        if len(lits) > 1:
            m.model.add_at_most_one(lits)


def add_division_constraints(m: PassModel) -> None:
    """601.2d: the amount is divided among the chosen targets, each getting at least one."""
    for a in m.facts.abilities:
        for inst in m.instances[a.index]:
            for r in a.modes[inst.mode].requirements:
                if r.divide is None:
                    continue
                lits = {c: lit for (ai, j, ri, c), lit in m.tgt.items() if (ai, j, ri) == (a.index, inst.j, r.index)}
                amounts = []
                for c, lit in lits.items():
                    v = m.amt[a.index, inst.j, r.index, c] = m.model.new_int_var(
                        0, r.divide, f"amt[{a.index},{inst.j},{r.index},{c}]"
                    )
                    m.model.add(v >= 1).only_enforce_if(lit)
                    m.model.add(v == 0).only_enforce_if(~lit)
                    amounts.append(v)
                if not lits:
                    continue
                anyt = _bool(m, f"any[{a.index},{inst.j},{r.index}]")
                m.model.add_max_equality(anyt, list(lits.values()))
                m.model.add(_sum(amounts) == r.divide * anyt)


def add_repeat_symmetry_constraints(m: PassModel) -> None:
    """700.2d: repeated instances of a mode are a multiset; order copies by their contents so
    that each multiset is one solution (skipped, with deduplication instead, if too wide)."""
    for a in m.facts.abilities:
        if not a.repeat:
            continue
        for inst in m.instances[a.index]:
            if not inst.copy:
                continue
            prev = inst.j - 1
            terms_prev, terms_this, radix = [], [], 1
            for r in a.modes[inst.mode].requirements:
                for c in r.candidates:
                    key_prev, key_this = (a.index, prev, r.index, c), (a.index, inst.j, r.index, c)
                    if key_this not in m.tgt:
                        continue
                    base = (r.divide + 1) if r.divide is not None else 2
                    x_prev = m.amt.get(key_prev, m.tgt[key_prev])
                    x_this = m.amt.get(key_this, m.tgt[key_this])
                    terms_prev.append(radix * x_prev)
                    terms_this.append(radix * x_this)
                    radix *= base
            if radix >= 2**60:
                m.symmetry_broken = False
                continue
            m.model.add(_sum(terms_prev) <= _sum(terms_this)).only_enforce_if(m.used[a.index, inst.j])


def build(facts: Facts, symmetry: bool = True) -> PassModel:
    """The CP-SAT model of one pass of ``facts``. ``symmetry=False`` leaves out the order among
    repeated instances of a mode (700.2d), which only makes each multiset one solution: a model
    whose every variable is fixed to a proposal must accept its instances in any order."""
    m = PassModel(facts, cp_model.CpModel())
    add_placement_constraints(m)
    add_mode_constraints(m)
    add_removal_constraints(m)
    add_target_constraints(m)
    add_division_constraints(m)
    if symmetry:
        add_repeat_symmetry_constraints(m)
    return m


def _extract(m: PassModel, value: Callable[[cp_model.IntVar], int]) -> IndexedOutcome:
    facts = m.facts
    stack: list[Placed] = []
    removed: list[int] = []
    for block in facts.blocks:
        placed = sorted((k for k in block.abilities if value(m.placed[k])), key=lambda k: value(m.index[k]))
        for k in placed:
            a = facts.abilities[k]
            insts = []
            for inst in m.instances[k]:
                if not value(m.used[k, inst.j]):
                    continue
                targets, divide = [], []
                for r in a.modes[inst.mode].requirements:
                    ts = tuple(
                        c
                        for c in r.candidates
                        if (lit := m.tgt.get((k, inst.j, r.index, c))) is not None and value(lit)
                    )
                    targets.append(ts)
                    divide.append(
                        tuple(value(m.amt[k, inst.j, r.index, c]) for c in ts) if r.divide is not None else ()
                    )
                insts.append(ModeInstance(inst.mode, tuple(targets), tuple(divide) if any(divide) else ()))
            stack.append(Placed(k, Choice(tuple(sorted(insts)))))
    for a in facts.abilities:
        if not value(m.placed[a.index]):
            removed.append(a.index)
    return IndexedOutcome(tuple(stack), tuple(removed))


class _Collector(cp_model.CpSolverSolutionCallback):
    def __init__(self, m: PassModel, limit: int | None) -> None:
        super().__init__()
        self.m = m
        self.limit = limit
        self.seen: set[IndexedOutcome] = set()
        self.solutions = 0
        self.must = any(a.must for a in m.facts.abilities)

    def on_solution_callback(self) -> None:
        found = _extract(self.m, self.value)
        if self.must and not obeys_outcome(self.m.facts, found):
            return  # a solution that disobeys a "must target" effect is no outcome (601.2c)
        self.solutions += 1
        self.seen.add(found)
        if self.limit is not None and len(self.seen) >= self.limit:
            self.stop_search()


def _solver(time_limit: float | None, workers: int = 1) -> cp_model.CpSolver:
    """A solver bounded by ``time_limit`` seconds; ``None`` is no limit, as on every engine (CP-SAT's
    own default is none too)."""
    solver = cp_model.CpSolver()
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.num_workers = workers
    return solver


@dataclass(frozen=True, slots=True)
class Enumeration:
    """All distinct outcomes found (sorted), and how many of the solver's solutions were outcomes
    (more than the outcomes: some outcome was reported twice)."""

    outcomes: tuple[IndexedOutcome, ...]
    solutions: int


def solve_all(facts: Facts, *, limit: int | None = None, time_limit: float | None = None) -> Enumeration:
    """Enumerate the model's solutions with one worker: more workers lose and repeat solutions
    (measured on examples/board-wipe, 768 outcomes: 2 workers reported 384 solutions, 4 workers
    919 solutions of which 693 distinct)."""
    if not facts.abilities:  # an empty model: CP-SAT reports no solution to call back with
        return Enumeration((IndexedOutcome((), ()),), 1)
    m = build(facts)
    solver = _solver(time_limit)
    solver.parameters.enumerate_all_solutions = True
    collector = _Collector(m, limit)
    status = solver.solve(m.model, collector)
    complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE)
    stopped = limit is not None and len(collector.seen) >= limit
    if not complete and not stopped:
        raise TimeLimitReached(
            f"CP-SAT stopped after {solver.wall_time:.1f}s with {len(collector.seen)} outcomes found "
            f"({solver.status_name(status)}); raise --time-limit"
        )
    return Enumeration(tuple(sorted(collector.seen)), collector.solutions)


def _objective(m: PassModel, score: Score) -> Any:
    facts = m.facts
    terms: list[Any] = []
    offset: list[Any] = []
    for block in facts.blocks:
        for k in block.abilities:
            a = facts.abilities[k]
            w = score.height.get(a.id, 0)
            if w:
                n = len(facts.abilities)
                gpos = m.model.new_int_var(0, n, f"gpos[{k}]")
                m.model.add(gpos == _sum(offset) + m.index[k]).only_enforce_if(m.placed[k])
                m.model.add(gpos == 0).only_enforce_if(~m.placed[k])
                terms.append(w * gpos)
        offset.extend(m.placed[k] for k in block.abilities)
    for a in facts.abilities:
        modes = score.mode.get(a.id, {})
        targets = score.target.get(a.id, {})
        for inst in m.instances[a.index]:
            mid = a.modes[inst.mode].id
            if mid is not None and modes.get(mid):
                terms.append(modes[mid] * m.used[a.index, inst.j])
        for (ai, _j, _r, c), lit in m.tgt.items():
            if ai == a.index and targets.get(facts.things[c].id):
                terms.append(targets[facts.things[c].id] * lit)
        if score.removed.get(a.id):
            terms.append(score.removed[a.id] * (1 - m.placed[a.index]))
    return _sum(terms)


def best_found(facts: Facts, score: Score, *, time_limit: float | None = None, workers: int = 1) -> Found:
    """The outcome with the highest score: proven optimal, or, when the time limit stops CP-SAT
    with a solution found, the best found so far with ``proven`` False (none found:
    :class:`TimeLimitReached`)."""
    if any(a.must for a in facts.abilities):
        # "Must target" maximality is a nested optimum; enumerate and take the best instead.
        every = solve_all(facts, time_limit=time_limit).outcomes
        top = max(every, key=lambda o: score_of(facts, o, score))  # the first of the sorted maxima
        return Found(top, score_of(facts, top, score))
    m = build(facts)
    m.model.maximize(_objective(m, score))
    solver = _solver(time_limit, workers)
    status = solver.solve(m.model)
    if status == cp_model.MODEL_INVALID:
        raise EngineCannot(f"CP-SAT refused the model of this score: {m.model.validate()}")
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise TimeLimitReached(
            f"CP-SAT found no outcome within the time limit ({solver.status_name(status)}); raise --time-limit"
        )
    return Found(_extract(m, solver.value), round(solver.objective_value), proven=status == cp_model.OPTIMAL)


def validate(facts: Facts, raw: IndexedOutcome, *, time_limit: float | None = None) -> bool:
    """Whether ``raw`` is a legal outcome, decided by CP-SAT: the model with every variable fixed
    to the proposal (the slow way to do what ``check`` does; kept to measure against it)."""
    blocks = [facts.abilities[p.ability].block for p in raw.stack]
    if None in blocks or any(x > y for x, y in pairwise(blocks)):  # type: ignore[operator]
        return False  # 603.3b: blocks go on the stack one after another
    m = build(facts, symmetry=False)  # the instances are fixed in the proposal's order
    placed = {p.ability: p for p in raw.stack}
    position: dict[int, int] = {}
    for p in raw.stack:
        block = facts.abilities[p.ability].block
        position[p.ability] = sum(
            1 for q in raw.stack[: raw.stack.index(p)] if facts.abilities[q.ability].block == block
        )
    for a in facts.abilities:
        m.model.add(m.placed[a.index] == int(a.index in placed))
        if a.index in placed and a.block is not None:
            m.model.add(m.index[a.index] == position[a.index])
            wanted = list(placed[a.index].choice.modes)
            free = list(m.instances[a.index])
            for inst in wanted:
                slot = next((i for i in free if i.mode == inst.mode), None)
                if slot is None:
                    return False
                free.remove(slot)
                m.model.add(m.used[a.index, slot.j] == 1)
                for r in a.modes[inst.mode].requirements:
                    if len(set(inst.targets[r.index])) != len(inst.targets[r.index]):
                        return False  # 601.2c: one target once per instance of "target"
                    if any((a.index, slot.j, r.index, c) not in m.tgt for c in inst.targets[r.index]):
                        return False  # not a candidate, or a waiting ability that is never below
                    for c in r.candidates:
                        lit = m.tgt.get((a.index, slot.j, r.index, c))
                        if lit is None:
                            if c in inst.targets[r.index]:
                                return False
                            continue
                        m.model.add(lit == int(c in inst.targets[r.index]))
                    if r.divide is not None and inst.targets[r.index]:
                        amounts = inst.divide[r.index] if inst.divide else ()
                        if len(amounts) != len(inst.targets[r.index]):
                            return False
                        for c, n in zip(inst.targets[r.index], amounts, strict=True):
                            amt = m.amt.get((a.index, slot.j, r.index, c))
                            if amt is None or not 0 <= n <= r.divide:
                                return False
                            m.model.add(amt == n)
            for slot in free:
                m.model.add(m.used[a.index, slot.j] == 0)
    solver = _solver(time_limit)
    status = solver.solve(m.model)
    if status == cp_model.UNKNOWN:
        raise TimeLimitReached("CP-SAT could not decide the proposal within the time limit")
    feasible = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    return feasible and (not any(a.must for a in facts.abilities) or obeys_outcome(facts, raw))


class CpsatEngine(ListedEngine):
    """The engine interface from the CP-SAT model: every outcome enumerated with one worker and
    sorted; ``best`` by optimisation; membership by fixing every variable to the proposal."""

    name = "cpsat"
    path = "cpsat"

    def __init__(self, facts: Facts, options: Options | None = None, deadline: Deadline | None = None) -> None:
        super().__init__(facts, deadline or Deadline((options or Options()).time_limit))

    def _solve(self, limit: int | None = None) -> Sequence[IndexedOutcome]:
        return solve_all(self.facts, limit=limit, time_limit=self.time_limit).outcomes

    def __contains__(self, outcome: IndexedOutcome) -> bool:
        return validate(self.facts, outcome, time_limit=self.time_limit)

    def best(self, score: Score) -> Found:
        return best_found(self.facts, score, time_limit=self.time_limit)
