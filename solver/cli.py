"""The command line (SPEC §7): parsing, I/O and exit codes only.

Exit codes: 0 legal / done, 1 illegal proposal, 2 bad input (one line on stderr, never a
traceback), 3 time limit reached, 70 an internal error (a bug: please report it), 74 the output
could not be written (closed or full standard output, or the reader went away: never 0 or 1,
which would lie about a verdict), 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from triggerstack.model.errors import ScenarioError, TimeLimitReached
from triggerstack.model.limits import DEFAULT_LIMITS, DEFAULT_TIME_LIMIT, Deadline, Limits
from triggerstack.model.text import visible, visible_lines

from .errors import OutputFailed
from .options import Engine, Options

if TYPE_CHECKING:  # each verb imports what it needs, when it runs: --help imports no model at all
    from triggerstack.model.facts import Facts

__all__ = ["main"]

EXIT_OK, EXIT_ILLEGAL, EXIT_BAD_INPUT, EXIT_TIME_LIMIT, EXIT_INTERNAL = 0, 1, 2, 3, 70
EXIT_OUTPUT, EXIT_INTERRUPTED, EXIT_TERMINATED = 74, 130, 143

PROG = "triggerstack"


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {visible(message)} (see {self.prog} --help)\n")
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Which ways of putting waiting triggered abilities on the stack are legal (rule 603.3).",
        epilog="Files are .json, .yaml or .yml; - reads standard input. Exit codes: 0 legal (or done), "
        "1 illegal, 2 bad input, 3 time limit, 74 the output could not be written, 130 interrupted.",
    )
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)
    limits = _Parser(add_help=False)
    caps = limits.add_argument_group("limits (docs/formats.md, model/limits.py)")
    for name, default, what in (
        ("bytes", DEFAULT_LIMITS.bytes, "bytes read from one document or batch line"),
        ("depth", DEFAULT_LIMITS.depth, "nesting of a document"),
        ("digits", DEFAULT_LIMITS.digits, "digits of one integer in a document"),
        ("values", DEFAULT_LIMITS.values, "values of one document, YAML aliases expanded"),
        ("abilities", DEFAULT_LIMITS.abilities, "waiting abilities"),
        ("objects", DEFAULT_LIMITS.objects, "objects"),
        ("candidates", DEFAULT_LIMITS.candidates, "candidates of one requirement"),
        ("choices", DEFAULT_LIMITS.choices, "choices of one ability listed one by one"),
        ("outcomes", DEFAULT_LIMITS.outcomes, "outcomes a solver engine (cpsat, constraint) enumerates"),
        ("passes", DEFAULT_LIMITS.passes, "passes of 603.3b when reactions fire further abilities (a loop is named)"),
        ("memory", DEFAULT_LIMITS.memory, "bytes of compiled scenarios a server keeps (serve)"),
    ):
        caps.add_argument(
            f"--max-{name}", type=_positive, default=default, metavar="N", help=f"most {what} (default {default:,})"
        )
    caps.add_argument(
        "--time-limit",
        type=_seconds,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help=f"give up after this long, exit 3 (default {DEFAULT_TIME_LIMIT:g}; with --batch, per line)",
    )

    c = sub.add_parser(
        "check",
        parents=[limits],
        help="is this proposed placement legal? every violation with its rule",
        description="Check one proposal (SCENARIO PROPOSAL), or a batch: --batch FILE.jsonl with one "
        '{"scenario": ..., "proposal": ...} per line, or proposals alone with --scenario S. A batch '
        "writes one verdict line per input line, in order; exit 0 if all are legal, 1 otherwise.",
    )
    c.add_argument("scenario", metavar="SCENARIO", nargs="?")
    c.add_argument("proposal", metavar="PROPOSAL", nargs="?")
    c.add_argument("--json", action="store_true", help='print {"legal": ..., "violations": [...]}')
    c.add_argument(
        "--format",
        choices=["text", "json", "svg"],
        default=None,
        help="text (default), json (as --json), or svg: the stack drawn, each violation beside its entry",
    )
    c.add_argument("--batch", metavar="FILE", help="a JSON Lines file of proposals to check (- for standard input)")
    c.add_argument(
        "--scenario", dest="batch_scenario", metavar="S", help="with --batch: the one scenario of every line"
    )
    c.add_argument("--jobs", type=_positive, default=1, metavar="N", help="with --batch: check in N processes")

    e = sub.add_parser(
        "explain", parents=[limits], help="controllers and why, blocks, legal modes and targets, removal"
    )
    e.add_argument("scenario", metavar="SCENARIO")
    e.add_argument("--json", action="store_true", help="machine-readable output")
    e.add_argument(
        "--format",
        choices=["text", "json", "svg"],
        default=None,
        help="text (default), json (as --json), or svg: the blocks and one legal outcome drawn",
    )

    def solving(q: argparse.ArgumentParser) -> None:
        q.add_argument("scenario", metavar="SCENARIO")
        q.add_argument(
            "--engine",
            type=_engine,
            default=Engine.AUTO,
            metavar="ENGINE",
            help="which engine answers: auto (default: the fastest exact one), product (also called fast), "
            "cpsat or constraint",
        )

    merge_help = "count outcomes that only swap identical abilities (same source, text, choices) once"
    n = sub.add_parser("count", parents=[limits], help="the exact number of legal outcomes")
    solving(n)
    n.add_argument("--json", action="store_true", help='print {"count": N, "engine": ..., "path": ...}')
    n.add_argument("--merge-identical", action="store_true", help=merge_help)

    en = sub.add_parser("enumerate", parents=[limits], help="every legal outcome once, one canonical JSON per line")
    solving(en)
    en.add_argument("--limit", type=_positive, default=None, metavar="N", help="stop after N outcomes")
    en.add_argument("--merge-identical", action="store_true", help=merge_help)

    sa = sub.add_parser("sample", parents=[limits], help="uniformly random legal outcomes, one canonical JSON per line")
    solving(sa)
    sa.add_argument("-n", type=_positive, default=1, metavar="N", help="how many (default 1)")
    sa.add_argument("--seed", type=int, default=None, metavar="S", help="for repeatable draws")

    b = sub.add_parser("best", parents=[limits], help="the legal outcome with the highest score, and the score")
    solving(b)
    b.add_argument("--score", required=True, metavar="SCORE", help="weights: a .json/.yaml file (schema: score)")

    sv = sub.add_parser(
        "serve",
        parents=[limits],
        help="answer JSON-RPC 2.0 requests for every verb (--stdio: one per line)",
        description="Serve every verb as JSON-RPC 2.0 methods: load a scenario once, then ask by its handle. "
        "--stdio reads one request per line on standard input and writes one response per line, in order, "
        "until end of input. The methods and their params and results: the rpc.discover method "
        "(docs/server.md). The limits apply to every request; --time-limit is each request's most.",
    )
    how = sv.add_mutually_exclusive_group(required=True)
    how.add_argument("--stdio", action="store_true", help="requests on standard input, one per line")
    how.add_argument(
        "--http",
        metavar="[HOST:]PORT",
        help="an HTTP service (the extra [serve]) on HOST (default 127.0.0.1) and PORT: POST /v1/<method>",
    )
    sv.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        help="with --http: a Host name to answer besides 127.0.0.1, localhost and ::1 (the name clients use "
        "to reach it; repeat for several); any other is refused, which stops DNS rebinding",
    )

    bt = sub.add_parser(
        "batch",
        parents=[limits],
        help="check, count and sample requests from JSON Lines files, locally or on a Dask cluster",
        description='Each line of each FILE is {"method": "check" | "count" | "sample", "params": {...}} with the '
        "params of that server method (docs/server.md); each answer line is {\"line\": N, \"result\": ...} or "
        '{"line": N, "error": {...}}, in input order, in NAME.out.jsonl beside the input (or in --out), written '
        "whole or not at all. Exit 0 if every line has a result, 1 if some have an error.",
    )
    bt.add_argument("files", metavar="FILE", nargs="+", help="JSON Lines files of requests")
    bt.add_argument("--out", metavar="DIR", help="where the answer files go (default: beside each input)")
    bt.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="a Dask scheduler (the extra [dask])")
    bt.add_argument("--jobs", type=_positive, default=1, metavar="N", help="without --scheduler: N local processes")

    s = sub.add_parser("schema", help="the JSON Schema of a format: scenario, outcome, score, verdict or explain")
    s.add_argument(
        "what", nargs="?", default="scenario", choices=["scenario", "outcome", "score", "verdict", "explain"]
    )
    return p


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError("the time limit must be more than 0 seconds")
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError("expected 1 or more")
    return value


def _engine(text: str) -> Engine:
    try:
        return Engine.parse(text)
    except ScenarioError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(
        bytes=args.max_bytes,
        depth=args.max_depth,
        digits=args.max_digits,
        values=args.max_values,
        abilities=args.max_abilities,
        objects=args.max_objects,
        candidates=args.max_candidates,
        choices=args.max_choices,
        outcomes=args.max_outcomes,
        passes=args.max_passes,
        memory=args.max_memory,
    )


def _options(args: argparse.Namespace) -> Options:
    """The options every verb is answered with, from the flags this verb has."""
    return Options(
        engine=getattr(args, "engine", Engine.AUTO),
        time_limit=args.time_limit,
        limits=_limits(args),
        merge_identical=getattr(args, "merge_identical", False),
    )


def _load(args: argparse.Namespace, path: str) -> Facts:
    """The scenario at ``path``, read and compiled within the limits (caps and time)."""
    from triggerstack.model.facts import check_limits, facts_of
    from triggerstack.model.scenario import Scenario

    limits = _limits(args)
    scenario = Scenario.load(path, limits)
    try:
        facts = facts_of(scenario, limits, Deadline(args.time_limit))
        check_limits(facts, limits)
    except ScenarioError as exc:
        raise exc.located(path) from None
    return facts


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def _check(args: argparse.Namespace) -> tuple[int, str] | None:
    from .verbs.legal import check

    if args.batch is not None:
        return _batch(args)
    if args.batch_scenario is not None or args.jobs != 1:
        raise ScenarioError("--scenario and --jobs go with --batch")
    if args.scenario is None or args.proposal is None:
        raise ScenarioError("check needs SCENARIO and PROPOSAL, or --batch FILE")
    if args.scenario == "-" and args.proposal == "-":
        raise ScenarioError("only one of SCENARIO and PROPOSAL can be standard input (-)")
    scenario = _load(args, args.scenario)
    from triggerstack.model.outcome import Outcome

    proposal = Outcome.load(args.proposal, _limits(args))
    try:
        verdict = check(scenario, proposal, _options(args))
    except ScenarioError as exc:
        raise exc.located(args.proposal) from None
    code = EXIT_OK if verdict.legal else EXIT_ILLEGAL
    if args.format == "svg":
        from .verbs.draw import verdict_svg

        return code, verdict_svg(scenario, proposal, verdict)
    if args.json or args.format == "json":
        return code, _dump(verdict.as_dict())
    if verdict.legal:
        return code, "legal"
    n = len(verdict.violations)
    lines = [f"illegal: {n} violation{'s' if n != 1 else ''}"]
    for v in verdict.violations:
        lines.append(f"{v.rule.value} {v.code.value} {v.ability or '-'}: {v.message}")
    return code, "\n".join(lines)


def _batch(args: argparse.Namespace) -> tuple[int, str]:
    from .verbs.batch import check_lines, iter_lines

    if args.scenario is not None or args.proposal is not None:
        raise ScenarioError("with --batch, give the batch's scenario as --scenario S, not positionally")
    shared = _load(args, args.batch_scenario) if args.batch_scenario is not None else None
    if args.batch == "-":
        source = sys.stdin.buffer
    else:
        try:
            source = open(args.batch, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise ScenarioError(f"cannot read: {exc.strerror}", source=args.batch) from None
    all_legal = True
    try:
        lines = iter_lines(source, _limits(args))
        for i, line in enumerate(check_lines(lines, shared, args.jobs, _options(args))):
            _write(line + "\n")  # whole lines only: an interrupted batch ends on a line's end
            if '"legal":true' not in line:
                all_legal = False
            if i % 4096 == 4095:
                _write("", flush=True)
        _write("", flush=True)
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    return (EXIT_OK if all_legal else EXIT_ILLEGAL), ""


def _explain(args: argparse.Namespace) -> tuple[int, str]:
    from .verbs.explain import explain_text
    from .verbs.legal import explain

    facts = _load(args, args.scenario)
    if args.format == "svg":
        from .verbs.draw import outcome_svg
        from .verbs.legal import LegalOutcomes

        legal = LegalOutcomes(facts, _options(args))
        return EXIT_OK, outcome_svg(facts, legal[0], (), f"one legal outcome of {legal.count()}")
    data = explain(facts, _options(args))
    return EXIT_OK, _dump(data) if args.json or args.format == "json" else explain_text(data)


def _schema(args: argparse.Namespace) -> tuple[int, str]:
    from triggerstack.model.reports import published_schema

    return EXIT_OK, _dump(published_schema(args.what))


def _count(args: argparse.Namespace) -> tuple[int, str]:
    from .verbs.legal import counted

    found = counted(_load(args, args.scenario), _options(args))
    if args.json:
        return EXIT_OK, json.dumps({"count": found.count, "engine": found.engine, "path": found.path})
    return EXIT_OK, str(found.count)


def _enumerate(args: argparse.Namespace) -> None:
    from .verbs.legal import outcome_lines

    _stream(outcome_lines(_load(args, args.scenario), _options(args), limit=args.limit))


def _sample(args: argparse.Namespace) -> None:
    from .verbs.legal import LegalOutcomes

    legal = LegalOutcomes(_load(args, args.scenario), _options(args))
    _stream(legal.sample_lines(args.n, args.seed))  # drawn as written: memory stays flat for any -n


class _OutputFailed(Exception):
    """Standard output could not be written (closed, full, or the reader went away)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))


def _write(text: str, flush: bool = False) -> None:
    if sys.stdout is None:  # started with standard output closed
        raise _OutputFailed(OSError(errno.EBADF, "standard output is closed"))
    try:
        if text:
            sys.stdout.write(visible_lines(text))  # what a scenario or proposal says can't steer the terminal
        if flush:
            sys.stdout.flush()
    except OSError as exc:
        raise _OutputFailed(exc) from None


def _stream(lines: Iterator[str]) -> None:
    """Write lines as they come, in chunks; the first is computed before anything is written, so
    an error found while starting leaves standard output empty."""
    chunk: list[str] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) == 2048:
            chunk.append("")
            _write("\n".join(chunk), flush=True)
            chunk.clear()
    if chunk:
        chunk.append("")
        _write("\n".join(chunk))
    _write("", flush=True)


def _best(args: argparse.Namespace) -> tuple[int, str]:
    from .verbs.legal import best

    scenario = _load(args, args.scenario)
    from triggerstack.model.outcome import Score, outcome_dict

    score = Score.load(args.score, _limits(args))
    try:
        found = best(scenario, score, _options(args))
    except ScenarioError as exc:
        if exc.loc and exc.loc[0] in ("height", "mode", "target", "removed"):
            raise exc.located(args.score) from None
        raise
    text = json.dumps(
        {"score": found.score, "proven": found.proven, "outcome": outcome_dict(found.outcome)}, sort_keys=True
    )
    if not found.proven:  # the best found when the time limit ran out, labelled as such
        sys.stderr.write(f"{PROG}: time limit reached: the best outcome found so far, not proven optimal\n")
        return EXIT_TIME_LIMIT, text
    return EXIT_OK, text


def _serve(args: argparse.Namespace) -> None:
    if args.http is None:
        from .serve.stdio import serve

        serve(sys.stdin.buffer, sys.stdout.buffer, _options(args))
        return
    host, _, port = args.http.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise ScenarioError(f"--http: expected [HOST:]PORT, not {args.http!r}")
    try:
        import uvicorn

        from .serve.http import app, protocol
    except ImportError as exc:
        missing = f"--http needs the extra: pip install 'triggerstack[serve]' ({exc.name} is missing)"
        raise ScenarioError(missing) from None
    uvicorn.run(
        app(_options(args), hosts=args.allow_host or ()),
        host=host or "127.0.0.1",
        port=int(port),
        log_level="warning",
        http=protocol(),
        timeout_keep_alive=5,
    )


def _jobs(args: argparse.Namespace) -> tuple[int, str]:
    from .serve.jobs import run

    written, clean = run(args.files, args.out, args.scheduler, args.jobs, _options(args))
    return (EXIT_OK if clean else EXIT_ILLEGAL), "\n".join(str(p) for p in written)


_VERBS: dict[str, Callable[[argparse.Namespace], tuple[int, str] | None]] = {
    "batch": _jobs,
    "serve": _serve,
    "check": _check,
    "explain": _explain,
    "schema": _schema,
    "count": _count,
    "enumerate": _enumerate,
    "sample": _sample,
    "best": _best,
}


class _Terminated(Exception):
    """SIGTERM, raised where the program is so that it ends like an interrupt: cleanly."""


def _on_sigterm(_signum: int, _frame: object) -> None:
    raise _Terminated


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    sys.set_int_max_str_digits(0)  # exact counts print at any size; inputs have their own digit cap
    args = _parser().parse_args(argv)
    previous = (
        signal.signal(signal.SIGTERM, _on_sigterm) if threading.current_thread() is threading.main_thread() else None
    )
    try:
        result = _VERBS[args.verb](args)
        if result is None:  # a streaming verb has written its output
            return EXIT_OK
        code, text = result
        _write(text + "\n" if text else "", flush=True)  # a batch has written its own lines
        return code
    except ScenarioError as exc:
        return _fail(EXIT_BAD_INPUT, exc.one_line())
    except TimeLimitReached as exc:
        return _fail(EXIT_TIME_LIMIT, f"time limit reached: {exc}")
    except KeyboardInterrupt:
        return _fail(EXIT_INTERRUPTED, "interrupted")
    except _Terminated:
        return _fail(EXIT_TERMINATED, "terminated")
    except OutputFailed as exc:  # an answer file (batch) could not be written: nothing half-written is left
        return _fail(EXIT_OUTPUT, f"cannot write the output: {exc.strerror or exc}")
    except _OutputFailed as exc:
        with contextlib.suppress(OSError, AttributeError, ValueError):  # nothing more reaches it, at exit either
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _fail(EXIT_OUTPUT, f"cannot write the output: {exc}")
    except Exception as exc:  # a bug, not bad input: one line unless debugging
        if os.environ.get("TRIGGERSTACK_DEBUG"):
            raise
        return _fail(
            EXIT_INTERNAL, f"internal error: {type(exc).__name__}: {exc} (set TRIGGERSTACK_DEBUG=1 for details)"
        )
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _fail(code: int, message: str) -> int:
    with contextlib.suppress(OSError):
        sys.stderr.write(f"{PROG}: {visible(message)}\n")
        sys.stderr.flush()
    return code


def run() -> NoReturn:
    """The console script: :func:`main`, then the process ends at once — everything it wrote is
    flushed and nothing is left to clean up (a batch's workers are joined), so the interpreter's
    teardown of every module, a tenth of a short run, is skipped."""
    code = main()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stdout.flush()
    with contextlib.suppress(OSError, ValueError, AttributeError):
        sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    run()
