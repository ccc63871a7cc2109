"""Values a model derives from its fields and keeps in private attributes, forgotten by a copy with
changes.

pydantic's ``model_copy(update=...)`` copies private attributes as they were: a renamed copy of an
entry hashed before was equal to the original, a copied explanation read as a mapping said the
original's count, a copied filter gave the original's keys. Each such model names what it derives
in ``_DERIVED``; a copy with changes derives them again (:meth:`Derived._derive_again`: by default
each is set to None, and the model computes it again where it reads it) (tests/test_outcome.py,
tests/property/test_explain.py). A scenario is read again whole instead (``Scenario.model_copy``):
what it derives is checked as it is derived.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self

from pydantic import BaseModel


class Derived(BaseModel):
    """A model whose private attributes named in ``_DERIVED`` are derived from its fields (None:
    not derived yet)."""

    _DERIVED: ClassVar[tuple[str, ...]] = ()

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy; with ``update``, what it derived is derived again."""
        copied = super().model_copy(update=update, deep=deep)
        if update:
            copied._derive_again()
        return copied

    def _derive_again(self) -> None:
        """Forget what was derived (None), to be computed again where it is read."""
        private = self.__pydantic_private__
        if private is not None:  # pydantic's copy holds a dict of its own
            for name in self._DERIVED:
                private[name] = None
