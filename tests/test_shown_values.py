"""A value from outside — a word of a scenario, a name a caller typed, an argument of any type — is
shown in a message by one home, ``model/_text.py`` (``typed`` for text, ``found`` for any value):
cut to a bound, each unsafe code point its JSON escape, in the quotes the format's words use.
Never by Python's ``repr``: a 100,000-character unknown word came back whole in the error
(``triggerstack count``: 100 KB on stderr), its ESC written ``\\x1b``, an escape the edges' own
escaping cannot tell from text; and ``repr`` of a caller's million-item list was built before it
was cut. The mechanism was some 70 ``{x!r}`` and ``repr(x)`` across the card reader, the
vocabulary, the documents' problems, the judge's path, the command lines and the RL surfaces,
each showing what it was handed as it came.

Two tests hold it: the product's source has no ``!r`` conversion nor ``repr()`` call outside a
``__repr__`` (and the few listed below, each with why), and a property sends generated hostile
text through the doors that showed it.

Private unit: the card reader's refusal of an amount (model/cards/_quantity.py ``_count``), a door
of these that card text reaches.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from triggerstack.model import ScenarioError, UsageError
from triggerstack.model._text import UNSAFE
from triggerstack.solver import ActionLayout, IllegalDecision, Stepper, rl
from triggerstack.solver.rl._vector_env import TriggerStackVectorEnv

from tests.property.strategies import SETTINGS

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("model", "solver", "adapters")
"""The packages installed as ``triggerstack``: every message a user reads is made there."""
ALLOWED = {
    ("model/_lazy.py", "AttributeError"): "a module's missing attribute, worded as Python words it (a name in code)",
    ("adapters/phase/_live.py", "Keep"): "not shown: finds phase's keep action by its repr",
    ("solver/_judge/_never.py", "repr(thing[1:])"): "not shown: a thing's facts but its id, as a key of alike stacks",
    ("solver/_judge/_never.py", "repr(profile(b))"): "not shown: a sortable key of alike abilities below",
}
"""(file, a word of the line) → why its ``repr`` is no value from outside shown to a user."""


def _reprs(path: Path) -> list[tuple[int, str]]:
    """Each line of ``path`` that shows a value by ``repr`` (an ``!r`` conversion or a ``repr()``
    call) outside a ``__repr__``, with the line."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    inside_repr: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "__repr__":
            inside_repr.update(id(n) for n in ast.walk(node))
    found = []
    for node in ast.walk(tree):
        if id(node) in inside_repr:
            continue
        if not isinstance(node, ast.FormattedValue | ast.Call):
            continue
        by_conversion = isinstance(node, ast.FormattedValue) and node.conversion == ord("r")
        by_call = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "repr"
        if by_conversion or by_call:
            found.append((node.lineno, lines[node.lineno - 1].strip()))
    return found


def test_no_message_shows_a_value_by_pythons_repr() -> None:
    left = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            for line, text in _reprs(path):
                if not any(f == name and word in text for f, word in ALLOWED):
                    left.append(f"{name}:{line}: {text}")
    assert not left, "show it by model/_text.py's typed (text) or found (any value):\n" + "\n".join(left)


def test_the_scan_finds_each_way_of_writing_repr(tmp_path: Path) -> None:
    """The scan itself: it sees ``!r``, ``repr()``, a nested f-string, and leaves a ``__repr__`` alone."""
    code = tmp_path / "m.py"
    code.write_text(
        "def f(x):\n    return f'{x!r}'\n"
        "def g(x):\n    return 'a' + repr(x)\n"
        "def h(x):\n    return f\"{f'{x!r:>3}'}\"\n"
        "class C:\n    def __repr__(self):\n        return f'{self.__dict__!r}' + repr(1)\n",
        encoding="utf-8",
    )
    assert [line for line, _ in _reprs(code)] == [2, 4, 6]


HOSTILE = st.builds(
    lambda head, body, n: head + body * n,
    st.text(alphabet=st.sampled_from("\x1b\x07\u202e\u200b'\"\\\n\x00\x1e\x85\u2028"), min_size=1, max_size=4),
    st.text(alphabet=st.characters(codec="utf-8", categories=["L", "N", "P", "Cc", "Cf"]), min_size=1, max_size=8),
    st.integers(1, 20_000),
)
"""Text from outside as an attacker writes it: control and formatting code points (among them
those Python's ``str.splitlines`` breaks a line at: \x1e, \x85, \u2028), quotes and backslashes
first, then up to some 160,000 characters."""
BOUND = 1_500
"""The most characters a one-line refusal here may take: the value is cut to 80 characters, each
written in at most 12 (an astral code point's escape), beside the message's own words."""


def _shown_safely(message: str, sent: str) -> None:
    assert len(message) <= BOUND, f"{len(message):,} characters: the value came back whole"
    raw = UNSAFE.search(message.replace("\n", ""))
    assert raw is None, f"{ord(raw.group()):#x} shown raw in {message[:200]!r}"
    assert "\\x" not in message.replace("\\x", "", sent.count("\\x")), f"Python's escape in {message[:200]!r}"


def _scenario(word: str) -> dict[str, object]:
    return {
        "players": ["A"],
        "objects": [{"id": "c", "controller": "A", "types": ["creature"]}, {"id": "s", "controller": "A"}],
        "triggers": [{"id": "T", "source": "s", "targets": [{"id": "t", "filter": {"type": word}}]}],
    }


@settings(SETTINGS, max_examples=max(10, SETTINGS.max_examples // 4), deadline=None)
@given(sent=HOSTILE, door=st.sampled_from(["vocabulary", "key", "layout", "render", "autoreset", "decision", "card"]))
@example(sent="\x1e", door="key")  # drawn by 66b's self-holding property: shown as a blank, a line break to splitlines
def test_a_value_from_outside_is_shown_cut_and_escaped_at_every_door(sent: str, door: str) -> None:
    from triggerstack.model import Scenario

    error: Exception
    if door == "vocabulary":  # a scenario's unknown word (docs/formats.md): its place and the word
        with pytest.raises(ScenarioError) as refused:
            Scenario.model_validate(_scenario(sent))
        error = refused.value
    elif door == "key":  # a key of the document's, in the place a refusal names (model/_errors.py format_loc)
        doc = _scenario("creature")
        doc["objects"][0][sent] = 1  # type: ignore[index]
        with pytest.raises(ScenarioError) as unknown:
            Scenario.model_validate(doc)
        error = unknown.value
        assert len(str(error).splitlines()) == 1, str(error)[:200]  # a key of "\x1e" was a line break
        with pytest.raises(ValueError) as bad:
            ActionLayout(abilities=sent, things=4)  # type: ignore[arg-type]  # what a caller may pass
        error = bad.value
    elif door == "render":
        with pytest.raises(Exception) as bad_mode:
            rl.env(Scenario.model_validate(_scenario("creature")), render_mode=sent)
        error = bad_mode.value
    elif door == "autoreset":
        with pytest.raises(UsageError) as bad_reset:
            TriggerStackVectorEnv(1, Scenario.model_validate(_scenario("creature")), autoreset_mode=sent)
        error = bad_reset.value
    elif door == "decision":
        from triggerstack.model import compile_facts

        stepper = Stepper(compile_facts(Scenario.model_validate(_scenario("creature"))))
        with pytest.raises(IllegalDecision) as bad_decision:
            stepper.apply(stepper.start(), [sent] * 100_000)  # type: ignore[arg-type]  # what a caller may pass
        error = bad_decision.value
    else:
        from triggerstack.model.cards._quantity import _count
        from triggerstack.model.cards._unread import Unread

        with pytest.raises(Unread) as unread:
            _count("x" + sent)
        error = unread.value
    _shown_safely(str(error), sent)


def test_the_scenario_word_that_came_back_whole_on_the_command_line(tmp_path: Path) -> None:
    """The case found: a 100,000-character type word with ESC, through ``triggerstack count``."""
    import json
    import subprocess
    import sys

    word = "\x1b[31mFAKE" + "x" * 100_000
    doc = tmp_path / "s.json"
    doc.write_text(json.dumps(_scenario(word)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "triggerstack.solver", "count", str(doc)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert re.search(r"filter\.type\[0\]: unknown card type '\\u001b\[31mFAKEx+\.\.\.'", done.stderr), done.stderr[:300]
    _shown_safely(done.stderr.strip(), word)
