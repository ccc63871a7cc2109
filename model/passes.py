"""The loop of 603.3b: abilities that trigger while a pass is put on the stack wait for a further
pass, above, and passes repeat until nothing new triggers.

What triggers is decided by a *next-pass function* (:data:`NextPass`): given the scenario of a pass
and the outcome of that pass (its placed stack and removed abilities), it returns the waiting
abilities of the next pass (``Trigger`` s or trigger dicts). The default, :func:`by_reactions`,
reads the scenario's ``reactions``: each ability placed in a pass that targets the watched object,
controlled by a player the reaction's ``by`` matches (relative to the watched object's controller),
fires the reaction once, as the ability ``REACTION@ABILITY``. Engines whose own state-based actions
decide what triggers pass their own function.

The scenario of a later pass has the same players and objects, plus every ability placed in an
earlier pass as an object on the stack (kind ``ability``), and the fired abilities as its waiting
abilities. :class:`Passes` is the one place that steps from a pass to the next; ``check``, the
engines' chain and ``step`` all use it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import ScenarioError
from .facts import Facts, compile_facts, facts_of
from .outcome import Outcome
from .scenario import Scenario
from .shapes import Trigger

__all__ = ["NextPass", "Passes", "StackItem", "Successor", "by_reactions", "join", "next_scenario", "with_triggers"]

NextPass = Callable[[Scenario, Outcome], Sequence[Trigger | Mapping[str, Any]]]
"""``next_pass(pass_scenario, placed)``: the abilities that wait for the next pass (none: the loop ends)."""

StackItem = tuple[str, str]
"""An ability already on the stack from an earlier pass: ``(id, controller)``."""


def by_reactions(scenario: Scenario, placed: Outcome) -> list[dict[str, Any]]:
    """The default next-pass function: the scenario's ``reactions`` fired by ``placed``, in the
    order SPEC §5 sorts them (stack position of the ability that fired them, then reaction order)."""
    facts = facts_of(scenario)
    fired: list[dict[str, Any]] = []
    for entry in placed.stack:
        k = facts.ability_index.get(entry.ability)
        if k is None:
            continue
        you = facts.abilities[k].controller
        named = {t for ts in entry.targets.values() for t in ts}
        named.update(t for m in entry.modes or () for ts in m.targets.values() for t in ts)
        for reaction in scenario.reactions:
            if reaction.object not in named:
                continue
            who = facts.things[facts.thing_index[reaction.object]].protector
            if reaction.by == "any" or (
                who is not None and (facts.is_opponent(you, who) if reaction.by == "opponent" else you == who)
            ):
                body = reaction.trigger.model_dump(by_alias=True)
                fired.append({"id": f"{reaction.id}@{entry.ability}", **body})
    return fired


def with_triggers(
    scenario: Scenario,
    triggers: Sequence[Trigger | Mapping[str, Any]],
    objects: Sequence[Mapping[str, Any]] = (),
) -> Scenario:
    """``scenario`` with other waiting abilities (and more objects): "must target" effects keep
    the abilities still there, and drop those whose object is gone."""
    data = scenario.model_dump(by_alias=True)  # a full round trip: None can be meaningful (max)
    data["objects"] = [*data["objects"], *objects]
    data["triggers"] = [t.model_dump(by_alias=True) if isinstance(t, Trigger) else dict(t) for t in triggers]
    ids = {t["id"] for t in data["triggers"]}
    known = ids | {o["id"] for o in data["objects"]} | {p["id"] for p in data["players"]}
    must = []
    for m in data["must_target"]:
        if m["object"] not in known:
            continue
        if isinstance(m["applies_to"], (list, tuple)):
            m["applies_to"] = [x for x in m["applies_to"] if x in ids]
            if not m["applies_to"]:
                continue
        must.append(m)
    data["must_target"] = must
    return Scenario.model_validate(data, context={"later_pass": True})  # a later pass's ids hold '@'


def next_scenario(
    first: Scenario, on_stack: Sequence[StackItem], waiting: Sequence[Trigger | Mapping[str, Any]]
) -> Scenario:
    """The scenario of a further pass: ``first`` 's players and objects, the abilities already on
    the stack (bottom first) as objects, and ``waiting`` as its triggers."""
    stack = [{"id": aid, "kind": "ability", "ability_kind": "triggered", "controller": who} for aid, who in on_stack]
    return with_triggers(first, waiting, stack)


def join(parts: Sequence[Outcome]) -> Outcome:
    """The whole outcome (SPEC §3, §5) of consecutive passes: every pass's stack, bottom pass
    first, the removed abilities of every pass, and ``passes``, the entries per pass, when more
    than one pass put something on the stack (a last pass whose abilities were all removed puts
    nothing there, and is not listed)."""
    stack = tuple(e for o in parts for e in o.stack)
    removed = tuple(r for o in parts for r in o.removed)
    sizes = [len(o.stack) for o in parts]
    while len(sizes) > 1 and sizes[-1] == 0:
        sizes.pop()
    return Outcome(stack=stack, removed=removed, passes=tuple(sizes) if len(sizes) > 1 else None)


@dataclass(frozen=True, slots=True)
class Successor:
    """What follows a pass: the next pass's facts (``None`` when nothing triggered) and everything
    on the stack once the pass is placed (bottom first)."""

    facts: Facts | None
    on_stack: tuple[StackItem, ...]


@dataclass
class Passes:
    """603.3b's loop for one scenario: after each pass, which abilities wait for the next one.

    Each distinct next-pass scenario is compiled once and kept, so that a next pass reached again
    (by other choices in an earlier pass) is the same :class:`Facts`."""

    first: Facts
    next_pass: NextPass | None = None
    max_passes: int = 8
    _compiled: dict[str, Facts] = field(default_factory=dict, repr=False)

    @property
    def single(self) -> bool:
        """Whether the loop has only the first pass whatever is chosen (no reactions, no hook)."""
        return self.next_pass is None and not self.first.scenario.reactions

    def after(self, facts: Facts, placed: Outcome, below: tuple[StackItem, ...], depth: int) -> Successor:
        """The successor of pass number ``depth`` (0-based) of ``facts``, placed as ``placed``,
        with ``below`` already on the stack from earlier passes. Raises :class:`ScenarioError`
        when abilities still trigger after ``max_passes`` passes."""
        waiting = list((self.next_pass or by_reactions)(facts.scenario, placed))
        index = facts.ability_index
        # Canonical order, not stack order (SPEC §5): the next pass's things list this pass's
        # abilities as its waiting abilities were listed (the scenario's order, then as fired).
        on_stack = below + tuple(
            (e.ability, facts.abilities[index[e.ability]].controller)
            for e in sorted(placed.stack, key=lambda e: index[e.ability])
        )
        if not waiting:
            return Successor(None, on_stack)
        if depth + 1 >= self.max_passes:
            raise ScenarioError(
                f"abilities still trigger after {self.max_passes} passes of 603.3b (raise it with --max-passes)"
            )
        scenario = next_scenario(self.first.scenario, on_stack, waiting)
        key = json.dumps(scenario.model_dump(mode="json", by_alias=True), sort_keys=True)
        nxt = self._compiled.get(key)
        if nxt is None:
            nxt = self._compiled[key] = compile_facts(scenario)
        return Successor(nxt, on_stack)
