"""A scenario that names cards, written out in full (docs/cards.md): an object's ``card`` gives its
characteristics and the keywords that bear on targeting; a trigger whose source names a card gives
its text, modes and targets by ``card_ability`` (the N-th triggered ability, 1-based; optional when
the card has one). Fields written beside them win. What cannot be read is a problem naming the
place, the card and the sentence — never a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from pydantic import ValidationError

from .._apnap import opponent_relation
from .._controllers import derive_controller
from .._errors import ScenarioError
from .._numbers import exact_whole
from .._shapes import ScenarioFields, TriggerBody
from .._text import found, typed
from .._words import COLORS, SUPERTYPES
from ._board import Missing, complete, is_template
from ._corpus import SUGGESTED, Card, corpus
from ._defining import defined
from ._reader import KEPT, Ability, keyword_lines, read
from ._states import keyword_tag

_COLOR_OF = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def names_cards(doc: Any) -> bool:
    """Whether a scenario document names a card anywhere (else it is left as it is)."""
    if not isinstance(doc, Mapping):
        return False
    objects = doc.get("objects")
    named = isinstance(objects, list) and any(isinstance(o, Mapping) and o.get("card") is not None for o in objects)
    return named or asks_ability(doc)


def asks_ability(doc: Any) -> bool:
    """Whether a trigger of a scenario document asks for its source card's ability (``card_ability``)."""
    triggers = doc.get("triggers") if isinstance(doc, Mapping) else None
    return isinstance(triggers, list) and any(
        isinstance(t, Mapping) and t.get("card_ability") is not None for t in triggers
    )


def _mana(cost: str) -> tuple[list[str], int]:
    """A mana cost's colors (105.2) and mana value (202.3)."""
    colors: set[str] = set()
    value = 0
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        parts = symbol.split("/")
        for part in parts:
            if part in _COLOR_OF:
                colors.add(_COLOR_OF[part])
        if symbol.isdigit():
            value += int(symbol)
        elif symbol in ("X", "Y", "Z"):
            continue
        elif parts[0].isdigit():  # {2/W}: the larger, 2
            value += int(parts[0])
        else:
            value += 1
    return [c for c in COLORS if c in colors], value


def characteristics(card: Card) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """The object fields a card gives (types, subtypes, supertypes, colors, mana value, power,
    toughness, hexproof, shroud, protection, hexproof from), and what it could not read: (the
    field to give by hand, why). The caller's to change (read once per card, as :func:`read`)."""
    given, notes = _characteristics(card)
    return _fresh(given), list(notes)


def _fresh(value: Any) -> Any:
    """A copy of JSON-like ``value`` sharing no list or dict with it (``deepcopy``'s work, a
    third of its time)."""
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


@lru_cache(maxsize=KEPT)
def _characteristics(card: Card) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    out: dict[str, Any] = {}
    notes: list[tuple[str, str]] = []  # (the field to give by hand, why)
    kinds = {"tribal": "kindred"}
    out["types"] = [kinds.get(t.lower(), t.lower()) for t in card.types]
    if card.subtypes:
        out["subtypes"] = [s.lower() for s in card.subtypes]
    if card.supertypes:
        out["supertypes"] = [s.lower() for s in card.supertypes]
        unknown = [s for s in out["supertypes"] if s not in SUPERTYPES]
        if unknown:  # an Un-card's "Host": no supertype of 205.4a, which a scenario cannot hold
            notes.append(("supertypes", f"{', '.join(unknown)} is no supertype of 205.4a (give supertypes)"))
            out["supertypes"] = [s for s in out["supertypes"] if s in SUPERTYPES]
            if not out["supertypes"]:
                del out["supertypes"]
    colors, value = _mana(card.mana_cost)
    out["colors"] = colors
    out["mana_value"] = value
    for key, raw in (("power", card.power), ("toughness", card.toughness)):
        if raw is not None and raw.isdigit():
            out[key] = int(raw)
    words = keyword_lines(card)
    notes += defined(card, words, out)
    for word in words:
        low = word.casefold()
        if low == "hexproof":
            out["hexproof"] = True
        elif low == "shroud":
            out["shroud"] = True
        elif (tag := keyword_tag(low)) is not None:  # "target creature with flying" asks for it (702): a tag
            if tag not in out.get("tags", ()):
                out.setdefault("tags", []).append(tag)
        elif low.startswith(("protection from", "hexproof from")):
            key = "protection" if low.startswith("protection") else "hexproof_from"
            for what in re.split(r",? and from |, from | from ", low.split(" from ", 1)[1]):
                quality = _quality(what.strip())
                if quality is None:
                    said = f"{typed(word)}: the quality {typed(what.strip())} is not read (give {key} by hand)"
                    notes.append((key, said))
                else:
                    out.setdefault(key, []).append(quality)
    return out, notes


def _quality(what: str) -> dict[str, Any] | None:
    """The filter of a protection or hexproof-from quality (702.16a, 702.11d)."""
    if what in COLORS:
        return {"color": what}
    if what == "everything":
        return {}
    base = what[:-1] if what.endswith("s") else what
    if base in ("creature", "artifact", "enchantment", "planeswalker", "land", "instant", "sorcery"):
        return {"type": base}
    if what == "colorless":
        return {"colorless": True}
    if what == "all colors" or what == "each color":
        return {"any": [{"color": c} for c in COLORS]}
    return None


@lru_cache(maxsize=KEPT)
def ward_of(card: Card) -> str | None:
    """The card's ward cost, if it has ward (702.21a)."""
    for word in keyword_lines(card):
        if re.match(r"ward\b", word, flags=re.I):  # not "Warden of Isengard" (Merry's partner's name)
            return word[4:].strip(" —-") or "?"
    return None


def ward_reaction(obj_id: str, cost: str) -> dict[str, Any]:
    """The reaction an object with ward has (702.21a): when it becomes the target of a spell or
    ability an opponent controls, a trigger that counters it unless that player pays."""
    return {
        "id": f"{obj_id}-ward",
        "when": "becomes-target",
        "object": obj_id,
        "by": "opponent",
        "trigger": {
            "source": obj_id,
            "text": f"Ward {cost} — whenever this becomes the target of a spell or ability an opponent "
            "controls, counter it unless that player pays the cost (702.21a)",
        },
    }


class _Expansion:
    """One document's cards being read: every problem found so far, the card each object id
    names, and the reactions (each ward a card has is added once)."""

    def __init__(self, doc: Mapping[str, Any], reactions: list[Any]) -> None:
        self.doc = doc
        self.index = corpus()
        self.problems: list[ScenarioError] = []
        self.cards: dict[str, Card] = {}
        self.placed: dict[str, tuple[int, dict[str, Any]]] = {}  # an object's place and its fields, by id
        self.reactions = reactions
        self.have = {r.get("id") for r in reactions if isinstance(r, Mapping)}
        self.missed = 0

    def read_object(self, i: int, obj: Any) -> None:
        """Fill in object ``i`` (in place) from the card it names, if it names one."""
        if not isinstance(obj, dict) or obj.get("card") is None:
            return
        name = obj["card"]
        if not isinstance(name, str):
            self.problems.append(ScenarioError(f"expected a card's name, found {typed(name)}", ("objects", i, "card")))
            return
        try:  # "did you mean" for the first few misses only: each compares the name with every card's
            card = self.index.lookup(name, ("objects", i, "card"), suggest_near=self.missed < SUGGESTED)
        except ScenarioError as exc:
            self.missed += 1
            self.problems.append(exc)
            return
        if isinstance(obj.get("id"), str):
            self.cards[obj["id"]] = card
            self.placed[obj["id"]] = (i, obj)
        given, notes = characteristics(card)
        for field, note in notes:
            if field not in obj:
                self.problems.append(ScenarioError(f"{card.name}: {note}", ("objects", i, "card")))
        for key, value in given.items():
            obj.setdefault(key, value)
        if isinstance(obj.get("tags"), list) and obj["tags"] is not given.get("tags"):  # the scenario's tags and
            obj["tags"] = [*obj["tags"], *(t for t in given.get("tags", ()) if t not in obj["tags"])]  # its keywords
        self.add_ward(obj, card)

    def add_ward(self, obj: dict[str, Any], card: Card) -> None:
        """Add the reaction of the card's ward (702.21a), if it has ward and the object is a
        permanent with an id whose ward is not written out already."""
        ward = ward_of(card)
        if ward is None:
            return
        placed = isinstance(obj.get("id"), str) and obj.get("kind", "permanent") == "permanent"
        if placed and f"{obj['id']}-ward" not in self.have:  # written out once (a later pass re-reads the scenario)
            self.have.add(f"{obj['id']}-ward")
            self.reactions.append(ward_reaction(obj["id"], ward))

    def read_trigger(self, i: int, trig: Any) -> Any:
        """Trigger ``i`` with the ability of its source's card written out, if it asks for one."""
        if not isinstance(trig, Mapping):
            return trig
        trig = dict(trig)
        if trig.get("card_ability", 0) is None:
            del trig["card_ability"]  # written out by a model (a later pass): none asked
        source = trig.get("source")
        named = self.cards.get(source) if isinstance(source, str) else None
        # a text of its own is a label: the card's targets are kept (docs/cards.md); targets,
        # modes or modal given by hand are the whole ability, written out instead of the card's
        wants = "card_ability" in trig or (named is not None and not {"targets", "modes", "modal"} & set(trig))
        if not wants:
            return trig
        loc: tuple[str | int, ...] = ("triggers", i, "card_ability")
        if named is None:
            self.problems.append(ScenarioError("card_ability needs a source that names a card", loc))
            return trig
        labelled = "text" in trig and "card_ability" not in trig
        if labelled and not read(named):
            return trig  # a card with no triggered ability: the text is an ability of the scenario's own
        ability = self.ability_asked(named, trig.pop("card_ability", None), loc, labelled)
        if ability is None:
            return trig
        if ability.fragment is None:
            assert ability.unread is not None
            self.problems.append(
                ScenarioError(
                    f"{named.name}, triggered ability {ability.index}: {ability.unread.reason}: "
                    f"{typed(ability.unread.sentence, 300)} (give text, targets and modes by hand)",
                    loc,
                )
            )
            return trig
        fragment = self.completed(named, ability, trig, loc)
        for key, value in (fragment or {}).items():
            trig.setdefault(key, value)
        return trig

    def completed(
        self, card: Card, ability: Ability, trig: dict[str, Any], loc: tuple[str | int, ...]
    ) -> dict[str, Any] | None:
        """The ability's fragment, a template completed from what the scenario states (its players, the
        trigger's controller, its source's numbers: model/cards/_board.py); None with the problem noted
        when the scenario does not state what it needs."""
        assert ability.fragment is not None
        if not is_template(ability.fragment):
            return ability.fragment
        try:
            return complete(
                ability.fragment,
                lambda who: self.each(who, trig),
                lambda of, field: self.number(trig, int(loc[1]), of, field),
                lambda: self.event(trig, int(loc[1])),
            )
        except Missing as exc:
            said = f"{card.name}, triggered ability {ability.index} (triggers[{loc[1]}]): {exc.message}"
            self.problems.append(ScenarioError(said, exc.loc or loc))
            return None

    def each(self, who: str, trig: dict[str, Any]) -> tuple[str, ...]:
        """The players still in the game (800.4a), in turn order: every one, or the opponents of the
        trigger's controller (603.3a; in 2hg the other team's, 805.7)."""
        named = trig.get("source")
        source = self.placed.get(named) if isinstance(named, str) else None
        try:
            board = ScenarioFields.model_validate(
                {k: self.doc[k] for k in ("rules", "players", "teams") if k in self.doc}
                | {"objects": [source[1]] if source else []}
            )
            body = TriggerBody.model_validate(
                {k: trig[k] for k in ("source", "controller", "source_controller", "delayed") if k in trig}
            )
            controller = derive_controller(board, body, ()).player if who == "opponent" else None
        except (ValidationError, ScenarioError) as exc:
            raise Missing(
                f"'for each {who}' is a requirement per {who}, read from the scenario's players"
                f"{' and the controller of the trigger (603.3a)' if who == 'opponent' else ''}, which are not "
                f"valid yet: {_first(exc)}"
            ) from None
        playing = [p.id for p in board.players if not p.left_game]
        if controller is None:
            return tuple(playing)
        opponents = opponent_relation(board)[controller]
        return tuple(p for p in playing if p in opponents)

    def number(self, trig: dict[str, Any], i: int, of: str, field: str) -> int:
        """The number the scenario states: the trigger's ``x`` (107.3), or the ``field`` (power,
        toughness, mana value) of the trigger's source."""
        if of == "trigger":
            value = trig.get("x")
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                return value
            raise Missing(
                "its text says X, the number the board decides (107.3), which the scenario does not state: give "
                f"triggers[{i}].x, as it is when the ability is put on the stack",
                ("triggers", i, "x"),
            )
        source = trig.get("source")
        k, obj = self.placed[source] if isinstance(source, str) and source in self.placed else (None, {})
        value = obj.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        said = field.replace("_", " ")
        raise Missing(
            f"its target is compared with the {said} of its source {found(source)}, which the scenario does not "
            f"state: give objects[{k}].{field} (a {said} of * is stated by no card)",
            ("objects", k, field) if k is not None else None,
        )

    def event(self, trig: dict[str, Any], i: int) -> str:
        """The player the trigger's event names, as the scenario states it (its ``event_player``)."""
        value = trig.get("event_player")
        if isinstance(value, str):
            return value
        raise Missing(
            "its targets are chosen by the player its event names (700.2e, 603.2), whom the scenario does "
            f"not state: give triggers[{i}].event_player",
            ("triggers", i, "event_player"),
        )

    def ability_asked(self, card: Card, n: Any, loc: tuple[str | int, ...], labelled: bool = False) -> Ability | None:
        """The card's ``n``-th triggered ability (its only one when ``n`` is None), or None with
        the problem noted when there is no such one (``labelled``: the trigger gives a text of its
        own, so writing the ability by hand is the other way out)."""
        abilities = read(card)
        if isinstance(n, float) and exact_whole(n) is not None:
            n = exact_whole(n)  # 2.0 is 2, as its text says (shapes.Whole); true is not 1
        if n is None and len(abilities) != 1:
            which = "; ".join(f"{a.index}: {a.text[:60]}" for a in abilities) or "none"
            fix = ", or give targets (targets: [] for none) to write it by hand" if labelled else ""
            said = f"{card.name} has {len(abilities)} triggered abilities: say which ({which}){fix}"
            self.problems.append(ScenarioError(said, loc))
            return None
        if isinstance(n, bool) or not isinstance(n, int | None) or (n is not None and not 1 <= n <= len(abilities)):
            from .._text import found

            said = found(n)
            self.problems.append(
                ScenarioError(f"{card.name} has {len(abilities)} triggered abilities, not {said}", loc)
            )
            return None
        return abilities[(n or 1) - 1]


def _first(exc: Exception) -> str:
    """The first thing a validation found wrong, in one line."""
    if isinstance(exc, ValidationError):
        error = exc.errors()[0]
        return f"{'.'.join(map(str, error['loc']))}: {error['msg']}"
    return str(exc)


def expand(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` with every card it names read into the scenario format; :class:`ScenarioError`
    holding every problem (each naming its place) when some card or ability cannot be read."""
    listed = {k: doc.get(k) if isinstance(doc.get(k), list) else None for k in ("objects", "triggers", "reactions")}
    reading = _Expansion(doc, list(listed["reactions"] or ()))
    out = dict(doc)
    objects = [dict(o) if isinstance(o, Mapping) else o for o in listed["objects"] or ()]
    for i, obj in enumerate(objects):
        reading.read_object(i, obj)
    triggers = [reading.read_trigger(i, trig) for i, trig in enumerate(listed["triggers"] or ())]
    if reading.problems:
        first = reading.problems[0]
        first.also = tuple(reading.problems[1:])
        raise first
    if listed["objects"] is not None:  # what is not a list is left for the shapes to say so
        out["objects"] = objects
    if listed["triggers"] is not None:
        out["triggers"] = triggers
    if reading.reactions and (listed["reactions"] is not None or "reactions" not in doc):
        out["reactions"] = reading.reactions
    return out
