"""The theme in links: a zero-size component (components v2, ``stepper/theme_link.js``)
that keeps ``embed_options=dark_theme`` or ``light_theme`` in the address bar, matching
the theme on screen. Streamlit applies that option when a page loads (embedded or not;
it also keeps the sidebar and toolbar), so a link copied from a dark projector opens
dark. Streamlit has no per-session theme setting outside this option (1.67: the theme
menu's choice lives in the browser's local storage), and ``st.query_params`` may not set
it, hence the browser side.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

JS = (Path(__file__).resolve().parent / "stepper" / "theme_link.js").read_text(encoding="utf-8")
NAME = "bpeviz_theme_link"


def keep_theme_in_link() -> None:
    """Mount the theme keeper (once per page run; it draws nothing)."""
    st.components.v2.component(NAME, js=JS, isolate_styles=False)(key="bv_theme_link",
                                                                    data={})
