"""Unigram's training settings: the sidebar's (size, trainer, keep share, pre-tokenizer)
and a Compare configuration's, drawn by :func:`bpeviz.ui.settings.training_settings` when
the chosen algorithm's steps prune."""

from __future__ import annotations

from typing import Any

import streamlit as st

from bpeviz.ui import state
from bpeviz.ui.labels import PRETOKENIZER_LABELS, VARIANT_LABELS, pretokenizer_label
from bpeviz.ui.state import bound, get

#: the keep shares offered for SentencePiece's trainer (its own: 0.75)
KEEP_LABELS = {"auto": "chosen for the corpus", "0.75": "75% (SentencePiece's default)",
               "0.8": "80%", "0.9": "90%", "0.95": "95%"}


def prune_options(algorithm: str, vocab_size: int | None, prefix: str = "") -> dict[str, Any]:
    """The keyword arguments of ``train_corpus`` for the app's settings (those named
    ``prefix + name``: the sidebar's ``uvocab``, Compare's ``c1_vocab``). The sidebar's
    empty size, automatic keep share and the course's seed are ``None``: chosen for the
    corpus by :func:`bpeviz.unigram.teaching.plan`."""
    variant = get(prefix + "uvariant")
    if prefix:  # Compare: the size as typed; the course's seed chosen for the corpus (its
        # own 300 pieces can be all characters, and then it makes no pruning round)
        return {"algorithm": algorithm, "vocab_size": int(vocab_size or get(prefix + "vocab")),
                "variant": variant, **({"seed_size": None} if variant == "course" else {})}
    options: dict[str, Any] = {"algorithm": algorithm, "vocab_size": vocab_size,
                               "variant": variant}
    if variant == "course":
        options["seed_size"] = None
    else:
        keep = get("ukeep")
        options["shrinking_factor"] = None if keep == "auto" else float(keep)
    return options


def prune_settings(algorithm: str, prefix: str = "", *, compact: bool = False) -> dict[str, Any]:
    """The Training settings for an algorithm whose steps prune: the sidebar's
    (``prefix=""``) or a Compare configuration's (``"c1_"``; ``compact``: select boxes
    for narrow columns, a shorter note)."""
    size_help = ("Unigram is trained to a vocabulary size (it prunes a large vocabulary "
                 "down to it): <unk>, <s> and </s> count in it for SentencePiece's trainer.")
    if prefix:
        bound(st.number_input, "Vocabulary size", prefix + "vocab", min_value=1,
              max_value=state.MAX_TYPED, step=10, help=size_help)
    else:
        bound(st.number_input, "Vocabulary size", "uvocab", min_value=1,
              max_value=state.MAX_TYPED, step=10, placeholder="chosen for the corpus",
              help=size_help + " Leave it empty to let the app choose one that gives this "
                               "corpus about 8 pruning rounds (Explore says why).")
    bound(st.selectbox if compact else st.radio, "Unigram trainer", prefix + "uvariant",
          list(VARIANT_LABELS), format_func=VARIANT_LABELS.get)
    if not prefix and get("uvariant") == "sentencepiece":
        bound(st.selectbox, "Share each round keeps", "ukeep", list(KEEP_LABELS),
              format_func=KEEP_LABELS.get,
              help="SentencePiece's shrinking_factor: after re-estimation, a round keeps "
                   "this share of the pieces. Its own 75% prunes a small corpus in one or "
                   "two rounds; 'chosen for the corpus' takes a larger share when it does.")
    bound(st.selectbox, "Pre-tokenizer", prefix + "pretok", list(PRETOKENIZER_LABELS),
          format_func=pretokenizer_label(algorithm),
          help="How text is cut into words before training; every word gets ▁ in front "
               "(the space before it, as SentencePiece writes it).")
    st.caption("Its steps are pruning rounds: the vocabulary shrinks from a large seed."
               if compact else
               "Merge settings (merges, marker, scoring, tie rule) do not apply to Unigram.")
    if prefix:
        return prune_options(algorithm, get(prefix + "vocab"), prefix)
    return prune_options(algorithm, get("uvocab"))
