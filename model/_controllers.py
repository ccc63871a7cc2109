"""Who controls each waiting ability, and the rule that decided it (603.3a, 603.7d–g, 113.8, 800.4d)."""

from __future__ import annotations

from dataclasses import dataclass

from ._errors import ScenarioError
from ._rules import Rule
from ._shapes import ScenarioFields, TriggerBody
from ._slots import interned, pickled
from ._types import PlayerId

_DELAYED_RULE = {
    "spell": (Rule.R603_7D, "a delayed ability created by a spell: {p} controlled that spell as it resolved"),
    "ability": (
        Rule.R603_7E,
        "a delayed ability created by an ability: {p} controlled that ability as it resolved",
    ),
    "replacement": (
        Rule.R603_7F,
        "a delayed ability created by a replacement effect: {p} controlled its source when it applied",
    ),
    "static-action": (
        Rule.R603_7G,
        "a delayed ability created by a static ability that let a player act: {p} controlled its source then",
    ),
}


@interned
@pickled()
@dataclass(frozen=True, slots=True)
class Control:
    """The controller of an ability, the rule that decided it, and why in words."""

    player: PlayerId
    rule: Rule
    reason: str
    left_game: bool
    assumed: str | None = None
    """What the scenario left unsaid and was assumed, and how to say otherwise (None: nothing)."""


def _derived(scenario: ScenarioFields, trigger: TriggerBody) -> tuple[PlayerId, Rule, str, str | None]:
    if trigger.delayed is not None:
        rule, text = _DELAYED_RULE[trigger.delayed.by]
        return trigger.delayed.controller, rule, text.format(p=trigger.delayed.controller), None
    if trigger.source is None:
        assert trigger.controller is not None  # the scenario validator insists
        return (
            trigger.controller,
            Rule.R603_3A,
            f"no source: the ability names {trigger.controller} as controller",
            None,
        )
    if trigger.source_controller is not None:
        p = trigger.source_controller
        return p, Rule.R603_3A, f"{p} controlled {trigger.source} when it triggered", None
    src = scenario.object(trigger.source)
    assert src is not None  # references are checked first
    if src.has_controller and src.effective_controller is not None:
        p = src.effective_controller
        return p, Rule.R603_3A, f"{p} controls {src.id}, its source", None
    owner = src.effective_owner
    assert owner is not None
    assumed = (
        f"source_controller is not given, so {src.id} is taken to have triggered in the {src.where}, "
        f"where its owner {owner} controls its abilities (113.8); if it triggered leaving the battlefield "
        f"(a dies or leaves trigger looks back, 603.10a), whoever controlled it there controls the "
        f"ability (603.3a): give that player as source_controller"
    )
    return owner, Rule.R113_8, f"{src.id} is a card in the {src.where} with no controller: its owner {owner}", assumed


def derive_controller(scenario: ScenarioFields, trigger: TriggerBody, loc: tuple[str | int, ...]) -> Control:
    """The controller of ``trigger``; a given ``controller`` that contradicts the rule is an error."""
    player, rule, reason, assumed = _derived(scenario, trigger)
    if trigger.controller is not None and trigger.controller != player:
        raise ScenarioError(
            f"controller {trigger.controller} contradicts the derived controller {player} ({reason})",
            (*loc, "controller"),
            rule=Rule.R603_3A,
        )
    who = scenario.player(player)
    left = who is not None and who.left_game
    if left:
        reason += f"; {player} has left the game, so the ability is not put on the stack"
        rule = Rule.R800_4D
    return Control(player, rule, reason, left, assumed)
