"""One board of a stream (``_draw.py``): drawn from a generator of its own, seeded by the stream's
key and the board's place alone (:func:`board_rng`), assembled around its event
(``_assemble.py``), built as its scenario (``_built.py``: what validating its document gives, its
cards not read again), laid out in the layout asked for and counted — drawn again while it misses
(too few or too many abilities, too many outcomes, a layout it does not fit).

What was compiled to see that it fits — its facts, and in a layout its stepper — stays with the
board (:attr:`Board.compiled`, never on the scenario: a scenario holding its own facts is a cycle,
left for the garbage collector), for the environment that plays it to take (``Boards.compiled``,
``Stepper.taken``): nothing is built twice for one episode. The facts travel with a board drawn
in a worker process (they pickle, ``model/_facts.py``: compiling them again where the board is
played was a third of what a new board cost the trainer), and so does its stepper, as the few
values its layout worked out (``_verbs/step/_travel.py``), made again there.
"""

from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from triggerstack.model._errors import LayoutOverflow, MissingExtra, ScenarioError, TimeLimitReached, UsageError
from triggerstack.model._facts import Facts, compile_facts
from triggerstack.model._scenario import Scenario
from triggerstack.model.cards._pool import Pool

from .._options import Options
from .._verbs.legal import LegalOutcomes
from .._verbs.step import ActionLayout, Stepper
from .._verbs.step._travel import packed, unpacked
from ._assemble import Drawn, assemble
from ._built import scenario_of

DRAWS = 200
"""Draws that may miss in a row (too few or too many abilities, too many outcomes) before the
sizes asked are refused as out of reach."""
PLAYERS = ("A", "B", "C", "D")
_DOCUMENT = "board:document"
"""Where a board read back keeps its document's pickle until it is first asked for."""
PREPARED = "board:prepared"
"""The key, beside its hook, of what :attr:`Asked.prepare` made of a board, in its facts' ``memo``."""
COUNT_TIME = 10.0
"""Seconds one board's count may take; a board past it is drawn again (none has come near)."""


@dataclass(frozen=True)
class Board:
    """One board: the scenario, the document it was read from (naming its cards), its event
    (``enters``, ``dies``, ``attacks`` or ``cast``), the cards it names, its count, whether it was
    drawn from real cards (``source``: ``cards``) or the generated families (``generated``), and
    the draws it took: ``missed`` drawn again for their number of abilities, ``over`` for their
    outcomes (or a layout they did not fit), ``idle`` because the seat asked for had no choice to
    make on them (``Asked.seat``). ``compiled``: its facts and, drawn to a layout, its
    stepper in it (a board drawn in a worker process arrives with both; its stepper made again
    there, or none where its options were not the default)."""

    scenario: Scenario
    document: dict[str, Any]
    event: str
    cards: tuple[str, ...]
    count: int
    source: str
    missed: int = 0
    over: int = 0
    idle: int = 0
    compiled: tuple[Facts, Stepper | None] | None = field(default=None, compare=False, repr=False)
    prepared: object = field(default=None, compare=False, repr=False)
    """What :attr:`Asked.prepare` made of the board where it was drawn (None: nothing asked)."""

    def __getstate__(self) -> dict[str, Any]:
        """The board with its compiled facts and its stepper as it travels (``_verbs/step/_travel.py``:
        what laying the board out worked out, made again where it arrives; a stepper of options
        other than the default is laid out there anew). Its scenario is its facts' (sent with them,
        and read back when first asked for: ``model/_facts.py``); its document is sent as one byte
        string, read back when first asked for (an environment playing the board never does: it
        was a tenth of reading a board back)."""
        state = dict(self.__dict__)
        if self.compiled is not None:
            facts, stepper = self.compiled
            state["compiled"] = (facts, None if stepper is None else packed(stepper))
            if "scenario" not in state or state["scenario"] is facts.scenario:  # not read yet, or the facts'
                state.pop("scenario", None)
        if "document" in state:
            state[_DOCUMENT] = pickle.dumps(state.pop("document"), pickle.HIGHEST_PROTOCOL)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """The board read back, its stepper made again from what it travelled as (here, where
        ``pickle`` would otherwise look ``__setstate__`` up through :meth:`__getattr__` and fail)."""
        compiled = state.get("compiled")
        if compiled is not None and compiled[1] is not None:
            state["compiled"] = (compiled[0], unpacked(compiled[0], compiled[1]))
        self.__dict__.update(state)

    def __getattr__(self, name: str) -> Any:
        """The scenario of a board read back (its facts'), and its document (only a field not in
        the board's ``__dict__`` is looked up here)."""
        if name == "document" and _DOCUMENT in self.__dict__:
            document = pickle.loads(self.__dict__[_DOCUMENT])
            object.__setattr__(self, "document", document)
            self.__dict__.pop(_DOCUMENT, None)
            return document
        compiled = self.__dict__.get("compiled")
        if name != "scenario" or compiled is None:
            raise AttributeError(name)
        scenario = compiled[0].scenario
        object.__setattr__(self, "scenario", scenario)
        return scenario


def pool_of(cards: bool | None) -> Pool:
    """The card pool (``cards`` True or None with the extra installed), else the generated stand-ins."""
    from ._generated import generated

    if cards is False:
        return generated()
    from triggerstack.model.cards._pool import pool

    try:
        return pool()
    except MissingExtra:
        if cards:
            raise
        return generated()


def board_rng(key: str, index: int) -> random.Random:
    """The generator of board ``index`` of the stream ``key`` (a seed, or a seed and the seed an
    environment's ``reset`` gave: ``"8/123"``): seeded by the two alone (a string seed is hashed by
    SHA-512, the same in every process), so a board does not depend on the boards drawn before it,
    nor on which process drew it."""
    return random.Random(f"triggerstack boards {key} {index}")


@dataclass(frozen=True)
class Asked:
    """What a board is drawn to (picklable: a worker process draws from it)."""

    seats: tuple[int, int]
    sizes: tuple[int, int]
    kinds: tuple[str, ...]
    spare: tuple[int, int]
    max_outcomes: int
    layout: ActionLayout | None
    cards: bool | None
    seat: int | None = None
    """Only boards on which this seat makes the first choice (:func:`makes_the_first_choice`)."""
    prepare: Callable[[Facts, Stepper], object] | None = None
    """What the process playing a board would first build of it, built where the board is drawn
    (a worker process, on another core) from its facts and its stepper in ``layout``, and sent
    with it (:attr:`Board.prepared`; ``Boards.prepare``): a module's function, which pickles by name."""

    def board(self, key: str, index: int, source: Pool | None = None) -> Board:
        """Board ``index`` of the stream ``key``, from ``source`` (default: the pool ``cards`` names)."""
        return _one(board_rng(key, index), source if source is not None else pool_of(self.cards), self)


def _one(rng: random.Random, source: Pool, asked: Asked) -> Board:
    """The next board of ``rng`` 's stream."""
    options = Options(time_limit=COUNT_TIME)
    played = Options()  # the options an environment has by default, its stepper's: built once a board, not once a draw
    missed = over = unfit = idle = 0
    sizes, seats, layout = asked.sizes, asked.seats, asked.layout
    for _ in range(DRAWS):
        players = PLAYERS[: rng.randint(*seats)]
        drawn = assemble(rng, source, players, rng.choice(asked.kinds), sizes, asked.spare)
        if drawn is None:
            missed += 1
            continue
        laid = _laid_out(drawn, layout, played)
        board = None if laid is None else _counted(drawn, laid, options, asked.max_outcomes)
        if board is not None and asked.seat is not None and not makes_the_first_choice(laid, asked.seat):
            idle += 1
            continue
        if board is not None:
            prepared = None
            if asked.prepare is not None and laid is not None and laid[1] is not None:
                prepared = asked.prepare(laid[0], laid[1])
            return replace(board, missed=missed, over=over, idle=idle, prepared=prepared)
        over += 1
        unfit += laid is None
    fix = "widen abilities (--abilities) or max_outcomes (--max-outcomes)"
    if unfit:  # the layout refused boards that were drawn: it is the first thing to widen
        fix = f"{unfit} of them did not fit the layout: give a larger layout, or {fix}"
    if idle:
        fix = f"on {idle} of them seat {asked.seat} had no choice to make: ask for another seat, or {fix}"
    raise UsageError(
        f"no board with {sizes[0]} to {sizes[1]} abilities, {seats[0]} to {seats[1]} players and at most "
        f"{asked.max_outcomes:,} outcomes in {DRAWS} draws: {fix}"
    )


def makes_the_first_choice(laid: tuple[Facts, Stepper | None] | None, seat: int) -> bool:
    """Whether seat ``seat`` (0: the active player) makes the first choice of a walk of the board:
    once every decision that is the only legal one is taken (``Stepper.forced``, an environment's
    ``auto=True``), there is a decision to make and it is that seat's (``Stepper.decider``). The
    first choice is made before any other seat has chosen anything, so it does not depend on how
    the others play; a one-seat environment (``TriggerStackGym``) plays the others until its seat
    decides, and on a board where the seat does not decide first it all but never does (none in
    600 boards of the training example's, each played 20 times: docs/rl.md). The stepper is the
    board's own, its first pass's decisions made here once for the environment that plays it."""
    assert laid is not None
    facts, stepper = laid
    if stepper is None:
        stepper = Stepper(facts)
    players = facts.scenario.players
    if seat >= len(players):
        return False
    walk, _taken = stepper.forced(stepper.start())
    return bool(stepper.offered(walk)) and stepper.decider(walk) == players[seat].id


def _laid_out(drawn: Drawn, layout: ActionLayout | None, played: Options) -> tuple[Facts, Stepper | None] | None:
    """The drawn board's facts and, with a layout, its stepper in that layout (with ``played``, the
    options an environment has by default: the one it takes); None when it does not fit the layout — as
    ``layout.fits(Stepper(facts).needs)`` says, without building anything for a board with more
    players and objects than the layout has things (each is one, ``Stepper.thing_slots``)."""
    doc = drawn.document
    if layout is not None and len(doc["players"]) + len(doc["objects"]) > layout.things:
        return None
    facts = compile_facts(scenario_of(drawn))
    if layout is None:
        return facts, None
    try:
        stepper = Stepper(facts, played, layout)
    except LayoutOverflow:
        return None
    return None if stepper.beyond else (facts, stepper)  # beyond: it needs more passes than laid out


def _counted(drawn: Drawn, laid: tuple[Facts, Stepper | None], options: Options, max_outcomes: int) -> Board | None:
    """The drawn board counted; ``None`` when it has too many outcomes to keep."""
    facts = laid[0]
    try:
        count = LegalOutcomes(facts, options).count()
    except (ScenarioError, TimeLimitReached):  # a loop, or a limit of counting reached: too big to keep
        return None
    finally:  # what counting learned (its engines, a cycle through the facts) is not kept: it is played
        facts.memo.clear()
    if count > max_outcomes:
        return None
    return Board(facts.scenario, drawn.document, drawn.event, tuple(drawn.cards), count, drawn.source, compiled=laid)
