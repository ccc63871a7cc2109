"""A seeded random sample of real cards whose triggers target and which the reader reads whole, each
with its Oracle text and what the reader made of it — the sheet a hand audit fills in (issue 35: at
most one wrong reading in 100).

    python tools/card_sample.py --seed 35 -n 100 > sample.md
    python tools/card_sample.py --seed 6464 -n 150 --any-trigger \
        --excluding benchmarks/results/card-audits/seed-{35,36,37,38,39,5721,6173}.md

``--any-trigger`` draws instead among every card with a triggered ability, read whole or not, found
by the Oracle text itself (a line beginning "When", "Whenever" or "At", after an ability word and its
dash, reminder text removed) and not by the reader, so that a triggered ability the reader misses or
reads as targeting nothing can be drawn; ``--excluding`` leaves out the cards of earlier audits.

Each card gets a numbered section: its Oracle text, the object fragment, and each triggered ability's
trigger fragment (or the refusal), so a reader with the Comprehensive Rules beside them can write
"right" or "wrong: …" under it. The same seed draws the same cards from the same corpus.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

_TRIGGERED = re.compile(r"^(?:[^—\n(]{1,60} — )?(?:When|Whenever|At)\b")
"""A triggered ability's line, by its words alone (603.1), after an ability word and its dash."""


def sample(seed: int, n: int) -> list[str]:
    """The names of ``n`` cards drawn with ``seed`` among those whose triggered abilities mention
    "target" and are all read whole."""
    from triggerstack.model.cards import corpus, read

    names = []
    for card in corpus().cards():
        found = read(card)
        if found and all(a.unread is None for a in found) and any("target" in a.text.lower() for a in found):
            names.append(card.name)
    names.sort()
    return random.Random(seed).sample(names, min(n, len(names)))


def sample_triggered(seed: int, n: int, excluding: list[str]) -> list[str]:
    """The names of ``n`` cards drawn with ``seed`` among every card with a triggered ability by its
    Oracle text (read whole or not), leaving out the cards the audit files ``excluding`` list."""
    from triggerstack.model.cards import corpus

    every = corpus().cards()
    known = {card.name for card in every}
    earlier = {  # a table cell that is a card's name, whatever the audit's columns
        cell.strip()
        for path in excluding
        for row in Path(path).read_text(encoding="utf-8").splitlines()
        if row.startswith("|")
        for cell in row.split("|")
        if cell.strip() in known
    }
    names = set()
    for card in every:
        lines = (re.sub(r"\([^)]*\)", "", line).strip() for line in card.text.split("\n"))
        if card.name not in earlier and any(_TRIGGERED.match(line) for line in lines):
            names.add(card.name)
    return random.Random(seed).sample(sorted(names), min(n, len(names)))


def sheet(names: list[str], seed: int) -> str:
    """The audit sheet for ``names`` (Markdown)."""
    from triggerstack.model.cards import card_report

    out = [f"# Card reading audit: {len(names)} cards, seed {seed}", ""]
    for i, name in enumerate(names, 1):
        report = card_report(name)
        out += [f"## {i}. {report['name']}", "", "```", report["oracle_text"], "```", ""]
        out += [f"object: `{json.dumps(report['object'], sort_keys=True)}`", ""]
        for ability in report["triggered_abilities"]:
            kind = next(k for k in ("trigger", "template", "unread") if k in ability)
            read = ability[kind] if kind != "template" else {"template": ability[kind], "board": ability.get("board")}
            out += [f"- ability {ability['index']} ({kind}): `{json.dumps(read, sort_keys=True)}`"]
        if not report["triggered_abilities"]:
            out += ["- no triggered ability read"]
        out += ["", "verdict: ", ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=35, help="the draw's seed (default 35)")
    parser.add_argument("-n", type=int, default=100, help="how many cards (default 100)")
    parser.add_argument("--any-trigger", action="store_true", help="every card with a triggered ability, by its text")
    parser.add_argument("--excluding", nargs="*", default=[], help="audit files whose cards are left out")
    args = parser.parse_args()
    names = sample_triggered(args.seed, args.n, args.excluding) if args.any_trigger else sample(args.seed, args.n)
    sys.stdout.write(sheet(names, args.seed))


if __name__ == "__main__":
    main()
