"""Build the 603.3 conformance suite (``conformance/cases/``): run ``python conformance/build.py``.

Each case is a scenario with its exact outcome count, the divide (the count under each first —
bottom — stack entry, perft's divide), legal proposals, and illegal ones with the codes and rules
``check`` reports, and its source. The cases come from the project's rule cases (tests/cases: each
cites its rule or ruling), the examples, hand cases restating the bug classes engines have had
(docs/conformance.md), and generated families at sizes 1…N. A case enters only when three engines
agree on its count — the product engine, CP-SAT and python-constraint2 — and its divide sums to it.

A case's citations have one source each: the codes and rules of its proposals are what ``check``
says today, a rule case's source is its file's in tests/cases, and a family's source and rules are
written here from :class:`Rule`. ``python conformance/build.py --check`` says where the published
suite disagrees with them, or lacks a case the build writes today (counting only those), writing
nothing (tests/test_conformance_citations.py runs it).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import yaml
from triggerstack.model import ScenarioError, outcome_dict
from triggerstack.model._io import load_document
from triggerstack.model._outcome import parse_outcome
from triggerstack.model._rules import Rule
from triggerstack.model._scenario import parse_scenario
from triggerstack.solver import LegalOutcomes, check, count
from triggerstack.solver._judge import cite

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CASES = HERE / "cases"
VERSION = "1"
MAX_COUNT = 50_000
"""The most outcomes a case may have: every engine under test counts each case, and the divide is
tallied one by one."""


def _families() -> Any:
    spec = importlib.util.spec_from_file_location("make_scenarios", ROOT / "benchmarks" / "make_scenarios.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


PEERS: dict[str, list[str]] = {
    # family prefix → the peer issues whose bug class its cases restate
    "family/apnap": [
        "https://github.com/phase-rs/phase/issues/1689 (APNAP by a binary active/non-active key)",
        "https://github.com/magarena/magarena/issues/423 (pending triggers not in APNAP order)",
    ],
    "family/rules": ["https://github.com/Card-Forge/forge/pull/1583 (603.3b's two parts)"],
    "family/choose": [
        "https://github.com/wingedsheep/argentum-engine/pull/1684 (modes chosen at resolution, not on the stack)"
    ],
    "family/modal-distinct": ["https://github.com/magefree/mage/issues/3859 (modal triggers and 'one or more')"],
    "family/no-target": [
        "https://github.com/Card-Forge/forge/pull/3019 (a trigger that failed targeting froze the stack)",
        "https://github.com/phase-rs/phase/issues/4240 (a trigger softlocks the ordering)",
    ],
    "family/ward": [
        "https://github.com/wingedsheep/argentum-engine/pull/1307 (ward did not fire for a modal trigger's target)",
        "https://github.com/Card-Forge/forge/pull/3019 (ward triggering too late)",
    ],
}


def _agreed(scenario: Any, where: str) -> int | None:
    """The count three engines agree on, or None (the case is left out, and said so)."""
    counts = {}
    for engine in ("product", "cpsat", "constraint"):
        try:
            counts[engine] = count(scenario, engine=engine, time_limit=60)
        except Exception as exc:  # an engine that cannot decide it: no agreement, no case
            print(f"  left out {where}: {engine} says {type(exc).__name__}: {exc}", file=sys.stderr)
            return None
    if len(set(counts.values())) != 1:
        print(f"  left out {where}: the engines disagree {counts}", file=sys.stderr)
        return None
    return counts["product"]


def _verdict(scenario: Any, proposal: dict[str, Any]) -> dict[str, Any] | None:
    """check's verdict, or None for a proposal that is bad input (not a verdict: left out)."""
    try:
        verdict = check(scenario, parse_outcome(proposal))
    except ScenarioError:
        return None
    codes = sorted({v.code.value for v in verdict.violations})
    rules = sorted({v.rule.value for v in verdict.violations})
    return {"legal": verdict.legal, "codes": codes, "rules": rules}


def _case(
    case_id: str,
    source: str,
    checks: list[str],
    doc: dict[str, Any],
    proposals: list[dict[str, Any]],
    extra_legal: int = 2,
) -> dict[str, Any] | None:
    doc = _written_out(doc)
    scenario = parse_scenario(doc)
    if count(scenario) > MAX_COUNT:
        print(f"  left out {case_id}: more than {MAX_COUNT} outcomes (a suite case stays quick)", file=sys.stderr)
        return None
    total = _agreed(scenario, case_id)
    if total is None:
        return None
    legal_set = LegalOutcomes(scenario)
    divide = [{"first": first, "count": n} for first, n in legal_set.divide()]
    assert sum(d["count"] for d in divide) == total, case_id
    legal: list[dict[str, Any]] = []
    illegal: list[dict[str, Any]] = []
    for proposal in proposals:
        verdict = _verdict(scenario, proposal)
        if verdict is None:
            continue
        if verdict["legal"]:
            legal.append(proposal)
        else:
            illegal.append({"proposal": proposal, "codes": verdict["codes"], "rules": verdict["rules"]})
    for i in sorted({0, total - 1, total // 2})[:extra_legal] if total else ():
        drawn = outcome_dict(legal_set[i])
        if drawn not in legal:
            legal.append(drawn)
    peers = next((v for k, v in PEERS.items() if case_id.startswith(k)), [])
    return {
        "id": case_id,
        "source": source,
        **({"peer_issues": peers} if peers else {}),
        "checks": checks,
        "scenario": doc,
        "count": total,
        "divide": divide,
        "legal": legal,
        "illegal": illegal,
    }


def _written_out(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` as an engine under test can read it: a scenario that names real cards (``card``,
    ``card_ability``: the [cards] extra, which no engine need have — docs/conformance.md) is written
    with every field its cards gave and without their names; any other is kept as written."""
    named = ("card", "card_ability")
    if not any(k in x for key in ("objects", "triggers") for x in doc.get(key) or () for k in named):
        return doc
    out = _json(parse_scenario(doc).model_dump(by_alias=True))
    for key in ("objects", "triggers"):
        for x in out.get(key) or ():
            for k in named:
                x.pop(k, None)
    return dict(out)


def _json(data: Any) -> Any:
    """A document as plain JSON (YAML's tuples and the like)."""
    return json.loads(json.dumps(data))


def _rule_cases() -> Iterator[tuple[Path, dict[str, Any]]]:
    """The rule cases of tests/cases that become suite cases (a scenario with a count)."""
    for path in sorted((ROOT / "tests" / "cases").rglob("*.yaml")):
        case = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "scenario_error" not in case and "count_error" not in case:
            yield path, case


def _rule_case_doc(case: dict[str, Any]) -> Any:
    data = load_document(str(ROOT / case["scenario_file"])) if "scenario_file" in case else case["scenario"]
    return _json({**data, **case.get("override", {})})


def from_rule_cases() -> list[dict[str, Any]]:
    out = []
    for path, case in _rule_cases():
        doc = _rule_case_doc(case)
        proposals = []
        for p in case.get("proposals", ()):
            raw = load_document(str(ROOT / p["proposal_file"])) if "proposal_file" in p else p["proposal"]
            proposals.append(_json(raw))
        rule = path.parent.name
        built = _case(f"{rule}/{path.stem}", case["source"], [rule], doc, proposals)
        if built is not None:
            out.append(built)
    return out


def from_examples() -> list[dict[str, Any]]:
    out = []
    for folder in sorted((ROOT / "examples").glob("*/scenario.yaml")):
        name = folder.parent.name
        doc = _json(load_document(str(folder)))
        proposals = [_json(load_document(str(folder.parent / f"{w}.json"))) for w in ("legal", "illegal")]
        built = _case(f"examples/{name}", *_example_citation(name), doc, proposals)
        if built is not None:
            out.append(built)
    return out


def _example_citation(name: str) -> tuple[str, list[str]]:
    return f"examples/{name} (README; its comments cite the rules)", [Rule.R603_3]


def _apnap(players: int, each: int) -> dict[str, Any]:
    pids = [chr(ord("A") + i) for i in range(players)]
    objects = [{"id": f"src_{p}", "controller": p, "types": ["creature"]} for p in pids]
    triggers = [{"id": f"{p}{j}", "source": f"src_{p}", "text": "draw a card"} for p in pids for j in range(each)]
    return {"players": pids, "objects": objects, "triggers": triggers}


def _divided(amount: int, creatures: int, hexproof: bool) -> dict[str, Any]:
    objects = [{"id": "src", "controller": "A", "types": ["creature"], "colors": ["red"]}]
    objects += [
        {"id": f"c{i}", "controller": "B", "types": ["creature"], **({"hexproof": True} if hexproof and i == 0 else {})}
        for i in range(creatures)
    ]
    trigger = {
        "id": "D",
        "source": "src",
        "text": f"{amount} damage divided as you choose among one, two, or three target creatures",
        "targets": [{"id": "t", "min": 1, "max": 3, "divide": amount, "filter": {"type": "creature"}}],
    }
    return {"players": ["A", "B"], "objects": objects, "triggers": [trigger]}


def _no_target(others: int) -> dict[str, Any]:
    """An ability whose only candidates are hexproof: it must be removed (603.3d), beside others."""
    objects = [
        {"id": "src", "controller": "A", "types": ["creature"]},
        {"id": "troll", "controller": "B", "types": ["creature"], "hexproof": True},
    ]
    triggers = [
        {
            "id": "K",
            "source": "src",
            "text": "destroy target creature an opponent controls",
            "targets": [{"id": "t", "filter": {"type": "creature", "controller": "opponent"}}],
        },
    ]
    triggers += [{"id": f"O{i}", "source": "src", "text": "you gain 1 life"} for i in range(others)]
    return {"players": ["A", "B"], "objects": objects, "triggers": triggers}


def _modal(opponents: int) -> dict[str, Any]:
    pids = ["A"] + [chr(ord("B") + i) for i in range(opponents)]
    objects = [{"id": "lich", "kind": "card", "zone": "graveyard", "owner": "A", "types": ["creature"]}]
    modes = [
        {"id": m, "targets": [{"id": "o", "filter": {"kind": "player", "controller": "opponent"}}]}
        for m in ("sacrifice", "discard", "life")
    ]
    trigger = {
        "id": "L",
        "source": "lich",
        "source_controller": "A",
        "text": "choose one or more; each mode must target a different player",
        "modal": {"choose": [1, 2, 3], "distinct_targets": True},
        "modes": modes,
    }
    return {"players": pids, "objects": objects, "triggers": [trigger]}


def _choose(allowed: list[int], opponents: int) -> dict[str, Any]:
    pids = ["A"] + [chr(ord("B") + i) for i in range(opponents)]
    objects = [{"id": "src", "controller": "A", "types": ["creature"]}]
    trigger = {
        "id": "M",
        "source": "src",
        "text": f"choose {allowed}",
        "modal": {"choose": allowed},
        "modes": [
            {"id": "drain", "targets": [{"id": "o", "filter": {"kind": "player", "controller": "opponent"}}]},
            {"id": "gain"},
            {"id": "scry"},
        ],
    }
    return {"players": pids, "objects": objects, "triggers": [trigger]}


def _keywords(creatures: int) -> dict[str, Any]:
    """A red source's ability targeting a creature among hexproof, shroud and protection ones (702)."""
    words: list[dict[str, Any]] = [
        {},
        {"hexproof": True},
        {"shroud": True},
        {"protection": [{"color": "red"}]},
        {"hexproof_from": [{"color": "red"}]},
        {"protection": [{"color": "blue"}]},
    ]
    objects = [{"id": "src", "controller": "A", "types": ["creature"], "colors": ["red"]}]
    for i in range(creatures):
        owner = "A" if i % 2 else "B"
        objects.append({"id": f"c{i}", "controller": owner, "types": ["creature"], **words[i % len(words)]})
    trigger = {
        "id": "K",
        "source": "src",
        "text": "deal 3 damage to target creature",
        "targets": [{"id": "t", "filter": {"type": "creature"}}],
    }
    return {"players": ["A", "B"], "objects": objects, "triggers": [trigger]}


def _rules(variant: str, each: int) -> dict[str, Any]:
    """Four players' abilities under the seed rules, the one-pass rules (cr-1p) or Two-Headed Giant (805.7)."""
    doc = _apnap(4, each)
    if variant != "seed":
        doc["rules"] = variant
    if variant == "2hg":
        doc["teams"] = [["A", "B"], ["C", "D"]]
    return doc


def _delayed(k: int) -> dict[str, Any]:
    """Delayed triggers whose controllers come from what made them (603.7d-e), not from the cards' owners."""
    objects = [
        {"id": f"card{i}", "kind": "card", "zone": "exile", "owner": "A" if i % 2 else "B", "types": ["creature"]}
        for i in range(k)
    ]
    triggers = [
        {
            "id": f"D{i}",
            "source": f"card{i}",
            "delayed": {"by": "spell" if i % 2 else "ability", "controller": "B" if i % 3 else "A"},
            "text": "return that card to the battlefield",
        }
        for i in range(k)
    ]
    return {"players": ["A", "B"], "objects": objects, "triggers": triggers}


def _left(k: int) -> dict[str, Any]:
    """A player who left the game: no target (800.4a), and their abilities are not put on the stack (800.4d)."""
    pids: list[Any] = ["A", {"id": "B", "left_game": True}, "C"]
    objects = [
        {"id": "src", "controller": "A", "types": ["creature"]},
        {"id": "ghost", "controller": "C", "types": ["creature"]},
    ]
    triggers = [
        {
            "id": f"T{i}",
            "source": "src",
            "text": "target player loses 1 life",
            "targets": [{"id": "p", "filter": {"kind": "player"}}],
        }
        for i in range(k)
    ]
    triggers.append({"id": "G", "controller": "B", "text": "the monarch's draw"})
    return {"players": pids, "objects": objects, "triggers": triggers}


def family_specs() -> Iterator[tuple[str, str, list[str], dict[str, Any]]]:
    """Every generated case: its id, its source, the rules it checks and its scenario (nothing
    counted yet). The rules are :class:`Rule`'s where the tool has them, so a number changed there
    is changed here."""
    make = _families()
    apnap = f"CR {Rule.R603_3B}, {Rule.R101_4}"
    for players in (2, 3):
        for each in (1, 2, 3):
            yield (
                f"family/apnap-{players}x{each}",
                f"{apnap}: APNAP order, the active player's first (lowest)",
                [Rule.R603_3B, Rule.R101_4],
                _apnap(players, each),
            )
    for k in range(1, 6):
        yield (
            f"family/apnap-one-each-{k}p",
            f"{apnap}: one ability each, in turn order",
            [Rule.R603_3B, Rule.R101_4],
            _apnap(k, 1),
        )
    for n in range(1, 7):
        yield (
            f"family/coupled-{n}",
            f"CR {Rule.R603_3B}, {Rule.R601_2C}: abilities that may target each other once on the stack",
            [Rule.R601_2C, Rule.R603_3B],
            make.coupled(n),
        )
    for n in range(1, 6):
        yield (
            f"family/targeting-{n}",
            f"CR {Rule.R601_2C}, {Rule.R115_5}: an ability targets players and abilities below it, never itself",
            [Rule.R601_2C, Rule.R115_5],
            make.targeting(n),
        )
    for n in range(2, 7):  # 603.10a (dies triggers look back) is no rule the tool cites: it is the scenario's
        yield (
            f"family/wipe-{n}",
            f"CR 603.10a, {cite(Rule.R603_3A, Rule.R603_3B)}: dies triggers look back; APNAP blocks",
            ["603.10a", Rule.R603_3B],
            make.wipe(n),
        )
    for k in range(1, 5):  # ward (702.21a) is a reaction of the scenario, no rule the tool cites
        yield (
            f"family/ward-{k}",
            f"CR {Rule.R603_3B}'s loop, 702.21a: ward fires in a further pass, above",
            [Rule.R603_3B, "702.21a"],
            make.ward(k),
        )
    divided = f"CR {Rule.R601_2D}: an amount divided gives each target at least 1"
    for amount in range(1, 5):
        for creatures in range(1, 4):
            for hexproof in (False, True):
                yield (
                    f"family/divided-{amount}-among-{creatures}{'-hexproof' if hexproof else ''}",
                    f"{divided}; {Rule.R702_11B}",
                    [Rule.R601_2D, Rule.R702_11B],
                    _divided(amount, creatures, hexproof),
                )
    for others in range(0, 6):
        yield (
            f"family/no-target-{others}",
            f"CR {Rule.R603_3D}: an ability with no legal target is removed from the stack",
            [Rule.R603_3D, Rule.R702_11B],
            _no_target(others),
        )
    modes = f"CR {Rule.R700_2}, {Rule.R603_3C}"
    for opponents in (1, 2, 3):
        yield (
            f"family/modal-distinct-{opponents}",
            f"{modes}: modes chosen as it is put on the stack; each mode a different player (Vindictive Lich)",
            [Rule.R700_2, Rule.R603_3C],
            _modal(opponents),
        )
    for n in (1, 2, 3, 4, 5, 6):
        for players in (2, 3):
            yield (
                f"family/mixed-{n}-{players}p",
                f"CR {Rule.R603_3}: targeted, modal and divided abilities of several players",
                [Rule.R603_3],
                make.mixed(n, players)[0],
            )
    for allowed in ([1], [1, 2], [0, 1], [1, 2, 3], [2], [0, 1, 2, 3]):
        for opponents in (1, 2, 3):
            yield (
                f"family/choose-{'-'.join(map(str, allowed))}-{opponents}opp",
                f"{modes}: as many modes as the text allows, chosen as it is put on the stack; none: removed",
                [Rule.R700_2, Rule.R603_3C],
                _choose(allowed, opponents),
            )
    keywords = [Rule.R702_11B, Rule.R702_18A, Rule.R702_16B, Rule.R702_11D]
    for creatures in range(1, 10):
        yield (
            f"family/keywords-{creatures}",
            f"CR {', '.join(keywords)}: hexproof, shroud, protection, hexproof from",
            list(keywords),
            _keywords(creatures),
        )
    for variant in ("seed", "cr-1p", "2hg"):
        for each in (1, 2):
            yield (
                f"family/rules-{variant}-{each}",
                f"CR {Rule.R603_3B}, {Rule.R805_7}: four players' blocks under each rules variant",
                [Rule.R603_3B, Rule.R805_7],
                _rules(variant, each),
            )
    for k in range(1, 5):
        yield (
            f"family/delayed-{k}",
            f"CR {cite(Rule.R603_7D, Rule.R603_7E)}: a delayed trigger's controller",
            [Rule.R603_7D, Rule.R603_7E, Rule.R603_3A],
            _delayed(k),
        )
    for k in range(1, 4):
        yield (
            f"family/left-game-{k}",
            f"CR {Rule.R800_4A}, {Rule.R800_4D}: a player who left the game",
            [Rule.R800_4A, Rule.R800_4D],
            _left(k),
        )
    for amount in (5, 6):
        for creatures in (2, 4):
            doc = _divided(amount, creatures, False)
            yield f"family/divided-{amount}-among-{creatures}", divided, [Rule.R601_2D], doc
    for n in (1, 2, 3, 4):
        for players in (2, 3, 4):
            for candidates in (1, 2, 3):
                yield (
                    f"family/simple-{n}-{players}p-{candidates}c",
                    f"CR {Rule.R603_3B}, {Rule.R601_2C}: APNAP blocks, targets",
                    [Rule.R603_3B, Rule.R601_2C],
                    make.simple(n, players, candidates),
                )


def families() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for case_id, source, checks, doc in family_specs():
        scenario = parse_scenario(doc)
        legal = LegalOutcomes(scenario)
        proposals = []
        if legal.count():
            # walked, not unranked: legal[0] tables every pass (ward-4's past --max-compiled)
            first = outcome_dict(next(iter(legal)))
            proposals.append(first)
            if len(first["stack"]) > 1:  # the same entries, bottom and top swapped
                swapped = json.loads(json.dumps(first))
                swapped["stack"][0], swapped["stack"][-1] = swapped["stack"][-1], swapped["stack"][0]
                proposals.append(swapped)
            if first["stack"]:  # an ability left out
                proposals.append({**first, "stack": first["stack"][1:]})
        built = _case(case_id, source, [str(c) for c in checks], _json(doc), proposals)
        if built is not None:
            out.append(built)
    return out


def _sources() -> Iterator[tuple[str, str, list[str], Callable[[], Any]]]:
    """Every case the build considers, read without counting (a case it leaves out for its size is
    here too): its id, its source, the rules it checks, and how to read its scenario (when asked)."""
    for path, case in _rule_cases():
        yield f"{path.parent.name}/{path.stem}", case["source"], [path.parent.name], lambda c=case: _rule_case_doc(c)
    for folder in sorted((ROOT / "examples").glob("*/scenario.yaml")):
        source, checks = _example_citation(folder.parent.name)
        doc = lambda f=folder: _json(load_document(str(f)))  # noqa: E731
        yield f"examples/{folder.parent.name}", source, [str(c) for c in checks], doc
    for case_id, source, checks, family in family_specs():
        yield case_id, source, [str(c) for c in checks], lambda d=family: _json(d)


def citations() -> dict[str, tuple[str, list[str]]]:
    """The source and the rules checked the build writes for each case id, read without counting
    (a case the build leaves out for its size is here too)."""
    return {case_id: (source, checks) for case_id, source, checks, _ in _sources()}


def disagreements(cases: list[dict[str, Any]]) -> list[str]:
    """Where the published ``cases`` disagree with what the build would write today, without
    counting: a proposal ``check`` now judges otherwise (legal or not, its codes, its rules), or a
    source or list of rules checked that is not the one its source gives (:func:`citations`)."""
    cited = citations()
    out = []
    for case in cases:
        where = case["id"]
        if where not in cited:
            out.append(f"{where}: no source of the build writes it any more")
        elif (case["source"], case["checks"]) != cited[where]:
            said = (case["source"], case["checks"])
            out.append(f"{where}: source and checks {said} — the build writes {cited[where]}")
        scenario = parse_scenario(case["scenario"])
        for i, proposal in enumerate(case["legal"]):
            verdict = _verdict(scenario, proposal)
            if verdict is None or not verdict["legal"]:
                out.append(f"{where}: legal proposal {i} — check now says {verdict}")
        for i, wrong in enumerate(case["illegal"]):
            verdict = _verdict(scenario, wrong["proposal"])
            published = {"legal": False, "codes": wrong["codes"], "rules": wrong["rules"]}
            if verdict != published:
                out.append(f"{where}: illegal proposal {i} is published as {published} — check now says {verdict}")
    return out


def unpublished(cases: list[dict[str, Any]]) -> list[str]:
    """The cases the build writes today that ``cases`` (the published suite) lack: each source's
    case not among them whose count is within :data:`MAX_COUNT` (counted only for those missing)."""
    have = {case["id"] for case in cases}
    return [
        f"{case_id}: the build writes it and it is not published"
        for case_id, _, _, doc in _sources()
        if case_id not in have and count(parse_scenario(doc())) <= MAX_COUNT
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python conformance/build.py",
        description="Write the conformance suite (conformance/cases/ and index.md) from the rule cases, the examples "
        "and the families, replacing what is there; --check writes nothing and says where the published suite "
        "differs from what the build writes today.",
    )
    parser.add_argument("--check", action="store_true", help="compare the published suite; exit 1 where it differs")
    args = parser.parse_args(argv)
    if args.check:
        published = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CASES.rglob("*.json"))]
        found = disagreements(published) + unpublished(published)
        if (HERE / "index.md").read_text(encoding="utf-8") != index(published):
            found.append("conformance/index.md is not the published cases' index")
        for line in found:
            print(line, file=sys.stderr)
        said = f"{len(found) or 'no'} disagreement{'' if len(found) == 1 else 's'}"
        print(f"{len(published)} cases: {said} with what the build writes today")
        return 1 if found else 0
    cases = [*from_rule_cases(), *from_examples(), *families()]
    if CASES.exists():
        shutil.rmtree(CASES)
    for case in cases:
        path = CASES / f"{case['id']}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({"version": VERSION, **case}, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (HERE / "index.md").write_text(index(cases), encoding="utf-8")
    print(f"{len(cases)} cases in {CASES}")
    return 0


def by_rule(cases: list[dict[str, Any]]) -> dict[str, int]:
    """How many cases check each rule."""
    out: dict[str, int] = {}
    for case in cases:
        for rule in case["checks"]:
            out[rule] = out.get(rule, 0) + 1
    return dict(sorted(out.items()))


def index(cases: list[dict[str, Any]]) -> str:
    """conformance/index.md: every case, what it checks and where it comes from."""
    lines = [
        "# The conformance suite's cases",
        "",
        f"{len(cases)} cases (written by conformance/build.py; docs/conformance.md says what they are).",
        "",
        "| case | checks | outcomes | legal / illegal proposals | source |",
        "|---|---|---|---|---|",
    ]
    for c in sorted(cases, key=lambda c: str(c["id"])):
        peers = "; ".join(c.get("peer_issues", ()))
        source = c["source"].replace("|", "/") + (f" — restates {peers}" if peers else "")
        shape = f"{c['count']:,} | {len(c['legal'])} / {len(c['illegal'])}"
        lines.append(f"| `{c['id']}` | {', '.join(c['checks'])} | {shape} | {source} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    raise SystemExit(main())
