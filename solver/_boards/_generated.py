"""The generated families boards fall back to without the extra ``[cards]`` (or with
``cards=False``): stand-ins written in the scenario format, not read from any card, in the shapes
of the committed families (``benchmarks/make_scenarios.py``: an enters watcher like Soul Warden, a
board wipe's dies triggers like Blood Artist, ward-like reactions, hexproof, shroud and protection
on the board) — each with the trigger condition of the same small grammar the card pool uses, so
one assembly draws both."""

from __future__ import annotations

from functools import cache
from typing import Any

from triggerstack.model.cards._pool import Condition, Entry, Pool, Subject, Trig, Whose, names_event

_CREATURE = {"kind": "permanent", "type": "creature"}
_OPPONENT = {"kind": "player", "controller": "opponent"}
_PLAYER = {"kind": "player"}


def _req(filter_: Any, rid: str = "t", text: str = "", lo: int = 1, hi: int | None = 1) -> dict[str, Any]:
    req: dict[str, Any] = {"id": rid, "filter": filter_, **({"text": text} if text else {})}
    if (lo, hi) != (1, 1):
        req.update(min=lo, max=hi)
    return req


def _trig(
    kind: str, subject: Subject, text: str, *, whose: Whose = "any", word: str | None = None, **fragment: Any
) -> Trig:
    whole = {"text": text, **fragment}
    return Trig(1, Condition(frozenset({kind}), subject, whose, word), whole, names_event(whole))


def _entry(types: list[str], colors: list[str], trig: Trig | None = None, **more: Any) -> Entry:
    fields: dict[str, Any] = {"types": types, "colors": colors, **more}
    if trig is not None:
        fields["text"] = trig.fragment["text"]
    if "creature" in types:
        fields.setdefault("power", 2)
        fields.setdefault("toughness", 2)
    ward = fields.pop("ward", None)
    return Entry(None, fields, (trig,) if trig else (), ward=ward, silent=trig is None)


_MAKERS: list[tuple[str, str, str, Subject, Whose, str | None, str, dict[str, Any]]] = [
    # (type, color, event, subject, whose, word, text, the rest of the trigger)
    ("creature", "red", "enters", "self", "any", None,
     "When this creature enters, it deals 4 damage to target creature.",
     {"targets": [_req(_CREATURE, "c", "target creature")]}),
    ("creature", "white", "enters", "other", "any", "creature",
     "Whenever another creature enters, you gain 1 life.", {}),
    ("creature", "black", "enters", "other", "you", "creature",
     "Whenever another creature you control enters, target opponent loses 1 life.",
     {"targets": [_req(_OPPONENT, "p", "target opponent")]}),
    ("creature", "blue", "enters", "self", "any", None,
     "When this creature enters, return up to one target creature an opponent controls to its owner's hand.",
     {"targets": [_req({"type": "creature", "controller": "opponent"}, "c", lo=0)]}),
    ("creature", "green", "enters", "self", "any", None,
     "When this creature enters, choose one — destroy target artifact; or target player draws a card.",
     {"modal": {"choose": [1]}, "modes": [{"id": "m1", "targets": [_req({"type": "artifact"}, "a")]},
                                          {"id": "m2", "targets": [_req(_PLAYER, "p")]}]}),
    ("creature", "red", "dies", "self", "any", None,
     "When this creature dies, it deals 2 damage to any target.",
     {"targets": [_req("any-target", "t", "any target")]}),
    ("creature", "black", "dies", "other", "any", "creature",
     "Whenever another creature dies, target player loses 1 life.",
     {"targets": [_req(_PLAYER, "p", "target player")]}),
    ("enchantment", "black", "dies", "any", "you", "creature",
     "Whenever a creature you control dies, target opponent loses 1 life.", {"targets": [_req(_OPPONENT, "p")]}),
    ("creature", "green", "dies", "self", "any", None,
     "When this creature dies, return target creature card from your graveyard to your hand.",
     {"targets": [_req({"kind": "card", "zone": "graveyard", "type": "creature", "owner": "you"}, "c")]}),
    ("creature", "white", "attacks", "self", "any", None,
     "Whenever this creature attacks, tap target creature defending player controls.",
     {"targets": [_req({"type": "creature", "controller": "event"}, "c")]}),
    ("enchantment", "red", "attacks", "any", "you", "creature",
     "Whenever a creature you control attacks, it gets +1/+0 until end of turn.", {}),
    ("creature", "green", "attacks", "player", "you", None,
     "Whenever you attack, target attacking creature gains trample until end of turn.",
     {"targets": [_req({"type": "creature", "tag": "attacking"}, "c")]}),
    ("creature", "red", "attacks", "self", "any", None,
     "Whenever this creature attacks, it deals 1 damage to each of up to two target creatures.",
     {"targets": [_req(_CREATURE, "c", lo=0, hi=2)]}),
    ("creature", "red", "cast", "player", "you", "noncreature",
     "Whenever you cast a noncreature spell, this creature deals 1 damage to any target.",
     {"targets": [_req("any-target", "t")]}),
    ("enchantment", "blue", "cast", "player", "opponent", None,
     "Whenever an opponent casts a spell, target player mills two cards.", {"targets": [_req(_PLAYER, "p")]}),
]  # fmt: skip
"""The stand-ins whose abilities the events trigger: a Flametongue Kavu, a Soul Warden, a Blood
Artist, a "whenever you attack", a Young Pyromancer …, one ability each."""


def _makers() -> list[Entry]:
    return [
        _entry([kind], [color], _trig(event, subject, text, whose=whose, word=word, **more))
        for kind, color, event, subject, whose, word, text, more in _MAKERS
    ]


def _bodies() -> list[Entry]:
    c = ["creature"]
    return [
        _entry(c, ["green"], hexproof=True, text="Hexproof"),
        _entry(c, ["blue"], shroud=True, text="Shroud"),
        _entry(c, ["white"], protection=[{"color": "red"}], text="Protection from red"),
        _entry(c, ["white"], protection=[{"type": "creature"}], text="Protection from creatures"),
        _entry(c, ["blue"], ward="{2}", text="Ward {2}"),
        _entry(c, ["black"], hexproof_from=[{"color": "white"}], text="Hexproof from white"),
        _entry(c, ["green"], power=3, toughness=3),
        _entry(c, ["red"]),
    ]


def _spells() -> list[Entry]:
    exile = _trig(
        "cast",
        "self",
        "When you cast this spell, exile target nonland permanent.",
        targets=[_req({"kind": "permanent", "not": {"type": "land"}}, "p")],
    )
    return [
        _entry(["instant"], ["red"]),
        _entry(["sorcery"], ["blue"]),
        _entry(["creature"], ["green"], power=4, toughness=4),
        _entry(["creature"], [], exile, power=10, toughness=10, subtypes=["eldrazi"]),
        _entry(["artifact"], []),
    ]


@cache
def generated() -> Pool:
    """The generated stand-ins as a pool (no extra needed)."""
    found = Pool(makers=_makers(), bodies=_bodies(), spells=_spells(), origin="generated")
    found.index()
    return found
