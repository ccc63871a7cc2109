"""601.2c, 115.1–115.6, 702.11/16/18 and must-target effects: what a requirement's targets may be.
Which rule bars a thing from being a candidate at all is a fact of the scenario
(``RequirementFacts.excluded``: a :class:`~triggerstack.model._targeting.Bar` each, from
model/_targeting.py); its code, rule and sentence are said here (:func:`excluded`), as is what
depends on the rest of a choice."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model._linked import closure
from triggerstack.model._rules import Code, Rule
from triggerstack.model._targeting import Bar
from triggerstack.model._text import quoted, typed

from ._reason import Reason


def excluded(facts: Facts, a: AbilityFacts, r: RequirementFacts, t: int) -> list[Reason]:
    """Every reason the scenario gives that ``t`` is no candidate of ``a``'s requirement ``r``
    (empty: it is one): one per rule that bars it, in the order the facts list them."""
    return [barred(facts, a, r, t, bar) for bar in r.excluded.get(t, ())]


def barred(facts: Facts, a: AbilityFacts, r: RequirementFacts, t: int, bar: Bar) -> Reason:
    """Why ``bar`` keeps ``t`` from being chosen for ``a``'s requirement ``r``: its code (with its
    rule, unless a more specific one is named) and its sentence."""
    thing = facts.things[t].id
    source = facts.things[a.source].id if a.source is not None else "no source"
    opponent = f"{a.controller} is an opponent of {facts.things[t].protector}"
    match bar:
        case Bar.FILTER:
            return Reason.of(Code.TARGET_FILTER, unfit(thing, r.id))
        case Bar.LINKED:
            reqs = next(m.requirements for m in a.modes if any(x is r for x in m.requirements))
            names = ", ".join(reqs[d].id for d in closure(reqs, r.index))
            said = f"{thing} fits {r.id}'s filter for no legal choice of targets for {names}"
            return Reason.of(Code.TARGET_FILTER, said)
        case Bar.SOURCE:
            return Reason.of(Code.TARGET_SOURCE, f"{thing} is the ability's source ('another')")
        case Bar.SELF:
            return Reason.of(Code.TARGET_SELF, f"{a.id} can't target itself")
        case Bar.LEFT_GAME:
            gone = facts.things[t]
            said = f"{thing} has left the game" + ("" if gone.is_player else f" with its owner {gone.owner}")
            return Reason.of(Code.TARGET_RESTRICTED, said, Rule.R800_4A)
        case Bar.SHROUD:
            return Reason.of(Code.TARGET_SHROUD, f"{thing} has shroud")
        case Bar.HEXPROOF | Bar.HEXPROOF_PLAYER:
            rule = Rule.R702_11C if bar is Bar.HEXPROOF_PLAYER else None
            return Reason.of(Code.TARGET_HEXPROOF, f"{thing} has hexproof and {opponent}", rule)
        case Bar.HEXPROOF_FROM:
            said = f"{thing} has hexproof from a quality of {source} and {opponent}"
            return Reason.of(Code.TARGET_HEXPROOF, said, Rule.R702_11D)
        case Bar.PROTECTION | Bar.PROTECTION_FROM_EVERYTHING:
            rule = Rule.R702_16J if bar is Bar.PROTECTION_FROM_EVERYTHING else None
            return Reason.of(Code.TARGET_PROTECTION, f"{thing} has protection from a quality of {source}", rule)
        case Bar.CANT_BE_TARGETED:
            said = f"{thing} can't be the target of abilities from {source} controlled by {a.controller}"
            return Reason.of(Code.TARGET_RESTRICTED, said)
    assert_never(bar)


def unfit(thing: str, requirement: str) -> str:
    """The sentence of a thing that does not fit a requirement's filter at all (:attr:`Bar.FILTER`):
    the one exclusion explain's text counts among the "others" instead of telling it (a thing that
    fits the filter and is excluded for what the rest of the choice does is told)."""
    return f"{thing} does not fit {requirement}'s filter"


def cannot_choose(facts: Facts, a: AbilityFacts, r: RequirementFacts, t: int) -> Reason:
    """A walk's target decision naming ``t``, which a rule bars from ``a``'s requirement ``r``:
    the first rule that bars it, said of the decision."""
    return excluded(facts, a, r, t)[0].at(f"{facts.things[t].id} cannot be chosen for {a.id}'s target {typed(r.id)}")


_KEYWORD_RULES = {"hexproof": Rule.R702_11B, "hexproof_from": Rule.R702_11D, "shroud": Rule.R702_18A}
"""The rule that says what each keyword protects (a permanent or a player); protection's is 702.16b."""
_WHERE = {"stack": "on the stack", "exile": "in exile", "command": "in the command zone"}
"""How a zone is said where it is not "in the ZONE"."""


def not_functioning(facts: Facts, t: int, own: Sequence[str]) -> Reason:
    """``t``'s ``own`` targeting properties do not function where it is, so they bar nothing: a
    card's off the battlefield and a permanent spell's on the stack (113.6: its abilities function
    only on the battlefield); an instant or sorcery spell's, an ability's or an emblem's because
    the keywords protect only permanents and players (the first property's rule: 702.11b–d,
    702.16b, 702.18a)."""
    thing = facts.things[t]
    verb = "does" if len(own) == 1 else "do"
    zone = thing.zone or "stack"  # a thing with no zone is a player, whose own properties always function
    where = _WHERE.get(zone, f"in the {zone}")
    spell = thing.kind == "spell" and not thing.types & {"instant", "sorcery"}
    if thing.kind == "card" or spell:
        said = f"{thing.id}'s own {', '.join(own)} {verb} not function {where} (only on the battlefield)"
        return Reason(None, Rule.R113_6, said)
    what = {"spell": "an instant or sorcery spell", "ability": "an ability"}.get(thing.kind, f"a {thing.kind}")
    said = (
        f"{thing.id}'s own {', '.join(own)} {verb} not function: it is {what}, "
        "and these keywords protect only permanents and players"
    )
    return Reason(None, _KEYWORD_RULES.get(own[0], Rule.R702_16B), said)


def not_on_stack(facts: Facts, a: AbilityFacts, t: int) -> Reason:
    """601.2c: a waiting ability is a target only once it is on the stack below ``a``."""
    return Reason.of(
        Code.TARGET_NOT_YET_ON_STACK, f"{facts.things[t].id} is not on the stack when {a.id} is put there"
    )


def no_such_requirement(m: ModeFacts, rid: str, where: str) -> Reason:
    names = ", ".join(r.id for r in m.requirements) or "none"
    return Reason.of(Code.TARGET_UNKNOWN, f"{where} has no requirement {typed(rid)} (it has: {names})")


def not_a_thing(name: str, divided: bool = False) -> Reason:
    if divided:
        return Reason.of(Code.TARGET_UNKNOWN, f"{name} is given a part but is not a player, object or ability")
    return Reason.of(Code.TARGET_UNKNOWN, f"{name} is not a player, object or waiting ability of the scenario")


def not_in_pass(name: str, removed_in: int | None = None) -> Reason:
    """A target that is no thing of the pass its ability is put in (check's and a walk's one
    sentence): an ability removed in pass ``removed_in`` (603.3d: it never reached the stack), or
    one that has not triggered (a reaction's, in a pass before it or an outcome that never fires it)."""
    if removed_in is not None:
        return Reason.of(
            Code.TARGET_UNKNOWN,
            f"{name} was removed in pass {removed_in}: it is not a player, object or ability of this pass",
        )
    return Reason.of(Code.TARGET_UNKNOWN, f"{name} is not a thing of this pass: it has not triggered")


def chosen_twice(name: str, times: int) -> Reason:
    return Reason.of(Code.TARGET_DUPLICATE, f"{name} is chosen {times} times for one instance of 'target'")


def targets_miscounted(r: RequirementFacts, chosen: int) -> Reason | None:
    """601.2c: ``chosen`` targets outside the requirement's bounds. What ``check`` says of a
    requirement's targets and ``step`` of 'end targets' after ``chosen`` of them."""
    return target_count(r, chosen) if chosen < r.min or (r.max is not None and chosen > r.max) else None


def target_count(r: RequirementFacts, chosen: int) -> Reason:
    if r.max is None:
        asked = f"at least {r.min}"
    elif r.max == r.min:
        asked = f"exactly {r.min}"
    else:
        asked = f"between {r.min} and {r.max}"
    return Reason.of(Code.TARGET_COUNT, f"{chosen} target{'s' if chosen != 1 else ''} chosen; {asked} required")


def _names(facts: Facts, things: Sequence[int]) -> str:
    return ", ".join(facts.things[t].id for t in things)


def not_distinct(facts: Facts, things: Sequence[int], first: str, second: str) -> Reason:
    """115.3: requirements that must differ share ``things``."""
    return Reason.of(
        Code.TARGET_NOT_DISTINCT, f"{_names(facts, things)} chosen for both {first} and {second}, which must differ"
    )


def linked_misfit(facts: Facts, t: int, m: ModeFacts, r: RequirementFacts) -> Reason:
    """601.2c: ``t`` does not fit ``r``'s description given the targets chosen for what it names."""
    refs = ", ".join(m.requirements[d].id for d in r.depends_on)
    return Reason.of(
        Code.TARGET_FILTER, f"{facts.things[t].id} does not fit the filter given the targets of {refs}"
    )


def no_linked_fit(facts: Facts, t: int) -> Reason:
    """What ``explain`` says of a candidate that fits no legal choice of the other targets."""
    return Reason.of(Code.TARGET_FILTER, f"{facts.things[t].id} fits no legal choice of the other targets")


def no_choice_goes_on(a: AbilityFacts, decision: str, announced: Sequence[str], targeting: bool) -> Reason:
    """A walk's decision that no legal choice of ``a`` (in hand) takes after what it ``announced``
    (``targeting``: a target or the end of targets, else a mode or the end of modes)."""
    said = " ".join(worded(a, t) for t in announced) or "nothing yet"
    return Reason(
        None,
        Rule.R601_2C if targeting else Rule.R700_2,
        f"no legal choice of {a.id} goes on with {worded(a, decision)} after {said} "
        "(counts, different targets, what a description names, must-target effects or divisions rule it out)",
    )


def worded(a: AbilityFacts | None, decision: str) -> str:
    """A walk's decision as a sentence names it: quoted, and a mode of ``a`` (``mode E:counter``)
    followed by the mode's own words (:func:`~triggerstack.model._text.quoted`)."""
    if a is None:
        return typed(decision)
    k = a.mode_index.get(decision.removeprefix(f"mode {a.id}:")) if decision.startswith(f"mode {a.id}:") else None
    words = "" if k is None else quoted(a.modes[k].id, a.modes[k].text)
    return f"{typed(decision)} {words}" if words else typed(decision)


def must_disobeyed(facts: Facts, a: AbilityFacts, obeyed: int, best: int) -> Reason:
    return Reason.of(
        Code.TARGET_MUST,
        f"{a.id} obeys {obeyed} of the effects that say {_names(facts, a.must)} must be targeted; {best} can be obeyed",
    )


def must_elsewhere(facts: Facts, a: AbilityFacts) -> Reason:
    """What ``explain`` says of a candidate no legal choice takes because effects say others must be."""
    return Reason.of(
        Code.TARGET_MUST,
        f"every legal choice targets {_names(facts, a.must)}, which a 'must target' effect requires",
        Rule.R601_2C,
    )
