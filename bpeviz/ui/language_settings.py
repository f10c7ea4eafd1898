"""The widgets of the training settings of an algorithm that trains on one corpus per
language (its record's ``settings``: parity-aware BPE's variant, global merges, target
ratios, window size and alpha), drawn by :func:`bpeviz.ui.settings.training_settings`
among the other records' settings.

Each draws its widget when the settings named ``prefix + name`` hold one (the sidebar's;
Compare's configurations train with the trainer's defaults) and returns the option's
value, or :data:`OMIT` to leave the trainer's default.
"""

from __future__ import annotations

import math
import re
from typing import Any

import streamlit as st

import bpeviz.ui.state as state
from bpeviz.algorithms.parity_train import VARIANTS
from bpeviz.ui.state import bound
from bpeviz.ui.unigram_settings import OMIT

#: the variants as the sidebar names them
VARIANT_LABELS = {"base": "base: the worst-served language gets each merge",
                  "window": "window: no language takes more than its share of the last "
                            "merges"}
assert set(VARIANT_LABELS) == set(VARIANTS)


def _has(prefix: str, name: str) -> bool:
    return prefix + name in state.SETTINGS


def variant(prefix: str, chosen: dict[str, Any], compact: bool, off: bool = False) -> Any:
    if not _has(prefix, "pvariant"):
        return OMIT
    return bound(st.selectbox if compact else st.radio, "Parity variant", prefix + "pvariant",
                 list(VARIANT_LABELS), format_func=VARIANT_LABELS.get, disabled=off)


def global_merges(prefix: str, chosen: dict[str, Any], compact: bool, off: bool = False) -> Any:
    if not _has(prefix, "global_merges"):
        return OMIT
    return int(bound(st.number_input, "Global merges first", prefix + "global_merges",
                     min_value=0, max_value=state.MAX_TYPED, step=10, disabled=off,
                     help="The first merges take the pair most frequent over all languages "
                          "together, before the languages take turns."))


def parse_ratios(given: str) -> dict[str, float] | None:
    """The "Target ratios" box (``en=1.0, hi=1.3``) as {language: ratio}; None when it
    is empty; ValueError naming the entry that is wrong.

    >>> parse_ratios("en=1, hi=1.25")
    {'en': 1.0, 'hi': 1.25}
    >>> parse_ratios("  ") is None
    True
    """
    found: dict[str, float] = {}
    for entry in (e for e in re.split(r"[,\s]+", given.strip()) if e):
        lang, sep, value = entry.partition("=")
        try:
            ratio = float(value) if sep and lang else math.nan
        except ValueError:
            ratio = math.nan
        if not (math.isfinite(ratio) and ratio > 0):
            raise ValueError(f"Target ratios: “{entry[:40]}” is not language=number with a "
                             "positive number (e.g. en=1.0, hi=1.3)")
        found[lang] = ratio
    return found or None


def ratio(prefix: str, chosen: dict[str, Any], compact: bool, off: bool = False) -> Any:
    if not _has(prefix, "ratio"):
        return OMIT
    given = bound(st.text_input, "Target ratios", prefix + "ratio", max_chars=200,
                  placeholder="none (e.g. en=1.0, hi=1.3)", disabled=off,
                  help="Each language's target compression; the language furthest below "
                       "its target gets the next merge. One for every language, or none. "
                       "A dev text wins over ratios.")
    try:
        return parse_ratios(given or "") or OMIT
    except ValueError as err:
        st.warning(f"{err}; training without ratios until it is mended.", icon="⚠️")
        return OMIT


def window_size(prefix: str, chosen: dict[str, Any], compact: bool, off: bool = False) -> Any:
    if not _has(prefix, "window_size"):
        return OMIT
    return int(bound(st.number_input, "Window (merges)", prefix + "window_size", min_value=1,
                     max_value=state.MAX_TYPED, step=10,
                     disabled=off or chosen.get("variant") != "window",
                     help="Window variant: the last merges a language's share is counted "
                          "over."))


def alpha(prefix: str, chosen: dict[str, Any], compact: bool, off: bool = False) -> Any:
    if not _has(prefix, "alpha"):
        return OMIT
    return float(bound(st.number_input, "Alpha", prefix + "alpha", min_value=0.1,
                       max_value=100.0, step=0.5, format="%.2f",
                       disabled=off or chosen.get("variant") != "window",
                       help="Window variant: a language with more than alpha / languages of "
                            "the window's merges is passed over for the next one down."))


def variant_detail(value: str) -> str:
    """How a description names the variant ("window variant")."""
    return f"{value} variant"
