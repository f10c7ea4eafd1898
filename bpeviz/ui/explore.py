"""The Explore page's callbacks for a chosen pair (the heatmap's click, Pair details).

Defined here, not in the page: a callback defined in a page holds that page run's
globals, its training among them, for as long as Streamlit keeps the callback.
"""

from __future__ import annotations

import zlib

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


def pair_box_key(step: int, drawn: tuple[int, int], options: tuple = ()) -> str:
    """The Pair details box's key at ``step``, drawn showing ``drawn`` among ``options``:
    one box per step and per what it offers, so that a box is never given a new value by
    the app, only by the user. Another training at the same step (another algorithm,
    corpus or vocabulary) draws another box: a value kept from the old one may name ids
    the new vocabulary does not have."""
    ints = [(int(a), int(b)) for a, b in (drawn, *options)]  # numpy's ints print apart
    digest = zlib.crc32(repr(ints).encode())
    return f"w_pair_{int(step)}_{digest:08x}"


def pair_boxed(step: int, drawn: tuple[int, int], options: tuple = ()) -> None:
    """The Pair details box's callback (the box drawn at ``step`` showing ``drawn``,
    among ``options``).

    Only a value other than the one it was drawn with is a choice: a request the browser
    sent before it had the last run's reply carries the box it still shows, and Streamlit
    may count its unchanged value as a change (as for the step boxes, state.box_to). So a
    step passed while Play ran never became a picked pair (and a history entry).

    Only one of the drawn options is a choice too: a request crossing a change of
    training (another algorithm, the same step) carries a label this box's options do
    not hold, and Streamlit hands the label itself to the callback."""
    value = st.session_state.get(pair_box_key(step, drawn, options))
    if not isinstance(value, tuple) or value == tuple(drawn) or value not in options:
        return
    put("pair", (int(value[0]), int(value[1])))
    put("pair_step", int(step))
