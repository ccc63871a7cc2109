"""The player a trigger's event names (docs/formats.md, Triggers): a filter's ``controller`` or
``owner`` ``event`` means the trigger's ``event_player`` — "that player", "that opponent", the
defending player (603.2, 506.2, 508.5a). It is read as that player's id when the trigger is read, so
every filter is judged with a player id; a trigger without ``event_player`` keeps ``event``, and the
reference check names the field to give (model/_references.py)."""

from __future__ import annotations

from typing import Any

EVENT = "event"
"""The player reference of the player the trigger's event names."""


def resolve_event(data: Any) -> Any:
    """A trigger document with ``event`` in its requirements' filters read as its ``event_player``."""
    if not isinstance(data, dict) or not isinstance(data.get("event_player"), str):
        return data
    out = dict(data)
    for key in ("targets", "modes"):
        if key in out:
            out[key] = _resolved(out[key], data["event_player"])
    return out


def _resolved(value: Any, player: str) -> Any:
    if isinstance(value, list):
        return [_resolved(v, player) for v in value]
    if isinstance(value, dict):
        return {
            k: player if k in ("controller", "owner") and v == EVENT else _resolved(v, player) for k, v in value.items()
        }
    return value
