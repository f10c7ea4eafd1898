"""The training and display settings, drawn once for the sidebar and once per Compare
configuration by the same function, :func:`training_settings`.

Which widgets a configuration has is the chosen algorithm's record: its ``sizes`` (how a
training's length is given) and its ``settings`` (the options of ``bpeviz.train`` a user
chooses for it), each drawn by its entry in :data:`WIDGETS`; so a new algorithm gets its
sidebar from its record alone. Labels are :mod:`bpeviz.ui.labels`; a widget is drawn
only where its setting ``prefix + name`` is in :data:`bpeviz.ui.state.SETTINGS` (the
sidebar's ``algo``, Compare's ``c1_algo``), so a link keeps working. The result is one
:class:`Settings`: the keywords of ``bpeviz.train`` the pages train with, and the
pre-tokenizer they cut the corpus with.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

import bpeviz.ui.language_settings as language_settings
import bpeviz.ui.state as state
import bpeviz.ui.unigram_settings as unigram_settings
from bpeviz import algorithms
from bpeviz.algorithms import Algorithm
from bpeviz.core.limits import LIMITS
from bpeviz.core.training import takes_languages
from bpeviz.text.pretokenize import PRETOKENIZERS
from bpeviz.ui.labels import (
    MARKER_LABELS,
    PRETOKENIZER_LABELS,
    SCORING_LABELS,
    SHORT_SCORING,
    TIE_HELP,
    TIE_LABELS,
    algorithm_labels,
    pretokenizer_label,
)
from bpeviz.ui.state import bound, get
from bpeviz.ui.unigram_settings import OMIT

#: the setting of a vocabulary size that may be left empty, for an algorithm sized by
#: nothing else: its trainer then chooses one for the corpus (Unigram's, about 8 rounds)
OPEN_VOCAB = "uvocab"


def train_options(algorithm: str, *, merges: int | None = None, vocab_size: int | None = None,
                  marker: str = "none", marker_style: str = "separate", scoring: str = "score",
                  tie: str = "first", min_freq: int = 0) -> dict[str, Any]:
    """The keyword arguments of ``bpeviz.train`` for the app's settings: those the
    algorithm's record names in its ``settings`` (the marker only when one is chosen).

    >>> train_options("wordpiece", merges=5, marker="</w>")["scoring"]
    'score'
    >>> "marker" in train_options("wordpiece", merges=5, marker="</w>")
    False
    """
    given: dict[str, Any] = {"tie_break": tie, "min_frequency": int(min_freq),
                             "scoring": scoring}
    if marker != "none":
        given.update(marker=marker, marker_style=marker_style)
    size = {"vocab_size": int(vocab_size)} if vocab_size is not None else {
        "merges": int(merges or 0)}
    return {"algorithm": algorithm, **size, **_taken(algorithm, given)}


def _taken(algorithm: str, given: dict[str, Any]) -> dict[str, Any]:
    """The options of ``given`` that ``algorithm``'s record names, in its order."""
    return {name: given[name] for name in algorithms.get(algorithm).settings
            if name in given and given[name] is not OMIT}


@dataclass(frozen=True)
class Settings:
    """What a set of training widgets chose: the options to train with, the pre-tokenizer
    to cut the corpus with (``auto`` resolved) and a short description for labels."""

    #: the keyword arguments of ``bpeviz.train`` (``algorithm`` among them)
    options: dict[str, Any]
    pretokenizer: str
    description: str

    @property
    def algorithm(self) -> str:
        return self.options["algorithm"]


def _has(prefix: str, name: str) -> bool:
    return prefix + name in state.SETTINGS


#: a widget: draws the option (``prefix``: whose settings; ``chosen``: the options drawn
#: before it; ``compact``: narrow columns; ``off``: drawn disabled, the algorithm does not
#: take it) and returns its value, or OMIT when it is not drawn
Widget = Callable[[str, dict[str, Any], bool, bool], Any]


def _takers(name: str) -> str:
    """The algorithms whose records name the option ``name`` ("WordPiece")."""
    return " / ".join(algorithms.get(a).short for a in algorithms.names()
                      if name in algorithms.get(a).settings)


def _marker(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    marker = bound(st.selectbox, "End-of-word marker", prefix + "marker", list(MARKER_LABELS),
                   format_func=MARKER_LABELS.get, disabled=off,
                   help=f"{_takers('marker')} only: a symbol that ends every word.")
    return OMIT if marker == "none" else marker


def _marker_style(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    if not _has(prefix, "marker_style"):
        return OMIT
    style = bound(st.selectbox, "Marker", prefix + "marker_style", ["separate", "glued"],
                  disabled=off or chosen.get("marker", OMIT) is OMIT,
                  help="separate: 'low' → l o w </w>; glued: l o w</w>")
    return OMIT if chosen.get("marker", OMIT) is OMIT else style


def _scoring(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    # radios in the sidebar: their labels wrap, where a select box cuts them at its edge
    return bound(st.selectbox if compact else st.radio, f"{_takers('scoring')} scoring",
                 prefix + "scoring", list(SCORING_LABELS), format_func=SCORING_LABELS.get,
                 disabled=off)


def _tie(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    # a radio everywhere: its labels wrap, where a select box cuts them in a narrow column
    return bound(st.radio, "Tie rule", prefix + "tie", list(TIE_LABELS),
                 format_func=TIE_LABELS.get, help=TIE_HELP, disabled=off)


def _min_freq(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    if not _has(prefix, "min_freq"):
        return OMIT
    return int(bound(st.number_input, "Minimum pair frequency", prefix + "min_freq",
                     min_value=0, max_value=state.MAX_TYPED, disabled=off,
                     help="Stop when no pair occurs this often."))


def _transition(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    if not _has(prefix, "transition"):
        return OMIT
    value = bound(st.number_input, "Stage 2 from merge", prefix + "transition", min_value=0,
                  max_value=state.MAX_TYPED, step=10, placeholder="90% of the merges",
                  disabled=off, help="The merges before it stay inside words (stage 1); "
                  "those after it may cross spaces (stage 2). Empty: 90% of the merges.")
    return OMIT if value is None else int(value)


#: the key of ``chosen`` that holds the algorithm the widgets are drawn for
ALGORITHM = "_algorithm"


def _variant(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    """The trainer's variant: the per-language trainer's (parity-aware BPE's base or
    window) for an algorithm trained on one corpus per language, else Unigram's."""
    algorithm = chosen.get(ALGORITHM)
    if algorithm is not None and takes_languages(algorithm):
        return language_settings.variant(prefix, chosen, compact, off)
    return unigram_settings.variant(prefix, chosen, compact, off)


def _threshold(prefix: str, chosen: dict[str, Any], compact: bool, off: bool) -> Any:
    if not _has(prefix, "threshold"):
        return OMIT
    value = bound(st.selectbox, "Removal threshold (IoS)", prefix + "threshold",
                  list(state.THRESHOLDS), disabled=off,
                  help="After each merge, a part of the new token whose Intersection over "
                       "Self (the share of its uses inside the new token) is above this "
                       "is removed from the vocabulary. Lower: more removals.")
    return float(value)


#: the widget of each option a record's ``settings`` may name, in the order they are
#: drawn; an option without one is left at ``bpeviz.train``'s default
WIDGETS: dict[str, Widget] = {
    "marker": _marker,
    "marker_style": _marker_style,
    "scoring": _scoring,
    "tie_break": _tie,
    "min_frequency": _min_freq,
    "transition": _transition,
    "threshold": _threshold,
    "variant": _variant,
    "global_merges": language_settings.global_merges,
    "ratio": language_settings.ratio,
    "window_size": language_settings.window_size,
    "alpha": language_settings.alpha,
    "shrinking_factor": unigram_settings.shrinking_factor,
    "seed_size": unigram_settings.seed_size,
}


def _drawn(alg: Algorithm) -> list[str]:
    """The options drawn for ``alg``: its own, and greyed out those of the algorithms its
    trainer also trains (switching between them keeps the settings in their places)."""
    kin = {name for a in algorithms.names() if algorithms.get(a).trainer == alg.trainer
           for name in algorithms.get(a).settings}
    return [name for name in WIDGETS if name in kin or name in alg.settings]


#: how a description names a chosen option (the others go unnamed)
DETAILS: dict[str, Callable[[Any], str]] = {
    "marker": lambda value: f"marker {value}",
    "scoring": SHORT_SCORING.__getitem__,
    "tie_break": lambda value: "ties: " + TIE_LABELS[value].split(" (")[0],
    "variant": lambda value: (language_settings.variant_detail(value)
                              if value in language_settings.VARIANT_LABELS
                              else unigram_settings.variant_detail(value)),
    "global_merges": lambda value: f"{value:,} global merges first",
    "ratio": lambda value: "ratios " + ", ".join(f"{k}={v:g}" for k, v in value.items()),
    "transition": lambda value: f"stage 2 from merge {value:,}",
    "threshold": lambda value: f"removal threshold {value:g}",
}


def _size(prefix: str, alg: Algorithm) -> tuple[dict[str, Any], str]:
    """Draw how long to train (the record's ``sizes``): its keyword and its description."""
    size_by = alg.sizes[0]
    if len(alg.sizes) > 1 and _has(prefix, "size_by"):
        size_by = bound(st.radio, "Train until", prefix + "size_by", list(alg.sizes),
                        horizontal=True, format_func={"merges": "a number of merges",
                                                      "vocab": "a vocabulary size"}.get)
    if size_by == "merges":
        merges = int(bound(st.number_input, "Merges", prefix + "merges", min_value=0,
                           max_value=state.MAX_TYPED, step=10,
                           help=f"The live explorer makes up to {LIMITS.merges:,} merges."))
        return {"merges": merges}, f"{merges:,} merges"
    help = "How many tokens the vocabulary holds at the end, special tokens included."
    if len(alg.sizes) == 1 and _has(prefix, OPEN_VOCAB):
        size = bound(st.number_input, "Vocabulary size", prefix + OPEN_VOCAB, min_value=1,
                     max_value=state.MAX_TYPED, step=10, placeholder="chosen for the corpus",
                     help=help + " Leave it empty to let the app choose one for this corpus "
                                 "(Explore says why).")
        if size is None:
            return {"vocab_size": None}, "size chosen for the corpus"
    else:
        size = bound(st.number_input, "Vocabulary size", prefix + "vocab", min_value=1,
                     max_value=state.MAX_TYPED, step=10, help=help)
    return {"vocab_size": int(size)}, f"{int(size):,} tokens"


def training_settings(prefix: str = "", *, compact: bool = False) -> Settings:
    """Draw the training widgets of the settings named ``prefix + name`` and return what
    they chose. The sidebar uses ``prefix=""``; Compare ``"c1_"``, ``"c2_"``, ... whose
    settings have no "train until" choice, marker style, minimum frequency or keep share.

    ``compact`` draws select boxes where the sidebar has radios (narrow columns).
    """
    offered = algorithms.offered()
    labels = {name: label for name, label in algorithm_labels().items() if name in offered}
    if get(prefix + "algo") not in labels:
        state.put(prefix + "algo", next(iter(labels)))
    algorithm = bound(st.selectbox, "Algorithm", prefix + "algo", list(labels),
                      format_func=labels.get)
    alg = algorithms.get(algorithm)
    size, size_detail = _size(prefix, alg)
    pretok = bound(st.selectbox, "Pre-tokenizer", prefix + "pretok", list(PRETOKENIZER_LABELS),
                   format_func=pretokenizer_label(algorithm),
                   help="How text is cut into words before training: "
                        + "; ".join(f"{k}: {v}" for k, v in PRETOKENIZERS.items())
                        + "; auto: the algorithm's own.")
    pretokenizer = alg.pretokenizer_for(pretok)
    chosen: dict[str, Any] = {ALGORITHM: algorithm}
    for name in _drawn(alg):
        chosen[name] = WIDGETS[name](prefix, chosen, compact, name not in alg.settings)
    options = _taken(algorithm, chosen)
    details = [size_detail, PRETOKENIZER_LABELS[pretokenizer]] + [
        DETAILS[name](value) for name, value in options.items() if name in DETAILS]
    return Settings({"algorithm": algorithm, **size, **options}, pretokenizer,
                    f"{alg.label} ({', '.join(details)})")


def display_settings() -> None:
    """How bytes are shown, and presentation mode (the sidebar's Display section)."""
    bound(st.radio, "Bytes shown as", "bytes", ["gpt2", "hex"], horizontal=True,
          format_func={"gpt2": "GPT-2 characters (Ġ)", "hex": "hex <0xE6>"}.get,
          help="How byte-level tokens are drawn; partial characters never show as �.")
    bound(st.toggle, "Presentation mode", "present",
          help="Large type and high-contrast highlights, for a projector.")
