"""Write the committed benchmark scenarios (``benchmarks/scenarios/*.json``).

Run ``python benchmarks/make_scenarios.py`` after changing a family; the files are committed so
that every run measures the same inputs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent / "scenarios"


def mixed(n_abilities: int, players: int = 3, creatures_each: int = 3) -> tuple[dict[str, Any], dict[str, Any]]:
    """``n_abilities`` spread over ``players``: targeted, modal and divided abilities, with
    hexproof, protection and shroud on the board; and one legal proposal for it."""
    pids = [chr(ord("A") + i) for i in range(players)]
    objects: list[dict[str, Any]] = []
    for p in pids:
        for j in range(creatures_each):
            obj: dict[str, Any] = {"id": f"{p.lower()}{j}", "controller": p, "types": ["creature"], "colors": ["green"]}
            if j == 1:
                obj["hexproof"] = True
            if j == 2:
                obj["protection"] = [{"color": "red"}]
            objects.append(obj)
        objects.append({"id": f"src_{p}", "controller": p, "types": ["creature"], "colors": ["red"]})
    triggers: list[dict[str, Any]] = []
    stack: list[dict[str, Any]] = []
    for k in range(n_abilities):
        p = pids[k * players // n_abilities]
        opp = pids[(pids.index(p) + 1) % players]
        tid = f"T{k}"
        kind = k % 3
        if kind == 0:
            triggers.append(
                {
                    "id": tid,
                    "source": f"src_{p}",
                    "text": "deal 2 damage to target creature",
                    "targets": [{"id": "c", "filter": {"type": "creature"}}],
                }
            )
            stack.append({"ability": tid, "targets": {"c": [f"{opp.lower()}0"]}})
        elif kind == 1:
            triggers.append(
                {
                    "id": tid,
                    "source": f"src_{p}",
                    "text": "choose one or both",
                    "modal": {"choose": [1, 2]},
                    "modes": [
                        {
                            "id": "drain",
                            "targets": [{"id": "p", "filter": {"kind": "player", "controller": "opponent"}}],
                        },
                        {"id": "draw"},
                    ],
                }
            )
            stack.append({"ability": tid, "modes": [{"mode": "drain", "targets": {"p": [opp]}}, {"mode": "draw"}]})
        else:
            triggers.append(
                {
                    "id": tid,
                    "source": f"src_{p}",
                    "text": "3 damage divided among up to three targets",
                    "targets": [{"id": "d", "min": 1, "max": 3, "divide": 3, "filter": "any-target"}],
                }
            )
            stack.append(
                {
                    "ability": tid,
                    "targets": {"d": [opp, f"{opp.lower()}0"]},
                    "divide": {"d": {opp: 1, f"{opp.lower()}0": 2}},
                }
            )
    return {"players": pids, "objects": objects, "triggers": triggers}, {"stack": stack, "removed": []}


def main() -> None:
    HERE.mkdir(exist_ok=True)
    for n in (2, 10, 40):
        scenario, proposal = mixed(n)
        (HERE / f"mixed-{n}.json").write_text(json.dumps(scenario, indent=1) + "\n")
        (HERE / f"mixed-{n}.proposal.json").write_text(json.dumps(proposal, indent=1) + "\n")


if __name__ == "__main__":
    main()
