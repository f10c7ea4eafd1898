"""Explore: the merges one step at a time: the merge, the words, the pair heatmap."""

import numpy as np
import pandas as pd
import pyarrow as pa
import streamlit as st

from bpeviz import render, ui, views
from bpeviz.limits import LIMITS
from bpeviz.ui import state

ctx = ui.page("Explore")
training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
st.title("Explore the merges")
st.caption(ui.md_escape(
    f"{ui.ALGORITHM_LABELS[ctx.algorithm]} on {ctx.corpus_name}: "
    f"{len(ctx.corpus.words):,} distinct words, {len(training.merges):,} merges. "
    f"{training.stop_message}"))


ui.player(training)


@st.fragment(run_every=ui.autoplay_timer())
def explore() -> None:
    ui.advance_if_playing(training)
    step = ui.step_controls(training)
    snap = ctx.at(step)

    card, numbers = st.columns([3, 2])
    with card:
        st.html(render.merge_card_html(snap.merge, snap.next_merge, ctx.algorithm, byte_style,
                                       strong))
    with numbers:
        b, c = st.columns(2)
        before = training.vocab_size_at(step - 1) if step else None
        b.metric("Vocabulary", f"{len(snap.vocab):,}",
                 delta=(training.vocab_size_at(step) - before) if before is not None else None)
        counts = training.token_counts()
        c.metric("Corpus tokens", f"{int(counts[step]):,}",
                 delta=int(counts[step] - counts[step - 1]) if step else None,
                 delta_color="inverse")
        st.caption(ui.md_escape(f"Step {step} of {len(training.merges)}."))
        if ctx.algorithm == "bbpe":
            st.caption("Byte-level tokens may hold part of a character: they show as "
                       "bytes (choose GPT-2 characters or hex in the sidebar).")

    words_col, merges_col = st.columns([3, 2], gap="large")
    with words_col:
        word_splits(snap)
    with merges_col:
        merges_table(step)
    heatmap(snap)


def word_splits(snap) -> None:
    st.subheader("Word splits")
    frame = views.words_frame(snap)
    c1, c2, c3 = st.columns([4, 4, 3], vertical_alignment="bottom")
    search = c1.text_input("Search words", key="word_search", placeholder="substring",
                           max_chars=200)
    sort = c2.selectbox("Sort", list(views.SORTS), key="word_sort")
    only = c3.checkbox("Changed only", key="word_changed",
                       help="Only the words this merge changed")
    rows = views.select_words(frame, search, sort, only)
    per_page = 25 if ctx.presentation else 50
    pages = max(1, -(-len(rows) // per_page))
    if pages > 1:
        st.session_state["word_page"] = min(st.session_state.get("word_page", 1), pages)
        page = st.number_input(f"Page (of {pages})", 1, pages, key="word_page")
    else:
        page = 1
    shown = rows.iloc[(page - 1) * per_page: page * per_page]
    vocab = training.vocab
    table = [(i, r["word"], r["count"], [vocab[t] for t in ids], ids, bool(r["changed"]))
             for i, r in shown.iterrows() for ids in [snap.split_ids(i)]]
    new_id = snap.merge.token_id if snap.merge else None
    changed = int(frame["changed"].sum())
    st.caption(ui.md_escape(
        f"{len(rows):,} of {len(frame):,} words shown in {pages} page(s); "
        f"{changed:,} changed by this merge"))
    if table:
        with st.container(height=560 if len(table) > 12 else "content", border=False):
            st.html(render.splits_html(table, byte_style, new_id, strong))
    else:
        st.info("No word matches.")


def heatmap(snap) -> None:
    st.subheader("Pairs at this step")
    pairs = snap.pairs
    if not len(pairs):
        st.info("No pair of symbols is left: every word is a single token.")
        return
    value = "score" if ctx.algorithm == "wordpiece" else "count"
    chart_col, detail_col = st.columns([2, 1], gap="large")
    with chart_col:
        pair = pair_chart(snap, pairs, value)
    with detail_col:
        pair_details(snap, pairs, pair)


def pair_chart(snap, pairs, value):
    top_n = ui.bound(st.slider, "Symbols per axis (top pairs)", "top_n", min_value=2,
                     max_value=LIMITS.heatmap_symbols)
    grid = views.pair_grid(snap, top_n)
    pair = state.get("pair")
    if views.pair_rank(pairs, pair) is None:
        pair = (int(pairs["left_id"].iat[0]), int(pairs["right_id"].iat[0]))
    fig = render.heatmap_figure(grid, ctx.algorithm, byte_style, selected=pair,
                                presentation=ctx.presentation)
    state.forget_replaced_widgets()  # (a new figure is a new widget id: drop the old ones)
    st.plotly_chart(fig, key="heatmap", on_select=ui.pick_heatmap_pair, selection_mode="points",
                    config={"displaylogo": False, "typesetMath": False,
                            "modeBarButtonsToRemove": ["select2d", "lasso2d"]})
    st.caption(ui.md_escape(
        f"{value.capitalize()} of each pair ({grid.total_pairs:,} pairs in all). The red "
        "square is the pair merged next; click a cell to see which words hold it."))
    return pair


def pair_details(snap, pairs, pair) -> None:
    top = pairs.iloc[:200]
    ids = list(zip(top["left_id"].tolist(), top["right_id"].tolist()))
    options = ids if pair in ids else [pair, *ids]
    state.put("pair", pair)
    vocab = training.vocab
    ui.bound(st.selectbox, "Pair details", "pair", options,
             format_func=lambda p: f"{views.label(vocab[p[0]], byte_style)} + "
                                   f"{views.label(vocab[p[1]], byte_style)}")
    position = views.pair_rank(pairs, pair)
    row = pairs.iloc[position]
    holders = views.pair_words(snap, *pair)
    rank = position + 1
    score = f" · score {float(row['score']):.4g}" if ctx.algorithm == "wordpiece" else ""
    st.html(
        f"{render.symbol_chip(vocab[pair[0]], pair[0], byte_style, strong=strong)} + "
        f"{render.symbol_chip(vocab[pair[1]], pair[1], byte_style, strong=strong)} "
        f"<span class='bv-muted'>rank {rank:,} · count {int(row['count']):,}"
        f"{score} · in {len(holders):,} word(s)</span>")
    st.dataframe(holders.sort_values("weighted", ascending=False), hide_index=True,
                 width="stretch", height=min(38 + 35 * len(holders), 300))


def merges_table(step: int) -> None:
    st.subheader("Merges")
    frame, table = views.merges_table(training, byte_style,
                                      score=ctx.algorithm == "wordpiece")
    if not len(frame):
        st.info("No merges yet.")
        return
    lo = max(0, step - 6)
    window = frame.iloc[lo: lo + 12].copy()
    hit = window["step"].to_numpy() == step
    window["now"] = np.where(hit, "▶", "")
    marked = pd.DataFrame(np.broadcast_to(np.where(
        hit[:, None], "background-color: rgba(255,200,0,.45); font-weight: 700", ""),
        window.shape), index=window.index, columns=window.columns)
    formats = {"score": "{:.4g}"} if "score" in frame else {}
    config = {"now": st.column_config.TextColumn("", width=30)}
    st.dataframe(window.style.apply(lambda _: marked, axis=None).format(formats),
                 hide_index=True, width="stretch", column_config=config)
    with st.expander(f"All {len(frame):,} merges (▶ marks this step)"):
        # no Styler here: styling thousands of rows costs most of a rerun; the table is
        # converted to Arrow once per training, and only its "now" column changes
        now = np.where(frame["step"].to_numpy() == step, "▶", "").tolist()
        st.dataframe(table.set_column(0, "now", pa.array(now, table.schema.field("now").type)),
                     hide_index=True, width="stretch", height=420,
                     column_config={**config, "score": st.column_config.NumberColumn(
                         format="%.4g")})


explore()
