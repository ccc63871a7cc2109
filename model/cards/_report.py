"""What ``triggerstack card NAME`` prints: a card's Oracle text, its object fragment, and each
triggered ability read or refused."""

from __future__ import annotations

from typing import Any

from ._board import is_template, needs
from ._corpus import corpus
from ._expand import characteristics, ward_of, ward_reaction
from ._reader import read


def card_report(name: str) -> dict[str, Any]:
    """What the tool reads of the card ``name``: its Oracle text, the object fragment, the reactions
    a scenario's object naming it gets (ward, 702.21a; ``<id>`` stands for the object's id), and each
    triggered ability as a trigger fragment, a template with what the board must state to complete it,
    or what could not be read and why (``triggerstack card``)."""
    card = corpus().lookup(name)
    fields, notes = characteristics(card)
    abilities = []
    for a in read(card):
        entry: dict[str, Any] = {"index": a.index, "text": a.text}
        if a.fragment is not None and is_template(a.fragment):  # what the board must state (model/cards/_board.py)
            entry["template"] = a.fragment
            entry["board"] = needs(a.fragment)
        elif a.fragment is not None:
            entry["trigger"] = a.fragment
        else:
            assert a.unread is not None
            entry["unread"] = {"reason": a.unread.reason, "sentence": a.unread.sentence}
        if a.notes:
            entry["notes"] = a.notes
        abilities.append(entry)
    cost = ward_of(card)  # a scenario's object with an id, a permanent, gets this reaction (its id for <id>)
    reactions = [ward_reaction("<id>", cost)] if cost is not None else []
    return {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "oracle_text": card.text,
        "object": {"card": card.name, **fields},
        "notes": [note for _, note in notes],
        "reactions": reactions,
        "triggered_abilities": abilities,
    }
