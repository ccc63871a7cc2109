"""The refusal of a reader that does not understand an ability (docs/cards.md: never guessed)."""

from __future__ import annotations


class Unread(Exception):
    """A triggered ability whose text the reader does not understand: ``sentence`` is the part."""

    def __init__(self, reason: str, sentence: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.sentence = sentence
