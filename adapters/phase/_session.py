"""One game followed prompt by prompt, reading phase's whole state once a batch (docs/phase.md, "At
each prompt").

``game.state()`` exports everything — libraries and hands included — and costs far more than phase's
own ``apply``. Within one batch only three things change from prompt to prompt: the prompt
(``game.waiting_for()``), the entries placed (``game.stack()``), and which ability phase places next,
which follows from the order answers given. A :class:`Session` reads the whole state at a batch's
first prompt and, at each later prompt of the batch, only those three: the reading it gives is the
one :func:`~._board.read` would give (a test holds the two equal on the differential's boards).
An answer given to the game without the session (``game.apply`` directly) makes the next reading a
whole one again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from triggerstack.model import Outcome
from triggerstack.model._numbers import counted
from triggerstack.model._text import found as quoted

from ._board import PROMPTS, Reading, exported, placed_as, read
from ._prompt import Answers, Rest, answers, queued
from ._schema import Node, PhaseGap


class Session:
    """Trigger placements of one phase ``Game``, followed prompt by prompt: :meth:`reading`,
    :meth:`answers` and :meth:`rest` at the prompt phase waits on, :meth:`apply` to answer it."""

    def __init__(self, game: Any, *, strict: bool = True) -> None:
        self.game = game
        self.strict = strict
        self.whole_reads = 0
        """How many times the whole state was exported and read (once a batch when every answer goes
        through :meth:`apply`)."""
        self._first: Reading | None = None  # the batch's first reading (whole)
        self._last: Reading | None = None
        self._queue: list[str] | None = None  # the order phase will place the batch's unplaced abilities in
        self._after: Any = None  # the prompt phase waited on after the session's last answer
        self._at: Any = None  # the prompt and the stack's size of the last reading

    # -- readings

    def reading(self) -> Reading:
        """The reading at the prompt phase waits on (:class:`PhaseGap` if it waits on no
        trigger-placement prompt)."""
        prompt = Node(self.game.waiting_for(), "waiting_for")
        if prompt.tag() not in PROMPTS:
            raise PhaseGap(f"waiting_for: phase is waiting for {quoted(prompt.tag())}, not a trigger-placement prompt")
        stack = Node(self.game.stack(), "stack")
        here = (prompt, len(stack))
        if self._last is not None and self._at == here:  # asked again at the same prompt
            return self._last
        self._at = here
        if prompt.tag() != "OrderTriggers" and self._first is not None and self._after == prompt:
            got = self._following(prompt, stack)
            if got is not None:
                self._last = got
                return got
        return self._whole()

    def _whole(self) -> Reading:
        self.whole_reads += 1
        got = read(exported(self.game), strict=self.strict, since=self._first)
        if self._first is None:
            self._first = got
        self._last = got
        self._queue = _queue_of(got)
        return got

    def _following(self, prompt: Node, stack: Node) -> Reading | None:
        """The reading from the prompt and the stack alone; None where they do not say enough."""
        first, queue = self._first, list(self._queue or ())
        assert first is not None
        below = first.index.stack_ids
        known = {b.stack_id for b in first.index.batch if b.stack_id is not None}
        entries = [e for e in stack.items() if e["id"].as_int() not in below | known]
        batch = {b.trigger: b for b in first.index.batch}
        placed: list[dict[str, Any]] = []
        stack_ids: dict[str, int] = {}
        left = [b for b in first.index.batch if b.stack_id is None]
        for e in entries:
            data, match = placed_as(left, e)
            if match is None:
                return None  # a reaction (ward) or what the batch read did not hold: read it whole
            left.remove(match)
            stack_ids[match.trigger] = e["id"].as_int()
            placed.append({"trigger": match.trigger, "ability": data["ability"]})
        done = {p["trigger"] for p in first.placed} | set(stack_ids)
        current = None
        if prompt.tag() != "OrderTriggers":
            # the ability being placed stands on top of the stack, its choices not made, when it is the
            # first of phase's queue not placed before it
            top = placed[-1]["trigger"] if placed else None
            current = next((t for t in queue if t not in done - {top}), None)
            if current is None:
                return None
            said = None if prompt.tag() == "DistributeAmong" else prompt["data"]["source_id"].maybe_int()
            if said is not None and said != batch[current].source_id:
                return None  # not the ability phase was expected to place next
            if top == current:
                placed.pop()
                stack_ids.pop(current)
                done.discard(current)
        queue = [t for t in queue if t not in done and t != current]
        placed = [*first.placed, *placed]
        order = {t: i for i, t in enumerate(queue)}
        index = replace(first.index, current=current, batch=[
            replace(b, stack_id=stack_ids.get(b.trigger, b.stack_id), deferred=order.get(b.trigger),
                    prompt_index=None, group=None)
            for b in first.index.batch])  # fmt: skip
        return replace(first, prompt=prompt, placed=placed, index=index)

    # -- what users call at a prompt

    def answers(self) -> Answers:
        """The legal answers at the prompt phase waits on."""
        return answers(self.reading())

    def rest(self) -> Rest:
        """The ways to finish the batch from the prompt phase waits on."""
        return Rest(self.reading())

    def apply(self, action: Mapping[str, Any]) -> Any:
        """Answer the prompt phase waits on with ``action`` (a ``GameAction`` dict), as its player;
        phase's refusal is :class:`PhaseGap` naming the answer."""
        prompt = Node(self.game.waiting_for(), "waiting_for")
        last = self._last
        try:
            result = self.game.apply(prompt["data"]["player"].as_int(), dict(action))
        except ValueError as exc:  # phase refuses an answer by raising ValueError ("Invalid action: ...")
            raise PhaseGap(f"phase refused {json.dumps(action)} at {prompt.tag()}: {exc}") from exc
        self._at = None
        after = Node(self.game.waiting_for(), "waiting_for")
        if after.tag() not in PROMPTS:
            self._first = self._last = self._queue = self._after = self._at = None  # the batch is placed
            return result
        self._after = after
        if last is None or last.prompt != prompt:
            self._after = None  # answered unread: read the next prompt whole
        elif prompt.tag() == "OrderTriggers":
            self._queue = _ordered(last, [i.as_int() for i in Node(action, "action")["data"]["order"].items()])
        return result

    def play(
        self, outcome: Outcome, limit: int = 1000, seen: Callable[[Reading, dict[str, Any]], None] | None = None
    ) -> list[dict[str, Any]]:
        """Answer every prompt of the batch so that phase places ``outcome``; the answers given.
        ``seen`` is called with each reading and the answer given."""
        from ._answers import action_for

        done: list[dict[str, Any]] = []
        for _ in range(limit):
            if Node(self.game.waiting_for(), "waiting_for").tag() not in PROMPTS:
                return done
            reading = self.reading()
            action = action_for(reading, outcome)  # a prompt phase should not have asked: PhaseError
            if seen is not None:
                seen(reading, action)
            self.apply(action)
            done.append(action)
        raise PhaseGap(f"still at a trigger-placement prompt after {counted(limit, 'answers')}")


def _queue_of(reading: Reading) -> list[str]:
    """The order phase will place the batch's unplaced abilities in, as far as the reading says: its
    queue (``deferred_triggers``), then the abilities still to be ordered, group by group."""
    out = queued(reading)
    if reading.index.current is not None:
        out.insert(0, reading.index.current)
    return out + [b.trigger for b in reading.index.batch if b.group is not None and b.trigger not in out]


def _ordered(reading: Reading, order: list[int]) -> list[str]:
    """The queue once the order prompt ``reading`` was read at is answered with ``order``: the groups
    in phase's order, the asked player's abilities in the order given (``order[0]`` placed first)."""
    from ._answers import _prompt_ids

    ids = _prompt_ids(reading)
    asked = [ids[i] for i in order]
    out = queued(reading)
    for g in sorted({b.group for b in reading.index.batch if b.group is not None}):
        members = [b.trigger for b in reading.index.batch if b.group == g]
        out += asked if set(members) == set(asked) else members
    return out
