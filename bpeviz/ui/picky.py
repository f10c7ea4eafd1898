"""Streamlit views of a PickyBPE training: Home, Explore, Tokenize, Vocabulary and its
Health view (the record's ``views``).

A PickyBPE step is an event, a merge or a removal. The views step through them with the
same step bar as merges (keys, Play, "Go to step"); the bar ticks each removal and names
it beside Play in red (the training's ``landmarks``); the card and "Why this step?" are
drawn in Python for the steps around the bar's and swapped in by the browser
(:func:`bpeviz.ui.stage.panel`). Every token, word and text is escaped by the renderers
(:mod:`bpeviz.present.render_picky`, :mod:`bpeviz.present.render`) or shown as table data.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import bpeviz.ui.stage as stage
import bpeviz.ui.state as state
from bpeviz import formats
from bpeviz.algorithms.picky_model import word_pairs
from bpeviz.core.limits import LIMITS
from bpeviz.formats import pickybpe_model
from bpeviz.present import figures, render
from bpeviz.present.render import md_escape
from bpeviz.present.render_picky import CSS, step_card_html, why_step_html
from bpeviz.text import display
from bpeviz.ui.explore import heatmap_panel
from bpeviz.ui.labels import ALGORITHM_LABELS
from bpeviz.ui.slides_download import slides_button
from bpeviz.ui.state import bound, get
from bpeviz.ui.tokenizer_file import imported

#: at most this many words are drawn in Word splits (search finds the others)
WORDS_SHOWN = 300
DEFAULT_TEXT = "The tokenizer learns tokens: lowest newer"
#: at most this many words holding the heatmap's chosen pair are listed
HOLDERS_SHOWN = 50


def _counts(training) -> tuple[int, int]:
    merges = training.merge_count
    return merges, len(training.events) - merges


# -- Home ---------------------------------------------------------------------------------


def picky_home(ctx) -> None:
    """Home for a PickyBPE training: what it made, its first steps (the removals among
    them in red), the vocabulary size curve and where to look next."""
    training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
    merges, removals = _counts(training)
    st.title("bpeviz: watch a tokenizer learn its vocabulary")
    st.markdown(
        "PickyBPE builds a vocabulary as BPE does, joining again and again the pair of "
        "symbols that occurs most often; after each merge it also removes a part of the new "
        "token that now almost only occurs inside it (its Intersection over Self is above "
        "the threshold), so the vocabulary grows and shrinks. Pick a corpus and the "
        "settings in the sidebar; every page shares them.")
    final = len(training.events)
    numbers = {"Steps": final, "Merges": merges, "Removals": removals,
               "Vocabulary": training.vocab_sizes[final],
               "Corpus tokens": training.corpus_tokens[final]}
    for col, (name, value) in zip(st.columns(len(numbers)), numbers.items()):
        col.metric(name, f"{value:,}")
    st.caption(md_escape(f"{ALGORITHM_LABELS[ctx.algorithm]} on {ctx.corpus_name}, removal "
                         f"threshold {training.threshold:g}. {training.stop_message}"))
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.subheader("The first steps")
        if training.events:
            cards = "".join(step_card_html(training, k, byte_style, strong)
                            for k in range(1, min(final, 3) + 1))
            first = next((e.step for e in training.events if e.kind == "removal"), None)
            if first is not None and first > 3:  # the first removal, wherever it is
                cards += step_card_html(training, first, byte_style, strong)
            st.html(f"<style>{CSS}</style>{cards}")
        else:
            st.info(md_escape(f"No step was made. {training.stop_message}"))
        st.page_link("pages/1_Explore.py", label="Step through every merge and removal",
                     icon="🔍")
    with right:
        vocab_curve(training, final, strong, key="home_vocab_curve")
    st.subheader("Where next")
    for col, (path, label, what) in zip(st.columns(4), (
            ("pages/1_Explore.py", "Explore", "The step bar: each merge and removal, why it "
             "was made, every word's split."),
            ("pages/2_Tokenize.py", "Tokenize", "Any text cut at the chosen step."),
            ("pages/3_Compare.py", "Compare", "PickyBPE beside BPE at the same vocabulary "
             "size."),
            ("pages/4_Vocabulary.py", "Vocabulary", "The tokens at a step, those made and "
             "removed."))):
        with col:
            st.page_link(path, label=label)
            st.caption(what)


# -- Explore ------------------------------------------------------------------------------


def picky_explore(ctx) -> None:
    """Explore for a PickyBPE training: the step bar, the card, its numbers, "Why this
    step?", the vocabulary size curve, every word's split and the steps table."""
    training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
    merges, removals = _counts(training)
    st.title("Explore the merges and removals")
    st.caption(md_escape(
        f"{ALGORITHM_LABELS[ctx.algorithm]} on {ctx.corpus_name}: "
        f"{len(ctx.corpus.words):,} distinct words, {len(training.events):,} steps "
        f"({merges:,} merges, {removals:,} removals, threshold {training.threshold:g}). "
        f"{training.stop_message}"))
    if not training.events:
        st.info(md_escape(f"No step was made. {training.stop_message}"))
    step = stage.controls(training)
    card, numbers = st.columns([3, 2])
    with card:  # drawn by the browser at the bar's step, from the steps around it
        stage.panel(training, "picky_card", (byte_style, strong),
                    lambda k: f"<style>{CSS}</style>"
                              + step_card_html(training, k, byte_style, strong),
                    waiting="Step {step}: its card follows when the step settles.")
    with numbers:
        stage.merge_numbers(training)
        slides_button(ctx, step)
    with st.expander("Why this step?", expanded=True):
        stage.panel(training, "why", ("picky", byte_style, strong),
                    lambda k: f"<style>{CSS}</style>"
                              + why_step_html(training, k, byte_style, strong),
                    waiting="Step {step}: why it was made follows when the step settles.")
    # below the first screen, what Python draws for the settled step (the curve's dotted
    # line, the steps table: each names its step): the browser reports the step only
    # once the keys stop while none of it is in view (stage.settles_key), so no rerun
    # lands between a speaker's keys
    with st.container(key=stage.settles_key("picky")):
        vocab_curve(training, step, strong)
        pair_heatmap(ctx, step)
        words_col, steps_col = st.columns([3, 2], gap="large")
        with words_col:
            word_splits(training, step, byte_style, strong)
        with steps_col:
            steps_table(training, step)


def vocab_curve(training, step: int, strong: bool, key: str = "picky_vocab_curve") -> None:
    """The vocabulary's size at every step: up at a merge, down at a removal."""
    st.subheader("Vocabulary size")
    removed = training.removal_steps()
    st.plotly_chart(figures.vocab_size_figure(training.vocab_sizes, step, removed, strong),
                    key=key,
                    config={"displaylogo": False, "typesetMath": False})
    st.caption(md_escape(
        f"Tokens in the vocabulary after each step: a merge adds one, a removal (▼, "
        f"{len(removed):,} in all) takes one away, so the curve goes down as well as up. "
        f"The dotted line marks step {step:,}: {training.vocab_sizes[step]:,} tokens."))


def chosen_pair(step: int, pairs: pd.DataFrame) -> tuple[int, int]:
    """The pair clicked at this step, else the pair counted most (the one merged next
    when the next step is a merge)."""
    pair = get("pair")
    ids = set(zip(pairs["left_id"].tolist(), pairs["right_id"].tolist()))
    if get("pair_step") == step and pair is not None and tuple(pair) in ids:
        return (int(pair[0]), int(pair[1]))
    return (int(pairs["left_id"].iat[0]), int(pairs["right_id"].iat[0]))


def pair_heatmap(ctx, step: int) -> None:
    """The pairs the trainer may merge at this step (:attr:`PickyStep.pairs`), counted
    over the corpus's words as they are cut now, removals included: the pair merged next
    ringed in red, a clicked one in blue, and the words holding it."""
    training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
    st.subheader("Pairs at this step")
    snap = training.at(step)
    pairs = snap.pairs
    if not len(pairs):
        st.info("No pair the trainer may merge is left: every word is a single token, or "
                "its pairs hold a special token or are longer than the longest token allowed.")
        return
    pair = chosen_pair(step, pairs)
    picked = get("pair_step") == step and pair != (int(pairs["left_id"].iat[0]),
                                                    int(pairs["right_id"].iat[0]))
    # the panel's views hold for every step until a pair is picked (its key unchanged)
    heatmap_panel(training, ctx.algorithm, byte_style, strong, pair if picked else None,
                  step if picked else None,
                  caption=lambda k, grid: picky_caption(training, k, grid),
                  empty=("No pair the trainer may merge is left at step {step}: every word "
                         "is a single token, or its pairs hold a special token or are "
                         "longer than the longest token allowed."))
    holders = pair_holders(training, step, pair)
    vocab = training.vocab
    st.markdown(md_escape(
        f"“{display.visible(vocab[pair[0]])}” + “{display.visible(vocab[pair[1]])}”: "
        f"counted {int(holders['weighted'].sum()):,} times, in {len(holders):,} "
        f"word{'s' if len(holders) != 1 else ''}"
        + (f"; the {HOLDERS_SHOWN} that add the most are listed." if len(holders) > HOLDERS_SHOWN
           else ".")))
    st.dataframe(holders.head(HOLDERS_SHOWN), hide_index=True, width="stretch",
                 column_config={"occurrences": st.column_config.NumberColumn(
                     help="Times the pair occurs in one copy of the word (a run of the same "
                          "token counts every other one, as the trainer counts)"),
                     "weighted": st.column_config.NumberColumn(
                         help="count × occurrences: what the word adds to the pair's count")})


def picky_caption(training, step: int, grid) -> str:
    """What the heatmap at ``step`` shows: the pairs counted in the words as cut after
    the step's merges and removals, and whether the next step merges one of them."""
    nxt = training.events[step] if step < len(training.events) else None
    if nxt is None:
        after = "This is the last step: nothing is merged next, so no square is red."
    elif nxt.kind == "removal":
        after = (f"The next step, {step + 1:,}, removes “{display.visible(nxt.token)}” "
                 "instead of merging: no square is red.")
    elif grid.next_pair is not None:
        after = "The red square is the pair merged next, the one counted most."
    else:
        after = "The pair merged next is not among these symbols."
    return (f"Count of each pair at step {step:,} ({grid.total_pairs:,} pairs in all), in "
            f"the words as they are cut after the step's merges and removals. {after} The "
            "blue square is the pair whose words are listed below; click a cell to choose "
            "another.")


def pair_holders(training, step: int, pair: tuple[int, int]) -> pd.DataFrame:
    """The words holding ``pair`` at ``step``, the most to its count first: the word, its
    count, the pair's occurrences in it (as the trainer counts them) and their product."""
    rows = []
    left = pair[0]
    for word, count, split in zip(training.words, training.counts, training.splits_at(step)):
        times = word_pairs(split, 1).get(pair, 0) if left in split else 0
        if times:
            rows.append((display.visible(word), count, times, count * times))
    frame = pd.DataFrame(rows, columns=["word", "count", "occurrences", "weighted"])
    return frame.sort_values("weighted", ascending=False, kind="stable")


def word_splits(training, step: int, byte_style: str, strong: bool) -> None:
    """Every word's split, the most frequent first, drawn by the browser at the bar's
    step from each word's history (:meth:`PickyTraining.word_history`): the words a step
    changed highlighted, the tokens it made outlined."""
    st.subheader("Word splits")
    search = st.text_input("Search words", key="picky_word_search", max_chars=200,
                           placeholder="substring")
    order = sorted(range(len(training.words)), key=lambda i: -training.counts[i])
    shown = [i for i in order if not search or search in training.words[i]][:WORDS_SHOWN]
    st.caption(md_escape(
        f"{len(shown):,} words shown, most frequent first; each split follows the bar, the "
        "words its step changed highlighted and the tokens it made outlined."))
    if shown:
        rows = pd.DataFrame({"word": [training.words[i] for i in shown],
                             "count": [training.counts[i] for i in shown]}, index=shown)
        with st.container(height=480 if len(rows) > 12 else "content", border=False):
            stage.words(training, rows, byte_style, strong)
    else:
        st.info("No word matches.")


def steps_frame(training) -> pd.DataFrame:
    """Every step as a row: what it did, the token, its parts, the count and the IoS."""
    return pd.DataFrame({
        "step": [e.step for e in training.events],
        "kind": [e.kind for e in training.events],
        "token": [display.visible(e.token) for e in training.events],
        "parts": [" + ".join(display.visible(p) for p in
                             ((e.left, e.right) if e.kind == "merge" else e.parts))
                  for e in training.events],
        "count": [e.count for e in training.events],
        "IoS": [e.ios for e in training.events],
        "vocabulary": list(training.vocab_sizes[1:]),
    })


def steps_table(training, step: int) -> None:
    """The steps around ``step`` (▶ marks it), removals named as such."""
    st.subheader("Steps")
    frame = steps_frame(training)
    if not len(frame):
        st.info("No steps yet.")
        return
    lo = max(0, step - 6)
    shown = frame.iloc[lo:lo + 12].assign(now=lambda f: ["▶" if s == step else ""
                                                         for s in f["step"]])
    st.dataframe(shown, hide_index=True, width="stretch",
                 column_order=["now", "step", "kind", "token", "parts", "count", "IoS",
                               "vocabulary"],
                 column_config={
                     "now": st.column_config.TextColumn("", width=30),
                     "count": st.column_config.NumberColumn(
                         help="A merge: the pair's count. A removal: the uses left alone."),
                     "IoS": st.column_config.NumberColumn(
                         format="%.3f", help="A removal's Intersection over Self: the share "
                                             "of its uses inside the token just made"),
                     "parts": st.column_config.TextColumn(
                         help="A merge: the pair merged. A removal: what the token is cut "
                              "into where it still occurred.")})
    st.caption(md_escape(f"{len(frame):,} steps in all; the row marked ▶ is step {step:,}."))


# -- Tokenize -----------------------------------------------------------------------------


def cut_with_the_training(page: str) -> None:
    """A PickyBPE view cuts with its training, not with an opened tokenizer file (the
    merge pages' choice): the choice goes back to the training, and the page says so."""
    opened = imported()
    if opened is None:
        return
    if get("tok_source") == "imported":
        state.put("tok_source", "training")
    st.caption(md_escape(
        f"{page} shows the PickyBPE training of the sidebar; to use the opened file "
        f"({opened[0]}) here, choose another algorithm in the sidebar."))


def _edited() -> None:
    st.session_state["text_edited"] = True


def picky_tokenize(ctx) -> None:
    """Tokenize for a PickyBPE training: the text cut with the vocabulary at the bar's
    step (the training's merges and removals replayed, the earliest first)."""
    training, byte_style, strong = ctx.training, ctx.byte_style, ctx.presentation
    st.title("Tokenize any text")
    cut_with_the_training("Tokenize")
    if not get("text") and not st.session_state.get("text_edited"):
        state.put("text", (ctx.sample.try_text if ctx.sample else "") or DEFAULT_TEXT)
    text = bound(st.text_area, "Text", "text", height=100 if strong else 140,
                 max_chars=LIMITS.input_chars, then=_edited,
                 help=f"Up to {LIMITS.input_chars:,} characters.")
    step = stage.controls(training)
    if not text:
        st.info("Type some text above.")
        return
    tokens = training.at(step).encode(text)
    unk = sum(t.unk for t in tokens)
    a, b, c = st.columns(3)
    a.metric("Tokens", f"{len(tokens):,}")
    b.metric("Characters per token", f"{len(text) / max(len(tokens), 1):.2f}")
    c.metric("Unknown", f"{unk:,}", help="Characters the vocabulary lacks ([UNK])")
    # drawn by the browser at the bar's step from the text's tokens at every step; a text
    # whose words need too many encodings for that is cut at the settled step
    followed = stage.tokens(training, text, byte_style, strong)
    if not followed:
        st.html(render.tokens_html(text, tokens, byte_style, strong=strong))
    st.caption(md_escape(
        f"{len(text):,} characters cut into {len(tokens):,} tokens at step {step:,} of "
        f"{len(training.events):,}. {ctx.alg.encode_words} Each word starts with ▁, the "
        "space before it." + ("" if followed else " This text is long: its tokens are "
                              "redrawn when the step settles, not while it moves.")))


# -- Vocabulary ---------------------------------------------------------------------------


def vocab_frame(training, step: int) -> pd.DataFrame:
    """Every token that is or was in the vocabulary by ``step``: id, token, the step
    that made it, the steps that removed it, and whether it is in the vocabulary now."""
    made: dict[int, int] = {}
    removed: dict[int, list[int]] = {}
    for e in training.events[:step]:
        if e.kind == "merge":
            made.setdefault(e.token_id, e.step)
        else:
            removed.setdefault(e.token_id, []).append(e.step)
    present = training.at(step).present
    ids = sorted(set(range(training.n_base)) | set(made))
    return pd.DataFrame({
        "id": ids,
        "token": [display.visible(training.vocab[i]) for i in ids],
        "made at step": [made.get(i, 0) for i in ids],
        "removed at step": [", ".join(f"{s:,}" for s in removed.get(i, [])) for i in ids],
        "in vocabulary": [i in present for i in ids],
    })


def picky_vocabulary(ctx) -> None:
    """Vocabulary for a PickyBPE training: the tokens at the bar's step, the removed ones
    among them marked."""
    training = ctx.training  # (the page draws its title and view choice above)
    step = stage.controls(training)
    frame = vocab_frame(training, step)
    gone = int((~frame["in vocabulary"]).sum())
    st.caption(md_escape(
        f"{int(frame['in vocabulary'].sum()):,} tokens in the vocabulary at step {step:,}; "
        f"{gone:,} more {'was' if gone == 1 else 'were'} made and then removed (unticked). "
        f"{training.stop_message}"))
    search = st.text_input("Search tokens", key="picky_token_search", max_chars=200)
    if search:
        frame = frame[frame["token"].str.contains(search, regex=False)]
    st.dataframe(frame, hide_index=True, width="stretch", height=520, column_config={
        "made at step": st.column_config.NumberColumn(
            help="The merge that made it (0: a special token or a character)"),
        "removed at step": st.column_config.TextColumn(
            help="The steps that removed it (a token made again keeps its id)"),
        "in vocabulary": st.column_config.CheckboxColumn(
            help="In the vocabulary at this step")})
    st.subheader("Download")
    st.caption(f"The tokenizer at step {step:,} as PickyBPE's own model file, which its "
               "package (pickybpe) opens with PickyBPESegmenter.from_pretrained and cuts "
               "text with as here: the only file that holds removals, which no BPE format "
               "has room for. The whole training: the CLI's train --out.")
    snap = training.at(step)
    st.download_button(pickybpe_model.FILENAME,
                       lambda: formats.export(snap, pickybpe_model.NAME)[pickybpe_model.FILENAME],
                       file_name=pickybpe_model.FILENAME, mime="application/json",
                       key="picky_download_model", icon=":material/download:",
                       on_click="ignore")


def picky_health(ctx) -> None:
    """Vocabulary's Health view for a PickyBPE training: the same checks, table and
    unused curve as a merge training's, read from its events
    (:mod:`bpeviz.analysis.health_picky`), and what its removals have to do with them."""
    from bpeviz.ui import health_view

    training = ctx.training
    cut_with_the_training("The Health view")
    st.caption(md_escape(
        "What is wrong with the vocabulary of the PickyBPE training: tokens encoding never "
        "yields, tokens the corpus no longer uses, near-duplicates, each with the reason "
        "found. PickyBPE removes a token once it almost only occurs inside a bigger one "
        f"(its IoS above the threshold, {training.threshold:g}): its unused tokens are the "
        "absorbed ones its removals have not taken away (yet)."))
    health_view.view(training, "step", ctx.byte_style, ctx.presentation)


#: the pages that draw a PickyBPE training, each by its own view (the record's ``views``)
PAGES = {"Home": picky_home, "Explore": picky_explore, "Tokenize": picky_tokenize,
         "Vocabulary": picky_vocabulary}
#: Vocabulary's Health view of a PickyBPE training
HEALTH = picky_health
#: what the other pages say it does besides merging
INSTEAD = "also removes tokens: its steps are merges and removals"

__all__ = ["HEALTH", "INSTEAD", "PAGES", "picky_explore", "picky_health", "picky_home",
           "picky_tokenize", "picky_vocabulary"]
