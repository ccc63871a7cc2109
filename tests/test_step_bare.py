"""An ability with nothing to announce — not modal, no target, nothing it must target (601.2c) — is
placed as it is put, its one choice known without building its choice space or its announcer
(``is_bare`` in solver/_verbs/step/_pass.py: four abilities in five on the boards ``rl.boards``
draws, and a new board built both for each of them; issue 53). The shortcut held to the path it
replaces, on boards of every size, event and number of players from both pools:

* its choice space (``space_for``) counts one choice, :data:`BARE`, when it may be put, and none
  when a rule keeps it off the stack (800.4d, 603.3d);
* random walks over a stepper with the shortcut and one without it offer the same decisions at
  every point and reach the same outcome.

Private unit: the pass stepper's shortcut for abilities with nothing to announce (solver/_verbs/step/_pass.py), held to the choice space and announcer it skips.
"""

from __future__ import annotations

import random

import pytest
from triggerstack.model import Scenario
from triggerstack.model._facts import compile_facts
from triggerstack.solver import Stepper
from triggerstack.solver._boards._draw import draw
from triggerstack.solver._core.space import space_for
from triggerstack.solver._verbs.step import _pass
from triggerstack.solver._verbs.step._pass import BARE, is_bare

from .cards_extra import board_pools

POOLS = board_pools()


def _walks(stepper: Stepper, seed: int, n: int) -> list[tuple[list[str], str]]:
    """``n`` random walks: the decisions offered at each point (sorted texts) and the outcome."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        walk, offered = stepper.start(), []
        legal = stepper.legal(walk)
        while legal:
            offered.append(" | ".join(d.text for d in legal))
            walk = stepper.apply_unchecked(walk, rng.choice(legal))
            legal = stepper.legal(walk)
        out.append((offered, stepper.outcome(walk).model_dump_json()))
    return out


@pytest.mark.parametrize("cards", POOLS)
def test_an_ability_with_nothing_to_announce_is_what_its_choice_space_says(
    cards: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    bare = boards = 0
    for board in draw(61, 500, players=(2, 4), abilities=(1, 8), bodies=(0, 4), cards=cards):
        boards += 1
        facts = compile_facts(board.scenario)
        for a in facts.abilities:
            if not is_bare(a):
                continue
            bare += 1
            space = space_for(facts, a)
            assert space.as_list() == ([BARE] if a.forced_removal is None else [])
        with monkeypatch.context() as slow:
            slow.setattr(_pass, "is_bare", lambda _a: False)
            reference = _walks(Stepper(compile_facts(board.scenario)), boards, 3)
        assert _walks(Stepper(compile_facts(board.scenario)), boards, 3) == reference
    assert boards == 500 and bare > 500


def test_an_ability_a_rule_keeps_off_the_stack_is_removed_as_its_choice_space_says() -> None:
    """800.4d (its controller left the game) and 603.3d (it is illegal): nothing to announce, and
    no choice to put — only ``remove``, as without the shortcut."""
    scenario = Scenario.model_validate({
        "players": ["A", {"id": "B", "left_game": True}],
        "objects": [{"id": "a1", "controller": "A", "types": ["creature"]},
                    {"id": "b1", "controller": "B", "types": ["creature"]}],
        "triggers": [{"id": "TA", "source": "a1", "text": "Whenever a creature dies, you gain 1 life."},
                     {"id": "TI", "source": "a1", "text": "When this dies, draw a card.", "illegal": "no such event"},
                     {"id": "TB", "source": "b1", "text": "Whenever a creature dies, you gain 1 life."}],
    })  # fmt: skip
    facts = compile_facts(scenario)
    assert all(is_bare(a) for a in facts.abilities)
    assert [space_for(facts, a).as_list() for a in facts.abilities] == [[BARE], [], []]
    stepper = Stepper(facts)
    walk = stepper.start()
    seen = []
    while legal := stepper.legal(walk):
        seen.append([d.text for d in legal])
        walk = stepper.apply_unchecked(walk, legal[0])
    assert ["put TI"] not in seen and all("put TB" not in x for x in seen)
    outcome = stepper.outcome(walk)
    assert [e.ability for e in outcome.stack] == ["TA"] and sorted(outcome.removed) == ["TB", "TI"]
