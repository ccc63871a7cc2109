"""``count``: how many legal outcomes there are, and with ``divide`` the count under each first
stack entry (:meth:`~.legal.LegalOutcomes.counted`, :meth:`~.legal.LegalOutcomes.divide`). Its one
answer, :class:`CountResult`, is what the Python API's ``counted`` gives too (as ``Counted``)."""

from __future__ import annotations

from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field
from triggerstack.model._numbers import int_text
from triggerstack.model._text import compact, shown_lines

from .base import Params, Result


class Count(Params):
    """How many legal outcomes there are."""

    divide: bool = Field(
        False,
        description="Also the count under each first stack entry (the bottom one, with its choices), as a "
        "perft divide prints the count under each first move; they sum to the count",
    )


class Divided(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    first: dict[str, Any] | None = Field(description="The bottom stack entry, canonical; null: nothing is put")
    count: int = Field(description="The legal outcomes with that bottom entry")


class CountResult(Result):
    # The count, and (not published) the engine that made it (of the first pass) and how
    # (``product``, ``product+search``…; across passes, how the passes were followed too).
    # (No docstring: the published schema of the answer has no description.)

    count: int = Field(description="The exact number of legal outcomes (any size)")
    divide: list[Divided] | None = Field(None, description="With divide: the count under each first entry")
    engine: str | None = Field(None, exclude=True)
    path: str | None = Field(None, exclude=True)

    def to_json(self) -> Any:
        out: dict[str, Any] = {"count": self.count}
        if self.divide is not None:  # "first": null (nothing on the stack) is said, not left out
            out["divide"] = [{"first": d.first, "count": d.count} for d in self.divide]
        return out

    def cli_json(self) -> Any:
        return {**self.to_json(), "engine": self.engine, "path": self.path}

    def text(self) -> str:
        if self.divide is None:
            return int_text(self.count)
        lines = [
            f"{'(nothing on the stack)' if d.first is None else compact(d.first)}: {int_text(d.count)}"
            for d in self.divide
        ]
        return shown_lines([*lines, "", int_text(self.count)])


Counted = CountResult
"""The Python API's name of the answer (``triggerstack.solver.Counted``, what
:meth:`~.legal.LegalOutcomes.counted` gives); published as ``CountResult``."""


class _Counts(Protocol):
    """What ``answer`` asks of a :class:`~.legal.LegalOutcomes` (named so, not imported: legal imports
    this module for :class:`Counted`)."""

    def counted(self) -> CountResult: ...

    def divide(self) -> list[tuple[dict[str, Any] | None, int]]: ...


def answer(legal: _Counts, p: Count) -> CountResult:
    found = legal.counted()
    divide = [Divided(first=first, count=n) for first, n in legal.divide()] if p.divide else None
    return CountResult(count=found.count, divide=divide, engine=found.engine, path=found.path)
