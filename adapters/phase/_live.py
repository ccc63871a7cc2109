"""A live phase game (``phase-python``, the extra ``[phase]``): card data built from our Oracle data,
boards set up with phase's debug actions, a chosen outcome played into the game, and the outcome the
game reached read back and judged (docs/phase.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from triggerstack.model import Outcome
from triggerstack.model._errors import MissingExtra, install_hint
from triggerstack.model._text import found as quoted

from ._answers import entry_of
from ._board import PROMPTS, Reading, exported, placed_as
from ._schema import Node, PhaseError, PhaseGap, root

TESTED = ("0.103.0",)  # the phase-python versions this adapter was tested with (pyproject's [phase] pin)


def phase_module() -> Any:
    """The ``phase`` module, or one line saying how to install it."""
    try:
        import phase
    except ImportError as exc:
        raise MissingExtra(f"driving phase.rs needs phase-python: {install_hint('phase')}") from exc
    return phase


def _mtgjson(card: Any) -> dict[str, Any]:
    """One card of our Oracle data in the MTGJSON shape phase's card builder reads."""
    from triggerstack.model.cards._expand import _mana

    colors, value = _mana(card.mana_cost)
    letter = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
    out: dict[str, Any] = {
        "name": card.name, "manaCost": card.mana_cost, "type": card.type_line, "types": list(card.types),
        "subtypes": list(card.subtypes), "supertypes": list(card.supertypes), "keywords": list(card.keywords),
        "text": card.text, "layout": card.layout, "colors": [letter[c] for c in colors],
        "colorIdentity": [letter[c] for c in colors], "manaValue": float(value), "identifiers": {},
        "legalities": {},
    }  # fmt: skip
    for stat in ("power", "toughness"):
        if getattr(card, stat) is not None:
            out[stat] = getattr(card, stat)
    return out


def card_data(names: Iterable[str]) -> dict[str, Any]:
    """phase's card database for ``names``, built from our Oracle data (the extra ``[cards]``) by
    phase's own builder (``build_oracle_face``)."""
    from triggerstack.model.cards._corpus import corpus

    phase = phase_module()
    db: dict[str, Any] = {}
    for name in names:
        face = phase.build_oracle_face(_mtgjson(corpus().lookup(name)), None)
        db[str(face["name"]).lower()] = face
    return db


def engine(names: Iterable[str]) -> Any:
    """A phase ``Engine`` that knows ``names`` (and Plains, the decks' filler)."""
    return phase_module().Engine.from_json(json.dumps(card_data(sorted({*names, "Plains"}))))


@dataclass
class Board:
    """A game at a board set up by debug actions: each player's cards moved to the battlefield (or a
    graveyard), a creature stolen, then one card entering (``simulate``: its triggers fire). Every
    action taken through it is kept, so :meth:`clone` is the same game again: phase cannot always
    reload a state it exported mid-game, so a clone is the root state (reloaded once, before any
    action) with the actions replayed."""

    engine: Any
    game: Any
    root: Any
    replay: list[tuple[int, dict[str, Any]]]

    @classmethod
    def build(cls, eng: Any, decks: Sequence[Sequence[str]], seed: int = 7) -> Board:
        deck = [{"main_deck": [*names, *["Plains"] * (60 - len(names))]} for names in decks]
        game = eng.new_game(deck[0], deck[1], seed=seed)
        for _ in range(8):
            w = Node(game.waiting_for(), "waiting_for")
            if w.tag() != "MulliganDecision":
                break
            pending = w["data"].opt("MulliganDecision.pending")
            who = (w["data"] if pending.null else pending.items()[0])["player"].as_int()
            keep = next(a for a in game.actions() if "Keep" in repr(a))
            game.apply(who, keep)
        root = game.state()
        root["state"]["debug_mode"] = True
        return cls(eng, eng.load_game(root), root, [])

    def clone(self) -> Board:
        """The same game, replayed from the root."""
        game = self.engine.load_game(self.root)
        for actor, action in self.replay:
            game.apply(actor, action)
        return Board(self.engine, game, self.root, list(self.replay))

    def apply(self, actor: int, action: dict[str, Any]) -> Any:
        """``game.apply``, kept for :meth:`clone`."""
        try:
            result = self.game.apply(actor, action)
        except ValueError as exc:
            raise PhaseError(f"apply {json.dumps(action)}: {exc}") from exc
        self.replay.append((actor, action))
        return result

    def state(self) -> Any:
        """``game.state()``; phase's failure to export one is a :class:`PhaseError`."""
        return exported(self.game)

    def object_id(self, name: str, owner: int) -> int:
        """The first of ``owner``'s cards named ``name`` still in a library or hand."""
        objs = [o for _, o in root(self.game.state())["objects"].entries()]
        for o in sorted(objs, key=lambda o: o["id"].as_int()):
            if (o["name"].as_str(), o["owner"].as_int()) == (name, owner) and o["zone"].as_str() in ("Library", "Hand"):
                return o["id"].as_int()
        raise KeyError(f"no {name} of player {owner} left in a library or hand")

    def debug(self, action: dict[str, Any]) -> Any:
        return self.apply(0, {"type": "Debug", "data": action})

    def move(self, oid: int, zone: str = "Battlefield", simulate: bool = False) -> Any:
        return self.debug({"type": "MoveToZone", "data": {"object_id": oid, "to_zone": zone, "simulate": simulate}})

    def steal(self, oid: int, controller: int) -> Any:
        return self.debug({"type": "SetController", "data": {"object_id": oid, "controller": controller}})

    def cast(self, name: str, owner: int, target: int | None = None, limit: int = 20) -> None:
        """``owner`` casts ``name`` in a main phase of their own, with the mana it costs added (and
        ``target`` as its target, if it asks for one), and both players pass until a
        trigger-placement prompt or until it has resolved: the game's own flow, where a creature's
        enters triggers, a removal spell's dies triggers and a sweeper's are put on the stack."""
        from triggerstack.model.cards._corpus import corpus

        oid = self.object_id(name, owner)
        self.move(oid, "Hand")
        self.debug({"type": "SetPhase", "data": {"phase": "PreCombatMain", "active_player": owner}})
        self.debug(
            {"type": "AddMana", "data": {"player_id": owner, "mana": _mana_for(corpus().lookup(name).mana_cost)}}
        )
        cast = next((a for a in self._actions() if a.tag() == "CastSpell" and a["data"]["object_id"].as_int() == oid),
                    None)  # fmt: skip
        if cast is None:
            raise PhaseError(f"phase offers no way to cast {name}")
        self.apply(owner, cast.json())
        for _ in range(limit):
            w = Node(self.game.waiting_for(), "waiting_for")
            kind = w.tag()
            if kind in PROMPTS or (kind == "Priority" and not len(root(self.state())["stack"])):
                return
            if kind not in ("TargetSelection", "AlternativeCastChoice", "OptionalEffectChoice", "UnlessPayment",
                            "Priority"):  # fmt: skip
                raise PhaseError(f"casting {name}: phase waits for {kind}")
            who = w["data"]["player"].as_int()
            if kind == "TargetSelection":  # the spell's own target (601.2c): ``target`` if phase allows it
                offered = [(a, a["data"]["target"]) for a in self._actions() if a.tag() == "ChooseTarget"]
                refs = [(a, t.variant()) for a, t in offered if not t.null]
                objects = [(a, v.as_int()) for a, (k, v) in refs if k == "Object"]
                mine = [a for a, oid in objects if oid == target]
                if not (mine or objects):
                    raise PhaseError(f"casting {name}: no target phase allows")
                self.apply(who, (mine or [a for a, _ in objects])[0].json())
            elif kind == "AlternativeCastChoice":  # cast for its mana cost, not evoked or otherwise
                self.apply(who, {"type": "ChooseAlternativeCast", "data": {"choice": {"type": "Normal"}}})
            elif kind in ("OptionalEffectChoice", "UnlessPayment"):  # a choice as something resolves: its first
                self.apply(who, next(a.to_dict() for a in self.game.actions()))
            else:
                self.apply(who, {"type": "PassPriority"})

    def _actions(self) -> list[Node]:
        """The actions phase offers now (``GameAction`` dicts)."""
        return [Node(a.to_dict(), f"actions[{i}]") for i, a in enumerate(self.game.actions())]

    def at_prompt(self) -> bool:
        return Node(self.game.waiting_for(), "waiting_for").tag() in PROMPTS


def _mana_for(cost: str) -> list[str]:
    """The mana a cost takes, as phase's ManaType names (generic paid with colorless)."""
    import re

    names = {"W": "White", "U": "Blue", "B": "Black", "R": "Red", "G": "Green", "C": "Colorless"}
    out: list[str] = []
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        if symbol.isdigit():
            out += ["Colorless"] * int(symbol)
        elif symbol in names:
            out.append(names[symbol])
        else:
            raise PhaseError(f"mana symbol {{{symbol}}} is not paid by the adapter's boards")
    return out


def play(game: Any, outcome: Outcome, *, strict: bool = True, limit: int = 1000,
         seen: Callable[[Reading, dict[str, Any]], None] | None = None) -> list[dict[str, Any]]:  # fmt: skip
    """Answer every trigger-placement prompt of ``game`` so that it places ``outcome``; the actions
    applied, in order (a :class:`~._session.Session`'s loop: each prompt read afresh, since phase may
    skip or merge prompts). ``seen`` is called with each reading and the action taken."""
    from ._session import Session

    return Session(game, strict=strict).play(outcome, limit, seen)


def reached(before: Reading, after: Mapping[str, Any]) -> Outcome:
    """The outcome phase placed for the batch ``before`` was read from: the stack entries above the
    stack as it stood, matched to the batch's abilities by source and description; an ability of the
    batch not on the stack was removed."""
    below = before.index.stack_ids
    entries = [e for e in root(after)["stack"].items() if e["id"].as_int() not in below]
    left = list(before.index.batch)
    matched: list[tuple[Node, str]] = []
    fired: list[tuple[int, str]] = []  # (place among the entries, our id) of the reactions phase fired
    for e in entries:
        data, match = placed_as(left, e)
        if match is None:
            fired.append((len(matched) + len(fired), _reaction(before, data, matched)))
            continue
        left.remove(match)
        matched.append((data["ability"], match.trigger))
    placed = [e for k, e in enumerate(entries) if k not in {i for i, _ in fired}]
    ids = {t: e["id"].as_int() for e, (_, t) in zip(placed, matched, strict=True)}
    index = replace(before.index, batch=[replace(b, stack_id=ids.get(b.trigger, b.stack_id))
                                         for b in before.index.batch])  # fmt: skip
    now = replace(before, index=index)
    stack: list[Any] = [entry_of(now, t, ability) for ability, t in matched]
    for k, rid in fired:
        stack.insert(k, Outcome.model_validate({"stack": [{"ability": rid}]}).stack[0])
    return Outcome(stack=tuple(stack), removed=tuple(b.trigger for b in left))


def _reaction(before: Reading, data: Node, matched: list[tuple[Node, str]]) -> str:
    """Our id for a reaction phase fired while placing the batch (``REACTION@ABILITY``): a ward
    ability, whose event names the warded object and the source of the ability that targeted it."""
    event = data.opt("Trigger.trigger_event")
    info = None if event.null or event.tag() != "BecomesTarget" else event["data"]
    thing = None if info is None else before.index.thing(info["target"])
    if info is None or f"{thing}-ward" not in {r["id"] for r in before.document.get("reactions", ())}:
        said = quoted(data.opt("Trigger.description").maybe_str())
        raise PhaseGap(f"stack entry {said} is not an ability of the batch read")
    source = info["source_id"].as_int()
    by = [t for ability, t in matched if ability["source_id"].as_int() == source]
    if not by:
        raise PhaseGap(f"ward of {thing}: no ability of the batch from source {source} is placed")
    return f"{thing}-ward@{by[0]}"
