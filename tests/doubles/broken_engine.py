"""A deliberately broken engine for the conformance runner's tests: triggerstack's own JSON-RPC
server with one of two bugs engines have had (docs/conformance.md), on standard input and output.

    python tests/doubles/broken_engine.py ap-on-top    # the active player's triggers go on top
    python tests/doubles/broken_engine.py no-removal   # an ability with no legal target is put, not removed
"""

from __future__ import annotations

import json
import sys
from typing import Any

from triggerstack.model import Scenario
from triggerstack.solver import explain
from triggerstack.solver.serve import Service


def ap_on_top(scenario: dict[str, Any]) -> dict[str, Any]:
    """APNAP turned round: the players' order reversed, so the active player's block goes last (top)."""
    return {**scenario, "players": list(reversed(scenario["players"]))}


def no_removal(scenario: dict[str, Any]) -> dict[str, Any]:
    """Each trigger whose requirement has no candidate at all loses its targets: it is put on the
    stack with none instead of being removed (603.3d)."""
    said = {a["id"]: a for a in explain(Scenario.model_validate(scenario))["abilities"]}
    triggers = []
    for t in scenario.get("triggers", ()):
        a = said.get(t.get("id"))
        stuck = a is not None and any(
            not r.get("legal") and not r.get("legal_once_on_stack") and r.get("min", 1) > 0
            for m in a["modes"]
            for r in m["requirements"]
        )
        triggers.append({k: v for k, v in t.items() if k != "targets"} if stuck and "targets" in t else t)
    return {**scenario, "triggers": triggers}


def main() -> int:
    bug = {"ap-on-top": ap_on_top, "no-removal": no_removal}[sys.argv[1]]
    service = Service()
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("method") == "load" and isinstance(request.get("params", {}).get("scenario"), dict):
            request["params"]["scenario"] = bug(request["params"]["scenario"])
        answer = service.handle(json.dumps(request))
        if answer is not None:
            sys.stdout.write(answer + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
