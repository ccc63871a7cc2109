"""The readers of outside data under coverage-guided fuzzing (atheris), for a fixed number of inputs
each (issue 56): the document reader (JSON and YAML, aliases and tags), the card phrase reader
(Oracle-like sentences), the phase.rs state reader (recorded states changed where the fuzzer says)
and the conformance runner's reading of an engine's answers. Each reads whole or raises its
documented error, within time and memory; a crash the fuzzer ever found is replayed here for good
(``tests/fuzz/crashes/<reader>/``). ``FUZZ_RUNS`` sets the inputs per reader (a night: 10**6).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("atheris", reason="atheris is in [dev]: pip install -e '.[dev]'")

from .fuzz_readers import CORPUS, CRASHES, READERS, one_input

HARNESS = Path(__file__).with_name("fuzz_readers.py")
RUNS = int(os.environ.get("FUZZ_RUNS", "2000"))
NAMES = sorted(READERS())


@pytest.mark.parametrize("name", NAMES)
def test_a_reader_under_the_fuzzer_reads_whole_or_refuses_in_its_own_words(name: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"  # the committed seeds, and what this run adds, in a folder of its own
    corpus.mkdir()
    for seed in (CORPUS / name).iterdir():
        (corpus / seed.name).write_bytes(seed.read_bytes())
    done = subprocess.run(
        [sys.executable, str(HARNESS), name, f"-runs={RUNS}", "-rss_limit_mb=2048", "-timeout=60",
         f"-artifact_prefix={tmp_path}/", str(corpus)],
        capture_output=True, text=True, timeout=900, check=False,
    )
    found = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(("crash-", "timeout-", "oom-")))
    assert done.returncode == 0 and not found, (
        f"the fuzzer broke the {name} reader ({found}; keep the input in tests/fuzz/crashes/{name}/):\n"
        + done.stderr[-3000:]
    )
    ran = re.search(r"^Done (\d+) runs", done.stderr, flags=re.M)  # libFuzzer may run a few more than asked
    assert ran is not None and int(ran.group(1)) >= RUNS, done.stderr[-2000:]


def _kept() -> list[object]:
    return [pytest.param(p, id=f"{p.parent.name}/{p.name}") for p in sorted(CRASHES.glob("*/*")) if p.is_file()]


@pytest.mark.parametrize("kept", _kept() or [pytest.param(None, id="none-yet")])
def test_every_input_the_fuzzer_ever_broke_a_reader_with_is_read_or_refused_now(kept: Path | None) -> None:
    if kept is None:
        pytest.skip("no input has broken a reader yet: tests/fuzz/crashes/ is empty")
    one_input(kept.parent.name)(kept.read_bytes())
