"""Where a target phrase's object is and what it carries, after its noun (601.2c): "from your
graveyard", "in an opponent's graveyard", "from graveyards", "with a memory counter on it",
"with a +1/+1 counter on it" (122.1)."""

from __future__ import annotations

from typing import Any

from ._states import counter_at


def zone_or_counter(low: list[str], i: int, out: dict[str, Any]) -> int:
    """How many words from ``i`` name a zone ("from your graveyard", "in an opponent's graveyard",
    "from graveyards") or a counter ("with a memory counter on it", 122.1), noted in ``out``; 0: none."""
    if low[i] in ("in", "from") and i + 2 < len(low) and low[i + 2] in ("graveyard", "graveyards"):
        out["zone"] = "graveyard"
        if low[i + 1] == "your":
            out["owner"] = "you"
        return 3
    if low[i] in ("in", "from") and low[i + 1 : i + 2] == ["graveyards"]:  # "cards from graveyards": any
        out["zone"] = "graveyard"
        return 2
    if low[i] == "with" and (counter := counter_at(low, i + 1)):  # "+1/+1": the counters' own key (122.1)
        out["counter"] = counter[0]
        return 1 + counter[1]
    if low[i] in ("in", "from") and i + 3 < len(low) and low[i + 1] == "an" and low[i + 2] == "opponent's":
        out["zone"] = "graveyard" if low[i + 3] == "graveyard" else low[i + 3]
        out["owner"] = "opponent"
        return 4
    return 0
