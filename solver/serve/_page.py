"""What the judge's page reads besides the methods (docs/server.md, "The page"): the rules as HTML
with an anchor per rule number, card names as a judge types them, and a board named by its cards
written as a scenario. The routes are ``solver/serve/_http.py`` ``_page_routes``; these are the
answers, each bounded in what it reads and returns."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from triggerstack.model._errors import ScenarioError

from .._errors import KINDS, RequestError, params_error

MOST_NAMES = 10
"""Names one suggestion answers."""
QUERY = 200
"""Characters of a typed name read (the longest Oracle name is 141)."""


def card_names(typed: str) -> dict[str, Any]:
    """Names for what a judge has typed: at most :data:`MOST_NAMES` card names beginning with it or
    holding it, and, when none does, the nearest one (``near``: a "did you mean")."""
    if len(typed) > QUERY:
        raise RequestError(KINDS.INVALID_PARAMS, f"q: a card's name is at most {QUERY} characters", {"place": "q"})
    from triggerstack.model.cards import corpus

    names, near = corpus().suggestions(typed, MOST_NAMES)
    return {"names": names, "near": near}


def named_scenario(body: Any) -> dict[str, Any]:
    """The scenario of a board named by its cards (``solver/_boards/_named.py``): the document, the
    same as YAML to copy, and the event in words; or the problem, each place saying how to fix it."""
    import yaml

    from .._boards._named import NamedBoard, named_board

    try:
        board = NamedBoard.model_validate(body)
    except ValidationError as exc:
        raise params_error(exc, NamedBoard) from None
    try:
        document, said = named_board(board)
    except ScenarioError as exc:
        from .._errors import failure

        return {"problem": failure(exc).problem()}
    text = yaml.safe_dump(document, sort_keys=False, default_flow_style=None, allow_unicode=True, width=120)
    head = "# Built on the page from card names; the event: " + " ".join(said.split()) + ".\n"
    head += "# Each trigger is read from its card (docs/cards.md).\n"
    return {"scenario": document, "yaml": head + text, "event": said}


def rules_html(markdown: str) -> str:
    """docs/rules.md as HTML: a paragraph per block (bold, italics and code rendered), and an
    anchor ``r<rule>`` for every rule number the page mentions — where a paragraph's bold heading
    names it, else at its first mention — and for its parents (601.2c also anchors 601.2 and 601):
    every rule the tool cites lands on the paragraph that says it."""
    import html
    import re

    def rules_in(text: str) -> list[str]:
        """The rule numbers ``text`` names, a range's ends both (601.2c–d: 601.2c and 601.2d)."""
        found = []
        for rule, last in re.findall(r"(\d{3}(?:\.\d+[a-z]?)?)(?:[–-]([a-z])\b)?", text):
            found.append(rule)
            if last and rule[-1].isalpha():
                found.extend(rule[:-1] + chr(c) for c in range(ord(rule[-1]) + 1, ord(last) + 1))
        return found

    blocks = [b.strip() for b in markdown.split("\n\n") if b.strip()]
    where: dict[str, int] = {}
    for i, block in enumerate(blocks):  # headings first: the paragraph about a rule is its home
        heading = re.match(r"\*\*(.+?)\*\*", block)
        for rule in rules_in(heading.group(1)) if heading else ():
            where.setdefault(rule, i)
    for i, block in enumerate(blocks):
        for rule in rules_in(block):
            where.setdefault(rule, i)
    for rule in list(where):
        for parent in (rule.rstrip("abcdefghijklmnopqrstuvwxyz"), rule.split(".")[0]):
            where.setdefault(parent, where[rule])
    ids: dict[int, list[str]] = {}
    for name, i in where.items():
        ids.setdefault(i, []).append(name)
    parts = []
    for i, block in enumerate(blocks):
        text = html.escape(block)
        text = re.sub(r"`(.+?)`", r"<code>\1</code>", text)
        text = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", text)
        text = re.sub(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])", r"<em>\1</em>", text)
        if text.startswith("# "):
            parts.append(f"<h1>{text[2:]}</h1>")
            continue
        anchors = "".join(f'<a id="r{name}"></a>' for name in ids.get(i, []))
        parts.append(f"<p>{anchors}{text}</p>")
    body = "\n".join(parts)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>The rules as applied</title>'
        '<link rel="icon" href="data:,"><link rel="stylesheet" href="/page.css"></head>'
        f'<body><p><a href="/">Back to the page</a></p>{body}</body></html>'
    )
