"""The loaded scenarios of a server, and the one fairness rule that decides which gives way:
shares per token (:data:`HANDLES_PER_CLIENT`) and per peer address (:data:`HANDLES_PER_PEER`), a
full server taking from the largest holder first, a handle asked about within :data:`HOLD_SECONDS`
giving way only to a smaller holder (docs/server.md, "What a client may see and do", states the
rule whole). Time is the clock the pool is given (a test injects one).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._errors import KINDS, RequestError

MAX_HANDLES = 256
"""Scenarios loaded at once in a server; ``load`` beyond it is refused until some are unloaded."""
HANDLES_PER_CLIENT = 32
"""Scenarios one client (one token, or the clients without one) may hold loaded at once."""
HANDLES_PER_PEER = 64
"""Scenarios the clients of one network address may hold loaded at once, whatever tokens they present."""
IDLE_SECONDS = 900.0
"""A loaded scenario not asked about for this long is unloaded."""
HOLD_SECONDS = 60.0
"""A loaded scenario asked about within this long gives way only to a smaller holder."""


@dataclass
class Held:
    """A loaded scenario: its answers, the token and address it belongs to, what it costs, when last asked."""

    legal: Any
    client: str
    peer: str
    cost: int
    used: float


class Pool:
    """The loaded scenarios, by handle, and which gives way (see the module)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.loaded: dict[str, Held] = {}
        self.clock = clock

    def __len__(self) -> int:
        return len(self.loaded)

    def bytes(self) -> int:
        return sum(h.cost for h in self.loaded.values())

    def expire(self) -> None:
        now = self.clock()
        for handle in [h for h, held in self.loaded.items() if now - held.used > IDLE_SECONDS]:
            del self.loaded[handle]

    def find(self, handle: str, client: str) -> Held | None:
        """The scenario loaded as ``handle`` by ``client``, marked as asked about now (None: not
        loaded for this client)."""
        self.expire()
        found = self.loaded.get(handle)
        if found is None or found.client != client:
            return None
        found.used = self.clock()
        return found

    def add(self, legal: Any, client: str, peer: str, cost: int) -> str:
        handle = "h" + secrets.token_urlsafe(16)
        self.loaded[handle] = Held(legal, client, peer, cost, self.clock())
        return handle

    def admit(self, client: str, peer: str) -> None:
        """Room for one more handle of ``client`` at ``peer``: its own shares first, then the
        server's (see the module); :class:`RequestError` (``pool-full``) when there is none."""
        self.expire()
        mine = [h for h, held in self.loaded.items() if held.client == client]
        if len(mine) >= HANDLES_PER_CLIENT:
            whose = "this client's pool" if client else "the pool of the clients without a token"
            self._own(mine, f"{whose} holds {len(mine)} loaded scenarios, the most it may", client)
            return
        near = [h for h, held in self.loaded.items() if held.peer == peer]
        if len(near) >= HANDLES_PER_PEER:
            said = f"the clients of this address hold {len(near)} loaded scenarios, the most they may whatever tokens"
            self._own(near, said, client)
            return
        if len(self.loaded) >= MAX_HANDLES:
            self.make_way(client, peer, f"the server holds {len(self.loaded)} loaded scenarios, the most it may")

    def make_way(self, client: str, peer: str, why: str) -> None:
        """One handle gives way to a load of ``client`` at ``peer`` into a full server: the largest
        holder's (see the module), or :class:`RequestError` (``pool-full``)."""
        by_peer = Counter(held.peer for held in self.loaded.values())
        most = max(by_peer.values())
        if by_peer.get(peer, 0) + 2 <= most:  # a smaller holder: the largest gives way, however recently asked
            largest = min((p for p, n in by_peer.items() if n == most), key=lambda p: self._oldest(p))
            by_token = Counter(held.client for held in self.loaded.values() if held.peer == largest)
            token = max(by_token, key=lambda t: (by_token[t], -self._oldest(largest, t)))
            pool = [h for h, held in self.loaded.items() if held.peer == largest and held.client == token]
            del self.loaded[min(pool, key=lambda h: self.loaded[h].used)]
            return
        largest_peers = {p for p, n in by_peer.items() if n == most}
        self._own([h for h, held in self.loaded.items() if held.peer in largest_peers], why, client)

    def _oldest(self, peer: str, client: str | None = None) -> float:
        return min(
            held.used
            for held in self.loaded.values()
            if held.peer == peer and (client is None or held.client == client)
        )

    def _own(self, pool: list[str], why: str, client: str) -> None:
        """Unload the least recently used handle of ``pool`` not asked about for
        :data:`HOLD_SECONDS`, or refuse the load saying when one may be."""
        oldest = min(pool, key=lambda h: self.loaded[h].used)
        held = self.clock() - self.loaded[oldest].used
        if held >= HOLD_SECONDS:
            del self.loaded[oldest]
            return
        wait = round(HOLD_SECONDS - held, 1)
        own = (
            "present a token of your own (over HTTP, Authorization: Bearer <token>) for a pool of your own, or "
            if not client
            else ""
        )
        raise RequestError(
            KINDS.POOL_FULL,
            f"{why}, each asked about in the last {HOLD_SECONDS:g} s: the least recently used may be unloaded in "
            f"{wait:g} s; unload one, {own}send the scenario inline (inline requests take no slot)",
            {"retry_after": wait},
        )
