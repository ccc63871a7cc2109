"""``draw``, the verb, and the pictures of the stack: SVG a judge can paste into a ruling (``draw``;
``explain --format svg``, ``check --format svg``), drawn by the same code the page served by
``serve --http`` shows.

The stack is drawn top at the top, one box per entry with its controller, modes, targets and
divisions, the passes of 603.3b's loop separated; below it the blocks of 603.3b in APNAP order,
and the removed abilities. Violations, where a verdict is given, are written under the entry they
concern (or under the stack when they concern the proposal as a whole), with their rules.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from xml.sax.saxutils import escape as _xml_escape

from pydantic import Field
from triggerstack.model._facts import Facts
from triggerstack.model._numbers import Whole
from triggerstack.model._outcome import Outcome, outcome_dict, parse_outcome
from triggerstack.model._text import visible

from .._judge import Verdict
from .base import Result, Steps, within

if TYPE_CHECKING:
    from .._options import Options
    from .step import Stepper


class Draw(Steps):
    """The stack as an SVG picture: the walk so far, or a proposal with its violations."""

    proposal: Any = Field(None, description="A proposal to draw with check's violations, instead of the walk")
    width: Whole = Field(560, ge=280, le=1600, description="The picture's width in pixels (text keeps its size)")


class Picture(Result):
    svg: str = Field(description="An SVG document: the stack top first, each entry's choices, blocks, violations")

    def text(self) -> str:
        return self.svg

    def picture(self) -> str | None:
        return self.svg


class _Draws(Protocol):
    """What ``answer`` asks of a :class:`~.legal.LegalOutcomes` (named so, not imported: legal imports
    explain, which draws its picture here)."""

    facts: Facts
    options: Options

    def check(self, proposal: Outcome) -> Verdict: ...

    def stepper(self) -> Stepper: ...


def answer(legal: _Draws, p: Draw) -> Picture:
    if p.proposal is not None:
        proposal = within("proposal", lambda doc: parse_outcome(doc, limits=legal.options.limits), p.proposal)
        return Picture(svg=verdict_svg(legal.facts, proposal, legal.check(proposal), p.width))
    stepper = legal.stepper()
    walk = stepper.walk(p.decisions)
    over = not stepper.legal(walk)
    title = "the stack built: over" if over else "the stack built so far"
    if stepper.pass_number(walk) > 1 and not over:
        title += f" (pass {stepper.pass_number(walk)} of 603.3b: abilities that triggered meanwhile)"
    shown = outcome_svg(legal.facts, stepper.so_far(walk), (), title, stepper.in_hand(walk), p.width)
    return Picture(svg=shown)


WIDTH = 560
LINE = 18
NAME = 48
"""Characters of an ability's name drawn in its box; a longer one is cut with "…", the whole name
in the box's ``<title>`` (a tooltip) and ``data-ability``."""


def escape(text: str) -> str:
    """Text from a scenario or a proposal as SVG text: unsafe code points written as escapes (XML
    cannot hold most controls; none changes how the rest looks), then ``&``, ``<``, ``>``."""
    return _xml_escape(visible(text))


def attribute(text: str) -> str:
    """The same, safe inside a double- or single-quoted attribute value."""
    return _xml_escape(visible(text), {'"': "&quot;", "'": "&apos;"})


def _short(name: str) -> str:
    return name if len(name) <= NAME else name[: NAME - 1] + "…"


def _choices(part: Mapping[str, Any]) -> list[str]:
    """``requirement: targets`` and ``divide requirement: target amount`` of an entry or a mode."""
    out = [f"{r}: {', '.join(ts)}" for r, ts in (part.get("targets") or {}).items()]
    for r, amounts in (part.get("divide") or {}).items():
        out.append(f"divide {r}: " + ", ".join(f"{t} {n}" for t, n in amounts.items()))
    return out


def _entry_lines(entry: Mapping[str, Any]) -> list[str]:
    lines = ["; ".join([f"mode {m['mode']}", *_choices(m)]) for m in entry.get("modes") or ()]
    return lines + _choices(entry)


def _wrap(text: str, x: int, width: int = WIDTH) -> list[str]:
    """``text`` in lines that fit a picture ``width`` wide from ``x`` (about 7 px a character)."""
    return textwrap.wrap(text, width=max(20, (width - x - 20) // 7)) or [""]


def _violation_lines(v: Mapping[str, Any], x: int, width: int = WIDTH) -> list[str]:
    return _wrap(f"{v['rule']} {v['code']}: {v['message']}", x, width)


def _box(
    rows: list[str], y: int, width: int, kind: str, ability: str, title: str, who: str, lines: list[tuple[str, str]]
) -> int:
    """One ability's box at ``y``: its title and controller, then each (class, text) line; the y below it."""
    height = 26 + LINE * len(lines)
    rows.append(
        f'<g class="{kind}" data-ability="{attribute(ability)}"><title>{escape(ability)}</title>'
        f'<rect x="10" y="{y}" width="{width - 20}" height="{height}" rx="6"/>'
        f'<text x="20" y="{y + 18}" class="name">{escape(title)}</text>'
        f'<text x="{width - 20}" y="{y + 18}" class="who" text-anchor="end">{escape(who)}</text>'
    )
    line_y = y + 18
    for cls, text in lines:
        line_y += LINE
        rows.append(f'<text x="32" y="{line_y}" class="{cls}">{escape(text)}</text>')
    rows.append("</g>")
    return y + height + 8


def verdict_svg(facts: Facts, proposal: Outcome, verdict: Verdict, width: int = WIDTH) -> str:
    """A proposal drawn with ``check`` 's verdict: each violation in its entry's box."""
    n = len(verdict.violations)
    title = "legal" if verdict.legal else f"illegal: {n} violation{'s' if n != 1 else ''}"
    return outcome_svg(facts, proposal, verdict.as_dict()["violations"], title, width=width)


def outcome_svg(
    facts: Facts,
    outcome: Outcome,
    violations: Sequence[Mapping[str, Any]] = (),
    title: str = "",
    in_hand: tuple[str, Sequence[str]] | None = None,
    width: int = WIDTH,
) -> str:
    """An outcome (or a stack built so far) drawn: see :func:`stack_svg`."""
    drawn = outcome_dict(outcome)
    return stack_svg(facts, drawn["stack"], drawn["removed"], outcome.passes, violations, title, in_hand, width)


_STYLE = (
    "<style>text{font:13px sans-serif;fill:#1b1b1b}.title{font-weight:bold;font-size:15px}"
    ".label{fill:#555;font-size:12px}.name{font-weight:bold}.who{fill:#555}.note{fill:#777}"
    ".entry rect{fill:#f4f6fb;stroke:#5a6a8a}.entry.bad rect{fill:#fdf0f0;stroke:#b3261e}"
    ".violation{fill:#b3261e;font-size:12px}.pass{stroke:#999;stroke-dasharray:4 3}"
    ".entry.hand rect{fill:#fffbe6;stroke:#8a6d00;stroke-dasharray:6 4}</style>"
)


class _Sheet:
    """A picture being drawn top down: its rows of SVG, the ``y`` below them, its ``width``, and the
    title of the last box drawn (``last_title``)."""

    def __init__(self, width: int, title: str) -> None:
        self.rows: list[str] = []
        self.y = 10
        self.width = width
        self.last_title = title

    def text(self, texts: Sequence[str], cls: str, baseline: int) -> None:
        """Each of ``texts`` on a line of its own at the left, ``baseline`` below the line's top."""
        for text in texts:
            self.rows.append(f'<text x="10" y="{self.y + baseline}" class="{cls}">{escape(text)}</text>')
            self.y += LINE

    def box(self, kind: str, ability: str, title: str, who: str, lines: list[tuple[str, str]]) -> None:
        """One ability's box (see :func:`_box`)."""
        self.y = _box(self.rows, self.y, self.width, kind, ability, title, who, lines)
        self.last_title = title

    def in_hand(self, ability: str, said: Sequence[str], who: str) -> None:
        """The ability being announced, dashed, with what has been announced of its choice."""
        shown = [t for t in said if not t.startswith("end ")]
        lines = _wrap("announced so far: " + (", ".join(shown) if shown else "nothing yet"), 32, self.width)
        title = f"{_short(ability)} — being put on the stack"
        self.box("entry hand", ability, title, who, [("choice", t) for t in lines])

    def entries(
        self,
        stack: Sequence[Mapping[str, Any]],
        pass_of: Sequence[int],
        by_ability: Mapping[str | None, list[Mapping[str, Any]]],
        controller: Mapping[str, str],
    ) -> None:
        """The stack, top first, one box per entry with its choices and violations, a dashed line
        between passes."""
        width = self.width
        self.rows.append(f'<text x="10" y="{self.y + 12}" class="label">top of the stack</text>')
        self.y += 20
        if not stack:
            self.rows.append(f'<text x="20" y="{self.y + 14}" class="note">(empty)</text>')
            self.y += 26
        last_pass = None
        for position in range(len(stack) - 1, -1, -1):
            entry = stack[position]
            ability = str(entry.get("ability"))
            if last_pass is not None and pass_of[position] != last_pass:
                self.pass_line(last_pass, pass_of[position])
            last_pass = pass_of[position]
            chosen = [("choice", part) for text in _entry_lines(entry) for part in _wrap(text, 32, width)]
            problems = [
                ("violation", part) for v in by_ability.get(ability, []) for part in _violation_lines(v, 32, width)
            ]
            kind = "entry bad" if problems else "entry"
            self.box(
                kind, ability, f"{position + 1}. {_short(ability)}", controller.get(ability, ""), chosen + problems
            )
        self.rows.append(f'<text x="10" y="{self.y + 12}" class="label">bottom of the stack</text>')
        self.y += 24

    def pass_line(self, above: int, below: int) -> None:
        """The dashed line between two passes of 603.3b's loop, labelled."""
        y, width = self.y, self.width
        self.rows.append(f'<line x1="10" x2="{width - 10}" y1="{y + 4}" y2="{y + 4}" class="pass"/>')
        between = f"pass {above} above, pass {below} below"
        self.rows.append(f'<text x="{width - 14}" y="{y + 16}" class="label" text-anchor="end">{between}</text>')
        self.y += 24

    def svg(self) -> str:
        """The picture, as tall as what was drawn. Its ``<title>`` is the last box's title (the bottom
        entry's, else the ability in hand's), else the title given, else "the stack": so it has always
        been drawn, the title given shown as the heading."""
        width, y = self.width, self.y
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y}" '
            f'viewBox="0 0 {width} {y}" role="img">'
            f"<title>{escape(self.last_title or 'the stack')}</title>{_STYLE}{''.join(self.rows)}</svg>"
        )


def _passes_of(n: int, passes: Sequence[int] | None) -> list[int]:
    """The pass (from 1) each of ``n`` stack entries was put there in, bottom first; entries past
    the passes given are in the last one."""
    pass_of: list[int] = []
    for p, k in enumerate(passes or [n]):
        pass_of += [p + 1] * k
    pass_of += [pass_of[-1] if pass_of else 1] * (n - len(pass_of))
    return pass_of


def stack_svg(
    facts: Facts,
    stack: Sequence[Mapping[str, Any]],
    removed: Sequence[str] = (),
    passes: Sequence[int] | None = None,
    violations: Sequence[Mapping[str, Any]] = (),
    title: str = "",
    in_hand: tuple[str, Sequence[str]] | None = None,
    width: int = WIDTH,
) -> str:
    """The SVG of a stack (entries in the outcome format, bottom first), its blocks, the removed
    abilities and any violations; ``in_hand``: the ability being announced and what has been
    announced of its choice, drawn above the top (dashed: not on the stack yet); ``width`` in
    pixels (text keeps its size, lines wrap sooner)."""
    controller: dict[str, str] = {a.id: a.controller for a in facts.abilities}
    by_ability: dict[str | None, list[Mapping[str, Any]]] = {}
    for v in violations:
        by_ability.setdefault(v.get("ability"), []).append(v)
    sheet = _Sheet(width, title)
    if title:
        sheet.rows.append(f'<text x="10" y="{sheet.y + 14}" class="title">{escape(title)}</text>')
        sheet.y += 28
    if in_hand is not None:
        sheet.in_hand(in_hand[0], in_hand[1], controller.get(in_hand[0], ""))
    sheet.entries(stack, _passes_of(len(stack), passes), by_ability, controller)
    on_stack = {str(e.get("ability")) for e in stack}
    elsewhere = [v for a, vs in by_ability.items() if a is None or a not in on_stack for v in vs]
    # the proposal as a whole, or an ability not on the stack (removed, missing)
    sheet.text([text for v in elsewhere for text in _violation_lines(v, 10, width)], "violation", 12)
    if removed:
        sheet.text(_wrap(f"removed: {', '.join(removed)}", 10, width), "label", 14)
        sheet.y += 4
    blocks = "; ".join(
        f"{i + 1}. {'+'.join(b.players)}: {', '.join(facts.abilities[k].id for k in b.abilities)}"
        for i, b in enumerate(facts.blocks)
    )
    sheet.text(_wrap(f"blocks (603.3b, APNAP): {blocks}", 10, width), "label", 14)
    sheet.y += 8
    return sheet.svg()
