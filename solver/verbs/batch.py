"""``check --batch``: one verdict line per input line, in input order, nothing lost.

Each input line is ``{"scenario": ..., "proposal": ...}``, or a proposal alone when one scenario
is given for the whole batch. Each output line is ``{"line": N, "legal": ..., "violations": [...]}``
or, for a line that cannot be judged, ``{"line": N, "error": "..."}`` naming the place. With
``jobs > 1`` the lines are checked in worker processes and written back in input order.
Scenarios repeated across lines are compiled once per process.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from typing import Any

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import Facts, compile_facts
from triggerstack.model.outcome import parse_outcome
from triggerstack.model.scenario import parse_scenario

from ..options import DEFAULT_OPTIONS, Options
from .check import check

__all__ = ["check_lines", "verdict_line"]

_CACHE_SIZE = 64
_shared: Facts | None = None  # the batch's one scenario, in each worker
_options = DEFAULT_OPTIONS
_cache: OrderedDict[str, Facts] = OrderedDict()


def _facts_for(doc: Any) -> Facts:
    key = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    facts = _cache.get(key)
    if facts is None:
        facts = compile_facts(parse_scenario(doc))
        _cache[key] = facts
        if len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    else:
        _cache.move_to_end(key)
    return facts


def verdict_line(number: int, text: str, shared: Facts | None = None, options: Options = DEFAULT_OPTIONS) -> str:
    """The verdict line for input line ``number`` (1-based)."""
    try:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ScenarioError(f"column {exc.colno}: malformed JSON: {exc.msg}") from None
        if shared is not None:
            facts, proposal_doc = shared, doc
        else:
            if not isinstance(doc, dict) or set(doc) != {"scenario", "proposal"}:
                raise ScenarioError('expected {"scenario": ..., "proposal": ...} (or give --scenario)')
            try:
                facts = _facts_for(doc["scenario"])
                options.limits.check(facts)
            except ScenarioError as exc:
                raise ScenarioError(exc.message, ("scenario", *exc.loc), exc.rule) from None
            proposal_doc = doc["proposal"]
        try:
            verdict = check(facts, parse_outcome(proposal_doc), options)
        except ScenarioError as exc:
            raise ScenarioError(exc.message, (("proposal",) if shared is None else ()) + exc.loc, exc.rule) from None
    except ScenarioError as exc:
        return json.dumps({"line": number, "error": exc.one_line()}, sort_keys=True, separators=(",", ":"))
    return json.dumps({"line": number, **verdict.as_dict()}, sort_keys=True, separators=(",", ":"))


def _init(shared: Facts | None, options: Options) -> None:
    global _shared, _options
    _shared, _options = shared, options


def _work(item: tuple[int, str]) -> str:
    return verdict_line(item[0], item[1], _shared, _options)


def check_lines(
    lines: Iterable[str], shared: Facts | None = None, jobs: int = 1, options: Options = DEFAULT_OPTIONS
) -> Iterator[str]:
    """One verdict line per input line, in order (``jobs`` processes if more than one)."""
    numbered = ((i, line.rstrip("\n")) for i, line in enumerate(lines, 1))
    if jobs <= 1:
        for n, text in numbered:
            yield verdict_line(n, text, shared, options)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    with ctx.Pool(jobs, initializer=_init, initargs=(shared, options)) as pool:
        yield from pool.imap(_work, numbered, chunksize=256)
