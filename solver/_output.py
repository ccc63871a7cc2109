"""What the command line writes on standard output: text with every unsafe code point escaped
(what a scenario or proposal says can't steer the terminal), and the streams of ``enumerate`` and
``sample``, one answer held to ``--max-answer`` as a whole."""

from __future__ import annotations

import errno
import math
import sys
from bisect import bisect_right
from collections.abc import Iterator
from itertools import accumulate, islice

from triggerstack.model._answer import too_large
from triggerstack.model._text import visible_lines

from ._errors import OutputFailed


def write(text: str, flush: bool = False, json_lines: bool = False) -> None:
    """Write ``text`` with every unsafe code point escaped (what a scenario or proposal says can't
    steer the terminal). ``json_lines``: lines ``json.dumps`` wrote with ``ensure_ascii`` — every
    control character and everything past ASCII is escaped already, so only DEL can show raw, and
    one ``in`` finds it (a megabyte of enumerate's lines: 2 µs instead of 0.9 ms)."""
    if sys.stdout is None:  # started with standard output closed
        raise _stdout_failed(OSError(errno.EBADF, "standard output is closed"))
    try:
        if text:
            safe = json_lines and "\x7f" not in text
            sys.stdout.write(text if safe else visible_lines(text))
        if flush:
            sys.stdout.flush()
    except OSError as exc:
        raise _stdout_failed(exc) from None


def _stdout_failed(exc: OSError) -> OutputFailed:
    """Standard output could not be written (closed, full, or the reader went away): an
    :class:`OutputFailed` with no errno, which says it was standard output."""
    return OutputFailed(exc.strerror or str(exc))


def stream(lines: Iterator[str], cap: int | None) -> None:
    """Write a verb's lines of canonical JSON (``enumerate``, ``sample``) as they come, in chunks;
    the first is computed before anything is written, so an error found while starting leaves
    standard output empty. With ``--max-answer`` given (``cap``), the stream is one answer held to
    it as a whole (as the server's ``/v1/enumerate/lines``): the lines that fit are written, whole,
    and the next one is refused (exit 2, the cap's words), never a partial answer passed off as
    whole. Without it, ``--limit``/``-n`` and the time limit bound it: it is written as it comes,
    in constant memory (a million outcomes are 16 MiB past the default cap)."""
    left = math.inf if cap is None else cap
    while chunk := list(islice(lines, 2048)):  # taken in C: a line costs no Python step here
        size = sum(map(len, chunk)) + len(chunk)  # ASCII (json.dumps' ensure_ascii): a character a byte
        if size > left:
            fits = list(accumulate(len(line) + 1 for line in chunk))
            chunk = chunk[: bisect_right(fits, left)]
            if chunk:
                write("\n".join([*chunk, ""]), flush=True, json_lines=True)
            raise too_large(int(cap or 0), "ask for fewer outcomes: --limit, -n")
        left -= size
        chunk.append("")
        write("\n".join(chunk), flush=True, json_lines=True)
    write("", flush=True)
