"""The words after a target phrase's noun (601.2c): controller, owner, zone, counters, comparisons,
"other than this …" — each with the span of words it took, so that every word is accounted for."""

from __future__ import annotations

from typing import Any

from ._corpus import Card
from ._event import event_qualifier, event_refusal
from ._unread import Unread
from ._zones import zone_or_counter

__all__ = ["KEYWORD_TAGS", "_qualifiers"]

KEYWORD_TAGS = frozenset(
    {"flying", "reach", "defender", "shadow", "horsemanship", "trample", "vigilance", "haste", "menace"}
    | {"deathtouch", "lifelink", "indestructible", "infect", "wither", "intimidate", "fear", "skulk", "flash"}
    | {"changeling", "devoid", "first strike", "double strike"}
)
"""Keyword abilities (702) a target phrase may ask for ("target creature with flying", "… without
flying"), carried as a tag of that name: a card's keyword lines give its object these tags
(model/cards/_expand.py), and a scenario's own ``tags`` say it for a keyword granted by another text."""


def _quality(low: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` say a keyword quality ("with flying", "without flying": a tag, 702)
    or a counter it lacks ("without an egg counter on it", 122.1), noted in ``out``; 0: none."""
    if low[i] in ("with", "without") and (keyword := _keyword_at(low, i + 1)):
        out["_keyword"] = True
        if low[i] == "with":
            out.setdefault("_tags", []).append(keyword)
        else:
            out.setdefault("_nots", []).append({"tag": keyword})
        return 1 + len(keyword.split())
    lacks = low[i : i + 2] in (["without", "a"], ["without", "an"]) and low[i + 3 : i + 6] == ["counter", "on", "it"]
    if lacks and low[i + 2].isalpha():
        out.setdefault("_nots", []).append({"counter": low[i + 2]})
        return 6
    return 0


def _keyword_at(low: list[str], i: int) -> str | None:
    for said in (" ".join(low[i : i + 2]), low[i] if i < len(low) else ""):
        if said in KEYWORD_TAGS:
            return said
    return None


_COMPARE = {"less": "lte", "fewer": "lte", "greater": "gte", "more": "gte"}


def _refused(low: list[str], words: list[str], said: str) -> None:
    """Qualifiers this reader knows it cannot give: a target another player chooses (700.2e), a
    graveyard whose owner the event or another target decides ("their graveyard")."""
    if low[:3] == ["of", "their", "choice"]:
        raise Unread("a target another player chooses (700.2e): 'of their choice'", said)
    if (
        len(low) > 2
        and low[0] in ("in", "from")
        and low[2] in ("graveyard", "graveyards")
        and low[1] not in ("a", "your")
    ):
        raise Unread(f"a graveyard whose owner the board decides: {' '.join(words[:3])!r}", said)


def _qualifiers(
    words: list[str], card: Card, said: str, event: tuple[str, str] = ("", "")
) -> tuple[dict[str, Any], list[tuple[int, int, str]]]:
    """``you control``, ``an opponent controls``, ``you don't control``, ``in a graveyard``, ``from
    your graveyard``, ``with power 2 or less``, ``that isn't a God`` … after the noun, with the span
    of words each took."""
    out: dict[str, Any] = {}
    spans: list[tuple[int, int, str]] = []
    i = 0
    low = [w.lower() for w in words]

    def at(*seq: str) -> bool:
        return tuple(low[i : i + len(seq)]) == seq

    while i < len(low):
        start = i
        _refused(low[i:], words[i:], said)
        if (named := event_qualifier(low, i)) is not None:  # "that player controls" (603.2)
            refusal = event_refusal(named[2], *event)
            if refusal is not None:
                raise Unread(f"a player the event may not name: {refusal}", said)
            out.update(named[0])
            i += named[1]
        elif at("that", "isn't") and i + 3 < len(low) and low[i + 2] in ("a", "an") and words[i + 3][:1].isupper():
            out.setdefault("_nots", []).append({"subtype": low[i + 3]})  # "that isn't a God"
            i += 4
        elif at("you", "control"):
            out["controller"] = "you"
            i += 2
        elif at("an", "opponent", "controls") or at("your", "opponents", "control"):
            out["controller"] = "opponent"
            i += 3
        elif at("you", "don't", "control"):
            out["not_controller"] = "you"
            i += 3
        elif at("you", "own"):
            out["owner"] = "you"
            i += 2
        elif at("an", "opponent", "owns"):
            out["owner"] = "opponent"
            i += 3
        elif (taken := zone_or_counter(low, i, out)) or (taken := _quality(low, i, out)):
            i += taken
        elif low[i] == "with" and i + 4 < len(low) and low[i + 1] in ("power", "toughness") and low[i + 3] == "or":
            key = low[i + 1]
            if not low[i + 2].isdigit() or low[i + 4] not in _COMPARE:
                break
            out[key] = {_COMPARE[low[i + 4]]: int(low[i + 2])}
            i += 5
        elif at("other", "than", "this") and i + 3 < len(low):
            out["_other"] = True
            i += 4
        elif at("other", "than") and " ".join(words[i + 2 :]).startswith(card.name.split(",")[0]):
            out["_other"] = True
            i += 2 + len(card.name.split(",")[0].split())
        elif at("with", "mana", "value") and i + 3 < len(low) and low[i + 3].isdigit() and low[i + 4 : i + 5] != ["or"]:
            out["mana_value"] = {"eq": int(low[i + 3])}
            i += 4
        elif at("with", "mana", "value") and i + 5 < len(low) and low[i + 4] == "or" and low[i + 3].isdigit():
            if low[i + 5] not in _COMPARE:
                break
            out["mana_value"] = {_COMPARE[low[i + 5]]: int(low[i + 3])}
            i += 6
        else:
            break
        spans.append((start, i, "qualifier"))
    if out.pop("not_controller", None):
        out["_not_you"] = True
    return out, spans
