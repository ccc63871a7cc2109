"""Instruction counts of the public verbs, by callgrind: a figure that does not move with a shared
machine's load, for telling whether a change made what users call dearer.

``python benchmarks/callgrind.py [--out FILE] [--compare FILE]`` runs, for each verb below, a
Python process under ``valgrind --tool=callgrind`` that reads the scenario, calls the verb ``N``
times, and one that does the same with the verb called zero times; the difference is the verb's
own instructions (the interpreter's start, the imports and the reading are subtracted). It writes
one JSON object ``{verb: instructions}``; with ``--compare`` it prints each verb's ratio to an
earlier run and exits 1 if any is above 1.1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SCENARIO = HERE / "scenarios" / "mixed-10.json"
PROPOSAL = HERE / "scenarios" / "mixed-10.proposal.json"
COUPLED = HERE / "scenarios" / "coupled-5.json"
WARD = HERE / "scenarios" / "ward-3.json"

SETUP = f"""
import itertools, json
from triggerstack.model import Outcome, Scenario, Score
from triggerstack.solver import LegalOutcomes, best, check, count, explain, outcome_lines, sample, step
mixed = json.load(open({str(SCENARIO)!r}))
proposal = json.load(open({str(PROPOSAL)!r}))
coupled = json.load(open({str(COUPLED)!r}))
ward = json.load(open({str(WARD)!r}))
"""

VERBS = {
    # each: what one call is (a fresh scenario object each time, as a user calling the verb holds one)
    "count": "count(Scenario.model_validate(mixed))",
    "count coupled": "count(Scenario.model_validate(coupled))",
    "count ward (two passes)": "count(Scenario.model_validate(ward))",
    "enumerate 2000 lines": "list(itertools.islice(outcome_lines(Scenario.model_validate(mixed)), 2000))",
    "sample 200": "sample(Scenario.model_validate(mixed), 200, seed=1)",
    "check": "check(Scenario.model_validate(mixed), Outcome.model_validate(proposal))",
    "explain": "explain(Scenario.model_validate(mixed))",
    "best": "best(Scenario.model_validate(mixed), Score.model_validate({'height': {'T0': 1}}))",
    "step 6 decisions": "s = LegalOutcomes(Scenario.model_validate(mixed)).stepper(); w = s.walk([]);\n"
    "for _ in range(6): w = s.apply(w, s.legal(w)[0])",
}
CALLS = 3


def instructions(code: str) -> int:
    """The instructions callgrind counts for running ``code`` in a fresh interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "run.py"
        script.write_text(code, encoding="utf-8")
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", sys.executable, str(script)],
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from callgrind:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def measure() -> dict[str, int]:
    out = {}
    for verb, call in VERBS.items():
        body = "\n".join("    " + line for line in call.splitlines())
        warm = SETUP + f"for _ in range(1):\n{body}\n"  # the imports a verb needs, made before the count
        base = instructions(warm)
        full = instructions(warm + f"for _ in range({CALLS}):\n{body}\n")
        out[verb] = (full - base) // CALLS
        print(f"{verb:28} {out[verb]:>16,}", file=sys.stderr)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", help="write the counts here (JSON)")
    parser.add_argument("--compare", help="an earlier --out file: print ratios, exit 1 above 1.1")
    args = parser.parse_args()
    counts = measure()
    if args.out:
        Path(args.out).write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
    if args.compare:
        before = json.loads(Path(args.compare).read_text(encoding="utf-8"))
        worst = 0.0
        for verb, n in counts.items():
            if verb in before:
                ratio = n / before[verb]
                worst = max(worst, ratio)
                print(f"{verb:28} {before[verb]:>16,} -> {n:>16,}  {ratio:.3f}x")
        return 1 if worst > 1.1 else 0
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
