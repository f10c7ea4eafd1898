"""Streamlit glue for the Learn page: a page set-up without the corpus sidebar (the
lesson trains its own small sample), the cached lesson, and the jump to Explore.
"""

from __future__ import annotations

from collections.abc import Iterable

import streamlit as st

import bpeviz.ui.page_errors as page_errors
import bpeviz.ui.state as state
from bpeviz.analysis.lesson import (
    LESSON_SAMPLES,
    SMALL_SAMPLES,
    Lesson,
    LessonStep,
    Sentence,
    Sym,
    build_lesson,
    lesson_options,
    lesson_pretokenizer,
)
from bpeviz.core.training import Training, make_options
from bpeviz.present import glossary
from bpeviz.present.render import style_block
from bpeviz.samples import SAMPLES, sample_bytes
from bpeviz.text.symbols import Symbol
from bpeviz.ui.messages import show_resets
from bpeviz.ui.page_setup import PAGES
from bpeviz.ui.settings import display_settings
from bpeviz.ui.state import get, put
from bpeviz.ui.training import get_corpus, get_training

#: the lesson's own settings (plain session state, kept across pages)
_FIRST = next(iter(LESSON_SAMPLES))  # the lesson to start with
DEFAULTS = {"learn_algo": _FIRST, "learn_sample": LESSON_SAMPLES[_FIRST], "learn_step": 1}


def setup(title: str = "Learn") -> tuple[str, bool]:
    """Set the page up: config, styles, page links and display settings in the sidebar.

    Returns (byte style, presentation mode).
    """
    st.set_page_config(page_title=f"{title} · bpeviz", page_icon="🧩", layout="wide",
                       initial_sidebar_state="expanded")
    page_errors.guard()
    state.start_run(title)
    for name, value in DEFAULTS.items():
        st.session_state.setdefault(name, value)
    if st.session_state["learn_algo"] not in LESSON_SAMPLES:
        st.session_state["learn_algo"] = DEFAULTS["learn_algo"]
    if st.session_state["learn_sample"] not in SMALL_SAMPLES:
        st.session_state["learn_sample"] = LESSON_SAMPLES[st.session_state["learn_algo"]]
    st.html(style_block(bool(get("present"))))
    with st.sidebar:
        links = state.url_params()
        for path, name, icon in PAGES:
            st.page_link(path, label=name, icon=icon, query_params=links)
        st.subheader("Display")
        display_settings()
        st.caption("The lesson trains its own small sample; the corpus and training "
                   "settings are on the other pages.")
    state.write_url()
    show_resets()
    return get("bytes"), bool(get("present"))


def training(algorithm: str, sample_id: str) -> Training:
    """The lesson's training (cached, shared with Explore for the same settings)."""
    corpus = get_corpus(sample_bytes(sample_id), lesson_pretokenizer(algorithm),
                        SAMPLES[sample_id].filename)
    options = make_options(**lesson_options(algorithm, sample_id))  # the sidebar's form
    return get_training(corpus, options, "Training the lesson")


@st.cache_resource(max_entries=32, show_spinner=False)
def _lesson(algorithm: str, sample_id: str, _training: Training) -> Lesson:
    return build_lesson(_training, SAMPLES[sample_id].try_text)


def lesson(algorithm: str, sample_id: str) -> Lesson:
    """The lesson on a sample (cached)."""
    return _lesson(algorithm, sample_id, training(algorithm, sample_id))


def _symbols(sentences: Iterable[Sentence]) -> list[Symbol]:
    return [p.symbol for s in sentences for p in s if isinstance(p, Sym) and p.id >= 0]


def legend_html(step: LessonStep, training: Training, byte_style: str) -> str:
    """"What the marks mean" for the chips of a step: the lesson's own, and those of each
    section's example (read by its own training; one without merge options, PickyBPE's,
    says what its ▁ means in its sentences)."""
    symbols = _symbols(step.sentences)
    symbols += [s.symbol for w in step.words for s in (*w.before, *w.after)]
    found = list(glossary.notes(training, symbols, byte_style))
    for section in step.sections:
        if isinstance(section.training, Training):
            seen = {n.key for n in found}
            found += [n for n in glossary.notes(section.training, _symbols(section.sentences),
                                                byte_style) if n.key not in seen]
    return glossary.legend_html(found)


def switch_algorithm(algorithm: str) -> None:
    """Start the lesson again with another algorithm, on its own sample (a callback)."""
    put("learn_algo", algorithm)
    put("learn_sample", LESSON_SAMPLES[algorithm])
    put("learn_step", 1)


def open_in_explore(algorithm: str, sample_id: str, step: int) -> None:
    """Switch to Explore with this sample, algorithm and step (the sidebar follows)."""
    sample = SAMPLES[sample_id]
    options = lesson_options(algorithm, sample_id)
    put("source", "sample")
    put("sample", sample_id)
    put("algo", algorithm)
    put("size_by", "merges")
    put("merges", options["merges"])
    put("marker", sample.settings.get("marker", "none"))
    put("marker_style", "separate")
    put("scoring", "score")
    put("tie", "first")
    put("min_freq", 0)
    put("pretok", "auto")
    put("step", int(step))
    if not st.session_state.get("text_edited"):
        put("text", sample.try_text)
    st.switch_page("pages/1_Explore.py")
