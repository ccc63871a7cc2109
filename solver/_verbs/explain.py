"""``explain``, the verb: per ability, who controls it and why, where it goes, which modes and
targets are legal, which candidates are excluded and by what rule, and whether it must, may or
cannot be removed — and, across the passes of 603.3b, each reaction, what fires it, and the fired
abilities' own facts.

What ``explain`` says is what the legal outcomes do (docs/rules.md, "An outcome"): a mode is legal when some legal
outcome chooses it, a thing is a legal target when some legal outcome chooses it, and an ability
must, may or cannot be removed as the outcomes remove it in all, some or none of them. Those are
read off the product engine (:mod:`~.._engines.product.projection`) without enumerating, so
``explain`` can never contradict ``check``, ``count`` or ``step`` (a property test holds it to
the literal simulator). Targets and modes are judged at the start of the ability's block: with
the abilities of earlier blocks that every outcome places below it on the stack; a waiting
ability that is below only in some outcomes is legal "once on the stack".

Its one answer, :class:`Explanation`, is the explain format itself (``model/_reports.py``: its JSON
Schema is ``triggerstack schema explain``), built here part by part as the typed report; every
surface writes its JSON, the command line its :meth:`~Explanation.text`, and the Python API's
``explain`` returns it, read as that JSON too (``explained["count"]``).
"""

from __future__ import annotations

from collections.abc import Callable, KeysView, Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

from pydantic import PrivateAttr
from triggerstack.model import _reports as reports
from triggerstack.model._answer import AnswerTooLarge, Spending
from triggerstack.model._derived import Derived
from triggerstack.model._errors import EndlessLoop, ScenarioError
from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model._numbers import int_said, int_text
from triggerstack.model._outcome import Outcome
from triggerstack.model._reports import (
    AbilityReport,
    BlockReport,
    Exclusion,
    Ignored,
    LoopReport,
    ModalReport,
    ModeReport,
    PlanReport,
    ReactionReport,
    RequirementReport,
)
from triggerstack.model._rules import Code
from triggerstack.model._targeting import Bar
from triggerstack.model._text import shown_lines

from .. import _judge as judge
from .._core.chain import Chain
from .._core.choices import is_mode_legal
from .._engines.product import ProductEngine, plan
from .._engines.product.fired import FiredClasses
from .._engines.product.merge import identical_groups, merged_count
from .._engines.product.projection import Projection, project
from .base import Params, Result

Removal = Literal["must", "may", "cannot"]
Status = Literal["legal", "legal-if", "illegal", "unavailable"]
_STATUS: list[Status] = ["legal", "legal-if", "illegal", "unavailable"]
"""A mode's statuses, the most legal first (two later passes merged keep the more legal)."""


class Explain(Params):
    """What explain --json prints."""


class Explanation(Derived, Result, reports.Explanation):
    # the explain format itself (the same JSON Schema, published under the same name), answered as a verb
    __doc__ = reports.Explanation.__doc__

    _drawing: Callable[[], str] | None = PrivateAttr(None)
    _json: dict[str, Any] | None = PrivateAttr(None)
    _DERIVED: ClassVar[tuple[str, ...]] = ("_json",)  # written again by a copy with changes

    def to_json(self) -> dict[str, Any]:
        if self._json is None:  # exactly what explain said: the fields it set
            self._json = self.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return self._json

    def text(self) -> str:
        return _text(self)

    def picture(self) -> str | None:
        return None if self._drawing is None else self._drawing()

    # read as the JSON explain --json prints, as a mapping: explained["count"], "loop" in explained

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.to_json().get(key, default)

    def keys(self) -> KeysView[str]:
        return self.to_json().keys()

    def __contains__(self, key: object) -> bool:
        return key in self.to_json()

    def __len__(self) -> int:
        return len(self.to_json())

    def __eq__(self, other: object) -> bool:
        """Equal to what reads as the same JSON: another explanation, or that JSON's mapping."""
        if isinstance(other, reports.Explanation):
            other = other.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return isinstance(other, Mapping) and self.to_json() == dict(other)

    __hash__ = None  # type: ignore[assignment]  # equal to a mapping, so unhashable as one

    def __repr__(self) -> str:
        count = "?" if self.count is None else int_said(self.count)
        return f"<Explanation: {len(self.abilities)} waiting abilities, {count} legal outcomes>"


class _Explains(Protocol):
    """What ``answer`` asks of a :class:`~.legal.LegalOutcomes` (named so, not imported: legal imports
    this module for :class:`Explanation`)."""

    facts: Facts

    def explain(self) -> Explanation: ...

    def count(self) -> int: ...

    def __getitem__(self, index: int) -> Outcome: ...


def answer(legal: _Explains, _: Explain) -> Explanation:
    found = legal.explain()

    def drawn() -> str:
        from .draw import outcome_svg

        return outcome_svg(legal.facts, legal[0], (), f"one legal outcome of {int_said(legal.count())}")

    found._drawing = drawn
    return found


# -- the report, part by part -----------------------------------------------------------------------


def _removal(facts: Facts, a: AbilityFacts, seen: Projection, certain: frozenset[int]) -> tuple[Removal, judge.Reason]:
    """Whether ``a`` must, may or cannot be removed, as the legal outcomes remove it, and why (the
    judge's words and rule)."""
    if a.forced_removal is not None or seen.removal == "must":
        return "must", judge.removed_always(a)
    if seen.removal == "cannot":
        targets = {facts.waiting_ability(c) for m in a.modes for r in m.requirements for c in r.candidates}
        below = [facts.abilities[k].id for k in sorted(certain)] if certain & targets else []
        return "cannot", judge.cannot_be_removed(a, below)
    return "may", judge.may_be_removed(facts, a)


def _excluded(facts: Facts, t: int, why: judge.Reason, spending: Spending) -> Exclusion:
    """A judge's reason why thing ``t`` is not a legal target, as the report shows it (counted)."""
    assert why.rule is not None and why.code is not None
    spending.spend(facts.things[t].id, why.code.value, why.rule.value, why.text)
    return Exclusion(id=facts.things[t].id, code=why.code.value, rule=why.rule.value, reason=why.text)


def _never_chosen(
    facts: Facts,
    a: AbilityFacts,
    m: ModeFacts,
    r: RequirementFacts,
    t: int,
    stacks: Sequence[frozenset[int]],
    spending: Spending,
) -> list[Exclusion]:
    """Why a candidate no legal outcome chooses is never chosen: what ``check`` says of a choice
    that takes it (the judge's :func:`~.._judge.never_chosen`) on each of ``stacks`` below, else
    what the stack decides."""
    reasons = judge.never_chosen(facts, a, m, r, t, stacks)
    if not reasons:
        if facts.waiting_ability(t) is not None:
            reasons = [judge.not_on_stack(facts, a, t)]
        elif a.must:
            reasons = [judge.must_elsewhere(facts, a)]
        else:
            reasons = [judge.no_linked_fit(facts, t)]
    return [_excluded(facts, t, why, spending) for why in reasons]


def _barred(
    facts: Facts, a: AbilityFacts, m: ModeFacts, r: RequirementFacts, t: int, stacks: Sequence[frozenset[int]]
) -> list[judge.Reason]:
    """Every reason the scenario gives that ``t`` is no candidate of ``r``: each rule that bars it
    — and where one is that it fits ``r``'s filter for no legal choice of the targets the filter
    names (``Bar.LINKED``), what ``check`` says of the choices that take it with those chosen again
    so that it fits (the judge's :func:`~.._judge.never_chosen`): "target creature an opponent
    controls, and its controller" with the opponent's only creature hexproof told the player "fits
    for no legal choice of targets for q", code target-filter, where a proposal taking both is told
    the creature's hexproof. Where no choice of them makes it fit, the bar is said."""
    bars = r.excluded.get(t, ())
    if Bar.LINKED not in bars or not judge.refits(facts, a, m, r, t):
        return judge.excluded(facts, a, r, t)
    found = judge.never_chosen(facts, a, m, r, t, stacks, refitting=True)
    if not found:  # no choice of those makes it fit: the bar says so
        return judge.excluded(facts, a, r, t)
    own = [judge.barred(facts, a, r, t, bar) for bar in bars if bar is not Bar.LINKED]
    return list(dict.fromkeys([*own, *found]))


def _ignored(facts: Facts, t: int, own: Sequence[str], spending: Spending) -> Ignored:
    why = judge.not_functioning(facts, t, own)
    assert why.rule is not None
    spending.spend(facts.things[t].id, why.rule.value, why.text)
    return Ignored(id=facts.things[t].id, rule=why.rule.value, reason=why.text)


def _requirement(
    facts: Facts,
    a: AbilityFacts,
    m: ModeFacts,
    r: RequirementFacts,
    chosen: set[int],
    certain: frozenset[int],
    stacks: Sequence[frozenset[int]],
    spending: Spending,
) -> RequirementReport:
    now: list[str] = []
    later: list[str] = []
    for t in sorted(chosen):
        b = facts.waiting_ability(t)
        (now if b is None or b in certain else later).append(facts.things[t].id)
        spending.spend(facts.things[t].id)
    excluded = [
        _excluded(facts, t, why, spending) for t in sorted(r.excluded) for why in _barred(facts, a, m, r, t, stacks)
    ]
    for t in r.candidates:
        if t not in chosen:
            excluded.extend(_never_chosen(facts, a, m, r, t, stacks, spending))
    return RequirementReport(
        id=r.id,
        text=r.text,
        called=r.called,
        min=r.min,
        max=r.max,
        divide=r.divide,
        different_from=[m.requirements[k].id for k in r.different_from],
        depends_on_targets_of=[m.requirements[k].id for k in r.depends_on],
        legal=now,
        legal_once_on_stack=later,
        excluded=excluded,
        ignored=[_ignored(facts, t, own, spending) for t, own in sorted(r.ignored.items())],
    )


def _mode(
    facts: Facts,
    a: AbilityFacts,
    m: ModeFacts,
    seen: Projection,
    certain: frozenset[int],
    stacks: Sequence[frozenset[int]],
    spending: Spending,
) -> ModeReport:
    reqs = [
        _requirement(facts, a, m, r, seen.reach.targets.get((m.index, r.index), set()), certain, stacks, spending)
        for r in m.requirements
    ]
    status: Status
    if m.index in seen.reach.modes:
        if is_mode_legal(facts, a, m.index, certain):
            status, why = "legal", ""
        else:
            status, why = "legal-if", judge.legal_only_if_below(a, m)
    elif not m.available:
        status, why = "unavailable", judge.mode_unavailable(a, m).text
    else:
        status, why = "illegal", judge.mode_never_chosen(facts, a, m, frozenset().union(*stacks)).text
    return ModeReport(id=m.id, text=m.text, called=m.called, status=status, reason=why, requirements=reqs)


def _abilities(facts: Facts, engine: ProductEngine, spending: Spending) -> list[AbilityReport]:
    """Each ability of one pass, as its legal outcomes treat it."""
    seen = project(engine)
    out = []
    for a in facts.abilities:
        certain = frozenset(b for b in a.earlier_targets if seen[b].removal == "cannot")
        # the stacks it is put on: what some legal outcome puts below it of what it could target
        # (put on the stack in some outcome is not enough: one put only above it never is below
        # it); never put, or targeting none, what may be: every ability that may precede it but
        # one always removed
        placed = frozenset(b for b in a.precedable_targets if True in seen[b].placed)
        stacks = sorted(seen[a.index].reach.below, key=sorted) or [placed]
        removal, why = _removal(facts, a, seen[a.index], certain)
        assert why.rule is not None
        spending.spend(a.id, a.text, why.text, why.rule.value)
        modal = ModalReport(choose=sorted(a.choose), repeat=a.repeat, distinct_targets=a.distinct_targets)
        out.append(
            AbilityReport(
                id=a.id,
                text=a.text,
                controller=a.controller,
                controller_rule=a.control.rule.value,
                controller_reason=a.control.reason,
                controller_assumed=a.control.assumed,
                chooser=a.chooser,
                part=a.part,
                block=a.block,
                modal=modal if a.modal else None,
                modes=[_mode(facts, a, m, seen[a.index], certain, stacks, spending) for m in a.modes],
                must_target=[facts.things[t].id for t in a.must],
                removal=removal,
                removal_reason=why.text,
                removal_rule=why.rule.value,
            )
        )
    return out


def _union(first: Sequence[Any], second: Sequence[Any]) -> list[Any]:
    return [*first, *(x for x in second if x not in first)]


def _merged_requirement(old: RequirementReport, new: RequirementReport, abilities: set[str]) -> RequirementReport:
    """One requirement as two later-pass scenarios treat it: what either allows (see :func:`_merge`)."""
    legal = [t for t in _union(old.legal, new.legal) if t not in abilities or (t in old.legal and t in new.legal)]
    chosen = _union(_union(old.legal, old.legal_once_on_stack), _union(new.legal, new.legal_once_on_stack))
    once = [t for t in chosen if t not in legal]
    excluded = [e for e in _union(old.excluded, new.excluded) if e.id not in {*legal, *once}]
    update = {"legal": legal, "legal_once_on_stack": once, "excluded": excluded}
    return old.model_copy(update={**update, "ignored": _union(old.ignored, new.ignored)})


def _merge(old: AbilityReport, new: AbilityReport, abilities: set[str]) -> AbilityReport:
    """One fired ability as two later-pass scenarios treat it: what either allows. An ability on
    the stack from an earlier pass is legal at the start of the block only if it is so in both
    (it may be missing from the other, removed in its pass): otherwise legal once on the stack."""
    modes = []
    for mo, mn in zip(old.modes, new.modes, strict=True):
        kept = mn if _STATUS.index(mn.status) < _STATUS.index(mo.status) else mo
        reqs = [_merged_requirement(ro, rn, abilities) for ro, rn in zip(mo.requirements, mn.requirements, strict=True)]
        modes.append(mo.model_copy(update={"status": kept.status, "reason": kept.reason, "requirements": reqs}))
    update: dict[str, Any] = {"modes": modes}
    if old.removal != new.removal:
        depends = judge.removal_depends()
        assert depends.rule is not None
        update |= {"removal": "may", "removal_reason": depends.text, "removal_rule": depends.rule.value}
    return old.model_copy(update=update)


def _by_classes(classes: FiredClasses, spending: Spending) -> dict[str, AbilityReport]:
    """The fired abilities' facts where the passes are counted by classes: every copy of a
    reaction, whoever fired it, has the facts of the representative fired pass (fired abilities
    that target no ability see nothing of the stack), with the other fired abilities it excludes
    named as each of them."""
    facts, anchor, reactions = classes.facts, classes.anchor, classes.reactions
    views = _abilities(classes.rep, classes.rep_engine, spending)
    pairs = classes.fired_pairs()
    together = {(a, frozenset(g.fires)) for a, groups in classes.groups.items() for g in groups}
    as_fired: dict[str, list[tuple[int, int]]] = {}  # a representative fired id -> the pairs it stands for
    for a, i in pairs:
        as_fired.setdefault(f"{reactions[i].id}@{anchor}", []).append((a, i))

    def with_it(a: int, i: int, b: int, j: int) -> bool:
        """Whether some legal outcome fires both (b's choices are its own, unless b is a)."""
        return a != b or any(x == a and {i, j} <= fires for x, fires in together)

    def named(e: Exclusion, fid: str) -> Exclusion:
        spending.spend(fid, e.code, e.rule, e.reason)
        return e.model_copy(update={"id": fid, "reason": e.reason.replace(e.id, fid)})

    out: dict[str, AbilityReport] = {}
    for a, i in pairs:
        aid = f"{reactions[i].id}@{facts.abilities[a].id}"
        modes = []
        for mode in views[i].modes:
            reqs = []
            for r in mode.requirements:
                excluded: dict[str, list[Exclusion]] = {}  # by thing, in the order things come
                for e in r.excluded:
                    if e.id not in as_fired:
                        excluded.setdefault(e.id, []).append(e)
                    elif e.code == Code.TARGET_SELF:  # 115.5 names only the ability itself
                        excluded.setdefault(aid, []).append(named(e, aid))
                    else:
                        for b, j in as_fired[e.id]:
                            if with_it(a, i, b, j):
                                fid = f"{reactions[j].id}@{facts.abilities[b].id}"
                                excluded.setdefault(fid, []).append(named(e, fid))
                reqs.append(r.model_copy(update={"excluded": [e for group in excluded.values() for e in group]}))
            modes.append(mode.model_copy(update={"requirements": reqs}))
        fired = {"id": aid, "fired_by": facts.abilities[a].id, "reaction": reactions[i].id, "pass_": 2}
        out[aid] = views[i].model_copy(update=fired | {"modes": modes})
    return out


def _later_passes(facts: Facts, chain: Chain, spending: Spending) -> dict[str, Any]:
    """The reactions, what fires them, and the fired abilities' own facts across the later passes."""
    classes = chain.classes()
    fired: dict[str, AbilityReport] = _by_classes(classes, spending) if isinstance(classes, FiredClasses) else {}
    passes = [] if isinstance(classes, FiredClasses) else chain.later_passes()
    abilities: set[str] = {a.id for a in facts.abilities} | {a.id for _, later in passes for a in later.abilities}
    for depth, later in passes:
        engine = chain.engine(later)
        assert isinstance(engine, ProductEngine)
        for view in _abilities(later, engine, spending):
            reaction, _, by = view.id.partition("@")
            update = {"pass_": depth + 1, "fired_by": by or None, "reaction": reaction if by else None}
            view = view.model_copy(update=update)
            fired[view.id] = _merge(fired[view.id], view, abilities) if view.id in fired else view
    reactions = []
    for r in facts.scenario.reactions:
        fires = [aid for aid in fired if aid.partition("@")[0] == r.id]
        reactions.append(
            ReactionReport(
                id=r.id,
                when=r.when,
                object=r.object,
                by=r.by,
                text=r.trigger.text,
                fires=fires,
                fired_by=sorted({who for aid in fires if (who := fired[aid].fired_by) is not None}),
                passes=sorted({n for aid in fires if (n := fired[aid].pass_) is not None}),
            )
        )
    return {"reactions": reactions, "fired": list(fired.values())}


def _plan(facts: Facts, chain: Chain) -> PlanReport:
    """How the product engine answers; across passes, how they are followed and why."""
    found = plan(facts)
    coupled = set(found.coupled)
    parts = {
        "path": found.path,
        "coupled": [facts.abilities[k].id for k in found.coupled],
        "independent": [a.id for a in facts.abilities if a.index not in coupled],
    }
    if chain.single:
        return PlanReport(**parts)
    why = chain.why_listed()
    return PlanReport(**parts, passes="listed" if why else "classes", passes_reason=why)


def explain_chain(facts: Facts, chain: Chain, spending: Spending) -> Explanation:
    """What :func:`~.legal.explain` answers, read off the product engine's ``chain`` of ``facts``,
    each part counted by ``spending`` as it is made (``--max-answer``, the time limit)."""
    s = facts.scenario
    engine = chain.first
    assert isinstance(engine, ProductEngine)
    blocks = [
        BlockReport(
            index=b.index,
            part=b.part,
            players=list(b.players),
            rule=b.rule.value,
            abilities=[facts.abilities[k].id for k in b.abilities],
        )
        for b in facts.blocks
    ]
    apnap = [p.id for p in s.players if not p.left_game]
    told: dict[str, Any] = {"rules": s.rules, "apnap": apnap, "blocks": blocks, "plan": _plan(facts, chain)}
    told["abilities"] = _abilities(facts, engine, spending)
    if chain.single:
        told["count"] = engine.count()
        told["count_merged_identical"] = merged_count(engine)
        told["identical"] = [[facts.abilities[k].id for k in g] for g in identical_groups(engine) if len(g) > 1]
        return Explanation(**told)
    try:
        told["count"] = chain.count()  # every pass of 603.3b's loop
        told.update(_later_passes(facts, chain, spending))
    except EndlessLoop as loop:  # what a judge needs to hear: the passes never end, and why
        assert loop.rule is not None
        told["loop"] = LoopReport(mandatory=loop.mandatory, rule=loop.rule.value, message=loop.message)
    except AnswerTooLarge:
        raise
    except ScenarioError as stopped:  # past a bound, explain still explains the first pass, and says so
        told["passes_not_told"] = str(stopped)
    return Explanation(**told)


# -- its text -----------------------------------------------------------------------------------------


def _bounds(r: RequirementReport) -> str:
    if r.max is None:
        text = f"{r.min} or more"
    elif r.min == r.max:
        text = str(r.min)
    else:
        text = f"{r.min} to {r.max}"
    return text + (f", dividing {r.divide}" if r.divide is not None else "")


def only_unfit(r: RequirementReport) -> list[str]:
    """The things a requirement excludes because they do not fit its filter at all, each once: the
    "others" its text counts, whatever else bars them (a judge read "excluded bcre: bcre has
    hexproof" under "target opponent", where bcre is no player: the rule that keeps a thing out is
    the description first; ``--json`` lists every rule that bars it). A thing that fits the filter
    — the ability itself under "target ability" (115.5), one that fits it but no legal choice of the
    rest (a target-filter reason of its own) — is listed with its reasons, and is no other."""
    return list(dict.fromkeys(e.id for e in r.excluded if _unfit(r, e)))


def _unfit(r: RequirementReport, e: Exclusion) -> bool:
    """Whether ``e`` says only that its thing does not fit ``r``'s filter (the judge's sentence)."""
    return e.code == Code.TARGET_FILTER.value and e.reason == judge.unfit(e.id, r.id)


def _requirement_lines(r: RequirementReport, indent: str) -> list[str]:
    # with targets once on the stack below it, "no legal target" read as no legal choice at all (stop 76)
    none = "none when its block starts" if r.legal_once_on_stack else "no legal target"
    lines = [f"{indent}target {r.called} ({_bounds(r)}): {', '.join(r.legal) or none}"]
    if r.legal_once_on_stack:
        lines.append(f"{indent}  once on the stack below it: {', '.join(r.legal_once_on_stack)}")
    if r.different_from:
        lines.append(f"{indent}  different from {', '.join(r.different_from)} (115.3)")
    if r.depends_on_targets_of:
        lines.append(f"{indent}  filter depends on the targets of {', '.join(r.depends_on_targets_of)}")
    unfit = only_unfit(r)
    counted = set(unfit)
    reasons: dict[str, list[str]] = {}  # a thing with several reasons is one line
    for e in r.excluded:
        if e.id not in counted:
            reasons.setdefault(e.id, []).append(f"{e.reason} (rule {e.rule}, {e.code})")
    lines += [f"{indent}  excluded {thing}: {'; '.join(why)}" for thing, why in reasons.items()]
    if unfit:
        lines.append(f"{indent}  {len(unfit)} other{'s do' if len(unfit) > 1 else ' does'} not fit the filter")
    lines += [f"{indent}  ignored: {note.reason} (rule {note.rule})" for note in r.ignored]
    return lines


def _ability_lines(a: AbilityReport, title: str) -> list[str]:
    lines = ["", f"{title}: {a.text}" if a.text else title]
    lines.append(f"  controller {a.controller} (rule {a.controller_rule}): {a.controller_reason}")
    if a.controller_assumed:
        lines.append(f"  assumed: {a.controller_assumed}")
    if a.chooser != a.controller:
        lines.append(f"  choices made by {a.chooser} (700.2e); legality judged from {a.controller}")
    where = f"block {a.block + 1}" if a.block is not None else "never put on the stack"  # 1-based, as drawn
    if a.pass_ is not None and a.block is not None:  # its number in its pass depends on what else fires there
        where = f"the block of {a.controller} in pass {a.pass_}"
    lines.append(f"  part {a.part}, {where}")
    if a.modal:
        m = a.modal
        extra = ", modes may repeat" if m.repeat else ""
        extra += ", each mode a different target" if m.distinct_targets else ""
        lines.append(f"  choose {' or '.join(map(str, m.choose))} mode(s){extra}")
    for mode in a.modes:
        indent = "  "
        if mode.id is not None:
            note = f" — {mode.reason}" if mode.reason else ""
            lines.append(f"  mode {mode.called}: {mode.status}{note}")
            indent = "    "
        for r in mode.requirements:
            lines += _requirement_lines(r, indent)
    if a.must_target:
        lines.append(f"  must target if able (601.2c): {', '.join(a.must_target)}")
    lines.append(f"  removal: {a.removal} — {a.removal_reason}")
    return lines


def _text(e: Explanation) -> str:
    """The readable form of an explanation (what ``explain`` prints)."""
    lines = [f"rules: {e.rules}; APNAP order: {', '.join(e.apnap)}"]
    coupled = f" (coupled: {', '.join(e.plan.coupled)})" if e.plan.coupled else ""
    lines.append(f"path: {e.plan.path}{coupled}")
    if e.count is not None and e.count_merged_identical is None:
        lines.append(f"legal outcomes (every pass): {int_text(e.count)}")
    elif e.count is not None:
        merged = e.count_merged_identical
        interchangeable = f"; {int_text(merged)} when identical abilities are interchangeable" if merged else ""
        same = interchangeable if merged != e.count else ""
        lines.append(f"legal outcomes: {int_text(e.count)}{same}")
        lines += [f"identical: {', '.join(group)}" for group in e.identical or ()]
    if e.loop:
        lines.append(f"endless: {e.loop.message} (rule {e.loop.rule})")
    if e.passes_not_told:
        lines.append(f"later passes not told: {e.passes_not_told}")
    for b in e.blocks:
        lines.append(
            f"block {b.index + 1} (part {b.part}, rule {b.rule}): {'+'.join(b.players)} "
            f"puts {', '.join(b.abilities)} in any order"
        )
    for a in e.abilities:
        lines.extend(_ability_lines(a, a.id))
    for r in e.reactions or ():
        whose = {"opponent": "an opponent of its controller", "you": "its controller", "any": "any player"}[r.by]
        fired = ", ".join(r.fires) or "nothing: no legal outcome targets it so"
        lines.append("")
        lines.append(
            f"reaction {r.id}: when {r.object} becomes the target of an ability {whose} controls "
            f"(603.3b: it waits for the next pass) — fires {fired}"
        )
    for a in e.fired or ():
        title = f"{a.id} (pass {a.pass_}, fired by {a.fired_by})" if a.fired_by else f"{a.id} (pass {a.pass_})"
        lines.extend(_ability_lines(a, title))
    return shown_lines(lines)
