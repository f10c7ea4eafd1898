"""What the user pasted survives a reload of the tab (never through the URL).

A reload starts a new Streamlit session with an empty paste box. A zero-size component
(components v2, ``stepper/paste_keeper.js``) keeps the box's text in the tab's
``sessionStorage`` as it is typed, and when a session's box is empty, gives it back once
per page load; Python then puts it into the box. Texts past the browser's storage quota
(a few million characters) are not kept.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bpeviz.ui.state import get, put

JS = (Path(__file__).resolve().parent / "stepper" / "paste_keeper.js").read_text(
    encoding="utf-8")
NAME = "bpeviz_paste_keeper"
KEY = "bv_paste_keeper"


def _restore() -> None:
    """The browser gave back the text of this tab's box: use it if the box is empty."""
    text = (st.session_state.get(KEY) or {}).get("restore")
    if isinstance(text, str) and text and not get("paste"):
        put("paste", text)


def keep_paste() -> None:
    """Mount the keeper beside the paste box (it draws nothing)."""
    st.components.v2.component(NAME, js=JS, isolate_styles=False)(
        key=KEY, data={"has": bool(get("paste"))}, on_restore_change=_restore)
