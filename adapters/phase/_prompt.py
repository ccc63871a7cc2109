"""At one of phase's prompts: the legal answers, and what is left to decide (docs/phase.md, "At each
prompt").

* :func:`answers` — the legal answers to the prompt, counted, ranked, unranked and drawn without
  listing them: an order prompt of k abilities has up to k! answers, and the i-th of them is built
  from its rank (the permutations of each APNAP block of the prompt, block after block), never
  found by walking the others. Target, mode and division prompts have few answers: they are listed.
* :class:`Rest` — the ways to finish placing the batch from here: every legal outcome of the batch
  that keeps what phase has placed (each entry's targets, modes and divisions), what the ability
  being placed has chosen so far, and the order phase was given. Counted from each ability's own
  choices, one ability after another in phase's order (what an ability may choose depends only on
  which abilities are below it), and ranked, unranked and drawn from those counts.

Both work from a :class:`~._board.Reading` alone, so they run on recorded states without phase.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from math import factorial, prod
from typing import Any, overload

from triggerstack.model import Outcome, ScenarioError
from triggerstack.model._args import position, seed_of, whole_number
from triggerstack.model._outcome import Entry, canonical, outcome_json
from triggerstack.model._text import found as quoted
from triggerstack.solver._core._ranks import rank_permutation, unrank_permutation
from triggerstack.solver._verbs.legal import LegalOutcomes
from triggerstack.solver._verbs.step import Decision, Stepper, Walk

from ._answers import (
    _asked_slots,
    _consistent,
    _current,
    _divisions,
    _finish,
    _mode_sets,
    _prompt_ids,
    _slot_actions,
    announced,
    dividing,
    prefix,
    refuse,
)
from ._board import Reading
from ._schema import Node, PhaseGap

Action = dict[str, Any]


def _rng(seed: int | random.Random | None) -> random.Random:
    """The generator of a draw: ``seed``'s own, a new one from a whole-number seed (``model/_args.py``:
    ``-k`` drew what ``k`` draws), or from the system without one."""
    if isinstance(seed, random.Random):
        return seed
    return random.Random(None if seed is None else seed_of(seed))


def _key(action: Mapping[str, Any]) -> str:
    """An answer as JSON text (a value that is no JSON: :class:`~._schema.PhaseStateError`, a ``ValueError``)."""
    return Node(action, "action").dump()


# -- the answers to one prompt -------------------------------------------------------------------


class Answers:
    """The legal answers to the prompt a reading was read at, in one fixed order: ``len`` counts
    them, ``answers[i]`` is the i-th, ``answers.index(action)`` its place, ``answers.draw(seed)`` a
    uniformly random one, and iterating streams them. An answer is a phase ``GameAction`` dict."""

    kind: str

    def __len__(self) -> int:
        return self.count()

    def count(self) -> int:
        raise NotImplementedError

    def nth(self, i: int) -> Action:
        raise NotImplementedError

    def index(self, action: Mapping[str, Any]) -> int:
        """The place of ``action`` among the answers (``ValueError`` if it is not a legal answer;
        ``TypeError`` if it is not a mapping, as phase's ``GameAction`` dicts are)."""
        if not isinstance(action, Mapping):
            raise TypeError(f"an answer is a phase GameAction mapping, not {type(action).__name__}")
        return self._place(action)

    def _place(self, action: Mapping[str, Any]) -> int:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        """The answer at ``i`` or the list a slice takes, as a list reads an index (model/_args.py
        ``position``, as every sequence of the Python API)."""
        at = position(i, self.count(), "answer")
        return [self.nth(k) for k in at] if isinstance(at, range) else self.nth(at)

    def __contains__(self, action: object) -> bool:
        if not isinstance(action, Mapping):
            return False
        try:
            self.index(action)
        except ValueError:
            return False
        return True

    def __iter__(self) -> Iterator[Action]:
        for i in range(self.count()):
            yield self.nth(i)

    def draw(self, seed: int | random.Random | None = None) -> Action:
        """One legal answer, uniformly at random (the same seed, the same answer)."""
        rng = _rng(seed)
        n = self.count()
        if n == 0:
            raise PhaseGap(f"{self.kind}: no legal answer")
        return self.nth(rng.randrange(n))


@dataclass
class _OrderAnswers(Answers):
    """An order prompt's answers: ``order`` lists the prompt's abilities by index, bottom first. The
    abilities of one APNAP block may go in any order — each can always be put on the stack or, with
    no legal choice, removed (603.3c–d), so every order extends to a legal outcome — and the blocks
    go in APNAP order (603.3b). In lexicographic order of ``order``."""

    blocks: list[list[int]]
    kind: str = "OrderTriggers"

    def count(self) -> int:
        return prod(factorial(len(b)) for b in self.blocks)

    def nth(self, i: int) -> Action:
        ranks: list[int] = []
        for b in reversed(self.blocks):
            i, r = divmod(i, factorial(len(b)))
            ranks.append(r)
        order = [x for b, r in zip(self.blocks, reversed(ranks), strict=True) for x in unrank_permutation(sorted(b), r)]
        return {"type": "OrderTriggers", "data": {"order": order}}

    def _place(self, action: Mapping[str, Any]) -> int:
        given = Node(action, "action")
        if given.tag() != "OrderTriggers":
            raise ValueError(f"not an OrderTriggers answer: {quoted(given.tag())}")
        order = [i.as_int() for i in given["data"]["order"].items()]
        r, at = 0, 0
        for b in self.blocks:
            part = order[at : at + len(b)]
            if sorted(part) != sorted(b):
                said = f"positions {at}..{at + len(b) - 1} must hold abilities {sorted(b)} (603.3b: APNAP order)"
                raise ValueError(f"order {_said(order)} is not a legal order: {said}")
            r = r * factorial(len(b)) + rank_permutation(part)
            at += len(b)
        if at != len(order):
            raise ValueError(f"order {_said(order)} is not a permutation of the prompt's {at} abilities")
        return r


def _said(order: list[int]) -> str:
    """An order a caller gave, as a message says it: whole up to 24 positions (phase's prompts hold a
    few), else its first ones and how many — a caller's list of a million was said whole."""
    return str(order) if len(order) <= 24 else f"{str(order[:24])[:-1]}, … ({len(order)} positions)]"


@dataclass
class _ListedAnswers(Answers):
    """A target, mode or division prompt's answers: few, listed once."""

    kind: str
    listed: list[Action]

    def __post_init__(self) -> None:
        self._at = {_key(a): i for i, a in enumerate(self.listed)}

    def count(self) -> int:
        return len(self.listed)

    def nth(self, i: int) -> Action:
        return self.listed[i]

    def _place(self, action: Mapping[str, Any]) -> int:
        key = _key(action)
        found = self._at.get(key)
        if found is None:
            raise ValueError(f"{key} is not a legal answer at this {self.kind} prompt")
        return found


def answers(reading: Reading) -> Answers:
    """The legal answers to the prompt ``reading`` was read at (:class:`~._schema.PhaseError` at a prompt phase
    should not have asked: no answer is legal there, and it is phase's failure, not the batch's)."""
    refuse(reading)
    kind = reading.kind
    if kind == "OrderTriggers":
        ids = _prompt_ids(reading)
        _, walk = prefix(reading)
        assert walk.facts is not None
        facts = walk.facts
        block_of = {str(facts.abilities[k].id): b for b, blk in enumerate(facts.blocks) for k in blk.abilities}
        missing = [t for t in ids if t not in block_of]
        if missing:
            raise PhaseGap(f"OrderTriggers: {', '.join(missing)} in phase's prompt but in no block of the batch")
        groups: dict[int, list[int]] = {}
        for i, t in enumerate(ids):
            groups.setdefault(block_of[t], []).append(i)
        return _OrderAnswers([groups[b] for b in sorted(groups)])
    listing = {"TriggerTargetSelection": _slot_actions, "DistributeAmong": _divisions, "AbilityModeChoice": _mode_sets}
    if kind not in listing:
        raise PhaseGap(f"waiting_for: no answers for {quoted(kind)}")
    return _ListedAnswers(kind, list(listing[kind](reading)))


def legal_actions(reading: Reading) -> Iterator[Action]:
    """Every answer to phase's prompt that extends to a legal outcome, streamed in the order of
    :func:`answers` (an order prompt's k! orders are built one by one from their ranks)."""
    return iter(answers(reading))


def is_legal_answer(reading: Reading, action: Mapping[str, Any]) -> bool:
    """Whether one answer to phase's prompt extends to a legal outcome, without listing the answers
    (an order prompt of k abilities has up to k! of them: its order is ranked instead)."""
    return action in answers(reading)


# -- what is left to decide ----------------------------------------------------------------------


class _Departs(ValueError):
    """An outcome that is not a way to finish from here: says which choice made before it breaks."""


def _as_outcome(outcome: object) -> Outcome:
    """``outcome`` as an :class:`Outcome`: one already, or its document (a mapping, validated);
    anything else is a ``TypeError`` and an invalid document a ``ValueError``, each saying so."""
    if isinstance(outcome, Outcome):
        return outcome
    if not isinstance(outcome, Mapping):
        raise TypeError(f"an outcome is an Outcome or its document (a mapping), not {type(outcome).__name__}")
    try:
        return Outcome.model_validate(outcome)
    except ScenarioError as exc:  # the Python door of a document (model/_scenario.py read_document)
        raise ValueError(f"not an outcome document: {exc.one_line()}") from None


class Rest:
    """The ways to finish placing the batch from the prompt ``reading`` was read at (see the module).
    ``count()`` is exact; ``rest[i]``, ``rest.index(outcome)`` and ``rest.draw(seed)`` rank, unrank and
    draw uniformly from the counts; iterating streams them in that order; ``outcome in rest`` and
    :meth:`departs` say whether an outcome keeps what is fixed. With reactions (ward: 603.3b's loop),
    what follows a pass depends on the targets chosen in it, and the ways are listed instead (bounded
    by the time limit)."""

    def __init__(self, reading: Reading) -> None:
        self.reading = reading
        self.stepper, self.start = prefix(reading)
        self.current = None if reading.kind == "OrderTriggers" else reading.index.current
        self.queue = tuple(queued(reading))
        self.placed = len(reading.placed)
        self.single = self.stepper.passes.single
        self._memo: dict[tuple[Any, ...], int] = {}
        self._whole: LegalOutcomes | None = None
        if not self.placed and self.current is None and not self.queue:
            self._whole = LegalOutcomes(reading.scenario)  # nothing is fixed yet: the batch's own outcomes
        self._entries = self._current_entries() if self.current is not None else []
        self._listed: list[Outcome] | None = None

    # -- the ability being placed

    def _current_entries(self) -> list[tuple[Walk, Entry | None]]:
        """The ways the ability being placed may still be decided (its entry; None: removed), each
        with the walk after it."""
        r, trigger = self.reading, _current(self.reading)
        stepper, walk = self.stepper, self.start
        moves = {d.text: d for d in stepper.legal(walk)}
        out: list[tuple[Walk, Entry | None]] = []
        if f"put {trigger}" in moves:
            texts = {m["id"]: m.get("text") for m in r.trigger(trigger).get("modes", ())}
            chosen, labels = _asked_slots(r) if r.kind == "TriggerTargetSelection" else ([], None)
            if r.kind == "DistributeAmong":  # the ways that divide among phase's targets, walked to them
                division = [str(r.index.thing(x)) for x in r.prompt["data"]["targets"].items()]
                seen: set[tuple[object, ...]] = set()
                for way, _ in dividing(stepper, walk, trigger, division):
                    out += [(w, stepper.so_far(w).stack[-1]) for w in _finish(stepper, way, seen)]
            else:
                for w, entry in announced(r, trigger, (stepper, walk)):
                    if r.kind == "TriggerTargetSelection":
                        said = sorted(texts[m.mode] or "" for m in entry.modes or ())
                        if entry.modes is not None and labels is not None and said != sorted(labels):
                            continue
                        if not _consistent(r, trigger, entry, chosen):
                            continue
                    out.append((w, entry))
        if r.kind == "AbilityModeChoice" and f"remove {trigger}" in moves:
            out.append((stepper.apply_unchecked(walk, moves[f"remove {trigger}"]), None))
        return out

    # -- counting

    def _key(self, walk: Walk, pos: int) -> tuple[Any, ...]:
        return walk.local.placed, walk.local.removed, pos, len(walk.done)

    def _children(self, walk: Walk, pos: int) -> list[Walk]:
        """The walks after phase's next queued ability is decided, in order: put with each of its
        choices, then removed."""
        put, remove = self._next(walk, pos)
        out: list[Walk] = []
        if put is not None:
            out += _finish(self.stepper, self.stepper.apply_unchecked(walk, put))
        if remove is not None:
            out.append(self.stepper.apply_unchecked(walk, remove))
        return out

    def _next(self, walk: Walk, pos: int) -> tuple[Decision | None, Decision | None]:
        """The decisions that put and that remove phase's next queued ability (None: not legal)."""
        x = self.queue[pos]
        moves = {d.text: d for d in self.stepper.legal(walk)}
        put, remove = moves.get(f"put {x}"), moves.get(f"remove {x}")
        if put is None and remove is None:
            raise PhaseGap(f"{x}: phase places it next, where no legal outcome can (603.3b)")
        return put, remove

    def _count_from(self, walk: Walk, pos: int) -> int:
        """The ways to finish from ``walk`` (no ability in hand), phase's queue from ``pos`` on."""
        key = self._key(walk, pos) if self.single else None  # with reactions, the targets matter too
        found = self._memo.get(key) if key is not None else None
        if found is not None:
            return found
        if pos == len(self.queue):
            n = self.stepper.count(walk) if not walk.done else None
            total = n if n is not None else len(self._free(walk))
        else:
            total = 0
            put, remove = self._next(walk, pos)
            if put is not None:
                held = self.stepper.apply_unchecked(walk, put)
                k = self._ways_in_hand(held)
                if k and self.single:  # what follows depends only on which abilities are below
                    total += k * self._count_from(next(_finish(self.stepper, held)), pos + 1)
                elif k:
                    total += sum(self._count_from(w, pos + 1) for w in _finish(self.stepper, held))
            if remove is not None:
                total += self._count_from(self.stepper.apply_unchecked(walk, remove), pos + 1)
        if key is not None:
            self._memo[key] = total
        return total

    def _ways_in_hand(self, held: Walk) -> int:
        """How many ways the ability just put may be announced (1: it asks for nothing, or a pass ended)."""
        if held.facts is None or held.local.current is None or self.stepper.in_hand(held) is None:
            return 1
        return self.stepper.pass_stepper(held.facts).matching(held.local)

    def _free(self, walk: Walk) -> list[Outcome]:
        """Every distinct outcome from ``walk`` once phase's queue is placed (abilities phase has not
        been told the order of, or later passes), listed in the walks' order."""
        seen: dict[str, Outcome] = {}
        walked: set[tuple[object, ...]] = set()
        pending = [walk]
        while pending:
            w = pending.pop()
            key = self.stepper.key(w)
            if key in walked:
                continue  # reached before by another order of a set's members
            walked.add(key)
            moves = self.stepper.legal(w)
            if not moves:
                o = self.stepper.outcome(w)
                seen.setdefault(outcome_json(o), o)
                continue
            pending.extend(self.stepper.apply_unchecked(w, d) for d in reversed(moves))
        return list(seen.values())

    def _tops(self) -> list[Walk]:
        return [w for w, _ in self._entries] if self.current is not None else [self.start]

    def count(self) -> int:
        """How many ways there are to finish the batch from here (distinct whole outcomes)."""
        if self._whole is not None:
            return self._whole.count()
        return sum(self._count_from(w, 0) for w in self._tops())

    def __len__(self) -> int:
        return self.count()

    # -- ranks

    @overload
    def __getitem__(self, i: int) -> Outcome: ...

    @overload
    def __getitem__(self, i: slice) -> list[Outcome]: ...

    def __getitem__(self, i: int | slice) -> Outcome | list[Outcome]:
        """The outcome at ``i`` or the list a slice takes, as a list reads an index (model/_args.py
        ``position``, as every sequence of the Python API)."""
        at = position(i, self.count(), "outcome")
        return [self._nth(k) for k in at] if isinstance(at, range) else self._nth(at)

    def _nth(self, i: int) -> Outcome:
        if self._whole is not None:
            return self._whole[i]
        for w in self._tops():
            c = self._count_from(w, 0)
            if i < c:
                return self._unrank(w, 0, i)
            i -= c
        raise AssertionError("the counts and the walks disagree")

    def _unrank(self, walk: Walk, pos: int, i: int) -> Outcome:
        while pos < len(self.queue):
            for w in self._children(walk, pos):
                c = self._count_from(w, pos + 1)
                if i < c:
                    walk, pos = w, pos + 1
                    break
                i -= c
            else:
                raise AssertionError("the counts and the walks disagree")
        return self._ends(walk)[i]

    def _ends(self, walk: Walk) -> list[Outcome]:
        """The outcomes from ``walk`` once phase's queue is placed, in rank order: the one its
        decisions lead to when nothing is left to choose, else every one listed (:meth:`_free`)."""
        n = self.stepper.count(walk) if not walk.done else None
        if n == 1 or self.stepper.is_over(walk):
            return [self.stepper.outcome(next(_to_end(self.stepper, walk)))]
        return self._free(walk)

    def index(self, outcome: Outcome | Mapping[str, Any]) -> int:
        """The place of ``outcome`` (an :class:`Outcome` or its document) among the ways to finish:
        ``rest[rest.index(o)] == o`` (``ValueError`` saying which choice made before it breaks, if it is
        not one; ``TypeError`` if it is not an outcome at all)."""
        outcome = _as_outcome(outcome)
        if self._whole is not None:
            return self._whole.index(outcome)
        outcome = canonical(self.reading.scenario, outcome)  # equal as values: targets a set, modes a multiset
        for w in self._tops():  # few: the current ability's ways, each a subtree
            found = self._locate(w, 0, outcome)
            if found is not None:
                return found + sum(self._count_from(v, 0) for v in self._tops()[: self._tops().index(w)])
        raise _Departs(self._why_not(outcome))

    def _locate(self, walk: Walk, pos: int, outcome: Outcome) -> int | None:
        """``outcome``'s place below ``walk`` (None: not there). Outcomes and entries are compared as
        values (docs/formats.md): targets a set, modes a multiset, an omitted ``passes`` the one the ids imply."""
        so_far = self.stepper.so_far(walk)
        if list(outcome.stack[: len(so_far.stack)]) != list(so_far.stack) or not set(so_far.removed) <= set(
                outcome.removed):  # fmt: skip
            return None
        if pos == len(self.queue):
            return next((k for k, o in enumerate(self._ends(walk)) if o == outcome), None)
        skipped = 0
        for w in self._children(walk, pos):
            found = self._locate(w, pos + 1, outcome)
            if found is not None:
                return skipped + found
            skipped += self._count_from(w, pos + 1)
        return None

    def _why_not(self, outcome: Outcome) -> str:
        stack = outcome.stack
        for k, placed in enumerate(self.reading.placed):
            ours = self.stepper.so_far(self.start).stack[k]
            if k >= len(stack) or stack[k] != ours:
                return f"phase has placed {placed['trigger']} at stack position {k} as {_shown(ours)}"
        if self.current is not None:
            return f"it does not keep what {self.current} has chosen at this prompt, or is not legal"
        return "it is not a legal outcome that keeps the order phase was given"

    def departs(self, outcome: object) -> str | None:
        """None when ``outcome`` is a way to finish from here; else why not."""
        try:
            self.index(_as_outcome(outcome))
        except (ValueError, TypeError) as exc:
            return str(exc)
        return None

    def __contains__(self, outcome: object) -> bool:
        return self.departs(outcome) is None

    def draw(self, seed: int | random.Random | None = None) -> Outcome:
        """One way to finish, uniformly at random."""
        rng = _rng(seed)
        n = self.count()
        if n == 0:
            raise PhaseGap("no way to finish the batch from here")
        return self[rng.randrange(n)]

    def sample(self, n: int, seed: int | random.Random | None = None) -> list[Outcome]:
        rng, n = _rng(seed), whole_number(n, "n")
        return [self.draw(rng) for _ in range(n)]

    def __iter__(self) -> Iterator[Outcome]:
        if self._whole is not None:
            yield from self._whole
            return
        for i in range(self.count()):
            yield self[i]


def queued(reading: Reading) -> list[str]:
    """The abilities phase has been told the order of and will place next (``deferred_triggers``),
    in that order."""
    return [b.trigger for b in sorted((b for b in reading.index.batch if b.deferred is not None),
                                      key=lambda b: b.deferred or 0)]  # fmt: skip


def _to_end(stepper: Stepper, walk: Walk) -> Iterator[Walk]:
    """The walk taken to its end by its first legal decisions (one outcome is left from it)."""
    while moves := stepper.legal(walk):
        walk = stepper.apply_unchecked(walk, moves[0])
    yield walk


def _shown(entry: Entry) -> str:
    return json.dumps(entry.model_dump(mode="json", exclude_defaults=True), separators=(",", ":"))
