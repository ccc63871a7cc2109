"""``explain``: per ability, who controls it and why, where it goes, which modes and targets are
legal, which candidates are excluded and by what rule, and whether it must, may or cannot be
removed. Everything is read from the facts; nothing is decided here that ``check`` does not."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from typing import Any, Unpack

from triggerstack.model.errors import ScenarioError
from triggerstack.model.facts import AbilityFacts, Facts, ModeFacts, RequirementFacts
from triggerstack.model.rules import Code
from triggerstack.model.scenario import Scenario

from ..core.choices import has_legal_choice, is_mode_legal
from ..engines.product import ProductEngine, plan
from ..engines.product.merge import identical_groups, merged_count
from ..engines.select import chain_for
from ..options import Engine, OptionChanges, Options, prepare

__all__ = ["explain", "explain_text"]


def _removal(facts: Facts, a: AbilityFacts) -> tuple[str, str]:
    forced = a.forced_removal
    if forced is not None:
        return "must", f"{forced[1]} (rule {forced[0].value})"
    if a.may_choose_zero:
        return "may", "its controller may choose no mode (700.2)"
    if has_legal_choice(facts, a, frozenset()):
        return "cannot", "it has a legal choice whatever else is on the stack (603.3c-d)"
    if not has_legal_choice(facts, a, a.earlier_targets):  # the most that can be below it as its block starts
        return "must", "no legal choice of modes and targets exists (603.3c-d)"
    return (
        "may",
        "it has a legal choice only if an ability it could target is put on the stack before its block starts",
    )


def _requirement(facts: Facts, m: ModeFacts, r: RequirementFacts) -> dict[str, Any]:
    now: list[str] = []
    later: list[str] = []
    for t in r.candidates:
        (now if facts.is_on_stack_target(t, frozenset()) else later).append(facts.things[t].id)
    excluded = [
        {"id": facts.things[t].id, "code": e.code.value, "rule": e.rule.value, "reason": e.reason}
        for t, reasons in sorted(r.excluded.items())
        for e in reasons
    ]
    return {
        "id": r.id,
        "text": r.text,
        "min": r.min,
        "max": r.max,
        "divide": r.divide,
        "different_from": [m.requirements[k].id for k in r.different_from],
        "depends_on_targets_of": [m.requirements[k].id for k in r.depends_on],
        "legal": now,
        "legal_once_on_stack": later,
        "excluded": excluded,
    }


def _mode(facts: Facts, a: AbilityFacts, m: ModeFacts) -> dict[str, Any]:
    reqs = [_requirement(facts, m, r) for r in m.requirements]
    if not m.available:
        status, why = "unavailable", "not available (chosen before, or its condition is unmet)"
    elif is_mode_legal(facts, a, m.index, frozenset()):
        status, why = "legal", ""
    elif is_mode_legal(facts, a, m.index, a.earlier_targets):
        status, why = "legal-if", "legal only if an ability it can target is already on the stack"
    else:
        status, why = "illegal", "no legal targets (603.3c)"
    return {"id": m.id, "text": m.text, "status": status, "reason": why, "requirements": reqs}


def _counts(facts: Facts, options: Options) -> dict[str, Any]:
    """The plan the product engine takes, and the counts with and without merging identical abilities."""
    out: dict[str, Any] = {"plan": plan(facts).as_dict(facts)}
    chain = chain_for(facts, replace(options, engine=Engine.PRODUCT, merge_identical=False))
    if not chain.single:
        with suppress(ScenarioError):  # past the pass bound, explain still explains the first pass
            out["count"] = chain.count()  # every pass of 603.3b's loop
        return out
    engine = chain.first
    assert isinstance(engine, ProductEngine)
    out["count"] = engine.count()
    out["count_merged_identical"] = merged_count(engine)
    out["identical"] = [[facts.abilities[k].id for k in g] for g in identical_groups(engine) if len(g) > 1]
    return out


def explain(
    scenario: Scenario | Facts, options: Options | None = None, **changes: Unpack[OptionChanges]
) -> dict[str, Any]:
    """The facts behind every decision about ``scenario``, as a JSON-ready dict."""
    facts, opts = prepare(scenario, options, changes)
    s = facts.scenario
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
        "abilities": [],
    }
    out.update(_counts(facts, opts))
    for a in facts.abilities:
        removal, why = _removal(facts, a)
        out["abilities"].append(
            {
                "id": a.id,
                "text": a.text,
                "controller": a.controller,
                "controller_rule": a.control.rule.value,
                "controller_reason": a.control.reason,
                "chooser": a.chooser,
                "part": a.part,
                "block": a.block,
                "modal": {
                    "choose": sorted(a.choose),
                    "repeat": a.repeat,
                    "distinct_targets": a.distinct_targets,
                }
                if a.modal
                else None,
                "modes": [_mode(facts, a, m) for m in a.modes],
                "must_target": [facts.things[t].id for t in a.must],
                "removal": removal,
                "removal_reason": why,
            }
        )
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


def explain_text(data: dict[str, Any]) -> str:
    """The readable form of :func:`explain`'s dict."""
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
    for b in data["blocks"]:
        lines.append(
            f"block {b['index']} (part {b['part']}, rule {b['rule']}): {'+'.join(b['players'])} "
            f"puts {', '.join(b['abilities'])} in any order"
        )
    for a in data["abilities"]:
        lines.append("")
        lines.append(f"{a['id']}: {a['text']}" if a["text"] else a["id"])
        lines.append(f"  controller {a['controller']} (rule {a['controller_rule']}): {a['controller_reason']}")
        if a["chooser"] != a["controller"]:
            lines.append(f"  choices made by {a['chooser']} (700.2e); legality judged from {a['controller']}")
        where = f"block {a['block']}" if a["block"] is not None else "never put on the stack"
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
                lines.append(f"  mode {mode['id']}: {mode['status']}{note}")
                indent = "    "
            for r in mode["requirements"]:
                lines.append(f"{indent}target {r['id']} ({_bounds(r)}): {', '.join(r['legal']) or 'no legal target'}")
                if r["legal_once_on_stack"]:
                    lines.append(f"{indent}  once on the stack below it: {', '.join(r['legal_once_on_stack'])}")
                if r["different_from"]:
                    lines.append(f"{indent}  different from {', '.join(r['different_from'])} (115.3)")
                if r["depends_on_targets_of"]:
                    lines.append(f"{indent}  filter depends on the targets of {', '.join(r['depends_on_targets_of'])}")
                unfit = [e for e in r["excluded"] if e["code"] == Code.TARGET_FILTER.value]
                for e in r["excluded"]:
                    if e["code"] != Code.TARGET_FILTER.value:
                        lines.append(f"{indent}  excluded {e['id']}: {e['reason']} (rule {e['rule']}, {e['code']})")
                if unfit:
                    lines.append(f"{indent}  {len(unfit)} other(s) do not fit the filter")
        if a["must_target"]:
            lines.append(f"  must target if able (601.2c): {', '.join(a['must_target'])}")
        lines.append(f"  removal: {a['removal']} — {a['removal_reason']}")
    return "\n".join(lines)
