"""What a page shows when its own code fails: one sentence and a way on, never a traceback.

Streamlit shows an uncaught exception as a red box that replaces the rest of the page
(with ``showErrorDetails = "none"``: "This app has encountered an error"), and the
session stays in the state that caused it. Here Streamlit is given a handler for every
failure (:func:`guard`): Streamlit logs the trace on the server, the page says in one
sentence that something went wrong, and offers to reset the settings, keeping the
corpus (the sample, the pasted text, the uploaded file) and the page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.runtime import fragment
from streamlit.runtime.scriptrunner import exec_code
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

import bpeviz.ui.state as state

log = logging.getLogger("bpeviz.ui")

#: what "Reset the settings" keeps: the corpus, and where the user is
KEPT = frozenset({"source", "sample", "paste", "upload", "langs", "text", "text_edited", "present",
                  "bytes"})
#: where the session keeps this run's place for the message, at the top of the page
SLOT = "_failure_slot"


def reset_settings() -> None:
    """Put every setting but the corpus back to its default (the button's callback)."""
    ss = st.session_state
    for name, setting in state.SETTINGS.items():
        if name not in KEPT:
            ss[name] = setting.default
    for key in list(ss.keys()):
        # widgets are given the settings' values again when next drawn
        if isinstance(key, str) and key.startswith(("w_", "stage", "step_box_")):
            del ss[key]
    for key in ("_seen", "_shape", "_drawn_in", "_widget_page", "_spec"):
        ss.pop(key, None)
    state.ss["_notes"] = ["Settings were reset to their defaults; the corpus was kept."]


def _show(error: Exception) -> bool:
    """Streamlit's ``on_script_error`` handler: say it, offer a way on (Streamlit has
    logged the trace)."""
    log.error("a page failed and says so (trace above): %s: %s", type(error).__name__, error)
    try:
        ctx = get_script_run_ctx(suppress_warning=True)
        # the slot of this run (a run starts with a new ``cursors`` dict); a callback
        # fails before the page has drawn anything, so its message is at the top anyway
        run, slot = st.session_state.get(SLOT, (None, None))
        box = slot.container() if ctx is not None and run is ctx.cursors else st.container()
        with box:
            st.error(f"Something went wrong on this page ({type(error).__name__}): a bug in "
                     "bpeviz, not in your input. Your corpus is kept; resetting the "
                     "settings usually gets the page back. The details are in the "
                     "server log.", icon="🐞")
            st.button("Reset the settings (keep the corpus)", key="reset_after_error",
                      on_click=reset_settings, type="primary")
    except Exception:  # drawing the message failed too: Streamlit's own box then
        log.exception("could not show the failure")
        return False
    return True


def _with_our_handler(original: Callable[..., None]) -> Callable[..., None]:
    def handle(error: Exception, on_script_error: Any = None) -> None:
        original(error, on_script_error or _show)
    handle.bpeviz = True  # type: ignore[attr-defined]
    return handle


def guard() -> None:
    """Mark this run's place for a failure's message (the top of the page), and make sure
    a failure anywhere in a run (the page, a widget's callback, a fragment) reaches
    :func:`_show`.

    Streamlit passes each failure to ``handle_user_script_exception`` with the run's
    ``on_script_error`` handler; a run's context is made anew for each run, after the
    callbacks ran, so the handler is given where Streamlit calls that function (its
    script runner and its fragments, Streamlit 1.67). If those places change, Streamlit's
    own error box shows instead, and
    tests/app/test_settings_that_no_longer_fit_never_break_a_page.py fails.
    """
    for module in (exec_code, fragment):
        current = getattr(module, "handle_user_script_exception", None)
        if current is not None and not getattr(current, "bpeviz", False):
            module.handle_user_script_exception = _with_our_handler(current)
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is not None:
        st.session_state[SLOT] = (ctx.cursors, st.empty())
