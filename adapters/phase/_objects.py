"""phase's players, objects and stack entries, read as our scenario's: the characteristics and
keywords that bear on targeting (mana value, colors, counters, tags, hexproof, shroud, protection,
ward), and the hexproof or shroud a permanent gives players. What is not read is a :class:`Gap`."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from ._abilities import _COLOR, _CORE, Gap

# CounterType serializes as a lower-case flat string (crates/engine/src/types/counter.rs); others keep theirs
_COUNTER = {"plus1plus1": "+1/+1", "minus1minus1": "-1/-1"}


def slug(name: str) -> str:
    """``name`` as a part of an id: lower case, runs of other characters as one hyphen."""
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


def read_players(s: Mapping[str, Any]) -> tuple[list[Any], dict[str, int]]:
    """The players in turn order from the active one (those who left marked so), and our id for each of phase's."""
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


def combat_of(s: Mapping[str, Any]) -> Combat:
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


def read_object(o: Mapping[str, Any], zone: str, s: Mapping[str, Any], place: str, gaps: list[Gap],
                combat: Combat | None = None) -> tuple[dict[str, Any], str | None]:  # fmt: skip
    """The object ``o`` in ``zone`` as ours, and its ward cost if it has ward."""
    ct = o.get("card_types") or {}
    types = []
    for t in ct.get("core_types") or ():
        if t in _CORE:
            types.append(_CORE[t])
        else:
            gaps.append(Gap(f"{place}.card_types.core_types", f"card type {t!r} is not read by the adapter"))
    out: dict[str, Any] = {"id": f"{slug(str(o.get('name')))}#{o['id']}"}
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
    tags = _tags(o, combat if combat is not None else combat_of(s))
    if tags:
        out["tags"] = tags
    ward = _keywords(o, out, place, gaps)
    return out, ward


def read_stack_object(e: Mapping[str, Any], place: str, gaps: list[Gap]) -> dict[str, Any]:
    """A stack entry below the batch as ours: a spell or an ability."""
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


def controller_of(objects: list[dict[str, Any]], oid: str) -> str | None:
    """The controller (else the owner) of our object ``oid``."""
    o = next(x for x in objects if x["id"] == oid)
    return o.get("controller") or o.get("owner")


def read_player_keywords(o: Mapping[str, Any], place: str, gaps: list[Gap], players: list[Any]) -> None:
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
