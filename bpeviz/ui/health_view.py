"""Vocabulary's Health view: what is wrong with the vocabulary at the step (or Unigram
round), from :mod:`bpeviz.analysis.health`: one summary line per kind, the kinds as a
choice, the chosen kind's tokens each with its reason, and the unused tokens against the
step with the current one marked.

The page lays it out: ``if health_view.chosen(): health_view.draw(ctx)``. The health of
a step and the unused curve are computed once per training (kept on the training, as
snapshots are: :class:`~bpeviz.text.owned.OwnedCache`). A tokenizer file holds no corpus:
its unused tokens are counted only when it is replayed on the sidebar's corpus (the
toggle above the view), and the view says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health import KINDS, Health, health, unused_by_step
from bpeviz.core.training import Training
from bpeviz.present.render import esc, md_escape
from bpeviz.text import display
from bpeviz.text.owned import OwnedCache
from bpeviz.ui import stage
from bpeviz.ui.messages import error
from bpeviz.ui.page_setup import views_of
from bpeviz.ui.state import bound, get, put
from bpeviz.ui.tokenizer_file import imported
from bpeviz.ui.training import snapshot
from bpeviz.ui.unigram import round_controls

#: the health of the last few steps of each training, and its unused curve
_HEALTH: OwnedCache[Health] = OwnedCache("health", keep=4)
_UNUSED: OwnedCache[Any] = OwnedCache("unused_by_step", keep=1)

KIND_LABELS = {"unreachable": "Unreachable", "unused": "Unused",
               "near_duplicates": "Near-duplicates", "partial": "Partial characters"}
KIND_HELP = {
    "unreachable": "Tokens that encoding their own text never yields: the merge order, the "
                   "pre-tokenizer or the normalizer make them impossible.",
    "unused": "Merged tokens that encoding the corpus at this step never produces: "
              "absorbed (every use merged into longer tokens) or never used.",
    "near_duplicates": "Tokens that differ only by case, a word mark (a leading space, ▁, "
                       "##, the end-of-word marker) or Unicode normalization (NFKC).",
    "partial": "Byte-level tokens that end inside a UTF-8 character and never complete on "
               "the corpus.",
}
COLUMN_HELP = {"reason": "Why the token is listed, as the engine found it",
               "kind": "absorbed: used when made, then every use merged into longer "
                       "tokens; never used: never produced on the corpus",
               "made_at": "The step that made the token",
               "group": "Tokens in one group differ only by case, a word mark or NFKC"}
VIEWS = {"tokens": "Tokens", "health": "Health"}


def chosen() -> bool:
    """The page's view choice (Tokens or Health); True when Health is chosen."""
    return bound(st.segmented_control, "View", "vocab_view", list(VIEWS), required=True,
                 format_func=VIEWS.get, help="Tokens: every token of the step with its "
                 "merge tree. Health: the tokens that are unreachable, unused, "
                 "near-duplicates or partial characters, each with its reason.") == "health"


def draw(ctx: Any) -> None:
    """The Health view of the page's training, or of the opened tokenizer file."""
    st.subheader("Vocabulary health")  # under the page's title and its view choice
    own = views_of(ctx.algorithm)
    if getattr(own, "HEALTH", None) is not None:  # its views' own checks (PickyBPE's)
        own.HEALTH(ctx)  # type: ignore[union-attr]
        return
    training, setting, about = ctx.training, "step", ctx.corpus_name
    current = imported()
    if current is None and get("tok_source") == "imported":
        put("tok_source", "training")
    if current is not None and not get("replay"):
        # the tokenizer Tokenize cuts with (the same setting): the training or the file
        names, opened = current
        of = bound(st.radio, "Tokenizer", "tok_source", ["training", "imported"],
                   horizontal=True, format_func={
                       "training": "the training in the sidebar",
                       "imported": md_escape(f"the opened file ({names})")}.get)
        if of == "imported":
            training, setting, about = opened, "imp_step", f"the opened file {names}"
    st.caption(md_escape(f"What is wrong with the vocabulary of {about}: tokens encoding "
                         "never yields, tokens the corpus never uses, near-duplicates and "
                         "partial characters, each with the reason found."))
    view(training, setting, ctx.byte_style, ctx.presentation)


@st.fragment
def view(training: Any, setting: str, byte_style: str, strong: bool) -> None:
    """The step bar, the summary, the kind's table and the unused curve (redrawn alone
    when the step moves)."""
    if isinstance(training, Training):
        step = stage.controls(training, setting=setting, empty_note=True)
        at, unit = snapshot(training, step), "step"
    elif get_algorithm(training.algorithm).step_kind != "prune":  # events (PickyBPE's)
        step = stage.controls(training, setting=setting)
        at, unit = training.at(step), "step"
    else:  # pruning rounds (Unigram): health reads a round as it reads a step
        step = round_controls(training)
        at, unit = training.at(step), "round"
    try:
        with st.spinner(f"Checking the vocabulary at {unit} {step}…"):
            found = _HEALTH.get(training, step, lambda: health(at))
    except ValueError as err:
        error(f"The health of this vocabulary cannot be read: {err}")
        return
    summary(found, strong)
    kind = bound(st.segmented_control, "Kind", "health_kind", list(KINDS), required=True,
                 format_func=lambda k: f"{KIND_LABELS[k]} ({len(found.table(k)):,})",
                 help=" ".join(f"{KIND_LABELS[k]}: {KIND_HELP[k]}" for k in KINDS))
    table(found, kind, training, byte_style)
    curve(training, step, unit, strong)


def summary(found: Health, strong: bool = False) -> None:
    """The engine's summary: one metric per kind (on a projector two rows of two, so that
    every label is read whole: "Partial characters"), its sentence below."""
    cols = [c for _ in range(2) for c in st.columns(2)] if strong else st.columns(len(KINDS))
    for col, kind, line in zip(cols, KINDS, found.summary):
        col.metric(KIND_LABELS[kind], f"{len(found.table(kind)):,}", help=md_escape(line),
                   border=True)
    st.markdown("\n".join(f"- {md_escape(line)}" for line in found.summary))


def shown_frame(found: Health, kind: str, training: Any, byte_style: str) -> pd.DataFrame:
    """The kind's table as the page shows it: each token drawn as the other pages draw
    it (marks, bytes), the engine's reason beside it."""
    frame = found.table(kind).copy()
    vocab = getattr(training, "vocab", None)
    if isinstance(training, Training) and vocab is not None:
        frame["token"] = [display.label(vocab[i], byte_style) for i in frame["id"]]
    else:
        frame["token"] = [display.label(t, byte_style) for t in frame["token"]]
    return frame


def table(found: Health, kind: str, training: Any, byte_style: str) -> None:
    frame = shown_frame(found, kind, training, byte_style)
    if frame.empty:
        st.info(md_escape(f"No {KIND_LABELS[kind].lower()} token at this step. "
                          f"{KIND_HELP[kind]}"))
        if kind == "unused" and not found.corpus:
            st.caption("A tokenizer file holds no corpus: turn on “Explore the opened "
                       "tokenizer's merges on this corpus” above to count its unused "
                       "tokens on the sidebar's corpus.")
        return
    # a short table as tall as its rows, a long one scrolls
    height = min(360, 35 * (len(frame) + 1) + 3)
    picked = st.dataframe(
        frame, hide_index=True, width="stretch", height=height, key="health_table",
        on_select="rerun", selection_mode="single-row", column_config={
            "id": st.column_config.NumberColumn("id", format="%d", width=60),
            "token": st.column_config.TextColumn("token", width="small"),
            "reason": st.column_config.TextColumn("reason", width="large",
                                                  help=COLUMN_HELP["reason"]),
            "kind": st.column_config.TextColumn("kind", width="small",
                                                help=COLUMN_HELP["kind"]),
            "made_at": st.column_config.NumberColumn(
                "made at step", format="%d", width="small", help=COLUMN_HELP["made_at"]),
            "group": st.column_config.TextColumn("group", width="small",
                                                 help=COLUMN_HELP["group"]),
        })
    rows = list(getattr(getattr(picked, "selection", None), "rows", None) or [])
    row = frame.iloc[rows[0] if rows and rows[0] < len(frame) else 0]
    # a reason is a sentence: the table cuts it at the column's edge, so the chosen row's
    # is written out in full below it
    st.html(full_reason_html(str(row["token"]), int(row["id"]), str(row["reason"])))
    st.caption(md_escape(f"{KIND_LABELS[kind]}: {len(frame):,} token"
                         f"{'' if len(frame) == 1 else 's'}. {KIND_HELP[kind]} Pick a row "
                         "to read its reason in full above."))


def full_reason_html(token: str, token_id: int, reason: str) -> str:
    """One row's token and reason in full, wrapped (every text escaped)."""
    return (f'<div class="bv-health-reason" dir="auto" style="border-left:4px solid '
            f'rgba(128,128,128,.6);padding:.35rem .8rem;margin:.2rem 0 .4rem">'
            f'<strong><bdi>{esc(token)}</bdi></strong> <span class="bv-muted">(id '
            f'{token_id:,})</span>: <bdi>{esc(reason)}</bdi></div>')


def unused_curve(training: Any) -> pd.Series | None:
    """:func:`~bpeviz.analysis.health.unused_by_step` of the training, kept on it; None
    when it holds no corpus to count on (a tokenizer file)."""
    def make() -> Any:
        try:
            return unused_by_step(training)
        except ValueError:
            return None
    return _UNUSED.get(training, "own corpus", make)


def curve(training: Any, step: int, unit: str, strong: bool) -> None:
    st.markdown(f"**Unused tokens by {unit}**")
    series = unused_curve(training)
    if series is None:
        st.info("Unused tokens need a corpus, and a tokenizer file holds none: turn on "
                "“Explore the opened tokenizer's merges on this corpus” above to count "
                "them on the sidebar's corpus.")
        return
    st.plotly_chart(unused_figure(series, step, unit, strong),
                    config={"displaylogo": False, "typesetMath": False}, key="chart_unused")
    st.caption(f"How many of the tokens made so far the corpus never uses after each {unit} "
               f"(the dotted line: this {unit}). A token is absorbed when every use of it "
               "was merged into longer tokens.")


def unused_figure(series: pd.Series, step: int, unit: str, strong: bool) -> go.Figure:
    fig = go.Figure(go.Scatter(
        x=np.asarray(series.index, dtype=np.int64), y=np.asarray(series, dtype=np.int64),
        mode="lines", name="unused tokens",
        hovertemplate=f"{unit} %{{x}}: %{{y:,}} unused<extra></extra>"))
    fig.add_vline(x=step, line={"dash": "dot", "width": 2})
    fig.update_layout(xaxis_title=unit, yaxis_title="unused tokens", height=300,
                      margin={"t": 30, "b": 10}, showlegend=False,
                      font={"size": 18} if strong else None)
    return fig


__all__ = ["chosen", "draw", "full_reason_html", "shown_frame", "unused_curve",
           "unused_figure", "view"]
