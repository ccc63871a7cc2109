"""Triggered abilities that a card's text holds without writing them out: keywords that stand for a
triggered ability with a target, and a Saga's chapter abilities (714.2). Reminder text is not read
(it is not rules text, and the data's is not always there), so each is written out here in the
words of its rule and read as any other triggered ability — read whole, or refused naming the
sentence; never left out.
"""

from __future__ import annotations

import re

from ._corpus import Card

# a Saga's chapter line: "I — …", "II, III — …" (714.2a: a chapter ability is a triggered ability
# whose trigger condition is a lore counter reaching its number, 714.2b)
CHAPTER = re.compile(r"^((?:[IVX]+)(?:, [IVX]+)*) — ")

_ABILITIES = {  # keyword: (its rule, the triggered ability it stands for; {n} is its number or name)
    "partner with": (
        "702.124j",
        "When this permanent enters, target player may put {n} into their hand from their library, then shuffle.",
    ),
    "modular": (
        "702.43a",
        "When this permanent is put into a graveyard from the battlefield, you may put a +1/+1 counter "
        "for each +1/+1 counter on this permanent on target artifact creature.",
    ),
    "haunt": ("702.55a", "When this creature dies, exile it haunting target creature."),
    "backup": (
        "702.165a",
        "When this creature enters, put {n} +1/+1 counters on target creature. If that's another creature, it "
        "gains the following abilities until end of turn.",
    ),
    "mentor": (
        "702.134a",
        "Whenever this creature attacks, put a +1/+1 counter on target attacking creature with lesser power.",
    ),
    "provoke": (
        "702.39a",
        "Whenever this creature attacks, you may have target creature defending player controls untap and block "
        "this creature this combat if able.",
    ),
    "soulshift": (
        "702.46a",
        "When this creature dies, you may return target Spirit card with mana value {n} or less from your "
        "graveyard to your hand.",
    ),
}
_SPELL_HAUNT = "When this spell is put into a graveyard during its resolution, exile it haunting target creature."
_WORD = re.compile(r"^(partner with|modular|haunt|backup|mentor|provoke|soulshift)\b[\s—-]*(.*)$", flags=re.I)


def keyword_triggers(card: Card, line: str) -> list[str]:
    """The triggered abilities with a target that the keywords of one line (reminder text removed)
    stand for, each as "<keyword> — <its rule's text> (<rule>)"; none when the line is not only
    keywords the card has."""
    known = {k.casefold() for k in card.keywords}
    words = [line] if line.casefold().startswith("partner with ") else re.split(r",\s*|;\s*", line)
    out = []
    for word in words:
        m = _WORD.match(word.strip())
        if m is None or m.group(1).casefold() not in known:
            continue
        key = m.group(1).casefold()
        rule, text = _ABILITIES[key]
        if key == "haunt" and not {"Creature", "Artifact", "Enchantment", "Land", "Planeswalker"} & set(card.types):
            text = _SPELL_HAUNT
        out.append(f"{word.strip()} — {text.format(n=m.group(2).strip() or '?')} ({rule})")
    return out
