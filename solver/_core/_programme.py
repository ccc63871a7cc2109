"""An ability's linked choices counted, ranked, unranked and listed by a programme, none listed
first (docs/architecture.md, "How it decides").

Where an ability's own choices bear on each other — requirements that must differ
(``different_from``, 115.3), a filter that reads another requirement's targets (``target_of``,
601.2c), modes that must target different things (``distinct_targets``, 700.2) or "must target"
effects (601.2c) — they are no product of binomials, but they are still a sum over the things the
ability can take. A :class:`Part` is a set of *slots* (a requirement of one mode instance) whose
choices bear on each other. Its choices are counted by a dynamic programme over the things any slot
could take, each thing deciding which slots take it — none, or a set of slots that need not differ
(and, with distinct targets, all of one mode instance) — the state being all that the rules read
of the choices so far:

* per slot, how many targets it has (up to its most; up to its least where it can take every
  candidate), which its bounds and its division judge at the end;
* per ``target_of`` reading, which players the named slot's targets give so far;
* with "must target" effects, how many of them the things taken obey.

A ``target_of`` filter is judged against the named slot's *whole* choice, so the programme first
fixes which players that choice gives (a *guess*), judges every thing under it
(:meth:`~triggerstack.model._facts.Facts.fits_seen`), and keeps only the choices that give exactly
those players: the guesses split the choices, each counted once. "Must target" maximality keeps
the choices that obey as many effects as any choice of the part. Things every rule sees alike (the
same decisions with the same effects) are one *class*, counted together by powers of its one-thing
polynomial, so a requirement over hundreds of candidates costs what its classes cost; the classes
of things other than waiting abilities do not depend on the stack and are counted once per part.

The rank order: by guess; then per class (things in canonical order within it) each thing's
decision in order, none first; then the divisions of the divided slots, the last fastest.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from math import comb

from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model._filters import who
from triggerstack.model._linked import atoms
from triggerstack.model._types import PlayerId

from ._ranks import rank_composition, unrank_composition

State = tuple[int, ...]
Option = tuple[tuple[int, ...], State]  # the slots a thing goes to, and what that adds to the state
SlotChoice = tuple[tuple[int, ...], tuple[int, ...]]  # a slot's targets (sorted) and its division

MAX_STATES = 50_000
"""The most states a part's programme may have; a part with more is listed (within --max-choices)."""
MAX_GUESSES = 1024
"""The most guesses of the players ``target_of`` readings see; a part with more is listed."""

_SAT, _CAP, _OR = 0, 1, 2  # how a state position adds: saturating at its limit, dead past it, bitwise or


@dataclass(frozen=True, slots=True)
class Slot:
    """One requirement of one mode instance of a part."""

    instance: int
    mode: int
    req: RequirementFacts


class _Class:
    """Things every rule sees alike under one guess, in canonical order, with their decisions (none
    first) and the powers of their one-thing polynomial (the states r of them add, counted)."""

    __slots__ = ("options", "powers", "things")

    def __init__(self, things: list[int], options: tuple[Option, ...], zero: State) -> None:
        self.things = things
        self.options = options
        self.powers: list[dict[State, int]] = [{zero: 1}]

    def power(self, r: int, part: Part) -> dict[State, int]:
        while len(self.powers) <= r:
            out: dict[State, int] = {}
            for s, n in self.powers[-1].items():
                for _, e in self.options:
                    t = part.add(s, e)
                    if t is not None:
                        out[t] = out.get(t, 0) + n
            self.powers.append(out)
        return self.powers[r]


def _forward(part: Part, start: dict[State, int], classes: Sequence[_Class]) -> list[dict[State, int]]:
    """The states before each class and after the last, counted, from ``start``."""
    out = [start]
    for k in classes:
        here: dict[State, int] = {}
        step = k.power(len(k.things), part)
        for s, n in out[-1].items():
            for e, m in step.items():
                t = part.add(s, e)
                if t is not None:
                    here[t] = here.get(t, 0) + n * m
        out.append(here)
    return out


class Part:
    """What a part's programme knows whatever is on the stack: its slots, its state's layout, the
    guesses, and per guess the classes of the things that are not waiting abilities, counted."""

    def __init__(self, facts: Facts, a: AbilityFacts, slots: Sequence[Slot], distinct: bool, must: bool) -> None:
        self.facts, self.a, self.slots, self.distinct = facts, a, tuple(slots), distinct
        self.must = {t: a.must.count(t) for t in a.must} if must else {}
        where = {(s.instance, s.req.index): i for i, s in enumerate(self.slots)}
        found: set[tuple[int, str]] = set()
        for s in self.slots:
            found.update(
                (where[(s.instance, d)], key) for d, key in atoms(s.req.filter, a.modes[s.mode].requirement_index)
            )
        self.atoms = sorted(found)
        self.atom_of = {
            (self.slots[i].instance, self.slots[i].req.index, key): j for j, (i, key) in enumerate(self.atoms)
        }
        self.players: list[tuple[PlayerId, ...]] = [
            tuple(sorted({p for c in self.slots[i].req.candidates if (p := who(facts.things[c], key)) is not None}))
            for i, key in self.atoms
        ]
        self.apart = {
            (i, j)
            for i, j in combinations(range(len(self.slots)), 2)
            if self.slots[i].instance == self.slots[j].instance
            and (
                self.slots[i].req.index in self.slots[j].req.different_from
                or self.slots[j].req.index in self.slots[i].req.different_from
            )
        }
        self.kinds: list[int] = []
        self.limits: list[int] = []
        for s in self.slots:
            r = s.req
            most = r.most(len(r.candidates))
            saturates = r.divide is None and most >= len(r.candidates)
            self.kinds.append(_SAT if saturates else _CAP)
            self.limits.append(r.min if saturates else most)
        self.kinds += [_OR] * len(self.atoms)
        self.limits += [0] * len(self.atoms)
        if self.must:
            self.kinds.append(_CAP)
            self.limits.append(len(a.must))
        self.zero: State = (0,) * len(self.kinds)
        self.guesses = list(product(*(range(1 << len(p)) for p in self.players)))
        self.candidates = [frozenset(s.req.candidates) for s in self.slots]
        self._static: dict[tuple[int, ...], tuple[list[_Class], list[dict[State, int]]]] = {}

    @property
    def feasible(self) -> bool:
        """Whether the programme is small enough to run (else the part's choices are listed)."""
        states = 1
        for kind, limit in zip(self.kinds, self.limits, strict=True):
            states *= limit + 1 if kind != _OR else 1
        for p in self.players:
            states <<= len(p)
        return states <= MAX_STATES and len(self.guesses) <= MAX_GUESSES

    def add(self, s: State, e: State) -> State | None:
        """``s`` with the effect ``e`` added (None: past a slot's most)."""
        out = []
        for kind, limit, x, y in zip(self.kinds, self.limits, s, e, strict=True):
            if kind == _OR:
                out.append(x | y)
                continue
            v = x + y
            if v > limit:
                if kind == _CAP:
                    return None
                v = limit
            out.append(v)
        return tuple(out)

    def _fits(self, i: int, t: int, guess: tuple[int, ...]) -> bool:
        """Whether thing ``t`` fits slot ``i``'s filter when the slots it reads give ``guess``."""
        slot = self.slots[i]
        if not slot.req.depends_on:
            return True
        seen: dict[tuple[int, str, PlayerId], bool] = {}
        for d, key, p in self.facts.linked_atoms(self.a.index, slot.mode, slot.req.index, t):
            j = self.atom_of[(slot.instance, d, key)]
            seen[(d, key, p)] = p in self.players[j] and bool(guess[j] >> self.players[j].index(p) & 1)
        return self.facts.fits_seen(self.a.index, slot.mode, slot.req.index, t, seen)

    def _effect(self, t: int, chosen: tuple[int, ...], guess: tuple[int, ...]) -> State | None:
        """What thing ``t`` going to the slots ``chosen`` adds (None: it gives a player the guess lacks)."""
        e = [0] * len(self.kinds)
        for i in chosen:
            e[i] = 1
        n = len(self.slots)
        for j, (i, key) in enumerate(self.atoms):
            if i in chosen and (p := who(self.facts.things[t], key)) is not None:
                bit = 1 << self.players[j].index(p)
                if not guess[j] & bit:
                    return None
                e[n + j] = bit
        if self.must and chosen:
            e[-1] = self.must.get(t, 0)
        return tuple(e)

    def options(self, t: int, eligible: Sequence[int], guess: tuple[int, ...]) -> tuple[Option, ...]:
        """Thing ``t``'s decisions under ``guess``, none first: each set of the slots ``eligible``
        that it fits, that need not differ and (with distinct targets) are of one instance."""
        fit = [i for i in eligible if self._fits(i, t, guess)]
        out: list[Option] = [((), self.zero)]
        for size in range(1, len(fit) + 1):
            for chosen in combinations(fit, size):
                if any(pair in self.apart for pair in combinations(chosen, 2)):
                    continue
                if self.distinct and len({self.slots[i].instance for i in chosen}) > 1:
                    continue
                e = self._effect(t, chosen, guess)
                if e is not None:
                    out.append((chosen, e))
        return tuple(out)

    def classes(self, things: Sequence[int], pools: Sequence[frozenset[int]], guess: tuple[int, ...]) -> list[_Class]:
        """``things`` (canonical order) in classes of those every rule sees alike, by first thing."""
        by: dict[tuple[Option, ...], _Class] = {}
        for t in things:
            opts = self.options(t, [i for i, pool in enumerate(pools) if t in pool], guess)
            if len(opts) == 1:
                continue  # goes nowhere under this guess
            k = by.get(opts)
            if k is None:
                k = by[opts] = _Class([], opts, self.zero)
            k.things.append(t)
        return list(by.values())

    def static(self, guess: tuple[int, ...]) -> tuple[list[_Class], list[dict[State, int]]]:
        """The classes of the things that are not waiting abilities, and the states before each."""
        found = self._static.get(guess)
        if found is None:
            first = self.facts.first_waiting
            pools = [frozenset(c for c in pool if c < first) for pool in self.candidates]
            things = sorted(set().union(*pools)) if pools else []
            classes = self.classes(things, pools, guess)
            found = self._static[guess] = (classes, _forward(self, {self.zero: 1}, classes))
        return found

    def at(self, on_stack: frozenset[int]) -> Programme:
        return Programme(self, on_stack)


class _Guess:
    """One guess's programme on one stack: its classes, the states before each, and (asked for
    ranking) the completions from each."""

    def __init__(self, part: Part, guess: tuple[int, ...], waiting: Sequence[int], pools: list[frozenset[int]]) -> None:
        self.guess = guess
        static, before = part.static(guess)
        more = part.classes(waiting, pools, guess)
        self.classes = static + more
        self.before = before[:-1] + _forward(part, before[-1], more)
        self._table: list[dict[State, int]] | None = None
        self._ways: dict[tuple[int, int, State], int] = {}


class Programme:
    """A part's choices with the waiting abilities ``on_stack`` below: counted, unranked, ranked,
    listed in rank order and reached, by the programme of the module docstring."""

    def __init__(self, part: Part, on_stack: frozenset[int]) -> None:
        self.part = part
        facts = part.facts
        first = facts.first_waiting
        pools = [frozenset(c for c in pool if c >= first and c - first in on_stack) for pool in part.candidates]
        waiting = sorted(set().union(*pools)) if pools else []
        self.guesses = [_Guess(part, g, waiting, pools) for g in part.guesses]
        n, m = len(part.slots), len(part.atoms)
        self.level = 0
        if part.must:
            levels = [s[-1] for g in self.guesses for s in g.before[-1] if self._accepts(g.guess, s, n, m)]
            self.level = max(levels, default=0)
        self.sizes = [sum(n * self.weight(g.guess, s) for s, n in g.before[-1].items()) for g in self.guesses]
        self.count = sum(self.sizes)

    def _accepts(self, guess: tuple[int, ...], s: State, n: int, m: int) -> bool:
        p = self.part
        return all(s[i] >= p.slots[i].req.min for i in range(n)) and all(s[n + j] == guess[j] for j in range(m))

    def weight(self, guess: tuple[int, ...], s: State) -> int:
        """The choices a finished state stands for: its divisions (601.2d), 0 when it breaks a bound,
        gives other players than the guess, or obeys fewer "must target" effects than some choice."""
        p = self.part
        n = len(p.slots)
        if not self._accepts(guess, s, n, len(p.atoms)) or (p.must and s[-1] != self.level):
            return 0
        w = 1
        for i, slot in enumerate(p.slots):
            if slot.req.divide is not None and s[i]:
                w *= comb(slot.req.divide - 1, s[i] - 1)
        return w

    def _table(self, g: _Guess) -> list[dict[State, int]]:
        """Per class, the completions from each state before it (the last: the weights)."""
        if g._table is None:
            part = self.part
            table = [{s: self.weight(g.guess, s) for s in g.before[-1]}]
            for k, before in zip(reversed(g.classes), reversed(g.before[:-1]), strict=True):
                after = table[-1]
                step = k.power(len(k.things), part)
                here = {}
                for s in before:
                    total = 0
                    for e, m in step.items():
                        t = part.add(s, e)
                        if t is not None:
                            total += m * after.get(t, 0)
                    here[s] = total
                table.append(here)
            table.reverse()
            g._table = table
        return g._table

    def ways(self, g: _Guess, k: int, r: int, s: State | None) -> int:
        """The completions from state ``s`` with ``r`` things of class ``k`` still to decide."""
        if s is None:
            return 0
        key = (k, r, s)
        found = g._ways.get(key)
        if found is None:
            after = self._table(g)[k + 1]
            part = self.part
            found = 0
            for e, m in g.classes[k].power(r, part).items():
                t = part.add(s, e)
                if t is not None:
                    found += m * after.get(t, 0)
            g._ways[key] = found
        return found

    def _guess(self, index: int) -> tuple[_Guess, int]:
        if not 0 <= index < self.count:
            raise IndexError(index)
        for g, size in zip(self.guesses, self.sizes, strict=True):
            if index < size:
                return g, index
            index -= size
        raise IndexError(index)

    def unrank(self, index: int) -> tuple[SlotChoice, ...]:
        """The ``index``-th choice: per slot, its targets and its division."""
        g, index = self._guess(index)
        part = self.part
        s = part.zero
        chosen: list[list[int]] = [[] for _ in part.slots]
        for k, cls in enumerate(g.classes):
            left = len(cls.things)  # the things of the class still to decide: the last ``left``
            while index >= self.ways(g, k, 0, s):  # some thing of the rest goes somewhere
                lo, hi = 0, left - 1  # the most r with ways(r) <= index: the next one taken has r after it
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if self.ways(g, k, mid, s) <= index:
                        lo = mid
                    else:
                        hi = mid - 1
                index -= self.ways(g, k, lo, s)
                t = cls.things[len(cls.things) - 1 - lo]
                for option in cls.options[1:]:
                    n = self.ways(g, k, lo, part.add(s, option[1]))
                    if index < n:
                        break
                    index -= n
                else:
                    raise AssertionError("unreachable: the ways of a thing add up to its span")
                for i in option[0]:
                    chosen[i].append(t)
                after = part.add(s, option[1])
                assert after is not None  # it had ways
                s, left = after, lo
        return self._divided(chosen, s, index)

    def _divided(self, chosen: list[list[int]], s: State, index: int) -> tuple[SlotChoice, ...]:
        """The slots' targets, with the ``index``-th way to divide (the last slot fastest)."""
        out: list[SlotChoice] = []
        for i, slot in reversed(list(enumerate(self.part.slots))):
            div: tuple[int, ...] = ()
            amount = slot.req.divide
            if amount is not None and s[i]:
                index, digit = divmod(index, comb(amount - 1, s[i] - 1))
                div = unrank_composition(amount, s[i], digit)
            out.append((tuple(sorted(chosen[i])), div))
        out.reverse()
        return tuple(out)

    def rank(self, chosen: Sequence[SlotChoice]) -> int:
        """The index of a choice (the inverse of :meth:`unrank`); ``KeyError`` when it is none."""
        part = self.part
        guess = []
        for j, (i, key) in enumerate(part.atoms):
            given = {p for t in chosen[i][0] if (p := who(part.facts.things[t], key)) is not None}
            if not given <= set(part.players[j]):
                raise KeyError("a player no candidate gives")
            guess.append(sum(1 << part.players[j].index(p) for p in given))
        at = part.guesses.index(tuple(guess))  # every guess is listed: found
        g = self.guesses[at]
        index = sum(self.sizes[:at])
        taken: dict[int, list[int]] = {}
        for i, (targets, _) in enumerate(chosen):
            if len(set(targets)) != len(targets):
                raise KeyError("a target twice")
            for t in targets:
                taken.setdefault(t, []).append(i)
        s: State | None = part.zero
        for k, cls in enumerate(g.classes):
            for j, t in enumerate(cls.things):
                slots = tuple(taken.pop(t, ()))
                if not slots:
                    continue
                r = len(cls.things) - 1 - j
                index += self.ways(g, k, r, s)
                for option, e in cls.options[1:]:
                    if option == slots:
                        break
                    index += self.ways(g, k, r, part.add(s, e) if s is not None else None)
                else:
                    raise KeyError(t)
                s = part.add(s, e) if s is not None else None
        if taken or s is None or not self.weight(g.guess, s):
            raise KeyError("not a choice of the part")
        digits = 0
        for i, slot in enumerate(part.slots):
            amount, div = slot.req.divide, chosen[i][1]
            if amount is None or not s[i]:
                if div:
                    raise KeyError("a division of an undivided slot")
                continue
            if len(div) != s[i] or min(div) < 1 or sum(div) != amount:
                raise KeyError("not a division of the amount")
            digits = digits * comb(amount - 1, s[i] - 1) + rank_composition(div)
        return index + digits

    def __iter__(self) -> Iterator[tuple[SlotChoice, ...]]:
        """Every choice in rank order, by a walk that visits only what some choice completes."""
        for g, size in zip(self.guesses, self.sizes, strict=True):
            if size:
                yield from self._walk(g, 0, 0, self.part.zero, [[] for _ in self.part.slots])

    def _walk(self, g: _Guess, k: int, j: int, s: State, chosen: list[list[int]]) -> Iterator[tuple[SlotChoice, ...]]:
        """The choices from thing ``j`` of class ``k`` on, in state ``s``: first those where no
        more of the class go anywhere, then by the last of them that goes somewhere, from the end."""
        if k == len(g.classes):
            for d in range(self.weight(g.guess, s)):
                yield self._divided(chosen, s, d)
            return
        cls = g.classes[k]
        c = len(cls.things)
        if self.ways(g, k, 0, s):
            yield from self._walk(g, k + 1, 0, s, chosen)
        ahead = [
            (slots, after) for slots, e in cls.options[1:] if self.ways(g, k, c - 1 - j, after := self.part.add(s, e))
        ]
        for i in range(c - 1, j - 1, -1):
            for slots, after in ahead:
                if not self.ways(g, k, c - 1 - i, after):
                    continue
                assert after is not None
                for x in slots:
                    chosen[x].append(cls.things[i])
                yield from self._walk(g, k, i + 1, after, chosen)
                for x in slots:
                    chosen[x].pop()

    def reach(self) -> list[set[int]]:
        """Per slot, the things some choice gives it: a class's things alike, each where the
        first of them can go from some state before the class with the rest completing."""
        part = self.part
        out: list[set[int]] = [set() for _ in part.slots]
        for g, size in zip(self.guesses, self.sizes, strict=True):
            if not size:
                continue
            for k, cls in enumerate(g.classes):
                for slots, e in cls.options[1:]:
                    if any(self.ways(g, k, len(cls.things) - 1, part.add(s, e)) for s in g.before[k]):
                        for i in slots:
                            out[i].update(cls.things)
        return out


def linked_groups(m: ModeFacts) -> list[tuple[int, ...]]:
    """A mode's requirements in groups linked to each other (``different_from``, ``target_of``),
    each group by its first requirement."""
    group = list(range(len(m.requirements)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for r in m.requirements:
        for d in (*r.different_from, *r.depends_on):
            group[root(d)] = root(r.index)
    found: dict[int, list[int]] = {}
    for i in range(len(group)):
        found.setdefault(root(i), []).append(i)
    return sorted(tuple(g) for g in found.values())


def part_of(
    facts: Facts, a: AbilityFacts, modes: tuple[int, ...], reqs: tuple[int, ...] | None, joint: bool
) -> Part | None:
    """The programme's part of ``a`` over the requirements ``reqs`` of one instance of
    ``modes[0]`` (or, with ``reqs`` None, every requirement of one instance of each of ``modes``),
    kept with the facts; ``joint``: with ``a``'s distinct targets and "must target" effects. None
    where it is too large for a programme."""
    key = ("programme", a.index, modes, reqs, joint)
    found: Part | bool | None = facts.memo.get(key)
    if found is None:
        slots = [
            Slot(k, m, r)
            for k, m in enumerate(modes)
            for r in a.modes[m].requirements
            if reqs is None or r.index in reqs
        ]
        part = Part(facts, a, slots, joint and a.distinct_targets, joint and bool(a.must))
        found = facts.memo[key] = part if part.feasible else False
    return found if isinstance(found, Part) else None
