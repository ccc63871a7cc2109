"""A phase state at a trigger-placement prompt, read as our scenario (docs/phase.md, "The mapping").

``read(state)`` takes what ``Game.state()`` exports (or its ``"state"`` part) and gives a
:class:`Reading`: the scenario of the waiting batch, the :class:`Index` from our ids back to phase's,
the prompt phase is waiting on, the part of the batch already placed, and every :class:`Gap` — what
the state does not say. With ``strict=True`` (the default) a gap is an error, :class:`PhaseGap`.
Pure: it imports nothing of phase, so recorded states are read without it (tests/data/phase/).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from triggerstack.model import Scenario
from triggerstack.model.errors import ScenarioError

from .abilities import _COLOR, _CORE, Gap, translate

__all__ = ["PROMPTS", "BatchEntry", "Index", "PhaseGap", "PhaseStateError", "Reading", "read", "trim"]

PROMPTS = ("OrderTriggers", "TriggerTargetSelection", "AbilityModeChoice", "DistributeAmong")

# CounterType serializes as a lower-case flat string (crates/engine/src/types/counter.rs); others keep theirs
_COUNTER = {"plus1plus1": "+1/+1", "minus1minus1": "-1/-1"}


class PhaseGap(ScenarioError):
    """What phase's state does not say, with ``strict=True``: each gap on its own line."""


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

    @property
    def kind(self) -> str:
        return str(self.prompt.get("type"))

    def trigger(self, tid: str) -> dict[str, Any]:
        """The scenario's trigger ``tid`` (a document mapping)."""
        return next(t for t in self.document["triggers"] if t["id"] == tid)


def _state(state: Mapping[str, Any]) -> Mapping[str, Any]:
    inner = state.get("state")
    return inner if isinstance(inner, Mapping) else state


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "object"


def _mana_value(cost: Any, place: str, gaps: list[Gap]) -> int | None:
    if not isinstance(cost, Mapping) or cost.get("type") == "NoCost":
        return 0
    if cost.get("type") != "Cost":
        gaps.append(Gap(place, f"mana cost {cost.get('type')!r} is not read by the adapter"))
        return None
    value = int(cost.get("generic") or 0)
    for shard in cost.get("shards") or ():
        s = str(shard)
        if s in ("X", "Y", "Z"):
            continue
        value += 2 if s.startswith("Two") else 1
    return value


def _keywords(obj: Mapping[str, Any], out: dict[str, Any], place: str, gaps: list[Gap]) -> str | None:
    """Hexproof, shroud, protection and hexproof-from into ``out``; the ward cost, if any."""
    ward = None
    for i, kw in enumerate(obj.get("keywords") or ()):
        where = f"{place}.keywords[{i}]"
        if kw == "Hexproof":
            out["hexproof"] = True
        elif kw == "Shroud":
            out["shroud"] = True
        elif isinstance(kw, Mapping) and "Protection" in kw:
            got = _protection(kw["Protection"], where, gaps)
            if got is not None:
                out.setdefault("protection", []).append(got)
        elif isinstance(kw, Mapping) and "HexproofFrom" in kw:
            got = _protection(kw["HexproofFrom"], where, gaps)
            if got is not None:
                out.setdefault("hexproof_from", []).append(got)
        elif isinstance(kw, Mapping) and "Ward" in kw:
            ward = json.dumps(kw["Ward"], sort_keys=True)
    return ward


def _protection(p: Any, place: str, gaps: list[Gap]) -> dict[str, Any] | None:
    if isinstance(p, Mapping) and "type" not in p and len(p) == 1:
        ((kind, data),) = p.items()  # {"Color": "White"}: the variant as the key
    else:
        kind = p.get("type") if isinstance(p, Mapping) else p
        data = p.get("data") if isinstance(p, Mapping) else None
    if kind == "Everything":
        return {}
    if kind == "Color" and data in _COLOR:
        return {"color": _COLOR[data]}
    if kind == "CardType" and isinstance(data, str) and data in _CORE:
        return {"type": _CORE[data]}
    gaps.append(Gap(place, f"protection from {json.dumps(p)} is not read by the adapter"))
    return None


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


def _players(s: Mapping[str, Any]) -> tuple[list[Any], dict[str, int]]:
    seats = list(s.get("seat_order") or [p["id"] for p in s.get("players") or ()])
    active = s.get("active_player")
    if active in seats:
        k = seats.index(active)
        seats = seats[k:] + seats[:k]
    out: list[Any] = []
    ids: dict[str, int] = {}
    gone = set(s.get("eliminated_players") or ())
    for p in s.get("players") or ():
        if p.get("is_eliminated"):
            gone.add(p["id"])
    for pid in seats:
        name = f"P{pid}"
        ids[name] = pid
        out.append({"id": name, "left_game": True} if pid in gone else name)
    return out, ids


Combat = tuple[frozenset[str], frozenset[str]]
"""The ids (as text) of the attacking and of the blocking objects."""


def _combat(s: Mapping[str, Any]) -> Combat:
    """From ``combat`` (CombatState): the attackers (``attackers[].object_id``) and the blockers (the
    keys of ``blocker_to_attacker``), once per state (once per object was quadratic in a combat)."""
    combat = s.get("combat") or {}
    attacking = frozenset(str(a.get("object_id")) for a in combat.get("attackers") or ())
    return attacking, frozenset(str(k) for k in (combat.get("blocker_to_attacker") or {}))


def _tags(o: Mapping[str, Any], combat: Combat) -> list[str]:
    """``tapped``, ``token``, ``attacking`` and ``blocking``."""
    tags = []
    if o.get("tapped"):
        tags.append("tapped")
    if o.get("is_token"):
        tags.append("token")
    if str(o["id"]) in combat[0]:
        tags.append("attacking")
    if str(o["id"]) in combat[1]:
        tags.append("blocking")
    return tags


def _object(o: Mapping[str, Any], zone: str, s: Mapping[str, Any], place: str, gaps: list[Gap],
            combat: Combat | None = None) -> tuple[dict[str, Any], str | None]:  # fmt: skip
    ct = o.get("card_types") or {}
    types = []
    for t in ct.get("core_types") or ():
        if t in _CORE:
            types.append(_CORE[t])
        else:
            gaps.append(Gap(f"{place}.card_types.core_types", f"card type {t!r} is not read by the adapter"))
    out: dict[str, Any] = {"id": f"{_slug(str(o.get('name')))}#{o['id']}"}
    if zone == "battlefield":
        out["controller"] = f"P{o['controller']}"
        if o.get("owner") != o.get("controller"):
            out["owner"] = f"P{o['owner']}"
    else:
        out.update(kind="card", zone=zone, owner=f"P{o['owner']}")
    out["types"] = types
    for key, src in (("subtypes", "subtypes"), ("supertypes", "supertypes")):
        vals = [str(v).lower() if key == "supertypes" else str(v) for v in ct.get(src) or ()]
        if vals:
            out[key] = vals
    out["colors"] = [_COLOR[c] for c in o.get("color") or () if c in _COLOR]
    for stat in ("power", "toughness"):
        if isinstance(o.get(stat), int):
            out[stat] = o[stat]
    mv = _mana_value(o.get("mana_cost"), f"{place}.mana_cost", gaps)
    if mv is not None:
        out["mana_value"] = mv
    counters = {_COUNTER.get(str(k), str(k)): int(v) for k, v in (o.get("counters") or {}).items() if v}
    if counters:
        out["counters"] = counters
    tags = _tags(o, combat if combat is not None else _combat(s))
    if tags:
        out["tags"] = tags
    ward = _keywords(o, out, place, gaps)
    return out, ward


def _stack_object(e: Mapping[str, Any], place: str, gaps: list[Gap]) -> dict[str, Any]:
    kind = (e.get("kind") or {}).get("type")
    out: dict[str, Any] = {"id": f"stack#{e['id']}", "controller": f"P{e['controller']}"}
    if kind == "Spell":
        out["kind"] = "spell"
    elif kind in ("TriggeredAbility", "ActivatedAbility"):
        out.update(kind="ability", ability_kind="triggered" if kind == "TriggeredAbility" else "activated")
    else:
        gaps.append(Gap(f"{place}.kind", f"stack entry {kind!r} is not read by the adapter"))
        out["kind"] = "ability"
    return out


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


class PhaseStateError(PhaseGap):
    """A state that is not one phase exports — a field missing or of another type, nesting past
    reason, not a mapping at all — said as what was wrong, never as a bare ``KeyError`` or
    ``TypeError`` (the adapter reads a state whole or refuses it)."""


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
    s = _state(state)
    prompt = dict(s.get("waiting_for") or {})
    gaps: list[Gap] = []
    if prompt.get("type") not in PROMPTS:
        raise PhaseGap(f"waiting_for: phase is waiting for {prompt.get('type')!r}, not a trigger-placement prompt "
                       f"({', '.join(PROMPTS)})")  # fmt: skip
    players, player_ids = _players(s)
    index = Index(players=player_ids)
    objects: list[dict[str, Any]] = []
    reactions: list[dict[str, Any]] = []
    raw = s.get("objects") or {}
    zones: list[tuple[str, list[Any]]] = [("battlefield", list(s.get("battlefield") or ()))]
    zones += [("graveyard", list(p.get("graveyard") or ())) for p in s.get("players") or ()]
    zones.append(("exile", list(s.get("exile") or ())))
    combat = _combat(s)
    for zone, ids in zones:
        for oid in ids:
            o = raw.get(str(oid))
            if o is None:
                gaps.append(Gap(f"objects[{oid}]", "an object in a zone is missing from objects"))
                continue
            obj, ward = _object(o, zone, s, f"objects[{oid}]", gaps, combat)
            index.objects[obj["id"]] = int(oid)
            objects.append(obj)
            if ward is not None and zone == "battlefield":
                reactions.append({
                    "id": f"{obj['id']}-ward", "when": "becomes-target", "object": obj["id"], "by": "opponent",
                    "trigger": {"source": obj["id"], "text": f"Ward {ward} (702.21a)"},
                })  # fmt: skip
            if zone == "battlefield":
                _player_keywords(o, f"objects[{oid}]", gaps, players)
    pending = _pending(s)
    for _, _, _, (place, firing) in pending:
        if firing not in (None, "Ordinary"):  # a delayed trigger: who made it, by what (603.7d-e), is not said
            gaps.append(Gap(place, f"a trigger fired as {json.dumps(firing)} is not read by the adapter"))
    events = _batch_events(s, pending)
    stack = list(s.get("stack") or ())
    if s.get("pending_trigger") and s.get("pending_trigger_entry") is not None:
        # the ability being placed may already stand on the stack, its choices not made: it is pending
        stack = [e for e in stack if e.get("id") != s["pending_trigger_entry"]]
    # the batch's entries already placed: with ``since`` (a reading of an earlier prompt of the same batch),
    # every stack entry above the stack it read; else the top of the stack whose trigger events are the
    # batch's (phase's event batch may name only the event of the ability being placed by then)
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
    for i, e in enumerate(stack[:first]):
        obj = _stack_object(e, f"stack[{i}]", gaps)
        index.objects[obj["id"]] = int(e["id"])
        objects.append(obj)
    triggers: list[dict[str, Any]] = []
    placed: list[dict[str, Any]] = []
    used: set[str] = set()
    abilities: dict[str, Any] = {}
    items: list[tuple[str, Mapping[str, Any], int | None, Mapping[str, Any] | None]] = []
    for i, e in enumerate(stack[first:], start=first):
        data = e["kind"]["data"]
        items.append((f"stack[{i}].kind.data", data, None, e))
    items += [(place, p, k, None) for place, p, k, _ in pending]

    def source_of(p: Mapping[str, Any]) -> Any:
        return p.get("source_id") if isinstance(p.get("source_id"), int) else (p.get("ability") or {}).get("source_id")

    def base_of(p: Mapping[str, Any]) -> tuple[Any, Any]:
        return source_of(p), (p.get("ability") or {}).get("ability_index", 0)

    bases = Counter(base_of(p) for _, p, _, _ in items)
    for place, p, k, entry in items:
        ability = p.get("ability") or {}
        source_id = source_of(p)
        source = raw.get(str(source_id)) if isinstance(source_id, int) else None
        said = str(p.get("description") or ability.get("description") or "")
        # an id stable across readings of one batch: the source's name and id, the ability's index (the
        # state's object first: a pending trigger, a stack entry and a prompt do not all carry a name)
        lki_name = ((ability.get("trigger_source") or {}).get("lki") or {}).get("name")
        name = str((source or {}).get("name") or lki_name or p.get("source_name") or "")
        event = _event_object(p)
        tid = f"{_slug(name or 'ability')}#{source_id}.{ability.get('ability_index', 0)}"
        if bases[base_of(p)] > 1 and event is not None:
            tid += f"~{event}"  # one ability triggered by several events: each event's own
        while tid in used:
            tid += "'"
        used.add(tid)
        src = index.object_id(source_id) if isinstance(source_id, int) else None
        controller = int(entry["controller"] if entry is not None else p.get("controller", ability.get("controller")))
        text = said.replace("~", name or "this")
        trig: dict[str, Any] = {"id": tid, "text": f"{name}: {text}" if name else text, "controller": f"P{controller}"}
        if src is not None:
            trig["source"] = src
            lki = (ability.get("trigger_source") or {}).get("lki") or {}
            if isinstance(lki.get("controller"), int) and f"P{lki['controller']}" != _controller_of(objects, src):
                trig["source_controller"] = f"P{lki['controller']}"
        definition = _modal_definition(ability, said, source)
        where = f"{place}.ability"
        if definition is not None:  # its modes already chosen: the ability as printed, so its id's modes hold
            ability, where = definition
        abilities[tid] = ability
        got = translate(ability, where)
        gaps.extend(got.gaps)
        if src is None and got.another:
            gaps.append(Gap(f"{place}.source_id", 'an "another" target whose source is not in a zone read'))
        trig.update(got.fields())
        triggers.append(trig)
        index.batch.append(BatchEntry(tid, source_id if isinstance(source_id, int) else None,
                                      str(p.get("description") or ""), event, controller,
                                      int(entry["id"]) if entry is not None else None, k))  # fmt: skip
        if place == "pending_trigger":
            index.current = tid
        if entry is not None:
            placed.append({"trigger": tid, "ability": dict(ability)})
    doc: dict[str, Any] = {"players": players, "objects": objects, "triggers": triggers}
    if reactions:
        doc["reactions"] = reactions
    if strict and gaps:
        raise PhaseGap.together([PhaseGap(str(g)) for g in gaps], len(gaps))
    try:
        scenario = Scenario.model_validate(doc)
    except Exception as exc:  # a scenario we wrote that our model refuses is our bug: say where
        raise PhaseGap(f"the scenario read from phase's state is not valid: {exc}") from exc
    return Reading(scenario, doc, index, prompt, placed, gaps, abilities)


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


def _controller_of(objects: list[dict[str, Any]], oid: str) -> str | None:
    o = next(x for x in objects if x["id"] == oid)
    return o.get("controller") or o.get("owner")


def _player_keywords(o: Mapping[str, Any], place: str, gaps: list[Gap], players: list[Any]) -> None:
    """A player's hexproof or shroud, which phase's state does not export, from the static abilities on
    the battlefield that grant it: "You have hexproof" (mode ``Hexproof`` or ``Shroud``, ``affected`` a
    type-less filter of players: ``controller`` You or Opponent) is read into ``players``; any other
    static that may give a player hexproof, shroud or protection is a gap naming it."""
    for i, st in enumerate(o.get("static_definitions") or ()):
        if not isinstance(st, Mapping):
            continue
        affected = st.get("affected") or {}
        mode = st.get("mode")
        to_players = isinstance(affected, Mapping) and (
            affected.get("type") in ("Player", "Controller")
            or (affected.get("type") == "Typed" and not affected.get("type_filters"))
        )
        if not to_players:
            continue
        who = affected.get("controller") if affected.get("type") == "Typed" else None
        plain = mode in ("Hexproof", "Shroud") and not affected.get("properties") and not st.get("condition")
        if plain and who in ("You", "Opponent"):
            mine = f"P{o.get('controller')}"
            for k, p in enumerate(players):
                pid = p if isinstance(p, str) else p["id"]
                if (pid == mine) == (who == "You"):
                    entry = {"id": pid} if isinstance(p, str) else dict(p)
                    entry[str(mode).lower()] = True
                    players[k] = entry
            continue
        if re.search(r"Hexproof|Shroud|Protection", json.dumps(st)):
            gaps.append(
                Gap(
                    f"{place}.static_definitions[{i}]",
                    "may give a player hexproof, shroud or protection, which phase's state does not say",
                )
            )
