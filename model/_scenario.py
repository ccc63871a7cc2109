"""The scenario (docs/formats.md, Scenario): :class:`Scenario`, ``Scenario.load`` and one-line validation errors.

The shapes live in :mod:`._shapes`; a :class:`Scenario` adds the cross-reference checks (ids,
sources, ``different_from``, ``target_of``, ``must_target``, reactions, and controllers that agree
with 603.3a), run once the shapes are valid. Each error names its place
(``triggers[3].modes[1].targets[0].filter.type``).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from functools import cache
from types import UnionType
from typing import Any, Self, TypeVar, Union, cast, get_args, get_origin

from pydantic import BaseModel, PrivateAttr, ValidationError, ValidationInfo, model_validator
from pydantic_core import PydanticCustomError, to_jsonable_python

from ._controllers import Control
from ._errors import MissingExtra, ScenarioError
from ._io import check_data, load_document, parse_json_line, utf8
from ._limits import DEFAULT_LIMITS, NO_DEADLINE, Limits
from ._problems import MAX_PROBLEMS, problems, repaired
from ._references import as_reference, check_references
from ._shapes import ScenarioFields, shape_models
from ._text import found


class Built:
    """A model's constructor read as its documents are (``Outcome(stack=[1])``, ``Entry(ability=1)``):
    every problem one :class:`ScenarioError` naming its place in the format's words
    (:func:`validation_error`) — pydantic's ``ValidationError`` escaped the one door of a Python
    caller that :class:`Document` did not route. A keyword holds what a program built (an
    ``Entry`` among a stack's), so it is validated as given, not held to a document's limits."""

    def __init__(self, /, **data: Any) -> None:
        for name, value in data.items():  # pydantic reads a set as a list, in its hashes' order
            if isinstance(value, Set) and _ordered_field(cast("type[BaseModel]", type(self)), name):
                raise ScenarioError(f"expected a list, found {found(value)} (a set has no order of its own)", (name,))
        if (place := _bytes_in(data)) is not None:
            raise ScenarioError(f"expected text, found {found(b'')} (decode it first)", place)
        try:
            BaseModel.__init__(cast(BaseModel, self), **data)
        except ValidationError as exc:
            raise validation_error(exc, None, data, cast("type[BaseModel]", type(self))) from None

    # pydantic's mark of its own constructor: validation (``model_validate``, a model inside another)
    # then builds the model itself, with its context (a later pass's ids), never through this door
    setattr(__init__, "__pydantic_base_init__", True)  # noqa: B010 - pydantic reads it so


def _bytes_in(data: dict[str, Any]) -> tuple[str | int, ...] | None:
    """The place of the first bytes in what a program gave, at any depth of its lists and mappings
    (a model inside was checked when it was built), or None. pydantic's lax reading takes bytes for
    text as UTF-8 (``Entry(ability=b"A")`` was ability "A"); a document cannot hold bytes, and its
    reader refuses them (``check_data``): a keyword is refused alike."""
    todo: list[tuple[tuple[str | int, ...], Any]] = [((name,), value) for name, value in data.items()]
    while todo:
        place, value = todo.pop()
        if isinstance(value, bytes | bytearray | memoryview):
            return place
        if isinstance(value, dict):
            todo.extend(((*place, str(k)), v) for k, v in value.items())
            todo.extend((place, k) for k in value if isinstance(k, bytes | bytearray))
        elif isinstance(value, list | tuple | Set):
            todo.extend(((*place, i), v) for i, v in enumerate(value))
    return None


def _ordered_field(model: type[BaseModel], name: str) -> bool:
    """Whether field ``name`` of ``model`` is a list (a tuple, or one or None): a set given for it
    would be read in its hashes' order. Another field refuses a set in pydantic's own check."""
    field = model.model_fields.get(name)
    kinds = [field.annotation] if field is not None else []
    while kinds:
        kind = kinds.pop()
        if get_origin(kind) in (tuple, list):
            return True
        if get_origin(kind) in (Union, UnionType):
            kinds.extend(get_args(kind))
    return False


class Document(Built):
    """Every pydantic entry point of a document model (:class:`Scenario`, ``Outcome``, ``Score``) read
    as every door reads a document: ``model_validate`` by :func:`read_document`, ``model_validate_json``
    by the JSON reader of files and lines (a number what its text says, no duplicate key, the
    limits) and then ``model_validate``, ``model_validate_strings`` as ``model_validate`` (no text
    taken for a number). pydantic's own would read ``1.0000000000000001`` as 1 and raise its
    ``ValidationError``. tests/test_reader.py fails when pydantic grows an entry point not here."""

    @classmethod
    def model_validate(cls, obj: Any, **options: Any) -> Self:
        return cast(Self, read_document(cast("type[BaseModel]", cls), obj, **options))

    @classmethod
    def model_validate_json(cls, json_data: str | bytes | bytearray, **options: Any) -> Self:
        text = utf8(json_data if isinstance(json_data, str) else bytes(json_data), "")
        return cls.model_validate(parse_json_line(text, DEFAULT_LIMITS, one_line=False), **options)

    @classmethod
    def model_validate_strings(cls, obj: Any, **options: Any) -> Self:
        return cls.model_validate(obj, **options)


class Scenario(Document, ScenarioFields):
    """Players in turn order (the active player first), objects, and the waiting abilities."""

    _controls: tuple[Control, ...] = PrivateAttr(default=())  # 603.3a, derived once while validating
    _facts: Any = PrivateAttr(default=None)  # compiled once by ``facts.facts_of``

    @model_validator(mode="before")
    @classmethod
    def _cards(cls, data: Any, info: ValidationInfo) -> Any:
        """A scenario that names cards, written out in full first (docs/cards.md). A later pass's
        scenario (``model/_passes.py``) is the first pass's written out, its cards read already:
        they are not read again (a board with a ward spent a fifth of its draw there), unless an
        engine's ``next_pass`` hook asks for a card's ability."""
        from .cards._expand import asks_ability, names_cards

        later = bool(info.context and info.context.get("later_pass"))
        if not (asks_ability(data) if later else names_cards(data)):
            return data
        from .cards._expand import expand

        try:
            return expand(data)
        except MissingExtra as exc:
            raise PydanticCustomError("missing_extra", "{message}", {"message": exc.message}) from None
        except ScenarioError as exc:
            raise as_reference(exc.every()) from None

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Self:
        later = bool(info.context and info.context.get("later_pass"))
        self._controls = check_references(self, allow_fired=later)
        return self

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        """pydantic's copy; with ``update``, the scenario its fields and the update's make, read
        as a document is (:meth:`model_validate`: ``ScenarioError`` naming the place). pydantic's
        own took the update unread and kept what was derived from the fields it replaced: the
        facts ``facts_of`` keeps, so ``count`` of a copy with two of the board wipe's triggers
        said 768, the original's count, not 8, and each waiting ability's controller (603.3a)."""
        if not update:
            return super().model_copy(deep=deep)
        fields = type(self).model_fields
        data = self.model_dump(by_alias=True, exclude_unset=True)
        for name, value in update.items():
            field = fields.get(name)
            data[(field.alias or name) if field is not None else name] = to_jsonable_python(value, by_alias=True)
        return type(self).model_validate(data)

    def __getstate__(self) -> dict[Any, Any]:
        """The scenario without the facts ``facts_of`` kept on it: a scenario travels as its fields
        alone, compiled again, once, where it arrives. What sends compiled facts sends them
        itself (a board drawn in a worker process, ``solver/_boards/_board.py``: facts pickle)."""
        state = super().__getstate__()
        private = state.get("__pydantic_private__")
        if private and private.get("_facts") is not None:
            state["__pydantic_private__"] = {**private, "_facts": None}
        return state

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
        return validated(Scenario, data)
    except ScenarioError as exc:
        raise exc.located(source) if source else exc from None
    except ValidationError as exc:
        raise validation_error(exc, source, data) from None


M = TypeVar("M", bound=BaseModel)


def validated(root: type[M], data: Any, **options: Any) -> M:
    """pydantic's validation of ``data`` as ``root``, raising its ``ValidationError``: what the
    readers and the listing of a document's problems use inside. Every door outside reads a
    document through :func:`read_document` (or a reader that ends in :func:`validation_error`)."""
    return cast(M, root.__pydantic_validator__.validate_python(data, **options))


def read_document(root: type[M], data: Any, **options: Any) -> M:
    """A document model's Python door (``Scenario``, ``Outcome`` and ``Score``'s ``model_validate``):
    ``data`` held to what the readers give — JSON's values within the limits (no bytes, no nan) —
    then validated, every problem one :class:`ScenarioError` naming its place in the format's words
    (:func:`validation_error`), as the command line, the servers and batch lines say it."""
    check_data(data)
    try:
        return validated(root, data, **options)
    except ValidationError as exc:
        raise validation_error(exc, None, data, root) from None


_MANY = 1000
"""Past this many problems a document's problems are listed from a cut of it (:func:`_cut`)."""


def _has_long_list(data: Any, keep: int) -> bool:
    """Whether some list of ``data`` has more than ``keep`` items (so :func:`_cut` changes it)."""
    stack = [data]
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            if len(value) > keep:
                return True
            stack.extend(value)
        elif isinstance(value, dict):
            stack.extend(value.values())
    return False


def _cut(data: Any, keep: int) -> Any:
    """``data`` with every list cut to its first ``keep`` items (mappings kept whole): where the
    first problems of a document are, without the millions after them."""
    if isinstance(data, list):
        return [_cut(v, keep) for v in data[:keep]]
    if isinstance(data, dict):
        return {k: _cut(v, keep) for k, v in data.items()}
    return data


_ROOTS = {
    "Scenario": "a scenario: a mapping with players, objects and triggers",
    "Outcome": "a proposal: a mapping with stack and removed",
    "Score": "a score: a mapping with height, mode, target and removed",
}


@cache
def _names() -> frozenset[str]:
    return frozenset(m.__name__ for m in shape_models())


def validation_error(
    exc: ValidationError, source: str | None = None, data: Any = None, root: type[BaseModel] | None = None
) -> ScenarioError:
    """Every problem pydantic found, in the format's words (:mod:`._problems`), as one
    :class:`ScenarioError` holding the others (at most ``MAX_PROBLEMS``). With the ``data`` of the
    document, the problems past its unknown keys: those keys renamed to the keys they misspell (or
    dropped), it is validated once more, and what that finds replaces what the unknown keys
    caused — the cross-references, checked only once the shapes are right, included. ``root``:
    the document's model (a scenario's by default), whose fields say what a misspelt key meant.

    A document with many problems is judged on a cut of it (every list cut to a few items): the
    first problems are the same, and the others are only counted — listing a million problems took
    minutes and gigabytes, for a 3 MB body."""
    root = root or Scenario
    total = exc.error_count()
    if data is not None and total > _MANY and _has_long_list(data, 2 * MAX_PROBLEMS):
        small = _cut(data, 2 * MAX_PROBLEMS)
        try:
            validated(root, small)
        except ValidationError as fewer:
            if fewer.error_count() < total:  # the cut left fewer to list (once: never cut again)
                found = _listed(fewer, source, small, root)
                found.more = max(found.more, total - 1 - len(found.also))
                return found
        except ScenarioError:
            pass
        else:
            return ScenarioError(f"{total} problems past the first items of its lists (shorten them)", source=source)
    return _listed(exc, source, data, root)


def _listed(exc: ValidationError, source: str | None, data: Any, root: type[BaseModel]) -> ScenarioError:
    """:func:`validation_error` of a document whose problems are listed one by one."""
    missing = next((e for e in exc.errors() if e["type"] == "missing_extra"), None)
    if missing is not None:  # naming a card without the extra that reads cards: that alone is said
        return MissingExtra(str((missing.get("ctx") or {}).get("message", missing["msg"])), source=source)
    names = _names()
    expected = _ROOTS.get(exc.title, "a mapping (key: value pairs)")
    found = problems(exc, names, root, expected, source)
    NO_DEADLINE.check("reading the document's problems")  # a request's bound holds here too
    fixed = repaired(data, exc, names, root) if data is not None else None
    NO_DEADLINE.check("reading the document's problems")
    if fixed is not None:  # the unknown keys said, and what the document holds past them
        unknown = [p for p in found if p.message.startswith("unknown field")]
        try:
            validated(root, fixed)
            found = unknown
        except ValidationError as again:
            found = unknown + problems(again, names, root, expected, source)
    return ScenarioError.together(found, MAX_PROBLEMS)
