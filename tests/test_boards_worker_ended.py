"""A worker drawing boards that ends says why where the cause is plain (docs/rl.md, "Boards from
real cards"). Workers are spawned, and a spawned process imports the script that started it again:
a script without the ``if __name__ == "__main__":`` guard starts workers from each worker, which
multiprocessing stops as it starts them, and the stream said only "a worker process drawing boards
ended unexpectedly" (issue 53, helper 69b). Now the error names the guard, the script and the docs'
section when the worker ended while being started by a start method that imports the script again;
a worker that ends once it has begun (killed, out of memory) is said to have ended, naming its exit
code, and no guard is suggested: the cause is not the script.

Private unit: the workers a stream starts (solver/_boards/_draw ``Boards._ahead``, _ahead ``Ahead``).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from triggerstack.solver import rl

SCRIPT = """
from triggerstack.solver import rl


def main():
    board = next(rl.boards(0, workers=1, cards=False))
    print("BOARD", len(board.triggers))


{top}
"""
GUARDED = 'if __name__ == "__main__":\n    main()'
UNGUARDED = textwrap.dedent("""
    try:
        main()
    except RuntimeError as exc:
        if __name__ != "__main__":  # a worker running the script again ends as it would
            raise
        print("SAID", exc)
""")


def _run(tmp_path: Path, top: str) -> str:
    script = tmp_path / "train.py"
    script.write_text(SCRIPT.format(top=top))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_a_script_without_the_guard_is_told_to_add_it(tmp_path: Path) -> None:
    said = _run(tmp_path, UNGUARDED)
    assert said.startswith("SAID a worker process drawing boards ended unexpectedly"), said
    assert 'if __name__ == "__main__":' in said and "train.py" in said, said
    assert 'docs/rl.md, "Boards from real cards"' in said, said


def test_the_same_script_with_the_guard_draws(tmp_path: Path) -> None:
    assert _run(tmp_path, GUARDED).startswith("BOARD ")


def test_a_worker_that_ends_once_begun_is_not_blamed_on_the_script() -> None:
    stream = rl.boards(0, workers=1, cards=False)
    try:
        stream.board()  # the worker has begun: it drew this board
        ahead = stream._ahead
        assert ahead is not None
        process = ahead.links[0][0]
        process.kill()
        process.join(30)
        with pytest.raises(RuntimeError) as ended:
            for _ in range(10_000):  # the boards it sent before it ended are played first
                stream.board()
        said = str(ended.value)
        assert said.startswith("a worker process drawing boards ended unexpectedly"), said
        assert "exit code" in said and "__main__" not in said, said
    finally:
        stream.close()
