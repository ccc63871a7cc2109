"""Coverage-guided fuzzing of the readers of outside data (issue 56), with atheris.

Each reader's contract: it reads a thing whole, or raises the documented error naming what it could
not read — never another exception, never unbounded time or memory. A reader is fuzzed by naming it
in :data:`READERS` (its function of the fuzzer's bytes, and the errors its contract names); its
seeds are the files of ``tests/fuzz/corpus/<name>/`` (committed), and a crash the fuzzer finds is
kept as ``tests/fuzz/crashes/<name>/<file>`` and replayed by ``test_readers.py`` for good.

    python tests/fuzz/fuzz_readers.py NAME [libFuzzer flags: -runs=N, -max_total_time=S ...]

``test_readers.py`` runs each for a fixed number of inputs in CI; a night's run is the same command
with ``-max_total_time=3600`` (docs/architecture.md).

Private unit: the readers of outside data, fuzzed in this process (model/_io: parse_text, utf8; the conformance runner's _run_case).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
CRASHES = HERE / "crashes"


@dataclass(frozen=True)
class Reader:
    """A reader of outside data: a function of the bytes it reads, and the errors its contract names."""

    read: Callable[[bytes], Any]
    refuses: tuple[type[BaseException], ...]


def _document(data: bytes) -> Any:
    """A scenario or outcome document, JSON or YAML (aliases and tags included), within limits."""
    from triggerstack.model import Limits
    from triggerstack.model._io import parse_text, utf8

    return parse_text(utf8(data, "fuzz"), "fuzz", None, limits=Limits(bytes=1 << 16, values=20_000, depth=32))


def _phrase(data: bytes) -> Any:
    """A card's Oracle text (a triggered ability's sentences) read into the format."""
    from triggerstack.model.cards import Card, read

    text = data.decode("utf-8", "replace")[:2000]
    card = Card("Fuzzed Card", "{2}{R}", "Creature — Goblin", ("creature",), ("goblin",), (), (), "2", "2", text, "normal")
    return read(card)


_SEEDS: dict[str, list[Any]] = {}


def _seeds(name: str) -> list[Any]:
    if name not in _SEEDS:
        _SEEDS[name] = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((HERE / "seeds" / name).glob("*.json"))]
    return _SEEDS[name]


def _mutated(seed: Any, data: bytes) -> Any:
    """``seed`` changed where the fuzzer's bytes say: a field deleted, renamed, given a value of
    another kind, or a list shortened, lengthened or emptied — a state of another version, or a
    damaged one (the bytes steer the changes, so coverage guides them)."""
    import atheris

    fdp = atheris.FuzzedDataProvider(data)
    doc = json.loads(json.dumps(seed))
    for _ in range(fdp.ConsumeIntInRange(1, 4)):
        node, key = doc, None
        for _ in range(fdp.ConsumeIntInRange(0, 12)):
            inner = node.get(key) if isinstance(node, dict) and key is not None else node[key] if key is not None else node
            if isinstance(inner, dict) and inner:
                node, key = inner, sorted(inner)[fdp.ConsumeIntInRange(0, len(inner) - 1)]
            elif isinstance(inner, list) and inner:
                node, key = inner, fdp.ConsumeIntInRange(0, len(inner) - 1)
            else:
                break
        if key is None:
            continue
        choice = fdp.ConsumeIntInRange(0, 5)
        strays: list[Any] = [None, True, 0, -1, 1.5, "", fdp.ConsumeUnicodeNoSurrogates(8), [], {}]
        if choice == 0 and isinstance(node, dict):
            del node[key]
        elif choice == 1 and isinstance(node, dict):
            node[fdp.ConsumeUnicodeNoSurrogates(6)] = node.pop(key)
        elif choice == 2 and isinstance(node, list):
            node.append(node[key])
        elif choice == 3 and isinstance(node, list):
            del node[key:]
        else:
            node[key] = strays[fdp.ConsumeIntInRange(0, len(strays) - 1)]
    return doc


def _phase_state(data: bytes) -> Any:
    """A phase.rs state at a trigger-placement prompt, one of the recorded ones changed where the
    fuzzer says (_mutated), read into a scenario."""
    from triggerstack.adapters.phase import read

    seeds = _seeds("phase-state")
    return read(_mutated(seeds[data[0] % len(seeds)] if data else seeds[0], data[1:]))


def _answers(data: bytes) -> Any:
    """An engine's answers to a conformance case, judged by the runner: the bytes are a JSON list,
    one answer per call the runner makes (load, count, enumerate, check …), in turn: a recorded
    list changed where the fuzzer says (_mutated)."""
    from triggerstack.solver.conformance import Failure, Report, _run_case, load_suite

    seeds = _seeds("answers")
    answers = _mutated(seeds[data[0] % len(seeds)] if data else seeds[0], data[1:])
    if not isinstance(answers, list):
        answers = [answers]

    class Engine:
        def __init__(self) -> None:
            self.left = list(answers)

        def call(self, method: str, params: dict[str, Any]) -> Any:
            if not self.left:
                raise Failure("the engine closed its output")
            answer = self.left.pop(0)
            if isinstance(answer, dict) and set(answer) == {"error"} and isinstance(answer["error"], dict):
                raise Failure(str(answer["error"].get("message")), answer["error"].get("code"))
            return answer

        def close(self) -> None:
            pass

    case = _case(load_suite)
    return _run_case(Engine(), case, Report([]))


_CASES: list[Any] = []


def _case(load_suite: Callable[..., list[Any]]) -> Any:
    if not _CASES:
        from triggerstack.solver.conformance import default_suite

        _CASES.extend(load_suite(default_suite())[:1])
    return _CASES[0]


def _readers() -> dict[str, Reader]:
    from triggerstack.adapters.phase import PhaseGap
    from triggerstack.model import ScenarioError

    return {
        "document": Reader(_document, (ScenarioError,)),
        "phrase": Reader(_phrase, (ScenarioError,)),
        "phase-state": Reader(_phase_state, (PhaseGap, ScenarioError, json.JSONDecodeError, UnicodeDecodeError)),
        "answers": Reader(_answers, ()),
    }


READERS = _readers


def one_input(name: str) -> Callable[[bytes], None]:
    """The fuzzer's target: read, and let only the contract's errors pass."""
    reader = READERS()[name]

    def target(data: bytes) -> None:
        try:
            reader.read(data)
        except reader.refuses:
            pass
        except RecursionError:
            raise  # never bounded by a reader that recurses on its input: a crash
    return target


def main() -> None:
    import atheris

    name, *flags = sys.argv[1:]
    with atheris.instrument_imports(include=["triggerstack"]):
        target = one_input(name)
        for seed in sorted((CORPUS / name).iterdir())[:1]:
            target(seed.read_bytes())  # the reader's modules are imported here, instrumented
    given = [f for f in flags if not f.startswith("-")]
    args = [sys.argv[0], *flags] if given else [sys.argv[0], *flags, f"-artifact_prefix={CRASHES / name}/", str(CORPUS / name)]
    atheris.Setup(args, target)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
