"""The action layout: capacities that give decision ids one meaning across scenarios."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields

from triggerstack.model._errors import LayoutOverflow
from triggerstack.model._text import found


@dataclass(frozen=True, slots=True)
class ActionLayout:
    """Capacities that give decision ids one meaning in every scenario that fits them.

    Slots: *things* are the players (first, in turn order) and then the objects, in scenario
    order; *abilities* are the scenario's waiting abilities in order and then every ability a
    reaction could fire from them (``REACTION@ABILITY``, pass by pass: :attr:`~._walk.Stepper.universe`);
    a mode is its index among its own ability's modes. The ids, in this order:

    ====================  ==========================================
    put ability a         a
    remove ability a      abilities + a
    mode m of ability a   2·abilities + a·modes + m
    end modes             2·abilities + abilities·modes
    target thing t        end modes + 1 + t
    target ability a      end modes + 1 + things + a
    end targets           end modes + 1 + things + abilities
    divide n              end targets + n, for n = 1 … divide
    ====================  ==========================================

    ``size`` ids in all; an id whose slot the scenario leaves empty is never legal. ``players``
    is how many seats there can be (the environment's agents), and ``passes`` how many passes of
    603.3b's loop a walk may take (it caps them as ``--max-passes`` does). A scenario's own
    smallest layout is :attr:`~._walk.Stepper.needs`; :meth:`covering` takes the largest of several.
    """

    abilities: int
    things: int
    modes: int = 1
    divide: int = 0
    passes: int = 1
    players: int = 2

    def __post_init__(self) -> None:
        values = (self.abilities, self.things, self.modes, self.divide, self.passes, self.players)
        plain = type(self.abilities) is type(self.things) is type(self.modes) is type(self.divide) is int
        if not (plain and type(self.passes) is type(self.players) is int) or min(values) < 0:  # every stepper's
            for name in _NAMES:
                value = getattr(self, name)
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise ValueError(f"ActionLayout.{name} must be a whole number, not {found(value)}")
        if self.passes < 1 or self.players < 1:
            raise ValueError("an ActionLayout has at least one pass and one player")
        if self.players > self.things:
            raise ValueError(f"ActionLayout: {self.players} players do not fit in {self.things} things")

    def __reduce__(self) -> tuple[Callable[..., ActionLayout], tuple[int, ...]]:
        """What it pickles as: its capacities, read back by :func:`laid_out` (a board drawn ahead
        travels with its layout, and ``dataclasses``' own state functions cost 3 µs a board)."""
        return laid_out, (self.abilities, self.things, self.modes, self.divide, self.passes, self.players)

    @classmethod
    def covering(cls, layouts: Iterable[ActionLayout]) -> ActionLayout:
        """The smallest layout that every one of ``layouts`` fits in."""
        found = list(layouts)
        if not found:
            raise ValueError("ActionLayout.covering needs at least one layout")
        return cls(**{name: max(getattr(x, name) for x in found) for name in _NAMES})

    def fits(self, other: ActionLayout) -> bool:
        """Whether ``other`` 's ids all have a place in this layout."""
        return (  # each capacity by name: a stepper asks once per board (getattr's loop cost what building it did)
            other.abilities <= self.abilities
            and other.things <= self.things
            and other.modes <= self.modes
            and other.divide <= self.divide
            and other.passes <= self.passes
            and other.players <= self.players
        )

    @property
    def end_modes(self) -> int:
        return 2 * self.abilities + self.abilities * self.modes

    @property
    def end_targets(self) -> int:
        return self.end_modes + 1 + self.things + self.abilities

    @property
    def size(self) -> int:
        """How many ids there are (OpenSpiel's ``num_distinct_actions``)."""
        return self.end_targets + 1 + self.divide

    def put(self, ability: int) -> int:
        return self._slot(ability, self.abilities, "ability")

    def remove(self, ability: int) -> int:
        return self.abilities + self._slot(ability, self.abilities, "ability")

    def mode(self, ability: int, mode: int) -> int:
        slot = self._slot(ability, self.abilities, "ability")
        return 2 * self.abilities + slot * self.modes + self._slot(mode, self.modes, "mode")

    def target_thing(self, thing: int) -> int:
        return self.end_modes + 1 + self._slot(thing, self.things, "thing")

    def target_ability(self, ability: int) -> int:
        return self.end_modes + 1 + self.things + self._slot(ability, self.abilities, "ability")

    def divide_amount(self, amount: int) -> int:
        return self.end_targets + self._slot(amount - 1, self.divide, "amount divided") + 1

    def describe(self, ident: int) -> str:
        """What an id means in any scenario: ``put ability 3``, ``target thing 0``, ``divide 2``."""
        id = ident
        if not 0 <= id < self.size:
            raise ValueError(f"no id {id} in this layout: ids run from 0 to {self.size - 1}")
        a = self.abilities
        if id < a:
            return f"put ability {id}"
        if id < 2 * a:
            return f"remove ability {id - a}"
        if id < self.end_modes:
            k, m = divmod(id - 2 * a, self.modes)
            return f"mode {m} of ability {k}"
        if id == self.end_modes:
            return "end modes"
        t = id - self.end_modes - 1
        if t < self.things:
            return f"target thing {t}"
        if t < self.things + a:
            return f"target ability {t - self.things}"
        if id == self.end_targets:
            return "end targets"
        return f"divide {id - self.end_targets}"

    @staticmethod
    def _slot(value: int, capacity: int, what: str) -> int:
        if not 0 <= value < capacity:
            raise LayoutOverflow(f"{what} slot {value} does not fit the layout (it has {capacity})")
        return value


_NAMES = tuple(f.name for f in fields(ActionLayout))
"""Its capacities, in order (read once: ``dataclasses.fields`` costs what building a layout does)."""

_LAID: dict[tuple[int, ...], ActionLayout] = {}
"""The layouts made by :func:`laid_out` in this process, by their capacities (a run reads back one
or two; each stepper's ``needs`` is one of a few hundred)."""
MOST_LAID = 4096


def laid_out(*capacities: int) -> ActionLayout:
    """The layout of these capacities (in field order), read back or a stepper's ``needs``: built
    once (and checked, as any is), then the same object each time — equal, as any two layouts of
    the same capacities are (past :data:`MOST_LAID` kept, built each time)."""
    found = _LAID.get(capacities)
    if found is None:
        found = ActionLayout(*capacities)
        if len(_LAID) < MOST_LAID:
            _LAID[capacities] = found
    return found
