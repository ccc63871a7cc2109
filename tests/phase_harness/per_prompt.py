"""The adapter in an engine's per-prompt path, measured and held on random boards (docs/phase.md, "At
each prompt"; ``python benchmarks/phase_rs.py --per-prompt N``).

On each board a :class:`~._session.Session` follows the batch: at every prompt it reads, counts the
answers, draws one, builds the i-th, checks an answer, counts the ways to finish, and answers with
the drawn one. Beside it, phase's own costs in the same run: exporting its whole state and applying an
answer. Each prompt is also read whole (``read(game.state())``), and the two readings must agree; the
outcome phase reaches must be one of the ways to finish at every prompt it passed, when it is legal.

Private unit: model/_args.seed_of, the product's one reading of a seed, so that a harness seed means what a product seed means.
"""

from __future__ import annotations

import random
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from statistics import median
from typing import Any

from triggerstack.adapters.phase import PhaseError, PhaseGap, Reading, Rest, Session, answers, reached, read
from triggerstack.model._args import seed_of
from triggerstack.solver import check

__all__ = ["PerPrompt", "run"]

STEPS = ("read, whole", "read, followed", "answers", "count", "draw", "i-th", "check", "rest",
         "phase export", "phase apply")


@dataclass
class PerPrompt:
    """What one run found: prompts by kind, how many were read from the prompt and stack alone, the
    seconds each step took at each prompt, and every crash or disagreement with the board that showed it."""

    boards: int = 0
    prompts: int = 0
    followed: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    seconds: dict[str, list[float]] = field(default_factory=lambda: {s: [] for s in STEPS})
    largest_order: int = 0
    orders: list[tuple[int, float, float, float]] = field(default_factory=list)
    """Each order prompt: its abilities, and the seconds to count, draw and build the i-th answer."""
    gaps: Counter[str] = field(default_factory=Counter)
    phase_errors: Counter[str] = field(default_factory=Counter)
    crashes: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    final_outside_rest: list[str] = field(default_factory=list)
    finals_checked: int = 0
    primed: list[str] = field(default_factory=list)
    """Each prompt where what the run does beside the documented loop (count, i-th, check, the ways to
    finish, the whole reading) added to the walks the loop keeps for its later prompts: a later
    prompt would find them ready, and its figures would not be the loop's."""
    ours: list[tuple[str, str, float, float]] = field(default_factory=list)
    """Each prompt: its kind, how it was read ("first": the batch's first prompt, read whole; "followed":
    from the prompt and the stack alone; "whole": a later prompt read whole), our
    work at it — the reading without phase's export, the answers and a draw, what the documented loop
    calls — and phase's apply of the answer, in seconds."""

    def table(self) -> list[str]:
        """Median and 90th percentile of each step, in milliseconds, and each as a multiple of phase's apply."""
        apply = median(self.seconds["phase apply"] or [float("nan")])
        out = ["| step | median ms | p90 ms | median ÷ phase's apply |", "|---|---|---|---|"]
        for s in STEPS:
            xs = sorted(self.seconds[s])
            if not xs:
                continue
            m, p90 = median(xs), xs[int(0.9 * (len(xs) - 1))]
            out.append(f"| {s} | {m * 1e3:.3f} | {p90 * 1e3:.3f} | {m / apply:.2f} |")
        return out

    def by_kind(self) -> list[str]:
        """Our work at each kind of prompt beside phase's apply at the same prompts: the median of each,
        their ratio, and the median of the per-prompt ratios: at a batch's first prompt (read whole),
        at later prompts followed, and at later prompts read whole."""
        out = ["| prompt | read | prompts | our work, median ms | phase apply, median ms | ratio of medians "
               "| median per-prompt ratio |", "|---|---|---|---|---|---|---|"]
        for kind in sorted({k for k, *_ in self.ours}):
            for how in ("first", "followed", "whole"):
                rows = [(o, a) for k, h, o, a in self.ours if k == kind and h == how]
                if not rows:
                    continue
                o, a = median(r[0] for r in rows), median(r[1] for r in rows)
                per = median(r[0] / r[1] for r in rows if r[1] > 0)
                out.append(f"| {kind} | {how} | {len(rows)} | {o * 1e3:.3f} | "
                           f"{a * 1e3:.3f} | {o / a:.2f} | {per:.2f} |")
        return out


class _Timed:
    """A phase ``Game`` whose ``apply`` and ``state`` are timed into a report."""

    def __init__(self, game: Any, report: PerPrompt) -> None:
        self._game, self._report = game, report

    def apply(self, actor: int, action: Any) -> Any:
        t = time.perf_counter()
        try:
            return self._game.apply(actor, action)
        finally:
            self._report.seconds["phase apply"].append(time.perf_counter() - t)

    def state(self) -> Any:
        t = time.perf_counter()
        try:
            return self._game.state()
        finally:
            self._report.seconds["phase export"].append(time.perf_counter() - t)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)


def _timed(report: PerPrompt, step: str, f: Callable[[], Any]) -> Any:
    t = time.perf_counter()
    try:
        return f()
    finally:
        report.seconds[step].append(time.perf_counter() - t)


def _said(r: Reading) -> tuple[Any, ...]:
    queue = sorted((b.deferred, b.trigger) for b in r.index.batch if b.deferred is not None)
    return r.kind, r.index.current, [p["trigger"] for p in r.placed], queue


def _prompt(report: PerPrompt, session: Session, game: Any, rng: random.Random, seen: list[Rest]) -> Reading:
    """One prompt: read, answer, compare with a whole reading, answer with a drawn answer."""
    whole_before, exports = session.whole_reads, len(report.seconds["phase export"])
    first = session._first is None
    t = time.perf_counter()
    r = session.reading()
    took = time.perf_counter() - t
    followed = session.whole_reads == whole_before
    report.seconds["read, followed" if followed else "read, whole"].append(took)
    ours = took - sum(report.seconds["phase export"][exports:])
    report.prompts += 1
    report.kinds[r.kind] += 1
    report.followed += followed
    got = _timed(report, "answers", lambda: answers(r))
    n = _timed(report, "count", got.count)
    if r.kind == "OrderTriggers":
        report.largest_order = max(report.largest_order, len(r.prompt["data"]["triggers"]))
    drawn = _timed(report, "draw", lambda: got.draw(rng))
    kept = set(r.memo)  # what the loop itself keeps for its later prompts
    i = rng.randrange(n)
    _timed(report, "i-th", lambda: got[i])
    _timed(report, "check", lambda: drawn in got)
    if r.kind == "OrderTriggers":
        k = len(r.prompt["data"]["triggers"])
        secs = report.seconds
        report.orders.append((k, secs["count"][-1], secs["draw"][-1], secs["i-th"][-1]))
    # On a reading of its own (its own stepper and memo): what Rest walks must not be found ready by
    # the loop's next prompt, which the documented loop (read, answers, draw) would walk itself. It
    # was: a division prompt's answers came from the ways Rest had listed at the target prompt before.
    rest = Rest(replace(r, stepper=None, memo={}))
    _timed(report, "rest", rest.count)
    seen.append(rest)
    whole = read(game.state(), since=session._first)  # untimed: the comparison
    if _said(whole) != _said(r) or Rest(whole).count() != rest.count():
        report.differences.append(f"{r.kind}: followed {_said(r)} ({rest.count()}), whole {_said(whole)}")
    if set(r.memo) != kept:
        report.primed.append(f"{r.kind}: {sorted(map(str, set(r.memo) - kept))[:3]}")
    ours += report.seconds["answers"][-1] + report.seconds["draw"][-1]
    session.apply(drawn)
    how = "followed" if followed else "first" if first else "whole"
    report.ours.append((r.kind, how, ours, report.seconds["phase apply"][-1]))
    return r


def run(boards: int = 50, seed: int = 1, progress: Callable[[int], None] | None = None) -> PerPrompt:
    """The per-prompt run over ``boards`` random boards (seeded: the same seed, the same boards)."""
    from triggerstack.adapters.phase import engine

    from .differential import POOL, _board

    eng = engine(POOL)
    rng = random.Random(seed_of(seed))  # model/_args.py: -k would draw what k draws
    report = PerPrompt()
    for k in range(boards):
        if progress is not None:
            progress(k)
        board_seed = rng.randint(0, 2**31)
        steps: list[str] = []
        try:
            b, steps = _board(eng, random.Random(board_seed))
            if not b.at_prompt():
                continue
            report.boards += 1
            game = _Timed(b.game, report)
            session = Session(game)
            pick = random.Random(board_seed)
            seen: list[Rest] = []
            first = _prompt(report, session, game, pick, seen)
            while b.at_prompt():
                _prompt(report, session, game, pick, seen)
            final = reached(first, b.game.state())
            if check(first.scenario, final).legal:
                report.finals_checked += 1
                for rest in seen:
                    if final not in rest:
                        report.final_outside_rest.append(f"board {k} ({steps[-1]}): at {rest.reading.kind}")
        except PhaseGap as exc:
            report.gaps[str(exc).splitlines()[0][:100]] += 1
        except PhaseError as exc:
            report.phase_errors[str(exc).splitlines()[0][:100]] += 1
        except Exception as exc:  # what must never escape: counted with its board
            report.crashes.append(f"board {k} ({'; '.join(steps[-2:])}): {type(exc).__name__}: {exc}\n"
                                  f"{traceback.format_exc(limit=3)}")  # fmt: skip
    return report
