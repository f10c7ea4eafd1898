"""Streamlit glue for Compare: each configuration's widgets, the one control that moves
every configuration, and cached metric curves. The comparing itself is
:mod:`bpeviz.compare`; the drawing, :mod:`bpeviz.render_compare`."""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import streamlit as st

from bpeviz import compare as cmp
from bpeviz.curves import metric_curve
from bpeviz.render_compare import CONFIG_LETTERS
from bpeviz.training import Training
from bpeviz.ui import Context, imported, train_variant
from bpeviz.ui.settings import PRETOKENIZER_LABELS, algorithm_labels, training_settings
from bpeviz.ui.state import bound, clamp, get, put


@dataclass(frozen=True)
class Configuration:
    """One column of Compare: its label (as the legend, table and charts show it), the
    training it cuts with and whether it is an opened file."""

    label: str
    training: Training
    opened: bool = False


def configuration(ctx: Context, i: int) -> Configuration:
    """Draw configuration ``i``'s widgets (1-based); train it (cached) or take the opened
    tokenizer file. Raises ValueError with a message for the user."""
    letter = CONFIG_LETTERS[i - 1]
    opened = imported()
    if opened is None and get(f"c{i}_source") == "opened":
        put(f"c{i}_source", "train")
    if opened is not None:
        bound(st.radio, "Tokenizer", f"c{i}_source", ["train", "opened"], horizontal=True,
              format_func={"train": "train on the corpus",
                           "opened": f"the opened file ({opened[0]})"}.get)
    if opened is not None and get(f"c{i}_source") == "opened":
        names, training = opened
        st.caption(f"{algorithm_labels()[training.algorithm]}: {len(training.vocab):,} tokens, "
                   f"{len(training.merges):,} merges, cut with the "
                   f"{PRETOKENIZER_LABELS[cmp_pretokenizer(training)]} pre-tokenizer.")
        return Configuration(f"{letter}: {names} (opened file)", training, opened=True)
    chosen = training_settings(f"c{i}_", compact=True, steps=("merge",))
    training = train_variant(ctx, chosen, f"Training {letter}")
    return Configuration(f"{letter}: {chosen.description}", training)


def cmp_pretokenizer(training: Training) -> str:
    name = training.corpus.pretokenizer
    return "whitespace" if name == "counts" else name


def positions(configurations: list[Configuration]) -> tuple[list[int], list[str]]:
    """Draw the control that moves every configuration; return each one's step and a
    note for each (empty, or why the step is not exactly the chosen vocabulary size)."""
    mode = bound(st.segmented_control, "Move every configuration by", "cmp_mode",
                 ["step", "vocab"], required=True,
                 format_func={"step": "the same merge step",
                              "vocab": "the same vocabulary size"}.get)
    trainings = [c.training for c in configurations]
    if mode == "step":
        last = max(len(t.merges) for t in trainings)
        if last == 0:
            st.info("No configuration made any merge: every one is at step 0.")
            return [0] * len(trainings), [""] * len(trainings)
        clamp("cmp_step", 0, last)
        step = bound(st.slider, "Merge step (every configuration)", "cmp_step", min_value=0,
                     max_value=last,
                     help="Each configuration shows its state after this many merges "
                          "(or its last, if it made fewer).")
        _to_url("cmp_mode", "cmp_step")
        steps = [min(step, len(t.merges)) for t in trainings]
        notes = [f"made only {len(t.merges):,} merges: shown at its last step"
                 if len(t.merges) < step else "" for t in trainings]
        return steps, notes
    sizes = [cmp.vocabulary_size(t, 0) for t in trainings]
    finals = [cmp.vocabulary_size(t, len(t.merges)) for t in trainings]
    lo, hi = min(sizes), max(finals)
    if lo >= hi:
        st.info("Every configuration has the same vocabulary size at every step.")
        return [0] * len(trainings), [""] * len(trainings)
    clamp("cmp_vocab", lo, hi)
    target = bound(st.slider, "Vocabulary size (tokens, every configuration)", "cmp_vocab",
                   min_value=lo, max_value=hi,
                   help="Each configuration shows the last step at which its vocabulary "
                        "has at most this many tokens (special tokens and alphabet "
                        "included).")
    _to_url("cmp_mode", "cmp_vocab")
    found = [cmp.step_for_vocab_size(t, target) for t in trainings]
    return [f.step for f in found], [f.note for f in found]


def _to_url(*names: str) -> None:
    """Put these settings into the link (the position control runs in a fragment, which
    does not rewrite the whole query string)."""
    for name in names:
        value = str(get(name))
        if st.query_params.get(name) != value:
            st.query_params[name] = value


# -- metric curves, cached per training and text -------------------------------------------
_CURVES: weakref.WeakKeyDictionary[Training, OrderedDict[tuple[str, bool], list[dict[str, Any]]]]
_CURVES = weakref.WeakKeyDictionary()
_LOCK = threading.Lock()
_TEXTS_PER_TRAINING = 4


def curve(training: Training, text: str, by_script: bool = False) -> list[dict[str, Any]]:
    """:func:`bpeviz.curves.metric_curve` of ``text``, kept for a few texts per training."""
    key = (text, by_script)
    with _LOCK:
        found = _CURVES.get(training, OrderedDict()).get(key)
    if found is not None:
        return found
    rows = metric_curve(training, text, by_script=by_script)
    with _LOCK:
        kept = _CURVES.setdefault(training, OrderedDict())
        kept[key] = rows
        while len(kept) > _TEXTS_PER_TRAINING:
            kept.popitem(last=False)
    return rows
