"""One board drawn from a pool (``model/cards/_pool.py``, or the generated stand-ins of
``_generated.py``): the players, each one's permanents, one event, and every triggered ability
that event makes wait — written as a scenario document naming its cards.

The events (603.2, 603.6, 603.10a):

* ``enters``: a creature enters under a player's control. Its own enters abilities trigger, and
  every permanent's "whenever another creature enters" whose words fit it (the entering one's "a
  creature enters" too, 603.6a).
* ``dies``: a board wipe — every creature dies at once. Each one's dies and leaves abilities
  trigger, and so does every "whenever a creature dies" that fits, the dying ones' too, which look
  back in time (603.10a); the dead are cards in their owners' graveyards, and each trigger whose
  source died says who controlled it there (``source_controller``, 603.3a).
* ``attacks``: the active player attacks one opponent with some of their creatures (tagged
  ``attacking``). Each attacker's attack abilities trigger, every "whenever a creature you control
  attacks" once per attacker that fits, and "whenever you attack" once.
* ``cast``: a player casts a spell (the active player, or anyone for an instant or a card with
  flash); it is on the stack. Its own "When you cast this spell" abilities trigger, and every
  permanent's "whenever you cast / an opponent casts / a player casts a … spell" that fits it.

A trigger whose reading names the event's player (``controller: event``) gets ``event_player``:
the entering or dying creature's controller, the defending player, the caster.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from triggerstack.model.cards._expand import ward_reaction
from triggerstack.model.cards._pool import Condition, Entry, Pool, Trig, fits

ATTACK_CHANCE = 2 / 3
"""How likely each of the active player's creatures that can attack does, in an attack."""
TRIES = 30
"""How many makers may be taken back (too many abilities, or none) before the board is settled."""
IDLE = 0.75
"""How likely a permanent drawn to trigger, which the event does not trigger (an attacker's ability
on a creature that stays home), is taken back rather than kept on the board."""


@dataclass
class Piece:
    """One object of a board: its id, its card (or stand-in), whose it is, and where it is."""

    id: str
    entry: Entry
    controller: str
    zone: str = "battlefield"  # battlefield, stack (the spell cast), or a card's zone: graveyard, hand …
    attacking: bool = False
    entered: bool = False
    died: bool = False  # died in the wipe (its abilities look back in time, 603.10a)


Fired = tuple[Piece, Trig, str]
"""A trigger the event makes wait: its source, the ability, and the player the event names for it."""


@dataclass
class Drawn:
    """A board as drawn: the scenario document, its event, the cards it names, and the event's
    objects (``subjects``: the one that entered, the dead, the attackers, the spell) and defending
    player (an attack's)."""

    document: dict[str, Any]
    event: str
    cards: list[str] = field(default_factory=list)
    source: str = "cards"
    subjects: list[str] = field(default_factory=list)
    defender: str | None = None
    pieces: list[Piece] = field(default_factory=list)
    """Each object's piece, in the document's order (``_built.scenario_of`` reads their entries)."""
    fired: list[Fired] = field(default_factory=list)
    """Each trigger's source, ability and event player, in the document's order."""


def _whose(whose: str, controller: str, actor: str) -> bool:
    """Whether ``actor`` (the subject's controller, the caster, the attacker) is ``whose`` from the
    point of view of ``controller``, the ability's."""
    return whose == "any" or (whose == "you") == (actor == controller)


def _subject_fits(c: Condition, watcher: Piece, subject: Piece) -> bool:
    """Whether ``subject``, the event's permanent, is what ``watcher`` 's condition ``c`` names."""
    own = subject is watcher
    if c.subject == "self":
        return own
    if own and c.subject != "any":  # "another": never itself; "this or another": itself
        return c.subject == "self_or_other"
    return fits(c.word, subject.entry.fields) and _whose(c.whose, watcher.controller, subject.controller)


class Scene:
    """A board being drawn: its players, pieces and event."""

    def __init__(self, rng: random.Random, players: Sequence[str], kind: str, defender: str | None = None) -> None:
        self.rng = rng
        self.players = list(players)
        self.kind = kind
        self.pieces: list[Piece] = []
        self.spell: Piece | None = None
        # an attack's defending player (one, 506.2); a board of one player has none (its event is no
        # attack: the named board refuses one, the drawn boards have two seats or more)
        self.defender = defender if defender is not None or len(players) < 2 else rng.choice(self.players[1:])
        self.caster = self.players[0]
        self._count = {p: 0 for p in self.players}

    def add(self, entry: Entry, controller: str, *, entered: bool = False, attacks: bool | None = None) -> Piece:
        self._count[controller] += 1
        piece = Piece(f"{controller.lower()}{self._count[controller]}", entry, controller, entered=entered)
        if self.kind == "attacks" and controller == self.players[0] and entry.creature and entry.attacker:
            piece.attacking = self.rng.random() < ATTACK_CHANCE if attacks is None else attacks
        if self.kind == "dies" and entry.creature:
            piece.zone, piece.died = "graveyard", True
        self.pieces.append(piece)
        return piece

    def pop(self) -> None:
        piece = self.pieces.pop()
        self._count[piece.controller] -= 1

    def cast(self, entry: Entry) -> None:
        quick = "instant" in entry.fields["types"] or entry.flash
        self.caster = self.rng.choice(self.players) if quick else self.players[0]
        self.spell = Piece("spell", entry, self.caster, zone="stack")

    def _subjects(self) -> list[tuple[Piece, str]]:
        """The event's permanents (or spell), each with the player the event names for it."""
        if self.kind == "enters":
            return [(p, p.controller) for p in self.pieces if p.entered]
        if self.kind == "dies":
            return [(p, p.controller) for p in self.pieces if p.died]
        if self.kind == "attacks":
            assert self.defender is not None  # an attack's board has two players or more
            return [(p, self.defender) for p in self.pieces if p.attacking]
        assert self.spell is not None
        return [(self.spell, self.caster)]

    def _watchers(self) -> list[Piece]:
        """What was on the battlefield as the event happened (a card already in a graveyard or a hand
        sees nothing), and the spell cast."""
        here = [p for p in self.pieces if p.zone == "battlefield" or p.died]
        return [*here, *([self.spell] if self.spell is not None else [])]

    def _fired(self, watchers: Sequence[Piece], subjects: Sequence[tuple[Piece, str]]) -> Iterator[Fired]:
        """The abilities of ``watchers`` the event triggers, given its ``subjects`` (not empty)."""
        for w in watchers:
            for trig in w.entry.abilities:
                c = trig.condition
                if self.kind not in c.kinds or (w.zone == "stack" and c.subject != "self"):
                    continue
                if c.subject == "player":  # "whenever you attack", "whenever you cast a … spell": once
                    actor = self.caster if self.kind == "cast" else self.players[0]
                    spell = self.spell.entry.fields if self.spell is not None else {}
                    if _whose(c.whose, w.controller, actor) and (self.spell is None or fits(c.word, spell)):
                        yield w, trig, subjects[0][1]
                    continue
                yield from ((w, trig, player) for s, player in subjects if _subject_fits(c, w, s))

    def triggered(self) -> list[Fired]:
        """Every ability the event triggers: its source, the ability, and the event's player for it."""
        subjects = self._subjects()
        return list(self._fired(self._watchers(), subjects)) if subjects else []

    def added(self, piece: Piece) -> int:
        """How many more abilities the event triggers with ``piece`` (the last added) than without
        it — what :meth:`triggered` would count more, from that piece alone: its own abilities, and
        if it is one of the event's subjects (one that dies or attacks), the others' that fit it
        (all of theirs if it is the first: no subject, nothing triggers)."""
        subjects = self._subjects()
        if not subjects:
            return 0
        n = sum(1 for _ in self._fired([piece], subjects))
        itself = [(s, player) for s, player in subjects if s is piece]
        if itself:
            others = [w for w in self._watchers() if w is not piece]
            first = len(itself) == len(subjects)  # "whenever you attack" is counted once, with the first
            n += sum(1 for f in self._fired(others, itself) if first or f[1].condition.subject != "player")
        return n

    def document(self, names: Callable[[list[Fired]], list[str]] | None = None) -> Drawn:
        """The scenario document: players in turn order, objects naming their cards, the triggers
        (``T1``, ``T2`` … unless ``names`` names them, given every trigger in order)."""
        pieces = [*self.pieces, *([self.spell] if self.spell is not None else [])]
        objects = [_object(p) for p in pieces]
        reactions = [ward_reaction(p.id, p.entry.ward) for p in self.pieces if p.entry.ward and _warded(p)]
        triggers, triggered = [], self.triggered()
        ids = names(triggered) if names is not None else [f"T{n}" for n in range(1, len(triggered) + 1)]
        for tid, (piece, trig, player) in zip(ids, triggered, strict=True):
            t: dict[str, Any] = {"id": tid, "source": piece.id}
            if piece.entry.name is not None:
                t["card_ability"] = trig.index
            else:
                t.update(trig.fragment)
            if piece.died:
                t["source_controller"] = piece.controller  # as it last existed on the battlefield (603.10a)
            if trig.needs_event:
                t["event_player"] = player
            triggers.append(t)
        doc: dict[str, Any] = {"players": list(self.players), "objects": objects, "triggers": triggers}
        if reactions:
            doc["reactions"] = reactions
        named = [p.entry.name for p in [*self.pieces, self.spell] if p is not None and p.entry.name is not None]
        subjects = [p.id for p, _ in self._subjects()]
        defender = self.defender if self.kind == "attacks" else None
        return Drawn(doc, self.kind, named, subjects=subjects, defender=defender, pieces=pieces, fired=triggered)


def _warded(p: Piece) -> bool:
    """A generated stand-in's ward, which no card's reading adds (a card's is added as the scenario is read)."""
    return p.entry.name is None and p.entry.ward is not None and p.zone == "battlefield"


def _object(p: Piece) -> dict[str, Any]:
    obj: dict[str, Any] = {"id": p.id}
    if p.entry.name is not None:
        obj["card"] = p.entry.name
    else:
        obj.update(p.entry.fields)
    if p.zone not in ("battlefield", "stack"):
        obj.update(kind="card", zone=p.zone, owner=p.controller)
    else:
        obj["controller"] = p.controller
        if p.zone == "stack":
            obj["kind"] = "spell"
    if p.attacking:
        obj["tags"] = ["attacking"]
    return obj


def assemble(
    rng: random.Random,
    source: Pool,
    players: Sequence[str],
    kind: str,
    abilities: tuple[int, int],
    bodies: tuple[int, int],
) -> Drawn | None:
    """A board of ``kind`` whose event makes between ``abilities`` [0] and [1] abilities wait, with
    ``bodies`` creatures without triggered abilities on each side; ``None`` when this draw missed
    (the caller draws again)."""
    lo, hi = abilities
    board = Scene(rng, players, kind)
    for p in players:
        for _ in range(rng.randint(*bodies)):
            board.add(rng.choice(source.bodies), p)
    makers = source.by_kind[kind]
    if kind == "enters":
        board.add(rng.choice(source.entering), rng.choice(board.players), entered=True)
        makers = source.watching  # what else triggers: those that see it enter
    elif kind == "attacks":
        board.add(rng.choice(source.attackers), board.players[0], attacks=True)
    elif kind == "cast":
        board.cast(rng.choice(source.spells))
    target, misses = rng.randint(lo, hi), 0
    waiting = len(board.triggered())  # counted once a piece: taking one back restores the count
    while waiting < target and misses < TRIES:
        entry = rng.choice(makers)
        near = board.players[0] if kind == "attacks" and rng.random() < 0.75 else rng.choice(board.players)
        after = waiting + board.added(board.add(entry, near))
        if after > hi or (after == waiting and rng.random() < IDLE):
            board.pop()
            misses += 1
        else:
            waiting = after
    if not lo <= waiting <= hi:
        return None
    drawn = board.document()
    drawn.source = source.origin
    return drawn
