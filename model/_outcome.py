"""The outcome / proposal format of docs/formats.md (Proposal and outcome), its canonical form, and the score of
docs/cli.md (best)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError

from ._args import instance_of
from ._derived import Derived
from ._errors import ScenarioError
from ._facts import Facts, facts_of
from ._io import load_document
from ._limits import DEFAULT_LIMITS, Limits
from ._numbers import Weight, Whole
from ._scenario import Built, Document, Scenario, validated, validation_error
from ._shapes import TriggerBody
from ._text import compact
from ._types import AbilityId

Targets = dict[str, tuple[str, ...]]
Divisions = dict[str, dict[str, Whole]]
"""A score weight: an integer within ±10⁹ (CP-SAT sums them in 64 bits)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True, use_attribute_docstrings=True)


def _targets_value(targets: Mapping[str, Sequence[str]]) -> frozenset[tuple[str, tuple[str, ...]]]:
    """A requirement's targets as a set (a listed repeat kept: ``check`` reports it), empty
    lists dropped (docs/formats.md, Proposal and outcome: they may be omitted)."""
    return frozenset((k, tuple(sorted(v))) for k, v in targets.items() if v)


def _divide_value(divide: Mapping[str, Mapping[str, int]]) -> frozenset[tuple[str, frozenset[tuple[str, int]]]]:
    return frozenset((k, frozenset(v.items())) for k, v in divide.items() if v)


def _inferred_passes(stack: Sequence[Entry]) -> tuple[int, ...] | None:
    """The entries per pass that the ids say: an ability fired in pass n + 1 has n ``@`` in its id
    (``REACTION@ABILITY``); None for one pass, as :func:`~._passes.join` writes it."""
    sizes: list[int] = []
    for e in stack:
        level = e.ability.count("@")
        sizes.extend([0] * (level + 1 - len(sizes)))
        sizes[level] += 1
    return tuple(sizes) if len(sizes) > 1 else None


_V = TypeVar("_V", bound="_Value")


class _Value(Derived, Built, _Frozen):
    """Equal and hashed by what the outcome *is*, not how it is listed (docs/rules.md, "An outcome": modes are a
    multiset, a requirement's targets a set): ``value`` is computed once."""

    _value: Any = PrivateAttr(default=None)
    _DERIVED: ClassVar[tuple[str, ...]] = ("_value",)  # computed again by a copy with changes

    def value(self) -> Any:
        raise NotImplementedError

    def _cached(self) -> Any:
        # read from pydantic's own slot: ``self._value`` goes through BaseModel.__getattr__, 8.8 µs a
        # read against 0.08 (hashing entries was a third of ``count --divide`` on a 9,317-outcome case)
        private = self.__pydantic_private__
        value = None if private is None else private.get("_value")
        if value is None:
            value = self._value = self.value()
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _Value):
            return NotImplemented
        return type(self) is type(other) and self._cached() == other._cached()

    def __hash__(self) -> int:
        return hash(self._cached())


class ModeChoice(_Value):
    """One chosen mode of a modal ability, with its own targets and divisions."""

    mode: str
    """The chosen mode's id."""
    targets: Targets = Field(default_factory=dict)
    """Its targets: requirement id -> the things chosen."""
    divide: Divisions = Field(default_factory=dict)
    """Its divisions: requirement id -> thing -> amount (601.2d)."""

    def value(self) -> Any:
        return (self.mode, _targets_value(self.targets), _divide_value(self.divide))


class Entry(_Value):
    """One ability on the stack with its choices."""

    ability: AbilityId
    """The ability's id (REACTION@ABILITY for one fired in a later pass)."""
    modes: tuple[ModeChoice, ...] | None = None
    """A modal ability's chosen modes, one entry per instance (null for a non-modal ability)."""
    targets: Targets = Field(default_factory=dict)
    """A non-modal ability's targets: requirement id -> the things chosen."""
    divide: Divisions = Field(default_factory=dict)
    """A non-modal ability's divisions: requirement id -> thing -> amount (601.2d)."""

    def value(self) -> Any:
        modes = None if self.modes is None else frozenset(Counter(self.modes).items())  # a multiset
        return (self.ability, modes, _targets_value(self.targets), _divide_value(self.divide))


class Outcome(Document, _Value):
    """The final stack (bottom → top) and the removed abilities; ``passes`` counts entries per pass.

    Outcomes are values: two are equal, and hash alike, when they are the same outcome — the
    same stack entry by entry (modes as a multiset, each requirement's targets as a set), the same
    removed abilities in any order, and the same passes, an omitted ``passes`` being the one the
    ids imply (an ability fired in pass n + 1 has n ``@``). So a proposal equals the canonical
    outcome it lists, in whatever order it lists it."""

    stack: tuple[Entry, ...] = ()
    """The stack, bottom first: every ability put on it, with its choices."""
    removed: tuple[AbilityId, ...] = ()
    """The abilities removed from the stack (603.3c-d)."""
    passes: tuple[Whole, ...] | None = None
    """Entries per pass of 603.3b's loop, when reactions fired further abilities (optional: inferred)."""

    def value(self) -> Any:
        passes = self.passes if self.passes is not None else _inferred_passes(self.stack)
        return (self.stack, frozenset(Counter(self.removed).items()), passes)

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        """The Python door, held to a proposal's caps (:func:`parse_outcome`) and read as every door
        reads a document (``model/_scenario.py`` ``read_document``): :class:`ScenarioError`."""
        _within(obj, DEFAULT_LIMITS, None)
        return super().model_validate(obj, **options)

    @classmethod
    def load(cls, path: str, limits: Limits = DEFAULT_LIMITS) -> Outcome:
        """Read a proposal from a ``.json``/``.yaml``/``.yml`` file or ``-``, within ``limits``."""
        return parse_outcome(load_document(path, limits), source=path, limits=limits)


_STACK_AND_REMOVED = frozenset({"stack", "removed"})
_set = object.__setattr__


def built_outcome(
    stack: tuple[Entry, ...], removed: tuple[AbilityId, ...], *passes: tuple[Whole, ...] | None
) -> Outcome:
    """An outcome an engine built from parts that are values of the format already (the kept
    entries of ``solver/_core/indexed.py``, the facts' ids, whole passes joined): what
    ``Outcome.model_construct(stack=stack, removed=removed[, passes=passes])`` gives — the same
    fields, fields set and private state — without pydantic's generic work per call (a fifth of a
    walk that makes tens of thousands of outcomes, ``count --divide`` among them). Never for a
    caller's values: those come through the door (``Outcome.model_validate``).
    ``tests/test_outcome.py`` holds it to ``model_construct``."""
    fields = {"stack": stack, "removed": removed, "passes": passes[0] if passes else None}
    return _built(Outcome, fields, None if passes else _STACK_AND_REMOVED)


def built_mode(mode: str, targets: Targets, divide: Divisions) -> ModeChoice:
    """``ModeChoice.model_construct(mode=..., targets=..., divide=...)`` without pydantic's generic
    work (see :func:`built_outcome`; a judge's search builds tens of thousands)."""
    return _built(ModeChoice, {"mode": mode, "targets": targets, "divide": divide})


def built_entry(ability: AbilityId, modes: tuple[ModeChoice, ...] | None, targets: Targets, divide: Divisions) -> Entry:
    """``Entry.model_construct(ability=..., modes=..., targets=..., divide=...)``, as :func:`built_mode`."""
    return _built(Entry, {"ability": ability, "modes": modes, "targets": targets, "divide": divide})


def _built(cls: type[_V], fields: dict[str, Any], given: frozenset[str] | None = None) -> _V:
    """A model of ``cls`` with a value for every field: what ``model_construct`` given ``given``
    of them (all, by default) gives — the private ``_value`` unset, no extra."""
    made = object.__new__(cls)
    _set(made, "__dict__", fields)
    _set(made, "__pydantic_fields_set__", set(fields if given is None else given))
    _set(made, "__pydantic_extra__", None)
    _set(made, "__pydantic_private__", {"_value": None})
    return made


def outcome_of(value: Any, name: str = "outcome") -> Outcome:
    """An outcome argument of a Python door (``check``'s proposal, ``canonical``'s, ``outcome_json``'s):
    an :class:`Outcome`, any other value refused naming ``name`` (``model/_args.py`` ``instance_of``)
    — ``outcome_json({"stack": []})`` was an AttributeError from inside."""
    return instance_of(value, name, Outcome, "an Outcome (Outcome.model_validate(document) or Outcome.load(path))")


def proposal_of(value: Any, limits: Limits, name: str = "proposal") -> Outcome:
    """An outcome a Python caller built, held to a proposal's caps as every door's proposal is
    (:func:`_within`: entries per pass within ``--max-abilities``, passes within ``--max-passes``):
    ``Outcome(stack=[... 1,001 entries])`` was judged by ``check`` where ``Outcome.model_validate``
    and every other door refuse it before reading an entry."""
    outcome = outcome_of(value, name)
    _within({"stack": outcome.stack, "removed": outcome.removed}, limits, None)
    return outcome


class Score(Document, _Frozen):
    """Weights for ``best`` (docs/cli.md): height × position from the bottom, and per mode, target, removal."""

    height: dict[str, Weight] = Field(default_factory=dict)
    """Per ability: weight x its position from the bottom (0-based)."""
    mode: dict[str, dict[str, Weight]] = Field(default_factory=dict)
    """Per ability and mode: the weight of choosing it."""
    target: dict[str, dict[str, Weight]] = Field(default_factory=dict)
    """Per ability and thing: the weight of each time it is chosen as a target."""
    removed: dict[str, Weight] = Field(default_factory=dict)
    """Per ability: the weight of its being removed."""

    @classmethod
    def load(cls, path: str, limits: Limits = DEFAULT_LIMITS) -> Score:
        """Read a score from a ``.json``/``.yaml``/``.yml`` file or ``-``, within ``limits``."""
        return parse_score(load_document(path, limits), source=path)

    def value(self, stack: Iterable[tuple[str, Iterable[str | None], Iterable[str]]], removed: Iterable[str]) -> int:
        """The score of docs/cli.md (best), the one implementation: ``stack`` gives, bottom first, each
        entry's ability, its chosen modes (one per instance; ``None`` for a non-modal ability)
        and every target it chose. Weight × position from the bottom (0-based) for ``height``,
        and the weight of each chosen mode, chosen target and removed ability."""
        total = 0
        for pos, (ability, modes, targets) in enumerate(stack):
            total += self.height.get(ability, 0) * pos
            mode_w = self.mode.get(ability)
            if mode_w:
                total += sum(mode_w.get(m, 0) for m in modes if m is not None)
            target_w = self.target.get(ability)
            if target_w:
                total += sum(target_w.get(t, 0) for t in targets)
        return total + sum(self.removed.get(r, 0) for r in removed)

    def of(self, outcome: Outcome) -> int:
        """The score of a whole outcome (every pass), read by ids."""
        return self.value(
            (
                (
                    e.ability,
                    (m.mode for m in e.modes or ()),
                    [
                        *(t for m in e.modes or () for ts in m.targets.values() for t in ts),
                        *(t for ts in e.targets.values() for t in ts),
                    ],
                )
                for e in outcome.stack
            ),
            outcome.removed,
        )


def parse_outcome(data: Any, source: str | None = None, limits: Limits = DEFAULT_LIMITS) -> Outcome:
    """Validate a loaded document into an :class:`Outcome`, or raise :class:`ScenarioError`; a
    proposal is held to the caps a scenario is (:func:`_within`) before it is validated."""
    _within(data, limits, source)
    try:
        return validated(Outcome, data)
    except ValidationError as exc:
        raise validation_error(exc, source, data, root=Outcome) from None


def _within(data: Any, limits: Limits, source: str | None) -> None:
    """A proposal bounded like a scenario, on every door (its entries are counted before any is
    validated): no pass lists more entries — placed or removed — than ``--max-abilities`` lets
    a scenario wait (a pass is told by the ``@`` of a fired ability's id, as ``passes`` is
    inferred), and none lists more passes than ``--max-passes``."""
    if not isinstance(data, Mapping):
        return
    per_pass: Counter[int] = Counter()
    for key in ("stack", "removed"):
        listed = data.get(key)
        if not isinstance(listed, list | tuple):
            continue
        for item in listed:
            ability = item
            if key == "stack":  # an entry's id: a document's mapping, or an Entry a program built
                ability = item.get("ability") if isinstance(item, Mapping) else getattr(item, "ability", None)
            per_pass[ability.count("@") if isinstance(ability, str) else 0] += 1
    if per_pass and max(per_pass) >= limits.passes:
        raise _sourced(limits.refuse("passes in a proposal", max(per_pass) + 1, "passes", ("stack",)), source)
    for level, n in sorted(per_pass.items()):
        if n > limits.abilities:
            what = f"entries of pass {level + 1} (placed or removed)" if level else "entries (placed or removed)"
            raise _sourced(limits.refuse(what, n, "abilities", ("stack",)), source)


def _sourced(error: ScenarioError, source: str | None) -> ScenarioError:
    return error if source is None else error.located(source)


def parse_score(data: Any, source: str | None = None) -> Score:
    try:
        return validated(Score, data)
    except ValidationError as exc:
        raise validation_error(exc, source, data, root=Score) from None


Key = tuple[Any, ...]


def _mode_key(key: Callable[[str], Key], reqs: Sequence[str], m: ModeChoice) -> list[Any]:
    """Ties between repeated instances of a mode: targets per requirement in listing order, each
    in canonical order, then the amounts divided in that order."""
    reqs = [*reqs, *sorted(set(m.targets) - set(reqs))]  # requirements the scenario lacks sort last
    targets = [sorted(key(t) for t in m.targets.get(r, ())) for r in reqs]
    amounts = [[m.divide.get(r, {}).get(t, 0) for t in sorted(m.targets.get(r, ()), key=key)] for r in reqs]
    return [targets, amounts]


def _clean_targets(key: Callable[[str], Key], targets: Mapping[str, tuple[str, ...]]) -> Targets:
    return {k: tuple(sorted(v, key=key)) for k, v in targets.items() if v}


def _clean_divide(divide: Mapping[str, Mapping[str, int]]) -> Divisions:
    return {k: dict(sorted(v.items())) for k, v in divide.items() if v}


def canonical_key(facts: Facts, outcome: Outcome) -> Callable[[str], Key]:
    """The canonical order of ids in ``outcome`` (docs/formats.md, Proposal and outcome): players in turn order,
    then objects, then the scenario's waiting abilities (the order of :attr:`Facts.things`); then abilities fired
    in later passes (``REACTION@ABILITY``), by pass, then by the stack position of the ability that
    fired them, then by the reaction's order in the scenario; then any other id, by name."""
    order = facts.thing_index
    position: dict[str, int] = {e.ability: i for i, e in reversed(list(enumerate(outcome.stack)))}
    reactions = {r.id: i for i, r in enumerate(facts.scenario.reactions)}
    unplaced = len(outcome.stack)

    def key(ident: str) -> Key:
        known = order.get(ident)
        if known is not None:
            return (0, known, "")
        reaction, at, firing = ident.partition("@")
        if at and reaction in reactions:
            return (1, ident.count("@"), position.get(firing, unplaced), reactions[reaction], ident)
        return (2, 0, 0, 0, ident)

    return key


def _body(facts: Facts, ability: str) -> TriggerBody | None:
    """The trigger an ability id names: a waiting ability's, or the reaction's it was fired from."""
    k = facts.ability_index.get(ability)
    if k is not None:
        return facts.scenario.triggers[k]
    reaction = ability.partition("@")[0]
    return next((r.trigger for r in facts.scenario.reactions if r.id == reaction and "@" in ability), None)


def canonical(scenario: Scenario | Facts, outcome: Outcome) -> Outcome:
    """The canonical form of ``outcome`` for ``scenario`` (docs/formats.md, Proposal and outcome): ids in the order of
    :func:`canonical_key` (targets of a requirement, ``removed``), modes in the order the ability
    lists them (repeats adjacent, tied by their targets), empty target lists dropped.
    Canonicalising never fails: ids the scenario does not know sort last, and ``check`` reports them.
    """
    facts = facts_of(scenario)
    outcome = outcome_of(outcome)
    key = canonical_key(facts, outcome)
    no_reqs: list[str] = []
    entries = []
    for e in outcome.stack:
        modes = None
        if e.modes is not None:
            body = _body(facts, e.ability)
            mode_order = {m.id: i for i, m in enumerate(body.modes)} if body is not None else {}
            reqs = {m.id: [r.id for r in m.targets] for m in body.modes} if body is not None else {}
            modes = tuple(
                sorted(
                    (
                        ModeChoice(mode=m.mode, targets=_clean_targets(key, m.targets), divide=_clean_divide(m.divide))
                        for m in e.modes
                    ),
                    key=lambda m: (
                        mode_order.get(m.mode, len(mode_order)),
                        m.mode,
                        _mode_key(key, reqs.get(m.mode, no_reqs), m),
                    ),
                )
            )
        entries.append(
            Entry(
                ability=e.ability,
                modes=modes,
                targets=_clean_targets(key, e.targets),
                divide=_clean_divide(e.divide),
            )
        )
    removed = tuple(sorted(outcome.removed, key=key))
    return Outcome(stack=tuple(entries), removed=removed, passes=outcome.passes)


def outcome_dict(outcome: Outcome) -> dict[str, Any]:
    """The JSON-ready dict of an outcome, without empty fields."""
    outcome = outcome_of(outcome)
    out: dict[str, Any] = {"stack": [entry_dict(e) for e in outcome.stack], "removed": list(outcome.removed)}
    if outcome.passes is not None:
        out["passes"] = list(outcome.passes)
    return out


def entry_shape(
    ability: str,
    modes: list[dict[str, Any]] | None,
    targets: Mapping[str, Any],
    divide: Mapping[str, Mapping[str, int]],
) -> dict[str, Any]:
    """The JSON-ready dict of one entry of a stack, without empty fields (``modes``: each a
    :func:`mode_shape`; None: not modal): the one place the shape of an entry is written, which
    :func:`entry_dict` (from the wire model) and a walk's outcome line (from plain values) share."""
    entry: dict[str, Any] = {"ability": ability}
    if modes is not None:
        entry["modes"] = modes
    return _chosen(entry, targets, divide)


def mode_shape(mode: str, targets: Mapping[str, Any], divide: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """The JSON-ready dict of one mode chosen (:func:`entry_shape`), without empty fields."""
    return _chosen({"mode": mode}, targets, divide)


def _chosen(out: dict[str, Any], targets: Mapping[str, Any], divide: Mapping[str, Mapping[str, int]]) -> dict[str, Any]:
    """``out`` with the targets and amounts divided, each only if there are any."""
    if targets:
        out["targets"] = targets
    if divide:
        out["divide"] = divide
    return out


def entry_dict(e: Entry) -> dict[str, Any]:
    """The JSON-ready dict of one entry of a stack, without empty fields."""
    modes = None if e.modes is None else [mode_shape(m.mode, _lists(m.targets), m.divide) for m in e.modes]
    return entry_shape(e.ability, modes, _lists(e.targets), e.divide)


def _lists(targets: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    return {k: list(v) for k, v in targets.items()}


def outcome_json(outcome: Outcome) -> str:
    """Compact canonical JSON, keys sorted: byte-identical for equal canonical outcomes."""
    return compact(outcome_dict(outcome))
