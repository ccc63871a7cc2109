"""A seeded random sample of real cards whose triggers target and which the reader reads whole, each
with its Oracle text and what the reader made of it — the sheet a hand audit fills in (issue 35: at
most one wrong reading in 100).

    python tools/card_sample.py --seed 35 -n 100 > sample.md

Each card gets a numbered section: its Oracle text, the object fragment, and each triggered ability's
trigger fragment (or the refusal), so a reader with the Comprehensive Rules beside them can write
"right" or "wrong: …" under it. The same seed draws the same cards from the same corpus.
"""

from __future__ import annotations

import argparse
import json
import random
import sys


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


def sheet(names: list[str], seed: int) -> str:
    """The audit sheet for ``names`` (Markdown)."""
    from triggerstack.model.cards import card_report

    out = [f"# Card reading audit: {len(names)} cards, seed {seed}", ""]
    for i, name in enumerate(names, 1):
        report = card_report(name)
        out += [f"## {i}. {report['name']}", "", "```", report["oracle_text"], "```", ""]
        out += [f"object: `{json.dumps(report['object'], sort_keys=True)}`", ""]
        for ability in report["triggered_abilities"]:
            read = ability.get("trigger", ability.get("unread"))
            out += [f"- ability {ability['index']}: `{json.dumps(read, sort_keys=True)}`"]
        out += ["", "verdict: ", ""]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=35, help="the draw's seed (default 35)")
    parser.add_argument("-n", type=int, default=100, help="how many cards (default 100)")
    args = parser.parse_args()
    sys.stdout.write(sheet(sample(args.seed, args.n), args.seed))


if __name__ == "__main__":
    main()
