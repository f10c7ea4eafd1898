"""Explore an opened tokenizer on the sidebar's corpus: its merges replayed on the user's
text ("how GPT-2's merges play out on your text"), on Explore and Vocabulary.

``ctx = opened.on_corpus(ctx)`` draws the toggle when a tokenizer file is open and, when
it is on, returns the context with ``training`` replaced by
``opened_training.replay(corpus)`` (:mod:`bpeviz.analysis.recount`): the same merges, ids and
base vocabulary, every count taken from the corpus; a merge that never occurs there has
count 0 and the card says so.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from bpeviz.analysis.recount import pretokenizer_of
from bpeviz.core.limits import LIMITS
from bpeviz.core.training import Training
from bpeviz.text.owned import OwnedCache
from bpeviz.ui import Context, error, imported, md_escape
from bpeviz.ui.state import bound, put
from bpeviz.ui.training import _digest, get_corpus

#: replays kept per opened tokenizer (on the tokenizer itself: they go when it closes)
_REPLAYS: OwnedCache[Training] = OwnedCache("replays", keep=2)


def replayed(opened: Training, ctx: Context) -> Training:
    """``opened.replay(corpus)`` on the page's corpus text, cut the way ``opened`` cuts;
    ValueError (with a message for the user) when it cannot be replayed."""
    if len(opened.merges) > LIMITS.replay_merges:
        raise ValueError(
            f"This tokenizer has {len(opened.merges):,} merges; the live explorer replays "
            f"up to {LIMITS.replay_merges:,}. Tokenize and Compare still use all of them.")
    corpus = get_corpus(ctx.data, pretokenizer_of(opened), ctx.corpus_name)
    return _REPLAYS.get(opened, _digest(corpus), lambda: opened.replay(corpus))


def on_corpus(ctx: Context) -> Context:
    """The toggle (when a tokenizer file is open) and the context the page explores."""
    current = imported()
    if current is None:
        return ctx
    names, opened = current
    on = bound(st.toggle, "Explore the opened tokenizer's merges on this corpus", "replay",
               help=f"Replays the merges of {names} on the sidebar's corpus: the same "
                    "merges in the same order, with counts from your text. A merge that "
                    "never happens in your text has count 0.")
    if not on:
        return ctx
    try:
        with st.spinner(f"Replaying {len(opened.merges):,} merges on {ctx.corpus_name}…"):
            training = replayed(opened, ctx)
    except ValueError as err:
        error(f"{names} cannot be replayed on this corpus: {err}")
        return ctx
    never = sum(1 for m in training.merges if m.count == 0)
    st.info(md_escape(
        f"The merges of {names} (opened file), replayed on {ctx.corpus_name}: every count "
        f"is from your corpus. {never:,} of {len(training.merges):,} merges never happen "
        "there (count 0). The sidebar's training settings do not apply."), icon="🔁")
    return replace(ctx, training=training, corpus=training.corpus)


# -- tokenizers by name ------------------------------------------------------------------


def _open_named() -> None:
    """The "Open by name" callback: download (or take from the cache) and open."""
    from bpeviz.formats.by_name import open_by_name

    name = (st.session_state.get("w_by_name") or "").strip()
    st.session_state.pop("by_name_error", None)
    if not name:
        return
    try:
        training, notes = open_by_name(name)
    except ValueError as err:
        st.session_state["by_name_error"] = f"{name} cannot be opened: {err}"
        return
    st.session_state["imported"] = (name, training)
    st.session_state["import_notes"] = notes
    st.session_state["import_toast"] = (
        f"Opened {name}: {len(training.vocab):,} tokens, {len(training.merges):,} merges "
        f"({training.algorithm}).")
    put("imp_step", len(training.merges))
    put("tok_source", "imported")


def by_name_box() -> None:
    """A text box and a button: open an OpenAI encoding or a Hugging Face Hub tokenizer
    by name (online only; offline, the message says which file to upload instead)."""
    a, b = st.columns([4, 1], vertical_alignment="bottom")
    a.text_input("Or open one by name", key="w_by_name", max_chars=200,
                 placeholder="cl100k_base, o200k_base, gpt2, or a Hub id like "
                             "openai-community/gpt2",
                 help="OpenAI encodings through tiktoken, other names from the Hugging Face "
                      "Hub; downloaded once, then cached. Needs the server to be online.")
    b.button("Open", key="by_name_open", on_click=_open_named, icon=":material/download:")
    problem = st.session_state.get("by_name_error")
    if problem:
        error(problem)
