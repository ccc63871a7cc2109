"""``triggerstack serve --stdio``: one JSON-RPC request per line in, one response per line out.

Requests are answered in order, each flushed as it is written. A line over ``limits.bytes`` is
answered with an error without being read into memory; so is a line that is not UTF-8 or not
JSON. Nothing a request holds ends the server: end of input does (exit 0).
"""

from __future__ import annotations

from typing import IO

from triggerstack.model._errors import ScenarioError
from triggerstack.model._io import iter_lines

from .._errors import KINDS, RequestError, failure
from .._options import Options
from ._rpc import Service, error_line


def serve(stdin: IO[bytes], stdout: IO[bytes], options: Options | None = None) -> None:
    """Answer every request line of ``stdin`` on ``stdout`` until end of input."""
    service = Service(options)
    for _, line in iter_lines(stdin, service.options.limits):  # blank lines are skipped there
        if isinstance(line, ScenarioError):  # a line over --max-bytes: not a request it reads (-32700)
            answer: list[bytes] | None = [error_line(failure(RequestError(KINDS.TOO_LARGE, line.one_line()))).encode()]
        else:
            answer = service.respond(line)  # written within --max-answer as it was built (model/_answer.py)
        if answer is not None:
            stdout.writelines([*answer, b"\n"])
            stdout.flush()

