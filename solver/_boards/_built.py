"""A drawn board as a :class:`~triggerstack.model.Scenario`, without reading its cards a second time
nor validating again what the generator made valid (issue 53: that was two thirds of a draw).

The document a board is drawn as names its cards, and ``Scenario.model_validate`` of it would look
each card up and read its Oracle text again (``model/cards/_expand.py``) — but the pool's entry of
each card *is* that reading (``model/cards/_pool.py`` keeps ``characteristics`` and each ability's
fragment), checked against the scenario's shapes when the pool was built. So each entry's object,
each of its abilities (per event player, which the ability's filters may name) and each ward's
reaction is validated once per process, as a template with a placeholder id; a board's own ids and
places (controller, zone, attacking) are put in by copy, and the scenario is assembled from those
parts with each waiting ability's controller derived (603.3a) as the validator derives it.

The one thing that must hold, held by ``tests/test_boards.py`` on thousands of boards of both pools:
:func:`scenario_of` of a drawn board equals ``Scenario.model_validate`` of its document, field for
field and in the fields each model was given (``model_dump(exclude_unset=True)``).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from triggerstack.model._controllers import derive_controller
from triggerstack.model._scenario import Scenario
from triggerstack.model._shapes import Object, Player, Reaction, Trigger
from triggerstack.model.cards._expand import ward_reaction
from triggerstack.model.cards._pool import Entry, Trig

from ._assemble import Drawn

KEPT = 65_536
"""Templates kept per process (past it they are validated again as they come): about the number of
pool entries a long run meets, each kept once."""
_PLACE = ("controller", "kind", "zone", "owner")
"""What a board writes beside an object's card: where it is and whose it is."""
_BLANK = "_"  # a placeholder id, replaced in every copy

_set = object.__setattr__
_templates: dict[tuple[Any, ...], tuple[object, BaseModel]] = {}


def _template(key: tuple[Any, ...], keep: object, make: Any) -> Any:
    """The template ``make()`` validates, once per ``key`` (``keep``: the object the key names by
    its ``id``, kept alive with the template so that the id is never another's)."""
    found = _templates.get(key)
    if found is None or found[0] is not keep:
        if len(_templates) >= KEPT:
            _templates.clear()
        found = _templates[key] = (keep, make())
    return found[1]


def _copy(template: Any, update: dict[str, Any]) -> Any:
    """``template`` with ``update`` 's fields (valid values of them), as validating the whole would
    give it: the fields given are the template's and the update's. What ``model_copy(update=...)``
    does, without copying what a frozen model shares (a fifth of its time): the parts are frozen."""
    copied = object.__new__(type(template))
    _set(copied, "__dict__", {**template.__dict__, **update})
    _set(copied, "__pydantic_fields_set__", template.__pydantic_fields_set__ | update.keys())
    _set(copied, "__pydantic_extra__", None)
    _set(copied, "__pydantic_private__", template.__pydantic_private__)  # None: none of these has one
    return copied


def _object(obj: dict[str, Any], entry: Entry) -> Object:
    """The object ``obj`` of the document: its card's reading (or the stand-in's fields) validated
    once, its id and place put in. A card's keyword tags follow the board's own (``attacking``),
    as reading the card adds them (``_expand.read_object``); a stand-in's fields are the object's."""
    card = entry.name is not None

    def make() -> Object:
        given = {"card": entry.name, **entry.fields} if card else dict(entry.fields)
        return Object.model_validate({"id": _BLANK, **given})

    template = _template(("object", id(entry)), entry, make)
    update: dict[str, Any] = {"id": obj["id"]}
    for key in _PLACE:
        if key in obj:
            update[key] = obj[key]
    tags = obj.get("tags")
    if tags is not None:
        update["tags"] = (*tags, *(t for t in template.tags if t not in tags)) if card else tuple(tags)
    return _copy(template, update)  # type: ignore[no-any-return]


def _trigger(trig: dict[str, Any], entry: Entry, ability: Trig) -> Trigger:
    """The trigger ``trig`` of the document: the ability's fragment validated once per event
    player (its filters' ``event`` is that player, ``model/_event.py``), its id, source and source's
    controller put in."""
    event_player = trig.get("event_player")

    def make() -> Trigger:
        given = {"id": _BLANK, "source": _BLANK, **ability.fragment}
        if event_player is not None:
            given["event_player"] = event_player
        return Trigger.model_validate(given)

    template = _template(("trigger", id(entry), ability.index, event_player), entry, make)
    update = {"id": trig["id"], "source": trig["source"]}
    if "source_controller" in trig:
        update["source_controller"] = trig["source_controller"]
    return _copy(template, update)  # type: ignore[no-any-return]


def _reaction(obj_id: str, cost: str) -> Reaction:
    """The reaction of an object's ward (``_expand.ward_reaction``), validated once per cost."""
    template = _template(("ward", cost), cost, lambda: Reaction.model_validate(ward_reaction(_BLANK, cost)))
    fires = _copy(template.trigger, {"source": obj_id})
    return _copy(template, {"id": f"{obj_id}-ward", "object": obj_id, "trigger": fires})  # type: ignore[no-any-return]


def _player(pid: str) -> Player:
    return _template(("player", pid), pid, lambda: Player.model_validate({"id": pid}))  # type: ignore[no-any-return]


def scenario_of(drawn: Drawn) -> Scenario:
    """The scenario of a board the generator drew (see the module docstring): what
    ``Scenario.model_validate(drawn.document)`` gives, built from templates."""
    doc = drawn.document
    objects = tuple(_object(obj, piece.entry) for obj, piece in zip(doc["objects"], drawn.pieces, strict=True))
    triggers = tuple(
        _trigger(trig, piece.entry, ability)
        for trig, (piece, ability, _player_named) in zip(doc["triggers"], drawn.fired, strict=True)
    )
    # a ward is a permanent's (a card's read as it is expanded, a stand-in's written in the document)
    reactions = tuple(
        _reaction(obj["id"], piece.entry.ward)
        for obj, piece in zip(doc["objects"], drawn.pieces, strict=True)
        if piece.entry.ward is not None and "kind" not in obj
    )
    fields: dict[str, Any] = {"players": tuple(_player(p) for p in doc["players"]), "objects": objects}
    fields["triggers"] = triggers
    if reactions:
        fields["reactions"] = reactions
    scenario = Scenario.model_construct(**fields)
    scenario._controls = tuple(derive_controller(scenario, t, ("triggers", i)) for i, t in enumerate(triggers))
    return scenario
