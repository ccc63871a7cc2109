"""``explain``: per ability, who controls it and why, where it goes, which modes and targets are
legal, which candidates are excluded and by what rule, and whether it must, may or cannot be
removed — and, across the passes of 603.3b, each reaction, what fires it, and the fired
abilities' own facts.

What ``explain`` says is what the legal outcomes do (docs/rules.md, "An outcome"): a mode is legal when some legal
outcome chooses it, a thing is a legal target when some legal outcome chooses it, and an ability
must, may or cannot be removed as the outcomes remove it in all, some or none of them. Those are
read off the product engine (:mod:`~.._engines.product.projection`) without enumerating, so
``explain`` can never contradict ``check``, ``count`` or ``step`` (a property test holds it to
the literal simulator). Targets and modes are judged at the start of the ability's block: with
the abilities of earlier blocks that every outcome places below it on the stack; a waiting
ability that is below only in some outcomes is legal "once on the stack".
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from typing import Any

from triggerstack.model._errors import EndlessLoop, ScenarioError
from triggerstack.model._facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model._reports import Explanation
from triggerstack.model._rules import Code

from .. import _judge as judge
from .._core.chain import Chain
from .._core.choices import is_mode_legal
from .._engines.product import ProductEngine, plan
from .._engines.product.fired import FiredClasses
from .._engines.product.merge import identical_groups, merged_count
from .._engines.product.projection import Projection, project

_REMOVAL_WORDS = {"must": "removed in every legal outcome", "cannot": "placed in every legal outcome"}


def _removal(facts: Facts, a: AbilityFacts, seen: Projection, certain: frozenset[int]) -> tuple[str, str]:
    """Whether ``a`` must, may or cannot be removed, as the legal outcomes remove it, and why (the judge's words)."""
    if a.forced_removal is not None or seen.removal == "must":
        return "must", judge.removed_always(a).text
    if seen.removal == "cannot":
        targets = {facts.waiting_ability(c) for m in a.modes for r in m.requirements for c in r.candidates}
        below = [facts.abilities[k].id for k in sorted(certain)] if certain & targets else []
        return "cannot", judge.cannot_be_removed(a, below).text
    return "may", judge.may_be_removed(a).text


def _never_chosen(facts: Facts, a: AbilityFacts, t: int) -> dict[str, str]:
    """Why a candidate no legal outcome chooses is never chosen."""
    if facts.waiting_ability(t) is not None:
        why = judge.not_on_stack(facts, a, t)
    elif a.must:
        why = judge.must_elsewhere(facts, a)
    else:
        why = judge.no_linked_fit(facts, t)
    return _said(facts, t, why)


def _said(facts: Facts, t: int, why: judge.Reason) -> dict[str, str]:
    """A judge's reason about thing ``t`` as the report shows it: its code (where it has one), rule and sentence."""
    assert why.rule is not None
    code = {"code": why.code.value} if why.code is not None else {}
    return {"id": facts.things[t].id, **code, "rule": why.rule.value, "reason": why.text}


def _requirement(
    facts: Facts, a: AbilityFacts, m: ModeFacts, r: RequirementFacts, chosen: set[int], certain: frozenset[int]
) -> dict[str, Any]:
    now: list[str] = []
    later: list[str] = []
    for t in sorted(chosen):
        b = facts.waiting_ability(t)
        (now if b is None or b in certain else later).append(facts.things[t].id)
    excluded = [_said(facts, t, why) for t in sorted(r.excluded) for why in judge.excluded(facts, a, r, t)]
    excluded.extend(_never_chosen(facts, a, t) for t in r.candidates if t not in chosen)
    return {
        "id": r.id,
        "text": r.text,
        "called": r.called,
        "min": r.min,
        "max": r.max,
        "divide": r.divide,
        "different_from": [m.requirements[k].id for k in r.different_from],
        "depends_on_targets_of": [m.requirements[k].id for k in r.depends_on],
        "legal": now,
        "legal_once_on_stack": later,
        "excluded": excluded,
        "ignored": [_said(facts, t, judge.not_functioning(facts, t, own)) for t, own in sorted(r.ignored.items())],
    }


def _mode(facts: Facts, a: AbilityFacts, m: ModeFacts, seen: Projection, certain: frozenset[int]) -> dict[str, Any]:
    reqs = [
        _requirement(facts, a, m, r, seen.reach.targets.get((m.index, r.index), set()), certain) for r in m.requirements
    ]
    if m.index in seen.reach.modes:
        if is_mode_legal(facts, a, m.index, certain):
            status, why = "legal", ""
        else:
            status, why = "legal-if", judge.legal_only_if_below(a, m)
    elif not m.available:
        status, why = "unavailable", judge.mode_unavailable(a, m).text
    else:
        status, why = "illegal", judge.mode_illegal(a, m).text
    return {"id": m.id, "text": m.text, "called": m.called, "status": status, "reason": why, "requirements": reqs}


def _abilities(facts: Facts, engine: ProductEngine) -> list[dict[str, Any]]:
    """Each ability of one pass, as its legal outcomes treat it."""
    seen = project(engine)
    out = []
    for a in facts.abilities:
        certain = frozenset(b for b in a.earlier_targets if seen[b].removal == "cannot")
        removal, why = _removal(facts, a, seen[a.index], certain)
        out.append(
            {
                "id": a.id,
                "text": a.text,
                "controller": a.controller,
                "controller_rule": a.control.rule.value,
                "controller_reason": a.control.reason,
                "controller_assumed": a.control.assumed,
                "chooser": a.chooser,
                "part": a.part,
                "block": a.block,
                "modal": {"choose": sorted(a.choose), "repeat": a.repeat, "distinct_targets": a.distinct_targets}
                if a.modal
                else None,
                "modes": [_mode(facts, a, m, seen[a.index], certain) for m in a.modes],
                "must_target": [facts.things[t].id for t in a.must],
                "removal": removal,
                "removal_reason": why,
            }
        )
    return out


def _union(first: list[Any], second: list[Any]) -> list[Any]:
    return first + [x for x in second if x not in first]


_STATUS = ["legal", "legal-if", "illegal", "unavailable"]


def _merge(old: dict[str, Any], new: dict[str, Any], abilities: set[str]) -> dict[str, Any]:
    """One fired ability as two later-pass scenarios treat it: what either allows. An ability on
    the stack from an earlier pass is legal at the start of the block only if it is so in both
    (it may be missing from the other, removed in its pass): otherwise legal once on the stack."""
    if old["removal"] != new["removal"]:
        old["removal"] = "may"
        old["removal_reason"] = judge.removal_depends().text
    for mo, mn in zip(old["modes"], new["modes"], strict=True):
        if _STATUS.index(mn["status"]) < _STATUS.index(mo["status"]):
            mo["status"], mo["reason"] = mn["status"], mn["reason"]
        for ro, rn in zip(mo["requirements"], mn["requirements"], strict=True):
            chosen_old = _union(ro["legal"], ro["legal_once_on_stack"])
            chosen_new = _union(rn["legal"], rn["legal_once_on_stack"])
            legal = [
                t
                for t in _union(ro["legal"], rn["legal"])
                if t not in abilities or (t in ro["legal"] and t in rn["legal"])
            ]
            ro["legal"] = legal
            ro["legal_once_on_stack"] = [t for t in _union(chosen_old, chosen_new) if t not in legal]
            chosen = set(ro["legal"]) | set(ro["legal_once_on_stack"])
            ro["excluded"] = [e for e in _union(ro["excluded"], rn["excluded"]) if e["id"] not in chosen]
            ro["ignored"] = _union(ro["ignored"], rn["ignored"])
    return old


def _by_classes(classes: FiredClasses) -> dict[str, dict[str, Any]]:
    """The fired abilities' facts where the passes are counted by classes: every copy of a
    reaction, whoever fired it, has the facts of the representative fired pass (fired abilities
    that target no ability see nothing of the stack), with the other fired abilities it excludes
    named as each of them."""
    facts, rep = classes.facts, classes.rep
    anchor = classes.anchor
    views = _abilities(rep, classes.rep_engine)
    pairs = classes.fired_pairs()
    reactions = classes.reactions
    together = {(a, frozenset(g.fires)) for a, groups in classes.groups.items() for g in groups}
    as_fired: dict[str, list[tuple[int, int]]] = {}  # a representative fired id -> the pairs it stands for
    for a, i in pairs:
        as_fired.setdefault(f"{reactions[i].id}@{anchor}", []).append((a, i))

    def with_it(a: int, i: int, b: int, j: int) -> bool:
        """Whether some legal outcome fires both (b's choices are its own, unless b is a)."""
        return a != b or any(x == a and {i, j} <= fires for x, fires in together)

    out: dict[str, dict[str, Any]] = {}
    for a, i in pairs:
        aid = f"{reactions[i].id}@{facts.abilities[a].id}"
        view = copy.deepcopy(views[i])
        view.update(id=aid, fired_by=facts.abilities[a].id, reaction=reactions[i].id)
        view["pass"] = 2
        for mode in view["modes"]:
            for r in mode["requirements"]:
                excluded: dict[str, list[dict[str, Any]]] = {}  # by thing, in the order things come
                for e in r["excluded"]:
                    if e["id"] not in as_fired:
                        excluded.setdefault(e["id"], []).append(e)
                        continue
                    if e["code"] == Code.TARGET_SELF:  # 115.5 names only the ability itself
                        own = {**e, "id": aid, "reason": e["reason"].replace(e["id"], aid)}
                        excluded.setdefault(aid, []).append(own)
                        continue
                    for b, j in as_fired[e["id"]]:
                        if with_it(a, i, b, j):
                            fid = f"{reactions[j].id}@{facts.abilities[b].id}"
                            excluded.setdefault(fid, []).append(
                                {**e, "id": fid, "reason": e["reason"].replace(e["id"], fid)}
                            )
                r["excluded"] = [e for group in excluded.values() for e in group]
        out[aid] = view
    return out


def _later_passes(facts: Facts, chain: Chain) -> dict[str, Any]:
    """The reactions, what fires them, and the fired abilities' own facts across the later passes."""
    classes = chain.classes()
    fired: dict[str, dict[str, Any]] = _by_classes(classes) if isinstance(classes, FiredClasses) else {}
    passes = [] if isinstance(classes, FiredClasses) else chain.later_passes()
    abilities: set[str] = {a.id for a in facts.abilities} | {a.id for _, later in passes for a in later.abilities}
    for depth, later in passes:
        engine = chain.engine(later)
        assert isinstance(engine, ProductEngine)
        for view in _abilities(later, engine):
            aid = view["id"]
            view["pass"] = depth + 1
            reaction, _, by = aid.partition("@")
            view["fired_by"] = by or None
            view["reaction"] = reaction if by else None
            fired[aid] = _merge(fired[aid], view, abilities) if aid in fired else view
    reactions = []
    for r in facts.scenario.reactions:
        fires = [aid for aid in fired if aid.partition("@")[0] == r.id]
        reactions.append(
            {
                "id": r.id,
                "when": r.when,
                "object": r.object,
                "by": r.by,
                "text": r.trigger.text,
                "fires": fires,
                "fired_by": sorted({fired[aid]["fired_by"] for aid in fires}),
                "passes": sorted({fired[aid]["pass"] for aid in fires}),
            }
        )
    return {"reactions": reactions, "fired": list(fired.values())}


class Explained(Mapping[str, Any]):
    """What ``explain`` answers: :attr:`report`, the typed :class:`~triggerstack.model._reports.Explanation`
    (validated when first read); :meth:`to_json`, the JSON ``explain --json`` prints; :meth:`text`,
    the readable form. It reads as that JSON's mapping too (``explained["count"]``)."""

    __slots__ = ("_data", "_report")

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data
        self._report: Explanation | None = None

    @property
    def report(self) -> Explanation:
        if self._report is None:
            self._report = Explanation.model_validate(self._data)
        return self._report

    def to_json(self) -> dict[str, Any]:
        return self._data

    def text(self) -> str:
        return explain_text(self._data)

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        count = self._data.get("count", "?")
        return f"<Explained: {len(self._data['abilities'])} waiting abilities, {count} legal outcomes>"


def explain_chain(facts: Facts, chain: Chain) -> dict[str, Any]:
    """What :func:`~.legal.explain` answers, read off the product engine's ``chain`` of ``facts``."""
    s = facts.scenario
    engine = chain.first
    assert isinstance(engine, ProductEngine)
    out: dict[str, Any] = {
        "rules": s.rules,
        "apnap": [p.id for p in s.players if not p.left_game],
        "blocks": [
            {
                "index": b.index,
                "part": b.part,
                "players": list(b.players),
                "rule": b.rule.value,
                "abilities": [facts.abilities[k].id for k in b.abilities],
            }
            for b in facts.blocks
        ],
        "plan": plan(facts).as_dict(facts),
        "abilities": _abilities(facts, engine),
    }
    if chain.single:
        out["count"] = engine.count()
        out["count_merged_identical"] = merged_count(engine)
        out["identical"] = [[facts.abilities[k].id for k in g] for g in identical_groups(engine) if len(g) > 1]
        return out
    why = chain.why_listed()
    out["plan"].update(passes="listed" if why else "classes", passes_reason=why)
    try:
        out["count"] = chain.count()  # every pass of 603.3b's loop
        out.update(_later_passes(facts, chain))
    except EndlessLoop as loop:  # what a judge needs to hear: the passes never end, and why
        assert loop.rule is not None
        out["loop"] = {"mandatory": loop.mandatory, "rule": loop.rule.value, "message": loop.message}
    except ScenarioError:  # past the pass bound, explain still explains the first pass
        pass
    return out


def _bounds(r: dict[str, Any]) -> str:
    lo, hi = r["min"], r["max"]
    if hi is None:
        text = f"{lo} or more"
    elif lo == hi:
        text = str(lo)
    else:
        text = f"{lo} to {hi}"
    return text + (f", dividing {r['divide']}" if r["divide"] is not None else "")


def only_unfit(r: dict[str, Any]) -> list[str]:
    """The things a requirement of :func:`~.legal.explain`'s dict excludes only because they do not fit its
    filter, each once: the "others" its text counts. A thing excluded for another reason too (the
    ability itself, 115.5, when it is no creature) is listed with that reason, and is no other."""
    named = {e["id"] for e in r["excluded"] if e["code"] != Code.TARGET_FILTER.value}
    unfit = [e["id"] for e in r["excluded"] if e["code"] == Code.TARGET_FILTER.value and e["id"] not in named]
    return list(dict.fromkeys(unfit))


def _ability_lines(a: dict[str, Any], title: str) -> list[str]:
    lines = ["", f"{title}: {a['text']}" if a["text"] else title]
    lines.append(f"  controller {a['controller']} (rule {a['controller_rule']}): {a['controller_reason']}")
    if a.get("controller_assumed"):
        lines.append(f"  assumed: {a['controller_assumed']}")
    if a["chooser"] != a["controller"]:
        lines.append(f"  choices made by {a['chooser']} (700.2e); legality judged from {a['controller']}")
    where = f"block {a['block'] + 1}" if a["block"] is not None else "never put on the stack"  # 1-based, as drawn
    lines.append(f"  part {a['part']}, {where}")
    if a["modal"]:
        m = a["modal"]
        extra = (", modes may repeat" if m["repeat"] else "") + (
            ", each mode a different target" if m["distinct_targets"] else ""
        )
        lines.append(f"  choose {' or '.join(map(str, m['choose']))} mode(s){extra}")
    for mode in a["modes"]:
        indent = "  "
        if mode["id"] is not None:
            note = f" — {mode['reason']}" if mode["reason"] else ""
            lines.append(f"  mode {mode['called']}: {mode['status']}{note}")
            indent = "    "
        for r in mode["requirements"]:
            lines.append(f"{indent}target {r['called']} ({_bounds(r)}): {', '.join(r['legal']) or 'no legal target'}")
            if r["legal_once_on_stack"]:
                lines.append(f"{indent}  once on the stack below it: {', '.join(r['legal_once_on_stack'])}")
            if r["different_from"]:
                lines.append(f"{indent}  different from {', '.join(r['different_from'])} (115.3)")
            if r["depends_on_targets_of"]:
                lines.append(f"{indent}  filter depends on the targets of {', '.join(r['depends_on_targets_of'])}")
            reasons: dict[str, list[str]] = {}  # a thing with several reasons is one line
            for e in r["excluded"]:
                if e["code"] != Code.TARGET_FILTER.value:
                    reasons.setdefault(e["id"], []).append(f"{e['reason']} (rule {e['rule']}, {e['code']})")
            lines += [f"{indent}  excluded {thing}: {'; '.join(why)}" for thing, why in reasons.items()]
            if unfit := only_unfit(r):
                lines.append(f"{indent}  {len(unfit)} other{'s do' if len(unfit) > 1 else ' does'} not fit the filter")
            for note in r["ignored"]:
                lines.append(f"{indent}  ignored: {note['reason']} (rule {note['rule']})")
    if a["must_target"]:
        lines.append(f"  must target if able (601.2c): {', '.join(a['must_target'])}")
    lines.append(f"  removal: {a['removal']} — {a['removal_reason']}")
    return lines


def explain_text(data: dict[str, Any]) -> str:
    """The readable form of :func:`~.legal.explain`'s dict."""
    lines = [f"rules: {data['rules']}; APNAP order: {', '.join(data['apnap'])}"]
    plan = data["plan"]
    coupled = f" (coupled: {', '.join(plan['coupled'])})" if plan["coupled"] else ""
    lines.append(f"path: {plan['path']}{coupled}")
    if "count" in data and "count_merged_identical" not in data:
        lines.append(f"legal outcomes (every pass): {data['count']}")
    elif "count" in data:
        merged = data["count_merged_identical"]
        same = f"; {merged} when identical abilities are interchangeable" if merged != data["count"] else ""
        lines.append(f"legal outcomes: {data['count']}{same}")
        for group in data["identical"]:
            lines.append(f"identical: {', '.join(group)}")
    if data.get("loop"):
        loop = data["loop"]
        lines.append(f"endless: {loop['message']} (rule {loop['rule']})")
    for b in data["blocks"]:
        lines.append(
            f"block {b['index'] + 1} (part {b['part']}, rule {b['rule']}): {'+'.join(b['players'])} "
            f"puts {', '.join(b['abilities'])} in any order"
        )
    for a in data["abilities"]:
        lines.extend(_ability_lines(a, a["id"]))
    for r in data.get("reactions", ()):
        whose = {"opponent": "an opponent of its controller", "you": "its controller", "any": "any player"}[r["by"]]
        fired = ", ".join(r["fires"]) or "nothing: no legal outcome targets it so"
        lines.append("")
        lines.append(
            f"reaction {r['id']}: when {r['object']} becomes the target of an ability {whose} controls "
            f"(603.3b: it waits for the next pass) — fires {fired}"
        )
    for a in data.get("fired", ()):
        title = (
            f"{a['id']} (pass {a['pass']}, fired by {a['fired_by']})"
            if a["fired_by"]
            else f"{a['id']} (pass {a['pass']})"
        )
        lines.extend(_ability_lines(a, title))
    return "\n".join(lines)
