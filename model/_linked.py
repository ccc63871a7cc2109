"""Linked requirements: the candidates of a filter that reads other requirements' targets
(``{"controller": {"target_of": R}}``, docs/formats.md, Scenario), exactly (601.2c, 115.1).

A thing is a candidate of such a requirement when it fits the filter for **some legal choice of
every requirement the filter names** — directly or through the names' own filters — each choosing
none, one or several of its candidates as its ``min`` and ``max`` allow, different from the targets
of the requirements it must differ from (115.3), and each of its own targets fitting its own filter
given what its names chose. So a requirement that may choose nothing is read as choosing nothing
(under ``not`` that fits every thing), one that takes several targets as taking several ("controlled
by one of them and owned by one of them" is met by two different players), and one with no
candidate at all leaves only the other branches of an ``any`` — as does one with fewer candidates
than its ``min``: it has no legal choice at all, so it is read as choosing nothing (else every thing
would fit "for no legal choice" of it, a sentence true of nothing the filter says).

What a filter learns of a chosen target is only its player (docs/formats.md: a player chosen for R
is that player, an object gives its controller, or for ``owner`` its owner). So the search below
never tells apart two things that every reader sees the same way: per named requirement it chooses
*which classes* of its candidates are represented, one class being the things every reader sees
alike (a thing that a requirement it must differ from could also choose stays a class of its own).
The choice of a class is a choice of at least one of its things, as many as ``min`` needs: the
readers cannot see the difference, and nothing else reads those things. That keeps the search
exact and small: with one reader, at most four classes per named requirement.

What the judged requirement itself must differ from (its own ``different_from``, 115.3) is not read
here: a thing that fits the filter for some legal choice of what it names is a candidate even where
each such choice holds the thing in a requirement it must differ from. That is a relation between
choices, judged with each choice like any two requirements that must differ (``check``: the
proposal's own choices; ``explain`` and ``step``: every way of choosing it), not a misfit of the
filter: read here, a choice of nothing for R with the thing for the judged requirement was told
"fits r1's filter for no legal choice of targets for r0" where it fits whatever R holds.

Nothing here relaxes the stack (601.2c, 603.3b): the engines judge each real choice with
:meth:`~triggerstack.model._facts.Facts.fits_target_of` and what is on the stack at that moment;
these candidates are the things some choice can reach when everything is available.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations
from typing import Protocol

from ._filters import Context, matches, who
from ._limits import Deadline
from ._shapes import Filter
from ._things import Thing


class Requirement(Protocol):
    """What the search reads of a requirement of the mode: ``facts.RequirementFacts``, whose module
    builds its requirements with this one (so it is named by what it has, not imported)."""

    @property
    def id(self) -> str: ...
    @property
    def filter(self) -> Filter: ...
    @property
    def min(self) -> int: ...
    @property
    def different_from(self) -> tuple[int, ...]: ...
    @property
    def depends_on(self) -> tuple[int, ...]: ...
    @property
    def candidates(self) -> tuple[int, ...]: ...

    def most(self, available: int) -> int: ...


def atoms(f: Filter, ids: Mapping[str, int]) -> tuple[tuple[int, str], ...]:
    """Each ``(requirement index, key)`` that ``f`` reads through ``target_of``, once."""
    return tuple(sorted({(ids[ref], key) for key, ref in f.iter_target_of()}))


def closure(reqs: Sequence[Requirement], r: int) -> tuple[int, ...]:
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


def _linked_pair(reqs: Sequence[Requirement], a: int, b: int) -> bool:
    return b in reqs[a].different_from or a in reqs[b].different_from


class LinkedSearch:
    """The search for one requirement ``r`` of a mode whose filter names others (``reqs``: the
    mode's requirements, their candidates before refinement). What does not depend on the thing
    judged — the requirements named, who reads each, and which things fit a named requirement's
    own filter for each choice of what it names — is found once, for all of ``r``'s candidates."""

    def __init__(
        self, reqs: Sequence[Requirement], r: int, things: Sequence[Thing], ctx: Context, deadline: Deadline
    ) -> None:
        self.reqs, self.r, self.things, self.ctx, self.deadline = reqs, r, things, ctx, deadline
        self.order = closure(reqs, r)
        self.members = (*self.order, r)
        ids: dict[str, int] = {q.id: j for j, q in enumerate(reqs)}
        self.readers: dict[int, list[tuple[int, str]]] = {d: [] for d in self.order}  # d → (reader, key)
        for k in self.members:
            for d, key in atoms(reqs[k].filter, ids):
                self.readers[d].append((k, key))
        self._fits: dict[tuple[int, tuple[tuple[int, ...], ...]], tuple[int, ...]] = {}
        self._nodes = 0
        self._choosable: bool | None = None

    def fits(self, t: int) -> bool:
        """Whether thing ``t`` fits ``r``'s filter for some legal choice of the requirements it
        names (see the module docstring)."""
        if not self.order:
            return matches(self.reqs[self.r].filter, self.things[t], self.ctx) is not False
        if self._dfs(t, 0, {}, {}):
            return True
        if self._choosable is None:  # whatever the thing: is there a legal choice of them at all?
            self._choosable = self._dfs(None, 0, {}, {})
        if self._choosable:
            return False
        # none: what they name is read as nothing chosen, as for one with no candidate at all
        nothing = {self.reqs[d].id: () for d in self.order}
        view = Context(self.ctx.you, self.ctx.is_opponent, nothing)
        return matches(self.reqs[self.r].filter, self.things[t], view) is True

    def _key_of(self, t: int | None, d: int, c: int, linked: set[int]) -> tuple[object, ...]:
        """What every reader of ``d`` sees of thing ``c``: ``r`` only whether it gives ``t``'s
        player, the others the player itself; a thing a linked requirement could choose is its own."""
        if c in linked:
            return ("thing", c)  # a requirement it must differ from could choose it too
        seen: list[object] = []
        for k, key in self.readers[d]:
            w = who(self.things[c], key)
            seen.append((t is not None and w == who(self.things[t], key)) if k == self.r else w)
        return tuple(seen)

    def _fitting(
        self, d: int, picked: dict[int, tuple[int, ...]], chosen: dict[str, tuple[Thing, ...]]
    ) -> tuple[int, ...]:
        """The candidates of ``d`` that fit its own filter for what its names chose (kept)."""
        req = self.reqs[d]
        if not req.depends_on:
            return req.candidates
        key = (d, tuple(picked[k] for k in req.depends_on))
        found = self._fits.get(key)
        if found is None:
            view = Context(self.ctx.you, self.ctx.is_opponent, chosen)
            fit = tuple(c for c in req.candidates if matches(req.filter, self.things[c], view) is True)
            found = self._fits[key] = fit
        return found

    def _dfs(
        self, t: int | None, depth: int, picked: dict[int, tuple[int, ...]], chosen: dict[str, tuple[Thing, ...]]
    ) -> bool:
        self._nodes += 1
        if self._nodes % 1024 == 0:
            self.deadline.check("finding the candidates of a target_of requirement")
        reqs, r = self.reqs, self.r
        if depth == len(self.order):
            if t is None:  # asked only whether they have a legal choice
                return True
            return matches(reqs[r].filter, self.things[t], Context(self.ctx.you, self.ctx.is_opponent, chosen)) is True
        d = self.order[depth]
        req = reqs[d]
        if req.min > req.most(len(req.candidates)):  # no legal choice at all: read as choosing nothing
            picked[d], chosen[req.id] = (), ()
            try:
                return self._dfs(t, depth + 1, picked, chosen)
            finally:
                del picked[d], chosen[req.id]
        taken = {x for k in self.members if k in picked and _linked_pair(reqs, d, k) for x in picked[k]}
        later = {
            x
            for k in self.members
            if k not in picked and k not in (d, r) and _linked_pair(reqs, d, k)
            for x in reqs[k].candidates
        }
        pool = [c for c in self._fitting(d, picked, chosen) if c not in taken]
        top = req.most(len(pool))
        if req.min > top:
            return False
        classes: dict[tuple[object, ...], list[int]] = {}
        for c in pool:
            classes.setdefault(self._key_of(t, d, c, later), []).append(c)
        groups = list(classes.values())
        for size in range(0, min(top, len(groups)) + 1):
            for used in combinations(groups, size):
                pick = _fill(used, req.min, top)
                if pick is None:
                    continue
                picked[d] = pick
                chosen[req.id] = tuple(self.things[c] for c in pick)
                if self._dfs(t, depth + 1, picked, chosen):
                    return True
                del picked[d], chosen[req.id]
        return False


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
