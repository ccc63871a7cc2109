"""What every verb's module shares: the bases of its parameters and its result, and how a parameter
that is a whole document (an outcome, a score) is declared and read.

A verb's parameters are what it takes besides the scenario; each surface adds how the scenario is
named (a file, ``handle`` or ``scenario``) and the options (``engine``, ``time_limit``). Results are
frozen and know their JSON (what a server answers, ``--json``) and their text (what the command
line prints). The verbs themselves are listed in ``table.py``; :class:`Steps`, the decisions of a
walk so far, is the base of the ``step.*`` verbs' parameters and of ``draw``'s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, StrictStr
from triggerstack.model._errors import ScenarioError
from triggerstack.model._numbers import Whole
from triggerstack.model._scenario import Built
from triggerstack.model._text import compact

MAX_PAGE = 10_000
"""The most outcomes one ``enumerate`` or ``sample`` answer carries (a server's page)."""


class Params(BaseModel):
    """A verb's parameters, and every method's params on the servers: frozen, unknown fields refused,
    and strict — a value is the JSON type its field says (``"5"`` is no number of seconds, ``1`` and
    ``"false"`` are no booleans), as the wire's whole numbers already were (``model/_numbers.py``).
    Each field's description is its help on every surface; a class may publish under another name
    than its own (its ``title``)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, strict=True)


class Steps(Params):
    """A walk, decision by decision: the decisions so far (ids or readable forms)."""

    decisions: list[Whole | StrictStr] = Field(default_factory=list, description="The decisions taken so far, in order")


class Result(Built, BaseModel):
    """A verb's answer: frozen; :meth:`to_json` is what a server answers, :meth:`text` what the command
    line prints, :meth:`cli_json` what ``--json`` prints. Built by a program (``Counted(count="x")``),
    its problems are a :class:`ScenarioError` naming each place, as a document's are."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, strict=True)

    def to_json(self) -> Any:
        return self.model_dump(mode="json", exclude_none=True)

    def cli_json(self) -> Any:
        return self.to_json()

    def text(self) -> str:
        return compact(self.to_json())

    def picture(self) -> str | None:
        """Its SVG picture (``--format svg``), where it has one."""
        return None

    def exit_code(self) -> int:
        """The command line's exit code when it is the answer: 0, or 1 for an illegal proposal, or
        3 for an optimum the time limit kept from being proven."""
        return 0


def canonical(value: Any) -> Any:
    """``value`` with every mapping's keys in sorted order (a server's answers are then written as
    the command line prints them)."""
    if isinstance(value, dict):
        return {k: canonical(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [canonical(v) for v in value]
    return value


def document(kind: str, description: str, option: bool = False) -> Any:
    """A parameter that is a whole document (``kind``: outcome, score): a file on the command line,
    positional (``PROPOSAL``) or, with ``option``, a required option (``--score FILE``)."""
    return Field(description=description, json_schema_extra={"document": kind, "option": option})


T = TypeVar("T")


def within(param: str, parse: Callable[[Any], T], doc: Any) -> T:
    """``parse(doc)``, a bad document's place named from the parameter ``param`` (a document the
    command line has read already is taken as it is)."""
    from triggerstack.model._outcome import Outcome, Score  # here: ``card`` reads no document, and starts quickly

    if isinstance(doc, Outcome | Score):
        return doc  # type: ignore[return-value]
    try:
        return parse(doc)
    except ScenarioError as exc:
        raise exc.within(param) from None
