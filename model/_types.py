"""Identifier types shared by every module.

The wire format uses plain strings; these ``NewType`` s keep an ability id from being passed
where an object id is expected.
"""

from typing import NewType

AbilityId = NewType("AbilityId", str)
"""A waiting triggered ability (``triggers[].id``), or ``REACTION@ABILITY`` for a fired one."""
ObjectId = NewType("ObjectId", str)
"""An object of the scenario (``objects[].id``)."""
PlayerId = NewType("PlayerId", str)
"""A player (``players[]`` or ``players[].id``)."""
ModeId = NewType("ModeId", str)
"""A mode, unique within its ability."""
RequirementId = NewType("RequirementId", str)
"""A target requirement, unique within its mode or its non-modal ability."""
ThingId = NewType("ThingId", str)
"""Anything that can be chosen as a target: a player, an object or a waiting ability."""
