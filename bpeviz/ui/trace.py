"""What Python did for each session's step bar, one line per event on stderr, when
``BPEVIZ_TRACE`` is set (the concurrency browser test sets it for its server, and its
failure message shows the lines of a session that went wrong, next to the browser's own
log of the bar). Off, it costs one check per call.

A line: ``bpeviz-trace <seconds> <session> <event> key=value ...``; the session is the
first 8 characters of Streamlit's session id, which the bar also gets as ``data.sid``.
"""

from __future__ import annotations

import os
import sys
import time

PREFIX = "bpeviz-trace"


def on() -> bool:
    return bool(os.environ.get("BPEVIZ_TRACE"))


def session() -> str:
    """The short id of the session whose script runs now ("-" outside a run)."""
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    ctx = get_script_run_ctx(suppress_warning=True)
    # one word, so that a line splits into its fields (AppTest's id is "test session")
    return "".join(ctx.session_id[:8].split()) or "-" if ctx is not None else "-"


def event(name: str, **fields: object) -> None:
    if not on():
        return
    rest = " ".join(f"{k}={v}" for k, v in fields.items())
    print(f"{PREFIX} {time.monotonic():.3f} {session()} {name} {rest}", file=sys.stderr,
          flush=True)


def lines(log: str, sid: str | None = None, name: str | None = None) -> list[str]:
    """The trace lines in a server's log: of session ``sid`` and of event ``name`` when
    they are given."""
    kept = []
    for line in log.splitlines():
        parts = line.split(" ", 4)  # prefix, seconds, session, event, fields
        if (parts[0] == PREFIX and len(parts) >= 4 and sid in (None, parts[2])
                and name in (None, parts[3])):
            kept.append(line)
    return kept


def events(log: str, names: tuple[str, ...], after: int = 0) -> list[str]:
    """The names of the events among ``names`` in a server's log, in order, from its
    ``after``-th trace line on."""
    return [event for line in lines(log)[after:]
            if (event := line.split(" ", 4)[3]) in names]
