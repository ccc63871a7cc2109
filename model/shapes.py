"""The shapes of a scenario (SPEC §4): every pydantic model but :class:`~.scenario.Scenario` itself.

Every model is frozen and forbids unknown fields. Values that SPEC lets be "a value or a list"
are normalised to tuples before validation, so an error names the field and not a union branch.
:class:`ScenarioFields` holds a scenario's fields and lookups without its cross-reference checks,
so that the rules modules (references, controllers, APNAP, things) read a scenario without
importing the module that validates one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from difflib import get_close_matches
from typing import Annotated, Any, Literal, Self, Union, get_args

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    StrictInt,
    model_validator,
)
from pydantic_core import PydanticCustomError

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
    "ScenarioFields",
    "SourceRestriction",
    "TargetOf",
    "ThingKind",
    "Trigger",
    "TriggerBody",
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
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


def _whole(value: Any) -> Any:
    """A whole-number float (``6.0``, what JSON writers in JavaScript and Java emit) is an integer."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


Whole = Annotated[StrictInt, BeforeValidator(_whole)]
"""An integer; ``6.0`` is accepted as 6 (JSON Schema calls it an integer too), ``6.5``, ``"6"`` and
``true`` are not."""


def _word(vocabulary: tuple[str, ...], what: str) -> Callable[[Any], Any]:
    """A closed vocabulary in any letter case, canonicalised to lower case; an unknown word is an
    error that suggests the nearest known one."""

    def canonical(value: Any) -> Any:
        if not isinstance(value, str):
            return value  # the Literal reports the wrong type
        word = value.lower()
        if word in vocabulary:
            return word
        near = get_close_matches(word, vocabulary, n=1, cutoff=0.6)
        hint = f"did you mean {near[0]!r}?" if near else f"expected one of {', '.join(vocabulary)}"
        raise PydanticCustomError(
            "vocabulary", "unknown {what} {value}: {hint}", {"what": what, "value": repr(value), "hint": hint}
        )

    return canonical


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


ThingKind = Literal["permanent", "card", "spell", "ability", "emblem", "player"]
ObjectKind = Literal["permanent", "card", "spell", "ability", "emblem"]
Zone = Literal["battlefield", "graveyard", "exile", "hand", "library", "stack", "command"]
Color = Literal["white", "blue", "black", "red", "green"]
CardType = Literal[
    "artifact",
    "battle",
    "creature",
    "dungeon",
    "enchantment",
    "instant",
    "kindred",
    "land",
    "planeswalker",
    "sorcery",
    "tribal",
]
Supertype = Literal["basic", "legendary", "ongoing", "snow", "world"]

COLORS: tuple[str, ...] = get_args(Color)
CARD_TYPES: tuple[str, ...] = get_args(CardType)
SUPERTYPES: tuple[str, ...] = get_args(Supertype)

ThingKindWord = Annotated[ThingKind, BeforeValidator(_word(get_args(ThingKind), "kind"))]
ObjectKindWord = Annotated[ObjectKind, BeforeValidator(_word(get_args(ObjectKind), "kind"))]
ZoneWord = Annotated[Zone, BeforeValidator(_word(get_args(Zone), "zone"))]
ColorWord = Annotated[Color, BeforeValidator(_word(COLORS, "color"))]
CardTypeWord = Annotated[CardType, BeforeValidator(_word(CARD_TYPES, "card type"))]
SupertypeWord = Annotated[Supertype, BeforeValidator(_word(SUPERTYPES, "supertype"))]
Subtype = Annotated[str, BeforeValidator(_lower)]
"""Subtypes are an open vocabulary, matched in any letter case."""


def _one_or_many(item: Any) -> Any:
    return BeforeValidator(_as_tuple, json_schema_input_type=item | list[item])


Strs = Annotated[tuple[str, ...], _one_or_many(str)]
Kinds = Annotated[tuple[ThingKindWord, ...], _one_or_many(ThingKind)]
Zones = Annotated[tuple[ZoneWord, ...], _one_or_many(Zone)]
Colors = Annotated[tuple[ColorWord, ...], _one_or_many(Color)]
CardTypes = Annotated[tuple[CardTypeWord, ...], _one_or_many(CardType)]
Supertypes = Annotated[tuple[SupertypeWord, ...], _one_or_many(Supertype)]
Subtypes = Annotated[tuple[Subtype, ...], _one_or_many(str)]


class Comparison(_Frozen):
    """``{"lte": 2}``, ``{"gte": 3}``, ``{"eq": 1}``; several keys all apply."""

    lte: Whole | None = None
    gte: Whole | None = None
    eq: Whole | None = None

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

    Without ``kind`` it inherits the domain of its enclosing filter, or matches permanents only
    (115.2) unless it names a ``zone`` or has only ``any``/``all`` (see ``filters``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)

    kind: Kinds | None = None
    type: CardTypes | None = None
    subtype: Subtypes | None = None
    supertype: Supertypes | None = None
    color: Colors | None = None
    colorless: StrictBool | None = None
    zone: Zones | None = None
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
    _named: frozenset[str] = PrivateAttr(default=frozenset())

    @model_validator(mode="after")
    def _keys(self) -> Self:
        self._named = frozenset(name for name in type(self).model_fields if getattr(self, name) is not None)
        return self

    @property
    def only_combinators(self) -> bool:
        """Whether its only keys are ``any``/``all`` (at least one): then each child decides its
        own domain (115.2, SPEC §4)."""
        return bool(self._named) and self._named <= {"any", "all"}

    @property
    def is_everything(self) -> bool:
        """``{}``: no condition at all (as a quality: "from everything", 702.16j)."""
        return not self._named

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
    kind: ObjectKindWord = "permanent"
    zone: ZoneWord | None = None
    controller: PlayerId | None = None
    owner: PlayerId | None = None
    types: tuple[CardTypeWord, ...] = ()
    subtypes: tuple[Subtype, ...] = ()
    supertypes: tuple[SupertypeWord, ...] = ()
    colors: tuple[ColorWord, ...] = ()
    power: Whole | None = None
    toughness: Whole | None = None
    mana_value: Whole | None = None
    counters: dict[str, Whole] = Field(default_factory=dict)
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
    min: Whole = Field(default=1, ge=0)
    max: Whole | None = Field(default=1, ge=0)
    filter: FilterField
    other_than_source: StrictBool = False
    different_from: tuple[RequirementId, ...] = ()
    divide: Whole | None = Field(default=None, ge=1)

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

    choose: tuple[Annotated[Whole, Field(ge=0)], ...] = Field(min_length=1)
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


class ScenarioFields(_Frozen):
    """A scenario's fields and lookups; :class:`~.scenario.Scenario` adds the reference checks."""

    rules: Literal["seed", "cr-1p", "2hg"] = "seed"
    players: tuple[Annotated[Player, BeforeValidator(_player_as_object, json_schema_input_type=str | Player)], ...] = (
        Field(min_length=1)
    )
    teams: tuple[tuple[PlayerId, ...], ...] | None = None
    objects: tuple[Object, ...] = ()
    triggers: tuple[Trigger, ...] = ()
    must_target: tuple[MustTarget, ...] = ()
    reactions: tuple[Reaction, ...] = ()

    def player(self, pid: str) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)

    def object(self, oid: str) -> Object | None:
        return next((o for o in self.objects if o.id == oid), None)


def model_names() -> frozenset[str]:
    """The names of every shape model (pydantic writes them into error places of union branches)."""
    names: set[str] = set()
    pending: list[type[BaseModel]] = [_Frozen]
    while pending:
        cls = pending.pop()
        names.add(cls.__name__)
        pending.extend(cls.__subclasses__())
    return frozenset(names)
