"""The shapes of a scenario (docs/formats.md, Scenario): every pydantic model but :class:`~._scenario.Scenario` itself.

Every model is frozen and forbids unknown fields. Values that the formats let be "a value or a list"
are normalised to tuples before validation, so an error names the field and not a union branch.
:class:`ScenarioFields` holds a scenario's fields and lookups without its cross-reference checks,
so that the rules modules (references, controllers, APNAP, things) read a scenario without
importing the module that validates one.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Any, ClassVar, Literal, Self, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PrivateAttr,
    StrictBool,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ._derived import Derived
from ._event import resolve_event
from ._numbers import AtLeast0, AtLeast1, Whole
from ._slots import interned
from ._text import mode_id, printable_id
from ._types import AbilityId, ObjectId, PlayerId, RequirementId
from ._words import (
    CardTypeInput,
    CardTypeWord,
    Color,
    ColorWord,
    ObjectKindWord,
    Subtype,
    Supertype,
    SupertypeWord,
    ThingKind,
    ThingKindWord,
    Zone,
    ZoneWord,
)


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
    """``"any-target"`` is a player, or a creature, planeswalker or battle *permanent* (115.4,
    109.2): a fixed domain, so both branches name their kind and no enclosing filter widens or
    narrows it (never a spell or a card, docs/formats.md, Scenario)."""
    if value == ANY_TARGET:
        return {"any": [{"kind": "player"}, {"kind": "permanent", "type": ["creature", "planeswalker", "battle"]}]}
    return value


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, use_attribute_docstrings=True)


def _one_or_many(item: Any) -> Any:
    return BeforeValidator(_as_tuple, json_schema_input_type=item | list[item])


Strs = Annotated[tuple[str, ...], _one_or_many(str)]
Kinds = Annotated[tuple[ThingKindWord, ...], _one_or_many(ThingKind)]
Zones = Annotated[tuple[ZoneWord, ...], _one_or_many(Zone)]
Colors = Annotated[tuple[ColorWord, ...], _one_or_many(Color)]
CardTypes = Annotated[tuple[CardTypeWord, ...], _one_or_many(CardTypeInput)]
Supertypes = Annotated[tuple[SupertypeWord, ...], _one_or_many(Supertype)]
Subtypes = Annotated[tuple[Subtype, ...], _one_or_many(str)]


class Comparison(_Frozen):
    """``{"lte": 2}``, ``{"gte": 3}``, ``{"eq": 1}``; several keys all apply."""

    lte: Whole | None = None
    """At most this number."""
    gte: Whole | None = None
    """At least this number."""
    eq: Whole | None = None
    """Exactly this number."""

    @model_validator(mode="after")
    def _one_key(self) -> Self:
        if self.lte is None and self.gte is None and self.eq is None:
            raise ValueError("a comparison needs lte, gte or eq")
        return self


class TargetOf(_Frozen):
    """Whoever or whatever was chosen for requirement ``target_of`` of the same mode."""

    target_of: RequirementId
    """A requirement of the same mode: the player chosen for it, or the controller (for owner: the owner) of the object
    chosen for it."""


PlayerRef = Annotated[str | TargetOf, Field(union_mode="left_to_right")]
FilterField = Annotated[
    "Filter",
    BeforeValidator(_expand_any_target, json_schema_input_type=Union[Literal["any-target"], "Filter"]),
]


@interned
class Filter(Derived, _Frozen):
    """A conjunctive description of what may be chosen (docs/formats.md, Scenario).

    Without ``kind`` it inherits the domain of its enclosing filter, or matches permanents only
    (115.2) unless it names a ``zone`` or has only ``any``/``all`` (see ``filters``).
    """

    model_config = ConfigDict(populate_by_name=True)  # merged with _Frozen's

    kind: Kinds | None = None
    """The kinds of thing it matches (player, permanent, card, spell, ability, emblem); without it the domain is
    inherited, or permanents (115.2)."""
    type: CardTypes | None = None
    """Any of these card types."""
    subtype: Subtypes | None = None
    """Any of these subtypes (any letter case)."""
    supertype: Supertypes | None = None
    """Any of these supertypes."""
    color: Colors | None = None
    """Any of these colors (never a player)."""
    colorless: StrictBool | None = None
    """Colorless (true) or colored (false); never a player."""
    zone: Zones | None = None
    """Any of these zones; naming a zone makes the filter match cards there."""
    tag: Strs | None = None
    """All of these free tags (tapped, attacking, token ...): every tag named must be on it."""
    id: Strs | None = None
    """One of these ids."""
    controller: PlayerRef | None = None
    """Its controller, relative to the ability's controller: you, opponent, any, event, a player id, {target_of: R}."""
    owner: PlayerRef | None = None
    """Its owner, relative to the ability's controller: you, opponent, any, event, a player id, or {target_of: R}."""
    power: Comparison | None = None
    """Its power compared with numbers."""
    toughness: Comparison | None = None
    """Its toughness compared with numbers."""
    mana_value: Comparison | None = None
    """Its mana value compared with numbers."""
    counter: str | None = None
    """It has at least one counter of this kind."""
    ability_kind: Literal["triggered", "activated"] | None = None
    """For an ability on the stack: triggered or activated."""
    not_: FilterField | None = Field(default=None, alias="not")
    """Matches what the inner filter does not, within the enclosing domain."""
    any: tuple[FilterField, ...] | None = None
    """Matches what any of these filters matches."""
    all: tuple[FilterField, ...] | None = None
    """Matches what every one of these filters matches."""
    _named: frozenset[str] = PrivateAttr(default=frozenset())
    _DERIVED: ClassVar[tuple[str, ...]] = ("_named",)

    @model_validator(mode="after")
    def _keys(self) -> Self:
        self._derive_again()
        return self

    def _derive_again(self) -> None:
        """The keys it gives, read as it is validated and as a copy with changes is made (model/_derived.py):
        at once, since two filters are equal with what they keep (pydantic compares private attributes)."""
        self._named = frozenset(name for name in type(self).model_fields if getattr(self, name) is not None)

    @property
    def given_keys(self) -> frozenset[str]:
        """The keys it gives (those not None). Read from pydantic's private store directly: a
        private attribute read through ``BaseModel.__getattr__`` costs about 40 times as much
        (2.4 µs against 0.06 in pydantic 2.14), and compiling asks it of every filter per thing."""
        private = self.__pydantic_private__
        assert private is not None
        named: frozenset[str] = private["_named"]
        return named

    @property
    def only_combinators(self) -> bool:
        """Whether its only keys are ``any``/``all`` (at least one): then each child decides its
        own domain (115.2, docs/formats.md, Scenario)."""
        named = self.given_keys
        return bool(named) and named <= {"any", "all"}

    @property
    def is_everything(self) -> bool:
        """``{}``: no condition at all (as a quality: "from everything", 702.16j)."""
        return not self.given_keys

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
    """``cant_be_targeted_by`` entry: abilities from sources matching ``source``, controlled by a player
    ``controller`` names (relative to the protected thing's controller), can't target it."""

    source: FilterField = Field(default_factory=Filter)
    """The sources whose abilities can't target it (default {}: every source, and abilities with no source)."""
    controller: Literal["you", "opponent", "any"] = "any"
    """Who controls such an ability: you (its controller), opponent, or any (the default)."""


class _Targetable(_Frozen):
    hexproof: StrictBool = False
    """Hexproof: not the target of an opponent's ability (702.11)."""
    shroud: StrictBool = False
    """Shroud: not the target of any ability (702.18)."""
    protection: tuple[FilterField, ...] = ()
    """Protection from each quality a filter describes (702.16): not the target of an ability of such a source."""
    hexproof_from: tuple[FilterField, ...] = ()
    """Hexproof from each quality a filter describes (702.11d)."""
    cant_be_targeted_by: tuple[SourceRestriction, ...] = ()
    """Effects saying it can't be the target of some sources' abilities (applies in any zone)."""


class Player(_Targetable):
    """A player; in the scenario either a bare id or this object."""

    id: Annotated[PlayerId, AfterValidator(printable_id)]
    """The player's id."""
    left_game: StrictBool = False
    """The player has left the game (800.4): not a target, and their abilities are removed."""


class Object(_Targetable):
    """Anything other than a player that can be a target or a source."""

    id: Annotated[ObjectId, AfterValidator(printable_id)]
    """The object's id."""
    card: str | None = None
    """The Oracle name of the card it is (docs/cards.md): its characteristics and keywords come from the card."""
    kind: ObjectKindWord = "permanent"
    """permanent (the default), card, spell, ability or emblem."""
    zone: ZoneWord | None = None
    """Its zone; a card's zone (graveyard, exile, hand, library, command); a permanent is on the battlefield."""
    controller: PlayerId | None = None
    """Its controller (a permanent, spell or ability)."""
    owner: PlayerId | None = None
    """Its owner (default: its controller)."""
    types: tuple[CardTypeWord, ...] = ()
    """Its card types."""
    subtypes: tuple[Subtype, ...] = ()
    """Its subtypes."""
    supertypes: tuple[SupertypeWord, ...] = ()
    """Its supertypes."""
    colors: tuple[ColorWord, ...] = ()
    """Its colors (none: colorless)."""
    power: Whole | None = None
    """Its power."""
    toughness: Whole | None = None
    """Its toughness."""
    mana_value: Whole | None = None
    """Its mana value."""
    counters: dict[str, Whole] = Field(default_factory=dict)
    """Counters on it, by kind: {\"+1/+1\": 2}."""
    tags: tuple[str, ...] = ()
    """Free words a filter's tag can match (tapped, attacking, token ...)."""
    ability_kind: Literal["triggered", "activated"] | None = None
    """For an ability on the stack: triggered or activated."""
    text: str = ""
    """Its text, shown in messages."""

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

    id: Annotated[RequirementId, AfterValidator(printable_id)]
    """The requirement's id, unique within its mode (or its non-modal ability)."""
    text: str = ""
    """Its text, shown in messages."""
    min: AtLeast0 = 1
    """The fewest targets (0 for 'up to')."""
    max: AtLeast0 | None = 1
    """The most targets; null: any number."""
    filter: FilterField
    """What may be chosen (a filter, or 'any-target')."""
    other_than_source: StrictBool = False
    """'another' (115.3): the ability's source is not a legal target."""
    different_from: tuple[RequirementId, ...] = ()
    """Requirements of the same mode whose targets must be different things."""
    divide: AtLeast1 | None = None
    """An amount divided among the targets, at least 1 each (601.2d)."""

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

    id: Annotated[str, AfterValidator(mode_id)]
    """The mode's id, unique within its ability (no ':': it joins the ability's id to the mode's)."""
    text: str = ""
    """Its text, shown in messages."""
    targets: tuple[Requirement, ...] = ()
    """The mode's target requirements."""
    available: StrictBool = True
    """False when the mode can't be chosen (a rule or effect says so)."""


class Modal(_Frozen):
    """How many modes may be chosen: ``choose`` lists the allowed numbers."""

    choose: tuple[AtLeast0, ...] = Field(min_length=1)
    """The allowed numbers of modes (0 allows choosing none: the ability is then removed)."""
    repeat: StrictBool = False
    """The same mode may be chosen more than once (700.2d)."""
    distinct_targets: StrictBool = False
    """No thing is a target of two chosen modes (one mode's requirements may share it)."""


class Delayed(_Frozen):
    """A delayed triggered ability and who controlled what created it (603.7d–g)."""

    by: Literal["spell", "ability", "replacement", "static-action"]
    """What created the delayed trigger: spell, ability, replacement or static-action (603.7d-g)."""
    controller: PlayerId
    """Who controlled what created it."""


class TriggerBody(_Frozen):
    """A waiting triggered ability without its id (the shape a reaction fires)."""

    text: str = ""
    """Its text, shown in messages."""
    source: ObjectId | None = None
    """The object it comes from; omit it for a source-less ability and give controller."""
    controller: PlayerId | None = None
    """Its controller: required without a source or delayed; otherwise an error naming 603.3a if it contradicts the
    derived one."""
    source_controller: PlayerId | None = None
    """Who controlled the source when it triggered (default: its controller, or its owner off the
    battlefield, 113.8); ignored for a delayed ability."""
    delayed: Delayed | None = None
    """A delayed triggered ability, and what created it (603.7d-g)."""
    condition: Literal["event", "ability-triggered"] = "event"
    """event (default) or ability-triggered: its trigger condition is another ability triggering (part 2 of 603.3b;
    cr-1p and 2hg have no parts)."""
    targets: tuple[Requirement, ...] = ()
    """A non-modal ability's target requirements."""
    modal: Modal | None = None
    """For a modal ability: how many modes, repeats, distinct targets."""
    modes: tuple[Mode, ...] = ()
    """For a modal ability: its modes."""
    chooser: PlayerId | None = None
    """The player who makes its choices if not its controller (700.2e); legality is still judged from the controller."""
    illegal: str | None = None
    """A reason, when a rule or effect makes the ability illegal (603.3d: it is removed)."""
    card_ability: AtLeast1 | None = None
    """The N-th triggered ability of the card its source names, read from the card (docs/cards.md)."""
    event_player: PlayerId | None = None
    """The player its trigger event names (603.2): "that player", "that opponent", the defending player (506.2);
    a filter's controller or owner ``event`` is this player."""
    x: AtLeast0 | None = None
    """The number its text calls X (107.3), as it is when it is put on the stack: what a card's "up to X
    target creatures", "with mana value X or less" or "X damage divided" reads (docs/cards.md)."""

    @model_validator(mode="before")
    @classmethod
    def _event(cls, data: Any) -> Any:
        return resolve_event(data)  # "event" in its filters as its event_player (model/_event.py)

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

    id: Annotated[AbilityId, AfterValidator(printable_id)]
    """The ability's id, unique in the scenario (no '@': it marks fired abilities)."""


class MustTarget(_Frozen):
    """ "... must target X if able" (601.2c): applies to the listed abilities, or those whose
    source matches the filter (relative words judged from the controller of ``object``)."""

    object: str
    """The thing that must be targeted if able (601.2c)."""
    applies_to: (
        Annotated[tuple[AbilityId, ...], BeforeValidator(_as_tuple, json_schema_input_type=str | list[str])]
        | FilterField
    ) = Field(union_mode="left_to_right")
    """The abilities it applies to: their ids (a string is one id), or a filter their sources match."""


class Reaction(_Frozen):
    """An ability that triggers when ``object`` becomes the target of a placed ability (603.3b loop)."""

    id: Annotated[str, AfterValidator(printable_id)]
    """The reaction's id; what it fires is REACTION@ABILITY."""
    when: Literal["becomes-target"] = "becomes-target"
    """becomes-target: it triggers when object becomes the target of a placed ability."""
    object: str
    """The watched object (or player)."""
    by: Literal["opponent", "you", "any"] = "opponent"
    """Whose abilities fire it, relative to the watched object's controller: opponent (the default; ward), you or
    any."""
    trigger: TriggerBody
    """The ability it fires, which waits for the next pass of 603.3b."""


class ScenarioFields(_Frozen):
    """A scenario's fields and lookups; :class:`~._scenario.Scenario` adds the reference checks."""

    rules: Literal["seed", "cr-1p", "2hg"] = "seed"
    """seed (default: the two parts of 603.3b), cr-1p (one APNAP pass, before April 2021) or 2hg (805.7)."""
    players: tuple[Annotated[Player, BeforeValidator(_player_as_object, json_schema_input_type=str | Player)], ...] = (
        Field(min_length=1)
    )
    """Turn order, the active player first: ids, or objects with id and targeting properties."""
    teams: tuple[tuple[PlayerId, ...], ...] | None = None
    """With rules 2hg only: lists of player ids in turn order, the active team first."""
    objects: tuple[Object, ...] = ()
    """Everything else that can be a target or a source."""
    triggers: tuple[Trigger, ...] = ()
    """The waiting abilities, in any order."""
    must_target: tuple[MustTarget, ...] = ()
    """'... must target X if able' effects (601.2c)."""
    reactions: tuple[Reaction, ...] = ()
    """Abilities that trigger while the waiting ones are put on the stack (ward and other 'becomes the target'
    abilities)."""

    def player(self, pid: str) -> Player | None:
        return next((p for p in self.players if p.id == pid), None)

    def object(self, oid: str) -> Object | None:
        return next((o for o in self.objects if o.id == oid), None)


def shape_models() -> tuple[type[BaseModel], ...]:
    """Every shape model (their names appear in error places of union branches; their fields are
    the format's vocabulary)."""
    found: list[type[BaseModel]] = []
    pending: list[type[BaseModel]] = [_Frozen]
    while pending:
        found.append(cls := pending.pop())
        pending.extend(cls.__subclasses__())
    return tuple(found)
