"""The scenario (docs/formats.md, Scenario): :class:`Scenario`, ``Scenario.load`` and one-line validation errors.

The shapes live in :mod:`.shapes`; a :class:`Scenario` adds the cross-reference checks (ids,
sources, ``different_from``, ``target_of``, ``must_target``, reactions, and controllers that agree
with 603.3a), run once the shapes are valid. Each error names its place
(``triggers[3].modes[1].targets[0].filter.type``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from pydantic import PrivateAttr, ValidationError, ValidationInfo, model_validator

from .controllers import Control
from .errors import ScenarioError
from .io import load_document
from .limits import DEFAULT_LIMITS, Limits
from .references import check_references
from .rules import Rule
from .shapes import ScenarioFields, model_names

__all__ = ["Scenario", "parse_scenario", "validation_error"]


class Scenario(ScenarioFields):
    """Players in turn order (the active player first), objects, and the waiting abilities."""

    _controls: tuple[Control, ...] = PrivateAttr(default=())  # 603.3a, derived once while validating
    _facts: Any = PrivateAttr(default=None)  # compiled once by ``facts.facts_of``

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Self:
        later = bool(info.context and info.context.get("later_pass"))
        self._controls = check_references(self, allow_fired=later)
        return self

    @property
    def controls(self) -> tuple[Control, ...]:
        """Each waiting ability's controller and the rule that decided it (603.3a), in trigger order."""
        return self._controls

    @classmethod
    def load(cls, path: str, limits: Limits = DEFAULT_LIMITS) -> Scenario:
        """Read a scenario from a ``.json``/``.yaml``/``.yml`` file, or ``-`` for standard input,
        within ``limits`` (bytes, nesting, numbers of abilities and objects, ...).

        Raises :class:`ScenarioError` naming the file and the place.
        """
        return parse_scenario(load_document(path, limits), source=path, limits=limits)


def parse_scenario(data: Any, source: str | None = None, limits: Limits | None = None) -> Scenario:
    """Validate a loaded document into a :class:`Scenario`, or raise :class:`ScenarioError`.
    With ``limits``, the numbers of abilities and objects are measured before anything else."""
    try:
        if limits is not None:
            limits.check_document(data)
        return Scenario.model_validate(data)
    except ScenarioError as exc:
        raise exc.located(source) if source else exc from None
    except ValidationError as exc:
        raise validation_error(exc, source) from None


_UNION_TAG_PREFIXES = ("function-", "literal[", "list[", "tuple[", "dict[", "union[", "json-or-python")
_UNION_TAGS = frozenset({"str", "int", "bool", "float", "dict", "list", "tuple", "none", "is-instance"})


def _is_union_tag(part: str | int, names: frozenset[str]) -> bool:
    return isinstance(part, str) and (part in _UNION_TAGS or part in names or part.startswith(_UNION_TAG_PREFIXES))


def validation_error(exc: ValidationError, source: str | None = None) -> ScenarioError:
    """The most useful of pydantic's errors as one :class:`ScenarioError`.

    Union branch tags are dropped from the place; among several errors the deepest place wins
    (it is the one the author got wrong, not the branch pydantic tried last).
    """
    names = model_names()
    best: tuple[tuple[str | int, ...], str, str | None] | None = None
    for err in exc.errors():
        ctx: Mapping[str, Any] = err.get("ctx") or {}
        loc = tuple(p for p in err["loc"] if not _is_union_tag(p, names))
        rule = None
        if err["type"] == "reference":
            loc = tuple(loc) + tuple(ctx["loc"])
            rule = ctx.get("rule")
        message = err["msg"]
        if message.startswith("Value error, "):
            message = message[len("Value error, ") :]
        if err["type"] == "extra_forbidden":
            message = f"unknown field {loc[-1]!r}" if loc else "unknown field"
        elif err["type"] == "missing":
            message = f"missing field {loc[-1]!r}" if loc else "missing field"
        if best is None or len(loc) > len(best[0]):
            best = (loc, message, rule)
    assert best is not None
    loc, message, rule = best
    return ScenarioError(message, loc, rule=Rule(rule) if rule else None, source=source)
