"""Writes the bad-input corpus: every file here must make the command line exit 2 with one line
that names the place, and never a traceback. ``expected.json`` lists, for each file, the command
and a piece of the message. Run ``python tests/bad_inputs/make.py`` after changing a case.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent

BASE: dict[str, Any] = {
    "players": ["A", {"id": "B", "hexproof": True}],
    "objects": [
        {"id": "ertai", "controller": "A", "types": ["creature"]},
        {"id": "warden", "controller": "B", "types": ["creature"]},
        {"id": "dead", "kind": "card", "zone": "graveyard", "owner": "A", "types": ["creature"]},
    ],
    "triggers": [
        {"id": "SW", "source": "warden", "text": "gain 1 life"},
        {
            "id": "E",
            "source": "ertai",
            "modal": {"choose": [0, 1]},
            "modes": [
                {"id": "counter", "targets": [{"id": "ability", "filter": {"kind": ["spell", "ability"]}}]},
                {"id": "destroy", "targets": [{"id": "creature", "filter": {"type": "creature"}}]},
            ],
        },
        {
            "id": "BOLT",
            "source": "ertai",
            "targets": [
                {"id": "p", "filter": {"kind": "player"}},
                {
                    "id": "c",
                    "min": 1,
                    "max": 2,
                    "divide": 3,
                    "filter": {"type": "creature", "controller": {"target_of": "p"}},
                },
            ],
        },
    ],
    "must_target": [{"object": "warden", "applies_to": ["BOLT"]}],
    "reactions": [],
}
GOOD_PROPOSAL: dict[str, Any] = {
    "stack": [
        {"ability": "SW"},
        {"ability": "E", "modes": [{"mode": "destroy", "targets": {"creature": ["warden"]}}]},
        {"ability": "BOLT", "targets": {"p": ["B"], "c": ["warden"]}, "divide": {"c": {"warden": 3}}},
    ],
    "removed": [],
}

cases: list[dict[str, Any]] = []


def emit(name: str, content: str | bytes, contains: str, verb: str = "explain") -> None:
    path = HERE / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    if verb == "check":
        argv = ["check", "scenario-ok.json", name]
    elif verb == "best":
        argv = ["best", "scenario-ok.json", "--score", name]
    else:
        argv = [verb, name]
    cases.append({"file": name, "argv": argv, "contains": contains})


def scenario(name: str, mutate: Any, contains: str) -> None:
    doc = copy.deepcopy(BASE)
    mutate(doc)
    emit(name, json.dumps(doc, indent=1), contains)


def proposal(name: str, mutate: Any, contains: str) -> None:
    doc = copy.deepcopy(GOOD_PROPOSAL)
    mutate(doc)
    emit(name, json.dumps(doc, indent=1), contains, verb="check")


def setter(path: list[Any], value: Any) -> Any:
    def apply(doc: Any) -> None:
        for key in path[:-1]:
            doc = doc[key]
        doc[path[-1]] = value

    return apply


def deleter(path: list[Any]) -> Any:
    def apply(doc: Any) -> None:
        for key in path[:-1]:
            doc = doc[key]
        del doc[path[-1]]

    return apply


def loc(path: list[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def main() -> None:
    for old in HERE.glob("*.json"):
        old.unlink()
    for old in HERE.glob("*.yaml"):
        old.unlink()
    (HERE / "scenario-ok.json").write_text(json.dumps(BASE, indent=1))
    text = json.dumps(BASE, indent=1)

    # -- A. syntax ------------------------------------------------------------------------------
    for i, cut in enumerate((1, 10, 57, 200, 400, len(text) // 2, len(text) - 40, len(text) - 2)):
        emit(f"truncated-{i}.json", text[:cut], "malformed JSON")
    for i, bad in enumerate(
        (
            "players: [A, B\nobjects: []\n",
            "players:\n  - A\n - B\n",
            "players: [A]\ntriggers:\n  - id: T\n    text: 'unclosed\n",
            "players: [A]\n\tobjects: []\n",
            "players: {A: 1, [x]: 2}\n",
            "players: [A]\nobjects: [}\n",
            "- - - :\n  : :\n",
            "players: &a [A]\nobjects: *b\n",
        )
    ):
        emit(f"invalid-{i}.yaml", bad, "malformed YAML")
    emit("duplicate-key.json", '{"players": ["A"], "players": ["B"]}', "duplicate key 'players'")
    emit("duplicate-key.yaml", "players: [A]\nplayers: [B]\n", "duplicate key 'players'")
    emit("duplicate-key-nested.json", '{"players": ["A"], "objects": [{"id": "x", "id": "y"}]}', "duplicate key 'id'")
    emit("not-utf8.json", b'{"players": ["\xff\xfe"]}', "not UTF-8")
    emit("empty.json", "", "malformed JSON")
    emit("empty.yaml", "", "the document is empty: expected a scenario")

    def gone_with_anothers(doc: Any) -> None:  # 800.4a: what B controlled and A owns is no longer B's
        doc["players"][1] = {"id": "B", "left_game": True}
        doc["objects"][1]["owner"] = "A"

    scenario("left-player-controls-anothers.json", gone_with_anothers, "objects[1].controller: B has left the game")
    for i, top in enumerate(("[]", '"scenario"', "42", "null", "true")):
        emit(f"top-level-{i}.json", top, "expected a scenario: a mapping with players, objects and triggers")
        emit(f"top-level-{i}.yaml", top, "expected a scenario: a mapping with players, objects and triggers")

    # -- B. schema: unknown fields, wrong types, missing fields -------------------------------------
    unknown: list[list[Any]] = [
        ["players", 1, "colour"],
        ["objects", 0, "hexproff"],
        ["objects", 2, "zones"],
        ["triggers", 0, "txt"],
        ["triggers", 1, "modal", "chooose"],
        ["triggers", 1, "modes", 0, "target"],
        ["triggers", 1, "modes", 1, "targets", 0, "filters"],
        ["triggers", 1, "modes", 1, "targets", 0, "filter", "types"],
        ["triggers", 2, "targets", 1, "filter", "controller", "targetof"],
        ["must_target", 0, "applies"],
        ["triggers", 2, "targets", 0, "filter", "power"],
        ["extra"],
    ]
    for i, path in enumerate(unknown):
        value: Any = {"lte": 2, "gt": 1} if path[-1] == "power" else 1
        if path[-1] == "power":
            scenario(f"unknown-field-{i}.json", setter(path, value), loc(path) + ".gt: unknown field")
        else:
            scenario(f"unknown-field-{i}.json", setter(path, value), loc(path) + ": unknown field")
    wrong: list[tuple[list[Any], Any]] = [
        (["players"], "A"),
        (["players", 0], 3),
        (["players", 1, "hexproof"], "yes"),
        (["objects"], {}),
        (["objects", 0, "power"], "big"),
        (["objects", 0, "types"], "creature"),
        (["objects", 0, "kind"], "planet"),
        (["objects", 2, "zone"], "moon"),
        (["objects", 0, "counters"], [1]),
        (["objects", 0, "protection"], {"color": "red"}),
        (["triggers", 0, "condition"], "always"),
        (["triggers", 0, "source"], 7),
        (["triggers", 1, "modal", "choose"], "one"),
        (["triggers", 1, "modal", "choose"], [-1]),
        (["triggers", 1, "modal", "repeat"], "maybe"),
        (["triggers", 1, "modes"], {"id": "x"}),
        (["triggers", 1, "modes", 0, "available"], "no"),
        (["triggers", 2, "targets", 0, "min"], "one"),
        (["triggers", 2, "targets", 0, "max"], 1.5),
        (["triggers", 2, "targets", 0, "filter", "type"], 3),
        (["triggers", 2, "targets", 0, "filter", "kind"], "wizard"),
        (["triggers", 2, "targets", 0, "filter", "power"], 3),
        (["triggers", 2, "targets", 0, "filter", "not"], "creature"),
        (["triggers", 2, "targets", 0, "filter", "any"], {"type": "creature"}),
        (["triggers", 2, "targets", 0, "filter"], "everything"),
        (["triggers", 2, "targets", 0, "different_from"], "c"),
        (["rules"], "modern"),
        (["teams"], "AB"),
        (["must_target"], {"object": "warden"}),
        (["reactions"], [{"id": "W", "object": "warden", "by": "foe", "trigger": {"controller": "B"}}]),
    ]
    for i, (path, value) in enumerate(wrong):
        scenario(f"wrong-type-{i}.json", setter(path, value), loc(path))
    missing: list[list[Any]] = [
        ["triggers", 0, "id"],
        ["triggers", 2, "targets", 0, "filter"],
        ["triggers", 2, "targets", 0, "id"],
        ["triggers", 1, "modes", 0, "id"],
        ["triggers", 1, "modal", "choose"],
        ["objects", 0, "id"],
        ["players", 1, "id"],
        ["must_target", 0, "object"],
    ]
    for i, path in enumerate(missing):
        scenario(f"missing-field-{i}.json", deleter(path), loc(path) + ": missing field")

    # -- C. references ---------------------------------------------------------------------------
    refs: list[tuple[list[Any], Any, str]] = [
        (["triggers", 0, "source"], "nobody", "triggers[0].source: unknown object 'nobody'"),
        (["triggers", 0, "source"], "A", "triggers[0].source: a player can't be a source"),
        (["triggers", 0, "source_controller"], "C", "triggers[0].source_controller: unknown player 'C'"),
        (["triggers", 0, "chooser"], "C", "triggers[0].chooser: unknown player 'C'"),
        (["objects", 0, "controller"], "C", "objects[0].controller: unknown player 'C'"),
        (["objects", 2, "owner"], "C", "objects[2].owner: unknown player 'C'"),
        (
            ["triggers", 2, "targets", 1, "different_from"],
            ["zz"],
            "triggers[2].targets[1].different_from[0]: unknown requirement 'zz'",
        ),
        (
            ["triggers", 2, "targets", 1, "different_from"],
            ["c"],
            "triggers[2].targets[1].different_from[0]: a requirement can't be different from itself",
        ),
        (
            ["triggers", 2, "targets", 1, "filter", "controller"],
            {"target_of": "zz"},
            "triggers[2].targets[1].filter.controller.target_of: unknown requirement 'zz'",
        ),
        (["triggers", 2, "targets", 1, "filter", "controller"], {"target_of": "c"}, "target_of is cyclic"),
        (
            ["triggers", 2, "targets", 0, "filter"],
            {"kind": "player", "controller": {"target_of": "c"}},
            "target_of is cyclic",
        ),
        (
            ["triggers", 2, "targets", 0, "filter", "id"],
            ["ghost"],
            "triggers[2].targets[0].filter.id[0]: unknown id 'ghost'",
        ),
        (
            ["triggers", 2, "targets", 0, "filter", "controller"],
            "C",
            "triggers[2].targets[0].filter.controller: expected you, opponent, any or a player id",
        ),
        (["must_target", 0, "object"], "ghost", "must_target[0].object: unknown object or player 'ghost'"),
        (["must_target", 0, "applies_to"], ["GHOST"], "must_target[0].applies_to[0]: unknown trigger 'GHOST'"),
        (
            ["reactions"],
            [{"id": "W", "object": "ghost", "trigger": {"controller": "B"}}],
            "reactions[0].object: unknown object or player 'ghost'",
        ),
        (
            ["reactions"],
            [{"id": "W", "object": "warden", "trigger": {"source": "ghost"}}],
            "reactions[0].trigger.source: unknown object 'ghost'",
        ),
        (
            ["triggers", 0, "delayed"],
            {"by": "spell", "controller": "C"},
            "triggers[0].delayed.controller: unknown player 'C'",
        ),
    ]
    for i, (path, value, contains) in enumerate(refs):
        scenario(f"reference-{i}.json", setter(path, value), contains)
    dups: list[tuple[list[Any], Any, str]] = [
        (["objects", 1, "id"], "ertai", "objects[1].id: duplicate id 'ertai'"),
        (["objects", 0, "id"], "A", "objects[0].id: duplicate id 'A'"),
        (["triggers", 0, "id"], "E", "triggers[1].id: duplicate id 'E'"),
        (["triggers", 0, "id"], "warden", "triggers[0].id: duplicate id 'warden'"),
        (["triggers", 1, "modes", 1, "id"], "counter", "triggers[1].modes[1].id: duplicate id 'counter'"),
        (["triggers", 2, "targets", 1, "id"], "p", "triggers[2].targets[1].id: duplicate id 'p'"),
        (["players", 0], "B", "players[1].id: duplicate id 'B'"),
        (
            ["reactions"],
            [{"id": "SW", "object": "warden", "trigger": {"controller": "B"}}],
            "reactions[0].id: duplicate id 'SW'",
        ),
        (["triggers", 0, "id"], "S@W", "may not contain '@'"),
    ]
    for i, (path, value, contains) in enumerate(dups):
        scenario(f"duplicate-id-{i}.json", setter(path, value), contains)
    contra: list[tuple[list[Any], Any, str]] = [
        (
            ["triggers", 0, "controller"],
            "A",
            "triggers[0].controller: controller A contradicts the derived controller B",
        ),
        (
            ["triggers", 0],
            {"id": "SW", "source": "warden", "source_controller": "A", "controller": "B"},
            "contradicts the derived controller A",
        ),
        (
            ["triggers", 0],
            {"id": "SW", "delayed": {"by": "ability", "controller": "A"}, "controller": "B"},
            "contradicts the derived controller A",
        ),
        (["triggers", 0], {"id": "SW", "source": "dead", "controller": "B"}, "contradicts the derived controller A"),
    ]
    for i, (path, value, contains) in enumerate(contra):
        scenario(f"contradictory-controller-{i}.json", setter(path, value), contains + " (")

    # -- D. values ---------------------------------------------------------------------------------
    values: list[tuple[list[Any], Any, str]] = [
        (["triggers", 2, "targets", 1, "min"], 3, "triggers[2].targets[1]: min 3 is more than max 2"),
        (["triggers", 2, "targets", 0, "max"], 0, "triggers[2].targets[0]: min 1 is more than max 0"),
        (["triggers", 2, "targets", 0, "min"], -1, "triggers[2].targets[0].min"),
        (["triggers", 2, "targets", 1, "divide"], 0, "triggers[2].targets[1].divide"),
        (["triggers", 2, "targets", 1, "divide"], -2, "triggers[2].targets[1].divide"),
        (
            ["triggers", 2, "targets", 1],
            {"id": "c", "min": 2, "max": 2, "divide": 1, "filter": {"type": "creature"}},
            "triggers[2].targets[1]: min 2 targets can't each get at least 1 of 1",
        ),
        (["triggers", 1, "modal", "choose"], [3], "triggers[1]: choose allows 3 modes but there are only 2"),
        (["triggers", 1, "modal", "choose"], [], "triggers[1].modal.choose"),
        (["players"], [], "players"),
        (["players"], [{"id": "A", "left_game": True}], "every player has left the game"),
        (["objects", 2, "zone"], None, "objects[2].zone: a card needs a zone"),
        (["objects", 0, "zone"], "graveyard", "objects[0].zone: a permanent can't be in the graveyard: give kind: card"),
        (["objects", 2, "zone"], "battlefield", "objects[2].zone: a card can't be in the battlefield: give kind: permanent"),
        (["objects", 0, "controller"], None, "objects[0]: object 'ertai' needs a controller or an owner"),
        (["rules"], "2hg", "teams: rules 2hg needs teams"),
        (["teams"], [["A"], ["B"]], "teams: teams are only for rules 2hg"),
        (["triggers", 1, "modes"], [], "triggers[1]: modal needs a list of modes"),
        (["triggers", 0, "modes"], [{"id": "x"}], "triggers[0]: modes are given but modal is missing"),
        (
            ["triggers", 0],
            {"id": "SW", "text": "no source, no controller"},
            "an ability without a source must name its controller",
        ),
        (["triggers", 0, "targets"], [{"id": "t", "filter": {"power": {}}}], "a comparison needs lte, gte or eq"),
    ]
    for i, (path, value, contains) in enumerate(values):
        scenario(f"value-{i}.json", setter(path, value), contains)

    # -- E. proposals (against scenario-ok.json) ----------------------------------------------------
    # Only what cannot be read as a proposal: a proposal of the right shape that names what the
    # scenario lacks is judged (tests/cases/603.3b/names-the-scenario-lacks.yaml), not refused.
    props: list[tuple[list[Any], Any, str]] = [
        (["stack"], {"ability": "SW"}, "stack: "),
        (["stack", 0], "SW", "stack[0]: "),
        (["stack", 2, "targets", "p"], "B", "stack[2].targets.p: "),
        (["stack", 2, "divide", "c", "warden"], "three", "stack[2].divide.c.warden: "),
        (["stack", 0, "abilty"], "SW", "stack[0].abilty: unknown field"),
        (["extra"], 1, "extra: unknown field"),
        (["removed"], "SW", "removed: "),
        (["passes"], ["one"], "passes[0]: "),
        (["passes"], [2, 2], "passes: passes add up to 4 entries but the stack has 3"),
        (["passes"], [3, 0], "passes: a trailing empty pass"),
        (["stack", 1, "modes", 0, "extra"], 1, "stack[1].modes[0].extra: unknown field"),
    ]
    for i, (path, value, contains) in enumerate(props):
        proposal(f"proposal-{i}.json", setter(path, value), contains)
    proposal("proposal-missing-ability.json", deleter(["stack", 0, "ability"]), "stack[0].ability: missing field")
    emit("proposal-truncated.json", json.dumps(GOOD_PROPOSAL)[:40], "malformed JSON", verb="check")
    emit("proposal-list.json", "[]", "expected a proposal: a mapping with stack and removed, found an empty list", verb="check")
    emit("proposal-bad.yaml", "stack: [\n", "malformed YAML", verb="check")

    # -- F. scores ---------------------------------------------------------------------------------
    emit("score-unknown-ability.json", '{"height": {"GHOST": 1}}', "height.GHOST: unknown ability 'GHOST'", verb="best")
    emit(
        "score-unknown-mode.json",
        '{"mode": {"E": {"banish": 1}}}',
        "mode.E.banish: E has no mode 'banish'",
        verb="best",
    )
    emit("score-unknown-thing.json", '{"target": {"E": {"ghost": 1}}}', "target.E.ghost: unknown player", verb="best")
    emit("score-wrong-type.json", '{"height": {"E": "high"}}', "height.E: ", verb="best")
    emit("score-float.json", '{"height": {"E": 1.5}}', "height.E: ", verb="best")
    emit("score-unknown-field.json", '{"heights": {}}', "heights: unknown field", verb="best")

    (HERE / "expected.json").write_text(json.dumps(cases, indent=1) + "\n")
    print(f"{len(cases)} bad inputs")


if __name__ == "__main__":
    main()
