"""A page's set-up: ``ctx = page_setup.page("Explore")`` sets the page up, draws the
sidebar (corpus and training settings, shared by every page), trains (cached) and
returns a :class:`~bpeviz.ui.context.Context`; on bad input it shows a message and stops
the page, never a traceback.
"""

from __future__ import annotations

import importlib
import logging
from types import ModuleType
from typing import Any

import streamlit as st

import bpeviz.ui.page_errors as page_errors
import bpeviz.ui.state as state
from bpeviz import algorithms
from bpeviz.core import limits
from bpeviz.core.limits import LIMITS
from bpeviz.core.training import takes_languages
from bpeviz.present.render import md_escape, style_block
from bpeviz.samples import SAMPLES, Sample, sample_bytes
from bpeviz.text.corpus import Corpus
from bpeviz.ui.context import Context, training_problems
from bpeviz.ui.labels import ALGORITHM_LABELS
from bpeviz.ui.languages import LanguageTexts, Missing, language_source
from bpeviz.ui.messages import error, show_resets, warning
from bpeviz.ui.opened_path import open_startup_training
from bpeviz.ui.paste_keeper import keep_paste
from bpeviz.ui.settings import Settings, display_settings, training_settings
from bpeviz.ui.state import bound, get, put
from bpeviz.ui.theme_link import keep_theme_in_link
from bpeviz.ui.training import get_corpus, get_language_training, get_training

log = logging.getLogger("bpeviz.ui")



def views_of(algorithm: str) -> ModuleType | None:
    """The module of an algorithm's own views (its record's ``views``; its ``PAGES``:
    title -> view of the page's context, ``INSTEAD``: what it does instead of merges),
    or None when the merge pages draw it."""
    module = algorithms.get(algorithm).views
    return importlib.import_module(module) if module else None


def own_view(ctx: Context, title: str) -> None:
    """When the training's record names its own view of page ``title`` (Unigram's pruning
    rounds), draw that view and stop the page; else return, and the page draws itself."""
    own = views_of(ctx.algorithm)
    view = own.PAGES.get(title) if own is not None else None
    if view is not None:
        view(ctx)
        st.stop()


# A page's own address (/Explore) opened directly logs two 404s in the browser console,
# /Explore/_stcore/health and /Explore/_stcore/host-config: Streamlit's front end cannot
# tell a page name from a base URL path, so it tries "Explore" as the base path first,
# then the root (streamlit/streamlit pull 4574; still so in 1.67). Streamlit's behaviour,
# not our configuration (no baseUrlPath is set); the page loads normally, and
# tests/browser/test_a_page_opened_by_its_address_logs_no_error.py checks that these are
# the only console errors.
PAGES = [
    ("app.py", "Home", ":material/home:"),
    ("pages/0_Learn.py", "Learn", ":material/school:"),
    ("pages/1_Explore.py", "Explore", ":material/timeline:"),
    ("pages/2_Tokenize.py", "Tokenize", ":material/content_cut:"),
    ("pages/3_Compare.py", "Compare", ":material/compare:"),
    ("pages/4_Vocabulary.py", "Vocabulary", ":material/menu_book:"),
]


def _apply_sample_settings() -> None:
    sample = SAMPLES.get(get("sample"))
    if sample is None:
        return
    for name, value in sample.settings.items():
        put(name, value)
    put("size_by", "merges")
    if not st.session_state.get("text_edited"):
        put("text", sample.try_text)


def _store_upload() -> None:
    uploaded = st.session_state.get("w_upload")
    if uploaded is not None:
        st.session_state["upload"] = (uploaded.name, uploaded.getvalue())


def _forget_upload() -> None:
    st.session_state.pop("upload", None)


def _corpus_source() -> tuple[bytes | None, str, Sample | None]:
    """Draw the corpus inputs; return (data, name, sample)."""
    source = bound(st.segmented_control, "Corpus", "source", ["sample", "paste", "upload"],
                   format_func={"sample": "Sample", "paste": "Paste", "upload": "Upload"}.get,
                   required=True)
    if source == "sample":
        name = bound(st.selectbox, "Sample", "sample", list(SAMPLES),
                     format_func=lambda s: SAMPLES[s].title, then=_apply_sample_settings,
                     help="Picking a sample also loads the settings its tutorial used.")
        sample = SAMPLES[name]
        st.caption(md_escape(sample.about))
        return sample_bytes(name), sample.filename, sample
    if source == "paste":
        # No max_chars: the browser drops a paste longer than max_chars without a word
        # (seen in Chromium). Every size comes through, and page() answers one over the limit
        # with "Corpus too large" and the command line route, keeping the text in the box.
        text = bound(st.text_area, "Text to train on", "paste", height=160,
                     placeholder="Paste any text, or word<TAB>count lines",
                     help=f"Up to {LIMITS.text_chars:,} characters. Lines of word<TAB>count "
                          "are read as a frequency table. Press Train (or Ctrl+Enter) to "
                          "train.")
        # the click takes the box's text with it (the box sends its text when it loses focus)
        st.button("Train", key="paste_train", type="primary", icon=":material/play_arrow:",
                  help="Train on the text in the box")
        keep_paste()  # a reload of the tab gets the text back
        if not text or text.isspace():  # (strip() copied all 10 MB on every run)
            return None, "pasted text", None
        return text.encode("utf-8", "surrogatepass"), "pasted text", None
    st.file_uploader("UTF-8 text or word<TAB>count file", key="w_upload",
                     on_change=_store_upload, max_upload_size=LIMITS.upload_bytes // 1_000_000,
                     help=f"Up to {LIMITS.upload_bytes // 1_000_000} MB; the live explorer "
                          f"trains on up to {LIMITS.text_chars:,} characters.")
    uploaded = st.session_state.get("upload")
    if uploaded is None:
        return None, "upload", None
    name, data = uploaded
    st.caption(md_escape(f"Using {name} ({len(data):,} bytes)"))
    st.button("Forget this file", on_click=_forget_upload, key="forget_upload")
    return data, name, None


def _language_corpora(texts: dict[str, bytes], pretokenizer: str, what: str,
                      corpus_note: Any) -> dict[str, Corpus]:
    """Each language's corpus; a ValueError naming the language whose text is unusable."""
    corpora = {}
    for language, data in texts.items():
        name = f"the {language} {what}"
        try:
            corpora[language] = get_corpus(data, pretokenizer, name)
        except ValueError as err:
            message = str(err) if name in str(err) else f"{name}: {err}"
            with corpus_note:
                error(message)
            raise ValueError(message) from None
    return corpora


def _per_language(given: LanguageTexts, chosen: Settings, uses_training: bool,
                  corpus_note: Any) -> Context:
    """The context of a training on one corpus per language (inside :func:`page`'s
    guard: a ValueError becomes a message)."""
    corpora = _language_corpora(given.texts, chosen.pretokenizer, "text", corpus_note)
    dev = None if given.dev is None else _language_corpora(given.dev, chosen.pretokenizer,
                                                           "dev text", corpus_note)
    problems = limits.check_sizes(0, sum(len(c.words) for c in corpora.values()), 0,
                                  chosen.algorithm, chosen.pretokenizer)
    if problems:
        for problem in problems:
            st.error(problem, icon="🛑")
        st.stop()
    options = chosen.options
    if not uses_training:  # Compare trains its own configurations (on every language)
        corpus = get_corpus(given.joined(), chosen.pretokenizer, given.name)
        return Context(corpus=corpus, corpus_name=given.name, data=given.joined(),
                       training=None, train_options=options,  # type: ignore[arg-type]
                       byte_style=get("bytes"), presentation=bool(get("present")),
                       sample=None, languages=given)
    training = get_language_training(corpora, dev, options)
    if training.stopped_early:
        st.sidebar.caption(md_escape(training.stop_message))
    return Context(corpus=training.corpus, corpus_name=given.name, data=given.joined(),
                   training=training, train_options=options, byte_style=get("bytes"),
                   presentation=bool(get("present")), sample=None, languages=given)


def page(title: str, *, uses_training: bool = True) -> Context:
    """Set up a page: config, styles, URL state, the sidebar and the (cached) training.

    Stops the page with a clear message when the corpus or the settings are not usable.
    A page with its own training settings (Compare: ``uses_training=False``) shows the
    sidebar's Training section folded away, marked as not used there.
    """
    st.set_page_config(page_title=f"{title} · bpeviz", page_icon="🧩", layout="wide",
                       initial_sidebar_state="expanded")
    page_errors.guard()
    ignored = state.start_run(title)
    unopened = open_startup_training()  # a training given on the command line
    st.html(style_block(bool(get("present"))))
    with st.sidebar:
        links = state.url_params()
        for path, name, icon in PAGES:
            st.page_link(path, label=name, icon=icon, query_params=links)
        st.subheader("Corpus")
        # the corpus inputs of the algorithm chosen (its box comes below: its stored value)
        per_language = takes_languages(get("algo"))
        given: LanguageTexts | Missing | None = None
        if per_language:
            given = language_source()
            data, name, sample = ((given.joined(), given.name, None)
                                  if isinstance(given, LanguageTexts) else (None, "", None))
        else:
            data, name, sample = _corpus_source()
        corpus_note = st.empty()  # a file that cannot be read says why here too
        if uses_training:
            st.subheader("Training")
            chosen = training_settings()
        else:
            with st.expander("Training: not used on this page", expanded=False):
                st.caption(f"{title} has its own settings for each configuration; these "
                           "apply on the other pages.")
                chosen = training_settings()
        st.subheader("Display")
        display_settings()
        keep_theme_in_link()
    state.write_url()
    if takes_languages(chosen.algorithm) != per_language:
        st.rerun()  # the algorithm changed under this run: draw its corpus inputs
    if unopened:
        error(unopened)
    if ignored:
        warning("This link had settings that could not be used, and were left at their "
                f"defaults: {', '.join(ignored)}.")
    show_resets()
    if isinstance(given, Missing):  # a language's text, or a wrong entry: say which
        if given.problem:
            error(given.message)
        else:
            st.info(md_escape(given.message), icon="📋")
        st.stop()
    if data is None:
        if get("source") == "paste":
            st.info("Paste a text in the sidebar to train on it. Pasted text never goes into "
                    "links: a shared link opens with an empty box.", icon="📋")
        else:
            st.info("Upload a UTF-8 text file or a word<TAB>count file in the sidebar. "
                    "Uploaded files never go into links.", icon="📂")
        st.stop()
    options, pretokenizer = chosen.options, chosen.pretokenizer
    try:
        chars = len(data.decode("utf-8", "ignore")) if len(data) > LIMITS.text_chars else 0
        problems = limits.check_sizes(chars, algorithm=chosen.algorithm,
                                      pretokenizer=pretokenizer)
        if not problems and isinstance(given, LanguageTexts):
            return _per_language(given, chosen, uses_training, corpus_note)
        if not problems:
            try:
                corpus = get_corpus(data, pretokenizer, name)
            except ValueError as err:
                with corpus_note:
                    error(err)
                raise
            problems = training_problems(corpus, chosen) if uses_training else []
        if problems:
            for problem in problems:
                st.error(problem, icon="🛑")
            st.stop()
        if not uses_training:  # the page trains its own configurations
            return Context(corpus=corpus, corpus_name=name, data=data,
                           training=None, train_options=options,  # type: ignore[arg-type]
                           byte_style=get("bytes"), presentation=bool(get("present")),
                           sample=sample)
        training = get_training(corpus, options)
        own = views_of(chosen.algorithm)
        if own is not None:  # its own views (on the pages that have one) draw it
            if title not in own.PAGES:
                st.info(md_escape(
                    f"The {title} page shows trainings made by merges; "
                    f"{ALGORITHM_LABELS[chosen.algorithm]} {own.INSTEAD}. See it on "
                    f"{', '.join(own.PAGES)}, or choose another algorithm in the sidebar."),
                    icon="ℹ️")
                for page_name in own.PAGES:
                    path = next(p for p, n, _ in PAGES if n == page_name)
                    st.page_link(path, label=f"Open {page_name}")
                st.stop()
            return Context(corpus=corpus, corpus_name=name, data=data, training=training,
                           train_options=options, byte_style=get("bytes"),
                           presentation=bool(get("present")), sample=sample)
        too_big = limits.check(weighted_symbols=training.initial_tokens)
        if too_big:  # counts past 2**53: the pages' tables would round them
            for problem in too_big:
                st.error(problem, icon="🛑")
            st.stop()
    except ValueError as err:
        error(err)
        st.stop()
    except Exception as err:  # a bug, not the user's input: say so, keep the page up
        log.exception("training failed")
        st.error(f"Training failed unexpectedly ({type(err).__name__}). This is a bug in "
                 "bpeviz, not in your input; the details are in the server log.", icon="🐞")
        st.stop()
    if training.stopped_early:
        st.sidebar.caption(md_escape(training.stop_message))
    return Context(corpus=corpus, corpus_name=name, data=data, training=training,
                   train_options=options, byte_style=get("bytes"),
                   presentation=bool(get("present")), sample=sample)
