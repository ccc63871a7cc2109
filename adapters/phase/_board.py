"""A phase state at a trigger-placement prompt, read as our scenario (docs/phase.md, "The mapping").

``read(state)`` takes what ``Game.state()`` exports (or its ``"state"`` part) and gives a
:class:`Reading`: the scenario of the waiting batch, the :class:`Index` from our ids back to phase's,
the prompt phase is waiting on, the part of the batch already placed, and every :class:`Gap` — what
the state does not say. With ``strict=True`` (the default) a gap is an error, :class:`PhaseGap`.
Pure: it imports nothing of phase, so recorded states are read without it (tests/data/phase/).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from triggerstack.model import Scenario
from triggerstack.model._errors import ScenarioError

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
from ._schema import PhaseError, PhaseGap, PhaseStateError, check

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


def placed_as(left: list[BatchEntry], entry: Mapping[str, Any]) -> tuple[dict[str, Any], BatchEntry | None]:
    """A stack entry phase placed above the batch: its data, and which ability of ``left`` it is — the
    one of the same source and description (of one ability triggered by several events, the one
    whose event is the entry's), or None (a reaction, or what the batch read did not hold)."""
    data = (entry.get("kind") or {}).get("data") or {}
    ability = data.get("ability") or {}
    said = data.get("description") or ability.get("description")
    event = ((data.get("trigger_event") or {}).get("data") or {}).get("object_id")
    same = [b for b in left if b.source_id == ability.get("source_id") and b.description == said]
    return data, next((b for b in same if b.event_object == event), same[0] if same else None)


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

    def player_id(self, pid: int) -> str:
        return next(k for k, v in self.players.items() if v == pid)

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
        return next(e for e in self.batch if e.trigger == trigger)

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

    def thing(self, ref: Mapping[str, int]) -> str | None:
        """Our id for a phase ``TargetRef``."""
        if "Player" in ref:
            return self.player_id(int(ref["Player"]))
        oid = int(ref["Object"])
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
    prompt: dict[str, Any]
    placed: list[dict[str, Any]]
    gaps: list[Gap]
    abilities: dict[str, Any] = field(default_factory=dict)
    """Each waiting ability's phase JSON, by our id (a modal one's modes are matched to it once placed)."""
    stepper: Any = field(default=None, compare=False, repr=False)
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    """What the batch's walks have found (the prefix of what is placed, an ability's ways to be
    announced after it), shared like :attr:`stepper` by the readings of one batch's later prompts."""
    """The batch's :class:`~triggerstack.solver.Stepper`, built on first use and shared by the readings
    of one batch's later prompts (the scenario is the same: only what is placed and asked changes)."""

    @property
    def kind(self) -> str:
        return str(self.prompt.get("type"))

    def trigger(self, tid: str) -> dict[str, Any]:
        """The scenario's trigger ``tid`` (a document mapping)."""
        return next(t for t in self.document["triggers"] if t["id"] == tid)


def _state(state: Mapping[str, Any]) -> Mapping[str, Any]:
    inner = state.get("state")
    return inner if isinstance(inner, Mapping) else state


def trim(state: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a state the adapter reads (a recorded fixture stays small): hands and libraries
    are dropped, and with them every object not on the battlefield, in a graveyard or in exile."""
    s = _state(state)
    keep = ("active_player", "seat_order", "players", "battlefield", "exile", "stack", "pending_trigger_order",
            "deferred_triggers", "pending_trigger", "pending_trigger_entry", "pending_trigger_event_batch",
            "delayed_triggers", "waiting_for", "combat", "eliminated_players", "turn_number")  # fmt: skip
    out = {k: s[k] for k in keep if k in s}
    out["players"] = [{k: v for k, v in p.items() if k not in ("hand", "library")} for p in s.get("players") or ()]
    seen = set(s.get("battlefield") or ()) | set(s.get("exile") or ())
    for p in s.get("players") or ():
        seen |= set(p.get("graveyard") or ())
    dropped = ("abilities", "base_abilities", "replacement_definitions", "base_keywords")
    out["objects"] = {
        k: {f: v for f, v in o.items() if f not in dropped}
        for k, o in (s.get("objects") or {}).items()
        if int(k) in seen
    }
    return {"state": out}


Pending = tuple[str, Mapping[str, Any], int | None, tuple[str, Any]]
"""A waiting ability: its place, phase's pending trigger, its place in its controller's order prompt,
and where its firing is said with what it says."""


def _pending(s: Mapping[str, Any]) -> list[Pending]:
    """The batch's abilities not yet on the stack."""
    out: list[Pending] = []
    if s.get("pending_trigger"):
        out.append(("pending_trigger", s["pending_trigger"], None, ("pending_trigger_firing",
                                                                   s.get("pending_trigger_firing"))))  # fmt: skip
    order = s.get("pending_trigger_order") or {}
    for g, group in enumerate(order.get("groups") or ()):
        for i, t in enumerate(group.get("triggers") or ()):
            place = f"pending_trigger_order.groups[{g}].triggers[{i}]"
            out.append((f"{place}.pending", t["pending"], i, (f"{place}.firing", t.get("firing"))))
    for i, t in enumerate(s.get("deferred_triggers") or ()):
        out.append((f"deferred_triggers[{i}].pending", t["pending"], None,
                    (f"deferred_triggers[{i}].firing", t.get("firing"))))  # fmt: skip
    return out


def _event_object(p: Mapping[str, Any]) -> int | None:
    ev = p.get("trigger_event") or {}
    data = ev.get("data") if isinstance(ev, Mapping) else None
    oid = data.get("object_id") if isinstance(data, Mapping) else None
    return int(oid) if isinstance(oid, int) else None


def _event_key(ev: Any) -> tuple[Any, ...]:
    """What identifies a trigger event across phase's copies of it (a stack entry's copy and the batch's
    may differ in the record they carry): its kind, its object, and where it went from and to."""
    if not isinstance(ev, Mapping):
        return (None,)
    data: Mapping[str, Any] = ev["data"] if isinstance(ev.get("data"), Mapping) else {}
    return (ev.get("type"), data.get("object_id"), data.get("from"), data.get("to"), data.get("source_id"))


def _batch_events(s: Mapping[str, Any], pending: list[Pending]) -> set[Any]:
    events = [_event_key(e) for e in s.get("pending_trigger_event_batch") or ()]
    events += [_event_key(p.get("trigger_event")) for _, p, _, _ in pending]
    return set(events)


def read(state: Mapping[str, Any] | Any, *, strict: bool = True, since: Reading | None = None) -> Reading:
    """The scenario of the batch phase is placing, at one of its prompts (:data:`PROMPTS`), from a
    phase ``Game`` or what its ``state()`` exported. ``since``: a reading of an earlier prompt of the
    same batch, which says exactly which stack entries the batch has placed since (give it when reading
    one batch prompt after prompt). A state phase would not export is :class:`PhaseStateError`."""
    if not isinstance(state, Mapping) and callable(getattr(state, "state", None)):
        state = state.state()  # a phase Game
    if not isinstance(state, Mapping):
        raise PhaseStateError(f"expected a phase Game or the mapping its state() exports, not {type(state).__name__}")
    try:
        check(_state(state))
        return _read(state, strict, since)
    except ScenarioError:
        raise  # a gap, or a scenario the reading could not make: said as such already
    except RecursionError:
        raise PhaseStateError("the state is nested deeper than any state phase exports") from None
    except KeyError as exc:
        raise PhaseStateError(f"the state lacks a field phase exports: {exc}") from None
    except (TypeError, AttributeError, ValueError, IndexError) as exc:
        raise PhaseStateError(f"a field of the state is not of the type phase exports: {exc}") from None


def _read(state: Mapping[str, Any], strict: bool, since: Reading | None) -> Reading:
    """The reading of ``state`` (see :func:`read`), its errors left for :func:`read` to name."""
    s = _state(state)
    prompt = dict(s.get("waiting_for") or {})
    if prompt.get("type") not in PROMPTS:
        raise PhaseGap(f"waiting_for: phase is waiting for {prompt.get('type')!r}, not a trigger-placement prompt "
                       f"({', '.join(PROMPTS)})")  # fmt: skip
    reader = _Reader(s)
    reader.read_zones()
    pending = _pending(s)
    for _, _, _, (place, firing) in pending:
        if firing not in (None, "Ordinary"):  # a delayed trigger: who made it, by what (603.7d-e), is not said
            reader.gaps.append(Gap(place, f"a trigger fired as {json.dumps(firing)} is not read by the adapter"))
    events = _batch_events(s, pending)
    stack = list(s.get("stack") or ())
    if s.get("pending_trigger") and s.get("pending_trigger_entry") is not None:
        # the ability being placed may already stand on the stack, its choices not made: it is pending
        stack = [e for e in stack if e.get("id") != s["pending_trigger_entry"]]
    first = _batch_start(stack, events, since)
    for i, e in enumerate(stack[:first]):
        obj = read_stack_object(e, f"stack[{i}]", reader.gaps)
        reader.index.objects[obj["id"]] = int(e["id"])
        reader.objects.append(obj)
    items = [
        _Waiting(f"stack[{i}].kind.data", e["kind"]["data"], None, e) for i, e in enumerate(stack[first:], start=first)
    ]
    items += [_Waiting(place, p, k, None) for place, p, k, _ in pending]
    bases = Counter(_base_of(w.data) for w in items)
    for w in items:
        reader.read_trigger(w, shared=bases[_base_of(w.data)] > 1)
    return reader.reading(prompt, strict)


def _batch_start(stack: list[Any], events: set[Any], since: Reading | None) -> int:
    """Where the batch's entries already placed begin on ``stack``: with ``since`` (a reading of an
    earlier prompt of the same batch), every stack entry above the stack it read; else the top of the
    stack whose trigger events are the batch's (phase's event batch may name only the event of the
    ability being placed by then)."""
    first = len(stack)
    if since is not None:
        below = since.index.stack_ids
        first = next((i for i, e in enumerate(stack) if e.get("id") not in below), len(stack))
    while since is None and first > 0:
        e = stack[first - 1]
        data = (e.get("kind") or {}).get("data") or {}
        if e.get("kind", {}).get("type") != "TriggeredAbility" or _event_key(data.get("trigger_event")) not in events:
            break
        first -= 1
    return first


def _source_of(p: Mapping[str, Any]) -> Any:
    """phase's id of a waiting ability's source."""
    return p.get("source_id") if isinstance(p.get("source_id"), int) else (p.get("ability") or {}).get("source_id")


def _base_of(p: Mapping[str, Any]) -> tuple[Any, Any]:
    """A waiting ability's source and its index among the source's abilities."""
    return _source_of(p), (p.get("ability") or {}).get("ability_index", 0)


@dataclass(frozen=True)
class _Waiting:
    """One ability of the batch as phase says it: where, its pending trigger (or placed stack entry's
    data), its place in its controller's order prompt, and its stack entry once placed."""

    place: str
    data: Mapping[str, Any]
    prompt_index: int | None
    entry: Mapping[str, Any] | None


class _Reader:
    """One phase state being read: the gaps found so far, our ids for phase's, and the scenario's
    players, objects, reactions and triggers as they are written out."""

    def __init__(self, s: Mapping[str, Any]) -> None:
        self.s = s
        self.gaps: list[Gap] = []
        self.players, player_ids = read_players(s)
        self.index = Index(players=player_ids)
        self.objects: list[dict[str, Any]] = []
        self.reactions: list[dict[str, Any]] = []
        self.raw: Mapping[str, Any] = s.get("objects") or {}
        self.triggers: list[dict[str, Any]] = []
        self.placed: list[dict[str, Any]] = []
        self.used: set[str] = set()
        self.abilities: dict[str, Any] = {}

    def read_zones(self) -> None:
        """The objects on the battlefield, in graveyards and in exile, each ward's reaction, and the
        players' hexproof and shroud that permanents give."""
        s = self.s
        zones: list[tuple[str, list[Any]]] = [("battlefield", list(s.get("battlefield") or ()))]
        zones += [("graveyard", list(p.get("graveyard") or ())) for p in s.get("players") or ()]
        zones.append(("exile", list(s.get("exile") or ())))
        combat = combat_of(s)
        for zone, ids in zones:
            for oid in ids:
                o = self.raw.get(str(oid))
                if o is None:
                    self.gaps.append(Gap(f"objects[{oid}]", "an object in a zone is missing from objects"))
                    continue
                obj, ward = read_object(o, zone, s, f"objects[{oid}]", self.gaps, combat)
                self.index.objects[obj["id"]] = int(oid)
                self.objects.append(obj)
                if ward is not None and zone == "battlefield":
                    self.reactions.append({
                        "id": f"{obj['id']}-ward", "when": "becomes-target", "object": obj["id"], "by": "opponent",
                        "trigger": {"source": obj["id"], "text": f"Ward {ward} (702.21a)"},
                    })  # fmt: skip
                if zone == "battlefield":
                    read_player_keywords(o, f"objects[{oid}]", self.gaps, self.players)

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
        ability = p.get("ability") or {}
        source_id = _source_of(p)
        source = self.raw.get(str(source_id)) if isinstance(source_id, int) else None
        said = str(p.get("description") or ability.get("description") or "")
        # an id stable across readings of one batch: the source's name and id, the ability's index (the
        # state's object first: a pending trigger, a stack entry and a prompt do not all carry a name)
        lki_name = ((ability.get("trigger_source") or {}).get("lki") or {}).get("name")
        name = str((source or {}).get("name") or lki_name or p.get("source_name") or "")
        event = _event_object(p)
        base = f"{slug(name or 'ability')}#{source_id}.{ability.get('ability_index', 0)}"
        tid = self.new_id(base, event if shared else None)
        src = self.index.object_id(source_id) if isinstance(source_id, int) else None
        own = p.get("controller")  # a stack entry's data leaves it to the entry; else the ability's (the schema)
        controller = int(entry["controller"] if entry is not None else ability["controller"] if own is None else own)
        text = said.replace("~", name or "this")
        trig: dict[str, Any] = {"id": tid, "text": f"{name}: {text}" if name else text, "controller": f"P{controller}"}
        if src is not None:
            trig["source"] = src
            lki = (ability.get("trigger_source") or {}).get("lki") or {}
            if isinstance(lki.get("controller"), int) and f"P{lki['controller']}" != controller_of(self.objects, src):
                trig["source_controller"] = f"P{lki['controller']}"
        definition = _modal_definition(ability, said, source)
        where = f"{w.place}.ability"
        if definition is not None:  # its modes already chosen: the ability as printed, so its id's modes hold
            ability, where = definition
        self.abilities[tid] = ability
        got = translate(ability, where)
        self.gaps.extend(got.gaps)
        if src is None and got.another:
            self.gaps.append(Gap(f"{w.place}.source_id", 'an "another" target whose source is not in a zone read'))
        trig.update(got.fields())
        self.triggers.append(trig)
        own_source = source_id if isinstance(source_id, int) else None
        description = str(p.get("description") or "")
        stack_id = int(entry["id"]) if entry is not None else None
        place = int(w.place.split("[", 1)[1].split("]", 1)[0]) if "[" in w.place else None
        queued = place if w.place.startswith("deferred_triggers[") else None
        group = place if w.place.startswith("pending_trigger_order.") else None
        self.index.batch.append(
            BatchEntry(tid, own_source, description, event, controller, stack_id, w.prompt_index, queued, group)
        )
        if w.place == "pending_trigger":
            self.index.current = tid
        if entry is not None:
            self.placed.append({"trigger": tid, "ability": dict(p.get("ability") or {})})  # as placed: its modes chosen

    def reading(self, prompt: dict[str, Any], strict: bool) -> Reading:
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


def _modal_definition(ability: Mapping[str, Any], description: str, source: Mapping[str, Any] | None) -> tuple[
        Mapping[str, Any], str] | None:  # fmt: skip
    """The modal ability a waiting or placed ability was printed as, when phase has replaced it by the
    modes chosen: from ``trigger_source.trigger_entries`` or the source object's
    ``trigger_definitions``, the modal one whose description (or modes) it matches."""
    if isinstance(ability.get("modal"), Mapping):
        return None
    labels = ability.get("selected_mode_labels")
    places = [("ability.trigger_source.trigger_entries", (ability.get("trigger_source") or {}).get("trigger_entries"))]
    places.append(
        (f"objects[{(source or {}).get('id')}].trigger_definitions", (source or {}).get("trigger_definitions"))
    )
    for where, entries in places:
        for i, e in enumerate(entries or ()):
            d = (e or {}).get("definition") or {}
            ex = d.get("execute")
            if not (isinstance(ex, Mapping) and isinstance(ex.get("modal"), Mapping)):
                continue
            texts = ex["modal"].get("mode_descriptions") or []
            if d.get("description") == description or (labels and set(labels) <= set(texts)):
                return ex, f"{where}[{i}].definition.execute"
    if labels:
        raise PhaseGap(f"selected_mode_labels: a modal ability whose printed modes are not in the state ({labels})")
    return None
