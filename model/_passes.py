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
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from ._controllers import derive_controller
from ._errors import PastCompiled, ScenarioError
from ._facts import Facts, compile_facts, facts_of, reactions_of, scenario_of
from ._filters import Context, matches, possible_kinds
from ._limits import DEFAULT_LIMITS, Limits, in_force, raised_by
from ._numbers import counted
from ._outcome import Outcome, built_outcome, outcome_of
from ._scenario import Scenario
from ._shapes import Filter, MustTarget, Object, Reaction, Trigger, TriggerBody
from ._things import Thing
from ._types import PlayerId, ThingId

NextPass = Callable[[Scenario, Outcome], Sequence[Trigger | Mapping[str, Any]]]
"""``next_pass(pass_scenario, placed)``: the abilities that wait for the next pass (none: the loop ends)."""

StackItem = tuple[str, str]
"""An ability already on the stack from an earlier pass: ``(id, controller)``."""


def by_reactions(scenario: Scenario | Facts, placed: Outcome) -> list[dict[str, Any]]:
    """The default next-pass function: the scenario's ``reactions`` fired by ``placed``, in the
    order docs/formats.md, Proposal and outcome sorts them (stack position of the ability that fired them, then
    reaction order). Given the pass's facts, it reads them rather than compiling the scenario."""
    scenario, placed = scenario_of(scenario), outcome_of(placed, "placed")
    if not (reactions_of(scenario) if isinstance(scenario, Facts) else scenario.reactions):
        return []
    facts = facts_of(scenario)
    scenario = facts.scenario
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
    data = _with_triggers(scenario.model_dump(by_alias=True), triggers, objects)  # None can mean something (max)
    return Scenario.model_validate(data, context={"later_pass": True})  # a later pass's ids hold '@'


def _with_triggers(
    base: Mapping[str, Any],
    triggers: Sequence[Trigger | Mapping[str, Any]],
    objects: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The document of :func:`with_triggers`, not validated (``base`` is left as it is)."""
    data = dict(base)
    data["objects"] = [*base["objects"], *objects]
    data["triggers"] = [t.model_dump(by_alias=True) if isinstance(t, Trigger) else dict(t) for t in triggers]
    ids = {t["id"] for t in data["triggers"]}
    known = ids | {o["id"] for o in data["objects"]} | {p["id"] for p in data["players"]}
    must = []
    for m in base["must_target"]:
        if m["object"] not in known:
            continue
        if isinstance(m["applies_to"], (list, tuple)):
            m = {**m, "applies_to": [x for x in m["applies_to"] if x in ids]}
            if not m["applies_to"]:
                continue
        must.append(m)
    data["must_target"] = must
    return data


def _short(aid: str) -> str:
    """A fired ability's id, its middle cut where reactions fired reactions many times (``V@…@T``)."""
    parts = aid.split("@")
    return aid if len(parts) <= 3 else f"{parts[0]}@…@{parts[-1]}"


def firing(scenario: Scenario, waiting: Sequence[str]) -> str:
    """What fired the abilities ``waiting`` (ids ``R@X``: reaction R fired by ability X) and on
    what: "V@T targets knight, firing V and W" — empty where none was fired by a reaction."""
    watched = {r.id: r.object for r in scenario.reactions}
    found: dict[tuple[str, str], list[str]] = {}
    for aid in waiting:
        r, at, x = aid.partition("@")
        if at and r in watched:
            found.setdefault((x, watched[r]), []).append(r)
    return "; ".join(
        f"{_short(x)} targets {obj}, firing {', '.join(rs[:-1]) + ' and ' if len(rs) > 1 else ''}{rs[-1]}"
        for (x, obj), rs in found.items()
    )


def _stacked(on_stack: Sequence[StackItem]) -> list[dict[str, Any]]:
    return [{"id": aid, "kind": "ability", "ability_kind": "triggered", "controller": who} for aid, who in on_stack]


_TOKEN = "\x00"
"""Marks the places that stand for names in a signature (no scenario string holds it)."""


def _filters(f: Filter) -> list[Filter]:
    """``f`` and every filter inside it."""
    out = [f]
    for child in f.iter_children():
        out.extend(_filters(child))
    return out


def _renamed(value: Any, names: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, (list, tuple)):  # a model_dump holds tuples, a document lists
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, names) for k, v in value.items()}
    return value


_M = TypeVar("_M", bound=BaseModel)


def _with_id(template: _M, ident: str) -> _M:
    """A validated part with another id (itself valid: the parts of a fired ability's id are)."""
    return template.model_copy(update={"id": ident})


def join(parts: Sequence[Outcome]) -> Outcome:
    """The whole outcome (docs/rules.md, "An outcome"; docs/formats.md, Proposal and outcome) of consecutive
    passes: every pass's stack, bottom pass first, the removed abilities of every pass, and ``passes``, the entries
    per pass, when more than one pass put something on the stack (a last pass whose abilities were all removed puts
    nothing there, and is not listed)."""
    stack = tuple(e for o in parts for e in o.stack)
    removed = tuple(r for o in parts for r in o.removed)
    sizes = [len(o.stack) for o in parts]
    while len(sizes) > 1 and sizes[-1] == 0:
        sizes.pop()
    return built_outcome(stack, removed, tuple(sizes) if len(sizes) > 1 else None)  # parts built, not read


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
    (by other choices in an earlier pass) is the same :class:`Facts` — at most ``max_compiled`` by
    one call (:meth:`reach`), since nothing kept is let go while the scenario lives (ids key it).
    :meth:`signature` tells when a pass repeats an earlier one up to names, which is how the
    engines name an endless loop."""

    first: Facts
    next_pass: NextPass | None = None
    max_passes: int = DEFAULT_LIMITS.passes
    max_compiled: int = DEFAULT_LIMITS.compiled
    _compiled: dict[str, Facts] = field(default_factory=dict, repr=False)
    _signatures: dict[int, str | None] = field(default_factory=dict, repr=False)
    _stack_matters: bool | None = field(default=None, repr=False)
    _first_data: dict[str, Any] | None = field(default=None, repr=False)
    _fast: bool | None = field(default=None, repr=False)
    _stackless: dict[int, str | None] = field(default_factory=dict, repr=False)
    _controllers: frozenset[PlayerId] | None = field(default=None, repr=False)
    _uncalled: int = field(default=0, repr=False)  # passes compiled with no call running
    _fires: dict[str, tuple[Trigger, dict[str, Any]]] | None = field(default=None, repr=False)
    _stack_objects: dict[str, Object] = field(default_factory=dict, repr=False)

    @classmethod
    def within(cls, first: Facts, next_pass: NextPass | None, limits: Limits, max_passes: int | None = None) -> Passes:
        """The passes of ``first`` held to ``limits`` (its passes, or ``max_passes`` fewer, and the
        passes one call compiles): how every verb and engine builds them."""
        depth = limits.passes if max_passes is None else min(max_passes, limits.passes)
        return cls(first, next_pass, depth, limits.compiled)

    @property
    def compiled(self) -> int:
        """How many distinct later passes this object has compiled (each kept)."""
        return len(self._compiled)

    def signature(self, facts: Facts) -> str | None:
        """What a pass *is*, up to names: its scenario with each waiting ability named by its place
        and the abilities on the stack from earlier passes left out — or, where a fired ability
        could target an ability (then the stack is part of what it can choose), named by their
        places. By the default :func:`by_reactions`, what follows a pass depends on nothing else,
        so a pass with the signature of an earlier pass on the same path repeats it forever: a
        loop, and two passes with one signature have as many outcomes. None with an engine's
        ``next_pass`` hook, whose answers may depend on names."""
        key = id(facts)
        if key not in self._signatures:
            data = facts.scenario.model_dump(by_alias=True)
            self._signatures[key] = None if self.next_pass is not None else self._signature(data)
        return self._signatures[key]

    def _base(self) -> dict[str, Any]:
        if self._first_data is None:
            self._first_data = self.first.scenario.model_dump(by_alias=True)
        return self._first_data

    def _live_reactions(self) -> list[Reaction]:
        """The reactions that could fire at all: some waiting ability or reaction's ability could
        target the object each watches (:meth:`Facts.may_fit`)."""
        s, facts = self.first.scenario, self.first
        bodies: list[TriggerBody] = [*s.triggers, *(r.trigger for r in s.reactions)]
        filters = [r.filter for b in bodies for _, reqs in b.requirement_lists() for r in reqs]
        live = []
        for reaction in s.reactions:
            k = facts.thing_index.get(reaction.object)
            if k is None or any(facts.may_fit(f, facts.things[k]) for f in filters):
                live.append(reaction)
        return live

    def _stack_controllers(self) -> frozenset[PlayerId]:
        """Who can control an ability put on the stack by a pass: the controller of a waiting
        ability of the first pass or of a reaction's ability (603.3a); no one else's ever is."""
        if self._controllers is None:
            s = self.first.scenario
            out = {a.controller for a in self.first.abilities}
            for i, r in enumerate(s.reactions):
                out.add(derive_controller(s, r.trigger, ("reactions", i, "trigger")).player)
            self._controllers = frozenset(out)
        return self._controllers

    def may_target_the_stack(self, f: Filter, you: PlayerId, on_stack: Sequence[StackItem] | None = None) -> bool:
        """Whether an ability ``you`` control with filter ``f`` could target an ability a pass put on
        the stack (:meth:`_may_target_the_stack`) — with ``on_stack``, one of those abilities' (whose
        copies, fired again by the same reactions, have the same controllers)."""
        controllers = self._stack_controllers() if on_stack is None else frozenset(PlayerId(p) for _, p in on_stack)
        return self._may_target_the_stack(f, you, controllers)

    def _may_target_the_stack(self, f: Filter, you: PlayerId, controllers: frozenset[PlayerId]) -> bool:
        """Whether a fired ability that ``you`` control, with filter ``f``, could target an ability
        put on the stack in an earlier pass by one of ``controllers`` (a reaction that could only
        target an opponent's ability when every ability is its controller's never can, however the
        stack grows)."""
        named = [i for sub in _filters(f) for i in sub.id or () if "@" in i]
        if "ability" not in possible_kinds(f):
            return False
        ctx = Context(you, self.first.is_opponent)
        return any(
            matches(f, Thing(ThingId(aid), "ability", "stack", p, p, ability_kind="triggered"), ctx) is not False
            for p in sorted(controllers)
            for aid in [*named, "@"]
        )

    def _signature(self, data: Mapping[str, Any]) -> str | None:
        """The signature of a pass from its scenario's document (see :meth:`signature`)."""
        if self._stack_matters is None:
            s, controllers = self.first.scenario, self._stack_controllers()
            self._stack_matters = any(
                self._may_target_the_stack(r.filter, derive_controller(s, reaction.trigger, ()).player, controllers)
                for reaction in self._live_reactions()
                for _, reqs in reaction.trigger.requirement_lists()
                for r in reqs
            )
        if self._fast is None:  # nothing the scenario says names a fired ability: the fast form applies
            self._fast = not self._stack_matters and not self._names_fired()
        if self._fast and all("@" in t["id"] for t in data["triggers"]):
            # by_reactions fires {"id": "R@X", **R's body}: a later pass is its reactions, in order,
            # and the "must target" effects still in force (the rest is the first scenario's)
            fired = [t["id"].partition("@")[0] for t in data["triggers"]]
            return json.dumps([fired, data["must_target"]], sort_keys=True)
        return self._named(data, with_stack=bool(self._stack_matters))

    def _names_fired(self) -> bool:
        """Whether the first scenario's players, objects, reactions or "must target" effects name a
        fired ability (``@``): then no renaming of fired abilities can be trusted to keep them."""
        base = self._base()
        return "@" in json.dumps([base[k] for k in ("players", "objects", "reactions", "must_target")])

    def _named(self, data: Mapping[str, Any], with_stack: bool) -> str | None:
        """A pass's document with its waiting abilities named by their places and, ``with_stack``,
        the abilities on the stack from earlier passes by theirs (else left out); None where the
        scenario's own strings hold the marker (no renaming can be trusted)."""
        own = len(self.first.scenario.objects)
        names: dict[str, str] = {t["id"]: f"{_TOKEN}w{i}" for i, t in enumerate(data["triggers"])}
        shown = dict(data)
        if with_stack:
            names.update({o["id"]: f"{_TOKEN}s{j}" for j, o in enumerate(data["objects"][own:])})
        else:
            shown["objects"] = data["objects"][:own]
        if "\\u0000" in json.dumps(shown):
            return None
        return json.dumps(_renamed(shown, names), sort_keys=True)

    def stackless(self, facts: Facts) -> str | None:
        """What a pass is up to names *and* the abilities on the stack from earlier passes, where
        those matter (:meth:`signature` already leaves them out where they don't): two passes on
        one path with this in common differ only in the stack, which within 603.3b only grows.
        None where :meth:`signature` is None, or where the scenario names a fired ability. Computed
        once per pass."""
        key = id(facts)
        if key not in self._stackless:
            plain = self.signature(facts) is None or not self._stack_matters or self._names_fired()
            data = None if plain else facts.scenario.model_dump(by_alias=True)
            self._stackless[key] = None if data is None else self._named(data, with_stack=False)
        return self._stackless[key]

    @property
    def single(self) -> bool:
        """Whether the loop has only the first pass whatever is chosen (no reactions, no hook)."""
        return self.next_pass is None and not reactions_of(self.first)

    def peek(self, facts: Facts, placed: Outcome, below: tuple[StackItem, ...]) -> Ahead:
        """What follows pass ``facts`` placed as ``placed`` (with ``below`` on the stack from earlier
        passes), before anything is compiled: whether the loop ends, and the next pass's class."""
        waiting = list(self.next_pass(facts.scenario, placed) if self.next_pass else by_reactions(facts, placed))
        index = facts.ability_index
        # Canonical order, not stack order (docs/formats.md, Proposal and outcome): the next pass's things list
        # this pass's abilities as its waiting abilities were listed (the scenario's order, then as fired).
        on_stack = below + tuple(
            (e.ability, facts.abilities[index[e.ability]].controller)
            for e in sorted(placed.stack, key=lambda e: index[e.ability])
        )
        data = _with_triggers(self._base(), waiting, _stacked(on_stack)) if waiting else None
        return Ahead(self, on_stack, data)

    def reach(self, ahead: Ahead, depth: int, capped: bool = True) -> Successor:
        """The successor :meth:`peek` saw after pass number ``depth`` (0-based): its facts compiled
        (once per distinct scenario). Raises :class:`ScenarioError` when abilities still trigger
        after ``max_passes`` passes (unless not ``capped``: ``check`` follows a proposal's own
        passes, which end once it lists no more), and :class:`PastCompiled` before the running
        call compiles more than ``max_compiled`` distinct passes (:meth:`_compile`)."""
        if ahead.data is None:
            return Successor(None, ahead.on_stack)
        if capped and depth + 1 >= self.max_passes:
            fired = firing(self.first.scenario, [t["id"] for t in ahead.data["triggers"]])
            raise ScenarioError(
                f"abilities still trigger after {counted(self.max_passes, 'passes')} of 603.3b and no pass repeats "
                "an earlier one, so the chain may yet end (raise the cap with --max-passes)"
                + (f"; still triggering: {fired}" if fired else "")
            )
        key = json.dumps(ahead.data, sort_keys=True, default=list)
        nxt = self._compiled.get(key)
        if nxt is None:
            nxt = self._compiled[key] = self._compile(ahead.data)
            self._signatures[id(nxt)] = ahead.signature
        return Successor(nxt, ahead.on_stack)

    def _compile(self, data: dict[str, Any]) -> Facts:
        """A pass not compiled before, counted against ``max_compiled`` within the running call
        (:meth:`~triggerstack.model._limits.Deadline.compiled_one`; with none, over this object's
        life) — the one place every verb and engine compiles a later pass, and what a chain keeps
        per pass (its engine, its table) is one per pass compiled here, so the cap bounds them all."""
        call = in_force()
        if call is None:
            self._uncalled += 1
        made = self._uncalled if call is None else call.compiled_one()
        if made > self.max_compiled:
            fired = firing(self.first.scenario, [t["id"] for t in data["triggers"]])
            raise PastCompiled(
                f"following the passes of 603.3b compiles more than the limit of "
                f"{counted(self.max_compiled, 'distinct passes')} in one call, each kept with its engine"
                f"{raised_by('compiled')}" + (f"; still triggering: {fired}" if fired else "")
            )
        return compile_facts(self.scenario(data))

    def scenario(self, data: dict[str, Any]) -> Scenario:
        """The scenario of the later pass ``data`` (:func:`_with_triggers`' document): built from the
        first scenario's validated parts where :func:`by_reactions` fired it (:meth:`_built`),
        validated otherwise."""
        built = self._built(data) if self.next_pass is None else None
        return built or Scenario.model_validate(data, context={"later_pass": True})

    def following(self, on_stack: Sequence[StackItem], waiting: Sequence[Mapping[str, Any]]) -> Scenario:
        """The scenario of a further pass: the first pass's players and objects, the abilities
        already on the stack (bottom first) as objects, and ``waiting`` as its triggers — built as
        :meth:`scenario` builds a pass."""
        return self.scenario(_with_triggers(self._base(), waiting, _stacked(on_stack)))

    def _built(self, data: Mapping[str, Any]) -> Scenario | None:
        """The scenario of a later pass that :func:`by_reactions` fired, built from the first
        scenario's validated parts rather than by validating its document again (that was 86% of
        compiling a pass: the walk over a whole dumped document and pydantic's over every part).
        What :func:`_with_triggers` wrote is the first scenario's fields, each fired ability a
        reaction's validated body under the id ``REACTION@ABILITY``, each ability on the stack an
        object of one shape, and the "must target" effects kept (validated again: few). Each
        reference these make was checked when the first scenario was (a reaction's body, in its
        place; the effects kept name only what is still there; the ids are new and distinct), so
        only each waiting ability's controller is derived (603.3a), as validation derives it.
        None (validate the document, which names the problem) where anything is not that.
        ``tests/property/test_compiled.py`` holds it to the validated scenario on generated chains."""
        s, own = self.first.scenario, len(self.first.scenario.objects)
        try:
            triggers = tuple(self._fired(t) for t in data["triggers"])
            stacked = tuple(self._on_stack(o) for o in data["objects"][own:])
            must = tuple(MustTarget.model_validate(m) for m in data["must_target"])
        except (KeyError, ValidationError):
            return None
        fields = {"players": s.players, "objects": (*s.objects, *stacked), "triggers": triggers}
        built = Scenario.model_construct(**{**dict(s), **fields, "must_target": must})
        try:
            built._controls = tuple(derive_controller(built, t, ("triggers", i)) for i, t in enumerate(triggers))
        except ScenarioError:
            return None
        return built

    def _fired(self, t: Mapping[str, Any]) -> Trigger:
        """A fired ability ``{"id": "R@X", **body}``: reaction R's validated body with that id."""
        reaction = self._reactions().get(t["id"].partition("@")[0])
        if reaction is None or dict(t) != {"id": t["id"], **reaction[1]}:
            raise KeyError(t["id"])  # not what by_reactions fires: the document is validated
        return _with_id(reaction[0], t["id"])

    def _reactions(self) -> dict[str, tuple[Trigger, dict[str, Any]]]:
        """Each reaction's ability as a trigger (a placeholder id) and the body by_reactions dumps."""
        if self._fires is None:
            self._fires = {}
            for r in self.first.scenario.reactions:
                body = r.trigger.model_dump(by_alias=True)
                self._fires[r.id] = (Trigger.model_validate({**body, "id": "_"}), body)
        return self._fires

    def _on_stack(self, o: Mapping[str, Any]) -> Object:
        """An ability on the stack from an earlier pass, as :func:`_stacked` writes it."""
        who = o["controller"]
        shape = _stacked([("_", who)])[0]
        if not isinstance(who, str) or dict(o) != {**shape, "id": o["id"]}:
            raise KeyError(o.get("id"))
        template = self._stack_objects.get(who)
        if template is None:
            template = self._stack_objects[who] = Object.model_validate(shape)
        return _with_id(template, o["id"])

    def after(
        self, facts: Facts, placed: Outcome, below: tuple[StackItem, ...], depth: int, capped: bool = True
    ) -> Successor:
        """:meth:`reach` of :meth:`peek`: the successor of pass number ``depth`` of ``facts``."""
        return self.reach(self.peek(facts, placed, below), depth, capped)


class Ahead:
    """What :meth:`Passes.peek` sees after a pass: the stack, and the next pass's document (None:
    nothing triggered, the loop ends) with its signature, computed once when first asked."""

    __slots__ = ("_asked", "_passes", "_signature", "data", "on_stack")

    def __init__(self, passes: Passes, on_stack: tuple[StackItem, ...], data: dict[str, Any] | None) -> None:
        self._passes = passes
        self.on_stack = on_stack
        self.data = data
        self._asked = False
        self._signature: str | None = None

    @property
    def ends(self) -> bool:
        return self.data is None

    @property
    def signature(self) -> str | None:
        """The next pass's class (:meth:`Passes.signature`); None with an engine's hook, or when
        the loop ends."""
        if not self._asked:
            self._asked = True
            if self.data is not None and self._passes.next_pass is None:
                self._signature = self._passes._signature(self.data)
        return self._signature
