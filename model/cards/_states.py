"""What a target phrase may ask of a thing that only the board knows, carried as a tag (601.2c;
docs/cards.md, "Tags"): its keyword abilities ("with flying", "without flying", "with a cycling
ability", 702) and its states ("that was dealt damage this turn", "target equipped creature", "that
isn't enchanted"). A card's keyword lines give its object the keyword tags
(model/cards/_expand.py); a state, and a keyword another text grants, is the scenario's to give.
The tag is the rules' word for the keyword and the Oracle's words for the state, so that what a
scenario writes and what a card asks for meet; a thing without the tag does not have the quality.
"""

from __future__ import annotations

import re
from typing import Any

KEYWORD_TAGS = frozenset(
    {"flying", "reach", "defender", "shadow", "horsemanship", "trample", "vigilance", "haste", "menace"}
    | {"deathtouch", "lifelink", "indestructible", "infect", "wither", "intimidate", "fear", "skulk", "flash"}
    | {"changeling", "devoid", "first strike", "double strike"}
    | {"cycling", "kicker", "morph", "mutate", "foretell", "awaken", "unearth", "toxic", "freerunning"}
    | {"warp", "suspend"}
)
"""Keyword abilities (702) a target phrase may ask for ("target creature with flying", "… without
flying", "target card with a cycling ability"), carried as a tag of that name."""

_VARIANTS = {"multikicker": "kicker", "megamorph": "morph"}
"""A keyword that is a variant of another is one of its abilities: multikicker of kicker (702.33c),
megamorph of morph (702.37b); typecycling ("Swampcycling", "Basic landcycling") of cycling (702.29e–f)."""

STATE_TAGS = {
    ("was", "dealt", "damage", "this", "turn"): "was dealt damage this turn",  # 120.1
    ("dealt", "damage", "this", "turn"): "dealt damage this turn",  # 120.1
    ("attacked", "this", "turn"): "attacked this turn",  # 508.1a: declared as an attacker
    ("entered", "this", "turn"): "entered this turn",  # 603.6a
    ("entered", "the", "battlefield", "this", "turn"): "entered this turn",
    # 400.7: a card put into a graveyard is a new object, with no memory of where it came from
    ("was", "put", "there", "from", "the", "battlefield", "this", "turn"): "put there from the battlefield this turn",
    ("was", "put", "there", "from", "anywhere", "this", "turn"): "put there this turn",
}
"""What happened to a thing this turn, after "that" ("target creature that was dealt damage this
turn"): the tag the board gives the things it is true of."""

_ADJECTIVE_TAGS = {"equipped": "equipped", "enchanted": "enchanted"}
"""States a word before the noun names: an Equipment is attached to it (301.5), an Aura is (303.4)."""


def keyword_tag(word: str) -> str | None:
    """The tag a keyword line's keyword gives its object ("Flying" → ``flying``, "Toxic 1" →
    ``toxic``, "Swampcycling {2}" → ``cycling``), ``None`` when no target phrase asks for it."""
    name = re.split(r"\s*(?:\d|\{|—|-|\bx\b)", word.casefold(), maxsplit=1)[0].strip()
    if name.endswith("cycling"):
        return "cycling"
    name = _VARIANTS.get(name, name)
    return name if name in KEYWORD_TAGS else None


def _keyword_at(low: list[str], i: int) -> tuple[str, int] | None:
    """The keyword named at ``low[i:]`` and how many words it takes: "flying", "first strike", "a
    cycling ability", "morph abilities" (the ability of a keyword, 702.1)."""
    article = 1 if low[i : i + 1] in (["a"], ["an"]) else 0
    for k in (2, 1):
        said = " ".join(low[i + article : i + article + k])
        if said not in KEYWORD_TAGS:
            continue
        noun = low[i + article + k : i + article + k + 1]
        if noun in (["ability"], ["abilities"]):
            return said, article + k + 1
        if not article:
            return said, k
    return None


def quality(low: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` say a keyword quality ("with flying", "without flying", "with a
    cycling ability": a tag, 702) or a counter it lacks ("without an egg counter on it", 122.1),
    noted in ``out``; 0: none."""
    if low[i] in ("with", "without") and (found := _keyword_at(low, i + 1)):
        keyword, k = found
        out["_keyword"] = True
        if low[i] == "with":
            out.setdefault("_tags", []).append(keyword)
        else:
            out.setdefault("_nots", []).append({"tag": keyword})
        return 1 + k
    lacks = low[i : i + 2] in (["without", "a"], ["without", "an"]) and low[i + 3 : i + 6] == ["counter", "on", "it"]
    if lacks and low[i + 2].isalpha():
        out.setdefault("_nots", []).append({"counter": low[i + 2]})
        return 6
    return 0


def adjective_tag(w: str) -> str | None:
    """The tag of a state a word before the noun names ("equipped", "enchanted"), ``None`` if none."""
    return _ADJECTIVE_TAGS.get(w)


def counter_at(low: list[str], i: int) -> tuple[str, int] | None:
    """The kind of counter "a(n) KIND counter on it" names at ``low[i:]`` and how many words it
    takes ("+1/+1" is read as the words "+", "1", "/+", "1")."""
    if low[i : i + 1] not in (["a"], ["an"]):
        return None
    signed = low[i + 1 : i + 5]
    if signed in (["+", "1", "/+", "1"], ["-", "1", "/-", "1"]) and low[i + 5 : i + 8] == ["counter", "on", "it"]:
        return "".join(signed), 8
    if low[i + 1 : i + 2] and low[i + 1].isalpha() and low[i + 2 : i + 5] == ["counter", "on", "it"]:
        return low[i + 1], 5
    return None


def state(low: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` say a state after "that" ("that was dealt damage this turn": a tag;
    "that's one or more colors": colored, 105.2; "that doesn't have a +1/+1 counter on it": `not` a
    counter, 122.1; "that isn't enchanted": `not` the tag), noted in ``out``; 0: none."""
    if low[i : i + 5] == ["that's", "one", "or", "more", "colors"]:
        out["colorless"] = False  # 105.2: an object is one or more of the five colors, or none
        return 5
    if low[i : i + 1] != ["that"]:
        return 0
    for words, happened in STATE_TAGS.items():
        if tuple(low[i + 1 : i + 1 + len(words)]) == words:
            out.setdefault("_tags", []).append(happened)
            return 1 + len(words)
    if low[i + 1 : i + 3] == ["doesn't", "have"] and (counter := counter_at(low, i + 3)):
        out.setdefault("_nots", []).append({"counter": counter[0]})
        return 3 + counter[1]
    if low[i + 1 : i + 2] == ["isn't"] and (tag := adjective_tag(low[i + 2] if i + 2 < len(low) else "")):
        out.setdefault("_nots", []).append({"tag": tag})
        return 3
    return 0
