"""Cards by name (docs/cards.md): the Oracle data of every card, offline (the extra ``[cards]``),
read for what 603.3 needs — a card's characteristics and the keywords that bear on targeting, and
each triggered ability's modes, targets and divided amounts in the scenario format."""

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:  # the public names, each once; each imported on first use (model/_lazy.py)
    from ._corpus import Card as Card
    from ._corpus import corpus as corpus
    from ._expand import characteristics as characteristics
    from ._expand import expand as expand
    from ._expand import names_cards as names_cards
    from ._reader import Ability as Ability
    from ._reader import read as read
    from ._report import card_report as card_report
    from ._unread import Unread as Unread

__getattr__, __dir__, __all__ = lazy_exports(__name__, __file__, globals())
