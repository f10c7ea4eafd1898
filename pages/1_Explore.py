"""Explore: the merges one step at a time: the merge, the words, the pair heatmap."""

import numpy as np
import pyarrow as pa
import streamlit as st

from bpeviz import ui
from bpeviz.analysis import views
from bpeviz.core import protocol
from bpeviz.core.explain import explain, pair_words
from bpeviz.present import glossary, render, render_languages
from bpeviz.present.render_explain import merge_trees_html, trace_html, why_merge_html
from bpeviz.text import display
from bpeviz.ui import languages_view, opened, stage, state, trace
from bpeviz.ui.explore import heatmap_panel
from bpeviz.ui.page_setup import own_view
from bpeviz.ui.slides_download import slides_button

ctx = opened.on_corpus(ui.page("Explore"))
own_view(ctx, "Explore")  # an algorithm with its own view of the page (Unigram's rounds)
training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
st.title("Explore the merges")
st.caption(ui.md_escape(
    f"{ui.algorithm_labels()[ctx.algorithm]} on {ctx.corpus_name}: "
    f"{len(ctx.corpus.words):,} distinct words, {len(training.merges):,} merges. "
    f"{training.stop_message}"))
ui.unspaced_warning(ctx.corpus)


# No st.fragment and no run_every here: the stage component steps, plays and redraws the
# card and the word splits in the browser, and tells Python the step on release or pause.
# (Fragment reruns queued under load, with run_every autoplay, froze pages with "Cannot
# set a node at a delta path"; a whole-page rerun per settled step cannot.)
def explore() -> None:
    first_screen = st.container()
    # below the first screen, what Python draws for the settled step: the browser hears
    # when none of it is in view and then reports the step only once the keys stop
    # (stage.SETTLES), so no rerun lands between a speaker's keys
    below = st.container(key=stage.settles_key("explore"))
    if stage.below_first():
        # a person is watching the views below (the first screen already shows the step,
        # drawn by the browser): the browser draws a rerun's parts in the order they
        # come, so they are sent first
        step = stage.step_of(training)
        with below:
            views_below(step)
        with first_screen:
            first_screen_views()
    else:
        with first_screen:
            step = first_screen_views()
        with below:
            views_below(step)


def first_screen_views() -> int:
    """The step bar, the card and its numbers, "Why this merge?"; returns the step."""
    if not training.merges:
        st.info(ui.md_escape(f"No merges were made. {training.stop_message}"))
    step = stage.controls(training)
    snap = ctx.at(step)
    card, numbers = st.columns([3, 2])
    with card:
        stage.card(training, byte_style, strong)
    with numbers:
        stage.step_sentence(training)  # who got the merge, or SuperBPE's stage and superword
        stage.merge_numbers(training)  # drawn by the browser with the card, at its step
        stage.language_numbers(training)  # and each language's tokens
        if snap.vocab and isinstance(snap.vocab[0], bytes):  # drawn in the sidebar's byte style
            st.caption("Byte-level tokens may hold part of a character: they show as "
                       "bytes (choose GPT-2 characters or hex in the sidebar).")
        slides_button(ctx, step)
    why_this_merge(step)
    return step


def views_below(step: int) -> None:
    """Each language at this step, the heatmap, the word list and the merges table."""
    snap = ctx.at(step)
    languages_view.at_step(ctx, step)  # one corpus per language: each one at this step
    words_col, merges_col = st.columns([3, 2], gap="large")
    # the heatmap first, though drawn below them: it is what a person scrolled down here
    # watches, and the browser draws a rerun's parts in the order they come
    with st.container():
        trace.event("heatmap", step=step)
        heatmap(snap)
    with words_col:
        word_splits(snap)
    with merges_col:
        merges_table(step)


def why_this_merge(step: int) -> None:
    """The "Why this merge?" panel: the words, rivals and tie behind merge ``step``,
    drawn by the browser at the bar's step from the steps around it."""
    with st.expander("Why this merge?", expanded=True):
        stage.panel(training, "why", (ctx.algorithm, byte_style, strong), why_html,
                    waiting="Merge {step}: the words, rivals and tie behind it follow "
                            "when the step settles.")


def why_html(step: int) -> str:
    """The panel at ``step``, one piece of HTML (user text escaped by the renderers)."""
    if not step:
        return render.muted_html(
            "Step 0: no merge yet. Move to step 1 or later to see why each merge was "
            "chosen: the words behind its count, the pairs it beat, and how a tie was "
            "decided.")
    why = explain(training, step, before=training.at(step - 1))
    # a training per language chose the pair in one language: who got it, on which numbers
    per_language = bool(protocol.languages(training))
    chosen = (render_languages.CSS + render_languages.choice_html(training, step)
              + render_languages.ranked_elsewhere_html()) if per_language else ""
    # two pair counts on one screen: this one is the step before the heatmap's
    counted = render.muted_html(
        f"Counted at step {step - 1:,}, before merge {step:,}: the {why.total_pairs:,} "
        f"pairs and the rivals are those merge {step:,} was chosen among. “Pairs at this "
        f"step” below counts step {step:,}, after it.")
    m, rivals = why.merge, why.runners_up.iloc[:5]
    # the marks on the panel's chips, explained where they are read
    legend = glossary.legend_html(glossary.notes(
        training, [m.left, m.right, m.token, *rivals["left"], *rivals["right"]], byte_style))
    return chosen + why_merge_html(why, ctx.algorithm, byte_style, strong,
                                   ranked=not per_language) + counted + legend


#: sort orders as the (narrow) Sort box shows them
SORT_LABELS = {"changed first, then corpus order": "changed first",
               "changed first, then most frequent": "changed, frequent"}


def word_splits(snap) -> None:
    st.subheader("Word splits")
    frame = views.words_frame(snap)
    c1, c2, c3 = st.columns([4, 4, 3], vertical_alignment="bottom")
    with c1:
        search = state.bound(st.text_input, "Search words", "search", widget_key="word_search",
                             placeholder="substring", max_chars=200)
    orders = list(views.SORTS)
    sort = c2.selectbox("Sort", orders, key="word_sort",
                        index=orders.index(views.default_sort(len(frame))),
                        format_func=lambda k: SORT_LABELS.get(k, k))
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
    # how many the bar's merge changed is drawn by the browser at the bar's step; the
    # list itself (its filter and order) follows when the step settles
    stage.changed_words(training)
    st.caption(ui.md_escape(
        f"{len(rows):,} of {len(frame):,} words shown in {pages} page(s)"
        + (f", those merge {snap.step:,} changed" if only else "")
        + (f", the words merge {snap.step:,} changed first" if sort.startswith("changed")
           and not only else "")))
    if len(shown):
        with st.container(height=560 if len(shown) > 12 else "content", border=False):
            stage.words(training, shown, byte_style, strong)
        vocab = training.vocab
        legend = glossary.legend_html(glossary.notes(
            training, (vocab[t] for i in shown.index for t in snap.split_ids(i)), byte_style))
        if legend:
            st.html(legend)
        why_this_split(snap, frame, shown)
    else:
        st.info("No word matches.")


SPLIT_PICK, SPLIT_WIDGET = "explore_split_word", "w_explore_split_word"


SPLIT_OPEN, SPLIT_OPEN_WIDGET = "explore_split_open", "w_explore_split_open"


def _split_picked() -> None:
    st.session_state[SPLIT_PICK] = st.session_state[SPLIT_WIDGET]


def _split_toggled() -> None:
    st.session_state[SPLIT_OPEN] = bool(st.session_state.get(SPLIT_OPEN_WIDGET))


def why_this_split(snap, frame, shown) -> None:
    """Pick a word of this page: how encoding at this step cuts it, merge by merge (or
    longest match by longest match), and how its tokens were built. The pick stays
    while the step (or the page of words) changes."""
    words = shown["word"].tolist()
    # the pick is kept apart from the widget, whose value is dropped in a run that does
    # not draw it (no word matches the search)
    chosen = st.session_state.get(SPLIT_PICK)
    if isinstance(chosen, str) and chosen not in words and frame["word"].eq(chosen).any():
        words = [chosen, *words]  # picked on another page of words, or at another step
    st.session_state[SPLIT_WIDGET] = chosen if chosen in words else words[0]
    # keyed, its open state kept apart: it stays open when the list above changes shape;
    # closed, nothing is traced (a rerun per step stays cheap)
    box = st.expander("Why this split?", expanded=bool(st.session_state.get(SPLIT_OPEN)),
                      key=SPLIT_OPEN_WIDGET, on_change=_split_toggled)
    if not box.open:
        return
    with box:
        word = st.selectbox("Word", words, key=SPLIT_WIDGET, on_change=_split_picked,
                            format_func=lambda w: display.visible(w)[:80],
                            help="A word of the corpus (those listed above). The rows show "
                                 "how it is cut at this step.")
        st.session_state[SPLIT_PICK] = word
        try:
            found = snap.trace(word, cut=True)
        except ValueError as err:
            ui.error(err)
            return
        st.html(trace_html(found, training, byte_style, strong))
        trees = merge_trees_html(found, training, byte_style, strong)
        if trees:
            st.html(trees)


def chosen_pair(snap, pairs) -> tuple[int, int]:
    """The pair the user picked at this step, else the pair merged next (the best pair)."""
    pair = ui.get("pair")
    if ui.get("pair_step") != snap.step or views.pair_rank(pairs, pair) is None:
        ui.put("pair_step", None)  # picked at another step: not this step's choice
        pair = (int(pairs["left_id"].iat[0]), int(pairs["right_id"].iat[0]))
    return pair


def heatmap(snap) -> None:
    st.subheader("Pairs at this step")
    pairs = snap.pairs
    if not len(pairs):
        st.info("No pair of symbols is left: every word is a single token.")
        return
    value = ctx.alg.value_name()
    if int(ui.get("top_n")) > 20 or ctx.presentation:  # the page's width; details below
        chart_col, detail_col = st.container(), st.container()
    else:
        chart_col, detail_col = st.columns([2, 1], gap="large")
    with chart_col:
        pair = pair_chart(snap, pairs, value)
    with detail_col:
        pair_details(snap, pairs, pair)


def pair_chart(snap, pairs, value):
    pair = chosen_pair(snap, pairs)
    picked_step = ui.get("pair_step")
    # the panel's views hold for every step until a pair is picked (its key unchanged)
    heatmap_panel(training, ctx.algorithm, byte_style, ctx.presentation,
                  pair if picked_step is not None else None, picked_step)
    return pair


def pair_details(snap, pairs, pair) -> None:
    top = pairs.iloc[:200]
    ids = list(zip(top["left_id"].tolist(), top["right_id"].tolist()))
    options = ids if pair in ids else [pair, *ids]
    ui.put("pair", pair)
    vocab = training.vocab
    st.selectbox("Pair details", options, index=options.index(pair),
                 key=ui.pair_box_key(snap.step, pair, tuple(options)), on_change=ui.pair_boxed,
                 args=(snap.step, pair, tuple(options)),
                 format_func=lambda p: f"{display.label(vocab[p[0]], byte_style)} + "
                                       f"{display.label(vocab[p[1]], byte_style)}")
    position = views.pair_rank(pairs, pair)
    row = pairs.iloc[position]
    holders = pair_words(snap, *pair)
    rank = position + 1
    notes = glossary.ChipNotes(training, byte_style)
    value = ctx.alg.value_name()  # what a pair wins with, beside its count
    score = "" if value == "count" else f" · {value} {float(row[value]):.4g}"
    st.html(
        f"{render.symbol_chip(vocab[pair[0]], pair[0], byte_style, strong=strong, notes=notes)} + "
        f"{render.symbol_chip(vocab[pair[1]], pair[1], byte_style, strong=strong, notes=notes)} "
        f"<span class='bv-muted'>rank {rank:,} · count {int(row['count']):,}"
        f"{score} · in {len(holders):,} word(s)</span>")
    # short headers, explained on hover, and a word column of a set width: the four
    # columns fit a third of the page even for long words (each is whole in Word splits)
    st.dataframe(holders.sort_values("weighted", ascending=False), hide_index=True,
                 width="stretch", height=min(38 + 35 * len(holders), 300),
                 column_order=["word", "weighted", "count", "occurrences"], column_config={
                     "word": st.column_config.TextColumn("word", width=110),
                     "count": st.column_config.NumberColumn(
                         "count", help="How often the word occurs in the corpus"),
                     "occurrences": st.column_config.NumberColumn(
                         "×", help="How often the pair occurs in one copy of the word"),
                     "weighted": st.column_config.NumberColumn(
                         "total", help="count × occurrences: what the word adds to the "
                                       "pair's count")})


MERGES_OPEN, MERGES_OPEN_WIDGET = "explore_merges_open", "w_explore_merges_open"


def _merges_toggled() -> None:
    st.session_state[MERGES_OPEN] = bool(st.session_state.get(MERGES_OPEN_WIDGET))


def merges_table(step: int) -> None:
    st.subheader("Merges")
    frame, table = ui.merges_arrow(training, byte_style)
    if not len(frame):
        st.info("No merges yet.")
        return
    # the rows around the bar's step, drawn by the browser in the same frame as the card
    # (an HTML table: long tokens wrap inside their cells instead of being cut)
    stage.panel(training, "merges", ("merges", byte_style),
                lambda k: render.merges_window_html(frame.iloc[max(0, k - 6):][:12], k),
                waiting="Merge {step}: the merges around it follow when the step settles.")
    config = {"now": st.column_config.TextColumn("", width=30)}
    # closed, the table is not sent (at 50,000 merges it is 3.7 MB per step); its open
    # state is kept apart from the widget, as for "Why this split?"
    box = st.expander(f"All {len(frame):,} merges (▶ marks this step)",
                      expanded=bool(st.session_state.get(MERGES_OPEN)),
                      key=MERGES_OPEN_WIDGET, on_change=_merges_toggled)
    if not box.open:
        return
    with box:
        # no Styler here: styling thousands of rows costs most of a rerun; the table is
        # converted to Arrow once per training, and only its "now" column changes
        now = np.where(frame["step"].to_numpy() == step, "▶", "").tolist()
        table = table.set_column(0, "now", pa.array(now, table.schema.field("now").type))
        search = st.text_input("Search merges by token", key="merge_search", max_chars=100,
                               placeholder="substring of the token or of its two parts")
        if search:
            found = views.merges_matching(frame, search)
            table = table.filter(pa.array(found))
            st.caption(ui.md_escape(f"{int(found.sum()):,} of {len(frame):,} merges hold "
                                    f"“{search}”."))
        st.dataframe(table, hide_index=True, width="stretch", height=420,
                     column_config={**config, "score": st.column_config.NumberColumn(
                         format="%.4g")})


explore()
state.write_url()  # what this run changed (a pair picked here, a pair dropped at a new step)
