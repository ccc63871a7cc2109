"""Every fenced block of README.md and docs/*.md runs as printed, or says why it cannot (issue 52).

A block's info string says what it is, and each kind has one check here (docs/architecture.md, "How
a page's code blocks are held"):

* ``console`` — a session: each ``$ `` line runs in bash from the clone's root, with the venv's
  ``triggerstack`` first on the PATH, and prints the lines under it (stdout, then stderr), exactly,
  or where the block writes ``...`` the lines it keeps, in order, as runs of consecutive lines;
* ``console stdio`` — one ``$ `` command, then the lines typed into it (a JSON line with a
  ``"method"``) and the lines it answers, one answer a line, exactly; a value it answers that differs
  each run (a handle) may be shown as any other where the block then types it back;
* ``python`` — the page's Python blocks run in order in one namespace (their ``assert`` lines are
  the page's claims);
* ``python needs: EXTRA`` — runs alone, where every package of the extra is installed; skipped,
  saying so, where one is not;
* ``json FORMAT`` / ``yaml FORMAT`` — one document of that format (scenario, outcome, score,
  verdict), read by the format's own reader;
* ``LANG excerpt: PATH`` — every line is in PATH, whitespace aside (``...`` stands for what the
  page leaves out), so a quoted piece of code is the code;
* ``sh ci`` — every command is one ``.ci/run`` runs: the set-up and the tests CI runs are the ones
  the page gives;
* ``LANG illustrative: REASON`` — shown, not run, and the reason says why (minutes of training, an
  engine of the reader's own); still, a ``python`` one compiles.

A block with any other info string — a bare fence among them — fails here, naming its page and
line: that is how untagged output went stale before (docs/examples.md's Flametongue Kavu). And every
command a page shows and does not run, in an illustrative block or quoted in its prose, names what
is there (tests/doc_commands.py): a ``triggerstack`` line parses, a ``pip install`` names this
clone's extras.

Private unit: model/_reports.VerdictReport, the verdict format a doc's verdict block is read as.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import queue
import re
import subprocess
import sys
import threading
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import pytest
import yaml
from pydantic import BaseModel

from .conftest import PATIENCE, ROOT
from .doc_commands import block_commands, extras, prose, prose_commands, wrong

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FORMATS = ("scenario", "outcome", "score", "verdict")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence
    info: str
    body: str

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def kind(self) -> str:
        lang, _, rest = self.info.partition(" ")
        if rest.startswith(("illustrative:", "excerpt:", "needs:")):
            return rest.split(":", 1)[0]
        if lang == "console" and rest == "stdio":
            return "stdio"
        if lang == "sh" and rest == "ci":
            return "ci"
        if lang in ("json", "yaml") and rest in FORMATS:
            return "format"
        return lang if lang in ("console", "python") and not rest else "unclaimed"


def blocks(page: Path) -> Iterator[Block]:
    fence: tuple[int, str] | None = None
    body: list[str] = []
    for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("```"):
            if fence is None:
                fence, body = (n, line[3:].strip()), []
            else:
                yield Block(page, fence[0], fence[1], "\n".join(body) + "\n")
                fence = None
        elif fence is not None:
            body.append(line)
    assert fence is None, f"{page}: a block opened at line {fence[0]} never closes"


ALL = [b for page in PAGES for b in blocks(page)]


def of(kind: str) -> list[Block]:
    return [b for b in ALL if b.kind == kind]


def test_every_block_is_run_or_says_why_not() -> None:
    unclaimed = [f"{b.where}: ```{b.info}" for b in ALL if b.kind == "unclaimed"]
    assert not unclaimed, "blocks neither run nor marked illustrative (see this module's docstring):\n" + "\n".join(unclaimed)
    reasons = [b for b in of("illustrative") if len(b.info.split(":", 1)[1].strip()) < 10]
    assert not reasons, [b.where for b in reasons]
    assert len(ALL) >= 40 and len(of("console")) >= 10


def _shown_as(printed: list[str], shown: list[str]) -> str | None:
    """Why ``printed`` is not what ``shown`` shows (``...`` elides lines), or None."""
    if "..." not in shown:
        return None if printed == shown else "prints otherwise"
    at = 0
    runs: list[list[str]] = [[]]
    for line in shown:
        if line == "...":
            runs.append([])
        else:
            runs[-1].append(line)
    for part in (r for r in runs if r):
        while at + len(part) <= len(printed) and printed[at : at + len(part)] != part:
            at += 1
        if printed[at : at + len(part)] != part:
            return f"{part[0]!r} … not printed as shown"
        at += len(part)
    return None


def _sessions(block: Block) -> list[tuple[str, list[str]]]:
    found: list[tuple[str, list[str]]] = []
    for line in block.body.splitlines():
        if line.startswith("$ "):
            found.append((line[2:], []))
        else:
            assert found, f"{block.where}: output before any command"
            found[-1][1].append(line)
    return found


def _env() -> dict[str, str]:
    """The reader's shell after the README's set-up: the venv's ``triggerstack`` first on the PATH."""
    env = {**os.environ, "PATH": os.pathsep.join([os.path.dirname(sys.executable), os.environ.get("PATH", "")])}
    env.pop("COLUMNS", None)
    return env


@pytest.mark.slow  # every command of every page, each a process (about 30 s)
@pytest.mark.parametrize("block", of("console"), ids=[b.where for b in of("console")])
def test_a_session_prints_what_it_shows(block: Block) -> None:
    env = _env()
    for command, shown in _sessions(block):
        done = subprocess.run(["bash", "-c", command], capture_output=True, text=True, cwd=ROOT, env=env,
                              timeout=300, check=False)  # fmt: skip
        printed = (done.stdout + done.stderr).splitlines()
        differs = _shown_as(printed, shown)
        assert differs is None, f"{block.where}: $ {command}: {differs}\n" + "\n".join(printed[:40])


def _run(python: list[Block]) -> None:
    """Run blocks in order in one namespace from the clone's root: their asserts are the page's claims."""
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        namespace: dict[str, object] = {"__name__": "__doc__"}
        for b in python:
            exec(compile(b.body, b.where, "exec"), namespace)
    finally:
        os.chdir(here)


@pytest.mark.parametrize("page", sorted({b.page for b in of("python")}), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_pages_python_runs(page: Path) -> None:
    _run([b for b in of("python") if b.page == page])


def _same(shown: object, printed: object, bound: dict[str, str], later: str) -> bool:
    """Whether an answer printed is the one shown, binding a string shown to the one printed where
    the block types the shown one back later (a handle is new each run)."""
    if isinstance(shown, str) and isinstance(printed, str) and shown != printed:
        if bound.get(shown, printed) != printed or json.dumps(shown) not in later:
            return False
        bound[shown] = printed
        return True
    if isinstance(shown, dict) and isinstance(printed, dict):
        return shown.keys() == printed.keys() and all(_same(shown[k], printed[k], bound, later) for k in shown)
    if isinstance(shown, list) and isinstance(printed, list):
        return len(shown) == len(printed) and all(_same(a, b, bound, later) for a, b in zip(shown, printed, strict=True))
    return shown == printed and type(shown) is type(printed)


def _bind(line: str, bound: dict[str, str]) -> str:
    for shown, printed in bound.items():
        line = line.replace(json.dumps(shown), json.dumps(printed))
    return line


@pytest.mark.parametrize("block", of("stdio"), ids=[b.where for b in of("stdio")])
def test_a_stdio_session_answers_what_it_shows(block: Block) -> None:
    command, *lines = block.body.splitlines()
    assert command.startswith("$ ") and lines, f"{block.where}: one $ command, then what is typed and answered"
    with subprocess.Popen(["bash", "-c", command[2:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env()) as server:  # fmt: skip
        assert server.stdin is not None and server.stdout is not None and server.stderr is not None
        answers: queue.Queue[str] = queue.Queue()
        out = server.stdout
        reader = threading.Thread(target=lambda: list(map(answers.put, out)), daemon=True)
        reader.start()
        try:
            _converse(block, lines, server.stdin, answers)
        finally:
            server.stdin.close()
            try:
                server.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                server.kill()
            reader.join(timeout=PATIENCE)
        said = server.stderr.read()
    assert server.returncode == 0, said


def _converse(block: Block, lines: list[str], typed: IO[str], answers: queue.Queue[str]) -> None:
    """Type each request of the block, and hold each answer printed to the one shown."""
    bound: dict[str, str] = {}
    for at, line in enumerate(lines):
        if "method" in json.loads(line):  # typed
            typed.write(_bind(line, bound) + "\n")
            typed.flush()
            continue
        try:
            printed = answers.get(timeout=120).rstrip("\n")
        except queue.Empty:
            pytest.fail(f"{block.where}: no answer to show as {line}")
        later = "\n".join(lines[at + 1 :])
        assert _same(json.loads(line), json.loads(printed), bound, later), f"{block.where}: shows {line}, printed {printed}"
        assert _bind(line, bound) == printed, f"{block.where}: shows {line}, printed {printed} (written otherwise)"


def _requirements(extra: str) -> list[str]:
    with (ROOT / "pyproject.toml").open("rb") as f:
        listed = tomllib.load(f)["project"]["optional-dependencies"][extra]
    return [re.split(r"[\[<>=!~; ]", r, maxsplit=1)[0] for r in listed]


def _installed(name: str) -> bool:
    try:
        importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.parametrize("block", of("needs"), ids=[b.where for b in of("needs")])
def test_a_block_that_needs_an_extra_runs_where_it_is_installed(block: Block) -> None:
    lang, extra = block.info.split(" ")[0], block.info.split("needs:", 1)[1].strip()
    assert lang == "python" and extra in extras(), f"{block.where}: ```python needs: EXTRA, an extra of pyproject.toml"
    missing = [name for name in _requirements(extra) if not _installed(name)]
    if missing:
        pytest.skip(f"{block.where} needs the extra [{extra}]: {', '.join(missing)} not installed (pip install -e '.[{extra}]')")
    _run([block])


def test_an_illustrative_python_block_compiles() -> None:
    for b in of("illustrative"):
        if b.info.startswith("python "):
            compile(b.body, b.where, "exec")


def test_every_command_the_pages_give_names_what_is_there() -> None:
    """Each command of an illustrative block (``triggerstack`` lines parsed by the CLI's own parser)
    and each quoted in the prose: a command shown and not run still names real verbs, flags, scripts
    and extras (a session's commands are run, some to show an error)."""
    problems, checked = [], 0
    for b in of("illustrative"):
        for command in block_commands(b.info.split(" ")[0], b.body):
            checked += 1
            problems += [f"{b.where}: {command}: {p}" for p in wrong(command)]
    for page in PAGES:
        for span in prose_commands(page.read_text(encoding="utf-8")):
            checked += 1
            problems += [f"{page.relative_to(ROOT)}: `{span}`: {p}" for p in wrong(span, whole=False)]
    assert not problems, "\n".join(problems)
    assert checked >= 60


TYPO = re.compile(r"[,;]\s*[,;.]|(?<!\.)\.\.(?!\.)|\s[,;](?!\w)|\b([a-z]{2,}) \1\b", flags=re.I)
"""Doubled punctuation (a ",," once), a space before a comma, a doubled word."""


def test_the_prose_has_no_doubled_punctuation_or_words() -> None:
    found = []
    for page in PAGES:
        for n, line in prose(page.read_text(encoding="utf-8")):
            text = re.sub(r"\]\([^)]*\)", "]", re.sub(r"`[^`]*`", "`…`", line))  # code and link targets aside
            found += [f"{page.relative_to(ROOT)}:{n}: {m.group(0)!r} in {text.strip()[:120]}" for m in TYPO.finditer(text)]
    assert not found, "\n".join(found)
    assert TYPO.search("the extra [rl],, and") and TYPO.search("as the the page") and not TYPO.search("… and so on")


@pytest.mark.parametrize(
    ("command", "whole"),
    [
        ("triggerstack count --scroe FILE x.yaml", True),
        ("triggerstack cuont x.yaml", True),
        ("triggerstack conformance run --self --jsn", True),
        ("triggerstack best --divde", False),
        ("triggerstack serv --stdio", False),
        ("triggerstack best SCENARIO --score SCORE", False),
        ("triggerstack sample SCENARIO [-n N] [--seed N]", False),
        (".venv/bin/pip install 'triggerstack[phase]'", True),
        ("pip install -e '.[phaes]'", False),
        ("python -m pip install -q -e '.[dev,trian]'", True),
        ("cd /tmp && python benchmarks/phase_rs.py --per-promt 3", True),
        ("python benchmarks/{missing}.py", False),
        ("python -c 'import torch; print(torch.__version__'", True),
        ("javac -d out clients/java/{Missing}.java", True),
        ("java -cp out NoSuchRunner conformance/cases", True),
    ],
)
def test_a_command_naming_nothing_is_caught(command: str, whole: bool) -> None:
    assert wrong(command, whole), command


def test_a_command_naming_what_is_there_passes() -> None:
    for command, whole in [
        ("triggerstack conformance run --engine 'my-engine --rpc' --suite DIR --json", True),
        ("triggerstack conformance run --self | --engine CMD [--suite DIR] [--json] [--time-limit SECONDS]", False),
        ("FOO=1 .venv/bin/pip install -q -e '.[dev]' && . .venv/bin/activate  # set up", True),
        ("python benchmarks/phase_rs.py --per-prompt N", False),
        ("triggerstack VERB --help", False),
    ]:
        assert wrong(command, whole) == [], command


def test_a_format_block_is_one_of_its_format() -> None:
    from triggerstack.model import Outcome, Scenario, Score
    from triggerstack.model._reports import VerdictReport

    readers: dict[str, type[BaseModel]] = {"scenario": Scenario, "outcome": Outcome, "score": Score,
                                           "verdict": VerdictReport}  # fmt: skip
    for b in of("format"):
        kind = b.info.split(" ")[1]
        doc = yaml.safe_load(b.body)  # JSON is YAML; the format's reader decides
        readers[kind].model_validate(doc)


def test_an_excerpt_is_the_code_it_quotes() -> None:
    for b in of("excerpt"):
        path = ROOT / b.info.split("excerpt:", 1)[1].strip()
        assert path.is_file(), f"{b.where}: {path} is no file"
        source = re.sub(r"\s+", "", path.read_text(encoding="utf-8"))  # a call over lines may be quoted on one
        for line in (x.strip() for x in b.body.splitlines()):
            if not line or line == "...":
                continue
            pattern = re.compile(".{0,400}?".join(re.escape(re.sub(r"\s+", "", p)) for p in line.split("...")))
            assert pattern.search(source), f"{b.where}: not in {path.name}: {line}"


def test_the_setup_and_tests_the_readme_gives_are_what_ci_runs() -> None:
    ci = [re.sub(r"\s+#.*$", "", line).strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    commands = [line.strip() for b in of("ci") for line in b.body.splitlines() if line.strip() and not line.startswith("#")]
    assert commands, "the README gives its set-up and test commands in ```sh ci blocks"
    missing = [c for c in commands if c not in ci]
    assert not missing, f".ci/run does not run what the README gives: {missing}"
    activates = [c for c in commands if re.fullmatch(r"(\.|source) \.venv/bin/activate", c)]
    assert activates, "the sessions run with the venv's triggerstack on the PATH (_env): the README's set-up puts it there"
