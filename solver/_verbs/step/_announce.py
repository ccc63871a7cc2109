"""Announcing one ability's choice token by token without listing its choices.

Where an ability's choices are a plain product (:func:`~..._core.space.is_independent`) and no
mode may be chosen twice, the tokens that can follow a prefix are known from the prefix alone:
any mode an allowed set holds beside those chosen, then per requirement any candidate not chosen
yet while the set may still grow (its targets are a set, 601.2c: chosen in any order, kept
sorted), ``end targets`` once its minimum is reached, and the parts of a division that leave at
least one for each target still to come. That is exactly the set of next
tokens of the choices the space would list, so a walk over a requirement with sixty candidates
costs what its decisions cost, not the 1,830 choices it has. An ability whose choices are coupled,
or whose modes repeat (700.2d: instances of one mode are ordered among themselves), is listed as
before (:class:`~._pass.PassStepper`).
"""

from __future__ import annotations

from dataclasses import dataclass

from triggerstack.model._facts import AbilityFacts

from ..._core.indexed import Choice, ModeInstance
from ..._core.space import ChoiceSpace, is_independent


@dataclass(frozen=True, slots=True)
class _Req:
    pool: tuple[int, ...]
    low: int
    high: int
    divide: int | None


@dataclass(frozen=True, slots=True)
class Announcer:
    """The next tokens and the complete choice of one ability's announcement (one pass's token
    alphabet: ``mode0`` is its first mode's token, then ``end_modes``, ``target0`` (thing ``t``
    is ``target0 + t``), ``end_targets`` and ``divide0`` (an amount ``n`` is ``divide0 + n − 1``))."""

    modal: bool
    multisets: frozenset[tuple[int, ...]]
    modes: dict[int, tuple[_Req, ...]]
    mode0: int
    end_modes: int
    target0: int
    end_targets: int
    divide0: int

    def _read(self, tokens: tuple[int, ...]) -> tuple[tuple[int, ...], int | None]:
        """The modes announced, and how many tokens they took (None: modes are still being chosen)."""
        if not self.modal:
            (only,) = self.multisets
            return only, 0
        if self.end_modes not in tokens:
            return tuple(t - self.mode0 for t in tokens), None
        at = tokens.index(self.end_modes)
        return tuple(t - self.mode0 for t in tokens[:at]), at + 1

    def read(self, tokens: tuple[int, ...]) -> Choice | list[int]:
        """The choice ``tokens`` spell if they spell a whole one, else the tokens that can follow
        them (sorted; none: ``tokens`` begin no choice). One reading answers both: applying a
        token asks whether the choice is whole, and the next question is what may follow."""
        modes, used = self._read(tokens)
        if used is None:  # modes are a set (700.2): any mode an allowed set holds beside those chosen
            chosen = set(modes)
            out = {m + self.mode0 for ms in self.multisets if chosen <= set(ms) for m in ms if m not in chosen}
            if modes in self.multisets:
                out.add(self.end_modes)
            return sorted(out)
        found = self._walk(modes, tokens[used:])
        return [] if found is None else found

    def next(self, tokens: tuple[int, ...]) -> list[int]:
        """The tokens that can follow ``tokens`` (sorted)."""
        found = self.read(tokens)
        return [] if isinstance(found, Choice) else found

    def _walk(self, modes: tuple[int, ...], rest: tuple[int, ...]) -> list[int] | Choice | None:
        """Read the targets and divisions after the modes: the next tokens, or the choice once
        every requirement is done (None: ``rest`` is no prefix of a choice)."""
        instances: list[ModeInstance] = []
        i = 0
        for m in modes:
            targets: list[tuple[int, ...]] = []
            divs: list[tuple[int, ...]] = []
            for r in self.modes[m]:
                chosen: list[int] = []
                while i < len(rest) and rest[i] != self.end_targets:
                    chosen.append(rest[i] - self.target0)
                    i += 1
                if i == len(rest):
                    return self._targets_next(r, chosen)
                i += 1  # end targets
                parts: list[int] = []
                if r.divide is not None and chosen:
                    while len(parts) < len(chosen):
                        if i == len(rest):
                            return [self.divide0 + n - 1 for n in _parts_next(r.divide, len(chosen), parts)]
                        parts.append(rest[i] - self.divide0 + 1)
                        i += 1
                targets.append(tuple(chosen))
                divs.append(tuple(parts))
            instances.append(ModeInstance(m, tuple(targets), tuple(divs) if any(divs) else ()))
        if i != len(rest):
            return None
        return Choice(tuple(sorted(instances)))

    def _targets_next(self, r: _Req, chosen: list[int]) -> list[int]:
        """A requirement's targets are a set (601.2c): every candidate not chosen yet may be added
        while a set of at most ``high`` and at least ``low`` still holds them all."""
        k = len(chosen)
        out: list[int] = []
        if k < r.high and max(r.low, k + 1) <= len(r.pool):
            taken = set(chosen)
            out = [self.target0 + t for t in r.pool if t not in taken]
        if r.low <= k:
            out.append(self.end_targets)
        return out


def _parts_next(amount: int, parts: int, so_far: list[int]) -> range:
    """The next part of ``amount`` divided into ``parts`` parts of at least 1, after ``so_far``."""
    left = amount - sum(so_far)
    after = parts - len(so_far) - 1
    if after == 0:
        return range(left, left + 1)
    return range(1, left - after + 1)


def announcer_for(
    a: AbilityFacts, space: ChoiceSpace, mode0: int, end_modes: int, target0: int, end_targets: int, divide0: int
) -> Announcer | None:
    """The announcer of ``a``'s choices in ``space``, or None where they must be listed: coupled
    choices, a mode that may repeat, or a space already listed."""
    parts = space.product()
    if parts is None or not is_independent(a) or a.forced_removal is not None:
        return None
    multisets = frozenset(parts[0])
    if any(len(set(ms)) != len(ms) for ms in multisets) or (not a.modal and len(multisets) != 1):
        return None
    modes = {m: tuple(_Req(*r) for r in reqs) for m, reqs in parts[1].items()}
    return Announcer(a.modal, multisets, modes, mode0, end_modes, target0, end_targets, divide0)


_FlatReq = tuple[tuple[int, ...], int, int, int | None]
Flat = tuple[bool, tuple[tuple[int, ...], ...], tuple[tuple[int, tuple[_FlatReq, ...]], ...], int, int, int, int, int]
"""An :class:`Announcer` as plain values (:func:`flat`): tuples of integers and booleans."""


def flat(announcer: Announcer) -> Flat:
    """``announcer`` as plain values, which pickle as they are (a board drawn in a worker process
    brings its abilities' announcers: ``rl/_prepared.py``); :func:`unflat` makes it again."""
    a = announcer
    modes = tuple((m, tuple((r.pool, r.low, r.high, r.divide) for r in reqs)) for m, reqs in a.modes.items())
    return (a.modal, tuple(a.multisets), modes, a.mode0, a.end_modes, a.target0, a.end_targets, a.divide0)


def unflat(values: Flat) -> Announcer:
    """The announcer :func:`flat` gave ``values`` of (equal to it)."""
    modal, multisets, modes, mode0, end_modes, target0, end_targets, divide0 = values
    made = {m: tuple(_Req(*r) for r in reqs) for m, reqs in modes}
    return Announcer(modal, frozenset(multisets), made, mode0, end_modes, target0, end_targets, divide0)


def announced_choice(
    a: AbilityFacts, tokens: tuple[int, ...], mode0: int, end_modes: int, target0: int, end_targets: int
) -> list[tuple[int, list[list[int]]]]:
    """What ``tokens`` announce of ``a``'s choice once its modes are chosen: each mode instance in
    the walk's order with its requirements' targets so far (thing indices; the parts of a division
    left out), in the alphabet :class:`Announcer` reads."""
    rest = list(tokens)
    modes = [0]
    if a.modal:
        i = rest.index(end_modes)
        modes, rest = [t - mode0 for t in rest[:i]], rest[i + 1 :]
    out: list[tuple[int, list[list[int]]]] = []
    for m in modes:
        per: list[list[int]] = []
        for r in a.modes[m].requirements:
            chosen: list[int] = []
            while rest and rest[0] != end_targets:
                chosen.append(rest.pop(0) - target0)
            per.append(chosen)
            if rest:
                del rest[: 1 + (len(chosen) if r.divide else 0)]  # end targets, and a part per target divided
        out.append((m, per))
    return out


def division_announced(
    a: AbilityFacts, tokens: tuple[int, ...], mode0: int, end_modes: int, target0: int, end_targets: int, divide0: int
) -> tuple[int, list[int], list[int]] | None:
    """The division ``tokens`` are announcing the parts of (601.2d), if they are: its amount, the
    targets it is divided among (thing indices, in the walk's order) and the parts given so far."""
    rest = list(tokens)
    modes = [0]
    if a.modal:
        if end_modes not in rest:
            return None
        i = rest.index(end_modes)
        modes, rest = [t - mode0 for t in rest[:i]], rest[i + 1 :]
    for m in modes:
        for r in a.modes[m].requirements:
            chosen: list[int] = []
            while rest and rest[0] != end_targets:
                chosen.append(rest.pop(0) - target0)
            if not rest:
                return None  # its targets are being chosen
            del rest[0]
            if r.divide is None or not chosen:
                continue
            parts = [t - divide0 + 1 for t in rest[: len(chosen)]]
            del rest[: len(chosen)]
            if len(parts) < len(chosen) and not rest:
                return r.divide, chosen, parts
    return None
