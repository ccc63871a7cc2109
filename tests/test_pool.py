"""The fairness rule of a server's loaded scenarios (solver/serve/_pool.py, docs/server.md): shares
per token and per network address, and the largest holder gives way first. Time is an injected
clock: nothing sleeps.

Private unit: solver/serve/_pool (Pool and its caps) and the HTTP gate (solver/serve/_http._Gate)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from triggerstack.solver._errors import RequestError
from triggerstack.solver.serve._pool import (
    HANDLES_PER_CLIENT,
    HANDLES_PER_PEER,
    HOLD_SECONDS,
    MAX_HANDLES,
    Pool,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _load(pool: Pool, client: str, peer: str) -> str:
    pool.admit(client, peer)
    return pool.add(None, client, peer, 1)


def _full(pool: Pool, clock: Clock) -> None:
    """The server filled by four addresses, each at its share, every handle asked about just now."""
    for n in range(MAX_HANDLES):
        peer = f"10.0.0.{n // HANDLES_PER_PEER}"
        _load(pool, f"{peer}/{n % HANDLES_PER_PEER // HANDLES_PER_CLIENT}", peer)
    assert len(pool) == MAX_HANDLES


def test_made_up_tokens_buy_no_more_room_than_one_address_has() -> None:
    """One client with seven made-up tokens held 223 of 256 slots."""
    clock = Clock()
    pool = Pool(clock)
    for n in range(7 * HANDLES_PER_CLIENT):
        try:
            _load(pool, f"made-up-{n % 7}", "10.0.0.9")
        except RequestError as exc:
            assert exc.kind.http == 429 and "this address" in exc.message
    assert len(pool) == HANDLES_PER_PEER
    clock.now += HOLD_SECONDS  # its own least recently used gives way once idle: it never holds more
    _load(pool, "made-up-8", "10.0.0.9")
    assert len(pool) == HANDLES_PER_PEER


def test_a_holder_with_nothing_loaded_gets_a_slot_from_the_largest() -> None:
    """A token holder with nothing loaded got 429, and again 61 s later, from a full server."""
    clock = Clock()
    pool = Pool(clock)
    _full(pool, clock)
    clock.now += 1  # every handle asked about a second ago
    _load(pool, "newcomer", "192.168.1.7")
    held = Counter(h.peer for h in pool.loaded.values())
    assert held["192.168.1.7"] == 1 and len(pool) == MAX_HANDLES
    assert sorted(held.values()) == [1, HANDLES_PER_PEER - 1] + [HANDLES_PER_PEER] * 3  # one of the largest gave one


def test_a_small_holders_idle_handle_outlives_the_largest_holders() -> None:
    """A token holder's single idle handle was unloaded by a stranger's load while the 223 stayed."""
    clock = Clock()
    pool = Pool(clock)
    mine = _load(pool, "alice", "10.1.1.1")
    clock.now += 10 * HOLD_SECONDS  # idle long past the hold (not yet the idle timeout)
    for n in range(MAX_HANDLES - 1):
        peer = f"10.0.0.{n // HANDLES_PER_PEER}"
        _load(pool, f"{peer}/{n % HANDLES_PER_PEER // HANDLES_PER_CLIENT}", peer)
    for _ in range(20):
        clock.now += 1
        _load(pool, "stranger", "10.9.9.9")
    assert mine in pool.loaded
    assert Counter(h.peer for h in pool.loaded.values())["10.9.9.9"] == 20


def test_among_equals_the_load_waits_for_an_idle_handle() -> None:
    clock = Clock()
    pool = Pool(clock)
    _full(pool, clock)
    clock.now += 1
    with pytest.raises(RequestError) as info:  # a fifth address at its share: the four are the largest
        _load(pool, "10.0.0.0/0", "10.0.0.0")
    assert info.value.kind.http == 429 and (info.value.data or {})["retry_after"] == HOLD_SECONDS - 1
    clock.now += HOLD_SECONDS
    _load(pool, "10.0.0.0/0", "10.0.0.0")
    assert len(pool) == MAX_HANDLES


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 3), st.floats(0, 2 * HOLD_SECONDS)), min_size=1, max_size=400
    )
)
def test_no_share_is_ever_exceeded_and_only_the_largest_are_refused(loads: list[tuple[int, int, float]]) -> None:
    """Whatever the loads: no token over its share, no address over its share, the server within
    its cap, and a load is refused only when its address is among the largest holders, or its
    token or address is at its own share."""
    clock = Clock()
    pool = Pool(clock)
    for peer_n, token_n, later in loads:
        clock.now += later
        peer, client = f"10.0.0.{peer_n}", f"{peer_n}/{token_n}"
        before: Any = Counter(h.peer for h in pool.loaded.values())
        mine = sum(h.client == client for h in pool.loaded.values())
        try:
            _load(pool, client, peer)
        except RequestError:
            own_full = mine >= HANDLES_PER_CLIENT or before[peer] >= HANDLES_PER_PEER
            assert own_full or before[peer] + 2 > max(before.values())
        by_peer = Counter(h.peer for h in pool.loaded.values())
        by_token = Counter(h.client for h in pool.loaded.values())
        assert len(pool) <= MAX_HANDLES
        assert max(by_peer.values()) <= HANDLES_PER_PEER and max(by_token.values()) <= HANDLES_PER_CLIENT


def test_one_address_cannot_queue_more_than_its_share_of_questions() -> None:
    """One client queuing 257 small requests behind a slow one held every connection, and each
    new one (/health too) was reset: an address has at most QUESTIONS_PER_PEER questions waiting
    or being answered; one more is 429 at once (its connection is idle again), another address's
    is admitted."""
    pytest.importorskip("fastapi")
    import contextlib

    from triggerstack.solver.serve import Service
    from triggerstack.solver.serve._http import QUESTIONS_PER_PEER, _Gate

    gate = _Gate(Service())
    with contextlib.ExitStack() as queued:
        for _ in range(QUESTIONS_PER_PEER):
            queued.enter_context(gate.admitted("10.0.0.1"))
        with pytest.raises(RequestError) as info:
            queued.enter_context(gate.admitted("10.0.0.1"))
        assert info.value.kind.http == 429 and (info.value.data or {})["retry_after"] == 1
        with gate.admitted("10.0.0.2"):
            pass
    with gate.admitted("10.0.0.1"):  # its questions answered, it may ask again
        assert gate.asking["10.0.0.1"] == 1
    assert not gate.asking
