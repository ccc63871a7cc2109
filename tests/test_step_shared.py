"""What a new board's stepper no longer builds for itself (issue 53: what a board drawn anew costs
the process playing it), held to the path it replaces:

* a decision is one object per process for each id and meaning (``_decision.made``), shared by
  every stepper that makes it: every decision a stepper gives — by id, by readable form, and offered
  at every point of random walks — equals, field for field, the decision built from its meaning, and
  the walks offer and reach what a stepper building each decision itself offers and reaches; also
  when the table starts afresh mid-walk (a table of a few entries), on boards of two to four players
  of both pools; and the id a stepper gives each decision it makes as a walk first meets it (a put,
  a removal, a thing's target worked out in ``Stepper._add`` itself) is the one ``_layout_id`` gives
  its meaning, for every token of every pass random walks reach, laid out in a layout given and in
  the board's own smallest;
* a pass's columns (``Stepper.columns``: each ability's slot, each thing's slot or its ability's
  past the layout's things), asked of the stepper's tables at once, are what ``ability_slot`` and
  ``thing_slot`` give each, in every pass random walks reach, reactions' passes too;
* a finished walk's outcome line (``Stepper.outcome_line``) is ``outcome_json`` of its outcome where
  the line of an entry naming its ability alone, and that of the removed abilities' ids, are kept
  per process (``_core/indexed._PLAIN``, ``ids_json``), for boards of both pools one after another, also with a table of
  three lines starting afresh;
* compiled facts read back (a board drawn in a worker process arrives so) set each object's fields
  in code made for its class (``model/_slots._setter``): every object read back — its type, each
  field, a read-only mapping read-only again, the solvers' ``memo`` a new empty dict, a scenario
  sent later left unread — is what the loop over its setters it replaced (``_slots.LOOPED``) reads
  back, on boards of two to four players of both pools, with reactions (read back at once) and
  without (sent later); each empty set sent as one object, the things and each ability's sets read
  back equal to those compiled;
* an ``ActionLayout`` made of plain integers is checked without looping over its fields by name,
  and ``fits`` compares each capacity by name: both hold to the field-by-field check they replace,
  over generated capacities of every type a caller may give (whole numbers, negatives, booleans,
  floats, integer subclasses); read back (it travels with a board's first rows) it is the layout
  sent, one object per capacities, and a forged one is refused as building it is;
* the small values many boards hold equal — each ability's control, each block of 603.3b, each
  target filter (``model/_slots.interned``) — read back as the objects pickled the usual way read
  back (type, fields, a filter's fields given), and as one object per process for equal values:
  boards read back twice share them, and with the table starting afresh every few values they are
  still read back equal;
* a board read back from a worker process arrives laid out (``_verbs/step/_travel.py``): its
  stepper is, attribute by attribute, the one its constructor lays out of the facts that arrive,
  its walks offer and reach what that one's do (reactions' passes too), an environment playing the
  boards lays none out again, and a stepper of other options than the default is laid out anew;
  a stepper handed over with its facts is taken once, by equal options and layout alone
  (``Stepper.taken``: compared, no longer hashed).

Private unit: the process's table of made decisions (solver/_verbs/step/_decision ``made``, ``MADE``)
and where the stepper takes them (solver/_verbs/step/_walk); the lines of entries kept per process
(solver/_core/indexed ``MAX_KEPT_ENTRIES``); how compiled facts are read back
(model/_slots ``LOOPED``, ``unread``, ``MOST_INTERNED``).
"""

from __future__ import annotations

import pickle
import random
from dataclasses import astuple, fields, is_dataclass
from enum import IntEnum
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.model import _slots
from triggerstack.model._apnap import Block
from triggerstack.model._controllers import Control
from triggerstack.model._facts import Facts, compile_facts
from triggerstack.model._outcome import outcome_json
from triggerstack.model._shapes import Filter
from triggerstack.solver import ActionLayout, Stepper, rl
from triggerstack.solver._boards._board import Board
from triggerstack.solver._boards._draw import draw
from triggerstack.solver._core import indexed
from triggerstack.solver._options import Options
from triggerstack.solver._verbs.step import _decision, _walk
from triggerstack.solver._verbs.step._decision import Decision, spell

from .cards_extra import board_pools

POOLS = board_pools()
NAMES = tuple(f.name for f in fields(ActionLayout))


def _built(d: Decision) -> Decision:
    """The decision built from its meaning, as a stepper built each before the table."""
    return Decision(d.id, d.kind, spell(d.key), d.subject, d.mode, d.amount)


def _same(d: Decision) -> bool:
    built = _built(d)
    return type(d) is Decision and astuple(d) == astuple(built) and d == built and str(d) == str(built)


def _walks(stepper: Stepper, seed: int, n: int) -> list[tuple[list[tuple[tuple[int, str], ...]], str]]:
    """``n`` random walks: the decisions offered at each point (ids and texts) and the outcome."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        walk, offered = stepper.start(), []
        while legal := stepper.legal(walk):
            assert all(_same(d) for d in legal)
            offered.append(tuple((d.id, d.text) for d in legal))
            walk = stepper.apply_unchecked(walk, rng.choice(legal).id)
        out.append((offered, stepper.outcome_line(walk)))
    return out


@pytest.mark.parametrize("cards", POOLS)
@pytest.mark.parametrize("kept", [_decision.MADE, 5])
def test_a_decision_made_once_per_process_is_the_one_its_meaning_builds(
    cards: bool, kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_decision, "MADE", kept)  # 5: the table starts afresh many times a walk
    layout = ActionLayout(abilities=12, things=24, modes=4, divide=6, passes=3, players=4)
    boards = 0
    for board in draw(64, 300, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards, layout=layout):
        boards += 1
        stepper = Stepper(compile_facts(board.scenario), layout=layout)
        walks = _walks(stepper, boards, 3)
        with monkeypatch.context() as plain:  # each decision built by the stepper that makes it
            plain.setattr(_walk, "made", lambda i, key: Decision(i, key[0], spell(key), key[1], key[2], key[3]))
            assert _walks(Stepper(compile_facts(board.scenario), layout=layout), boards, 3) == walks
        for i in range(layout.size):  # every id, and the readable form of each the board has
            try:
                d = stepper.decision(i)
            except Exception:  # an empty slot: refused, as the plain path refuses it
                continue
            assert _same(d) and stepper.decision(d.text) == d
    assert boards == 300


@pytest.mark.parametrize("cards", POOLS)
def test_a_decision_made_as_a_walk_meets_it_has_its_layout_id(cards: bool) -> None:
    layout = ActionLayout(abilities=12, things=24, modes=4, divide=6, passes=3, players=4)
    tokens = 0
    for n, board in enumerate(
        draw(67, 150, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards, layout=layout)
    ):
        for laid in (layout, None):
            stepper, rng = Stepper(compile_facts(board.scenario), layout=laid), random.Random(n)
            walk, seen = stepper.start(), {}
            while legal := stepper.legal(walk):
                assert walk.facts is not None
                seen[id(walk.facts)] = walk.facts
                walk = stepper.apply_unchecked(walk, rng.choice(legal).id)
            for facts in seen.values():
                local = stepper.pass_stepper(facts)
                for t in range(len(local.decisions)):  # every token, made now where the walk did not meet it
                    d = local.decisions[t]
                    tokens += 1
                    assert d.id == stepper._layout_id(d.key) and d.key == local._keys()[t] and _same(d)
                    assert stepper.decision(d.id) is d and stepper.decision(d.text) is d
    assert tokens > 5000


def test_steppers_of_two_boards_share_their_decisions() -> None:
    """The point of the table: a board naming its abilities and things as an earlier one did takes
    the earlier one's decision objects."""
    layout = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
    made: dict[tuple[object, ...], Decision] = {}
    shared = 0
    for board in draw(5, 20, players=2, abilities=(2, 6), cards=False, layout=layout):
        stepper = Stepper(compile_facts(board.scenario), layout=layout)
        for i in range(layout.size):
            try:
                d = stepper.decision(i)
            except Exception:  # an empty slot
                continue
            key = (d.id, *d.key)
            if key in made:  # an earlier board's decision of this id and meaning: the same object
                assert made[key] is d
                shared += 1
            made[key] = d
    assert shared > 20


class _Small(IntEnum):
    TWO = 2


def _checked(values: dict[str, Any]) -> bool:
    """Whether the field-by-field check the fast one replaced accepts ``values``."""
    for name in NAMES:
        value = values[name]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return False
    passes, players, things = (int(values[n]) for n in ("passes", "players", "things"))
    return passes >= 1 and players >= 1 and players <= things


capacity = st.one_of(st.integers(-3, 40), st.booleans(), st.floats(-1, 5), st.just(_Small.TWO), st.just("3"), st.none())


@settings(max_examples=400)
@given(values=st.fixed_dictionaries({name: capacity for name in NAMES}))
def test_a_layout_is_refused_exactly_as_field_by_field(values: dict[str, Any]) -> None:
    try:
        made = ActionLayout(**values)
    except ValueError:
        assert not _checked(values)
    else:
        assert _checked(values) and astuple(made) == tuple(values[n] for n in NAMES)


@settings(max_examples=400)
@given(a=st.tuples(*[st.integers(1, 6)] * len(NAMES)), b=st.tuples(*[st.integers(1, 6)] * len(NAMES)))
def test_fits_is_every_capacity_compared(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    one = ActionLayout(**dict(zip(NAMES, a, strict=True))) if a[5] <= a[1] else None
    two = ActionLayout(**dict(zip(NAMES, b, strict=True))) if b[5] <= b[1] else None
    if one is None or two is None:
        return
    assert one.fits(two) == all(getattr(two, n) <= getattr(one, n) for n in NAMES)


@settings(max_examples=200)
@given(values=st.fixed_dictionaries({name: capacity for name in NAMES}))
def test_a_layout_read_back_is_the_layout_sent(values: dict[str, Any]) -> None:
    """A layout travels with a board's first rows: read back it equals the one sent, field for field
    (the same object for the same capacities), and capacities a layout refuses are refused read back."""
    try:
        sent = ActionLayout(**values)
    except ValueError:
        data = pickle.dumps(ActionLayout(1, 2), 2)  # its capacities 1 2 1 0 1 2, forged to 1 things
        forged = data.replace(b"(K\x01K\x02K\x01", b"(K\x01K\x01K\x01")
        assert forged != data
        with pytest.raises(ValueError):
            pickle.loads(forged)
        return
    one, two = (pickle.loads(pickle.dumps(sent, protocol)) for protocol in (2, pickle.HIGHEST_PROTOCOL))
    assert one == sent and astuple(one) == astuple(sent) and type(one) is ActionLayout and one is two


def _fields(obj: object) -> list[tuple[str, object]]:
    """An object's fields as read back: each set slot's value, an unset one as such."""
    unset = object()
    return [(f.name, getattr(obj, f.name, unset) if f.name != "scenario" else "unread") for f in fields(obj)]  # type: ignore[arg-type]


def _same_read(one: object, two: object, path: str = "facts") -> None:
    """``one`` and ``two`` read back alike: types, fields, mappings read-only or not, recursively."""
    assert type(one) is type(two), path
    if isinstance(one, MappingProxyType | dict):
        assert isinstance(two, MappingProxyType | dict) and one.keys() == two.keys(), path
        for k in one:
            _same_read(one[k], two[k], f"{path}[{k!r}]")
    elif isinstance(one, tuple | list) and not is_dataclass(one):
        assert len(one) == len(two), path  # type: ignore[arg-type]
        for i, (a, b) in enumerate(zip(one, two, strict=True)):  # type: ignore[call-overload]
            _same_read(a, b, f"{path}[{i}]")
    elif is_dataclass(one) and type(one) in _slots.LOOPED:
        for (name, a), (_, b) in zip(_fields(one), _fields(two), strict=True):
            _same_read(a, b, f"{path}.{name}")
    else:
        assert one == two, path


@pytest.mark.parametrize("cards", POOLS)
def test_facts_read_back_by_made_code_are_what_the_loop_reads_back(
    cards: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = [
        compile_facts(b.scenario) for b in draw(65, 400, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards)
    ]
    sent = [pickle.dumps(facts, pickle.HIGHEST_PROTOCOL) for facts in compiled]
    made = [pickle.loads(data) for data in sent]
    sets = ("choose", "waiting_targets", "precedable_targets", "earlier_targets")
    for one, facts in zip(made, compiled, strict=True):  # empty sets sent as one object, read back as empty sets
        assert one.things == facts.things and all(
            type(a) is type(b) for a, b in zip(one.things, facts.things, strict=True)
        )
        for a, b in zip(one.abilities, facts.abilities, strict=True):
            assert all(getattr(a, n) == getattr(b, n) and type(getattr(a, n)) is frozenset for n in sets)
    with monkeypatch.context() as looped:
        for cls, setstate in _slots.LOOPED.items():
            looped.setattr(cls, "__setstate__", setstate)
        reference = [pickle.loads(data) for data in sent]
    later = 0
    for one, two in zip(made, reference, strict=True):
        _same_read(one, two)
        assert _slots.unread(one, "scenario") == _slots.unread(two, "scenario")
        later += _slots.unread(one, "scenario")
        assert dict(one.memo) == dict(two.memo)
        assert one.scenario == two.scenario  # read when asked for, alike
    assert 0 < later < len(sent)  # some boards have reactions (a ward), most do not


@pytest.mark.parametrize("cards", POOLS)
def test_a_pass_s_columns_are_each_ability_s_and_thing_s_slot(cards: bool) -> None:
    passes = 0
    for n, board in enumerate(draw(66, 200, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards)):
        stepper, rng = Stepper(compile_facts(board.scenario)), random.Random(n)
        for _ in range(3):
            walk = stepper.start()
            seen = [walk.facts]
            while legal := stepper.legal(walk):
                walk = stepper.apply_unchecked(walk, rng.choice(legal).id)
                seen.append(walk.facts)
            for facts in {id(f): f for f in seen if f is not None}.values():
                passes += 1
                slots = tuple(stepper.ability_slot(a.id) for a in facts.abilities)
                things = tuple(
                    t if (t := stepper.thing_slot(x.id)) is not None else 24 + stepper.ability_slot(x.id)
                    for x in facts.things
                )
                assert stepper.columns(facts, 24) == (slots, things)
    assert passes > 200  # the first passes, and reactions' (a ward's)


@pytest.mark.parametrize("cards", POOLS)
@pytest.mark.parametrize("kept", [indexed.MAX_KEPT_ENTRIES, 3])
def test_a_walk_s_outcome_line_is_its_outcome_s_json(cards: bool, kept: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(indexed, "MAX_KEPT_ENTRIES", kept)
    plain = 0
    for n, board in enumerate(draw(67, 300, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards)):
        stepper, rng = Stepper(compile_facts(board.scenario)), random.Random(n)
        for _ in range(3):
            walk = stepper.start()
            while legal := stepper.legal(walk):
                walk = stepper.apply_unchecked(walk, rng.choice(legal).id)
            outcome = stepper.outcome(walk)
            assert stepper.outcome_line(walk) == outcome_json(outcome)
            plain += sum(1 for e in outcome.stack if not e.targets and not e.modes)
    assert plain > 1000


def _values(facts: Facts) -> list[object]:
    """The interned values of a board's facts: its abilities' controls, its blocks, its filters."""
    filters = [r.filter for a in facts.abilities for m in a.modes for r in m.requirements]
    return [*(a.control for a in facts.abilities), *facts.blocks, *filters]


def _alike(one: object, two: object) -> bool:
    if isinstance(one, Filter):
        return type(two) is Filter and one == two and one.model_fields_set == two.model_fields_set
    return type(one) is type(two) and astuple(one) == astuple(two)  # type: ignore[call-overload]


@pytest.mark.parametrize("cards", POOLS)
@pytest.mark.parametrize("kept", [_slots.MOST_INTERNED, 3])
def test_values_boards_share_read_back_as_one_object(cards: bool, kept: int, monkeypatch: pytest.MonkeyPatch) -> None:
    whole = kept == _slots.MOST_INTERNED
    monkeypatch.setattr(_slots, "MOST_INTERNED", kept)
    monkeypatch.setattr(_slots, "_interned", {})
    boards = draw(66, 120, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards)
    sent = [pickle.dumps(compile_facts(b.scenario), pickle.HIGHEST_PROTOCOL) for b in boards]
    first, again = ([_values(pickle.loads(data)) for data in sent] for _ in range(2))
    with monkeypatch.context() as usual:  # each pickled as it was before: its class and state, built anew
        for cls in (Control, Block, Filter):
            usual.setattr(cls, "__reduce__", object.__reduce__)
        reference = [_values(pickle.loads(data)) for data in sent]
    shared = 0
    for one, two, three in zip(first, again, reference, strict=True):
        assert len(one) == len(two) == len(three) and all(map(_alike, one, three)) and all(map(_alike, two, three))
        shared += sum(a is b for a, b in zip(one, two, strict=True))
    values = sum(map(len, first))
    assert shared == values if whole else shared < values  # the table of this test (monkeypatched), whole or not


def _passes_alike(one: Any, two: Any) -> bool:
    return all(getattr(one, n) == getattr(two, n) for n in ("next_pass", "max_passes", "max_compiled"))


@pytest.mark.parametrize("cards", POOLS)
def test_a_board_read_back_arrives_laid_out(cards: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    layout = ActionLayout(abilities=10, things=20, modes=4, divide=6, passes=3, players=4)
    boards = list(draw(67, 80, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards, layout=layout))
    arrived: list[Board] = [pickle.loads(pickle.dumps(b, pickle.HIGHEST_PROTOCOL)) for b in boards]
    for k, board in enumerate(arrived):
        assert board.compiled is not None
        facts, stepper = board.compiled
        assert stepper is not None and stepper.facts is facts and stepper.passes.first is facts
        built = Stepper(facts, Options(), layout)
        assert vars(stepper).keys() == vars(built).keys()
        for name, value in vars(built).items():
            if name not in ("facts", "passes"):
                assert vars(stepper)[name] == value and type(vars(stepper)[name]) is type(value), name
        assert _passes_alike(stepper.passes, built.passes)
        assert _walks(stepper, k, 3) == _walks(built, k, 3)
    other = Stepper(arrived[0].compiled[0], Options(time_limit=5), layout)  # type: ignore[index]
    sent = Board(**{**vars(boards[0]), "compiled": (boards[0].compiled[0], other)})  # type: ignore[index]
    assert pickle.loads(pickle.dumps(sent, pickle.HIGHEST_PROTOCOL)).compiled[1] is None  # laid out where it is played
    played = [pickle.loads(pickle.dumps(b, pickle.HIGHEST_PROTOCOL)) for b in boards]
    stream = rl.boards(67, None, layout=layout, players=(2, 4))
    monkeypatch.setattr(stream, "board", lambda: played.pop(0))
    env = rl.raw_env(stream, layout=layout)
    laid = 0
    real = Stepper.__init__

    def counted(self: Stepper, *args: Any, **kwargs: Any) -> None:
        nonlocal laid
        laid += 1
        real(self, *args, **kwargs)

    monkeypatch.setattr(Stepper, "__init__", counted)
    for _ in range(len(boards)):
        env.reset()
    assert laid == 0


def test_a_stepper_handed_over_is_taken_once_for_its_options_and_layout() -> None:
    layout = ActionLayout(abilities=8, things=16, modes=4, divide=6, passes=2, players=2)
    board = next(draw(68, 1, layout=layout, cards=False))
    assert board.compiled is not None
    facts, stepper = board.compiled
    assert stepper is not None
    stepper.hand_over()
    assert Stepper.taken(facts, Options(time_limit=5), layout) is None  # other options: laid out anew, left
    assert Stepper.taken(facts, Options(), ActionLayout(9, 16, 4, 6, 2, 2)) is None  # another layout
    assert Stepper.taken(facts, Options(), ActionLayout(8, 16, 4, 6, 2, 2)) is stepper  # equal ones, not the same
    assert Stepper.taken(facts, Options(), layout) is None  # once
