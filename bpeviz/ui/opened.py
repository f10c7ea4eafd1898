"""Explore an opened tokenizer on the sidebar's corpus: its merges replayed on the user's
text ("how GPT-2's merges play out on your text"), on Explore and Vocabulary.

``ctx = opened.on_corpus(ctx)`` draws the toggle when a tokenizer file is open and, when
it is on, returns the context with ``training`` replaced by
``replay_on(opened_training, corpus)`` (:mod:`bpeviz.core.recount`): the same merges, ids and
base vocabulary, every count taken from the corpus; a merge that never occurs there has
count 0 and the card says so.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from bpeviz import replay_on
from bpeviz.core.limits import LIMITS
from bpeviz.core.recount import pretokenizer_of
from bpeviz.core.training import Training
from bpeviz.present.render import md_escape
from bpeviz.text.owned import OwnedCache
from bpeviz.ui.context import Context
from bpeviz.ui.messages import error
from bpeviz.ui.state import bound
from bpeviz.ui.tokenizer_file import imported
from bpeviz.ui.training import _digest, get_corpus

#: replays kept per opened tokenizer (on the tokenizer itself: they go when it closes)
_REPLAYS: OwnedCache[Training] = OwnedCache("replays", keep=2)


def replayed(opened: Training, ctx: Context) -> Training:
    """``replay_on(opened, corpus)`` on the page's corpus text, cut the way ``opened`` cuts;
    ValueError (with a message for the user) when it cannot be replayed."""
    if len(opened.merges) > LIMITS.replay_merges:
        raise ValueError(
            f"This tokenizer has {len(opened.merges):,} merges; the live explorer replays "
            f"up to {LIMITS.replay_merges:,}. Tokenize and Compare still use all of them.")
    corpus = get_corpus(ctx.data, pretokenizer_of(opened), ctx.corpus_name)
    return _REPLAYS.get(opened, _digest(corpus), lambda: replay_on(opened, corpus))


def on_corpus(ctx: Context) -> Context:
    """The toggle (when a tokenizer file is open) and the context the page explores."""
    current = imported()
    if current is None:
        return ctx
    names, opened = current
    if opened.corpus.words and bound(
            st.toggle, "Explore the opened training on its own corpus", "own_corpus",
            help=f"Step through the merges of {names} on the words it was trained on "
                 f"({len(opened.corpus.words):,} distinct words, as saved with it)."):
        st.info(md_escape(
            f"{names} (opened training) on its own corpus: {len(opened.corpus.words):,} "
            f"distinct words, {len(opened.merges):,} merges. The sidebar's corpus and "
            "training settings do not apply."), icon="📂")
        return replace(ctx, training=opened, corpus=opened.corpus,
                       corpus_name=f"the corpus of {names}")
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
