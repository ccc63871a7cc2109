"""The one reader of phase's JSON (docs/phase.md, "The schema"): a state, a prompt, the stack, an
answer given to phase and phase's card data are read only as :class:`Node` — a value with its path —
so no other module of the adapter holds phase's raw mappings.

A field is there with the type phase writes, or the reading is refused as :class:`PhaseStateError`
naming the field by its path (``players[1].graveyard: missing``, ``objects[113].controller: expected an
integer, not 'x'``). ``node["name"]`` is a field phase always writes; ``node.opt("Shape.name")`` one it
may leave out, whose meaning when left out is :data:`ABSENT`'s — the fields phase's serializer skips
(``#[serde(skip_serializing_if)]``), from its source (``fetch github:phase-rs/phase``: files under
``crates/engine/src/``). The pinned 0.103.0 (engine commit 60296e29, from the wheel's SBOM) is not in
the stored source: a field the stored source lacks is optional only where a recorded state leaves it out.
``tests/test_phase_schema.py`` deletes and retypes every field the reading asks of the recorded states.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

from triggerstack.model._errors import ScenarioError
from triggerstack.model._text import found


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


ABSENT: dict[str, Any] = {
    # types/game_state.rs GameState: skip_serializing_if Vec::is_empty
    "GameState.pending_trigger_event_batch": (),
    # 0.103.0's GameState (not in the stored source): left out of recorded states when empty
    "GameState.pending_trigger_order": None,
    "GameState.pending_trigger_entry": None,
    "GameState.pending_trigger_firing": None,
    "GameState.deferred_triggers": (),
    "GameObject.is_token": False,  # 0.103.0 leaves it out when false (the stored source writes it)
    # game/triggers.rs PendingTrigger and types/game_state.rs StackEntryKind::TriggeredAbility
    "Trigger.description": None,
    "Trigger.trigger_event": None,
    # types/ability.rs ResolvedAbility and AbilityDefinition (ability_index: None for a synthesized one)
    "Ability.ability_index": None,
    "Ability.description": None,
    "Ability.multi_target": None,
    "Ability.distribute": None,
    "Ability.distribution": None,
    "Ability.modal": None,
    "Ability.mode_abilities": (),
    "Ability.selected_mode_labels": None,  # 0.103.0: set once modes are chosen
    "Ability.trigger_source": None,  # 0.103.0: a sub-ability's and a definition's have none
    # types/ability.rs ModalChoice (chooser: 0.103.0, not in the stored source)
    "ModalChoice.constraints": (),
    "ModalChoice.chooser": None,
    # types/ability.rs Effect: targets written only when there is one
    "LoseLife.target": None,
    "Mana.target": None,
    "SearchLibrary.target_player": None,
    "CopyTokenOf.source_filter": None,
    # 0.103.0's card data (the stored source writes them): Attach attaches its source; a blight's creature
    # is chosen as it resolves; an additional phase names its player `recipient`
    "Attach.attachment": None,
    "BlightEffect.target": None,
    "AdditionalPhase.target": None,
    # 0.103.0's prompts: no slot chosen yet; no mode chosen; a mulligan of one player
    "MulliganDecision.pending": None,
    "TargetSelection.selected_slots": (),
    "TriggerTargetSelection.mode_labels": None,
}
"""What each field phase may leave out means when it does, by ``Shape.field`` (the shape an effect's
or a prompt's type names, or the struct's)."""

_NAME = {field: field.rsplit(".", 1)[1] for field in ABSENT}
_JSON = {bool: "true or false", int: "an integer", str: "a string", list: "a list", dict: "an object"}


def _shown(value: Any) -> str:
    text = type(value).__name__ if isinstance(value, (Mapping, list, tuple)) else found(value)
    return text if len(text) <= 40 else text[:37] + "..."


DEEPEST = 100
"""The most levels a value read sits below the state (the recorded states reach 24): a value deeper
is refused naming its place — a mapping or list that holds itself (a Python caller's state, which
phase's JSON cannot be) as that, with the place it is — never the ``RecursionError`` the readers
that recurse (a filter's ``Or``, ``And``, ``Not``) would meet first, which said no place."""


class Node:
    """A value of phase's JSON at its path: read through typed accessors, each refusing a value of
    another type or a missing field as :class:`PhaseStateError` naming the path."""

    __slots__ = ("_depth", "_key", "_raw", "_up")

    def __init__(self, raw: object, path: str = "", up: Node | None = None, key: str | tuple[object] = "") -> None:
        self._raw = raw
        self._up: Node | None = up
        self._key: str | tuple[object] = key if up is not None else path  # the path made only when said
        self._depth: int = 0 if up is None else up._depth + 1
        if self._depth > DEEPEST:
            self._too_deep()

    def _too_deep(self) -> NoReturn:
        """The refusal of a node past :data:`DEEPEST`: where a container first holds itself, if one
        does, else the first levels of its path."""
        chain: list[Node] = []
        node: Node | None = self
        while node is not None:
            chain.append(node)
            node = node._up
        chain.reverse()
        seen: dict[int, Node] = {}
        for n in chain:
            if isinstance(n._raw, Mapping | list | tuple):
                if id(n._raw) in seen:
                    outer = seen[id(n._raw)].path or "the state"
                    n.refuse(f"a value that holds itself: it is the value at {outer}, so it would hold itself for "
                             "ever (phase exports a tree)")  # fmt: skip
                seen[id(n._raw)] = n
        shown = chain[8].path
        raise PhaseStateError(f"{shown}…: nested deeper than {DEEPEST} levels, deeper than any state phase exports")

    @property
    def path(self) -> str:
        """Where the value is: ``stack[0].kind.data`` (a field after a dot, an item or an entry by id in
        brackets)."""
        if self._up is None:
            return str(self._key)
        above, key = self._up.path, self._key
        if isinstance(key, tuple):
            return f"{above}[{key[0]}]"
        return f"{above}.{key}" if above else key

    def __repr__(self) -> str:
        return f"Node({self.path or 'root'}: {_shown(self._raw)})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and bool(self._raw == other._raw)

    __hash__ = None  # type: ignore[assignment]

    def refuse(self, said: str) -> NoReturn:
        raise PhaseStateError(f"{self.path or 'the state'}: {said}")

    def _want(self, kind: type) -> Any:
        raw = self._raw
        if type(raw) is kind:
            return raw
        if (kind is dict and isinstance(raw, Mapping)) or (kind is list and isinstance(raw, (list, tuple))):
            return raw
        self.refuse(f"expected {_JSON[kind]}, not {_shown(raw)}")

    def __getitem__(self, key: str) -> Node:
        """The field ``key``, which phase always writes (``null`` where it has none)."""
        raw = self._raw if type(self._raw) is dict else self._want(dict)  # (the common case first: a hot path)
        if key not in raw:
            Node(None, up=self, key=key).refuse("missing")
        return Node(raw[key], up=self, key=key)

    def opt(self, field: str) -> Node:
        """The field ``Shape.name``: its value, or where phase left it out what :data:`ABSENT` says it
        means (a field :data:`ABSENT` does not name is one phase always writes)."""
        key = _NAME.get(field) or field.rsplit(".", 1)[1]
        if field in ABSENT and key not in self._want(dict):
            return Node(ABSENT[field], up=self, key=key)
        return self[key]

    def at(self, key: str) -> Node | None:
        """The entry ``key`` of a mapping keyed by data (phase's objects by id); None where absent."""
        raw = self._want(dict)
        return Node(raw[key], up=self, key=(key,)) if key in raw else None

    @property
    def null(self) -> bool:
        return self._raw is None

    @property
    def kind(self) -> str:
        """The JSON type of the value: ``null``, ``boolean``, ``integer``, ``number``, ``string``, ``list``
        or ``object`` (a union phase writes in more than one shape is told apart by it)."""
        raw = self._raw
        for t, name in ((type(None), "null"), (bool, "boolean"), (int, "integer"), (float, "number"),
                        (str, "string"), (list, "list"), (tuple, "list")):  # fmt: skip
            if type(raw) is t:
                return name
        return "object" if isinstance(raw, Mapping) else "list" if isinstance(raw, list) else type(raw).__name__

    def as_int(self) -> int:
        return int(self._want(int))

    def as_str(self) -> str:
        return str(self._want(str))

    def as_bool(self) -> bool:
        return bool(self._want(bool))

    def maybe_int(self) -> int | None:
        return None if self.null else self.as_int()

    def maybe_str(self) -> str | None:
        return None if self.null else self.as_str()

    def items(self) -> list[Node]:
        """A list's items (``null`` is no list)."""
        return [Node(v, up=self, key=(i,)) for i, v in enumerate(self._want(list))]

    def pair(self) -> tuple[Node, Node]:
        """A Rust pair, written as a list of two: ``[target, amount]``."""
        items = self.items()
        if len(items) != 2:
            self.refuse(f"expected a pair [a, b], not {len(items)} items")
        return items[0], items[1]

    def entries(self) -> list[tuple[str, Node]]:
        """A mapping keyed by data (counters, blockers): its keys and values."""
        return [(str(k), Node(v, up=self, key=(k,))) for k, v in self._want(dict).items()]

    def __bool__(self) -> bool:
        return True  # a node is there (``null`` is :attr:`null`), whatever its length

    def __len__(self) -> int:
        """A list's length."""
        return len(self._want(list))

    def tag(self) -> str:
        """The variant of an internally tagged enum: its ``type``."""
        return self["type"].as_str()

    def variant(self) -> tuple[str, Node]:
        """An externally tagged enum's variant and its value: ``"Hexproof"`` (no value: ``null``) or
        ``{"Protection": …}``."""
        raw = self._raw
        if isinstance(raw, str):
            return raw, Node(None, up=self._up, key=self._key) if self._up is not None else Node(None, self.path)
        if isinstance(raw, Mapping) and len(raw) == 1:
            ((key, value),) = raw.items()
            return str(key), Node(value, up=self, key=str(key))
        self.refuse(f"expected a variant name or {{name: value}}, not {_shown(raw)}")

    def dump(self) -> str:
        """The value as JSON text (what is said of it as a whole: a ward's cost, a static)."""
        try:
            return json.dumps(self._raw, sort_keys=True, allow_nan=False)
        except (TypeError, ValueError) as exc:
            self.refuse(f"not JSON ({exc})")

    def json(self) -> Any:
        """The value itself, handed out whole (a trimmed state, a prompt shown): never read further
        by the adapter."""
        return self._raw


def root(state: object) -> Node:
    """A state as phase exports it — ``Game.state()``'s mapping, or its ``"state"`` part — as the node
    of the state itself (paths start at its fields: ``players[0].graveyard``)."""
    if isinstance(state, Mapping) and isinstance(state.get("state"), Mapping):
        state = state["state"]
    if not isinstance(state, Mapping):
        raise PhaseStateError(f"expected a phase Game or the mapping its state() exports, not {type(state).__name__}")
    return Node(state)
