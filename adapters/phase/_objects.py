"""phase's players, objects and stack entries, read as our scenario's: the characteristics and
keywords that bear on targeting (mana value, colors, counters, tags, hexproof, shroud, protection,
ward), and the hexproof or shroud a permanent gives players. What is not read is a :class:`Gap`."""

from __future__ import annotations

import re
from typing import Any

from triggerstack.model._text import found as quoted

from ._abilities import _COLOR, _CORE, Gap
from ._schema import Node

# CounterType serializes as a lower-case flat string (crates/engine/src/types/counter.rs); others keep theirs
_COUNTER = {"plus1plus1": "+1/+1", "minus1minus1": "-1/-1"}


def slug(name: str) -> str:
    """``name`` as a part of an id: lower case, runs of other characters as one hyphen."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "object"


def _mana_value(cost: Node, gaps: list[Gap]) -> int | None:
    kind = cost.tag()
    if kind == "NoCost":
        return 0
    if kind != "Cost":
        gaps.append(Gap(cost.path, f"mana cost {quoted(kind)} is not read by the adapter"))
        return None
    shards = [s.as_str() for s in cost["shards"].items()]
    return cost["generic"].as_int() + sum(0 if s in "XYZ" else 2 if s.startswith("Two") else 1 for s in shards)


def _keywords(obj: Node, out: dict[str, Any], gaps: list[Gap]) -> str | None:
    """Hexproof, shroud, protection and hexproof-from into ``out``; the ward cost, if any."""
    ward = None
    for kw in obj["keywords"].items():
        name, value = kw.variant()
        if name in ("Hexproof", "Shroud") and value.null:
            out[name.lower()] = True
        elif name in ("Protection", "HexproofFrom"):
            got = _protection(value, name == "HexproofFrom", gaps)
            if got is not None:
                out.setdefault("protection" if name == "Protection" else "hexproof_from", []).append(got)
        elif name == "Ward":
            ward = value.dump()
    return ward


def _protection(p: Node, adjacent: bool, gaps: list[Gap]) -> dict[str, Any] | None:
    """ProtectionTarget (``{"Color": "White"}``, ``"Everything"``) or, ``adjacent``, HexproofFilter
    (``{"type": "Color", "data": "White"}``: types/keywords.rs) as our quality."""
    kind, data = (p.tag(), p["data"]) if adjacent else p.variant()
    if kind == "Everything":
        return {}
    if kind == "Color" and data.kind == "string" and data.as_str() in _COLOR:
        return {"color": _COLOR[data.as_str()]}
    if kind == "CardType" and data.kind == "string" and data.as_str() in _CORE:
        return {"type": _CORE[data.as_str()]}
    gaps.append(Gap(p.path, f"protection from {p.dump()} is not read by the adapter"))
    return None


def read_players(s: Node) -> tuple[list[Any], dict[str, int]]:
    """The players in turn order from the active one (those who left marked so), and our id for each of phase's."""
    players = s["players"].items()
    seats = [p.as_int() for p in s["seat_order"].items()] or [p["id"].as_int() for p in players]
    active = s["active_player"].as_int()
    if active in seats:
        k = seats.index(active)
        seats = seats[k:] + seats[:k]
    gone = {p.as_int() for p in s["eliminated_players"].items()}
    gone |= {p["id"].as_int() for p in players if p["is_eliminated"].as_bool()}
    out: list[Any] = [{"id": f"P{pid}", "left_game": True} if pid in gone else f"P{pid}" for pid in seats]
    return out, {f"P{pid}": pid for pid in seats}


Combat = tuple[frozenset[str], frozenset[str]]
"""The ids (as text) of the attacking and of the blocking objects."""


def combat_of(s: Node) -> Combat:
    """From ``combat`` (CombatState): the attackers (``attackers[].object_id``) and the blockers (the
    keys of ``blocker_to_attacker``), once per state (once per object was quadratic in a combat)."""
    combat = s["combat"]
    if combat.null:
        return frozenset(), frozenset()
    attacking = frozenset(str(a["object_id"].as_int()) for a in combat["attackers"].items())
    return attacking, frozenset(k for k, _ in combat["blocker_to_attacker"].entries())


def _tags(o: Node, oid: int, combat: Combat) -> list[str]:
    """``tapped``, ``token``, ``attacking`` and ``blocking``."""
    said = (o["tapped"].as_bool(), o.opt("GameObject.is_token").as_bool(), str(oid) in combat[0], str(oid) in combat[1])
    return [tag for tag, on in zip(("tapped", "token", "attacking", "blocking"), said, strict=True) if on]


def read_object(o: Node, zone: str, gaps: list[Gap], combat: Combat) -> tuple[dict[str, Any], str | None]:
    """The object ``o`` in ``zone`` as ours, and its ward cost if it has ward."""
    ct = o["card_types"]
    types = []
    for t in ct["core_types"].items():
        if t.as_str() in _CORE:
            types.append(_CORE[t.as_str()])
        else:
            gaps.append(Gap(t.path, f"card type {quoted(t.as_str())} is not read by the adapter"))
    oid, controller, owner = o["id"].as_int(), o["controller"].as_int(), o["owner"].as_int()
    out: dict[str, Any] = {"id": f"{slug(o['name'].as_str())}#{oid}"}
    if zone == "battlefield":
        out["controller"] = f"P{controller}"
        if owner != controller:
            out["owner"] = f"P{owner}"
    else:
        out.update(kind="card", zone=zone, owner=f"P{owner}")
    out["types"] = types
    for key in ("subtypes", "supertypes"):
        vals = [v.as_str().lower() if key == "supertypes" else v.as_str() for v in ct[key].items()]
        if vals:
            out[key] = vals
    out["colors"] = [_COLOR[c] for c in (c.as_str() for c in o["color"].items()) if c in _COLOR]
    for stat in ("power", "toughness"):
        value = o[stat].maybe_int()
        if value is not None and "creature" in types:  # 208.3: only a creature has them, as the card reader says
            out[stat] = value
    mv = _mana_value(o["mana_cost"], gaps)
    if mv is not None:
        out["mana_value"] = mv
    counters = {_COUNTER.get(k, k): n.as_int() for k, n in o["counters"].entries() if n.as_int()}
    if counters:
        out["counters"] = counters
    tags = _tags(o, oid, combat)
    if tags:
        out["tags"] = tags
    ward = _keywords(o, out, gaps)
    return out, ward


def read_stack_object(e: Node, gaps: list[Gap]) -> dict[str, Any]:
    """A stack entry below the batch as ours: a spell or an ability."""
    kind = e["kind"].tag()
    out: dict[str, Any] = {"id": f"stack#{e['id'].as_int()}", "controller": f"P{e['controller'].as_int()}"}
    if kind == "Spell":
        out["kind"] = "spell"
    elif kind in ("TriggeredAbility", "ActivatedAbility"):
        out.update(kind="ability", ability_kind="triggered" if kind == "TriggeredAbility" else "activated")
    else:
        gaps.append(Gap(f"{e.path}.kind", f"stack entry {quoted(kind)} is not read by the adapter"))
        out["kind"] = "ability"
    return out


def controller_of(objects: list[dict[str, Any]], oid: str) -> str | None:
    """The controller (else the owner) of our object ``oid``."""
    o = next(x for x in objects if x["id"] == oid)
    return o.get("controller") or o.get("owner")


def read_player_keywords(o: Node, gaps: list[Gap], players: list[Any]) -> None:
    """A player's hexproof or shroud, which phase's state does not export, from the static abilities on
    the battlefield that grant it: "You have hexproof" (mode ``Hexproof`` or ``Shroud``, ``affected`` a
    type-less filter of players: ``controller`` You or Opponent) is read into ``players``; any other
    static that may give a player hexproof, shroud or protection is a gap naming it."""
    for st in o["static_definitions"].items():
        affected = st["affected"]
        kind = None if affected.null else affected.tag()
        if not (kind in ("Player", "Controller") or (kind == "Typed" and not len(affected["type_filters"]))):
            continue
        mode = st["mode"].variant()[0]
        if mode not in ("Hexproof", "Shroud"):
            if re.search(r"Hexproof|Shroud|Protection", st.dump()):
                said = "may give a player hexproof, shroud or protection, which phase's state does not say"
                gaps.append(Gap(st.path, said))
            continue
        who = affected["controller"] if kind == "Typed" else None
        name = None if who is None or who.null else who.variant()[0]
        if not st["condition"].null:
            place, why = st["condition"], "under a condition"
        elif kind == "Typed" and len(affected["properties"]):
            place, why = affected["properties"], "to players with properties"
        elif name not in ("You", "Opponent"):
            place, why = who or affected, "to players of no controller You or Opponent"
        else:
            mine = f"P{o['controller'].as_int()}"
            for k, p in enumerate(players):
                pid = p if isinstance(p, str) else p["id"]
                if (pid == mine) == (name == "You"):
                    players[k] = {**({"id": pid} if isinstance(p, str) else p), mode.lower(): True}
            continue
        gaps.append(Gap(place.path, f"a static giving {mode.lower()} {why} is not read by the adapter"))
