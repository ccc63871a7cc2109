"""The training example (examples/rl/train_maskable_ppo.py, docs/rl.md "Training an agent"):
MaskablePPO trained briefly on random boards of real cards reaches a lower regret against the proven
optimum (``best``) than a uniform random policy, on boards it never trained on.

sb3-contrib and PyTorch are the extra ``[train]``, not ``[dev]``: without them the test is skipped
with that reason (``-rs`` in pytest's options prints it). A skip is decided by whether the packages
are *found*, never by an import failing, so a broken install fails here instead of skipping."""

from __future__ import annotations

import importlib.util
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_a_briefly_trained_agent_regrets_less_than_a_random_one(tmp_path: Path) -> None:
    missing = [name for name in ("sb3_contrib", "torch", "matplotlib") if importlib.util.find_spec(name) is None]
    if missing:
        pytest.skip(f"the training example needs the extra [train] ({', '.join(missing)} not installed; README"
                    " 'Training an agent on real cards')")  # fmt: skip
    if importlib.util.find_spec("mtg") is None:  # (found, never imported: its engine is heavy)
        pytest.skip("the boards are of real cards: the extra [cards]")
    train = _example()  # on one PyTorch thread: the example's default
    out = tmp_path / "figures.json"
    plot = tmp_path / "regret.png"
    assert train.main(["--steps", "3000", "--eval", "24", "--checkpoints", "1", "--seed", "0",
                       "--json", str(out), "--plot", str(plot)]) == 0  # fmt: skip
    figures = json.loads(out.read_text())
    learned, random = figures["curve"][-1][1], figures["random_regret"]
    assert random > 0, "the evaluation boards leave a random policy room to regret"
    assert min(r for _, r in figures["curve"]) >= 0, "no policy beats the proven optimum"
    assert learned < random, figures
    assert plot.stat().st_size > 1000


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("train", ROOT / "examples" / "rl" / "train_maskable_ppo.py")
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
    return train


class _Stop(Exception):
    """Raised where the example would begin training: what it did before is what is asked."""


@pytest.mark.parametrize(("flags", "threads"), [([], [1]), (["--threads", "2"], [2]), (["--threads", "0"], [])])
def test_the_example_trains_on_one_pytorch_thread_unless_told(
    monkeypatch: pytest.MonkeyPatch, flags: list[str], threads: list[int]
) -> None:
    """PyTorch's threads spin while other processes load the cores: the example with ``--steps 3000``
    took 118 s on a loaded 2-core machine and 11 s on one thread (docs/rl.md, "One PyTorch thread").
    It sets one thread itself before anything trains; ``--threads N`` sets N, ``--threads 0`` leaves
    PyTorch's default. PyTorch and sb3-contrib are stood in for: the [train] extra is not needed."""
    calls: list[int] = []
    torch = types.ModuleType("torch")
    torch.set_num_threads = calls.append  # type: ignore[attr-defined]
    sb3 = types.ModuleType("sb3_contrib")

    def not_yet(name: str) -> Any:
        if name == "MaskablePPO":
            raise _Stop(name)
        raise AttributeError(name)  # what else looks at the module (a module walk reading __file__) finds nothing

    sb3.__getattr__ = not_yet  # type: ignore[method-assign]
    monkeypatch.setitem(sys.modules, "torch", torch)
    monkeypatch.setitem(sys.modules, "sb3_contrib", sb3)
    train = _example()
    with pytest.raises(_Stop, match="MaskablePPO"):
        train.main(["--steps", "10", *flags])
    assert calls == threads
