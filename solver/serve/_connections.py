"""The connections of ``serve --http``: uvicorn's h11 protocol with a header-read timeout and a
cap on open connections that no one address can exhaust (docs/server.md, "Connections")."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

HEADER_SECONDS = 10.0
"""A connection that has not sent a request — its headers and its body — within this long is closed."""
MAX_CONNECTIONS = 256
"""Connections open at once; one more takes the place of an idle one (of the address holding the
most first), or is closed as it arrives."""


def protocol(header_seconds: float = HEADER_SECONDS, max_connections: int = MAX_CONNECTIONS) -> type[Any]:
    """uvicorn's h11 protocol with a request-read timeout (``header_seconds``, for the headers and
    the body of each request of a connection) and a cap on open connections (``max_connections``):
    a slow or abandoned client can neither hold the server's connections nor keep a new one from
    being answered. At the cap, a new connection takes the place of the one that has waited longest
    without a request under way (a slow client's, whose headers or body have not all come; of the
    address holding the most connections first), so a flood of slow connections, however it is
    renewed, never keeps /health or anyone else out; only when every connection is answering a
    request is the new one closed — and no address has more than ``QUESTIONS_PER_PEER`` requests
    waiting to be answered (the gate answers the rest 429 at once, and their connections are idle
    again)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Guarded(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None
        _waiting_since: float = 0.0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()
            if len(self.connections) > max_connections:
                idle = [c for c in self.connections if c is not self and isinstance(c, Guarded) and c._idle()]
                if not idle:
                    self._disarm()
                    transport.close()
                    return
                held = Counter(c._peer() for c in self.connections if isinstance(c, Guarded))
                # the address holding the most connections gives way first, its longest waiting
                min(idle, key=lambda c: (-held[c._peer()], c._waiting_since)).transport.close()

        def _peer(self) -> str:
            return str(self.client[0]) if self.client else ""

        def _idle(self) -> bool:
            return self._header_timer is not None and not self.transport.is_closing()

        def _arm(self) -> None:
            self._disarm()
            self._waiting_since = self.loop.time()
            self._header_timer = self.loop.call_later(header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _arrived(self) -> bool:
            """Whether the request under way has arrived whole, its headers and its body: until
            then it asks nothing of the server and is as slow as a client whose headers have not
            come (a body that never ends held its connection for ever, out of reach of the cap)."""
            return self.cycle is not None and not self.cycle.response_complete and not self.cycle.more_body

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self._arrived():  # no request under way: its headers or its body never came
                self.transport.close()

        def handle_events(self) -> None:
            super().handle_events()
            if self._header_timer is not None and self._arrived():  # a whole request: headers and body
                self._disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request's headers, on the same connection

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return Guarded
