"""Rule numbers and violation codes, and the one table that maps each code to its rule.

No rule number is written as a string anywhere else in the project: code passes a :class:`Rule`
or a :class:`Code` and reads the number from here.
"""

from __future__ import annotations

from enum import StrEnum


class Rule(StrEnum):
    """Comprehensive Rules numbers this tool applies."""

    R101_4 = "101.4"  # APNAP order
    R104_4B = "104.4b"  # a loop of mandatory actions: the game is a draw
    R113_8 = "113.8"  # an ability of a card outside the battlefield: its owner controls it
    R115_3 = "115.3"  # the same object for different instances of "target"; "another"/"other"
    R115_4 = "115.4"  # "any target"
    R115_5 = "115.5"  # an ability on the stack is not its own target
    R115_6 = "115.6"  # "up to N" targets
    R601_2B = "601.2b"  # announcing modes
    R601_2C = "601.2c"  # choosing targets
    R601_2D = "601.2d"  # dividing
    R603_3 = "603.3"  # each waiting ability is put on the stack
    R603_3A = "603.3a"  # controller of a triggered ability
    R603_3B = "603.3b"  # the order: two parts, APNAP
    R603_3C = "603.3c"  # modes
    R603_3D = "603.3d"  # targets; removal when no legal choice or illegal
    R603_7D = "603.7d"  # delayed trigger created by a spell
    R603_7E = "603.7e"  # ... by an activated or triggered ability
    R603_7F = "603.7f"  # ... by a replacement effect of a static ability
    R603_7G = "603.7g"  # ... by a static ability that let a player take an action
    R700_2 = "700.2"  # modal spells and abilities
    R700_2D = "700.2d"  # the same mode more than once
    R113_6 = "113.6"  # abilities of an object function only on the battlefield (its own hexproof, shroud ...)
    R702_11B = "702.11b"  # hexproof (a permanent)
    R702_11C = "702.11c"  # hexproof (a player)
    R702_11D = "702.11d"  # hexproof from a quality
    R702_16B = "702.16b"  # protection: can't be targeted
    R702_16J = "702.16j"  # protection from everything
    R702_18A = "702.18a"  # shroud
    R800_4A = "800.4a"  # a player who left the game: not a legal target
    R800_4D = "800.4d"  # abilities of a player who left the game
    R805_7 = "805.7"  # Two-Headed Giant: teams put triggered abilities on the stack


class Code(StrEnum):
    """Violation codes of docs/formats.md (Violation codes). A proposal of the right shape is judged, never
    refused: what it names that the scenario lacks is ``unknown-ability`` (it did not trigger, 603.3b),
    ``mode-unknown`` or ``target-unknown``."""

    UNKNOWN_ABILITY = "unknown-ability"
    DUPLICATE_ABILITY = "duplicate-ability"
    MISSING_ABILITY = "missing-ability"
    ORDER = "order"
    MODE_COUNT = "mode-count"
    MODE_UNKNOWN = "mode-unknown"
    MODE_ILLEGAL = "mode-illegal"
    MODE_UNAVAILABLE = "mode-unavailable"
    MODE_REPEAT = "mode-repeat"
    MODE_DISTINCT_TARGETS = "mode-distinct-targets"
    TARGET_COUNT = "target-count"
    TARGET_UNKNOWN = "target-unknown"
    TARGET_FILTER = "target-filter"
    TARGET_DUPLICATE = "target-duplicate"
    TARGET_NOT_DISTINCT = "target-not-distinct"
    TARGET_SOURCE = "target-source"
    TARGET_HEXPROOF = "target-hexproof"
    TARGET_SHROUD = "target-shroud"
    TARGET_PROTECTION = "target-protection"
    TARGET_RESTRICTED = "target-restricted"
    TARGET_SELF = "target-self"
    TARGET_NOT_YET_ON_STACK = "target-not-yet-on-stack"
    TARGET_MUST = "target-must"
    DIVISION = "division"
    REMOVED_BUT_LEGAL = "removed-but-legal"
    PLACED_BUT_ILLEGAL = "placed-but-illegal"


CODE_RULE: dict[Code, Rule] = {
    Code.UNKNOWN_ABILITY: Rule.R603_3B,
    Code.DUPLICATE_ABILITY: Rule.R603_3,
    Code.MISSING_ABILITY: Rule.R603_3,
    Code.ORDER: Rule.R603_3B,
    Code.MODE_COUNT: Rule.R700_2,
    Code.MODE_UNKNOWN: Rule.R700_2,
    Code.MODE_ILLEGAL: Rule.R603_3C,
    Code.MODE_UNAVAILABLE: Rule.R700_2,
    Code.MODE_REPEAT: Rule.R700_2D,
    Code.MODE_DISTINCT_TARGETS: Rule.R700_2,
    Code.TARGET_COUNT: Rule.R601_2C,
    Code.TARGET_UNKNOWN: Rule.R601_2C,
    Code.TARGET_FILTER: Rule.R601_2C,
    Code.TARGET_DUPLICATE: Rule.R601_2C,
    Code.TARGET_NOT_DISTINCT: Rule.R115_3,
    Code.TARGET_SOURCE: Rule.R115_3,
    Code.TARGET_HEXPROOF: Rule.R702_11B,
    Code.TARGET_SHROUD: Rule.R702_18A,
    Code.TARGET_PROTECTION: Rule.R702_16B,
    Code.TARGET_RESTRICTED: Rule.R601_2C,
    Code.TARGET_SELF: Rule.R115_5,
    Code.TARGET_NOT_YET_ON_STACK: Rule.R601_2C,
    Code.TARGET_MUST: Rule.R601_2C,
    Code.DIVISION: Rule.R601_2D,
    Code.REMOVED_BUT_LEGAL: Rule.R603_3D,
    Code.PLACED_BUT_ILLEGAL: Rule.R603_3D,
}
"""The rule each code breaks. A few violations name a more specific rule (702.11d for hexproof
from a quality, 800.4d for a player who left); they pass that :class:`Rule` explicitly."""

assert set(CODE_RULE) == set(Code), "every code has its rule"
