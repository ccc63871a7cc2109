"""A card's name, typed in any letter case and any normal form, is found by every door that reads
one: the card index's lookup (a scenario's ``card:``, ``card``, ``/v1/card``, ``/page/board``), the
page's suggestions (``/page/cards``) and its "did you mean". docs/formats.md: card names "are looked
up in any letter case and any normal form"; docs/server.md: ``/page/cards`` answers names beginning
with what was typed, "any letter case and any normal form". The page's suggestions folded case but
not normal form (helper-62e: ``Jo`` + U+0308 + ``tun Grunt`` suggested "did you mean Jötun Grunt"),
and a board named on the page took its object ids from the name as typed (``Arwen Undo`` + U+0301
+ ``miel`` was the object ``miel``). Every question of the index now asks by one key,
``model/cards/_corpus.py`` ``key_of``; the names and forms here are drawn, not listed.

Private unit: model/cards/_corpus.py (``key_of``), with the pool's ``placed`` and the page's board
(solver/_boards/_named.py), asked directly for the cards it can place.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any, Literal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("triggerstack.model.cards")
try:
    from triggerstack.model.cards import corpus

    INDEX = corpus()
except Exception:  # the extra [cards] (its Oracle data) is not installed
    pytest.skip("the extra [cards] is not installed", allow_module_level=True)

from triggerstack.model.cards._corpus import key_of
from triggerstack.model.cards._pool import placed
from triggerstack.solver._boards._named import NamedBoard, named_board

NAMES = INDEX.names()
ACCENTED = [n for n in NAMES if any(ord(c) > 127 for c in n)]
PLACED_ACCENTED = [n for n in ACCENTED if " // " not in n and not isinstance(placed(INDEX.lookup(n)), str)]

CASES: list[Callable[[str], str]] = [str.upper, str.lower, str.casefold, str.swapcase, str.title, lambda s: s]
Form = Literal["NFC", "NFD", "NFKC", "NFKD"]
FORMS: tuple[Form, ...] = ("NFC", "NFD", "NFKC", "NFKD")


def _retyped(name: str, case: int, form: Form) -> str:
    """``name`` in another letter case, then another normal form (as a keyboard or a copy gives it)."""
    return unicodedata.normalize(form, CASES[case](name))


names = st.one_of(st.sampled_from(ACCENTED), st.sampled_from(NAMES))
retyped = st.tuples(names, st.integers(0, len(CASES) - 1), st.sampled_from(FORMS))


@pytest.fixture(scope="module")
def http() -> Any:
    pytest.importorskip("fastapi")
    from .test_attacks_60f import _http  # the server's app through a test client

    return _http()


@settings(max_examples=300, deadline=None)
@given(drawn=retyped)
def test_a_name_in_any_case_and_normal_form_is_the_same_card_at_the_index(drawn: tuple[str, int, Form]) -> None:
    name, case, form = drawn
    typed = _retyped(name, case, form)
    assert key_of(typed) == key_of(name), (name, typed)
    assert INDEX.lookup(typed).name == INDEX.lookup(name).name
    found, near = INDEX.suggestions(typed, 10)
    assert name in found and near is None, (typed, found, near)
    short = name[: max(1, len(name) // 2)]  # what a judge has typed so far
    found, _ = INDEX.suggestions(_retyped(short, case, form), 10)
    assert found and all(key_of(short) in key_of(n) for n in found), (short, found)


@settings(max_examples=40, deadline=None)
@given(drawn=retyped)
def test_the_page_and_the_card_verb_find_a_name_in_any_form(http: Any, drawn: tuple[str, int, Form]) -> None:
    name, case, form = drawn
    typed = _retyped(name, case, form)
    suggested = http.get("/page/cards", params={"q": typed}).json()
    assert name in suggested["names"] and suggested["near"] is None, (typed, suggested)
    card = http.post("/v1/card", json={"name": typed})
    assert card.status_code == 200 and card.json()["name"] == INDEX.lookup(name).name, card.text


@settings(max_examples=60, deadline=None)
@given(drawn=st.tuples(st.sampled_from(PLACED_ACCENTED), st.integers(0, len(CASES) - 1), st.sampled_from(FORMS)))
def test_a_board_named_in_any_form_is_the_same_board(drawn: tuple[str, int, Form]) -> None:
    """The page's board from names: the same document — object ids, cards, triggers — however the
    name was typed (its ids come from the card found, not from the text typed)."""
    name, case, form = drawn

    def board(card: str) -> Any:
        return named_board(NamedBoard.model_validate({"cards": [{"card": card}, {"card": "Grizzly Bears"}]}))[0]

    assert board(_retyped(name, case, form)) == board(name)


def test_a_near_miss_is_suggested_in_any_form() -> None:
    """A "did you mean" compares keys too: a misspelt name typed decomposed or shouted is still near."""
    for typed in ("JO\u0308TUN GRUNK", "jo\u0308tun grunk", unicodedata.normalize("NFD", "Jötun Grunk")):
        assert INDEX.suggestions(typed, 10) == ([], "Jötun Grunt"), typed
        with pytest.raises(Exception, match="did you mean 'Jötun Grunt'"):
            INDEX.lookup(typed)
