"""Cards by name (docs/cards.md): the Oracle data of every card, offline (the extra ``[cards]``),
read for what 603.3 needs — a card's characteristics and the keywords that bear on targeting, and
each triggered ability's modes, targets and divided amounts in the scenario format."""

from __future__ import annotations

from typing import Any

from .corpus import Card, corpus
from .expand import characteristics, expand, names_cards
from .reader import Ability, Unread, read

__all__ = ["Ability", "Card", "Unread", "card_report", "characteristics", "corpus", "expand", "names_cards", "read"]


def card_report(name: str) -> dict[str, Any]:
    """What the tool reads of the card ``name``: its Oracle text, the object fragment, and each
    triggered ability as a trigger fragment or what could not be read and why (``triggerstack card``)."""
    card = corpus().lookup(name)
    fields, notes = characteristics(card)
    abilities = []
    for a in read(card):
        entry: dict[str, Any] = {"index": a.index, "text": a.text}
        if a.fragment is not None:
            entry["trigger"] = a.fragment
        else:
            assert a.unread is not None
            entry["unread"] = {"reason": a.unread.reason, "sentence": a.unread.sentence}
        if a.notes:
            entry["notes"] = a.notes
        abilities.append(entry)
    return {
        "name": card.name,
        "mana_cost": card.mana_cost,
        "type_line": card.type_line,
        "oracle_text": card.text,
        "object": {"card": card.name, **fields},
        "notes": [note for _, note in notes],
        "triggered_abilities": abilities,
    }
