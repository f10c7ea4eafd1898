"""The Explore page's callbacks for a chosen pair (the heatmap's click, Pair details).

Defined here, not in the page: a callback defined in a page holds that page run's
globals, its training among them, for as long as Streamlit keeps the callback.
"""

from __future__ import annotations

import streamlit as st

from bpeviz.ui.state import get, put


def pick_heatmap_pair() -> None:
    """The Explore heatmap's ``on_select``: the clicked cell's pair becomes ``pair``."""
    event = st.session_state.get("heatmap")
    points = (event or {}).get("selection", {}).get("points", []) if event else []
    for point in points:
        data = point.get("customdata")
        if data and len(data) >= 2:
            put("pair", (int(data[0]), int(data[1])))
            pair_chosen()
            return


def pair_chosen() -> None:
    """A pair picked by the user (heatmap or Pair details) belongs to the step it was
    picked at; at any other step Explore shows the pair merged next."""
    put("pair_step", int(get("step")))
