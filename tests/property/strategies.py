"""Hypothesis strategies for small scenarios (≤ 6 abilities, ≤ 4 players, ≤ 6 objects) that
exercise every rule the engines encode: APNAP blocks and part 2, cr-1p and 2hg, modal
abilities with repeats, unavailable modes and distinct targets, divisions, hexproof /
hexproof from / protection / shroud / cant_be_targeted_by (on cards in graveyards too, where
113.6 turns the card's own ones off), filters with kinds and zones under not/any/all,
``target_of`` over players and objects, ``different_from``, "must target" effects, choosers,
abilities that target other waiting abilities, abilities with no legal choice, illegal abilities
and players who left; every card type of CR 300.1, cards in every zone of 400.1 (a plane with its
planar controller), spells, "any-target" under spell, card and zone domains, and controller words and
``target_of`` over cards (108.4a); with reactions, relays of reactions longer than eight passes and
loops through them.

Private unit: model/_shapes.CardType, the closed list of card types the generated objects draw from."""

from __future__ import annotations

import copy
from typing import Any, get_args

from hypothesis import settings
from hypothesis import strategies as st
from triggerstack.model._words import CardType

__all__ = ["SETTINGS", "after_leaving", "linked_boards", "scenarios"]

SETTINGS = settings()
"""The loaded profile (``tests/conftest.py``): 100 examples per property in ci (the default), 300 in
full, 30 in dev."""

FILTERS: list[Any] = [
    "any-target",
    {"type": "creature"},
    {"kind": "player"},
    {"kind": "player", "controller": "opponent"},
    {"kind": "ability"},
    {"kind": ["spell", "ability"], "controller": "opponent"},
    {"type": ["creature", "land"], "controller": "you"},
    {"not": {"type": "creature"}},
    {"type": "creature", "color": "green"},
    {"zone": "graveyard"},
    {"type": "creature", "not": {"kind": "player"}},  # docs/formats.md, Scenario: every creature
    {"not": {"zone": "graveyard"}},  # every permanent
    {"any": [{"kind": "player"}, {"zone": "graveyard", "type": "creature"}]},
    {"kind": "card", "not": {"type": "land"}},
    {"all": [{}]},
    {"kind": "player", "any": [{}, {"controller": "you"}]},
    # "any-target" is a fixed domain (115.4, docs/formats.md, Scenario): nothing under a spell or card domain
    {"kind": "spell", "all": ["any-target"]},
    {"kind": "spell", "not": "any-target"},
    {"zone": "graveyard", "any": ["any-target"]},
    {"kind": ["card", "permanent"], "not": "any-target"},
    # a card's controller is its owner (108.4a)
    {"kind": "card", "controller": "opponent"},
    {"zone": ["graveyard", "exile", "command"], "controller": "you"},
    {"kind": "card", "controller": "P0"},
]
CARD_TYPES = list(get_args(CardType))
"""Every card type of CR 300.1 (creature, land and planeswalker drawn most often)."""
ZONES = ["graveyard", "exile", "hand", "library", "command", "ante"]
BOUNDS = [(1, 1), (1, 1), (0, 1), (1, 2), (0, None), (2, 2)]


@st.composite
def _requirement(draw: st.DrawFn, rid: str, earlier: list[dict[str, Any]]) -> dict[str, Any]:
    lo, hi = draw(st.sampled_from(BOUNDS))
    # a copy: a test that changes the document it is given must not change FILTERS for the next one
    req: dict[str, Any] = {"id": rid, "min": lo, "max": hi, "filter": copy.deepcopy(draw(st.sampled_from(FILTERS)))}
    players = [e for e in earlier if e["filter"] in ({"kind": "player"}, {"kind": "player", "controller": "opponent"})]
    creatures = [
        e
        for e in earlier
        if e["filter"]
        in (
            {"type": "creature"},
            {"type": "creature", "not": {"kind": "player"}},
            {"kind": "card", "controller": "opponent"},  # target_of over a card: its owner (108.4a)
            {"zone": ["graveyard", "exile", "command"], "controller": "you"},
        )
    ]
    if players and draw(st.integers(0, 3)) == 0:
        req["filter"] = {"type": "creature", "controller": {"target_of": players[0]["id"]}}
    elif creatures and draw(st.integers(0, 2)) == 0:  # target_of over an object: its controller, or its owner
        key = draw(st.sampled_from(["controller", "owner"]))
        req["filter"] = {"kind": draw(st.sampled_from(["player", "permanent"])), key: {"target_of": creatures[0]["id"]}}
    if draw(st.integers(0, 5)) == 0:
        amount = draw(st.integers(1, 3))
        req["divide"] = amount
        req["min"] = min(max(lo, 1), amount)
        req["max"] = None if hi is None else max(hi, req["min"])
    if earlier and draw(st.integers(0, 3)) == 0:
        req["different_from"] = [earlier[-1]["id"]]
    if draw(st.integers(0, 4)) == 0:
        req["other_than_source"] = True
    return req


def _linked_filter(ref: str, shape: int) -> Any:
    """A filter that reads ``ref``'s targets (docs/formats.md, target_of), under not/any/all."""
    of = {"target_of": ref}
    return [
        {"type": "creature", "controller": of},
        {"type": "creature", "not": {"controller": of}},  # with ref empty: every creature
        {"any": [{"kind": "player"}, {"type": "creature", "controller": of}]},
        {"type": "creature", "controller": of, "owner": of},  # two chosen players can meet both
        {"kind": "player", "not": {"controller": of}},
        {"kind": ["card", "permanent"], "owner": of},
        {"all": [{"not": {"any": [{"owner": of}, {"color": "red"}]}}]},
        {"kind": "player", "any": [{"controller": of}, {"not": {"controller": of}, "controller": "you"}]},
    ][shape]


LINKED_BOUNDS = [(0, None), (0, 1), (1, 2), (0, 2), (1, 1), (2, 2)]
NAMED_FILTERS: list[Any] = [
    {"kind": "player"},
    {"type": "creature"},
    {"kind": "card", "zone": "graveyard"},  # often no candidate at all
    {"supertype": "legendary"},  # never a candidate here: an empty choice
    {"any": [{"kind": "player"}, {"type": "creature"}]},
]


@st.composite
def _link(draw: st.DrawFn, reqs: list[dict[str, Any]]) -> None:
    """Make one requirement read another's targets, earlier or later (a forward reference), and
    sometimes a third read it too (a chain), never a cycle; the named one takes none, one or several
    targets (601.2c)."""
    if len(reqs) < 2:
        return
    i = draw(st.integers(0, len(reqs) - 1))
    j = draw(st.sampled_from([k for k in range(len(reqs)) if k != i]))
    named = reqs[j]
    if "target_of" in repr(named["filter"]):
        return
    named["filter"] = copy.deepcopy(draw(st.sampled_from(NAMED_FILTERS)))
    named["min"], named["max"] = draw(st.sampled_from(LINKED_BOUNDS))
    named.pop("divide", None)
    reqs[i]["filter"] = _linked_filter(named["id"], draw(st.integers(0, 7)))
    rest = [k for k in range(len(reqs)) if k not in (i, j)]
    if len(rest) > 0 and draw(st.booleans()):  # a chain: a third reads the first
        reqs[rest[0]]["filter"] = _linked_filter(reqs[i]["id"], draw(st.integers(0, 7)))


@st.composite
def _requirements(draw: st.DrawFn, most: int, linked: bool = False) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for i in range(draw(st.integers(0, most))):
        out.append(draw(_requirement(f"r{i}", out)))
    if linked and draw(st.integers(0, 2)) == 0:
        draw(_link(out))
    return out


@st.composite
def _trigger(
    draw: st.DrawFn, tid: str, players: list[str], objects: list[dict[str, Any]], linked: bool = False
) -> dict[str, Any]:
    t: dict[str, Any] = {"id": tid, "text": tid}
    on_field = [o for o in objects if o.get("kind", "permanent") == "permanent"]
    how = draw(st.integers(0, 9))
    if how == 0 or not objects:
        t["controller"] = draw(st.sampled_from(players))
    elif how == 1:
        t["delayed"] = {"by": draw(st.sampled_from(["spell", "ability"])), "controller": draw(st.sampled_from(players))}
    else:
        t["source"] = draw(st.sampled_from(on_field or objects))["id"]
    if draw(st.integers(0, 3)) == 0:
        t["condition"] = "ability-triggered"
    if draw(st.integers(0, 12)) == 0:
        t["illegal"] = "an effect"
    if draw(st.integers(0, 8)) == 0:
        t["chooser"] = draw(st.sampled_from(players))  # 700.2e: legality is still the controller's
    if draw(st.booleans()):
        t["targets"] = draw(_requirements(3 if linked else 2, linked))
    else:
        n_modes = draw(st.integers(2, 3))
        repeat = draw(st.integers(0, 3)) == 0
        top = 3 if repeat else n_modes
        choose = sorted(draw(st.sets(st.integers(0, top), min_size=1, max_size=3)))
        if choose == [0]:
            choose = [0, 1]
        t["modal"] = {"choose": choose, "repeat": repeat, "distinct_targets": draw(st.integers(0, 3)) == 0}
        t["modes"] = [
            {"id": f"m{j}", "targets": draw(_requirements(2 if linked else 1, linked)), "available": draw(st.integers(0, 6)) != 0}
            for j in range(n_modes)
        ]
    return t


@st.composite
def _reactions(draw: st.DrawFn, ids: list[str], objects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Ward-like reactions: "when X becomes the target of an ability of (an opponent | you | any)"."""
    out = []
    watchable = [o["id"] for o in objects if o.get("kind", "permanent") == "permanent"] + ids
    for i in range(draw(st.integers(1, 2))):
        watched = draw(st.sampled_from(watchable))
        body: dict[str, Any] = {"text": f"R{i}"}
        if watched in ids:
            body["controller"] = watched
        else:
            body["source"] = watched
        if draw(st.booleans()):
            body["targets"] = draw(_requirements(1))
        out.append(
            {"id": f"R{i}", "object": watched, "by": draw(st.sampled_from(["opponent", "you", "any"])), "trigger": body}
        )
    return out


@st.composite
def scenarios(draw: st.DrawFn, max_abilities: int = 6, reactions: bool = False, linked: bool = False) -> dict[str, Any]:
    """A valid scenario document (a dict), small enough for the literal simulator; ``linked``:
    requirements that read other requirements' targets in every shape (:func:`_link`)."""
    n_players = draw(st.integers(1, 4))
    players: list[Any] = [f"P{i}" for i in range(n_players)]
    rules = draw(st.sampled_from(["seed", "seed", "seed", "cr-1p"] + (["2hg"] if n_players == 4 else [])))
    doc: dict[str, Any] = {"rules": rules}
    if rules == "2hg":
        doc["teams"] = [["P0", "P2"], ["P1", "P3"]]
    ids = list(players)
    for i in range(n_players):
        extra: dict[str, Any] = {}
        if draw(st.integers(0, 6)) == 0:
            extra["hexproof"] = True
        if i and draw(st.integers(0, 10)) == 0:
            extra["left_game"] = True
        if extra:
            players[i] = {"id": ids[i], **extra}
    objects: list[dict[str, Any]] = []
    for j in range(draw(st.integers(0, 5))):
        o: dict[str, Any] = {
            "id": f"o{j}",
            "controller": draw(st.sampled_from(ids)),
            "types": [draw(st.sampled_from(["creature", "creature", "land", "planeswalker", *CARD_TYPES]))],
            "colors": draw(st.lists(st.sampled_from(["red", "green"]), max_size=1, unique=True)),
        }
        if draw(st.integers(0, 5)) == 0:
            o["hexproof"] = True
        if draw(st.integers(0, 7)) == 0:
            o["shroud"] = True
        if draw(st.integers(0, 5)) == 0:
            o["protection"] = [draw(st.sampled_from([{"color": "red"}, {}]))]
        if draw(st.integers(0, 7)) == 0:
            o["hexproof_from"] = [{"color": draw(st.sampled_from(["red", "green"]))}]
        if draw(st.integers(0, 7)) == 0:
            o["cant_be_targeted_by"] = [
                {
                    "source": draw(st.sampled_from([{}, {"color": "green"}])),
                    "controller": draw(st.sampled_from(["opponent", "any"])),
                }
            ]
        if draw(st.integers(0, 4)) == 0:
            o["owner"] = draw(st.sampled_from(ids))  # controlled by one player, owned by another
        off = draw(st.integers(0, 9))
        if off <= 1:  # a card off the battlefield keeps its printed properties (113.6: off)
            keep: dict[str, Any] = {
                k: o[k] for k in ("hexproof", "shroud", "protection", "hexproof_from", "cant_be_targeted_by") if k in o
            }
            o = {
                "id": o["id"],
                "kind": "card",
                "zone": "graveyard" if off == 0 else draw(st.sampled_from(ZONES)),
                "owner": o.get("owner", o["controller"]),
                "types": o["types"],
                **keep,
            }
            if o["zone"] == "command" and draw(st.booleans()):  # a plane: the planar controller (901.6)
                o["controller"] = draw(st.sampled_from(ids))
        elif off == 2:  # a spell on the stack (a creature spell is no "any target")
            o = {"id": o["id"], "kind": "spell", "controller": o["controller"], "types": o["types"]}
        objects.append(o)
    doc["players"] = players
    doc["objects"] = objects
    triggers = [draw(_trigger(f"T{k}", ids, objects, linked)) for k in range(draw(st.integers(0, max_abilities)))]
    for k in range(1, len(triggers)):
        if draw(st.integers(0, 3)) == 0:  # an identical twin (same source, text, choices)
            twin = draw(st.sampled_from(triggers[:k]))
            triggers[k] = {**twin, "id": f"T{k}"}
    doc["triggers"] = triggers
    if triggers and draw(st.integers(0, 3)) == 0:  # a "must target" effect (601.2c)
        thing = draw(st.sampled_from(ids + [o["id"] for o in objects] + [t["id"] for t in triggers]))
        applies = draw(
            st.one_of(
                st.lists(st.sampled_from([t["id"] for t in triggers]), min_size=1, max_size=2, unique=True),
                st.sampled_from([{}, {"controller": "opponent"}, {"type": "creature"}]),
            )
        )
        doc["must_target"] = [{"object": thing, "applies_to": applies}]
    if reactions:
        doc["reactions"] = draw(_reactions(ids, objects))
        if draw(st.integers(0, 5)) == 0:
            relay = draw(_relay(ids))
            doc["objects"] = [*objects, *relay["objects"]]
            doc["triggers"] = [*triggers, relay["trigger"]]
            doc["reactions"] = [*doc["reactions"], *relay["reactions"]]
    return after_leaving(doc)


def after_leaving(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as 800.4a leaves it: an object a player who left the game controls and another
    player owns is no longer theirs (the scenario door refuses one that is): its owner controls it."""
    gone = {p["id"] for p in doc.get("players", []) if isinstance(p, dict) and p.get("left_game")}
    for o in doc.get("objects", []):
        owner = o.get("owner")
        if o.get("controller") in gone and owner is not None and owner not in gone:
            o["controller"] = owner
    return doc


BARS: list[dict[str, Any]] = [
    {},
    {},
    {"hexproof": True},
    {"shroud": True},
    {"protection": [{}]},
    {"cant_be_targeted_by": [{"source": {}, "controller": "any"}]},
]
"""What keeps a thing from being a target besides a description (702.11, 702.18, 702.16, 115.1)."""


@st.composite
def linked_boards(draw: st.DrawFn) -> dict[str, Any]:
    """A board of players and creatures, some barred (:data:`BARS`), and one or two abilities whose
    requirements read each other's targets (docs/formats.md, target_of): "target opponent and target
    creature that player controls", "target creature and its controller", and a chain of three —
    where a thing fits its description only with the other targets chosen again (601.2c)."""
    ids = [f"P{i}" for i in range(draw(st.integers(2, 4)))]
    players: list[Any] = [{"id": p, **draw(st.sampled_from(BARS[:4]))} if i else p for i, p in enumerate(ids)]
    objects = [
        {"id": f"o{j}", "types": ["creature"], "controller": draw(st.sampled_from(ids)), **draw(st.sampled_from(BARS))}
        for j in range(draw(st.integers(1, 5)))
    ]
    triggers = []
    for k in range(draw(st.integers(1, 2))):
        lo, hi = draw(st.sampled_from([(1, 1), (1, 1), (0, 1), (1, 2)]))
        of_p, of_q = {"target_of": "p"}, {"target_of": "q"}
        opponent: dict[str, Any] = {"kind": "player", "not": {"controller": "you"}}
        shape = draw(st.integers(0, 2))
        reqs: list[dict[str, Any]]
        if shape == 0:  # target opponent and target creature that player controls
            reqs = [{"id": "p", "filter": opponent}, {"id": "q", "filter": {"type": "creature", "controller": of_p}}]
        elif shape == 1:  # target creature an opponent controls, and its controller
            reqs = [
                {"id": "q", "filter": {"type": "creature", "not": {"controller": "you"}}},
                {"id": "p", "filter": {"kind": "player", "controller": of_q}},
            ]
        else:  # a chain: a player, a creature they control, another creature its controller controls
            reqs = [
                {"id": "p", "filter": opponent},
                {"id": "q", "filter": {"type": "creature", "controller": of_p}},
                {"id": "s", "filter": {"type": "creature", "controller": of_q}, "different_from": ["q"]},
            ]
        reqs[-1].update(min=lo, max=hi)
        triggers.append({"id": f"T{k}", "controller": draw(st.sampled_from(ids)), "text": f"T{k}", "targets": reqs})
    return {"players": players, "objects": objects, "triggers": triggers}


@st.composite
def _relay(draw: st.DrawFn, players: list[str]) -> dict[str, Any]:
    """A chain of 8 to 10 reactions (up to 11 passes), longer than eight passes (603.3b's loop goes on as long as
    something triggers): a trigger targets c0; each ci's reaction fires an ability that targets
    c(i+1) — up to one, or exactly one, or a player instead — firing the next reaction. Sometimes
    the last one targets c0 again: a loop through the whole chain, mandatory or optional."""
    n = draw(st.integers(8, 10))
    loop = draw(st.integers(0, 4)) == 0
    objects = [{"id": f"c{i}", "controller": draw(st.sampled_from(players)), "types": ["creature"]} for i in range(n + 1)]
    reactions = []
    for i in range(n):
        to = 0 if loop and i == n - 1 else i + 1
        how = draw(st.integers(0, 2))
        filt: Any = {"id": f"c{to}"} if how < 2 else {"any": [{"id": f"c{to}"}, {"kind": "player"}]}
        req = {"id": "t", "min": 0 if how == 0 else 1, "filter": filt}
        reactions.append(
            {
                "id": f"Q{i}",
                "object": f"c{i}",
                "by": "any" if loop else draw(st.sampled_from(["any", "any", "you", "opponent"])),
                "trigger": {"source": f"c{i}", "text": f"Q{i}", "targets": [req]},
            }
        )
    start: dict[str, Any] = {"id": "RT", "controller": draw(st.sampled_from(players)), "text": "RT"}
    start["targets"] = [{"id": "t", "min": draw(st.integers(0, 1)), "filter": {"id": "c0"}}]
    return {"objects": objects, "reactions": reactions, "trigger": start}
