"""The one table of verbs: each verb's name, the function that answers it, and how the command line
has it (:class:`Command`, for the verbs it has).

A verb is one module of this package, named as the verb (``count.py``: its parameters, a
:class:`~.base.Params`; its one result, a :class:`~.base.Result`; and the function answering it,
``answer(legal, p) -> result``, whose annotations name the two; the ``step.*`` verbs are the
``step`` package's) and one row here. Every surface is generated from :data:`VERBS`:
the JSON-RPC methods and the OpenRPC document (``serve/rpc.py``), the HTTP routes and the OpenAPI
document (``serve/http.py``), batch lines (``serve/jobs.py``) and the command line's subcommands
(``cli.py``: a field ``limit`` is ``--limit``, its description the help). To add a verb, see
docs/architecture.md.

This module imports no verb: a row names its function (``"count:answer"``), imported when the verb
is first asked for, so that ``triggerstack --help`` lists every verb without loading one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base import Params, Result
    from .legal import LegalOutcomes


@dataclass(frozen=True)
class Command:
    """How the command line has a verb: its help, the flags it adds to the verb's own parameters, and
    how it prints the answer."""

    help: str
    description: str = ""
    limits: bool = True
    """The limits' flags (``--max-…``, ``--time-limit``)."""
    engine: bool = True
    """``--engine``."""
    merge: bool = False
    """``--merge-identical``."""
    json: str = ""
    """The help of ``--json`` (none without it)."""
    pretty: bool = False
    """``--json`` indented, not on one line."""
    svg: str = ""
    """What ``--format svg`` draws (no ``--format`` without it)."""
    streams: bool = False
    """Answered as lines streamed as they come, by the function ``lines`` beside the answer's."""
    skip: tuple[str, ...] = ()
    """Parameters the command line does not have."""
    defaults: Mapping[str, Any] = field(default_factory=dict)
    """Parameters whose default differs on the command line."""
    positional: tuple[str, ...] = ()
    """Parameters given positionally (``NAME``) rather than as flags."""
    batch: bool = False
    """``--batch FILE``: proposals from a JSON Lines file (``check``; verbs/batch.py)."""


@dataclass(frozen=True)
class Verb:
    """One verb: its name (``step.apply``), the function that answers it (``"step:apply"``: the
    function ``apply`` of the ``step`` package), and how the command line has it (``None``: only the servers)."""

    name: str
    home: str
    cli: Command | None = None

    @cached_property
    def _module(self) -> Any:
        return import_module(f"{__package__}.{self.home.partition(':')[0]}")

    @cached_property
    def run(self) -> Callable[..., Result]:
        """``run(legal, params)``, or ``run(params)`` for a verb that takes no scenario."""
        found: Callable[..., Result] = getattr(self._module, self.home.partition(":")[2])
        return found

    @cached_property
    def _types(self) -> tuple[type[Params], type[Result], bool]:
        """The parameters and the result the function's annotations name, and whether it takes a scenario."""
        hints = dict(self.run.__annotations__)
        returned = hints.pop("return")
        *before, params = hints.values()

        def resolved(hint: Any) -> Any:
            return getattr(self._module, hint) if isinstance(hint, str) else hint

        return resolved(params), resolved(returned), bool(before)

    @property
    def params(self) -> type[Params]:
        return self._types[0]

    @property
    def result(self) -> type[Result]:
        return self._types[1]

    @property
    def scenario(self) -> bool:
        """Whether it is asked about a scenario (every verb but ``card``)."""
        return self._types[2]

    def ask(self, legal: LegalOutcomes | None, params: Params) -> Result:
        """Its answer to ``params`` about ``legal`` (``None`` for a verb that takes no scenario)."""
        return self.run(legal, params) if self.scenario else self.run(params)

    def json(self, legal: LegalOutcomes | None, params: Params) -> Any:
        """Its answer as the servers write it (``model/_answer.py``): JSON-ready, with the parts that
        grow with what is asked (a page's outcomes, a sample's draws) written as they come — the
        module's ``parts`` where it has one, else the result's ``to_json``."""
        parts: Callable[[LegalOutcomes, Params], Any] | None = getattr(self._module, "parts", None)
        if parts is not None and legal is not None:
            return parts(legal, params)
        return self.ask(legal, params).to_json()

    def lines(self, legal: LegalOutcomes, params: Params) -> Iterator[str]:
        """Its answer as lines, streamed as they come (a verb whose :class:`Command` streams)."""
        stream: Callable[[LegalOutcomes, Params], Iterator[str]] = self._module.lines
        return stream(legal, params)


VERBS: list[Verb] = [
    Verb(
        "check",
        "check:answer",
        Command(
            "is this proposed placement legal? every violation with its rule",
            "Check one proposal (SCENARIO PROPOSAL), or a batch: --batch FILE.jsonl with one "
            '{"scenario": ..., "proposal": ...} per line, or proposals alone with --scenario S. A batch '
            "writes one verdict line per input line, in order; exit 0 if all are legal, 1 otherwise.",
            engine=False,
            json='print {"legal": ..., "violations": [...]}',
            pretty=True,
            svg="the stack drawn, each violation beside its entry",
            batch=True,
        ),
    ),
    Verb(
        "count",
        "count:answer",
        Command(
            "the exact number of legal outcomes", merge=True, json='print {"count": N, "engine": ..., "path": ...}'
        ),
    ),
    Verb(
        "enumerate",
        "enumerate:answer",
        Command(
            "every legal outcome once, one canonical JSON per line",
            merge=True,
            streams=True,
            skip=("cursor",),
            defaults={"limit": None},  # a stream has no page: every outcome unless --limit
        ),
    ),
    Verb(
        "sample", "sample:answer", Command("uniformly random legal outcomes, one canonical JSON per line", streams=True)
    ),
    Verb("best", "best:answer", Command("the legal outcome with the highest score, and the score")),
    Verb(
        "explain",
        "explain:answer",
        Command(
            "controllers and why, blocks, legal modes and targets, removal",
            engine=False,
            json="machine-readable output",
            pretty=True,
            svg="the blocks and one legal outcome drawn",
        ),
    ),
    Verb("step.legal", "step:legal"),
    Verb("step.apply", "step:apply"),
    Verb("step.why", "step:why"),
    Verb("step.mask", "step:mask"),
    Verb("step.outcome", "step:outcome"),
    Verb("step.count", "step:count"),
    Verb("draw", "draw:answer"),
    Verb(
        "card",
        "card:answer",
        Command(
            "what the tool reads of a card (the extra [cards]): its object fragment and triggered abilities",
            "The card's Oracle text, the object fields a scenario's 'card' gives, and each triggered "
            "ability as a trigger fragment in the scenario format, or what could not be read and why (docs/cards.md).",
            limits=False,
            engine=False,
            json="print the report as JSON",
            positional=("name",),
        ),
    ),
]
"""Every verb, in the order the documents list them (the command line's ``--help``: cli.py)."""


def verb(name: str) -> Verb:
    """The verb called ``name`` (``KeyError`` if there is none)."""
    for found in VERBS:
        if found.name == name:
            return found
    raise KeyError(name)
