"""``card``: what the tool reads of a card by its Oracle name (the extra ``[cards]``; docs/cards.md) —
its Oracle text, the object fragment a scenario's ``card`` gives, and each triggered ability as a
trigger fragment, a template with what the board must state, or what could not be read and why. It
takes no scenario. The reading is ``model/cards/``'s; this module imports nothing of the solver, so
``triggerstack card`` stays quick."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, Field
from triggerstack.model._text import compact, shown_lines, typed

from .base import Params, Result


class CardParams(Params):
    """What the tool reads of a card by its Oracle name (the extra [cards]; docs/cards.md)."""

    name: str = Field(min_length=1, max_length=200, description="The card's Oracle name, in any letter case")


class CardResult(Result):
    model_config = ConfigDict(extra="allow")  # the report's other fields (mana_cost, type_line, notes) as they are

    name: str = Field(description="The card's Oracle name")
    oracle_text: str = Field(description="Its Oracle text")
    object: dict[str, Any] = Field(description="The object fields a scenario's card gives")
    triggered_abilities: list[dict[str, Any]] = Field(
        description="Each as a trigger fragment, a template with what the board must state, or why it was not read"
    )

    def to_json(self) -> Any:
        return self.model_dump(mode="json")

    def text(self) -> str:
        report = self.to_json()
        lines = [f"{report['name']} {report['mana_cost']}".rstrip(), report["type_line"], ""]
        lines += [f"  {line}" for line in report["oracle_text"].split("\n")]
        lines += ["", f"object: {compact(report['object'])}"]
        lines += [f"note: {n}" for n in report["notes"]]
        lines += [f"reaction: {compact(r)}" for r in report.get("reactions", ())]
        if not report["triggered_abilities"]:
            lines.append("no triggered ability")
        for a in report["triggered_abilities"]:
            lines += ["", f"triggered ability {a['index']}: {a['text']}"]
            if "trigger" in a:
                lines.append(f"  trigger: {compact(a['trigger'])}")
            elif "template" in a:
                lines.append(f"  template: {compact(a['template'])}")
                lines += [f"  the board states: {b}" for b in a["board"]]
            else:
                lines.append(f"  not read: {a['unread']['reason']}: {typed(a['unread']['sentence'], 300)}")
            lines += [f"  note: {n}" for n in a.get("notes", ())]
        return shown_lines(lines)


def answer(p: CardParams) -> CardResult:
    from triggerstack.model.cards import card_report

    return CardResult.model_validate(card_report(p.name))
