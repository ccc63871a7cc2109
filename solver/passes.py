"""The loop of 603.3b: abilities that trigger while a pass is put on the stack wait for a further
pass, above, and passes repeat until nothing new triggers.

What triggers is decided by a *next-pass function*: given the scenario of a pass and the outcome of
that pass (its placed stack and removed abilities), it returns the waiting abilities of the next
pass (``Trigger`` s or trigger dicts). The default reads the scenario's ``reactions``: each ability
placed in a pass that targets the watched object, controlled by a player the reaction's ``by``
matches (relative to the watched object's controller), fires the reaction once, as the ability
``REACTION@ABILITY``. Engines whose own state-based actions decide what triggers pass their own
function (see :func:`outcomes_across_passes`).

The scenario of a later pass has the same players and objects, plus every ability placed in an
earlier pass as an object on the stack (kind ``ability``), and the fired abilities as its
waiting abilities.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import Facts, compile, facts_of
from triggerstack.model.outcome import Outcome
from triggerstack.model.scenario import Scenario, Trigger

from .raw import RawOutcome, to_outcome

__all__ = [
    "DEFAULT_MAX_PASSES",
    "NextPass",
    "PassChain",
    "by_reactions",
    "join",
    "next_scenario",
    "with_triggers",
]

DEFAULT_MAX_PASSES = 8
NextPass = Callable[[Scenario, Outcome], Sequence[Trigger | Mapping[str, Any]]]


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
    first: Scenario, on_stack: Sequence[tuple[str, str]], waiting: Sequence[Trigger | Mapping[str, Any]]
) -> Scenario:
    """The scenario of a further pass: ``first`` 's players and objects, the abilities already on
    the stack (``(id, controller)``, bottom first) as objects, and ``waiting`` as its triggers."""
    stack = [{"id": aid, "kind": "ability", "ability_kind": "triggered", "controller": who} for aid, who in on_stack]
    return with_triggers(first, waiting, stack)


@dataclass(frozen=True, slots=True)
class Pass:
    """One pass: its facts and its outcome."""

    facts: Facts
    raw: RawOutcome


def join(passes: Sequence[Pass]) -> Outcome:
    """The whole outcome (SPEC §3, §5): every pass's stack, bottom pass first, the removed
    abilities of every pass, and ``passes`` when there was more than one."""
    parts = [to_outcome(p.facts, p.raw) for p in passes]
    stack = tuple(e for o in parts for e in o.stack)
    removed = tuple(r for o in parts for r in o.removed)
    sizes = tuple(len(o.stack) for o in parts) if len(parts) > 1 else None
    return Outcome(stack=stack, removed=removed, passes=sizes)


class PassChain:
    """Outcomes across passes: the passes after the first are built from what the earlier ones
    fired, compiled once per distinct scenario and counted once (memoised)."""

    def __init__(
        self,
        facts: Facts,
        next_pass: NextPass | None = None,
        max_passes: int = DEFAULT_MAX_PASSES,
        raw_outcomes: Callable[[Facts], Iterator[RawOutcome]] | None = None,
    ) -> None:
        from .fast import FastPass

        self.first = facts
        self.next_pass: NextPass = next_pass or by_reactions
        self.max_passes = max_passes
        self._outcomes = raw_outcomes or (lambda f: iter(FastPass(f)))
        self._compiled: dict[str, Facts] = {}
        self._counts: dict[int, int] = {}

    def _successor(
        self, facts: Facts, raw: RawOutcome, below: tuple[tuple[str, str], ...], depth: int
    ) -> tuple[Facts | None, tuple[tuple[str, str], ...]]:
        placed = to_outcome(facts, raw)
        waiting = list(self.next_pass(facts.scenario, placed))
        on_stack = below + tuple(
            (facts.abilities[p.ability].id, facts.abilities[p.ability].controller) for p in raw.stack
        )
        if not waiting:
            return None, on_stack
        if depth + 1 >= self.max_passes:
            raise ScenarioError(
                f"abilities still trigger after {self.max_passes} passes of 603.3b (raise it with --max-passes)"
            )
        scenario = next_scenario(self.first.scenario, on_stack, waiting)
        key = json.dumps(scenario.model_dump(mode="json", by_alias=True), sort_keys=True)
        nxt = self._compiled.get(key)
        if nxt is None:
            nxt = self._compiled[key] = compile(scenario)
        return nxt, on_stack

    def __iter__(self) -> Iterator[list[Pass]]:
        yield from self._iter(self.first, (), 0)

    def _iter(self, facts: Facts, below: tuple[tuple[str, str], ...], depth: int) -> Iterator[list[Pass]]:
        for raw in self._outcomes(facts):
            nxt, on_stack = self._successor(facts, raw, below, depth)
            if nxt is None:
                yield [Pass(facts, raw)]
            else:
                for rest in self._iter(nxt, on_stack, depth + 1):
                    yield [Pass(facts, raw), *rest]

    def count(self) -> int:
        """The exact number of whole outcomes: each first-pass outcome times the outcomes of the
        passes it leads to, those counted once per distinct next scenario."""
        return self._count(self.first, (), 0)

    def _count(self, facts: Facts, below: tuple[tuple[str, str], ...], depth: int) -> int:
        total = 0
        for raw in self._outcomes(facts):
            nxt, on_stack = self._successor(facts, raw, below, depth)
            if nxt is None:
                total += 1
                continue
            key = id(nxt)  # one Facts per distinct next scenario (see _successor)
            if key not in self._counts:
                self._counts[key] = self._count(nxt, on_stack, depth + 1)
            total += self._counts[key]
        return total
