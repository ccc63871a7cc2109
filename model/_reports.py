"""The formats the tool writes besides outcomes: the verdict of ``check --json`` and the report
of ``explain --json``, as pydantic models so that ``triggerstack schema verdict|explain`` publishes
their JSON Schema. The verbs build plain dicts; the test suite validates every dict they write
against these models (unknown fields forbidden), so the schema cannot drift from the output.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Report(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ViolationReport(_Report):
    """One broken rule."""

    rule: str = Field(description="The Comprehensive Rules number it breaks, e.g. 601.2c")
    code: str = Field(description="The violation code (docs/formats.md, Violation codes), e.g. target-hexproof")
    ability: str | None = Field(description="The ability it concerns; null when the proposal as a whole is wrong")
    message: str = Field(description="One line naming the objects, what was expected and what was found")


class VerdictReport(_Report):
    """What ``check --json`` prints for a proposal."""

    legal: bool = Field(description="True when there is no violation")
    violations: list[ViolationReport] = Field(description="Every violation, not only the first")


class Exclusion(_Report):
    """A thing that is not a legal target, and why."""

    id: str = Field(description="The player, object or waiting ability")
    code: str = Field(description="The violation code choosing it would give")
    rule: str = Field(description="The rule that excludes it")
    reason: str = Field(description="Why, in one line")


class Ignored(_Report):
    """A targeting property of a thing that does not function where it is."""

    id: str = Field(description="The card, spell or other object whose own properties are ignored")
    rule: str = Field(
        description="113.6 (a card's abilities function only on the battlefield), or the keyword's own rule "
        "where the object is no card or permanent spell (they protect only permanents and players)"
    )
    reason: str = Field(description="Which properties, and where the object is")


class RequirementReport(_Report):
    """One instance of the word 'target' (601.2c), as the legal outcomes treat it."""

    id: str = Field(description="The requirement id")
    text: str = Field(description="Its text")
    called: str = Field(description="How sentences name it: its id, then its own words in quotes where it has them")
    min: int = Field(description="The fewest targets")
    max: int | None = Field(description="The most targets; null: any number")
    divide: int | None = Field(description="The amount divided among the targets (601.2d), if any")
    different_from: list[str] = Field(description="Requirements of the same mode whose targets it may not repeat")
    depends_on_targets_of: list[str] = Field(description="Requirements its filter reads through target_of")
    legal: list[str] = Field(
        description="Things some legal outcome chooses that are legal at the start of the ability's block"
    )
    legal_once_on_stack: list[str] = Field(
        description="Waiting abilities some legal outcome chooses, legal only once put on the stack below it"
    )
    excluded: list[Exclusion] = Field(description="Every other thing, each with every reason")
    ignored: list[Ignored] = Field(description="Cards whose own hexproof, shroud or protection do not function")


class ModeReport(_Report):
    """One mode (or the single implicit mode of a non-modal ability, with id null)."""

    id: str | None = Field(description="The mode id; null for a non-modal ability")
    text: str = Field(description="Its text")
    called: str = Field(description="How sentences name it: its id, then its own words in quotes where it has them")
    status: Literal["legal", "legal-if", "illegal", "unavailable"] = Field(
        description="legal: some legal outcome chooses it and it is legal at the start of the block; legal-if: "
        "chosen only when an ability it can target is below; illegal: no legal outcome chooses it; "
        "unavailable: marked so in the scenario"
    )
    reason: str = Field(description="Why, when it is not simply legal")
    requirements: list[RequirementReport] = Field(description="Its target requirements")


class ModalReport(_Report):
    """How many modes may be chosen."""

    choose: list[int] = Field(description="The allowed numbers of modes")
    repeat: bool = Field(description="Whether a mode may be chosen more than once (700.2d)")
    distinct_targets: bool = Field(description="Whether each mode must target a different thing")


class AbilityReport(_Report):
    """One waiting ability, as the legal outcomes treat it."""

    id: str = Field(description="The ability id (REACTION@ABILITY for a fired one)")
    text: str = Field(description="Its text")
    controller: str = Field(description="Its controller (603.3a)")
    controller_rule: str = Field(description="The rule that decided the controller")
    controller_reason: str = Field(description="Why, in words")
    controller_assumed: str | None = Field(
        default=None,
        description="What the scenario left unsaid and was assumed to decide the controller (a card's owner where "
        "source_controller is not given), and how to say otherwise; null: nothing was assumed",
    )
    chooser: str = Field(description="Who makes its choices (700.2e); the controller unless named")
    part: int = Field(description="Its part of 603.3b: 2 when its trigger condition is another ability triggering")
    block: int | None = Field(
        description="Its block of 603.3b; null: it is never put on the stack (800.4d). A fired ability's is "
        "its controller's block in one pass it goes into: its number there depends on what else fires"
    )
    modal: ModalReport | None = Field(description="Its modal choice; null when it is not modal")
    modes: list[ModeReport] = Field(description="Its modes, each with its requirements")
    must_target: list[str] = Field(description="Things 'must target' effects name for it (601.2c)")
    removal: Literal["must", "may", "cannot"] = Field(
        description="Whether it is removed in every legal outcome, in some, or in none (603.3c-d)"
    )
    removal_reason: str = Field(description="Why")
    removal_rule: str = Field(
        description="The rule the reason cites (603.3d, 700.2, 800.4d …): what the page links, "
        "never a number read out of the words"
    )
    pass_: int | None = Field(default=None, alias="pass", description="Fired abilities: the pass it goes into")
    fired_by: str | None = Field(default=None, description="Fired abilities: the ability whose targeting fired it")
    reaction: str | None = Field(default=None, description="Fired abilities: the reaction it was fired from")


class BlockReport(_Report):
    """One block of 603.3b: what one player (or 2HG team) puts on the stack, in any order."""

    index: int = Field(description="Its position from the bottom of the stack")
    part: int = Field(description="1 or 2 (603.3b)")
    players: list[str] = Field(description="Who puts these abilities on the stack")
    rule: str = Field(description="The rule that makes the block (603.3b, 101.4 for cr-1p, 805.7 for 2hg)")
    abilities: list[str] = Field(description="Its abilities")


class PlanReport(_Report):
    """How the product engine answers."""

    path: str = Field(
        description="product, or product+search when some abilities may target each other (their core is "
        "found by a direct search)"
    )
    coupled: list[str] = Field(description="Abilities that may target another waiting ability, and those targets")
    independent: list[str] = Field(description="The other abilities")
    passes: str | None = Field(
        default=None,
        description="Several passes: classes (counted and drawn by what the first pass fires, without "
        "listing) or listed (each pass's outcomes listed with the counts of what follows them)",
    )
    passes_reason: str | None = Field(default=None, description="Several passes, listed: why not by classes")


class ReactionReport(_Report):
    """A reaction of 603.3b's loop and what it fires."""

    id: str = Field(description="The reaction id")
    when: str = Field(description="What fires it: becomes-target")
    object: str = Field(description="The watched object or player")
    by: str = Field(description="Whose abilities fire it, relative to the watched object's controller")
    text: str = Field(description="The fired ability's text")
    fires: list[str] = Field(description="The abilities it fires in some legal outcome (REACTION@ABILITY)")
    fired_by: list[str] = Field(description="The abilities whose targeting fires it in some legal outcome")
    passes: list[int] = Field(description="The passes the fired abilities go into")


class LoopReport(_Report):
    """603.3b's passes never end: a later pass repeats an earlier one."""

    mandatory: bool = Field(description="No choice ends the loop: the game is a draw (104.4b)")
    rule: str = Field(description="104.4b for a mandatory loop, 603.3b for an optional one")
    message: str = Field(description="Which pass repeats which, in words")


class Explanation(_Report):
    """What ``explain --json`` prints."""

    model_config = ConfigDict(populate_by_name=True)  # merged with _Report's

    rules: str = Field(description="seed, cr-1p or 2hg")
    apnap: list[str] = Field(description="The players still in the game, in APNAP order (101.4)")
    blocks: list[BlockReport] = Field(description="The blocks of 603.3b, bottom first")
    plan: PlanReport = Field(description="How the product engine answers")
    abilities: list[AbilityReport] = Field(description="The scenario's waiting abilities")
    count: int | None = Field(default=None, description="The number of legal outcomes (every pass)")
    count_merged_identical: int | None = Field(
        default=None, description="One pass: the count when identical abilities are interchangeable"
    )
    identical: list[list[str]] | None = Field(default=None, description="One pass: the groups of identical abilities")
    reactions: list[ReactionReport] | None = Field(default=None, description="Several passes: the reactions")
    fired: list[AbilityReport] | None = Field(
        default=None, description="Several passes: every ability a reaction fires in some legal outcome"
    )
    loop: LoopReport | None = Field(
        default=None, description="Several passes: the endless loop they run into (then no count is given)"
    )
    passes_not_told: str | None = Field(
        default=None,
        description=(
            "Several passes: why the later passes are not told (no count, reactions or fired abilities where"
            " absent): a cap of the work stopped following them, named with the flag that lets it go further"
        ),
    )


SCHEMAS = ("scenario", "outcome", "score", "verdict", "explain")
"""The formats whose JSON Schema ``triggerstack schema`` publishes."""


def published_schema(what: str) -> dict[str, Any]:
    """The JSON Schema of a format, as published: draft 2020-12, with an ``$id``, every property
    described (the descriptions are the models' field docstrings, the one source docs/fields.md
    is generated from)."""
    from ._outcome import Outcome, Score
    from ._scenario import Scenario

    models: dict[str, type[BaseModel]] = {
        "scenario": Scenario,
        "outcome": Outcome,
        "score": Score,
        "verdict": VerdictReport,
        "explain": Explanation,
    }
    schema = models[what].model_json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"urn:triggerstack:schema:{what}:1",
        **schema,
    }
