"""The "Download offline slides" button: one HTML file that plays a training's steps
anywhere, without Python or a network (:func:`bpeviz.present.slides.slides_html`), made
at the page's step and in its theme."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bpeviz.present.slides import VIEW_STEPS, slides_html
from bpeviz.ui import state

#: the longest Tokenize text the slides carry
SLIDES_TEXT = 2_000


def page_theme() -> str | None:
    """The theme on screen: "light" or "dark" (Streamlit's reading of the page, else the
    ``embed_options`` theme the link forces), or None when neither says."""
    kind = st.context.theme.type
    if kind in ("light", "dark"):
        return kind
    forced = [o for o in st.query_params.get_all("embed_options")
              if o in ("light_theme", "dark_theme")]
    return forced[-1].removesuffix("_theme") if forced else None


def slides_button(ctx: Any, step: int) -> None:
    """The button, for the training of the page's context ``ctx`` at ``step``."""
    training, byte_style = ctx.training, ctx.byte_style
    text = state.get("text") or ctx.try_text
    name, theme = ctx.corpus_name, page_theme()
    unit = ctx.alg.step if ctx.alg.step_views == "" else "step"
    held = ("" if ctx.alg.step_views == "" else
            f" It holds the card and “Why this step?” of {VIEW_STEPS:,} steps around "
            "this one at most.")
    st.download_button(
        # "bv_at_step": a click before Python has heard the bar's step waits for it
        # (the stage script, sync.mjs), so the slides open at the step on screen
        "Download offline slides", key="bv_at_step_slides",
        data=lambda: slides_html(training, text=text[:SLIDES_TEXT] or None, words=12,
                                 byte_style=byte_style, title=name, step=step,
                                 theme=theme),
        file_name="bpeviz-slides.html", mime="text/html", on_click="ignore",
        help=f"One HTML file that plays these {unit}s with the same keys: the card, the "
             "splits of the 12 most frequent words and the Tokenize text (its first "
             f"{SLIDES_TEXT:,} characters) at every step. It opens at this step, in "
             f"this theme, and needs no Python and no network: open it on any laptop.{held}")
