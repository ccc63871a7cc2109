"""The scenario: the wire types of SPEC §4, and ``Scenario.load``.

Every model is frozen and forbids unknown fields. Values that SPEC lets be "a value or a list"
are normalised to tuples before validation, so an error names the field and not a union branch.
Cross-references (ids, sources, ``different_from``, ``target_of``, ``must_target``, reactions)
are checked once the shapes are valid; each error names its place
(``triggers[3].modes[1].targets[0].filter.type``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Annotated, Any, Literal, Self, Union

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    ValidationError,
    ValidationInfo,
    model_validator,
)
from pydantic_core import PydanticCustomError

from .errors import ScenarioError
from .io import load_document
from .rules import Rule
from .types import AbilityId, ObjectId, PlayerId, RequirementId

__all__ = [
    "Comparison",
    "Delayed",
    "Filter",
    "Modal",
    "Mode",
    "MustTarget",
    "Object",
    "Player",
    "Reaction",
    "Requirement",
    "Scenario",
    "SourceRestriction",
    "TargetOf",
    "Trigger",
    "TriggerBody",
    "parse_scenario",
    "validation_error",
]


def _as_tuple(value: Any) -> Any:
    """A single string where a list is allowed becomes a one-element list."""
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)):
        raise PydanticCustomError(
            "value_or_list",
            "expected a string or a list of strings, got {got}",
            {"got": type(value).__name__},
        )
    return value


def _player_as_object(value: Any) -> Any:
    return {"id": value} if isinstance(value, str) else value


ANY_TARGET = "any-target"


def _expand_any_target(value: Any) -> Any:
    """``"any-target"`` is a creature, player, planeswalker or battle (115.4)."""
    if value == ANY_TARGET:
        return {"any": [{"kind": "player"}, {"type": ["creature", "planeswalker", "battle"]}]}
    return value


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Kind = Literal["permanent", "card", "spell", "ability", "emblem", "player"]
ObjectKind = Literal["permanent", "card", "spell", "ability", "emblem"]
Zone = Literal["battlefield", "graveyard", "exile", "hand", "library", "stack", "command"]
Strs = Annotated[tuple[str, ...], BeforeValidator(_as_tuple, json_schema_input_type=str | list[str])]


class Comparison(_Frozen):
    """``{"lte": 2}``, ``{"gte": 3}``, ``{"eq": 1}``; several keys all apply."""

    lte: StrictInt | None = None
    gte: StrictInt | None = None
    eq: StrictInt | None = None

    @model_validator(mode="after")
    def _one_key(self) -> Self:
        if self.lte is None and self.gte is None and self.eq is None:
            raise ValueError("a comparison needs lte, gte or eq")
        return self


class TargetOf(_Frozen):
    """Whoever or whatever was chosen for requirement ``target_of`` of the same mode."""

    target_of: RequirementId


PlayerRef = Annotated[str | TargetOf, Field(union_mode="left_to_right")]
FilterField = Annotated[
    "Filter",
    BeforeValidator(_expand_any_target, json_schema_input_type=Union[Literal["any-target"], "Filter"]),
]


class Filter(_Frozen):
    """A conjunctive description of what may be chosen (SPEC §4).

    Without ``kind`` it matches permanents only (115.2), or cards when it names a ``zone`` other
    than the battlefield.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    kind: Annotated[tuple[Kind, ...], BeforeValidator(_as_tuple, json_schema_input_type=Kind | list[Kind])] | None = (
        None
    )
    type: Strs | None = None
    subtype: Strs | None = None
    supertype: Strs | None = None
    color: Strs | None = None
    colorless: StrictBool | None = None
    zone: Annotated[tuple[Zone, ...], BeforeValidator(_as_tuple, json_schema_input_type=Zone | list[Zone])] | None = (
        None
    )
    tag: Strs | None = None
    id: Strs | None = None
    controller: PlayerRef | None = None
    owner: PlayerRef | None = None
    power: Comparison | None = None
    toughness: Comparison | None = None
    mana_value: Comparison | None = None
    counter: str | None = None
    ability_kind: Literal["triggered", "activated"] | None = None
    not_: FilterField | None = Field(default=None, alias="not")
    any: tuple[FilterField, ...] | None = None
    all: tuple[FilterField, ...] | None = None

    def iter_target_of(self) -> Iterator[tuple[str, str]]:
        """Each ``(key, requirement id)`` this filter refers to through ``target_of``."""
        for key in ("controller", "owner"):
            ref = getattr(self, key)
            if isinstance(ref, TargetOf):
                yield key, ref.target_of
        for sub in self.iter_children():
            yield from sub.iter_target_of()

    def iter_children(self) -> Iterator[Filter]:
        if self.not_ is not None:
            yield self.not_
        yield from self.any or ()
        yield from self.all or ()


class SourceRestriction(_Frozen):
    """``cant_be_targeted_by`` entry: sources matching ``source`` whose controller is ``controller``
    (relative to the protected object's controller) can't target it."""

    source: FilterField = Field(default_factory=Filter)
    controller: Literal["you", "opponent", "any"] = "any"


class _Targetable(_Frozen):
    hexproof: StrictBool = False
    shroud: StrictBool = False
    protection: tuple[FilterField, ...] = ()
    hexproof_from: tuple[FilterField, ...] = ()
    cant_be_targeted_by: tuple[SourceRestriction, ...] = ()


class Player(_Targetable):
    """A player; in the scenario either a bare id or this object."""

    id: PlayerId
    left_game: StrictBool = False


class Object(_Targetable):
    """Anything other than a player that can be a target or a source."""

    id: ObjectId
    kind: ObjectKind = "permanent"
    zone: Zone | None = None
    controller: PlayerId | None = None
    owner: PlayerId | None = None
    types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    colors: tuple[str, ...] = ()
    power: StrictInt | None = None
    toughness: StrictInt | None = None
    mana_value: StrictInt | None = None
    counters: dict[str, StrictInt] = Field(default_factory=dict)
    tags: tuple[str, ...] = ()
    ability_kind: Literal["triggered", "activated"] | None = None
    text: str = ""

    @property
    def where(self) -> Zone:
        """The zone, with the default of its kind."""
        if self.zone is not None:
            return self.zone
        return {
            "permanent": "battlefield",
            "spell": "stack",
            "ability": "stack",
            "emblem": "command",
            "card": "graveyard",
        }[self.kind]  # type: ignore[return-value]

    @property
    def has_controller(self) -> bool:
        """Only objects on the battlefield or the stack, and emblems, have a controller (108.4)."""
        return self.where in ("battlefield", "stack", "command")

    @property
    def effective_controller(self) -> PlayerId | None:
        if not self.has_controller:
            return None
        return self.controller if self.controller is not None else self.owner

    @property
    def effective_owner(self) -> PlayerId | None:
        return self.owner if self.owner is not None else self.controller


class Requirement(_Frozen):
    """One instance of the word "target" (601.2c)."""

    id: RequirementId
    text: str = ""
    min: StrictInt = Field(default=1, ge=0)
    max: StrictInt | None = Field(default=1, ge=0)
    filter: FilterField
    other_than_source: StrictBool = False
    different_from: tuple[RequirementId, ...] = ()
    divide: StrictInt | None = Field(default=None, ge=1)

    @model_validator(mode="after")
    def _bounds(self) -> Self:
        if self.max is not None and self.min > self.max:
            raise PydanticCustomError("bounds", "min {min} is more than max {max}", {"min": self.min, "max": self.max})
        if self.divide is not None and self.min > self.divide:
            raise PydanticCustomError(
                "bounds",
                "min {min} targets can't each get at least 1 of {amount} (601.2d)",
                {"min": self.min, "amount": self.divide},
            )
        return self


class Mode(_Frozen):
    """One mode of a modal ability (700.2)."""

    id: str
    text: str = ""
    targets: tuple[Requirement, ...] = ()
    available: StrictBool = True


class Modal(_Frozen):
    """How many modes may be chosen: ``choose`` lists the allowed numbers."""

    choose: tuple[Annotated[StrictInt, Field(ge=0)], ...] = Field(min_length=1)
    repeat: StrictBool = False
    distinct_targets: StrictBool = False


class Delayed(_Frozen):
    """A delayed triggered ability and who controlled what created it (603.7d–g)."""

    by: Literal["spell", "ability", "replacement", "static-action"]
    controller: PlayerId


class TriggerBody(_Frozen):
    """A waiting triggered ability without its id (the shape a reaction fires)."""

    text: str = ""
    source: ObjectId | None = None
    controller: PlayerId | None = None
    source_controller: PlayerId | None = None
    delayed: Delayed | None = None
    condition: Literal["event", "ability-triggered"] = "event"
    targets: tuple[Requirement, ...] = ()
    modal: Modal | None = None
    modes: tuple[Mode, ...] = ()
    chooser: PlayerId | None = None
    illegal: str | None = None

    @model_validator(mode="after")
    def _modal_shape(self) -> Self:
        if self.modal is None and self.modes:
            raise PydanticCustomError("modal", "modes are given but modal is missing", {})
        if self.modal is not None and not self.modes:
            raise PydanticCustomError("modal", "modal needs a list of modes", {})
        if self.modal is not None and self.targets:
            raise PydanticCustomError("modal", "a modal ability's targets go under its modes", {})
        if self.modal is not None and not self.modal.repeat and max(self.modal.choose) > len(self.modes):
            raise PydanticCustomError(
                "modal",
                "choose allows {n} modes but there are only {m} and repeat is false (700.2d)",
                {"n": max(self.modal.choose), "m": len(self.modes)},
            )
        if self.source is None and self.controller is None and self.delayed is None:
            raise PydanticCustomError("controller", "an ability without a source must name its controller (603.3a)", {})
        return self

    def requirement_lists(self) -> Iterator[tuple[tuple[str | int, ...], tuple[Requirement, ...]]]:
        """Each list of requirements with its place: the ability's own, or each mode's."""
        if self.modal is None:
            yield ("targets",), self.targets
        else:
            for i, mode in enumerate(self.modes):
                yield ("modes", i, "targets"), mode.targets


class Trigger(TriggerBody):
    """A waiting triggered ability."""

    id: AbilityId


class MustTarget(_Frozen):
    """ "... must target X if able" (601.2c): applies to the listed abilities, or those whose
    source matches the filter (relative words judged from the controller of ``object``)."""

    object: str
    applies_to: (
        Annotated[tuple[AbilityId, ...], BeforeValidator(_as_tuple, json_schema_input_type=str | list[str])]
        | FilterField
    ) = Field(union_mode="left_to_right")


class Reaction(_Frozen):
    """An ability that triggers when ``object`` becomes the target of a placed ability (603.3b loop)."""

    id: str
    when: Literal["becomes-target"] = "becomes-target"
    object: str
    by: Literal["opponent", "you", "any"] = "opponent"
    trigger: TriggerBody


class Scenario(_Frozen):
    """Players in turn order (the active player first), objects, and the waiting abilities."""

    rules: Literal["seed", "cr-1p", "2hg"] = "seed"
    players: tuple[Annotated[Player, BeforeValidator(_player_as_object, json_schema_input_type=str | Player)], ...] = (
        Field(min_length=1)
    )
    teams: tuple[tuple[PlayerId, ...], ...] | None = None
    objects: tuple[Object, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    must_target: tuple[MustTarget, ...] = ()
    reactions: tuple[Reaction, ...] = ()
    _facts: Any = PrivateAttr(default=None)  # compiled once by ``facts.facts_of``

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Self:
        from .references import check_references

        check_references(self, allow_fired=bool(info.context and info.context.get("later_pass")))
        return self

    @classmethod
    def load(cls, path: str) -> Scenario:
        """Read a scenario from a ``.json``/``.yaml``/``.yml`` file, or ``-`` for standard input.

        Raises :class:`ScenarioError` naming the file and the place.
        """
        return parse_scenario(load_document(path), source=path)

    # Lookups used by the rules modules.
    def player(self, pid: str) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)

    def object(self, oid: str) -> Object | None:
        return next((o for o in self.objects if o.id == oid), None)


def parse_scenario(data: Any, source: str | None = None) -> Scenario:
    """Validate a loaded document into a :class:`Scenario`, or raise :class:`ScenarioError`."""
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, source) from None


_UNION_TAG_PREFIXES = ("function-", "literal[", "list[", "tuple[", "dict[", "union[", "json-or-python")
_UNION_TAGS = frozenset({"str", "int", "bool", "float", "dict", "list", "tuple", "none", "is-instance"})


def _is_union_tag(part: str | int, model_names: frozenset[str]) -> bool:
    return isinstance(part, str) and (
        part in _UNION_TAGS or part in model_names or part.startswith(_UNION_TAG_PREFIXES)
    )


def _model_names() -> frozenset[str]:
    names = set()
    for value in globals().values():
        if isinstance(value, type) and issubclass(value, BaseModel):
            names.add(value.__name__)
    return frozenset(names)


def validation_error(exc: ValidationError, source: str | None = None) -> ScenarioError:
    """The most useful of pydantic's errors as one :class:`ScenarioError`.

    Union branch tags are dropped from the place; among several errors the deepest place wins
    (it is the one the author got wrong, not the branch pydantic tried last).
    """
    names = _model_names()
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
