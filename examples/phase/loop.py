"""An engine's loop over phase.rs with triggerstack at every trigger prompt (docs/phase.md, "At each
prompt"). Needs the extra [phase]: ``pip install -e '.[phase]'`` in a clone.

Builds a board of real cards, casts Wrath of God, and at every trigger-placement prompt asks how many
legal answers there are and how many ways are left to finish the batch, draws a legal answer and gives
it to phase. At the end, the placement phase made is judged by ``check``.

    python examples/phase/loop.py [--seed N]
"""

from __future__ import annotations

import argparse
import random

from triggerstack.adapters.phase import Board, Session, engine, reached
from triggerstack.solver import check

CARDS = ["Blood Artist", "Zulaport Cutthroat", "Soul Warden", "Grizzly Bears", "Wrath of God"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the board's and the answers' seed (default 7)")
    seed = parser.parse_args().seed

    # 1. a board: phase's card data built from our Oracle data, each player's cards put on the battlefield
    eng = engine(CARDS)
    board = Board.build(eng, [["Blood Artist", "Zulaport Cutthroat", "Grizzly Bears"],
                              ["Blood Artist", "Soul Warden", "Grizzly Bears", "Wrath of God"]], seed=seed)
    for owner, names in ((0, ["Blood Artist", "Zulaport Cutthroat", "Grizzly Bears"]),
                         (1, ["Blood Artist", "Soul Warden", "Grizzly Bears"])):
        for name in names:
            board.move(board.object_id(name, owner))

    # 2. an event: player 1 casts Wrath of God; every creature dies and the dies triggers wait
    board.cast("Wrath of God", 1)

    # 3. at every prompt: ask, then answer
    session = Session(board.game)
    rng = random.Random(seed)
    first = None
    while board.at_prompt():
        reading = session.reading()  # the whole state once a batch, then the prompt and the stack alone
        first = first or reading
        answers = session.answers()  # counted, ranked and drawn without listing them
        rest = session.rest()  # the ways to finish the batch from here: what phase has fixed stays fixed
        answer = answers.draw(rng)
        print(f"{reading.kind:<22} {answers.count():>8,} legal answers   {rest.count():>10,} ways to finish   "
              f"answer #{answers.index(answer)}: {answer['data']}")
        session.apply(answer)

    # 4. the placement phase made, in our words, judged
    if first is None:
        print("no trigger-placement prompt: phase placed the batch without asking")
        return 0
    placed = reached(first, board.state())
    verdict = check(first.scenario, placed)
    print(f"phase placed {len(placed.stack)} abilities ({len(placed.removed)} removed): "
          f"{'legal' if verdict.legal else 'ILLEGAL'} by check")
    return 0 if verdict.legal else 1


if __name__ == "__main__":
    raise SystemExit(main())
