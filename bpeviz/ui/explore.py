"""The Explore page's callbacks for a chosen pair (the heatmap's click, Pair details), and
the pair heatmap itself, which a merge training's Explore and PickyBPE's both draw.

Defined here, not in the page: a callback defined in a page holds that page run's
globals, its training among them, for as long as Streamlit keeps the callback.
"""

from __future__ import annotations

import zlib

import streamlit as st

from bpeviz.analysis import views
from bpeviz.core.limits import LIMITS
from bpeviz.present import figures
from bpeviz.ui.state import bound, forget_replaced_widgets, get, put


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


def heatmap_panel(training, algorithm: str, byte_style: str, presentation: bool,
                  picked: tuple[int, int] | None, picked_step: int | None) -> None:
    """The "Symbols per axis" slider and the heatmap of the best pairs at the bar's step,
    drawn by the browser from the steps around it (a stage panel: it follows the card
    in the same frame); the pair ``picked`` at ``picked_step`` ringed in blue there, the
    pair merged next elsewhere; a click on a cell picks its pair at the step shown."""
    from bpeviz.algorithms import get as get_algorithm
    from bpeviz.present.render_heatmap import heatmap_data
    from bpeviz.ui import stage

    top_n = bound(st.slider, "Symbols per axis (top pairs)", "top_n", min_value=2,
                  max_value=LIMITS.heatmap_symbols)
    if presentation and top_n > figures.HEATMAP_SYMBOLS_PRESENTATION:
        top_n = figures.HEATMAP_SYMBOLS_PRESENTATION
        st.caption(f"Presentation mode draws at most {top_n} symbols per axis, so the "
                   "whole chart fits a projector's screen; leave presentation mode for more.")
    value = get_algorithm(algorithm).value_name()
    cell = figures.heatmap_cell(top_n, presentation)

    def render(k: int) -> list:
        snap = training.at(k)
        grid = views.pair_grid(snap, top_n)
        if not grid.total_pairs:
            return [["p", {"class": "bv-hm-caption"}, f"No pair of symbols is left at step "
                     f"{k}: every word is a single token."]]
        ring = picked if k == picked_step else (grid.rows[0], grid.cols[0])
        caption = figures.heatmap_caption(grid, value, snap.next_merge is None, step=k)
        return [{"heatmap": heatmap_data(grid, value, byte_style, ring, cell)},
                ["p", {"class": "bv-hm-caption"}, caption]]

    stage.panel(training, "heatmap", (top_n, byte_style, presentation, picked, picked_step,
                                      value), render,
                waiting="Step {step}: its pairs follow when the step settles.",
                on_pick=pick_cell)


def pick_cell(what: str, step: int | None) -> None:
    """A heatmap cell clicked in the browser (``what``: "left_id,right_id") at ``step``."""
    try:
        left, right = (int(v) for v in what.split(","))
    except ValueError:
        return
    put("pair", (left, right))
    put("pair_step", int(get("step")) if step is None else step)


def heatmap_chart(snap, algorithm: str, byte_style: str, presentation: bool,
                  selected: tuple[int, int]) -> views.PairGrid:
    """The "Symbols per axis" slider and the heatmap of ``snap``'s best pairs (at most
    :data:`figures.HEATMAP_SYMBOLS_PRESENTATION` a side in presentation mode, which says
    so), ``selected`` ringed in blue; a click picks a pair (:func:`pick_heatmap_pair`).
    Returns the grid drawn, for the caption."""
    top_n = bound(st.slider, "Symbols per axis (top pairs)", "top_n", min_value=2,
                  max_value=LIMITS.heatmap_symbols)
    if presentation and top_n > figures.HEATMAP_SYMBOLS_PRESENTATION:
        top_n = figures.HEATMAP_SYMBOLS_PRESENTATION
        st.caption(f"Presentation mode draws at most {top_n} symbols per axis, so the "
                   "whole chart fits a projector's screen; leave presentation mode for more.")
    grid = views.pair_grid(snap, top_n)
    fig = figures.heatmap_figure(grid, algorithm, byte_style, selected=selected,
                                presentation=presentation)
    forget_replaced_widgets()  # (a new figure is a new widget id: drop the old ones)
    st.plotly_chart(fig, key="heatmap", on_select=pick_heatmap_pair, selection_mode="points",
                    width="content",
                    config={"displaylogo": False, "typesetMath": False,
                            "modeBarButtonsToRemove": ["select2d", "lasso2d"]})
    return grid
