"""Every problem of a document at once, each in the format's words (docs/formats.md, "Errors").

pydantic reports what is wrong with a document as Python sees it ("Input should be a valid tuple",
"missing field" beside an unknown one that is the same key misspelt). :func:`problems` turns its
errors into :class:`~._errors.ScenarioError` s a reader of our formats understands: each names its
place, what was found there and what the format expects (a list, text, a whole number, one of the
named values …), an unknown key beside a missing one becomes one problem with "did you mean", and
of the branches pydantic tried for one place (a filter's ``controller`` is a player or a
``target_of``) only the deepest is kept. At most :data:`MAX_PROBLEMS` are reported; the last says
how many more there are.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from copy import deepcopy
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from ._errors import ScenarioError, shown_key
from ._limits import NO_DEADLINE
from ._rules import Rule
from ._text import found as found
from ._text import typed

MAX_PROBLEMS = 20
"""The most problems of one document reported (docs/formats.md, "Errors"); past it, the last line
says how many more there are."""

Loc = tuple[str | int, ...]

_UNION_TAG_PREFIXES = ("function-", "literal[", "list[", "tuple[", "dict[", "union[", "json-or-python")
_UNION_TAGS = frozenset({"str", "int", "bool", "float", "dict", "list", "tuple", "none", "is-instance"})

_EXPECTED = {
    "dict_type": "a mapping (key: value pairs)",
    "model_type": "a mapping (key: value pairs)",
    "model_attributes_type": "a mapping (key: value pairs)",
    "tuple_type": "a list",
    "list_type": "a list",
    "set_type": "a list",
    "frozen_set_type": "a list",
    "string_type": "text",
    "str_type": "text",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
}


SUGGEST_LONGEST = 200
"""A word longer than this gets no suggestion (no key or card name is nearly so long; comparing
costs the product of the lengths)."""


def suggest(word: str, choices: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The choice closest to ``word`` (a misspelt key or name), if one is close enough. Only choices
    whose length allows the cutoff are compared (difflib's ratio 2M/(a+b) is at most 2·min/(a+b))."""
    if len(word) > SUGGEST_LONGEST or cutoff <= 0:
        return None
    a = len(word)
    low, high = a * cutoff / (2 - cutoff), a * (2 - cutoff) / cutoff
    near = sorted({c for c in choices if low <= len(c) <= high})
    close = difflib.get_close_matches(word, near, n=1, cutoff=cutoff)
    return close[0] if close else None


def _is_union_tag(part: str | int, names: frozenset[str]) -> bool:
    return isinstance(part, str) and (part in _UNION_TAGS or part in names or part.startswith(_UNION_TAG_PREFIXES))


def _message(err: Mapping[str, Any], loc: Loc, expected_root: str) -> str:
    kind = err["type"]
    ctx: Mapping[str, Any] = err.get("ctx") or {}
    value = err.get("input")
    if kind in _EXPECTED:
        if not loc and value is None:
            return f"the document is empty: expected {expected_root}"
        what = expected_root if not loc and kind.startswith(("dict", "model")) else _EXPECTED[kind]
        return f"expected {what}, found {found(value)}"
    if kind == "too_short":
        least = ctx.get("min_length", 1)
        return f"expected at least {least} item{'s' if least != 1 else ''}, found {found(value)}"
    if kind == "too_long":
        most = ctx.get("max_length")
        return f"expected at most {most} item{'s' if most != 1 else ''}, found {ctx.get('actual_length')}"
    if kind in ("string_too_short", "string_too_long", "string_pattern_mismatch"):
        return f"{_reworded(err['msg'])}, found {found(value)}"
    if kind in ("greater_than", "greater_than_equal", "less_than", "less_than_equal"):
        return f"{_reworded(err['msg'])}, found {found(value)}"
    if kind in ("literal_error", "enum"):
        text = f"{_reworded(err['msg'])}, found {found(value)}"
        named = re.findall(r"'([^']*)'", str(ctx.get("expected", "")))
        guess = suggest(value, named) if isinstance(value, str) else None
        return f"{text}: did you mean {typed(guess)}?" if guess else text
    message = str(err["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    return _reworded(message)


def _reworded(message: str) -> str:
    """pydantic's phrasing in the format's words."""
    for old, new in (
        ("Input should be ", "expected "),
        ("String should have at least ", "expected text of at least "),
        ("String should have at most ", "expected text of at most "),
        ("String should match pattern ", "expected text matching the pattern "),
        ("greater than or equal to ", "at least "),
        ("less than or equal to ", "at most "),
        ("a valid tuple", "a list"),
        ("a valid list", "a list"),
        ("a valid dictionary", "a mapping (key: value pairs)"),
        ("a valid string", "text"),
        ("a valid integer", "a whole number"),
        ("a valid boolean", "true or false"),
    ):
        message = message.replace(old, new)
    return message


def problems(
    exc: ValidationError,
    names: frozenset[str],
    root: type[BaseModel],
    expected_root: str,
    source: str | None = None,
) -> list[ScenarioError]:
    """Every problem ``exc`` reports, in the document's order (see the module): ``names`` are the
    shape models' names (pydantic writes them into the places of union branches), ``root`` the
    document's model (its fields say what a misspelt key may have meant where no key is missing
    beside it), ``expected_root`` what the whole document should be ("a scenario …")."""
    # One place tried in several union branches: keep the deepest of them (the one the author got
    # wrong, not the branch pydantic tried last).
    chosen: dict[Loc, tuple[Loc, Mapping[str, Any]]] = {}
    order: list[Loc] = []
    for n, err in enumerate(exc.errors()):
        if n % 4096 == 4095:  # a request's time limit holds while its document's problems are read
            NO_DEADLINE.check("reading the document's problems")
        raw: Loc = tuple(err["loc"])
        cut = next((i for i, p in enumerate(raw) if _is_union_tag(p, names)), len(raw))
        group = raw[:cut] if cut < len(raw) else raw
        loc = tuple(p for p in raw if not _is_union_tag(p, names))
        if err["type"] == "reference":
            for problem in err["ctx"]["problems"]:
                key = (*loc, *problem[0], "#reference", len(order))
                chosen[key] = ((*loc, *problem[0]), {"type": "reference", "problem": problem})
                order.append(key)
            continue
        if group not in chosen:
            order.append(group)
        elif len(loc) <= len(chosen[group][0]):
            continue
        chosen[group] = (loc, err)

    kept = [chosen[key] for key in order]
    inner = [loc for loc, _ in kept]
    kept = [  # "too short" where items were dropped for their own problems: those problems say it
        (loc, err)
        for loc, err in kept
        if not (err["type"] == "too_short" and any(len(o) > len(loc) and o[: len(loc)] == loc for o in inner))
    ]
    meant = _misspelt(kept)
    spelled = {(*loc[:-1], guess) for loc, guess in meant.items()}

    out: list[ScenarioError] = []
    for loc, said in kept:
        if said["type"] == "reference":
            _, message, rule = said["problem"]
            out.append(ScenarioError(message, loc, Rule(rule) if rule else None, source))
            continue
        if said["type"] == "missing":
            if loc in spelled:
                continue  # said with the unknown key that misspells it
            missing = f"missing field {typed(str(loc[-1]))}" if loc else "missing field"
            out.append(ScenarioError(missing, loc, source=source))
            continue
        if said["type"] == "extra_forbidden":
            name = str(loc[-1]) if loc else ""
            guess = meant.get(loc)
            if guess is not None:
                meant_one = typed(guess)
                text = f"unknown field {typed(shown_key(name))}: did you mean {meant_one}? ({meant_one} is missing)"
            else:  # past the problems shown, no suggestion is looked for: nobody reads it
                close = _closest_key(loc, root) if len(out) < MAX_PROBLEMS else None
                text = f"unknown field {typed(shown_key(name))}" + (
                    f": did you mean {typed(close)}?" if close and close != name else ""
                )
            out.append(ScenarioError(text, loc, source=source))
            continue
        out.append(ScenarioError(_message(said, loc, expected_root), loc, source=source))
    return out


def _closest_key(loc: Loc, root: type[BaseModel]) -> str | None:
    """The key allowed where the unknown key at ``loc`` stands that it most likely misspells."""
    return suggest(str(loc[-1]), fields_at(root, loc[:-1]), cutoff=0.7)


def _misspelt(kept: Sequence[tuple[Loc, Mapping[str, Any]]]) -> dict[Loc, str]:
    """Each unknown key's place → the key missing beside it that it misspells."""
    missing: dict[Loc, list[str]] = {}
    for loc, err in kept:
        if err["type"] == "missing" and loc:
            missing.setdefault(loc[:-1], []).append(str(loc[-1]))
    meant: dict[Loc, str] = {}
    unknown = 0
    for loc, err in kept:
        if err["type"] == "extra_forbidden" and loc:
            unknown += 1
            if unknown > MAX_PROBLEMS:
                break  # past the problems shown: nobody reads the suggestion
            guess = suggest(str(loc[-1]), [m for m in missing.get(loc[:-1], []) if m not in meant.values()])
            if guess is not None:
                meant[loc] = guess
    return meant


def repaired(data: Any, exc: ValidationError, names: frozenset[str], root: type[BaseModel]) -> Any | None:
    """``data`` with each unknown key renamed to the key it misspells (the missing key beside it,
    else the closest key ``root`` allows there that the mapping lacks), or dropped — to look for
    the problems past them (those a document's cross-references would show once its shape is
    right) — or ``None`` when it has no unknown key."""
    kept = [
        (tuple(p for p in err["loc"] if not _is_union_tag(p, names)), err)
        for err in exc.errors()
        if err["type"] in ("extra_forbidden", "missing")
    ]
    unknown = [loc for loc, err in kept if err["type"] == "extra_forbidden" and loc]
    if not unknown:
        return None
    meant = _misspelt(kept)
    copy = deepcopy(data)
    for n, loc in enumerate(unknown):
        holder: Any = copy
        try:
            for part in loc[:-1]:
                holder = holder[part]
            value = holder.pop(loc[-1])
        except (KeyError, IndexError, TypeError, AttributeError):
            continue
        guess = meant.get(loc) or (_closest_key(loc, root) if n < MAX_PROBLEMS else None)
        if guess is not None and isinstance(holder, dict) and guess not in holder:
            holder[guess] = value
    return copy


def _models_in(annotation: Any) -> Iterator[type[BaseModel]]:
    """The models a field's type holds (through unions, lists, tuples and mappings)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
        return
    for arg in get_args(annotation):
        yield from _models_in(arg)


def fields_at(root: type[BaseModel], loc: Loc) -> set[str]:
    """The keys a mapping at ``loc`` of a ``root`` document may have (each model that may stand
    there: a union's branches all count), by their names in the document."""
    models = {root}
    for part in loc:
        if isinstance(part, int):
            continue
        following: set[type[BaseModel]] = set()
        for model in models:
            for name, info in model.model_fields.items():
                if part in (name, info.alias):
                    following.update(_models_in(info.annotation))
        if not following:  # a mapping's key (an ability's id in a score …): the value's models
            following = models
        models = following
    return {info.alias or name for model in models for name, info in model.model_fields.items()}
