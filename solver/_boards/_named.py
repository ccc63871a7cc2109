"""A board a judge names on the page (docs/server.md, "A board from card names"): the players, each
card with its controller and zone, and one event — a permanent enters, a board wipe, an attack, a
spell cast — written as a scenario document naming its cards, with every triggered ability the
event makes wait.

Nothing is read twice: each card is the pool's reading of it (``model/cards/_pool.py`` ``placed``,
which says why a card is left out), and which abilities the event triggers is the random boards'
own :class:`~._assemble.Scene` (603.2, 603.6a, 603.10a). The document names its cards (``card:``)
and each trigger its source and ``card_ability``, so the scenario's own reading of the cards
(``model/cards/_expand.py``) writes their targets out when it is loaded, as for any scenario.

Ids are the words a judge says: an object is its card name's last word (``titan``, ``elves``; the
controller added where two share it: ``warden_a``, ``warden_b``), a trigger its card name's
initials (``IT``; ``SWA``, ``SWB``). A bad board is one problem per place (``cards[2].card``,
``event``), each saying how to fix it; nothing is guessed.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints
from triggerstack.model._errors import ScenarioError
from triggerstack.model._numbers import Whole
from triggerstack.model.cards._corpus import SUGGESTED, corpus
from triggerstack.model.cards._pool import Entry, placed

from .._verbs.base import Params
from ._assemble import Fired, Piece, Scene

MOST_PLAYERS = 8
"""Players a named board may have (A … H)."""
MOST_CARDS = 60
"""Cards a named board may hold."""
NAME = 200
"""Characters of a card's name (the longest Oracle name is 141)."""

Event = Literal["enters", "dies", "attacks", "cast"]
Zone = Literal["battlefield", "graveyard", "hand", "exile", "library", "stack"]


class Placed(Params):
    """One card of the board: its Oracle name, its controller (its owner, in a card's zone) and its zone."""

    card: Annotated[str, StringConstraints(min_length=1, max_length=NAME)]
    controller: Annotated[str, StringConstraints(pattern=r"^[A-H]$")] = "A"
    zone: Zone = "battlefield"


class NamedBoard(Params):
    """The page's board: how many players (A, B … in turn order, A active), the cards, and the event."""

    players: Whole = Field(2, ge=1, le=MOST_PLAYERS)
    cards: list[Placed] = Field(default_factory=list, max_length=MOST_CARDS)
    event: Event = "enters"
    subject: Whole | None = Field(None, ge=0, lt=MOST_CARDS)
    """enters: the place of the card that enters (a permanent on the battlefield). Default: the
    first on the battlefield. (A spell cast is the one card on the stack.)"""
    attackers: list[Annotated[Whole, Field(ge=0, lt=MOST_CARDS)]] | None = Field(None, max_length=MOST_CARDS)
    """attacks: the attacking creatures (the active player's). Default: every one that can attack."""
    defender: Annotated[str, StringConstraints(pattern=r"^[A-H]$")] | None = None
    """attacks: the defending player (506.2). Default: the next player in turn order."""


def players_of(n: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(n)]


def named_board(board: NamedBoard) -> tuple[dict[str, Any], str]:
    """The scenario document of ``board`` and one line saying its event; :class:`ScenarioError`
    holding every problem (each naming its place and how to fix it) when the board can't be one."""
    players = players_of(board.players)
    problems: list[ScenarioError] = []
    entries = _entries(board, players, problems)
    if problems:
        _raise(problems)
    ids = _object_ids(board, entries)
    pieces = [Piece(ids[i], entries[i], p.controller, p.zone) for i, p in enumerate(board.cards)]
    scene, said = _scene(board, players, pieces, problems)
    if problems or scene is None:
        _raise(problems)
    assert scene is not None
    drawn = scene.document(_trigger_ids(players, ids.values()))
    return drawn.document, said


def _raise(problems: list[ScenarioError]) -> None:
    first = problems[0]
    first.also = tuple(problems[1:])
    raise first


def _entries(board: NamedBoard, players: list[str], problems: list[ScenarioError]) -> dict[int, Entry]:
    """Each card's pool reading, by its place; a problem for each name missed, each player no one
    is, and each card the pool leaves out (saying why, and what to do instead)."""
    index = corpus()
    out: dict[int, Entry] = {}
    missed = 0
    for i, p in enumerate(board.cards):
        if p.controller not in players:
            why = f"there is no player {p.controller} (players: {', '.join(players)})"
            problems.append(ScenarioError(why, ("cards", i, "controller")))
        try:
            card = index.lookup(p.card, ("cards", i, "card"), suggest_near=missed < SUGGESTED)
        except ScenarioError as exc:
            missed += 1
            problems.append(exc)
            continue
        found = placed(card)
        if isinstance(found, str):
            problems.append(
                ScenarioError(
                    f"{card.name} can't be placed on a board from names: {found} "
                    "(write its object and triggers in the scenario by hand, docs/cards.md)",
                    ("cards", i, "card"),
                )
            )
            continue
        out[i] = found
    return out


def _scene(
    board: NamedBoard, players: list[str], pieces: list[Piece], problems: list[ScenarioError]
) -> tuple[Scene | None, str]:
    """The scene of the event, its pieces placed, and one line saying the event."""
    kind = board.event
    if kind == "attacks" and len(players) < 2:
        problems.append(ScenarioError("an attack needs a defending player: give two players or more", ("players",)))
        return None, ""
    defender = board.defender or (players[1] if len(players) > 1 else None)
    if kind == "attacks" and (defender not in players[1:]):
        problems.append(
            ScenarioError(f"the defending player is one of {', '.join(players[1:])}, not {defender}", ("defender",))
        )
        return None, ""
    scene = Scene(random.Random(0), players, kind, defender=defender)
    on = [p for p in pieces if p.zone == "battlefield"]
    stack = [i for i, p in enumerate(pieces) if p.zone == "stack"]
    if stack and (kind != "cast" or len(stack) > 1):
        why = "only the spell cast is on the stack" if kind == "cast" else "a card is on the stack only as a spell cast"
        extra = stack[1:] if kind == "cast" else stack
        problems += [ScenarioError(f"{why}: put it in another zone", ("cards", i, "zone")) for i in extra]
        return None, ""
    scene.pieces = [p for p in pieces if p.zone != "stack"]
    if kind == "enters":
        i = _subject(board, pieces, lambda p: p.zone == "battlefield", "a permanent on the battlefield", problems)
        if i is None:
            return None, ""
        pieces[i].entered = True
        return scene, f"{pieces[i].id} ({pieces[i].controller}'s {pieces[i].entry.name}) enters"
    if kind == "dies":
        dying = [p for p in on if p.entry.creature]
        if not dying:
            problems.append(ScenarioError("a board wipe needs a creature on the battlefield", ("cards",)))
            return None, ""
        for p in dying:
            p.zone, p.died = "graveyard", True
        return scene, f"a board wipe: every creature dies ({', '.join(p.id for p in dying)})"
    if kind == "attacks":
        attacking = _attack(board, players[0], pieces, problems)
        said = ", ".join(p.id for p in pieces if p.attacking)
        return (scene if attacking else None), f"{players[0]} attacks {defender} with {said}"
    if not stack:
        problems.append(ScenarioError("a spell cast needs the spell: a card in the zone stack", ("cards",)))
        return None, ""
    spell = pieces[stack[0]]
    scene.spell = spell
    scene.caster = spell.controller
    return scene, f"{spell.controller} casts {spell.entry.name} ({spell.id})"


def _subject(
    board: NamedBoard, pieces: list[Piece], can: Callable[[Piece], bool], what: str, problems: list[ScenarioError]
) -> int | None:
    """The event's card: the one ``subject`` names, else the first that ``can`` be it."""
    if board.subject is None:
        i = next((i for i, p in enumerate(pieces) if can(p)), None)
        if i is None:
            problems.append(ScenarioError(f"the event needs {what}: add one", ("cards",)))
        return i
    if board.subject >= len(pieces) or not can(pieces[board.subject]):
        problems.append(ScenarioError(f"card {board.subject} is not {what}", ("subject",)))
        return None
    return board.subject


def _attack(board: NamedBoard, active: str, pieces: list[Piece], problems: list[ScenarioError]) -> bool:
    """Whether the attack is one: the active player's chosen creatures (default: every one that
    can) are tagged attacking."""
    can = [i for i, p in enumerate(pieces) if p.zone == "battlefield" and p.entry.creature and p.controller == active]
    chosen = board.attackers if board.attackers is not None else [i for i in can if pieces[i].entry.attacker]
    for i in chosen:
        if i not in can:
            why = f"card {i} is no creature of {active}'s on the battlefield: only the active player attacks"
            problems.append(ScenarioError(why, ("attackers",)))
    if not chosen and not problems:
        why = f"an attack needs a creature of {active}'s (the active player) on the battlefield"
        problems.append(ScenarioError(why, ("attackers",)))
    for i in chosen:
        pieces[i].attacking = True
    return not problems


def _word(name: str) -> str:
    """A card name's last word, as an id: ``Llanowar Elves`` is ``elves``."""
    words = re.findall(r"\w+", name.split(" // ")[0].casefold())
    return words[-1] if words else "card"


def _object_ids(board: NamedBoard, entries: dict[int, Entry]) -> dict[int, str]:
    """Each card's object id: its Oracle name's last word (the card found, never the name as typed:
    ``Arwen Undo\u0301miel`` typed decomposed is ``undómiel`` too), with its controller where two share
    it (``warden_a``), and a number where that is not enough (``bear_a2``)."""
    words = {i: _word(entries[i].name or p.card) for i, p in enumerate(board.cards)}
    shared = Counter(words.values())
    out: dict[int, str] = {}
    taken = set(players_of(board.players))
    for i, p in enumerate(board.cards):
        base = words[i] if shared[words[i]] == 1 else f"{words[i]}_{p.controller.lower()}"
        name, n = base, 1
        while name in taken:
            n += 1
            name = f"{base}{n}"
        taken.add(name)
        out[i] = name
    return out


def _initials(name: str) -> str:
    words = re.findall(r"\w+", name.split(" // ")[0])
    return "".join(w[0] for w in words).upper() or "T"


def _trigger_ids(players: list[str], objects: Any) -> Any:
    """Names for the triggers of a scene: its source card's initials (``IT``), with the source's
    controller where cards of different players share them (``SWA``, ``SWB``), and a number where a
    source has several waiting (``SWA1``, ``SWA2``)."""
    taken = {*players, *objects}

    def names(fired: list[Fired]) -> list[str]:
        bases = [_initials(p.entry.name or "T") for p, _, _ in fired]
        sources: dict[str, set[str]] = {}
        for base, (p, _, _) in zip(bases, fired, strict=True):
            sources.setdefault(base, set()).add(p.id)
        keyed = [
            base if len(sources[base]) == 1 else f"{base}{p.controller}"
            for base, (p, _, _) in zip(bases, fired, strict=True)
        ]
        many = Counter(keyed)
        out, seen = [], Counter[str]()
        used = set(taken)
        for key in keyed:
            seen[key] += 1
            name = key if many[key] == 1 else f"{key}{seen[key]}"
            while name in used:
                name += "x"
            used.add(name)
            out.append(name)
        return out

    return names
