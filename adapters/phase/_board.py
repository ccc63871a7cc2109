"""A phase state at a trigger-placement prompt, read as our scenario (docs/phase.md, "The mapping").

``read(state)`` takes what ``Game.state()`` exports (or its ``"state"`` part) and gives a
:class:`Reading`: the scenario of the waiting batch, the :class:`Index` from our ids back to phase's,
the prompt phase is waiting on, the part of the batch already placed, and every :class:`Gap` — what
the state does not say. With ``strict=True`` (the default) a gap is an error, :class:`PhaseGap`.
Pure: it imports nothing of phase, so recorded states are read without it (tests/data/phase/).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, cast

from triggerstack.model import Scenario
from triggerstack.model._args import name_of
from triggerstack.model._text import found as quoted

from ._abilities import Gap, translate
from ._objects import (
    combat_of,
    controller_of,
    read_object,
    read_player_keywords,
    read_players,
    read_stack_object,
    slug,
)
from ._schema import Node, PhaseError, PhaseGap, PhaseStateError, root

PROMPTS = ("OrderTriggers", "TriggerTargetSelection", "AbilityModeChoice", "DistributeAmong")


@dataclass(frozen=True)
class BatchEntry:
    """One ability of the waiting batch: our trigger id, and what identifies it in phase — its
    source, its description, its trigger event's object, its controller — with its stack entry's id
    once placed (``stack_id``) and its place in its controller's order prompt (``prompt_index``)."""

    trigger: str
    source_id: int | None
    description: str
    event_object: int | None
    controller: int
    stack_id: int | None = None
    prompt_index: int | None = None
    deferred: int | None = None
    """Its place in ``deferred_triggers``: the abilities phase has ordered and will place next, in
    that order (the first is placed next)."""
    group: int | None = None
    """Its group in ``pending_trigger_order``: the abilities of one player not yet put in order."""


def exported(game: Any) -> Any:
    """``game.state()``: phase cannot always export its own state, and says so as :class:`PhaseError`."""
    try:
        return game.state()
    except ValueError as exc:
        raise PhaseError(f"state(): {exc}") from exc


def placed_as(left: list[BatchEntry], entry: Node) -> tuple[Node, BatchEntry | None]:
    """A stack entry phase placed above the batch: its data, and which ability of ``left`` it is — the
    one of the same source and description (of one ability triggered by several events, the one
    whose event is the entry's), or None (a reaction, what the batch read did not hold, no trigger)."""
    data = entry["kind"]["data"]
    if entry["kind"].tag() != "TriggeredAbility":
        return data, None
    ability = data["ability"]
    said = data.opt("Trigger.description").maybe_str() or ability.opt("Ability.description").maybe_str()
    event, source = _event_object(data), ability["source_id"].as_int()
    same = [b for b in left if b.source_id == source and b.description == said]
    return data, next((b for b in same if b.event_object == event), same[0] if same else None)


def ref(target: Node) -> tuple[str, int]:
    """A ``TargetRef``: ``{"Player": id}`` or ``{"Object": id}``, as its kind and id."""
    kind, value = target.variant()
    if kind not in ("Player", "Object"):
        target.refuse('expected a target {"Player": id} or {"Object": id}')
    return kind, value.as_int()


@dataclass
class Index:
    """Our ids ↔ phase's: players (``PlayerId``), objects and stack entries (``ObjectId``), and the
    batch's abilities."""

    players: dict[str, int] = field(default_factory=dict)
    objects: dict[str, int] = field(default_factory=dict)
    batch: list[BatchEntry] = field(default_factory=list)
    current: str | None = None
    """The ability being placed (phase's ``pending_trigger``), if any."""
    _by_oid: dict[int, str] = field(default_factory=dict, repr=False, compare=False)

    def player_id(self, pid: int) -> str | None:
        return next((k for k, v in self.players.items() if v == pid), None)

    def object_id(self, oid: int) -> str | None:
        if len(self._by_oid) != len(self.objects):  # built again once objects were added (a dict, in order)
            self._by_oid = {}
            for k, v in self.objects.items():
                self._by_oid.setdefault(v, k)
        return self._by_oid.get(oid)

    @property
    def stack_ids(self) -> set[int]:
        """phase's ids of the stack entries that stood below the batch (our ``stack#…`` objects)."""
        return {v for k, v in self.objects.items() if k.startswith("stack#")}

    def entry(self, trigger: str) -> BatchEntry:
        """The batch's entry of the waiting ability ``trigger``; an id no ability of the batch has is
        refused naming it (model/_args.py ``name_of``), never a ``StopIteration``."""
        found = next((e for e in self.batch if e.trigger == trigger), None)
        if found is None:
            name_of(trigger, "trigger", [e.trigger for e in self.batch], "waiting ability", "waiting abilities")
        assert found is not None
        return found

    def target_ref(self, thing: str) -> dict[str, int]:
        """The ``TargetRef`` phase takes for one of our players or objects."""
        if thing in self.players:
            return {"Player": self.players[thing]}
        if thing in self.objects:
            return {"Object": self.objects[thing]}
        entry = self.entry(thing)
        if entry.stack_id is None:
            raise KeyError(f"{thing} is not on phase's stack yet")
        return {"Object": entry.stack_id}

    def thing(self, target: Node | Mapping[str, int]) -> str | None:
        """Our id for a phase ``TargetRef`` (``{"Player": id}`` or ``{"Object": id}``)."""
        kind, oid = ref(target if isinstance(target, Node) else Node(target, "target"))
        if kind == "Player":
            return self.player_id(oid)
        found = self.object_id(oid)
        if found is not None:
            return found
        return next((e.trigger for e in self.batch if e.stack_id == oid), None)


@dataclass
class Reading:
    """A phase state at a trigger-placement prompt, in our words."""

    scenario: Scenario
    document: dict[str, Any]
    index: Index
    prompt: Node
    placed: list[dict[str, Any]]
    """The batch's entries phase has placed, bottom first: our id (``trigger``) and phase's ``ability``."""
    gaps: list[Gap]
    abilities: dict[str, Node] = field(default_factory=dict)
    """Each waiting ability's phase JSON, by our id (a modal one's modes are matched to it once placed)."""
    stepper: Any = field(default=None, compare=False, repr=False)
    """The batch's :class:`~triggerstack.solver.Stepper`, built on first use and shared by the readings
    of one batch's later prompts (the scenario is the same: only what is placed and asked changes)."""
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """What the batch's walks have found (the prefix of what is placed, an ability's ways to be
    announced after it), shared like :attr:`stepper` by the readings of one batch's later prompts."""

    @property
    def kind(self) -> str:
        return self.prompt.tag()

    def trigger(self, tid: str) -> dict[str, Any]:
        """The scenario's trigger ``tid`` (a document mapping): an id is an argument (the public
        ``choices`` and ``entry_of`` take one), one no waiting ability has refused naming it and every
        one (model/_args.py ``name_of``) — never answered with no choices, nor a ``StopIteration``."""
        triggers = self.document["triggers"]
        found = next((t for t in triggers if t["id"] == tid), None)
        if found is None:
            name_of(tid, "trigger", [t["id"] for t in triggers], "waiting ability", "waiting abilities")
        assert found is not None
        return cast(dict[str, Any], found)


def trim(state: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a state the adapter reads (a recorded fixture stays small): hands and libraries
    are dropped, and with them every object not on the battlefield, in a graveyard or in exile."""
    s = root(state)
    keep = ("active_player", "seat_order", "players", "battlefield", "exile", "stack", "pending_trigger_order",
            "deferred_triggers", "pending_trigger", "pending_trigger_entry", "pending_trigger_event_batch",
            "delayed_triggers", "waiting_for", "combat", "eliminated_players", "turn_number")  # fmt: skip
    out = {k: n.json() for k in keep if (n := s.at(k)) is not None}
    players = s["players"].items()
    out["players"] = [{k: v.json() for k, v in p.entries() if k not in ("hand", "library")} for p in players]
    seen = {o.as_int() for o in [*s["battlefield"].items(), *s["exile"].items()]}
    seen |= {o.as_int() for p in players for o in p["graveyard"].items()}
    dropped = ("abilities", "base_abilities", "replacement_definitions", "base_keywords")
    out["objects"] = {k: {f: v.json() for f, v in o.entries() if f not in dropped}
                      for k, o in s["objects"].entries() if int(k) in seen}  # fmt: skip
    return {"state": out}


EVENTS: dict[str, Callable[[Node], tuple[Any, ...]]] = {
    "ZoneChanged": lambda d: (d["object_id"].as_int(), d["from"].maybe_str(), d["to"].as_str()),
    "BecomesTarget": lambda d: (*ref(d["target"]), d["source_id"].as_int()),
}
"""What identifies a trigger event of each kind the adapter reads, from its ``data`` (GameEvent,
adjacently tagged: types/events.rs; BecomesTarget as 0.103.0 writes it); another kind is a gap."""


def _pending(s: Node) -> list[tuple[Node, int | None, Node]]:
    """The batch's abilities not yet on the stack: phase's pending trigger, its place in its
    controller's order prompt, and how it fired."""
    out: list[tuple[Node, int | None, Node]] = []
    if not s["pending_trigger"].null:
        out.append((s["pending_trigger"], None, s.opt("GameState.pending_trigger_firing")))
    order = s.opt("GameState.pending_trigger_order")
    for group in [] if order.null else order["groups"].items():
        out += [(t["pending"], i, t["firing"]) for i, t in enumerate(group["triggers"].items())]
    return out + [(t["pending"], None, t["firing"]) for t in s.opt("GameState.deferred_triggers").items()]


def _event_object(p: Node) -> int | None:
    """The object a waiting ability's trigger event moved (a zone change), if any."""
    ev = p.opt("Trigger.trigger_event")
    return None if ev.null or ev.tag() != "ZoneChanged" else ev["data"]["object_id"].as_int()


def _event_key(ev: Node, gaps: list[Gap]) -> tuple[Any, ...]:
    """What identifies a trigger event across phase's copies of it (a stack entry's copy and the batch's
    may differ in the record they carry): its kind and what :data:`EVENTS` reads of it."""
    if ev.null:
        return (None,)
    kind = ev.tag()
    if kind not in EVENTS:
        gaps.append(Gap(f"{ev.path}.type", f"a trigger event {kind} is not read by the adapter"))
        return (kind, ev.path)
    return (kind, *EVENTS[kind](ev["data"]))


def read(state: Mapping[str, Any] | Any, *, strict: bool = True, since: Reading | None = None) -> Reading:
    """The scenario of the batch phase is placing, at one of its prompts (:data:`PROMPTS`), from a
    phase ``Game`` or what its ``state()`` exported. ``since``: a reading of an earlier prompt of the
    same batch, which says exactly which stack entries the batch has placed since (give it when reading
    one batch prompt after prompt). A state phase would not export is :class:`PhaseStateError`."""
    if not isinstance(state, Mapping) and callable(getattr(state, "state", None)):
        state = state.state()  # a phase Game
    try:
        return _read(root(state), strict, since)
    except RecursionError:
        raise PhaseStateError("the state is nested deeper than any state phase exports") from None


def _read(s: Node, strict: bool, since: Reading | None) -> Reading:
    """The reading of the state ``s`` (see :func:`read`)."""
    prompt = s["waiting_for"]
    if prompt.tag() not in PROMPTS:
        raise PhaseGap(f"waiting_for: phase is waiting for {quoted(prompt.tag())}, not a trigger-placement prompt "
                       f"({', '.join(PROMPTS)})")  # fmt: skip
    reader = _Reader(s)
    reader.read_zones()
    pending = _pending(s)
    for _, _, firing in pending:
        if not firing.null and firing.variant()[0] != "Ordinary":  # a delayed trigger: who made it (603.7d-e)
            reader.gaps.append(Gap(firing.path, f"a trigger fired as {firing.dump()} is not read by the adapter"))
    events = {_event_key(e, reader.gaps) for e in s.opt("GameState.pending_trigger_event_batch").items()}
    events |= {_event_key(p.opt("Trigger.trigger_event"), reader.gaps) for p, _, _ in pending}
    stack = s["stack"].items()
    entry = s.opt("GameState.pending_trigger_entry").maybe_int()
    if not s["pending_trigger"].null and entry is not None:
        # the ability being placed may already stand on the stack, its choices not made: it is pending
        stack = [e for e in stack if e["id"].as_int() != entry]
    first = _batch_start(stack, events, since, reader.gaps)
    for e in stack[:first]:
        obj = read_stack_object(e, reader.gaps)
        reader.index.objects[obj["id"]] = e["id"].as_int()
        reader.objects.append(obj)
    for e in stack[first:]:
        if e["kind"].tag() != "TriggeredAbility":
            reader.gaps.append(Gap(f"{e.path}.kind", "an entry placed with the batch's that is no triggered ability"))
    items = [_Waiting(e["kind"]["data"], None, e) for e in stack[first:] if e["kind"].tag() == "TriggeredAbility"]
    items += [_Waiting(p, k, None) for p, k, _ in pending]
    bases = Counter(_base_of(w.data) for w in items)
    for w in items:
        reader.read_trigger(w, shared=bases[_base_of(w.data)] > 1)
    return reader.reading(prompt, strict)


def _batch_start(stack: list[Node], events: set[Any], since: Reading | None, gaps: list[Gap]) -> int:
    """Where the batch's entries already placed begin on ``stack``: with ``since`` (a reading of an
    earlier prompt of the same batch), every stack entry above the stack it read; else the top of the
    stack whose trigger events are the batch's (phase's event batch may name only the event of the
    ability being placed by then)."""
    if since is not None:
        below = since.index.stack_ids
        return next((i for i, e in enumerate(stack) if e["id"].as_int() not in below), len(stack))
    first = len(stack)
    while first > 0:
        kind = stack[first - 1]["kind"]
        if kind.tag() != "TriggeredAbility" or _event_key(kind["data"].opt("Trigger.trigger_event"), gaps) not in (
                events):  # fmt: skip
            break
        first -= 1
    return first


def _base_of(p: Node) -> tuple[int, int]:
    """A waiting ability's source and its index among the source's abilities."""
    return p["source_id"].as_int(), p["ability"].opt("Ability.ability_index").maybe_int() or 0


@dataclass(frozen=True)
class _Waiting:
    """One ability of the batch as phase says it: its pending trigger (or placed stack entry's data),
    its place in its controller's order prompt, and its stack entry once placed."""

    data: Node
    prompt_index: int | None
    entry: Node | None


class _Reader:
    """One phase state being read: the gaps found so far, our ids for phase's, and the scenario's
    players, objects, reactions and triggers as they are written out."""

    def __init__(self, s: Node) -> None:
        self.s = s
        self.gaps: list[Gap] = []
        self.players, player_ids = read_players(s)
        self.index = Index(players=player_ids)
        self.objects: list[dict[str, Any]] = []
        self.reactions: list[dict[str, Any]] = []
        self.raw = s["objects"]
        self.triggers: list[dict[str, Any]] = []
        self.placed: list[dict[str, Any]] = []
        self.used: set[str] = set()
        self.abilities: dict[str, Node] = {}

    def read_zones(self) -> None:
        """The objects on the battlefield, in graveyards and in exile, each ward's reaction, and the
        players' hexproof and shroud that permanents give."""
        s = self.s
        zones = [("battlefield", s["battlefield"].items())]
        zones += [("graveyard", p["graveyard"].items()) for p in s["players"].items()]
        zones.append(("exile", s["exile"].items()))
        combat = combat_of(s)
        for zone, ids in zones:
            for oid in (i.as_int() for i in ids):
                o = self.raw.at(str(oid))
                if o is None:
                    self.gaps.append(Gap(f"objects[{oid}]", "an object in a zone is missing from objects"))
                    continue
                obj, ward = read_object(o, zone, self.gaps, combat)
                self.index.objects[obj["id"]] = oid
                self.objects.append(obj)
                if ward is not None and zone == "battlefield":
                    self.reactions.append({
                        "id": f"{obj['id']}-ward", "when": "becomes-target", "object": obj["id"], "by": "opponent",
                        "trigger": {"source": obj["id"], "text": f"Ward {ward} (702.21a)"},
                    })  # fmt: skip
                if zone == "battlefield":
                    read_player_keywords(o, self.gaps, self.players)

    def new_id(self, tid: str, event: int | None) -> str:
        """``tid``, with ``event`` (its event's object) when given, primed until no other trigger has it."""
        if event is not None:
            tid += f"~{event}"  # one ability triggered by several events: each event's own
        while tid in self.used:
            tid += "'"
        self.used.add(tid)
        return tid

    def read_trigger(self, w: _Waiting, shared: bool) -> None:
        """Write out one ability of the batch as a trigger, and note it in the index; ``shared``:
        another ability of the batch has the same source and index."""
        p, entry = w.data, w.entry
        ability = p["ability"]
        source_id, at = _base_of(p)
        source = self.raw.at(str(source_id))
        said = p.opt("Trigger.description").maybe_str() or ability.opt("Ability.description").maybe_str() or ""
        # an id stable across readings of one batch: the source's name and id, the ability's index (the
        # state's object first: a pending trigger, a stack entry and a prompt do not all carry a name)
        origin = ability.opt("Ability.trigger_source")
        lki = None if origin.null else origin["lki"]
        name = ((source["name"].as_str() if source is not None else "")
                or (lki["name"].as_str() if lki is not None else "")
                or (p["source_name"].as_str() if entry is not None else ""))  # fmt: skip
        event = _event_object(p)
        tid = self.new_id(f"{slug(name or 'ability')}#{source_id}.{at}", event if shared else None)
        src = self.index.object_id(source_id)
        controller = (entry if entry is not None else p)["controller"].as_int()  # a stack entry's data leaves it out
        text = said.replace("~", name or "this")
        trig: dict[str, Any] = {"id": tid, "text": f"{name}: {text}" if name else text, "controller": f"P{controller}"}
        if src is not None:
            trig["source"] = src
            if lki is not None and f"P{lki['controller'].as_int()}" != controller_of(self.objects, src):
                trig["source_controller"] = f"P{lki['controller'].as_int()}"
        printed = _modal_definition(ability, said, source, self.gaps)
        self.abilities[tid] = printed or ability  # its modes already chosen: the ability as printed, so its modes hold
        got = translate(printed or ability)
        self.gaps.extend(got.gaps)
        if src is None and got.another:
            self.gaps.append(Gap(f"{p.path}.source_id", 'an "another" target whose source is not in a zone read'))
        trig.update(got.fields())
        self.triggers.append(trig)
        description = p.opt("Trigger.description").maybe_str() or ""
        stack_id = entry["id"].as_int() if entry is not None else None
        place = int(p.path.split("[", 1)[1].split("]", 1)[0]) if "[" in p.path else None
        queued = place if p.path.startswith("deferred_triggers[") else None
        group = place if p.path.startswith("pending_trigger_order.") else None
        self.index.batch.append(
            BatchEntry(tid, source_id, description, event, controller, stack_id, w.prompt_index, queued, group)
        )
        if p.path == "pending_trigger":
            self.index.current = tid
        if entry is not None:
            self.placed.append({"trigger": tid, "ability": ability})  # as placed: its modes chosen

    def reading(self, prompt: Node, strict: bool) -> Reading:
        """The scenario written out, validated; with ``strict``, :class:`PhaseGap` if anything was not said."""
        doc: dict[str, Any] = {"players": self.players, "objects": self.objects, "triggers": self.triggers}
        if self.reactions:
            doc["reactions"] = self.reactions
        if strict and self.gaps:
            raise PhaseGap.together([PhaseGap(str(g)) for g in self.gaps], len(self.gaps))
        try:
            scenario = Scenario.model_validate(doc)
        except Exception as exc:  # a scenario we wrote that our model refuses is our bug: say where
            raise PhaseGap(f"the scenario read from phase's state is not valid: {exc}") from exc
        return Reading(scenario, doc, self.index, prompt, self.placed, self.gaps, self.abilities)


def _modal_definition(ability: Node, description: str, source: Node | None, gaps: list[Gap]) -> Node | None:
    """The modal ability a waiting or placed ability was printed as, when phase has replaced it by the
    modes chosen: from ``trigger_source.trigger_entries`` or the source object's
    ``trigger_definitions``, the modal one whose description (or modes) it matches."""
    if not ability.opt("Ability.modal").null:
        return None
    chosen = ability.opt("Ability.selected_mode_labels")
    labels = None if chosen.null else {t.as_str() for t in chosen.items()}
    origin = ability.opt("Ability.trigger_source")
    places = [] if origin.null else [origin["trigger_entries"]]
    places += [] if source is None else [source["trigger_definitions"]]
    for e in (e for entries in places for e in entries.items()):
        d = e["definition"]
        ex = d["execute"]
        modal = Node(None) if ex.null else ex.opt("Ability.modal")
        if modal.null:
            continue
        texts = {t.as_str() for t in modal["mode_descriptions"].items()}
        if d["description"].maybe_str() == description or (labels and labels <= texts):
            return ex
    if labels:
        gaps.append(Gap(chosen.path, f"a modal ability whose printed modes are not in the state ({sorted(labels)})"))
    return None
