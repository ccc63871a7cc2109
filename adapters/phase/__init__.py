"""phase.rs (``phase-python``) at its trigger-placement prompts: the scenario of the waiting batch,
the legal answers at each prompt, the outcome phase reached judged by ``check``, and the actions
that play a chosen outcome into phase (docs/phase.md). The live part (``Board``, ``engine``, ``play``,
``reached``) needs the extra ``[phase]``: phase is imported when one of them is first used."""

from typing import TYPE_CHECKING

from triggerstack.model._lazy import lazy_exports

if TYPE_CHECKING:  # the public names, each once; each imported on first use (model/_lazy.py)
    from ._abilities import Gap as Gap
    from ._abilities import translate as translate
    from ._answers import action_for as action_for
    from ._answers import choices as choices
    from ._answers import entry_of as entry_of
    from ._board import PROMPTS as PROMPTS
    from ._board import BatchEntry as BatchEntry
    from ._board import Index as Index
    from ._board import Reading as Reading
    from ._board import read as read
    from ._board import trim as trim
    from ._live import TESTED as TESTED
    from ._live import Board as Board
    from ._live import card_data as card_data
    from ._live import engine as engine
    from ._live import phase_module as phase_module
    from ._live import play as play
    from ._live import reached as reached
    from ._prompt import Answers as Answers
    from ._prompt import Rest as Rest
    from ._prompt import answers as answers
    from ._prompt import is_legal_answer as is_legal_answer
    from ._prompt import legal_actions as legal_actions
    from ._schema import PhaseError as PhaseError
    from ._schema import PhaseGap as PhaseGap
    from ._schema import PhaseStateError as PhaseStateError
    from ._session import Session as Session

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
