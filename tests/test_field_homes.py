"""A field of the scenario format has homes beyond its model, and none is left behind silently
(issue 55; docs/architecture.md, "How to add a field"): each field of ``Object``, ``Player`` and
``Filter`` is read — its name appears — in every home its class has, or the home is listed below as
not reading it, with the reason. A field added to a model fails here until each home is decided;
a reason that stops being true (the home reads the field now) fails too.

Private unit: model/_shapes (Object, Player, Filter), whose fields' homes are checked.
"""

from __future__ import annotations

import re

import pytest
from pydantic import BaseModel
from triggerstack.model._shapes import Filter, Object, Player

from .conftest import ROOT

HOMES: dict[str, dict[str, str]] = {
    "Object": {
        "card reader": "model/cards/_expand.py",  # a card's characteristics written into the object
        "phase adapter": "adapters/phase/_objects.py",  # phase's objects read as ours
        "python engine": "clients/python/engine.py",  # the engine written from the docs alone
        "formats": "docs/formats.md",  # the reference (fields.md is generated from the schema)
        "rl observation": "solver/rl/_observation.py",  # what an agent sees of a thing
    },
    "Player": {
        "phase adapter": "adapters/phase/_objects.py",
        "python engine": "clients/python/engine.py",
        "formats": "docs/formats.md",
        "rl observation": "solver/rl/_observation.py",
    },
    "Filter": {
        "card phrase reader": "model/cards/_phrase.py",  # a card's target words as a filter
        "phase adapter": "adapters/phase/_abilities.py",  # phase's target filters as ours
        "python engine": "clients/python/engine.py",
        "formats": "docs/formats.md",
        "filters": "model/_filters.py",  # where a filter is decided
    },
}

_BOARD = "where an object is and who has it are the board's, not the card's"
_FACTS = (
    "the observation encodes what a characteristic decides — each requirement's candidates, "
    "compiled from the filters — not the characteristic itself (docs/rl.md)"
)
_PHASE_GAP = "a phase filter property the adapter does not know is a gap naming its place, never guessed (docs/phase.md)"
_REFUSED_WORDS = "no target phrase the reader reads names it: a card whose phrase does is refused, naming its words (docs/cards.md)"

NOT_READ: dict[tuple[str, str, str], str] = {
    ("Object", "cant_be_targeted_by", "card reader"): (
        "a card saying \"can't be the target\" is left out of the card pool and refused (model/cards/_pool.py); "
        "a scenario gives the restriction by hand"
    ),
    ("Object", "cant_be_targeted_by", "phase adapter"): _PHASE_GAP,
    ("Object", "zone", "card reader"): _BOARD,
    ("Object", "owner", "card reader"): _BOARD,
    ("Object", "ability_kind", "card reader"): "an ability on the stack is no card",
    ("Object", "text", "python engine"): "a label, shown in messages and never a rule input (docs/formats.md)",
    ("Object", "text", "rl observation"): "a label, shown in messages and never a rule input (docs/formats.md)",
    **{("Object", f, "rl observation"): _FACTS for f in ("types", "subtypes", "supertypes", "colors", "power",
                                                         "toughness", "mana_value", "counters", "tags", "ability_kind")},
    ("Player", "cant_be_targeted_by", "phase adapter"): (
        "phase exports no player's restriction; a static that may give one is a gap naming it (docs/phase.md)"
    ),
    ("Filter", "mana_value", "card phrase reader"): _REFUSED_WORDS,
    ("Filter", "counter", "phase adapter"): _PHASE_GAP,
    ("Filter", "ability_kind", "phase adapter"): _PHASE_GAP,
}  # fmt: skip

MODELS: dict[str, type[BaseModel]] = {"Object": Object, "Player": Player, "Filter": Filter}


def _fields(model: type[BaseModel]) -> list[str]:
    return [info.alias or name for name, info in model.model_fields.items()]


def _reads(home: str, field: str) -> bool:
    return re.search(rf"\b{re.escape(field)}\b", (ROOT / home).read_text(encoding="utf-8")) is not None


@pytest.mark.parametrize("model", list(MODELS))
def test_every_field_is_read_in_each_home_or_said_why_not(model: str) -> None:
    left = [
        f"{model}.{field}: {what} ({path})"
        for field in _fields(MODELS[model])
        for what, path in HOMES[model].items()
        if not _reads(path, field) and (model, field, what) not in NOT_READ
    ]
    assert not left, "a field's home left behind — read it there, or say why not in NOT_READ:\n" + "\n".join(left)


def test_every_reason_is_still_true() -> None:
    stale = [key for key in NOT_READ if _reads(HOMES[key[0]][key[2]], key[1]) or key[1] not in _fields(MODELS[key[0]])]
    assert not stale, f"listed as not read, but read now (or no such field): {stale}"


def test_the_guide_names_every_home() -> None:
    guide = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split("## How to add a field", 1)[1]
    guide = guide.split("\n## ", 1)[0]
    missing = sorted({path for homes in HOMES.values() for path in homes.values() if path not in guide})
    assert not missing, f"docs/architecture.md, 'How to add a field', does not name {missing}"
