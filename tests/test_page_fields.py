"""Every field of explain's answer is shown by the judge's page or named here with why not, and
read by explain's text (what the command line prints): a field added to explain
(``passes_not_told`` was one, and reached the text but not the page) cannot be left silent on
either unnoticed.

Private unit: model/_reports (Explanation), the published explain format's model, read by field name,
and solver/_verbs/explain.py _text, the text form, read as source."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from triggerstack.model._reports import Explanation
from triggerstack.solver._verbs import explain

PAGE = Path(__file__).resolve().parent.parent / "solver" / "serve" / "page" / "page.js"

NOT_SHOWN = {
    "rules": "the rules the loaded scenario names are in its own text, beside the page's answer",
    "apnap": "the blocks of 603.3b are listed in APNAP order, each with its players",
    "plan": "the engine's path is how the answer was found, not a ruling",
}


def test_every_field_of_explain_is_shown_by_the_page_or_named_with_why_not() -> None:
    page = PAGE.read_text(encoding="utf-8")
    read = {name for name in Explanation.model_fields if re.search(rf"\.{name}\b", page)}
    assert set(Explanation.model_fields) - read == set(NOT_SHOWN), "shown by the page nowhere, and not named here with why not"
    assert not read & set(NOT_SHOWN), "named here as not shown, yet read by the page"


def test_every_field_of_explain_is_read_by_its_text() -> None:
    text = inspect.getsource(explain._text)
    assert {name for name in Explanation.model_fields if not re.search(rf"\be\.{name}\b", text)} == set()
