"""Record the golden phase fixtures (needs the extra [phase]): ``python tests/data/phase/record.py``.

Each board of :data:`BOARDS` is set up in phase 0.103.0 from real cards, and phase is driven by its
own first offered answer at every trigger-placement prompt. Every prompt's state is kept (trimmed to
what the adapter reads) with the answers phase offered there, and the outcome phase reached; the
suite (tests/test_phase.py) reads them without phase: our reading, our answers beside phase's, and
``check`` of what phase placed.
"""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

from triggerstack.adapters.phase import Board, engine, reached, read, trim

HERE = Path(__file__).resolve().parent

# name → (source, P0's battlefield, P1's battlefield, (player, card entering | "dies:" card), stolen)
BOARDS: dict[str, dict[str, Any]] = {
    "pyromancer-wardens": {"source": "603.3b: each player orders their own; APNAP", "a": ["Soul Warden"],
                           "b": ["Soul Warden", "Armored Armadillo"], "event": (0, "Viashino Pyromancer")},
    "titan-divides-onto-ward": {"source": "601.2c-d, 702.21a: ward triggers for each ability that targets it",
                                "a": ["Soul Warden", "Grizzly Bears"], "b": ["Armored Armadillo", "Grizzly Bears"],
                                "event": (0, "Inferno Titan")},
    "ertai-modes": {"source": "700.2, 603.3c: a modal trigger with 'choose up to one'", "a": ["Soul Warden"],
                    "b": ["Grizzly Bears", "Black Knight"], "event": (0, "Ertai Resurrected")},
    "ertai-destroys": {"source": "700.2, 601.2c: a mode chosen, then its target; 115.5 'another target'",
                       "a": ["Soul Warden"], "b": ["Grizzly Bears", "Black Knight"], "event": (0, "Ertai Resurrected"),
                       "modes": [1]},
    "kavu-protection-hexproof": {"source": "702.16b, 702.11b: protection and hexproof exclude targets",
                                 "a": ["Essence Warden", "White Knight"], "b": ["Gladecover Scout", "Black Knight",
                                 "Grizzly Bears"], "event": (0, "Flametongue Kavu")},
    "chupacabra-stolen": {"source": "603.3a, 109.5: 'an opponent controls' judged from the controller",
                          "a": ["Soul Warden", "Grizzly Bears"], "b": ["Soul Warden", "Silvercoat Lion"],
                          "event": (0, "Ravenous Chupacabra"), "steal": (1, "Silvercoat Lion", 0)},
    "leyline-player-hexproof": {"source": "702.11b: 'you have hexproof' (Leyline of Sanctity) read from phase's statics",
                                "a": ["Soul Warden"], "b": ["Leyline of Sanctity", "Soul Warden"],
                                "event": (0, "Viashino Pyromancer")},
    "wrath-of-god": {"source": "603.3b, 603.10a: a sweeper; each player orders the dies triggers they control",
                     "a": ["Blood Artist", "Grizzly Bears"], "b": ["Zulaport Cutthroat", "Blood Artist"],
                     "event": (0, "cast:Wrath of God")},
    "blood-artists-dies": {"source": "603.10a: leaves-the-battlefield abilities look back",
                           "a": ["Blood Artist", "Zulaport Cutthroat", "Grizzly Bears"], "b": ["Blood Artist"],
                           "event": (0, "dies:Grizzly Bears")},
}  # fmt: skip


def build(eng: Any, spec: dict[str, Any]) -> Board:
    who, card = spec["event"]
    entering = card if not card.startswith(("dies:", "cast:")) else None
    decks = [list(spec["a"]), list(spec["b"])]
    if entering:
        decks[who].append(entering)
    if card.startswith("cast:"):
        decks[who].append(card[5:])
    b = Board.build(eng, decks)
    for p, names in enumerate((spec["a"], spec["b"])):
        for n in names:
            b.move(b.object_id(n, p))
    if "steal" in spec:
        owner, name, to = spec["steal"]
        oid = next(v for k, v in read_objects(b).items() if k == (name, owner))
        b.steal(oid, to)
    if entering:
        b.move(b.object_id(entering, who), simulate=True)
    elif card.startswith("cast:"):
        b.cast(card[5:], who)
    else:
        oid = read_objects(b)[(card[5:], who)]
        b.move(oid, "Graveyard", simulate=True)
    return b


def read_objects(b: Board) -> dict[tuple[str, int], int]:
    objs = b.game.state()["state"]["objects"].values()
    return {(o["name"], o["owner"]): o["id"] for o in objs if o["zone"] == "Battlefield"}


def record(name: str, spec: dict[str, Any], eng: Any) -> dict[str, Any]:
    b = build(eng, spec)
    prompts = []
    before = read(b.game.state())
    while b.at_prompt():
        offered = [a.to_dict() for a in b.game.actions()]
        prompts.append({"state": trim(b.game.state()), "phase_offered": offered})
        w = b.game.waiting_for()
        answer = offered[0]
        if w["type"] == "AbilityModeChoice" and "modes" in spec:
            answer = {"type": "SelectModes", "data": {"indices": spec["modes"]}}
        b.game.apply(int(w["data"]["player"]), answer)
    got = reached(before, b.game.state())
    return {"name": name, "source": spec["source"], "phase_version": "0.103.0", "prompts": prompts,
            "phase_reached": got.model_dump(mode="json"), "final_stack": trim(b.game.state())["state"]["stack"]}  # fmt: skip


def main() -> int:
    sys.path.insert(0, str(HERE.parents[2]))  # run as a script: the harnesses live with the tests
    from tests.phase_harness.differential import POOL

    eng = engine(POOL)
    for name, spec in BOARDS.items():
        doc = record(name, spec, eng)
        with gzip.open(HERE / f"{name}.json.gz", "wt", encoding="utf-8") as f:
            json.dump(doc, f, sort_keys=True)
        print(name, len(doc["prompts"]), "prompts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
