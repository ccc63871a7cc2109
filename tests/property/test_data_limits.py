"""Every document door's limits (docs/cli.md, "Limits") are judged by two walks: a fast one that only
says whether a document is within them (``_within``), and the walk that names the place of the first
thing that is not (``_named_place``, run only when the fast one says no). A document the fast walk
passes is never looked at again, so the two must give one verdict on any Python data — a reward
builds its score in Python and may put anything in it.

Private unit: model/_io.py's two walks, beside the door (``check_data``) that runs them."""

from __future__ import annotations

import enum
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from triggerstack.model._errors import ScenarioError
from triggerstack.model._io import _Cycle, _named_place, _within, check_data, parse_json_line
from triggerstack.model._limits import Limits


class _Word(str):
    """A subclass of text, as an id type or an enum's value may be."""


class _Count(enum.IntEnum):
    ONE = 1
    HUGE = 10**12


_GOOD = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**8), max_value=10**8),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e8, max_value=1e8),
    st.text(max_size=4),
)
_ODD = st.one_of(  # each may refuse the whole document, so drawn one time in twenty
    st.sampled_from([10**6, -(10**6), 999_999, -999_999, _Count.ONE, _Count.HUGE]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["\ud800", "é\udfff", "caf\u00e9", _Word("w"), _Word("\udc80")]),
    st.sampled_from([b"bytes", frozenset({1}), {2}, object(), 1j]),
)
_LEAVES = st.one_of(*[_GOOD] * 19, _ODD)
_KEYS = st.one_of(  # mostly text: a key that is none refuses its whole mapping, whatever else it holds
    st.text(max_size=3), st.text(max_size=3), st.text(max_size=3), st.sampled_from(["\ud83d", _Word("k"), 1, None, 2.5, ("t",)])
)


def _data() -> st.SearchStrategy[Any]:
    return st.recursive(
        _LEAVES,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=4).map(tuple),
            st.dictionaries(_KEYS, inner, max_size=4),
            st.dictionaries(_KEYS, inner, min_size=1, max_size=4),  # the keys are values too: often
        ),
        max_leaves=24,
    )


def _named(doc: Any, limits: Limits, written: bool) -> bool:
    """The naming walk's verdict: True when it finds nothing to refuse."""
    try:
        _named_place(doc, None, limits, written)
    except (ScenarioError, _Cycle):
        return False
    return True


def _size(doc: Any) -> tuple[int, int]:
    """The values of ``doc`` (a mapping's keys too: each is one, as the limit counts them) and its
    depth, counted here by recursion (the generated data holds no cycle)."""
    if isinstance(doc, dict):
        inner = [_size(v) for v in doc.values()]
        return 1 + len(doc) + sum(n for n, _ in inner), 1 + max((d for _, d in inner), default=-1) if doc else 0
    if isinstance(doc, list | tuple):
        inner = [_size(v) for v in doc]
        return 1 + sum(n for n, _ in inner), 1 + max((d for _, d in inner), default=-1) if doc else 0
    return 1, 0


@given(
    _data(),
    st.integers(min_value=-1, max_value=1),
    st.integers(min_value=-1, max_value=1),
    st.sampled_from([3, 6, 9, 9]),  # an integer past 3 or 6 digits is drawn often, past 9 only among the odd
    st.booleans(),
)
def test_the_fast_walk_and_the_naming_walk_give_one_verdict(
    doc: Any, off_values: int, off_depth: int, digits: int, written: bool
) -> None:
    """At the document's own count of values and depth, one under and one over: each cap's edge."""
    values, depth = _size(doc)
    limits = Limits(values=max(values + off_values, 1), depth=max(depth + off_depth, 0), digits=digits)
    assert _within(doc, limits, written) == _named(doc, limits, written), (doc, limits)


@given(_data())
def test_a_document_within_the_limits_is_given_back_and_one_past_them_is_refused_naming_a_place(doc: Any) -> None:
    limits = Limits(values=20, depth=3, digits=6)
    if _named(doc, limits, False):
        assert check_data(doc, None, limits) is doc
    else:
        try:
            check_data(doc, None, limits)
        except ScenarioError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"check_data passed {doc!r}, which the naming walk refuses")


def test_the_walks_agree_on_what_the_readers_give() -> None:
    """The numbers a JSON line holds past the floats and the digits, read by the line reader (which
    keeps them with their text), as each walk sees them, with and without ``written``."""
    limits = Limits(digits=4)
    for text in ('{"a": 1e400}', '{"a": NaN}', '{"a": 123456789}', '{"a": 12.5}', '[1, 2, 3]'):
        doc = parse_json_line(text, limits, checked=False)
        for written in (False, True):
            assert _within(doc, limits, written) == _named(doc, limits, written), (text, written)


def test_a_list_that_holds_itself_is_refused_by_both() -> None:
    loop: list[Any] = [1]
    loop.append(loop)
    assert not _within(loop, Limits(values=50), False)
    assert not _named(loop, Limits(values=50), False)
