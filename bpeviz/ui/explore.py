"""The Explore page's callbacks for a chosen pair (the heatmap's click, Pair details), and
the pair heatmap itself, which a merge training's Explore and PickyBPE's both draw.

Defined here, not in the page: a callback defined in a page holds that page run's
globals, its training among them, for as long as Streamlit keeps the callback.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

import streamlit as st

import bpeviz.ui.stage as stage
from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis import views
from bpeviz.core.limits import LIMITS
from bpeviz.present.render_heatmap import (
    HEATMAP_SYMBOLS_PRESENTATION,
    heatmap_caption,
    heatmap_data,
)
from bpeviz.ui.state import bound, get, put


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


def heatmap_panel(training, algorithm: str, byte_style: str, presentation: bool,
                  picked: tuple[int, int] | None, picked_step: int | None,
                  caption: Callable[[int, views.PairGrid], str] | None = None,
                  empty: str = "No pair of symbols is left at step {step}: every word is "
                               "a single token.") -> None:
    """The "Symbols per axis" slider and the heatmap of the best pairs at the bar's step,
    drawn by the browser from the steps around it (a stage panel: it follows the card
    in the frame after the key); the pair ``picked`` at ``picked_step`` ringed in blue
    there, the pair merged next in red; a click on a cell picks its pair at the step
    shown. Under it ``caption(k, grid)`` (by default what
    :func:`bpeviz.present.render_heatmap.heatmap_caption` says), or ``empty`` at a step with no
    pair (its "{step}" filled)."""
    top_n = bound(st.slider, "Symbols per axis (top pairs)", "top_n", min_value=2,
                  max_value=LIMITS.heatmap_symbols)
    if presentation and top_n > HEATMAP_SYMBOLS_PRESENTATION:
        top_n = HEATMAP_SYMBOLS_PRESENTATION
        st.caption(f"Presentation mode draws at most {top_n} symbols per axis, so the "
                   "whole chart fits a projector's screen; leave presentation mode for more.")
    value = get_algorithm(algorithm).value_name()

    def render(k: int) -> list:
        snap = training.at(k)
        grid = views.pair_grid(snap, top_n)
        if not grid.total_pairs:
            return [["p", {"class": "bv-hm-caption"}, empty.format(step=k)]]
        # Pair details shows the pair picked at its step, the step's top pair elsewhere
        top = (int(snap.pairs["left_id"].iat[0]), int(snap.pairs["right_id"].iat[0]))
        ring = picked if picked is not None and k == picked_step else top
        return [{"heatmap": heatmap_data(grid, value, byte_style, ring, presentation)},
                ["p", {"class": "bv-hm-caption"},
                 caption(k, grid) if caption is not None else
                 heatmap_caption(grid, value, snap.next_merge is None, step=k)]]

    stage.panel(training, "heatmap", (top_n, byte_style, presentation, picked, picked_step,
                                      value, caption is None), render,
                waiting="Step {step}: its pairs follow when the step settles.",
                on_pick=pick_cell, costly=True)


def pick_cell(what: str, step: int | None) -> None:
    """A heatmap cell clicked in the browser (``what``: "left_id,right_id") at ``step``."""
    try:
        left, right = (int(v) for v in what.split(","))
    except ValueError:
        return
    put("pair", (left, right))
    put("pair_step", int(get("step")) if step is None else step)


