"""The part of phase's exported state the adapter reads, as a schema (docs/phase.md, "The schema").

A door never guesses: ``check(s)`` holds a state to these models before anything is read, so a field
the reading uses is there with the type phase exports, or has the default written beside it here (what
phase's serializer leaves out when empty), or the state is refused as :class:`PhaseStateError` naming
the field by its path in the state (``players[1].graveyard``, ``objects[113].controller``). A field
typed ``Any`` is one whose every shape is read or said as a gap (an ability's effect tree, read by
``translate``; a trigger's firing; an event): its shape is the reader's business, not the schema's.
The models are exactly what the reading touches: ``tests/test_phase_schema.py`` records every key the
reading of each fixture asks for and holds it to :func:`paths`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator
from triggerstack.model._errors import ScenarioError


class PhaseGap(ScenarioError):
    """What phase's state does not say, with ``strict=True``: each gap on its own line."""


class PhaseError(RuntimeError):
    """phase itself failed: a state it could not export, an action it raised on (its message kept), or
    a prompt it asked that the ability it places does not call for (a deviation, said with the prompt,
    the ability and what differed, by every path that meets it: ``answers``, ``action_for``, ``play``
    and a ``Session``)."""


class PhaseStateError(PhaseGap):
    """A state that is not one phase exports — a field missing or of another type, nesting past
    reason, not a mapping at all — said as what was wrong, naming the field by its path, never as a
    bare ``KeyError`` or ``TypeError`` (the adapter reads a state whole or refuses it)."""


class _Shape(BaseModel):
    # strict: phase writes JSON, so "1" is not an id and true is not a count
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)


class _Types(_Shape):
    core_types: list[str]
    subtypes: list[str]
    supertypes: list[str]


class _Object(_Shape):
    """An object in a zone the adapter reads (the battlefield, a graveyard, exile)."""

    id: int
    name: str
    controller: int
    owner: int
    card_types: _Types
    color: list[str]
    power: int | None
    toughness: int | None
    mana_cost: Any
    counters: dict[str, int]
    tapped: bool
    is_token: bool = False
    keywords: list[Any]
    static_definitions: list[Any]
    trigger_definitions: list[Any]


class _Player(_Shape):
    id: int
    graveyard: list[int]
    is_eliminated: bool


class _Modal(_Shape):
    min_choices: int
    max_choices: int
    mode_count: int
    mode_descriptions: list[str]
    chooser: Any = None
    constraints: Any = None
    allow_repeat_modes: bool = False


class _Ability(_Shape):
    """A waiting ability (``ResolvedAbility``); its effect tree is ``translate``'s to read."""

    controller: int
    source_id: int | None
    effect: Any
    sub_ability: Any
    optional_targeting: bool
    ability_index: int = 0
    description: str | None = None
    trigger_source: Any = None
    selected_mode_labels: list[str] | None = None
    multi_target: Any = None
    distribute: Any = None
    modal: _Modal | None = None
    mode_abilities: list[Any] = []


class _Pending(_Shape):
    """A pending trigger (or a triggered stack entry's data): its ``controller`` defaults to its
    ability's, which a stack entry's data leaves out (the entry says it)."""

    ability: _Ability
    description: str
    source_id: int | None
    trigger_event: Any
    source_name: str | None = None
    controller: int | None = None


class _Queued(_Shape):
    pending: _Pending
    firing: Any


class _Group(_Shape):
    triggers: list[_Queued]


class _Order(_Shape):
    groups: list[_Group]


class _Kind(_Shape):
    type: str
    data: Any = None


class _Entry(_Shape):
    id: int
    controller: int
    kind: _Kind


class _Attacker(_Shape):
    object_id: int


class _Combat(_Shape):
    attackers: list[_Attacker] = []
    blocker_to_attacker: dict[str, Any] = {}


class _Ref(_Shape):
    """A ``TargetRef``: one of a player or an object."""

    Player: int | None = None
    Object: int | None = None

    @model_validator(mode="after")
    def _one(self) -> _Ref:
        if (self.Player is None) == (self.Object is None):
            raise ValueError('a target is {"Player": id} or {"Object": id}')
        return self


class _Prompt(_Shape):
    type: str
    data: Any = None


class _Selection(_Shape):
    selected_slots: list[_Ref] = []


class _Asked(_Shape):
    """A trigger-placement prompt's data: what the answers read at every prompt, absent where the
    prompt does not ask it (each prompt's own model requires what it asks)."""

    player: int
    source_id: int | None = None
    selection: _Selection | None = None
    mode_labels: list[str] | None = None
    targets: list[_Ref] | None = None


class _OrderAsked(_Asked):
    triggers: list[Any]


class _TargetAsked(_Asked):
    selection: _Selection


class _ModeAsked(_Asked):
    pass


class _DivideAsked(_Asked):
    targets: list[_Ref]
    total: int


_ASKED: dict[str, type[_Shape]] = {
    "OrderTriggers": _OrderAsked,
    "TriggerTargetSelection": _TargetAsked,
    "AbilityModeChoice": _ModeAsked,
    "DistributeAmong": _DivideAsked,
}


class _State(_Shape):
    """The top of a state: what phase always exports is required (``None`` allowed where phase
    writes ``null``), what it leaves out when empty has the empty default."""

    waiting_for: _Prompt
    active_player: int
    seat_order: list[int]
    players: list[_Player]
    battlefield: list[int]
    exile: list[int]
    stack: list[_Entry]
    objects: dict[str, Any]
    combat: _Combat | None
    eliminated_players: list[int]
    pending_trigger: _Pending | None
    pending_trigger_firing: Any = None
    pending_trigger_entry: int | None = None
    pending_trigger_order: _Order | None = None
    deferred_triggers: list[_Queued] = []
    pending_trigger_event_batch: list[Any] = []


STATE = _State
"""The schema of the top of a state (objects in the zones read are :class:`_Object`, the data of a
trigger-placement prompt its own model)."""


def _where(prefix: str, loc: tuple[int | str, ...]) -> str:
    out = prefix
    for k in loc:
        out += f"[{k}]" if isinstance(k, int) or (out.endswith("objects") and k.isdigit()) else f".{k}" if out else k
    return out


def _validate(model: type[_Shape], data: Any, prefix: str) -> None:
    try:
        model.model_validate(data)
    except ValidationError as exc:
        lines = []
        for e in exc.errors(include_url=False):
            where = _where(prefix, tuple(e["loc"]))
            said = "missing: phase exports it" if e["type"] == "missing" else f"{e['msg']} (got {_shown(e['input'])})"
            lines.append(f"{where or 'the state'}: {said}")
        raise PhaseStateError("a state phase would not export: " + "; ".join(lines[:8])
                              + (f"; and {len(lines) - 8} more" if len(lines) > 8 else "")) from None  # fmt: skip


def _shown(value: Any) -> str:
    text = repr(value) if not isinstance(value, (Mapping, list)) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def check(s: Mapping[str, Any]) -> None:
    """Hold the state ``s`` (the ``"state"`` part) to the schema, or raise :class:`PhaseStateError`
    naming each field missing or mistyped by its path."""
    _validate(_State, s, "")
    check_prompt(s["waiting_for"], s["stack"])
    objects = s["objects"]
    zones = [*s["battlefield"], *s["exile"], *(o for p in s["players"] for o in p["graveyard"])]
    for oid in zones:
        if str(oid) in objects:
            _validate(_Object, objects[str(oid)], f"objects[{oid}]")


def check_prompt(prompt: Any, stack: Any) -> None:
    """Hold a prompt (``waiting_for``) and the stack to the schema: what a session reads at a later
    prompt of a batch without exporting the whole state."""
    _validate(_Prompt, prompt, "waiting_for")
    asked = _ASKED.get(prompt["type"])
    if asked is not None:
        _validate(asked, prompt.get("data"), "waiting_for.data")
    _validate(_Stack, {"stack": stack}, "")
    for i, e in enumerate(stack):
        if e["kind"]["type"] == "TriggeredAbility":
            _validate(_Pending, e["kind"].get("data"), f"stack[{i}].kind.data")


class _Stack(_Shape):
    stack: list[_Entry]


class Field(NamedTuple):
    """One field of the schema: whether the reading needs it, whether what is below it is the
    reader's to read as a gap (``Any``), its default when it may be left out, and its annotation."""

    required: bool
    opaque: bool
    default: Any
    annotation: Any


def _fields(model: type[BaseModel], prefix: str) -> Iterator[tuple[str, Field]]:
    for name, f in model.model_fields.items():
        path = f"{prefix}.{name}" if prefix else name
        inner = [a for a in _args(f.annotation) if isinstance(a, type) and issubclass(a, BaseModel)]
        default = None if f.is_required() else f.get_default(call_default_factory=True)
        yield path, Field(f.is_required(), not inner and _opaque(f.annotation), default, f.annotation)
        for m in inner:
            yield from _fields(m, path + ("[]" if _listed(f.annotation) else ""))


def _args(t: Any) -> Iterator[Any]:
    yield t
    for a in getattr(t, "__args__", ()):
        yield from _args(a)


def _listed(t: Any) -> bool:
    return any(getattr(a, "__origin__", None) is list for a in _args(t))


def _opaque(t: Any) -> bool:
    """Read as a whole shape by the reader, not by field: ``Any``, or a mapping or list of ``Any``."""
    return any(a is Any for a in _args(t))


def paths() -> dict[str, Field]:
    """Every field the schema names, by path: a list's items as ``[]``, an object in a zone as
    ``objects[]``, a triggered stack entry's data as ``stack[].kind.data``, a prompt's data under its
    type (``waiting_for.data<OrderTriggers>``)."""
    out = dict(_fields(_State, ""))
    out.update(_fields(_Object, "objects[]"))
    out.update(_fields(_Pending, "stack[].kind.data"))
    for kind, model in _ASKED.items():
        out.update(_fields(model, f"waiting_for.data<{kind}>"))
    return out
