"""What an action is: a decision id of the action space, every environment's Gymnasium ``Discrete``
(:func:`action_id` reads one, :class:`NotAnAction` refuses what is not one), whose masked draw
(``action_space(agent).sample(observation["action_mask"])``, PettingZoo's usual loop) costs what the
draw written out does.

Gymnasium's ``Discrete.sample(mask)`` compares the mask with 0 and with 1, combines, reduces and
draws with ``Generator.choice``: about 14 µs against 3 µs for the same draw written out, which on
episodes of a few decisions took the documented loop to 0.57 times the benchmark's. Here a mask of the
documented form (an ``int8`` array of the space's shape) is checked in one pass over its bytes and
drawn from with the same generator call that ``choice`` makes, so the draws are Gymnasium's, one for
one (a test holds them equal); anything else — a probability, another dtype or shape, a value other
than 0 or 1, a mask with no legal action — goes to Gymnasium's own ``sample``, which draws or
refuses as it always does.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from .._errors import IllegalDecision


class NotAnAction(IllegalDecision):
    """An action that is not of the action space — anything but a Python ``int`` or a NumPy
    integer, or an id out of ``0 … layout.size − 1``: a caller's bug, not a move. Every environment
    raises it whatever its ``illegal_reward``, which is for the legal form of an illegal move (an id
    of the space the mask says is not legal now): the one-board, the Gymnasium and the vector
    environments alike, where the Gymnasium ones once ended the episode with the reward for an
    illegal move (docs/rl.md). An :class:`IllegalDecision`, so that code catching it still does."""


_INT8 = np.dtype(np.int8)
_ZERO_ONE = b"\x00\x01"


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(n)`` with Gymnasium's draws, a masked draw in a fifth of the time."""

    def __init__(self, n: int, seed: int | np.random.Generator | None = None) -> None:
        super().__init__(n, seed=seed)
        self._mask_shape = (n,)

    def sample(self, mask: NDArray[Any] | None = None, probability: NDArray[Any] | None = None) -> np.int64:
        if type(mask) is np.ndarray and probability is None and mask.dtype == _INT8 and mask.shape == self._mask_shape:
            raw = mask.tobytes()
            if not raw.translate(None, _ZERO_ONE) and b"\x01" in raw:  # only 0s and 1s, and a 1
                legal = mask.nonzero()[0]
                # Generator.choice(legal) draws integers(0, len(legal)): the same draw, the same stream
                return self.start + legal[self.np_random.integers(len(legal))]  # type: ignore[no-any-return]
        return super().sample(mask, probability)


def action_id(action: object, agent: str) -> int:
    """An action that is not a Python ``int``, as a decision id: a NumPy integer (or a 0-d array
    of one) is; anything else is refused, never rounded or read as a number (``True``, ``2.5``)."""
    if action is None:
        raise NotAnAction("None", f"{agent} decides now: None is only for agents whose episode is over")
    if isinstance(action, np.integer) or (
        isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer)
    ):
        return int(action)
    if isinstance(action, int) and not isinstance(action, bool):
        return int(action)
    what = type(action).__name__
    why = f"an action is a decision id, a whole number (an int or a NumPy integer), not a {what}"
    raise NotAnAction(str(action), why)


def space_id(action: object, agent: str, size: int) -> int:
    """``action`` as an id of the action space of ``size`` ids, or :class:`NotAnAction` saying why
    it is none (in the stepper's words for an id out of range): the one reading of what is of the
    space, for every environment."""
    chosen = action if type(action) is int else action_id(action, agent)
    if not 0 <= chosen < size:
        raise NotAnAction(chosen, f"no decision has this id (ids run from 0 to {size - 1})")
    return chosen
