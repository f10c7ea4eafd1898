"""The step controls of pages whose step Python owns (Vocabulary, Tokenize): previous,
slider, next and a number box for a step setting. Explore's step bar, which steps and
plays in the browser, is :mod:`bpeviz.ui.stage`.
"""

from __future__ import annotations

import streamlit as st

import bpeviz.ui.state as state
from bpeviz.core.training import Training
from bpeviz.present.render import md_escape
from bpeviz.ui.state import bound, get, put


def _shift_step(name: str, delta: int, last: int) -> None:
    put(name, min(max(int(get(name)) + delta, 0), last))


def step_controls(training: Training, *, name: str = "step", number_box: bool = True) -> int:
    """Previous / slider / next (and a number box) for the step setting ``name``.

    The default setting, ``"step"``, is shared by every page and kept in the URL.
    """
    last = len(training.merges)
    step = state.clamp(name, 0, last)
    if last == 0:
        if name == "step":
            state.set_url_step(0)  # the link names the step shown, even with no merge
        st.info(md_escape(f"No merges were made. {training.stop_message}"))
        return 0
    cols = st.columns([1, 10, 1, 2] if number_box else [1, 12, 1], vertical_alignment="bottom")
    with cols[0]:
        st.button("◀", key=f"prev_{name}", help="Previous merge", on_click=_shift_step,
                  args=(name, -1, last), disabled=step <= 0, width="stretch")
    with cols[1]:
        bound(st.slider, "Merge step", name, min_value=0, max_value=last)
    with cols[2]:
        st.button("▶", key=f"next_{name}", help="Next merge", on_click=_shift_step,
                  args=(name, 1, last), disabled=step >= last, width="stretch")
    if number_box:
        with cols[3]:
            # a fresh box for every step: nothing writes into it, and its callback takes
            # only a value other than the one it was drawn with (state.box_to)
            st.number_input("Step", min_value=0, max_value=last, value=step,
                            key=f"{name}_box_{step}", on_change=state.box_to,
                            args=(f"{name}_box_{step}", name, step))
    step = int(get(name))
    if name == "step":
        state.set_url_step(step)
    return step
