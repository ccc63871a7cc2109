"""Closed vocabularies of the scenario format read in any letter case (docs/formats.md, Scenario)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic_core import PydanticCustomError

from ._problems import suggest


def word(vocabulary: tuple[str, ...], what: str, aliases: dict[str, str] | None = None) -> Callable[[Any], Any]:
    """A closed vocabulary in any letter case, canonicalised to lower case (an old name to its
    current one); an unknown word is an error that suggests the nearest known one."""
    aliases = aliases or {}
    known = (*vocabulary, *aliases)

    def canonical(value: Any) -> Any:
        if not isinstance(value, str):
            return value  # the Literal reports the wrong type
        word = value.lower()
        if word in vocabulary:
            return word
        if word in aliases:
            return aliases[word]
        near = suggest(word, known)
        hint = f"did you mean {near!r}?" if near else f"expected one of {', '.join(vocabulary)}"
        raise PydanticCustomError(
            "vocabulary", "unknown {what} {value}: {hint}", {"what": what, "value": repr(value), "hint": hint}
        )

    return canonical
