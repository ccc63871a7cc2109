"""The training example (examples/rl/train_maskable_ppo.py, docs/rl.md "Training an agent"):
MaskablePPO trained briefly on random boards of real cards reaches a lower regret against the proven
optimum (``best``) than a uniform random policy, on boards it never trained on.

sb3-contrib and PyTorch are the extra ``[train]``, not ``[dev]``: without them the test is skipped
with that reason (``-rs`` in pytest's options prints it). A skip is decided by whether the packages
are *found*, never by an import failing, so a broken install fails here instead of skipping."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

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
    import torch

    torch.set_num_threads(1)  # the same run on any machine
    spec = importlib.util.spec_from_file_location("train", ROOT / "examples" / "rl" / "train_maskable_ppo.py")
    assert spec is not None and spec.loader is not None
    train = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(train)
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
