"""What a command the docs give names must exist (tests/test_doc_blocks.py): a ``triggerstack`` line
parses by the command line's own parser, a ``pip install`` names this clone and extras it has (no
package ``triggerstack`` is published), a ``python`` line a script that takes the flags given, a module
that is there or code that compiles, and ``javac``/``java`` the client sources that are there.

A block's command is checked whole (its ``triggerstack`` line parsed as the CLI parses it); a command
quoted in the prose (```triggerstack conformance run --self | --engine CMD [--suite DIR]```, or in
the README's table without its name, ```best SCENARIO --score FILE```) is often a form with
alternatives, so there its verb and each ``--flag`` must be the CLI's, and a placeholder after a flag
the one ``--help`` shows (``--score SCORE`` named a file).

Private unit: solver/_cli's parser (_parser, _verb_of), which a command the docs give must parse by, without running it.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
import re
import shlex
import tomllib
from collections.abc import Iterator
from functools import cache

from .conftest import ROOT

_SEPARATORS = {"&&", "||", ";", "|", "&"}
_PIP_VALUED = {"-r", "-c", "-i", "-f", "--index-url", "--extra-index-url", "--find-links", "--constraint"}
_FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


@cache
def extras() -> frozenset[str]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return frozenset(tomllib.load(f)["project"]["optional-dependencies"])


def _simple(command: str) -> Iterator[list[str]]:
    """The simple commands of one shell line, each as its words (``&&``, ``|``, ``;`` split them;
    ``# …`` ends the line)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    words: list[str] = []
    for token in lexer:
        if token in _SEPARATORS:
            if words:
                yield words
            words = []
        else:
            words.append(token)
    if words:
        yield words


def block_commands(lang: str, body: str) -> Iterator[str]:
    """The commands a block gives: its ``$ `` lines in a session (``console``, or ``text`` that shows
    one), every line of a ``sh`` block (``\\`` continues a line)."""
    if lang == "sh":
        yield from (line for line in re.sub(r"\\\n", " ", body).splitlines() if line.strip())
    elif lang in ("console", "text"):
        yield from (line[2:] for line in body.splitlines() if line.startswith("$ "))


def prose(text: str) -> Iterator[tuple[int, str]]:
    """A page's lines outside its fenced blocks, with their numbers."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced:
            yield n, line


def prose_commands(text: str) -> Iterator[str]:
    """The commands a page quotes in its prose (inline code outside its fenced blocks)."""
    commands = "|".join(_cli_options())
    for span in re.findall(r"(?<!`)`([^`]+)`(?!`)", "\n".join(line for _, line in prose(text))):
        span = " ".join(span.split())
        if re.match(r"(triggerstack |pip install |python3? |\.venv/bin/)", span):
            yield span
        elif re.match(rf"({commands}) (-|[A-Z\[])", span):  # a command's form without its name (the README's table)
            yield f"triggerstack {span}"


def wrong(command: str, whole: bool = True) -> list[str]:
    """What in one command names nothing (``whole``: a block's command, parsed in full; else a form
    quoted in the prose)."""
    if not whole and command.startswith("triggerstack "):  # a form: alternatives (|), [--optional], CMD
        return _wrong_triggerstack(command.split()[1:], whole=False)
    try:
        simple = list(_simple(command))
    except ValueError as exc:
        return [f"not one shell command ({exc})"]
    return [problem for words in simple for problem in _wrong_simple(words)]


def _wrong_simple(words: list[str]) -> list[str]:
    while words and re.fullmatch(r"[A-Za-z_]\w*=.*", words[0]):  # VAR=value command
        words = words[1:]
    if not words:
        return []
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    if program == "triggerstack":
        return _wrong_triggerstack(args, whole=True)
    if program in ("pip", "pip3") or (program.startswith("python") and args[:2] == ["-m", "pip"]):
        rest = args[2:] if program.startswith("python") else args
        return _wrong_pip(rest[1:]) if rest[:1] == ["install"] else []
    if re.fullmatch(r"python(3(\.\d+)?)?", program):
        return _wrong_python(args)
    if program == "javac":
        return [f"no file {a}" for a in args if a.endswith(".java") and not (ROOT / a).is_file()]
    if program == "java":
        named = [a for i, a in enumerate(args) if not a.startswith("-") and args[i - 1 : i] != ["-cp"]]
        if named and not list((ROOT / "clients").rglob(f"{named[0]}.java")):
            return [f"no class {named[0]} in clients/"]
    return []


@cache
def _cli_options() -> dict[str, dict[str, str | None]]:
    """Each command's flags (its subcommands' included) with the metavar ``--help`` gives each, and
    the top level's under ''."""
    from triggerstack.solver._cli import _parser

    def flags(parser: argparse.ArgumentParser) -> dict[str, str | None]:
        found = {s: a.metavar if isinstance(a.metavar, str) else None for a in parser._actions for s in a.option_strings}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for child in action.choices.values():
                    found |= flags(child)
        return found

    top = _parser(None)
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    out: dict[str, dict[str, str | None]] = {"": {s: None for a in top._actions for s in a.option_strings}}
    for name in sub.choices:
        full = _parser(name)
        (each,) = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
        out[name] = flags(each.choices[name])
    return out


def _wrong_triggerstack(args: list[str], whole: bool) -> list[str]:
    options = _cli_options()
    if not whole:  # each flag is the command's, and a placeholder after it is the one --help shows
        verb = args[0] if args and re.fullmatch(r"[a-z]+", args[0]) else None
        if verb is not None and verb not in options:
            return [f"no command {verb!r} (triggerstack --help)"]
        known = options[""] | options[verb] if verb else {k: v for o in options.values() for k, v in o.items()}
        problems = []
        for flag, value in re.findall(rf"({_FLAG.pattern})(?: (\S+))?", " ".join(args)):
            while value.endswith("]") and value.count("]") > value.count("["):  # [--flag VALUE]
                value = value[:-1]
            if flag not in known:
                problems.append(f"no flag {flag} for {verb or 'any command'}")
            elif verb and value and re.match(r"\[?[A-Z]", value) and value != known[flag]:
                problems.append(f"{flag} {value}: --help says {flag} {known[flag]}")
        return problems
    from triggerstack.solver._cli import _parser, _verb_of

    said = io.StringIO()
    try:
        with contextlib.redirect_stderr(said), contextlib.redirect_stdout(io.StringIO()):
            _parser(_verb_of(args)).parse_args(args)
    except SystemExit as exc:
        if exc.code not in (0, None):
            return [said.getvalue().strip()]
    return []


def _wrong_pip(args: list[str]) -> list[str]:
    problems, skip = [], False
    for arg in args:
        if skip or arg in _PIP_VALUED:
            skip = not skip
            continue
        if arg.startswith("-"):
            continue
        local = re.fullmatch(r"\.\[([\w,-]*)\]|\.", arg)
        if local:
            problems += [f"no extra [{e}] in pyproject.toml" for e in (local.group(1) or "").split(",") if e and e not in extras()]
        elif re.match(r"triggerstack\b", arg, flags=re.I):
            problems.append(f"{arg}: no package triggerstack is published (pip install -e '.[extra]' in a clone)")
    return problems


def _wrong_python(args: list[str]) -> list[str]:
    if args[:1] == ["-m"] and len(args) > 1:
        return [] if importlib.util.find_spec(args[1]) is not None else [f"no module {args[1]}"]
    if args[:1] == ["-c"] and len(args) > 1:
        try:
            compile(args[1], "-c", "exec")
        except SyntaxError as exc:
            return [f"python -c: {exc}"]
        return []
    if not args or not args[0].endswith(".py"):  # an option, or a placeholder (python SCRIPT)
        return []
    script = ROOT / args[0]
    if not script.is_file():
        return [f"no script {args[0]}"]
    source = script.read_text(encoding="utf-8")
    return [f"{args[0]} takes no {f}" for f in _FLAG.findall(" ".join(args[1:])) if f"{f}" not in source]
