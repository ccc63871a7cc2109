"""phase.rs (``phase-python``) at its trigger-placement prompts: the scenario of the waiting batch,
the legal answers at each prompt, the outcome phase reached judged by ``check``, and the actions
that play a chosen outcome into phase (docs/phase.md)."""

from .abilities import Gap, translate
from .answers import action_for, choices, entry_of, is_legal_answer, legal_actions
from .board import PROMPTS, BatchEntry, Index, PhaseGap, PhaseStateError, Reading, read, trim

__all__ = [
    "PROMPTS", "BatchEntry", "Gap", "Index", "PhaseGap", "PhaseStateError", "Reading", "action_for", "choices",
    "entry_of",
    "is_legal_answer",
    "legal_actions", "read", "translate", "trim",
]  # fmt: skip
# the live part (Board, engine, play, reached) imports phase: triggerstack.adapters.phase.live
