"""A stepper as it travels with a board drawn in a worker process (issue 53: what a new board costs
the process playing it): what :class:`~._walk.Stepper` 's constructor worked out of the board's
facts — its universe of abilities, its thing slots, its modes, the layout it needs — sent as a few
plain values beside the facts, and the stepper made again from them where the board arrives.

Laying a board out is about 8 µs of the 30 to 40 a new board's set-up costs the process playing it
(hot; two to three times that as the board arrives, its caches cold), where reading those values
back is a few: the worker laid the board out to see that it fits its layout, and the environment
that plays it takes that stepper (``Stepper.taken``) instead of laying it out again. Only a stepper
of the default options travels so (what ``rl.boards`` draws with, and what an environment plays
with by default); its caches (each pass's decisions, the walks ended) never travel: they are
made as the board is played. ``tests/test_step_shared.py`` holds a stepper made again to the one
its constructor builds, attribute by attribute, and their walks equal.
"""

from __future__ import annotations

from typing import Any

from triggerstack.model._facts import Facts
from triggerstack.model._passes import Passes

from ..._options import Options
from ._walk import Stepper

_DEFAULT: list[Options] = []
"""The default options, made once per process (``Options()`` costs 20 µs)."""


def _default() -> Options:
    if not _DEFAULT:
        _DEFAULT.append(Options())
    return _DEFAULT[0]


Packed = tuple[Any, ...]
"""What a stepper travels as (:func:`packed`)."""


def packed(stepper: Stepper) -> Packed | None:
    """What ``stepper`` travels as beside its facts, or None where it does not travel (options
    other than the default: it is laid out again where it arrives, as it always was)."""
    if stepper.options != _default():
        return None
    return (
        stepper.layout,
        stepper._single,
        stepper._modes,
        stepper.beyond,
        stepper.universe,
        stepper.thing_slots,
        stepper.needs,
        stepper.size,
        stepper._base_abilities,
        stepper._base_modes,
        stepper._most,
    )


def unpacked(facts: Facts, values: Packed) -> Stepper:
    """The stepper of ``facts`` that :func:`packed` gave ``values`` of, made again: each attribute
    its constructor sets, the caches empty."""
    layout, single, modes, beyond, universe, thing_slots, needs, size, base_abilities, base_modes, most = values
    stepper = object.__new__(Stepper)
    stepper.facts = facts
    stepper.options = options = _default()
    stepper.layout = layout
    stepper.passes = Passes.within(facts, None, options.limits, None if layout is None else layout.passes)
    stepper._single = single
    stepper._modes = modes
    stepper.beyond = beyond
    stepper.universe = universe
    stepper.thing_slots = thing_slots
    stepper._ability_slot = {aid: i for i, aid in enumerate(universe)}
    stepper._thing_slot = {t: i for i, t in enumerate(thing_slots)}
    stepper.needs = needs
    stepper._by_text = {}
    stepper._by_key = {}
    stepper._by_id = {}
    stepper._ids = layout or needs
    stepper.size = size
    stepper._base_abilities = base_abilities
    stepper._base_modes = base_modes
    stepper._most = most
    stepper._steppers = {}
    stepper._lines = {}
    stepper._ended = {}
    stepper._after = {}
    stepper._product = None
    return stepper
