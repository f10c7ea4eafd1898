"""The widgets of Unigram's own training settings (its record's ``settings``: the trainer
variant, the share each round keeps, the seed), drawn by
:func:`bpeviz.ui.settings.training_settings` among the other records' settings.

Each draws its widget, when the settings named ``prefix + name`` hold one (the sidebar's
``uvariant``, Compare's ``c1_uvariant``; ``off``: disabled), and returns the option's
value, or :data:`OMIT` to leave the trainer's default.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

import bpeviz.ui.state as state
from bpeviz.ui.labels import VARIANT_LABELS
from bpeviz.ui.state import bound
from bpeviz.unigram.corpus_words import trainer_options

#: a widget's answer when its option is not given (the trainer's default applies)
OMIT = object()
#: the keep shares offered for SentencePiece's trainer (its own: 0.75)
KEEP_LABELS = {"auto": "chosen for the corpus", "0.75": "75% (SentencePiece's default)",
               "0.8": "80%", "0.9": "90%", "0.95": "95%"}


def _has(prefix: str, name: str) -> bool:
    return prefix + name in state.SETTINGS


def variant(prefix: str, chosen: dict[str, Any], compact: bool,
            off: bool = False) -> Any:
    """The Unigram trainer: SentencePiece's or the Hugging Face course's."""
    if not _has(prefix, "uvariant"):
        return OMIT
    return bound(st.selectbox if compact else st.radio, "Unigram trainer", prefix + "uvariant",
                 list(VARIANT_LABELS), format_func=VARIANT_LABELS.get, disabled=off)


def shrinking_factor(prefix: str, chosen: dict[str, Any], compact: bool,
                     off: bool = False) -> Any:
    """The share each round keeps, for a trainer that takes one (None: chosen for the
    corpus by :func:`bpeviz.unigram.teaching.plan`)."""
    if not _has(prefix, "ukeep") or "shrinking_factor" not in _taken(chosen):
        return OMIT
    keep = bound(st.selectbox, "Share each round keeps", prefix + "ukeep", list(KEEP_LABELS),
                 format_func=KEEP_LABELS.get, disabled=off,
                 help="SentencePiece's shrinking_factor: after re-estimation, a round keeps "
                      "this share of the pieces. Its own 75% prunes a small corpus in one or "
                      "two rounds; 'chosen for the corpus' takes a larger share when it does.")
    return None if keep == "auto" else float(keep)


def seed_size(prefix: str, chosen: dict[str, Any], compact: bool,
              off: bool = False) -> Any:
    """The seed vocabulary's size, for a trainer that takes one: always chosen for the
    corpus (None; the course's own 300 pieces can be all characters, and then it makes
    no pruning round)."""
    return None if "seed_size" in _taken(chosen) else OMIT


def _taken(chosen: dict[str, Any]) -> tuple[str, ...]:
    return trainer_options(chosen.get("variant", "sentencepiece"))  # train()'s default


def variant_detail(value: str) -> str:
    """How a description names the trainer ("SentencePiece's trainer")."""
    return VARIANT_LABELS[value].split(" (")[0]
