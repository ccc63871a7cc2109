"""Linked requirements: the candidates of a filter that reads other requirements' targets
(``{"controller": {"target_of": R}}``, docs/formats.md, Scenario), exactly (601.2c, 115.1).

A thing is a candidate of such a requirement when it fits the filter for **some legal choice of
every requirement the filter names** — directly or through the names' own filters — each choosing
none, one or several of its candidates as its ``min`` and ``max`` allow, different from the targets
of the requirements it must differ from (115.3), and each of its own targets fitting its own filter
given what its names chose. So a requirement that may choose nothing is read as choosing nothing
(under ``not`` that fits every thing), one that takes several targets as taking several ("controlled
by one of them and owned by one of them" is met by two different players), and one with no
candidate at all leaves only the other branches of an ``any``.

What a filter learns of a chosen target is only its player (docs/formats.md: a player chosen for R
is that player, an object gives its controller, or for ``owner`` its owner). So the search below
never tells apart two things that every reader sees the same way: per named requirement it chooses
*which classes* of its candidates are represented, one class being the things every reader sees
alike (a thing that a requirement it must differ from could also choose stays a class of its own).
The choice of a class is a choice of at least one of its things, as many as ``min`` needs: the
readers cannot see the difference, and nothing else reads those things. That keeps the search
exact and small: with one reader, at most four classes per named requirement.

Nothing here relaxes the stack (601.2c, 603.3b): the engines judge each real choice with
:meth:`~triggerstack.model.facts.Facts.fits_target_of` and what is on the stack at that moment;
these candidates are the things some choice can reach when everything is available.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from .filters import Context, matches, who
from .limits import Deadline
from .shapes import Filter
from .things import Thing

__all__ = ["Linked", "atoms", "closure", "fits_some_choice"]


@dataclass(frozen=True, slots=True)
class Linked:
    """What the search needs of one requirement of the mode (indices within the mode)."""

    id: str
    filter: Filter
    min: int
    max: int | None
    divide: int | None
    different_from: tuple[int, ...]
    depends_on: tuple[int, ...]
    candidates: tuple[int, ...]  # before this module's refinement: the filter not known to fail

    def most(self, available: int) -> int:
        bound = available if self.max is None else min(self.max, available)
        return bound if self.divide is None else min(bound, self.divide)


def atoms(f: Filter, ids: Mapping[str, int]) -> tuple[tuple[int, str], ...]:
    """Each ``(requirement index, key)`` that ``f`` reads through ``target_of``, once."""
    return tuple(sorted({(ids[ref], key) for key, ref in f.iter_target_of()}))


def closure(reqs: Sequence[Linked], r: int) -> tuple[int, ...]:
    """The requirements ``r`` names, directly or through their own names, each after those it
    names (the scenario validator refuses cycles)."""
    order: list[int] = []

    def visit(k: int) -> None:
        for d in reqs[k].depends_on:
            if d not in order:
                visit(d)
                order.append(d)

    visit(r)
    return tuple(order)


def _linked_pair(reqs: Sequence[Linked], a: int, b: int) -> bool:
    return b in reqs[a].different_from or a in reqs[b].different_from


def fits_some_choice(
    reqs: Sequence[Linked],
    r: int,
    t: int,
    things: Sequence[Thing],
    ctx: Context,
    deadline: Deadline,
    memo: dict[object, tuple[int, ...]] | None = None,
) -> bool:
    """Whether thing ``t`` fits requirement ``r``'s filter for some legal choice of the
    requirements it names (see the module docstring). ``memo``, shared by the calls for one
    requirement's candidates, keeps which things fit a named requirement's own filter for each
    choice of what it names (that does not depend on ``t``)."""
    fits = {} if memo is None else memo
    order = closure(reqs, r)
    if not order:
        return matches(reqs[r].filter, things[t], ctx) is not False
    ids = {q.id: j for j, q in enumerate(reqs)}
    readers: dict[int, list[tuple[int, str]]] = {d: [] for d in order}  # d → (reader, key)
    for k in (*order, r):
        for d, key in atoms(reqs[k].filter, ids):
            readers[d].append((k, key))
    members = (*order, r)
    chosen: dict[str, tuple[Thing, ...]] = {}
    picked: dict[int, tuple[int, ...]] = {}
    me = things[t]
    nodes = 0

    def key_of(d: int, c: int, pool_of_linked: frozenset[int]) -> tuple[object, ...]:
        if c in pool_of_linked:
            return ("thing", c)  # a requirement it must differ from could choose it too
        seen: list[object] = []
        for k, key in readers[d]:
            w = who(things[c], key)
            seen.append(w == who(me, key) if k == r else w)
        return tuple(seen)

    def dfs(depth: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes % 1024 == 0:
            deadline.check("finding the candidates of a target_of requirement")
        if depth == len(order):
            return matches(reqs[r].filter, me, Context(ctx.you, ctx.is_opponent, chosen)) is True
        d = order[depth]
        req = reqs[d]
        taken = {x for k in members if k in picked and _linked_pair(reqs, d, k) for x in picked[k]}
        if _linked_pair(reqs, d, r):
            taken.add(t)
        if req.depends_on:
            key = (d, tuple(picked[k] for k in req.depends_on))
            fitting = fits.get(key)
            if fitting is None:
                view = Context(ctx.you, ctx.is_opponent, chosen)
                fitting = fits[key] = tuple(c for c in req.candidates if matches(req.filter, things[c], view) is True)
        else:
            fitting = req.candidates
        pool = [c for c in fitting if c not in taken]
        top = req.most(len(pool))
        if req.min > top:
            return False
        later = {
            x for k in members if k not in picked and k != d and _linked_pair(reqs, d, k) for x in reqs[k].candidates
        }
        if _linked_pair(reqs, d, r):
            later.add(t)
        classes: dict[tuple[object, ...], list[int]] = {}
        for c in pool:
            classes.setdefault(key_of(d, c, frozenset(later)), []).append(c)
        groups = list(classes.values())
        for size in range(0, min(top, len(groups)) + 1):
            for used in combinations(groups, size):
                pick = _fill(used, req.min, top)
                if pick is None:
                    continue
                picked[d] = pick
                chosen[req.id] = tuple(things[c] for c in pick)
                if dfs(depth + 1):
                    return True
                del picked[d], chosen[req.id]
        return False

    return dfs(0)


def _fill(used: Sequence[Sequence[int]], least: int, most: int) -> tuple[int, ...] | None:
    """One thing of each used class, then more of them until ``least``: None if the classes
    cannot give between ``least`` and ``most`` things."""
    if len(used) > most or sum(len(g) for g in used) < least:
        return None
    pick = [g[0] for g in used]
    extra: Iterator[int] = (c for g in used for c in g[1:])
    while len(pick) < least:
        pick.append(next(extra))
    return tuple(sorted(pick))
