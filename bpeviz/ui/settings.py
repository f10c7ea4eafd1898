"""The training and display settings, drawn once for the sidebar and once per Compare
configuration by the same function, :func:`training_settings`.

Labels are :mod:`bpeviz.ui.labels` (an algorithm's from its record); which settings
a widget set has comes from the setting names in :data:`bpeviz.ui.state.SETTINGS`
(``prefix + name``: the sidebar's ``algo``, Compare's ``c1_algo``), so a link keeps
working. The result is one :class:`Settings`: the :class:`~bpeviz.core.training.TrainOptions`
the pages train with, and the pre-tokenizer they cut the corpus with.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from bpeviz import algorithms
from bpeviz.core.limits import LIMITS
from bpeviz.core.training import TrainOptions, make_options
from bpeviz.text.pretokenize import PRETOKENIZERS
from bpeviz.ui import state
from bpeviz.ui.labels import (
    MARKER_LABELS,
    PRETOKENIZER_LABELS,
    SCORING_LABELS,
    SHORT_SCORING,
    TIE_HELP,
    TIE_LABELS,
    VARIANT_LABELS,
    algorithm_labels,
    pretokenizer_label,
)
from bpeviz.ui.state import bound, get
from bpeviz.ui.unigram_settings import prune_settings


def train_options(algorithm: str, *, merges: int | None = None, vocab_size: int | None = None,
                  marker: str = "none", marker_style: str = "separate", scoring: str = "score",
                  tie: str = "first", min_freq: int = 0) -> dict[str, Any]:
    """The keyword arguments of ``bpeviz.train`` for the app's settings (the marker only
    where the algorithm takes one, the scoring only where it is scored).

    >>> train_options("wordpiece", merges=5, marker="</w>")["scoring"]
    'score'
    >>> "marker" in train_options("wordpiece", merges=5, marker="</w>")
    False
    """
    alg = algorithms.get(algorithm)
    options: dict[str, Any] = {"algorithm": algorithm, "tie_break": tie,
                               "min_frequency": int(min_freq)}
    if vocab_size is not None:
        options["vocab_size"] = int(vocab_size)
    else:
        options["merges"] = int(merges or 0)
    if alg.takes_marker and marker != "none":
        options["marker"] = marker
        options["marker_style"] = marker_style
    if alg.scored:
        options["scoring"] = scoring
    return options


@dataclass(frozen=True)
class Settings:
    """What a set of training widgets chose: the options to train with, the pre-tokenizer
    to cut the corpus with (``auto`` resolved) and a short description for labels."""

    #: a :class:`TrainOptions`; for an algorithm whose steps prune (Unigram), the keyword
    #: arguments of :func:`bpeviz.unigram.corpus_words.train_corpus`
    options: TrainOptions | dict[str, Any]
    pretokenizer: str
    description: str

    @property
    def algorithm(self) -> str:
        if isinstance(self.options, dict):
            return self.options["algorithm"]
        return self.options.algorithm


def _has(prefix: str, name: str) -> bool:
    return prefix + name in state.SETTINGS


def training_settings(prefix: str = "", *, compact: bool = False,
                      steps: tuple[str, ...] = ("merge", "prune")) -> Settings:
    """Draw the training widgets of the settings named ``prefix + name`` and return what
    they chose. The sidebar uses ``prefix=""``; Compare ``"c1_"``, ``"c2_"``, ... whose
    settings have no "train until" choice, marker style or minimum frequency.

    ``compact`` draws select boxes where the sidebar has radios (narrow columns);
    ``steps`` the kinds of algorithm offered (by their records' ``step_kind``: merging,
    pruning or both, as the sidebar and Compare offer).
    Raises ValueError (a message for the user) if the options cannot be trained.
    """
    labels = {name: label for name, label in algorithm_labels().items()
              if algorithms.get(name).step_kind in steps}
    if get(prefix + "algo") not in labels:
        state.put(prefix + "algo", next(iter(labels)))
    algorithm = bound(st.selectbox, "Algorithm", prefix + "algo", list(labels),
                      format_func=labels.get)
    alg = algorithms.get(algorithm)
    if alg.step_kind == "prune":
        options = prune_settings(algorithm, prefix, compact=compact)
        pretokenizer = alg.pretokenizer_for(get(prefix + "pretok"))
        return Settings(options, pretokenizer,
                        f"{alg.label} ("
                        + (f"{options['vocab_size']:,} tokens, " if options["vocab_size"]
                           else "size chosen for the corpus, ")
                        + f"{VARIANT_LABELS[options['variant']].split(' (')[0]})")
    size_by = "merges"
    if _has(prefix, "size_by"):
        size_by = bound(st.radio, "Train until", prefix + "size_by", ["merges", "vocab"],
                        horizontal=True, format_func={"merges": "a number of merges",
                                                      "vocab": "a vocabulary size"}.get)
    if size_by == "merges":
        bound(st.number_input, "Merges", prefix + "merges", min_value=0,
              max_value=state.MAX_TYPED, step=10,
              help=f"The live explorer makes up to {LIMITS.merges:,} merges.")
    else:
        bound(st.number_input, "Vocabulary size", prefix + "vocab", min_value=1,
              max_value=state.MAX_TYPED, step=10,
              help="Special tokens + initial symbols + merged tokens.")
    pretok = bound(st.selectbox, "Pre-tokenizer", prefix + "pretok", list(PRETOKENIZER_LABELS),
                   format_func=pretokenizer_label(algorithm),
                   help="How text is cut into words before training: "
                        + "; ".join(f"{k}: {v}" for k, v in PRETOKENIZERS.items())
                        + "; auto: GPT-2 for byte-level BPE, whitespace otherwise.")
    choice = st.selectbox if compact else st.radio
    styled = _has(prefix, "marker_style")
    cols = st.columns(2)
    with cols[0]:
        marker = bound(st.selectbox, "End-of-word marker", prefix + "marker",
                       list(MARKER_LABELS), format_func=MARKER_LABELS.get,
                       disabled=not alg.takes_marker,
                       help="BPE only: a symbol that ends every word.")
    with cols[1]:
        if styled:
            bound(st.selectbox, "Marker", prefix + "marker_style", ["separate", "glued"],
                  disabled=not alg.takes_marker or marker == "none",
                  help="separate: 'low' → l o w </w>; glued: l o w</w>")
        else:
            scoring = bound(choice, "WordPiece scoring", prefix + "scoring",
                            list(SCORING_LABELS), format_func=SCORING_LABELS.get,
                            disabled=not alg.scored)
    if styled:
        # radios: their labels wrap, where a select box would cut them at the sidebar's edge
        scoring = bound(choice, "WordPiece scoring", prefix + "scoring", list(SCORING_LABELS),
                        format_func=SCORING_LABELS.get, disabled=not alg.scored)
    # a radio everywhere: its labels wrap, where a select box cuts them in a narrow column
    tie = bound(st.radio, "Tie rule", prefix + "tie", list(TIE_LABELS),
                format_func=TIE_LABELS.get, help=TIE_HELP)
    min_freq = 0
    if _has(prefix, "min_freq"):
        min_freq = bound(st.number_input, "Minimum pair frequency", prefix + "min_freq",
                         min_value=0, max_value=state.MAX_TYPED,
                         help="Stop when no pair occurs this often.")
    kwargs = train_options(
        algorithm,
        merges=get(prefix + "merges") if size_by == "merges" else None,
        vocab_size=get(prefix + "vocab") if size_by == "vocab" else None,
        marker=marker,
        marker_style=get(prefix + "marker_style") if styled else "separate",
        scoring=scoring, tie=tie, min_freq=min_freq)
    pretokenizer = alg.pretokenizer_for(pretok)
    details = [f"{int(get(prefix + 'merges')):,} merges" if size_by == "merges"
               else f"{int(get(prefix + 'vocab')):,} tokens", PRETOKENIZER_LABELS[pretokenizer]]
    if "marker" in kwargs:
        details.append(f"marker {marker}")
    if "scoring" in kwargs:
        details.append(SHORT_SCORING[scoring])
    details.append("ties: " + TIE_LABELS[tie].split(" (")[0])
    return Settings(make_options(**kwargs), pretokenizer,
                    f"{alg.label} ({', '.join(details)})")


def display_settings() -> None:
    """How bytes are shown, and presentation mode (the sidebar's Display section)."""
    bound(st.radio, "Bytes shown as", "bytes", ["gpt2", "hex"], horizontal=True,
          format_func={"gpt2": "GPT-2 characters (Ġ)", "hex": "hex <0xE6>"}.get,
          help="How byte-level tokens are drawn; partial characters never show as �.")
    bound(st.toggle, "Presentation mode", "present",
          help="Large type and high-contrast highlights, for a projector.")
