"""The command line (SPEC §7): parsing, I/O and exit codes only.

Exit codes: 0 legal / done, 1 illegal proposal, 2 bad input (one line on stderr, never a
traceback), 3 time limit reached, 70 an internal error (a bug: please report it).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from pydantic import BaseModel
from triggerstack.model.errors import ScenarioError
from triggerstack.model.outcome import Outcome, Score
from triggerstack.model.scenario import Scenario

__all__ = ["main"]

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT, EXIT_TIME_LIMIT, EXIT_INTERNAL = 0, 1, 2, 3, 70

PROG = "triggerstack"


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {message} (see {self.prog} --help)\n")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Which ways of putting waiting triggered abilities on the stack are legal (rule 603.3).",
        epilog="Files are .json, .yaml or .yml; - reads standard input. "
        "Exit codes: 0 legal, 1 illegal, 2 bad input, 3 time limit.",
    )
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)

    c = sub.add_parser("check", help="is this proposed placement legal? every violation with its rule")
    c.add_argument("scenario", metavar="SCENARIO")
    c.add_argument("proposal", metavar="PROPOSAL")
    c.add_argument("--json", action="store_true", help='print {"legal": ..., "violations": [...]}')

    e = sub.add_parser("explain", help="controllers and why, blocks, legal modes and targets, removal")
    e.add_argument("scenario", metavar="SCENARIO")
    e.add_argument("--json", action="store_true", help="machine-readable output")

    s = sub.add_parser("schema", help="the JSON Schema of a scenario, an outcome or a score")
    s.add_argument("what", nargs="?", default="scenario", choices=["scenario", "outcome", "score"])
    return p


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def _check(args: argparse.Namespace) -> tuple[int, str]:
    from .check import check

    if args.scenario == "-" and args.proposal == "-":
        raise ScenarioError("only one of SCENARIO and PROPOSAL can be standard input (-)")
    scenario = Scenario.load(args.scenario)
    proposal = Outcome.load(args.proposal)
    try:
        verdict = check(scenario, proposal)
    except ScenarioError as exc:
        raise exc.located(args.proposal) from None
    code = EXIT_OK if verdict.legal else EXIT_ILLEGAL
    if args.json:
        return code, _dump(verdict.as_dict())
    if verdict.legal:
        return code, "legal"
    n = len(verdict.violations)
    lines = [f"illegal: {n} violation{'s' if n != 1 else ''}"]
    for v in verdict.violations:
        lines.append(f"{v.rule.value} {v.code.value} {v.ability or '-'}: {v.message}")
    return code, "\n".join(lines)


def _explain(args: argparse.Namespace) -> tuple[int, str]:
    from .explain import explain, explain_text

    data = explain(Scenario.load(args.scenario))
    return EXIT_OK, _dump(data) if args.json else explain_text(data)


def _schema(args: argparse.Namespace) -> tuple[int, str]:
    models: dict[str, type[BaseModel]] = {"scenario": Scenario, "outcome": Outcome, "score": Score}
    model = models[args.what]
    schema = model.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return EXIT_OK, _dump(schema)


_VERBS = {"check": _check, "explain": _explain, "schema": _schema}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    args = _parser().parse_args(argv)
    try:
        code, text = _VERBS[args.verb](args)
    except ScenarioError as exc:
        sys.stderr.write(f"{PROG}: {exc.one_line()}\n")
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except Exception as exc:  # a bug, not bad input: one line unless debugging
        if os.environ.get("TRIGGERSTACK_DEBUG"):
            raise
        sys.stderr.write(
            f"{PROG}: internal error: {type(exc).__name__}: {exc} (set TRIGGERSTACK_DEBUG=1 for details)\n"
        )
        return EXIT_INTERNAL
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    return code


def run() -> NoReturn:
    raise SystemExit(main())


if __name__ == "__main__":
    run()
