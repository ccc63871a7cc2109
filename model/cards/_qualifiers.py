"""The words after a target phrase's noun (601.2c): controller, owner, zone, counters, comparisons,
"other than this …" — each with the span of words it took, so that every word is accounted for."""

from __future__ import annotations

import re
from typing import Any

from .._text import typed
from ._board import X
from ._compared import against_source
from ._corpus import Card
from ._event import NO_CONTEXT, Context, event_qualifier, player_named
from ._states import quality, state
from ._subtypes import subtypes_at
from ._unread import Unread
from ._zones import zone_or_counter

_COMPARE = {"less": "lte", "fewer": "lte", "greater": "gte", "more": "gte"}


_CHOOSERS = {("their",): "their", ("that", "player's"): "that player", ("that", "opponent's"): "that opponent"}
_CHOOSERS[("defending", "player's")] = "defending player"


def _chosen_by(low: list[str], words: list[str], i: int, context: Context, said: str) -> int:
    """How many words from ``i`` say that the player the trigger's event names chooses the target
    ("of their choice", "of that player's choice", "of defending player's choice": 700.2e, 603.2);
    0: none. :class:`Unread` when the pronoun is not that player (an earlier target's, each of a set)."""
    k = next((k for k in (2, 3) if low[i : i + 1] == ["of"] and low[i + k : i + k + 1] == ["choice"]), 0)
    who = _CHOOSERS.get(tuple(low[i + 1 : i + k]))
    if who is None:
        return 0
    player, refusal = player_named(who, context)
    if player != "event":
        why = refusal or "the player of an earlier target or of each of a set, whom no chooser names"
        raise Unread(f"a target another player chooses (700.2e): {typed(' '.join(words[i : i + k + 1]))}: {why}", said)
    return k + 1


def _refused(low: list[str], words: list[str], said: str) -> None:
    """Qualifiers this reader knows it cannot give: a target another player chooses (700.2e), a
    graveyard whose owner the board decides ("from that graveyard", after "for each graveyard")."""
    chooser = next((k for k in (3, 4) if low[k - 1 : k] == ["choice"]), 0)  # "of an opponent's choice"
    if low[:1] == ["of"] and chooser:
        raise Unread(f"a target another player chooses (700.2e): {typed(' '.join(words[:chooser]))}", said)
    if (
        len(low) > 2
        and low[0] in ("in", "from")
        and low[2] in ("graveyard", "graveyards")
        and low[1] not in ("a", "your")
    ):
        raise Unread(f"a graveyard whose owner the board decides: {typed(' '.join(words[:3]))}", said)


def _qualifiers(
    words: list[str], card: Card, said: str, context: Context = NO_CONTEXT
) -> tuple[dict[str, Any], list[tuple[int, int, str]]]:
    """``you control``, ``an opponent controls``, ``you don't control``, ``in a graveyard``, ``from
    your graveyard``, ``with power 2 or less``, ``that isn't a God`` … after the noun, with the span
    of words each took."""
    out: dict[str, Any] = {}
    spans: list[tuple[int, int, str]] = []
    i = 0
    low = [w.lower() for w in words]
    while i < len(low):
        if (named := event_qualifier(low, i)) is not None:  # "that player controls" (603.2, 601.2c)
            player, refusal = player_named(named[2], context)
            if refusal is not None:
                raise Unread(f"a player the words may not name: {refusal}", said)
            out.update({k: player if v == "event" else v for k, v in named[0].items()})
            taken = named[1]
        elif taken := _chosen_by(low, words, i, context, said):
            out["_chooser"] = True
        else:
            _refused(low[i:], words[i:], said)
            taken = (
                _isnt(low, words, i, out)
                or state(low, i, out)
                or _whose(low, i, out)
                or zone_or_counter(low, i, out)
                or quality(low, i, out)
                or against_source(low, words, i, card, context.condition, out)
                or _comparison(low, i, out)
                or _other_than(low, words, i, card, out)
            )
        if not taken:
            break
        spans.append((i, i + taken, "qualifier"))
        i += taken
    return out, spans


_WHOSE: list[tuple[tuple[str, ...], dict[str, Any]]] = sorted(
    [  # controller and owner (108.3, 108.4), relative to the ability's controller; where a permanent is
        (("you", "control"), {"controller": "you"}),
        (("an", "opponent", "controls"), {"controller": "opponent"}),
        (("your", "opponents", "control"), {"controller": "opponent"}),
        (("that", "one", "of", "your", "opponents", "controls"), {"controller": "opponent"}),
        (("you", "don't", "control"), {"_not_you": True}),
        (("you", "own", "but", "don't", "control"), {"owner": "you", "_not_you": True}),
        (("you", "neither", "own", "nor", "control"), {"_nots": [{"owner": "you"}, {"controller": "you"}]}),
        (("you", "own"), {"owner": "you"}),
        (("an", "opponent", "owns"), {"owner": "opponent"}),
        (("from", "the", "battlefield"), {"_battlefield": True}),  # 110.1: a permanent (a card there is none)
        (("on", "the", "battlefield"), {"_battlefield": True}),
    ],
    key=lambda pair: -len(pair[0]),  # the longest first: "you own but don't control" before "you own"
)


def _whose(low: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` say whose the thing is ("you control", "you own but don't control")
    or that it is on the battlefield, noted in ``out``; 0: none."""
    for words, said in _WHOSE:
        if tuple(low[i : i + len(words)]) == words:
            for key, value in said.items():
                if key == "_nots":
                    out.setdefault(key, []).extend(value)
                else:
                    out[key] = value
            return len(words)
    return 0


def _comparison(low: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` compare the thing's power, toughness or mana value with a number
    ("with power 2 or less", "with mana value 3", "with mana value 2 or 3", "with power or toughness
    1"), noted in ``out``; 0: none (a number the board decides is no comparison read here)."""
    if low[i : i + 1] != ["with"]:
        return 0
    if low[i + 1 : i + 4] == ["power", "or", "toughness"] and low[i + 4 : i + 5] and low[i + 4].isdigit():
        if _compared(low, i + 5):
            return 0
        either = int(low[i + 4])  # either is that number
        out.setdefault("_all", []).append({"any": [{"power": {"eq": either}}, {"toughness": {"eq": either}}]})
        return 5
    key, at = ("mana_value", i + 3) if low[i + 1 : i + 3] == ["mana", "value"] else ("".join(low[i + 1 : i + 2]), i + 2)
    if key not in ("power", "toughness", "mana_value") or not low[at : at + 1] or not _number(low[at]):
        return 0
    n: Any = int(low[at]) if low[at].isdigit() else dict(X)  # X: as the trigger's x states it (107.3)
    rest = low[at + 1 : at + 3]
    if key == "mana_value" and rest[:1] != ["or"]:
        out[key] = {"eq": n}
        return at + 1 - i
    if rest[:1] == ["or"] and rest[1:] and rest[1] in _COMPARE:
        out[key] = {_COMPARE[rest[1]]: n}
        return at + 3 - i
    if (
        key == "mana_value"
        and isinstance(n, int)
        and rest[:1] == ["or"]
        and rest[1:]
        and rest[1].isdigit()
        and not _compared(low, at + 3)
    ):
        out.setdefault("_all", []).append({"any": [{key: {"eq": n}}, {key: {"eq": int(rest[1])}}]})  # "2 or 3"
        return at + 3 - i
    return 0


def _number(word: str) -> bool:
    """Whether ``word`` is a number a comparison reads: digits, or X (107.3)."""
    return word.isdigit() or word == "x"


def _other_than(low: list[str], words: list[str], i: int, card: Card, out: dict[str, Any]) -> int:
    """How many words from ``i`` say the thing is other than the source ("other than this creature",
    "other than Rosie Cotton"), noted in ``out``; 0: none."""
    if low[i : i + 2] != ["other", "than"]:
        return 0
    if low[i + 2 : i + 3] == ["this"] and i + 3 < len(low):
        out["_other"] = True
        return 4
    named = _short_name(words, i + 2, card)  # the card's name, or its first words (201.5)
    if named:
        out["_other"] = True
    return 2 + named if named else 0


def _short_name(words: list[str], i: int, card: Card) -> int:
    """How many words from ``i`` name this card: its name before a comma ("Yasova Dragonclaw"), or
    the capitalized words that begin it ("Rosie Cotton" of "Rosie Cotton of South Lane"); 0: none."""
    name = card.name.split(" // ")[0].split(",")[0].split()
    run = 0
    while i + run < len(words) and run < len(name) and words[i + run] == name[run]:
        run += 1
    after = words[i + run] if i + run < len(words) else ""
    return run if run == len(name) or (run and not after[:1].isupper()) else 0


def _compared(low: list[str], i: int) -> bool:
    """Whether a comparison word follows a number ("1 or less"): then it is no number alone."""
    return low[i : i + 1] == ["or"] and low[i + 1 : i + 2] != [] and low[i + 1] in _COMPARE


def _isnt(low: list[str], words: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` say what the thing is not, "that isn't a God", "that isn't a
    creature or token" (a type, a subtype, 205.3, or a token, 111.1; either excluded), noted in
    ``out``; 0: none."""
    if low[i : i + 2] != ["that", "isn't"] or low[i + 2 : i + 3] not in (["a"], ["an"]):
        return 0
    at, excluded = i + 3, []
    while at < len(low):
        found = subtypes_at(words, at) if words[at][:1].isupper() else None
        if found is not None and len(found[0]) == 1:
            excluded.append({"subtype": found[0][0]})
            at += found[1]
        elif low[at] in _TYPES:
            excluded.append({"type": low[at]})
            at += 1
        elif low[at] == "token":
            excluded.append({"tag": "token"})
            at += 1
        else:
            return 0
        if (
            low[at : at + 1] != ["or"]
            or at + 1 >= len(low)
            or not (low[at + 1] in _TYPES or low[at + 1] == "token" or words[at + 1][:1].isupper())
        ):
            break
        at += 1
    out.setdefault("_nots", []).extend(excluded)
    return at - i


_TYPES = frozenset({"artifact", "battle", "creature", "enchantment", "land", "planeswalker", "instant", "sorcery"})


_CAUSES = (  # what the words after a target phrase say that no filter can, each with why (for a refusal)
    (
        r"with (?:power|toughness|mana value)(?: or toughness)? x\b",
        "a comparison with X in words this reader does not read (107.3)",
    ),
    (
        r"with (?:equal or )?(?:lesser|greater) |with (?:power|toughness|mana value) (?:less|greater|equal)"
        r"|with that \w+'s |with the same |with the (?:greatest|highest|lowest|least|most) "
        r"|who (?:controls|has) more |whose \w+ (?:has|have) (?:more|fewer) |whose power and toughness ",
        "a comparison with a number the board decides (the power of another object, a count), which the "
        "numbers of a filter cannot say",
    ),
    (
        r"from a single |controlled by different |that shares? an? |with different names|with total "
        r"|attacking the same ",
        "a condition on the targets together, not on each (601.2c), which a filter cannot say",
    ),
    (
        r"that (?:crewed|saddled) it|blocking it\b|it's blocking|attacking you\b|exiled with |attached to "
        r"|other than (?:that|enchanted) |controlled by (?:the|a) player |that targets only |with a single target"
        r"|that player (?:is protecting|protects)",
        "a relation to another object or player, which a filter cannot say",
    ),
    (r"(?:not )?named ", "a name, which a filter cannot say"),
)


def cause(words: list[str]) -> str:
    """Why the words after a target phrase (here, not a qualifier this reader knows) are refused:
    what they say that no filter can, naming the words, or that they are unknown."""
    said = " ".join(words).lower()
    shown = " ".join(words[: next((k for k, w in enumerate(words[:4]) if w in ".,;:"), 4)])
    for pattern, why in _CAUSES:
        if re.match(pattern, said):
            return f"{why}: {typed(shown)}"
    return f"words after a target phrase this reader does not know: {typed(' '.join(words[:3]))}"
