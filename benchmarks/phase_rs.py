"""phase.rs beside this tool (docs/phase.md): the share of phase's triggered abilities that translate
without a gap, over every card of our Oracle data with a triggered ability, built into phase's card
data by phase's own builder; and the seeded differential run's figures.

Usage: python benchmarks/phase_rs.py [--boards N] [--seed S] [--cards N] (needs the extra [phase]).
Writes benchmarks/results/phase.md and prints the same. With ``--play-back N`` it runs only the
play-back property instead — our sampled outcomes played into phase at every prompt of N seeded boards,
and answered at every recorded prompt of the fixtures — and writes benchmarks/results/phase-prompts.md
(exit 1 on a crash: an error that is neither PhaseError nor PhaseGap).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from triggerstack.adapters.phase import translate
from triggerstack.adapters.phase._live import _mtgjson, phase_module
from triggerstack.model.cards._corpus import corpus

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the harnesses live with the tests
from tests.phase_harness.differential import run

OUT = Path(__file__).resolve().parent / "results" / "phase.md"
PROMPTS_OUT = OUT.with_name("phase-prompts.md")


def coverage(limit: int | None) -> list[str]:
    phase = phase_module()
    cards = [c for c in corpus().cards() if re.search(r"(^|\n)(When|Whenever|At) ", c.text)]
    if limit:
        cards = cards[:limit]
    abilities = whole = built = 0
    gaps: Counter[str] = Counter()
    t0 = time.perf_counter()
    for card in cards:
        try:
            face = phase.build_oracle_face(_mtgjson(card), None)
        except Exception:
            continue
        built += 1
        for trig in face.get("triggers") or ():
            execute = trig.get("execute")
            if not isinstance(execute, dict):
                continue
            abilities += 1
            got = translate(execute)
            if not got.gaps:
                whole += 1
            for g in {re.sub(r"\[\d+\]", "[]", g.message) for g in got.gaps}:
                gaps[g] += 1
    dt = time.perf_counter() - t0
    lines = [
        f"cards with a triggered ability in our Oracle data: {len(cards)}; built by phase: {built} ({dt:.0f} s)",
        f"phase's triggered abilities (with an effect) read without a gap: {whole} of {abilities} "
        f"({100 * whole / max(abilities, 1):.1f}%)",
        "the most common gaps:",
    ]
    lines += [f"  {n:5d}  {g}" for g, n in gaps.most_common(10)]
    return lines


def timings() -> list[str]:
    """What users call, timed on the golden fixtures' recorded prompts (no phase), beside phase's own
    calls on a live board: read a prompt, list its answers, check a placement; export a state, apply."""
    import gzip
    import json

    from triggerstack.adapters.phase import legal_actions, read
    from triggerstack.model import Outcome
    from triggerstack.solver import check

    root = Path(__file__).resolve().parent.parent / "tests" / "data" / "phase"
    docs = []
    for path in sorted(root.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            docs.append(json.load(f))
    prompts = [p["state"] for d in docs for p in d["prompts"]]

    def best(fn: Any, n: int = 5) -> float:
        out = []
        for _ in range(n):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
        return min(out)

    r_read = sorted(best(lambda s=s: read(s)) for s in prompts)
    readings = [read(s) for s in prompts]
    r_list = sorted(best(lambda r=r: list(legal_actions(r))) for r in readings)
    firsts = [(read(d["prompts"][0]["state"]), Outcome.model_validate(d["phase_reached"])) for d in docs]
    r_check = sorted(best(lambda r=r, o=o: check(r.scenario, o)) for r, o in firsts)

    from triggerstack.adapters.phase._live import Board, engine

    eng = engine(["Viashino Pyromancer", "Soul Warden", "Armored Armadillo"])
    b = Board.build(eng, [["Viashino Pyromancer", "Soul Warden"], ["Soul Warden", "Armored Armadillo"]])
    b.move(b.object_id("Soul Warden", 0))
    b.move(b.object_id("Soul Warden", 1))
    b.move(b.object_id("Armored Armadillo", 1))
    b.move(b.object_id("Viashino Pyromancer", 0), simulate=True)
    export = best(lambda: b.game.state())
    order = next(iter(b.game.actions()))
    t = time.perf_counter()
    b.game.apply(0, order)
    apply = time.perf_counter() - t

    def ms(xs: list[float]) -> str:
        return f"median {1e3 * xs[len(xs) // 2]:.2f} ms, worst {1e3 * xs[-1]:.2f} ms"

    return [
        f"read a recorded prompt ({len(prompts)} prompts): {ms(r_read)}",
        f"list every legal answer at it: {ms(r_list)}",
        f"check the placement phase reached ({len(firsts)} boards): {ms(r_check)}",
        f"phase, same machine: export a state {1e3 * export:.2f} ms; apply one OrderTriggers {1e3 * apply:.2f} ms",
    ]


def play_back(boards: int, seed: int) -> int:
    """The play-back property over ``boards`` seeded boards and the recorded fixtures, written out."""
    from tests.phase_harness.playback import fixture_prompts, prompts_property

    root = Path(__file__).resolve().parent.parent / "tests" / "data" / "phase"
    t0, c0 = time.perf_counter(), time.process_time()
    live = prompts_property(boards, seed=seed, progress=lambda k: print(f"board {k}", file=sys.stderr)
                            if k % 25 == 0 else None)  # fmt: skip
    dt, cpu = time.perf_counter() - t0, time.process_time() - c0
    fixtures = fixture_prompts(root.glob("*.json.gz"))
    text = [
        "# phase.rs 0.103.0: our outcomes played back at every prompt",
        "",
        "Each prompt is answered by `action_for` through `play`; a failure of phase stays `PhaseError`, a gap or",
        "an outcome that does not fit a prompt `PhaseGap`; anything else is a crash (docs/phase.md).",
        "",
        f"## Live boards ({boards} boards, seed {seed}, {dt:.0f} s, {cpu:.0f} s of CPU)",
        "",
        "```",
        *live.lines(),
        "```",
        "",
        "## Recorded fixtures (tests/data/phase, 4 sampled outcomes each, without phase)",
        "",
        "```",
        *fixtures.lines(),
        "```",
        "",
    ]
    PROMPTS_OUT.write_text("\n".join(text), encoding="utf-8")
    print("\n".join(text))
    return 1 if live.crashes or fixtures.crashes else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cards", type=int, default=0, help="only the first N cards (0: all)")
    ap.add_argument("--per-prompt", type=int, default=0, metavar="N",
                    help="instead: the adapter in an engine's per-prompt path on N boards, beside phase's own costs")
    ap.add_argument("--play-back", type=int, default=0, metavar="N",
                    help="only the play-back property, over N boards (writes results/phase-prompts.md)")  # fmt: skip
    args = ap.parse_args()
    if args.per_prompt:
        return per_prompt(args.per_prompt, args.seed)
    if args.play_back:
        return play_back(args.play_back, args.seed)
    t0 = time.perf_counter()
    report = run(
        args.boards, seed=args.seed, progress=lambda k: print(f"board {k}", file=sys.stderr) if k % 25 == 0 else None
    )
    dt = time.perf_counter() - t0
    text = [
        "# phase.rs 0.103.0 beside triggerstack",
        "",
        "## What users call",
        "",
        "```",
        *timings(),
        "```",
        "",
        "## Translation",
        "",
        "```",
        *coverage(args.cards or None),
        "```",
        "",
        f"## Differential run ({args.boards} boards, seed {args.seed}, {dt:.0f} s)",
        "",
        "```",
        *report.lines(),
        "```",
        "",
    ]
    text += ["Disagreements (first 20):", ""]
    import json

    text += [f"* `{json.dumps(d)[:400]}`" for d in report.disagreements[:20]]
    OUT.write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    return 0


def order_prompt_of_nine() -> list[str]:
    """examples/phase/loop.py's board: Wrath of God under two Blood Artists, a Zulaport Cutthroat and a
    Soul Warden — an order prompt of 9 abilities (362,880 orders): each step timed, best of 20."""
    import random

    from triggerstack.adapters.phase import Board, Session, answers, engine

    cards = ["Blood Artist", "Zulaport Cutthroat", "Soul Warden", "Grizzly Bears", "Wrath of God"]
    mine = ["Blood Artist", "Zulaport Cutthroat", "Grizzly Bears"]
    theirs = ["Blood Artist", "Soul Warden", "Grizzly Bears"]
    board = Board.build(engine(cards), [mine, [*theirs, "Wrath of God"]], seed=7)
    for owner, names in ((0, mine), (1, theirs)):
        for name in names:
            board.move(board.object_id(name, owner))
    board.cast("Wrath of God", 1)
    reading = Session(board.game).reading()
    got = answers(reading)
    rng = random.Random(1)
    n = got.count()
    from dataclasses import replace

    steps = {"answers, the batch's first (its stepper compiled)": lambda: answers(replace(reading, stepper=None)),
             "answers, later (the batch's stepper kept)": lambda: answers(reading), "count": got.count,
             "draw": lambda: got.draw(rng), "i-th": lambda: got[rng.randrange(n)],
             "index (check an answer)": lambda: got.index(got[n // 3])}  # fmt: skip
    out = [f"An order prompt of {len(reading.prompt['data']['triggers'])} abilities ({n:,} answers; "
           "examples/phase/loop.py's board), best of 20, in process:", "", "| step | ms |", "|---|---|"]
    for name, f in steps.items():
        best = min(_once(f) for _ in range(20))
        out.append(f"| {name} | {best * 1e3:.3f} |")
    return out


def _once(f: Any) -> float:
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def per_prompt(boards: int, seed: int) -> int:
    """The per-prompt run: prompts by kind, crashes, the Session's readings against whole ones, and the
    cost of each step beside phase's export and apply, from one run (benchmarks/results/phase-per-prompt.md)."""
    from tests.phase_harness.per_prompt import run as per_prompt_run

    t0 = time.perf_counter()
    r = per_prompt_run(boards, seed, progress=lambda k: print(f"board {k}", file=sys.stderr) if k % 25 == 0 else None)
    dt = time.perf_counter() - t0
    big = [o for o in r.orders if o[0] >= 8]
    text = [
        "# The phase adapter at each prompt",
        "",
        f"`python benchmarks/phase_rs.py --per-prompt {boards} --seed {seed}`: {boards} boards, {dt:.0f} s, "
        "phase-python 0.103.0, one run on a shared 2-core machine.",
        "",
        f"* boards that reached a prompt: {r.boards}; prompts: {r.prompts} "
        f"({', '.join(f'{k} {n}' for k, n in sorted(r.kinds.items()))})",
        f"* crashes (anything but PhaseError or PhaseGap): {len(r.crashes)}",
        f"* prompts read from the prompt and the stack alone: {r.followed} of {r.prompts}; readings unlike a whole "
        f"reading: {len(r.differences)}",
        f"* placements phase reached that are legal: {r.finals_checked}; of those, outside the ways to finish at a "
        f"prompt they passed: {len(r.final_outside_rest)}",
        f"* largest order prompt: {r.largest_order} abilities"
        + (f"; order prompts of 8 or more: {len(big)}, slowest count / draw / i-th "
           + " / ".join(f"{max(o[i] for o in big) * 1e3:.3f}" for i in (1, 2, 3)) + " ms"
           if big else ""),
        f"* gaps: {dict(r.gaps)}",
        f"* phase's own errors: {dict(r.phase_errors)}",
        "",
        "Each step at each prompt, milliseconds (`rest` counts the ways to finish on a reading of its own, with its "
        "own stepper, so that nothing it walks is found ready by the loop at a later prompt):",
        "",
        *r.table(),
        "",
        "Our work at each kind of prompt (the reading without phase's export, the answers and a draw: what the "
        "documented loop calls) beside phase's apply of the answer at the same prompts:",
        "",
        *r.by_kind(),
        "",
        *(f"* crash: `{c.splitlines()[0]}`" for c in r.crashes[:10]),
        *(f"* difference: `{d}`" for d in r.differences[:10]),
        *(f"* outside: `{d}`" for d in r.final_outside_rest[:10]),
    ]
    text += ["", *order_prompt_of_nine()]
    (OUT.parent / "phase-per-prompt.md").write_text("\n".join(text) + "\n", encoding="utf-8")
    print("\n".join(text))
    return 0 if not r.crashes and not r.differences else 1


if __name__ == "__main__":
    sys.exit(main())
