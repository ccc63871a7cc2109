"""The one identifier rule (``model/_text.py`` ``printable_id``, docs/formats.md "Every id shows as
itself"): no two accepted ids print alike by an invisible or decomposed character. Every id field of
a scenario is held to it, a refusal names the code point (U+XXXX and its name) and its position, and
card names are looked up in any Unicode normal form.

Private unit: model/_text.printable_id, the one identifier rule, and parse_scenario's refusals by it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from triggerstack.model import ScenarioError
from triggerstack.model._scenario import parse_scenario
from triggerstack.model._text import printable_id

# Code points that print as nothing (or as another): the nine kinds the issue found, and more.
INVISIBLE = [
    "\u200b",  # ZERO WIDTH SPACE (Cf)
    "\u2060",  # WORD JOINER (Cf)
    "\u00ad",  # SOFT HYPHEN (Cf)
    "\ufeff",  # BOM (Cf)
    "\ufe0f",  # VARIATION SELECTOR-16 (Mn, default ignorable)
    "\U000e0101",  # VARIATION SELECTOR-18 (Mn)
    "\u034f",  # COMBINING GRAPHEME JOINER (Mn)
    "\u200d",  # ZERO WIDTH JOINER (Cf)
    "\u3164",  # HANGUL FILLER (Lo, default ignorable)
    "\u180e",  # MONGOLIAN VOWEL SEPARATOR (Cf)
    "\U000e0041",  # TAG LATIN CAPITAL LETTER A (Cf)
    "\u00a0",  # NO-BREAK SPACE (Zs): prints as a space
    "\u2028",  # LINE SEPARATOR (Zl)
    "\ue000",  # private use (Co)
]

_REFUSAL = re.compile(r"holds U\+([0-9A-F]{4,6}) (.+?) at character (\d+), ")


def _refused_at(value: str) -> tuple[int, int]:
    """The code point and 1-based position a refusal of ``value`` names."""
    with pytest.raises(ValueError, match="an id must show as itself") as info:
        printable_id(value)
    found = _REFUSAL.search(str(info.value))
    assert found is not None, str(info.value)
    return int(found.group(1), 16), int(found.group(3))


_ids = st.text(st.characters(codec="utf-8"), min_size=1, max_size=12)


@given(_ids, st.sampled_from(INVISIBLE), st.data())
def test_an_id_with_an_invisible_character_is_refused_naming_it(value: str, hidden: str, data: st.DataObject) -> None:
    """Whatever an accepted id is, the same id with an invisible character anywhere in it is
    refused, naming a code point it holds at that code point's position."""
    assume(_accepted(value))
    at = data.draw(st.integers(0, len(value)))
    marked = value[:at] + hidden + value[at:]
    cp, pos = _refused_at(marked)
    assert marked[pos - 1] == chr(cp)


@given(_ids)
def test_any_id_is_accepted_only_as_what_it_prints(value: str) -> None:
    """Across every category: an accepted id is in normal form C and holds no character of a
    refused category; a refused one names a code point at its own position."""
    if _accepted(value):
        assert unicodedata.is_normalized("NFC", value)
        cats = {unicodedata.category(c) for c in value}
        assert not cats & {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
        assert unicodedata.category(value[0])[0] != "M"
        decomposed = unicodedata.normalize("NFD", value)
        if decomposed != value:  # the same id decomposed prints alike: refused
            cp, pos = _refused_at(decomposed)
            assert decomposed[pos - 1] == chr(cp)
    else:
        with pytest.raises(ValueError) as info:
            printable_id(value)
        if " holds U+" in str(info.value):  # a code point that does not show, named at its place
            cp, pos = _refused_at(value)
            assert value[pos - 1] == chr(cp)
        else:  # every code point shows, the id as a whole does not: empty, a space at an end, two in a row
            assert not _shows_as_a_whole(value), str(info.value)


def _shows_as_a_whole(value: str) -> bool:
    return bool(value.strip(" ")) and value == value.strip(" ") and "  " not in value


def _accepted(value: str) -> bool:
    try:
        printable_id(value)
    except ValueError:
        return False
    return True


def _doc(where: str, bad: str) -> dict[str, Any]:
    players: list[Any] = ["A", "B"]
    objects: list[dict[str, Any]] = [{"id": "o", "controller": "A"}]
    trigger: dict[str, Any] = {"id": "T", "controller": "A", "targets": [{"id": "r", "filter": {"kind": "player"}}]}
    modal: dict[str, Any] = {
        "id": "M",
        "controller": "A",
        "modes": [{"id": "m1"}, {"id": "m2"}],
        "modal": {"choose": [1]},
    }
    if where == "players[1].id":
        players[1] = bad
    elif where == "objects[0].id":
        objects[0]["id"] = bad
    elif where == "triggers[0].id":
        trigger["id"] = bad
    elif where == "triggers[0].targets[0].id":
        trigger["targets"][0]["id"] = bad
    elif where == "triggers[1].modes[0].id":
        modal["modes"][0]["id"] = bad
    return {"players": players, "objects": objects, "triggers": [trigger, modal]}


PLACES = ["players[1].id", "objects[0].id", "triggers[0].id", "triggers[0].targets[0].id", "triggers[1].modes[0].id"]


@pytest.mark.parametrize("where", PLACES)
@pytest.mark.parametrize("bad", ["B\u200b", "Jo\u0308tun", "\u0301x", "x\ufe0e"], ids=["zwsp", "nfd", "mark", "vs15"])
def test_every_id_field_refuses_naming_its_place(where: str, bad: str) -> None:
    parse_scenario(_doc(where, "fine"))  # the document is valid with a plain id there
    with pytest.raises(ScenarioError) as info:
        parse_scenario(_doc(where, bad))
    line = info.value.one_line()
    assert line.startswith(where + ":") and "U+" in line and "at character" in line, line


def test_the_command_line_exits_2_naming_the_character(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(_doc("objects[0].id", "o\u2060")), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "count", str(path)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "U+2060 WORD JOINER at character 2" in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_a_card_name_is_found_in_any_normal_form() -> None:
    pytest.importorskip("triggerstack.model.cards")
    from triggerstack.model.cards import corpus

    try:
        cards = corpus()
    except Exception:
        pytest.skip("the extra [cards] is not installed")
    for name in ("Jötun Grunt", "Lim-Dûl the Necromancer", "Ghazbán Ogre"):
        for form in ("NFD", "NFKD", "NFC"):
            assert cards.lookup(unicodedata.normalize(form, name).upper()).name == name
