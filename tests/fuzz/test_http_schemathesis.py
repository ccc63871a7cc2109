"""The HTTP service attacked from its own OpenAPI document (issue 56): Schemathesis generates valid and
invalid bodies, headers and query strings for every operation the document lists — a new verb is
attacked without new code — and checks every answer with its own checks (no 5xx, answers that fit
the document, documented status codes and content types) and the project's:

* an answer is never larger than ``--max-answer`` (the cap this server runs with);
* a request ends (the time limit it runs with, plus a margin for a loaded machine: it is bounded,
  not fast);
* the server's memory stays bounded across the run.

The fast profile runs in ``-m "not slow"``; the deeper one (more examples, and the stateful links
load → count → unload) is marked slow, and ``FUZZ_EXAMPLES`` raises both for a night's run.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is in [dev]: pip install -e '.[dev]'")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402
from triggerstack.solver.serve import app  # noqa: E402

from ..conftest import PATIENCE  # noqa: E402

MAX_ANSWER = 200_000
TIME_LIMIT = 2.0
MARGIN = 60.0
"""Seconds past the time limit a request may take on a loaded machine before it counts as unbounded."""
GROWTH = 600 * 2**20
"""How much the server process's peak memory may grow over the whole run (bytes)."""

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "0"))


class _Server:
    """``serve --http`` as a process of its own on a loopback port, with the caps this file checks:
    what is measured is the server's memory (its peak resident size, /proc), not the fuzzer's."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "triggerstack.solver", "serve", "--http", str(port), "--time-limit", str(TIME_LIMIT),
             "--max-answer", str(MAX_ANSWER)],
            stderr=subprocess.DEVNULL,
        )
        for _ in range(1200):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.1)
        self.start = self.peak()

    def peak(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        return 0

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=PATIENCE)


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    found = _Server()
    yield found
    found.stop()


_DOCUMENT = schemathesis.openapi.from_dict(app().inner.openapi())
"""The OpenAPI document the server publishes (built in process: the same code the server runs)."""
OPERATIONS = sorted(found.ok().label for found in _DOCUMENT.get_all_operations())
_SERVER: list[_Server] = []


@pytest.fixture(autouse=True)
def _known(server: _Server) -> None:
    _SERVER[:] = [server]


def _fits(case: Any, started: float, response: Any) -> None:
    size = len(response.content or b"")
    assert size <= MAX_ANSWER + 4096, f"{case.operation.label}: an answer of {size:,} bytes past the cap {MAX_ANSWER:,}"
    took = time.monotonic() - started
    assert took <= TIME_LIMIT + MARGIN, f"{case.operation.label}: {took:.1f} s past a {TIME_LIMIT} s time limit"
    server = _SERVER[0]
    grown = server.peak() - server.start
    assert grown <= GROWTH, f"the server's peak memory grew {grown / 2**20:.0f} MiB over the run ({case.operation.label})"


FORM = {"/v1/problems/not-json", "/v1/problems/not-a-request", "/v1/problems/invalid-params"}
"""The problems that refuse a request for its form: a request the document calls valid never gets one."""


@schemathesis.check
def well_formed_is_never_refused_for_its_form(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis's own acceptance check expects every schema-valid request to succeed; a valid
    request may still name a card the data lacks or a decision that is not legal (bad input,
    422): what it may never get is a refusal of its form."""
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code < 400:
        return None
    kind = (response.json() if response.content else {}).get("type")
    if kind in FORM:
        raise AssertionError(f"a request the document calls valid was refused for its form: {response.text[:300]}")
    return None


@schemathesis.check
def no_internal_error(ctx: Any, response: Any, case: Any) -> bool | None:
    """Schemathesis's server-error check flags every 5xx; this server answers 504 when a request's
    own time limit runs out (docs/server.md: a time limit is an answer, not a failure). What it may
    never answer is an internal error, nor a 5xx of any other problem type."""
    if response.status_code >= 500:
        kind = (response.json() if response.content else {}).get("type")
        if response.status_code != 504 or kind != "/v1/problems/time-limit":
            raise AssertionError(f"a server error: {response.status_code} {response.text[:300]}")
    return None


EXCLUDED = [positive_data_acceptance, not_a_server_error]
"""Schemathesis's checks replaced by this file's sharper ones (their docstrings say how)."""
OURS = [well_formed_is_never_refused_for_its_form, no_internal_error]


@pytest.mark.parametrize("label", OPERATIONS)
def test_every_operation_answers_within_its_document_and_bounds(label: str, server: _Server) -> None:
    operation = _DOCUMENT.find_operation_by_label(label)

    @settings(max_examples=EXAMPLES or 12, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(case=operation.as_strategy())
    def attack(case: Any) -> None:
        started = time.monotonic()
        response = case.call(base_url=server.url, timeout=TIME_LIMIT + MARGIN)
        case.validate_response(response, excluded_checks=EXCLUDED, additional_checks=OURS)
        _fits(case, started, response)

    attack()


@pytest.mark.slow
def test_load_then_ask_by_handle_then_unload_as_a_client_following_the_links(server: _Server) -> None:
    """Stateful: Schemathesis follows the document's links from load's handle to every operation
    that takes one (count, check, the step methods …, unload), with the same checks."""
    base = schemathesis.openapi.from_url(server.url + "/v1/openapi.json").as_state_machine()

    class Machine(base):  # type: ignore[misc,valid-type]
        def validate_response(self, response: Any, case: Any, additional_checks: Any = None, **kwargs: Any) -> None:
            started = time.monotonic()
            case.validate_response(
                response, excluded_checks=EXCLUDED, additional_checks=OURS, transport_kwargs=kwargs or None
            )
            _fits(case, started, response)

    run = Machine.TestCase
    run.settings = settings(
        max_examples=EXAMPLES or 15,
        stateful_step_count=6,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        database=None,
    )
    run().runTest()
