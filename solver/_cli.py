"""The command line (docs/cli.md): parsing, I/O and exit codes only.

The verbs' subcommands and their flags are generated from the table of verbs (``verbs/table.py``)
and the limits' flags from :class:`~triggerstack.model.Limits`' fields. An error's exit code is
its kind's in the one table of errors (``solver/_errors.py``; docs/cli.md lists them): never 0 or
1 for an error, which would lie about a verdict.

Near the 600-line cap, with a reason: a verb or a field adds no line here (both are generated from
the table and the verb's parameters); only a command of the command line's own does (serve, batch,
conformance, schema — boards has its module, ``_boards/_cli.py``), whose parser is built on every
start, so it lives where importing it costs nothing (conformance's package imports pydantic).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from triggerstack.model._args import default_time_limit, flag, how_many, seed_of, whole_number
from triggerstack.model._errors import MissingExtra, ScenarioError, UsageError, install_hint
from triggerstack.model._limits import (
    DEFAULT_TIME_LIMIT,
    FLAGS,
    MOST_JOBS,
    Deadline,
    Limits,
    bounded,
    most_of,
    seconds_of,
)
from triggerstack.model._text import compact, shown_lines, typed, visible

from ._boards import _cli as _boards
from ._errors import KINDS, OutputFailed, Terminated, catch_ending, failure, restore
from ._options import Engine, Options
from ._output import stream as _stream
from ._output import write as _write
from ._verbs.table import VERBS, Command, Verb
from ._verbs.table import verb as table_verb

if TYPE_CHECKING:  # each verb imports what it needs, when it runs
    from pydantic import BaseModel

    from ._verbs.legal import LegalOutcomes

EXIT_OK, EXIT_ILLEGAL = 0, 1
"""The answers' codes; an error's is its kind's (solver/_errors.py)."""

PROG = "triggerstack"


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors on one line and exit code 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: error: {visible(message)} (see {self.prog} --help)\n")
        raise SystemExit(KINDS.BAD_INPUT.exit)

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        # A flag's one value that is "--" (--seed=--) is its value, read as every value is: argparse
        # drops a "--" from the values and gave the flag an empty list its reader never saw.
        if action.option_strings and action.nargs is None and arg_strings == ["--"]:
            value = self._get_value(action, "--")
            self._check_value(action, value)
            return value
        return super()._get_values(action, arg_strings)


class _Version(argparse.Action):
    """``--version``: the package's, read from its metadata only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from ._version import VERSION

        sys.stdout.write(f"{parser.prog} {VERSION}\n")
        parser.exit()


def _verb_of(argv: Sequence[str] | None) -> str:
    """The verb asked for, read by a parser that knows only the verbs' names (``--help``,
    ``--version`` and a missing or unknown verb are answered here, without importing a model)."""
    stub = _parser(None)
    found, _ = stub.parse_known_args(argv)
    return str(found.verb)


_LISTED = (
    *("check", "explain", "count", "enumerate", "sample", "best"),
    *("serve", "batch", "card", "boards", "conformance", "schema"),
)
"""The order ``--help`` lists the commands in: the verbs the table gives the command line
(``verbs/table.py``; one not named here comes last) and the command line's own."""


def _parser(verb: str | None) -> argparse.ArgumentParser:
    """The command line's parser, with ``verb`` 's flags in full (generated from its row of the table
    of verbs and its parameters, which imports its module); the other verbs are listed by name and
    help only."""
    p = _Parser(
        prog=PROG,
        description="Which ways of putting waiting triggered abilities on the stack are legal (rule 603.3).",
        epilog="Files are .json, .yaml or .yml; - reads standard input. Exit codes: 0 legal (or done), "
        "1 illegal, 2 bad input, 3 time limit, 74 the output could not be written, 130 interrupted.",
    )
    p.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = p.add_subparsers(dest="verb", required=True, metavar="VERB", parser_class=_Parser)
    limits = _limits_parser()
    verbs = {v.name: v for v in VERBS if v.cli is not None}
    for name in sorted({*verbs, *_OWN}, key=lambda n: _LISTED.index(n) if n in _LISTED else len(_LISTED)):
        if name in _OWN:
            _OWN[name][0](sub, limits)
        elif name == verb:
            _verb_parser(sub, verbs[name])
        else:
            sub.add_parser(name, help=verbs[name].cli.help, add_help=False)  # type: ignore[union-attr]
    return p


def _limits_parser(streams: bool = False) -> argparse.ArgumentParser:
    """The limits' flags, shared by the commands that read scenarios (generated from :class:`Limits`);
    ``streams``: of a verb whose lines are streamed (its row's ``streams``), which takes --max-answer
    only when it is given — its help says so, never a default the command does not take."""
    limits = _Parser(add_help=False)
    caps = limits.add_argument_group("limits (docs/cli.md#limits, model/_limits.py)")
    for name, default, what in Limits.described():
        said = f"default {default:,}"
        if name == "answer" and streams:  # unset: the lines are written as they go (_output.stream)
            said = "default none: the lines are written as they come, in constant memory; given, all of them"
        most = most_of(name)  # --max-depth's ceiling: what the readers can follow
        caps.add_argument(
            f"--max-{name}",
            type=_positive if most is None else _capped(most),
            default=None if name == "answer" else default,
            metavar="N",
            help=f"most {what} ({said})",
        )
    caps.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=f"give up after this long, exit 3 (default {DEFAULT_TIME_LIMIT:g}, or $TRIGGERSTACK_TIME_LIMIT; "
        "per line with --batch)",
    )
    return limits


def _verb_parser(sub: Any, verb: Verb) -> None:
    """A verb's subcommand: the scenario, a flag for each parameter, and the flags its row asks for."""
    cmd = verb.cli
    assert cmd is not None
    parents = [_limits_parser(cmd.streams)] if cmd.limits else []
    q = sub.add_parser(verb.name, parents=parents, help=cmd.help, description=cmd.description or None)
    if verb.scenario:
        q.add_argument("scenario", metavar="SCENARIO", nargs="?" if cmd.batch else None)
    _fields(q, verb.params, cmd)
    if cmd.engine:
        q.add_argument(
            "--engine",
            type=_engine,
            default=Engine.AUTO,
            metavar="ENGINE",
            help=f"which engine answers: {', '.join(Engine.names())} (default auto: the fastest exact one; "
            "fast is product)",
        )
    if cmd.merge:
        q.add_argument(
            "--merge-identical",
            action="store_true",
            help="count outcomes that only swap identical abilities (same source, text, choices) once",
        )
    if cmd.json:
        q.add_argument("--json", action="store_true", help=cmd.json)
    if cmd.svg:
        q.add_argument(
            "--format", choices=["text", "json", "svg"], default=None, help=f"text (default), json, or svg: {cmd.svg}"
        )
    if cmd.batch:
        q.add_argument("--batch", metavar="FILE", help="a JSON Lines file of proposals to check (- for standard input)")
        q.add_argument(
            "--scenario", dest="batch_scenario", metavar="S", help="with --batch: the one scenario of every line"
        )
        jobs = f"with --batch: check in N processes, at most {MOST_JOBS}"
        q.add_argument("--jobs", type=_processes, default=1, metavar="N", help=jobs)


def _serve_parser(sub: Any, limits: argparse.ArgumentParser) -> None:
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


def _batch_parser(sub: Any, limits: argparse.ArgumentParser) -> None:
    bt = sub.add_parser(
        "batch",
        parents=[limits],
        help="requests of any verb from JSON Lines files, locally or on a Dask cluster",
        description='Each line of each FILE is {"method": VERB, "params": {...}}, VERB any verb (check, count, '
        "enumerate, sample, best, explain, step.*, draw, card), with the params of that server method "
        '(docs/server.md); each answer line is {"line": N, "result": ...} or '
        '{"line": N, "error": {...}}, in input order, in NAME.out.jsonl beside the input (or in --out), written '
        "whole or not at all. Exit 0 if every line has a result, 1 if some have an error.",
    )
    bt.add_argument("files", metavar="FILE", nargs="+", help="JSON Lines files of requests")
    bt.add_argument("--out", metavar="DIR", help="where the answer files go (default: beside each input)")
    bt.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="a Dask scheduler (the extra [dask])")
    jobs = f"without --scheduler: N local processes, at most {MOST_JOBS}"
    bt.add_argument("--jobs", type=_processes, default=1, metavar="N", help=jobs)


def _conformance_parser(sub: Any, _limits: argparse.ArgumentParser) -> None:
    k = sub.add_parser(
        "conformance",
        help="run the 603.3 conformance suite against an engine (docs/conformance.md)",
        description="Put every case of the conformance suite to an engine under test over JSON-RPC (load, count with "
        "divide, check) and report each case: pass, or the first difference — under which first stack entry the "
        "counts part. Exit 0 if every case passes, 1 if some fail.",
    )
    ks = k.add_subparsers(dest="action", metavar="run", required=True)
    kr = ks.add_parser("run", help="run the suite")
    who = kr.add_mutually_exclusive_group(required=True)
    who.add_argument("--engine", metavar="CMD", help="the command starting the engine under test (JSON-RPC on stdio)")
    who.add_argument("--self", dest="itself", action="store_true", help="this tool, in this process")
    kr.add_argument("--suite", metavar="DIR", help="the folder of cases (default: conformance/cases of the repository)")
    kr.add_argument("--json", action="store_true", help="print the report as JSON")
    kr.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help=f"the most an engine may take to answer one request (default {DEFAULT_TIME_LIMIT:g}, or "
        "$TRIGGERSTACK_TIME_LIMIT); past it the "
        "engine is stopped and the case fails saying so",
    )


def _schema_parser(sub: Any, _limits: argparse.ArgumentParser) -> None:
    s = sub.add_parser("schema", help="the JSON Schema of a format: scenario, outcome, score, verdict or explain")
    s.add_argument(
        "what", nargs="?", default="scenario", choices=["scenario", "outcome", "score", "verdict", "explain"]
    )


def _fields(parser: argparse.ArgumentParser, params: type[BaseModel], cmd: Command) -> None:
    """A flag for each field of a verb's parameters (``limit`` is ``--limit``, ``n`` is ``-n``;
    its description the help); a document field is a file, positional (``PROPOSAL``) or a
    required option (``--score FILE``: it names a file) as the table says, and a field the row names positional is
    an argument (``NAME``, its help in lower case as argparse's own)."""
    for name, info in params.model_fields.items():
        if name in cmd.skip:
            continue
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        what = info.description or ""
        if "document" in extra:
            if extra.get("option"):
                parser.add_argument(f"--{name}", required=True, metavar="FILE", help=f"{what}: a .json/.yaml file")
            else:
                parser.add_argument(name, metavar=name.upper(), nargs="?")
            continue
        if name in cmd.positional:
            parser.add_argument(name, metavar=name.upper(), help=what[:1].lower() + what[1:])
            continue
        option = f"-{name}" if len(name) == 1 else "--" + name.replace("_", "-")
        if info.annotation is bool:
            parser.add_argument(option, action="store_true", help=what)
            continue
        default, meta = cmd.defaults.get(name, info.default), "S" if name == "seed" else "N"  # --seed S as boards'
        shown = f" (default {default})" if default is not None else ""
        kind = _seed if name == "seed" else _positive  # the page caps (-n, --limit) are a server's
        parser.add_argument(option, dest=name, type=kind, default=default, metavar=meta, help=what + shown)


_seconds = flag(lambda value: seconds_of(value, ""))
"""``--time-limit``: a finite number of seconds more than 0, read as the wire reads it (model/_args.py)."""
_positive = flag(lambda value: how_many(value, ""), whole=True)
"""A count or a cap of 1 or more, likewise (``how_many``: every count asked for, ``boards -n`` too)."""
def _capped(most: int) -> Callable[[str], int]:
    """A cap's flag with a ceiling (``--max-depth``: what the readers can follow): 1 to ``most``."""
    return flag(lambda value: whole_number(value, "", 1, most), whole=True)


_processes = flag(lambda value: whole_number(value, "", 1, MOST_JOBS), whole=True)
"""``--jobs``: 1 to ``MOST_JOBS`` processes, likewise."""
_seed = flag(lambda value: seed_of(value, ""), whole=True)
"""``--seed``: a whole number 0 or more, likewise (``--seed 1.0`` is what ``"seed": 1.0`` is)."""


def _engine(text: str) -> Engine:
    try:
        return Engine.parse(text)
    except ScenarioError as exc:
        raise argparse.ArgumentTypeError(exc.message) from None


def _limits(args: argparse.Namespace) -> Limits:
    return Limits(**{name: v for name, _, _ in Limits.described() if (v := getattr(args, f"max_{name}")) is not None})


def _options(args: argparse.Namespace) -> Options:
    """The options every verb is answered with, from the flags this verb has."""
    return Options(
        engine=getattr(args, "engine", Engine.AUTO),
        time_limit=args.time_limit,
        limits=_limits(args),
        merge_identical=getattr(args, "merge_identical", False),
    )


def _legal(args: argparse.Namespace, path: str) -> LegalOutcomes:
    """The scenario at ``path`` under the flags' options (read, compiled and measured against the
    caps by the verb layer; an error names the file)."""
    from triggerstack.model._scenario import Scenario

    from ._verbs.legal import LegalOutcomes

    limits = _limits(args)
    scenario = Scenario.load(path, limits)
    try:
        return LegalOutcomes(scenario, _options(args))
    except ScenarioError as exc:
        raise exc.located(path) from None


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False)


def _answer(args: argparse.Namespace) -> tuple[int, str] | None:
    """A verb of the table (verbs/table.py): its parameters from the flags, its documents read from
    their files, its answer printed as text, JSON, SVG or streamed lines."""
    verb = table_verb(args.verb)
    cmd = verb.cli
    assert cmd is not None
    if cmd.batch:
        if args.batch is not None:
            return _batch(args)
        if args.batch_scenario is not None or args.jobs != 1:
            raise UsageError("--scenario and --jobs go with --batch")
    files = [name for name in ("scenario", *_documents(verb, positional=True)) if hasattr(args, name)]
    if any(getattr(args, name) is None for name in files):
        batch = ", or --batch FILE" if cmd.batch else ""
        raise UsageError(f"{verb.name} needs {' and '.join(n.upper() for n in files)}{batch}")
    if sum(getattr(args, name) == "-" for name in files) > 1:
        raise UsageError(f"only one of {' and '.join(n.upper() for n in files)} can be standard input (-)")
    # the time limit holds from the first byte read: reading and judging the documents count too
    with bounded(Deadline(getattr(args, "time_limit", None))):  # the call's one deadline, its verb's too
        return _answer_within(args, verb, cmd)


def _documents(verb: Verb, positional: bool = False) -> dict[str, str]:
    """The verb's parameters that are whole documents, and the kind of each (outcome, score); with
    ``positional``, only those given positionally (``PROPOSAL``, not ``--score FILE``)."""
    found = {}
    for name, info in verb.params.model_fields.items():
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        if "document" in extra and not (positional and extra.get("option")):
            found[name] = str(extra["document"])
    return found


def _answer_within(args: argparse.Namespace, verb: Verb, cmd: Command) -> tuple[int, str] | None:
    legal = _legal(args, args.scenario) if verb.scenario else None
    documents = _documents(verb)
    files: dict[str, str] = {}
    values: dict[str, Any] = {}
    for name in verb.params.model_fields:
        if name in cmd.skip:
            continue
        values[name] = getattr(args, name)
        if name in documents:  # read here: ``card`` reads no document, and starts quickly
            from triggerstack.model._outcome import Outcome, Score

            files[name] = values[name]
            values[name] = (Outcome.load if documents[name] == "outcome" else Score.load)(files[name], _limits(args))
    params = verb.params.model_construct(**values)  # argparse has typed them; the bounds are a server's
    try:
        if cmd.streams:
            assert legal is not None
            _stream(verb.lines(legal, params), getattr(args, "max_answer", None))
            return None
        result = verb.ask(legal, params)
        picture = result.picture() if getattr(args, "format", None) == "svg" else None
    except ScenarioError as exc:
        where = exc.loc[0] if exc.loc else None
        if isinstance(where, str) and where in files:  # a document's error names its file
            raise exc.outside(1).located(files[where]) from None
        raise
    from triggerstack.model._answer import too_large, written

    cap = getattr(args, "max_answer", None) or Limits().answer  # every answer held to it, as every server's
    as_json = picture is None and (getattr(args, "json", False) or getattr(args, "format", None) == "json")
    if as_json:
        report = result.cli_json()
        text = written(report, cap, "ask for less")  # counted as it is written (model/_answer.py)
    if not as_json or cmd.pretty:  # text, pictures, pretty JSON: made from what was counted, measured once
        text = picture if picture is not None else _dump(report) if as_json else result.text()
        if len(text.encode("utf-8")) > cap:
            raise too_large(cap, "ask for less")
    if result.exit_code() == KINDS.TIME_LIMIT.exit:  # the best found when time ran out, labelled so
        sys.stderr.write(f"{PROG}: time limit reached: the best outcome found so far, not proven optimal\n")
    return result.exit_code(), text


def _batch(args: argparse.Namespace) -> tuple[int, str]:
    from triggerstack.model._io import iter_lines, open_lines

    from .serve._batch import check_lines

    if args.scenario is not None or args.proposal is not None:
        raise UsageError("with --batch, give the batch's scenario as --scenario S, not positionally")
    shared = _legal(args, args.batch_scenario).facts if args.batch_scenario is not None else None
    source = sys.stdin.buffer if args.batch == "-" else open_lines(args.batch)  # closed below
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


def _conformance(args: argparse.Namespace) -> tuple[int, str]:
    from pathlib import Path

    from .conformance import ProcessEngine, SelfEngine, default_suite, load_suite, run

    cases = load_suite(Path(args.suite) if args.suite else default_suite())
    engine = SelfEngine(args.time_limit) if args.itself else ProcessEngine(args.engine, args.time_limit)
    try:
        report = run(engine, cases)
    finally:
        engine.close()
    code = EXIT_OK if not report.failed else EXIT_ILLEGAL
    return code, compact(report.as_dict()) if args.json else shown_lines(report.lines())


def _schema(args: argparse.Namespace) -> tuple[int, str]:
    from triggerstack.model._reports import published_schema

    return EXIT_OK, _dump(published_schema(args.what))


def _serve(args: argparse.Namespace) -> None:
    if args.http is None:
        from .serve._stdio import serve

        serve(sys.stdin.buffer, sys.stdout.buffer, _options(args))
        return
    host, _, port = args.http.rpartition(":")
    if not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--http: expected [HOST:]PORT, not {typed(args.http)}")
    try:
        import uvicorn

        from .serve._connections import protocol
        from .serve._http import app
    except ImportError as exc:
        missing = f"--http needs the extra: {install_hint('serve')} ({exc.name} is missing)"
        raise MissingExtra(missing) from None
    config = uvicorn.Config(
        app(_options(args), hosts=args.allow_host or ()),
        host=host or "127.0.0.1",
        port=int(port),
        log_level="warning",
        http=protocol(),
        timeout_keep_alive=5,
    )
    url = f"http://{'[' + config.host + ']' if ':' in config.host else config.host}:{config.port}"

    class Announced(uvicorn.Server):
        """uvicorn's server, saying where it listens once it does (uvicorn's own line is at info level)."""

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                with contextlib.suppress(OSError):
                    sys.stderr.write(
                        f"{PROG}: serving on {url} — the judge's page at {url}/, the API at {url}/v1/ "
                        f"(schema {url}/v1/openapi.json); Ctrl-C stops\n"
                    )
                    sys.stderr.flush()

    Announced(config).run()


def _jobs(args: argparse.Namespace) -> tuple[int, str]:
    from .serve._jobs import run

    written, clean = run(args.files, args.out, args.scheduler, args.jobs, _options(args))
    return (EXIT_OK if clean else EXIT_ILLEGAL), "\n".join(str(p) for p in written)


_OWN: dict[str, tuple[Callable[[Any, argparse.ArgumentParser], None], Callable[[argparse.Namespace], Any]]] = {
    "serve": (_serve_parser, _serve),
    "batch": (_batch_parser, _jobs),
    "conformance": (_conformance_parser, _conformance),
    "schema": (_schema_parser, _schema),
    "boards": (_boards.parser, lambda args: _boards.run(args, _write)),
}
"""The command line's own commands, which are not verbs of the table: their parsers and what runs them."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (the console script exits with it)."""
    sys.set_int_max_str_digits(0)  # exact counts print at any size; inputs have their own digit cap
    args = _parser(_verb_of(argv)).parse_args(argv)
    previous = catch_ending()
    from triggerstack.model import _parts

    with contextlib.suppress(AttributeError, ValueError, OSError):  # progress where a person reads it (as git)
        _parts.SAY = (lambda line: _fail(0, line)) if sys.stderr.isatty() else None
    flags = FLAGS.set(frozenset(f"--max-{n}" for n, _, _ in Limits.described() if f"max_{n}" in vars(args)))
    try:
        if "time_limit" in vars(args) and args.time_limit is None:  # its default: the machine's, read once
            args.time_limit = default_time_limit()
        own = _OWN.get(args.verb)
        result = own[1](args) if own is not None else _answer(args)
        if result is None:  # a streaming verb has written its output
            return EXIT_OK
        code, text = result
        _write(text + "\n" if text else "", flush=True)  # a batch has written its own lines
        return code
    except BaseException as exc:  # shown as the one table of errors says (solver/_errors.py)
        if not isinstance(exc, Exception | KeyboardInterrupt | Terminated):
            raise  # SystemExit and the like go on
        found = failure(exc)
        if found.kind is KINDS.INTERNAL:
            if os.environ.get("TRIGGERSTACK_DEBUG"):
                raise
            return _fail(found.kind.exit, f"{found.message} (set TRIGGERSTACK_DEBUG=1 for details)")
        if isinstance(exc, OutputFailed) and exc.errno is None:  # standard output: nothing more reaches it
            with contextlib.suppress(OSError, AttributeError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return _fail(found.kind.exit, *(found.lines or (found.message,)))
    finally:
        FLAGS.reset(flags)  # a refusal names only the flags this command has
        restore(previous)
        _parts.SAY = None


def _fail(code: int, *lines: str) -> int:
    with contextlib.suppress(OSError):
        sys.stderr.write("".join(f"{PROG}: {visible(line)}\n" for line in lines))
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
