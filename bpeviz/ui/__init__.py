"""Streamlit glue for the explorer: the shared sidebar, cached training, step controls.

This package is the only part of ``bpeviz`` that imports streamlit. A page starts with
``ctx = ui.page("Explore")``: it sets the page up, draws the sidebar (corpus and
training settings, shared by every page), trains (cached) and returns a
:class:`Context`; on bad input it shows a message and stops the page, never a traceback.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import streamlit as st

from bpeviz import limits
from bpeviz.corpus import Corpus
from bpeviz.limits import LIMITS
from bpeviz.pretokenize import PRETOKENIZERS
from bpeviz.render import md_escape, style_block
from bpeviz.samples import SAMPLES, Sample, sample_bytes
from bpeviz.snapshot import Snapshot
from bpeviz.training import Training, base_vocabulary, make_options
from bpeviz.ui import state
from bpeviz.ui.state import bound, get, put
from bpeviz.ui.training import get_corpus, get_training, snapshot

log = logging.getLogger("bpeviz.ui")

ALGORITHM_LABELS = {"bpe": "BPE (characters)", "bbpe": "Byte-level BPE", "wordpiece": "WordPiece",
                    "unigram": "Unigram (SentencePiece)"}
#: the pages that can show a training whose steps prune (Unigram); the others say so
PRUNE_PAGES = ("Explore", "Tokenize", "Vocabulary")
PRETOKENIZER_LABELS = {
    "auto": "auto (GPT-2 for byte-level, whitespace otherwise)",
    "whitespace": "whitespace",
    "gpt2": "GPT-2 regex",
    "none": "none (one word per line)",
}
#: what a pre-tokenizer box shows (short enough for the sidebar; auto says what it picks)
PRETOKENIZER_SHORT = {"whitespace": "whitespace", "gpt2": "GPT-2 regex",
                      "none": "one word per line"}
MARKER_LABELS = {"none": "none", "</w>": "</w>", "_": "_"}
SCORING_LABELS = {"score": "score = count(ab) / (count(a)·count(b))",
                  "frequency": "frequency (like HF's WordPieceTrainer)"}
TIE_LABELS = {"first": "first seen in the corpus (minbpe, tiktoken)",
              "ids": "smallest ids (Hugging Face)"}
TIE_HELP = ("Which pair wins when several have the best count or score: the pair seen first "
            "in the corpus, or the pair of the smallest token ids.")


def pretokenizer_label(algorithm: str):
    """A format function for a pre-tokenizer box: ``auto`` names what it picks.

    >>> pretokenizer_label("bbpe")("auto"), pretokenizer_label("bpe")("none")
    ('auto: GPT-2 regex', 'one word per line')
    """
    def label(choice: str) -> str:
        if choice == "auto":
            chosen = pretokenizer_for('auto', algorithm)
            return f"auto: {PRETOKENIZER_SHORT.get(chosen, chosen)}"
        return PRETOKENIZER_SHORT.get(choice, choice)
    return label


# A page's own address (/Explore) opened directly logs two 404s in the browser console,
# /Explore/_stcore/health and /Explore/_stcore/host-config: Streamlit's front end cannot
# tell a page name from a base URL path, so it tries "Explore" as the base path first,
# then the root (streamlit/streamlit pull 4574; still so in 1.67). Streamlit's behaviour,
# not our configuration (no baseUrlPath is set); the page loads normally, and
# tests/test_browser_defects.py checks that these are the only console errors.
PAGES = [
    ("app.py", "Home", ":material/home:"),
    ("pages/0_Learn.py", "Learn", ":material/school:"),
    ("pages/1_Explore.py", "Explore", ":material/timeline:"),
    ("pages/2_Tokenize.py", "Tokenize", ":material/content_cut:"),
    ("pages/3_Compare.py", "Compare", ":material/compare:"),
    ("pages/4_Vocabulary.py", "Vocabulary", ":material/menu_book:"),
]


@dataclass(frozen=True)
class Context:
    """What every page works with: the corpus, its training and the display options."""

    corpus: Corpus
    corpus_name: str
    data: bytes
    training: Training  # None on a page with its own training settings (Compare)
    options: dict[str, Any]
    byte_style: str
    presentation: bool
    sample: Sample | None

    def at(self, step: int) -> Snapshot:
        return snapshot(self.training, step)

    @property
    def algorithm(self) -> str:
        return self.training.algorithm


def error(message: object) -> None:
    """An error box showing ``message`` literally (no Markdown, HTML or LaTeX)."""
    st.error(md_escape(message), icon="⚠️")


def warning(message: object) -> None:
    st.warning(md_escape(message), icon="⚠️")


def pretokenizer_for(choice: str, algorithm: str) -> str:
    if choice == "auto":
        return _record(algorithm).pretokenizer
    return choice


def _record(algorithm: str):
    from bpeviz.algorithms import get as get_algorithm

    return get_algorithm(algorithm)


def train_options(algorithm: str, *, merges: int | None = None, vocab_size: int | None = None,
                  marker: str = "none", marker_style: str = "separate", scoring: str = "score",
                  tie: str = "first", min_freq: int = 0) -> dict[str, Any]:
    """The keyword arguments of ``bpeviz.train`` for the app's settings (for an
    algorithm whose steps prune: of ``bpeviz.unigram.corpus_words.train_corpus``)."""
    if _record(algorithm).step_kind == "prune":
        from bpeviz.ui.unigram import prune_options

        return prune_options(algorithm, vocab_size)
    options: dict[str, Any] = {"algorithm": algorithm, "tie_break": tie,
                               "min_frequency": int(min_freq)}
    if vocab_size is not None:
        options["vocab_size"] = int(vocab_size)
    else:
        options["merges"] = int(merges or 0)
    if algorithm == "bpe" and marker != "none":
        options["marker"] = marker
        options["marker_style"] = marker_style
    if algorithm == "wordpiece":
        options["scoring"] = scoring
    return options


# -- the sidebar ------------------------------------------------------------------------


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
        # (issue 17.2). Every size comes through, and page() answers one over the limit
        # with "Corpus too large" and the command line route, keeping the text in the box.
        text = bound(st.text_area, "Text to train on", "paste", height=160,
                     placeholder="Paste any text, or word<TAB>count lines",
                     help=f"Up to {LIMITS.text_chars:,} characters. Lines of word<TAB>count "
                          "are read as a frequency table. Press Train (or Ctrl+Enter) to "
                          "train.")
        # the click takes the box's text with it (the box sends its text when it loses focus)
        st.button("Train", key="paste_train", type="primary", icon=":material/play_arrow:",
                  help="Train on the text in the box")
        if not text or not text.strip():
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


def _training_settings(corpus_algorithm_hint: str | None = None) -> dict[str, Any]:
    algorithm = bound(st.selectbox, "Algorithm", "algo", list(ALGORITHM_LABELS),
                      format_func=ALGORITHM_LABELS.get)
    if _record(algorithm).step_kind == "prune":
        from bpeviz.ui.unigram import prune_settings

        return prune_settings(algorithm)
    size_by = bound(st.radio, "Train until", "size_by", ["merges", "vocab"], horizontal=True,
                    format_func={"merges": "a number of merges", "vocab": "a vocabulary size"}.get)
    if size_by == "merges":
        bound(st.number_input, "Merges", "merges", min_value=0, max_value=state.MAX_TYPED,
              step=10, help=f"The live explorer makes up to {LIMITS.merges:,} merges.")
    else:
        bound(st.number_input, "Vocabulary size", "vocab", min_value=1,
              max_value=state.MAX_TYPED, step=10,
              help="Special tokens + initial symbols + merged tokens.")
    bound(st.selectbox, "Pre-tokenizer", "pretok", list(PRETOKENIZER_LABELS),
          format_func=pretokenizer_label(algorithm),
          help="How text is cut into words before training: "
               + "; ".join(f"{k}: {v}" for k, v in PRETOKENIZERS.items())
               + "; auto: GPT-2 for byte-level BPE, whitespace otherwise.")
    is_bpe = algorithm == "bpe"
    cols = st.columns(2)
    with cols[0]:
        marker = bound(st.selectbox, "End-of-word marker", "marker", list(MARKER_LABELS),
                       disabled=not is_bpe, help="BPE only: a symbol that ends every word.")
    with cols[1]:
        bound(st.selectbox, "Marker", "marker_style", ["separate", "glued"],
              disabled=not is_bpe or marker == "none",
              help="separate: 'low' → l o w </w>; glued: l o w</w>")
    # radios: their labels wrap, where a select box would cut them at the sidebar's edge
    bound(st.radio, "WordPiece scoring", "scoring", list(SCORING_LABELS),
          format_func=SCORING_LABELS.get, disabled=algorithm != "wordpiece")
    bound(st.radio, "Tie rule", "tie", list(TIE_LABELS), format_func=TIE_LABELS.get,
          help=TIE_HELP)
    bound(st.number_input, "Minimum pair frequency", "min_freq", min_value=0,
          max_value=state.MAX_TYPED, help="Stop when no pair occurs this often.")
    return train_options(
        algorithm,
        merges=get("merges") if size_by == "merges" else None,
        vocab_size=get("vocab") if size_by == "vocab" else None,
        marker=get("marker"), marker_style=get("marker_style"), scoring=get("scoring"),
        tie=get("tie"), min_freq=get("min_freq"),
    )


def _display_settings() -> None:
    bound(st.radio, "Bytes shown as", "bytes", ["gpt2", "hex"], horizontal=True,
          format_func={"gpt2": "GPT-2 characters (Ġ)", "hex": "hex <0xE6>"}.get,
          help="How byte-level tokens are drawn; partial characters never show as �.")
    bound(st.toggle, "Presentation mode", "present",
          help="Large type and high-contrast highlights, for a projector.")


def check_limits(corpus: Corpus, options: dict[str, Any], pretokenizer: str) -> list[str]:
    """The interactive limits this corpus and these options pass."""
    if _record(options["algorithm"]).step_kind == "prune":
        return limits.check(0, len(corpus.words), 0, options["algorithm"], pretokenizer)
    merges = options.get("merges")
    if merges is None:
        opts = make_options(**{k: v for k, v in options.items()})
        merges = max(0, options["vocab_size"] - len(base_vocabulary(corpus, opts)))
    return limits.check(0, len(corpus.words), merges, options["algorithm"],
                        pretokenizer)


def page(title: str, *, uses_training: bool = True) -> Context:
    """Set up a page: config, styles, URL state, the sidebar and the (cached) training.

    Stops the page with a clear message when the corpus or the settings are not usable.
    A page with its own training settings (Compare: ``uses_training=False``) shows the
    sidebar's Training section folded away, marked as not used there.
    """
    st.set_page_config(page_title=f"{title} · bpeviz", page_icon="🧩", layout="wide",
                       initial_sidebar_state="expanded")
    ignored = state.start_run(title)
    st.html(style_block(bool(get("present"))))
    with st.sidebar:
        for path, name, icon in PAGES:
            st.page_link(path, label=name, icon=icon)
        st.subheader("Corpus")
        data, name, sample = _corpus_source()
        corpus_note = st.empty()  # a file that cannot be read says why here too
        if uses_training:
            st.subheader("Training")
            options = _training_settings()
        else:
            with st.expander("Training: not used on this page", expanded=False):
                st.caption(f"{title} has its own settings for each configuration; these "
                           "apply on the other pages.")
                options = _training_settings()
        st.subheader("Display")
        _display_settings()
    state.write_url()
    if ignored:
        warning("This link had settings that could not be used, and were left at their "
                f"defaults: {', '.join(ignored)}.")
    if data is None:
        if get("source") == "paste":
            st.info("Paste a text in the sidebar to train on it. Pasted text never goes into "
                    "links: a shared link opens with an empty box.", icon="📋")
        else:
            st.info("Upload a UTF-8 text file or a word<TAB>count file in the sidebar. "
                    "Uploaded files never go into links.", icon="📂")
        st.stop()
    pretokenizer = pretokenizer_for(get("pretok"), options["algorithm"])
    try:
        chars = len(data.decode("utf-8", "ignore")) if len(data) > LIMITS.text_chars else 0
        problems = limits.check(chars, 0, 0, options["algorithm"], pretokenizer)
        if not problems:
            try:
                corpus = get_corpus(data, pretokenizer, name)
            except ValueError as err:
                with corpus_note:
                    error(err)
                raise
            problems = check_limits(corpus, options, pretokenizer) if uses_training else []
        if problems:
            for problem in problems:
                st.error(problem, icon="🛑")
            st.stop()
        if not uses_training:  # the page trains its own configurations
            return Context(corpus=corpus, corpus_name=name, data=data,
                           training=None, options=options,  # type: ignore[arg-type]
                           byte_style=get("bytes"), presentation=bool(get("present")),
                           sample=sample)
        training = get_training(corpus, options)
        if _record(options["algorithm"]).step_kind == "prune":
            if title not in PRUNE_PAGES:
                st.info(md_escape(
                    f"The {title} page shows trainings made by merges; "
                    f"{ALGORITHM_LABELS.get(options['algorithm'], options['algorithm'])} "
                    f"prunes instead. See it on {', '.join(PRUNE_PAGES)}, or choose "
                    "another algorithm in the sidebar."), icon="ℹ️")
                for page_name in PRUNE_PAGES:
                    path = next(p for p, n, _ in PAGES if n == page_name)
                    st.page_link(path, label=f"Open {page_name}")
                st.stop()
            return Context(corpus=corpus, corpus_name=name, data=data, training=training,
                           options=options, byte_style=get("bytes"),
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
    return Context(corpus=corpus, corpus_name=name, data=data, training=training, options=options,
                   byte_style=get("bytes"), presentation=bool(get("present")), sample=sample)


def pick_heatmap_pair() -> None:
    """The Explore heatmap's ``on_select``: the clicked cell's pair becomes ``pair``.

    Defined here, not in the page: a callback defined in a page holds that page run's
    globals, its training among them, for as long as Streamlit keeps the callback.
    """
    event = st.session_state.get("heatmap")
    points = (event or {}).get("selection", {}).get("points", []) if event else []
    for point in points:
        data = point.get("customdata")
        if data and len(data) >= 2:
            put("pair", (int(data[0]), int(data[1])))
            pair_chosen()
            return


def pair_chosen() -> None:
    """A pair picked by the user (heatmap or Pair details) belongs to the step it was
    picked at; at any other step Explore shows the pair merged next."""
    put("pair_step", int(get("step")))


# -- the step ---------------------------------------------------------------------------


def _shift_step(name: str, delta: int, last: int) -> None:
    put(name, min(max(int(get(name)) + delta, 0), last))


def _box_to_step(name: str, box_key: str) -> None:
    value = st.session_state.get(box_key)
    if value is not None:
        put(name, int(value))


def step_controls(training: Training, *, name: str = "step", number_box: bool = True) -> int:
    """Previous / slider / next (and a number box) for the step setting ``name``.

    The default setting, ``"step"``, is shared by every page and kept in the URL.
    """
    last = len(training.merges)
    step = state.clamp(name, 0, last)
    if last == 0:
        st.info(md_escape(f"No merges were made. {training.stop_message}"))
        return 0
    cols = st.columns([1, 10, 1, 2] if number_box else [1, 12, 1], vertical_alignment="bottom")
    with cols[0]:
        st.button("◀", key=f"prev_{name}", help="Previous merge", on_click=_shift_step,
                  args=(name, -1, last), disabled=step <= 0, width="stretch")
    with cols[1]:
        bound(st.slider, "Merge step", name, min_value=0, max_value=last)
    with cols[2]:
        st.button("▶", key=f"next_{name}", help="Next merge", on_click=_shift_step,
                  args=(name, 1, last), disabled=step >= last, width="stretch")
    if number_box:
        with cols[3]:
            # a fresh box for every step: nothing writes into it, so an old value the
            # browser still holds can never come back as a "change" after a busy rerun
            st.number_input("Step", min_value=0, max_value=last, value=step,
                            key=f"{name}_box_{step}", on_change=_box_to_step,
                            args=(name, f"{name}_box_{step}"))
    step = int(get(name))
    if name == "step":
        state.set_url_step(step)
    return step


# -- more trainings: Compare, imported tokenizers ---------------------------------------


def train_variant(ctx: Context, options: dict[str, Any], pretokenizer_choice: str,
                  label: str = "Training") -> Training:
    """Train the page's corpus text with other options (and maybe another pre-tokenizer).

    Raises ValueError with a message for the user (bad options, or a limit passed).
    """
    pretokenizer = pretokenizer_for(pretokenizer_choice, options["algorithm"])
    corpus = get_corpus(ctx.data, pretokenizer, ctx.corpus_name)
    problems = check_limits(corpus, options, pretokenizer)
    if problems:
        raise ValueError(" ".join(problems))
    return get_training(corpus, options, label)


def _import_key() -> str:
    """The tokenizer uploader's key: a new one after each opened tokenizer empties the box."""
    return f"w_import_{st.session_state.get('import_box', 0)}"


def _store_import(key: str) -> None:
    """Open the files in the box as one tokenizer; it replaces the one open before.

    On success the box is emptied (one tokenizer at a time: files added later are a new
    tokenizer, never mixed with the old one); on failure the files stay in the box and
    the message names them.
    """
    files = st.session_state.get(key) or []
    st.session_state.pop("import_error", None)
    if not files:
        return
    names = ", ".join(dict.fromkeys(f.name for f in files))  # a file given twice: the last
    try:
        from bpeviz.formats import import_files

        training = import_files({f.name: f.getvalue() for f in files})
    except ValueError as err:
        problem = str(err)
    except Exception as err:  # a malformed file must never take the page down
        log.exception("tokenizer import failed")
        problem = f"could not open this file ({type(err).__name__})"
    else:
        st.session_state["imported"] = (names, training)
        st.session_state["import_box"] = st.session_state.get("import_box", 0) + 1
        st.session_state["import_toast"] = (
            f"Opened {names}: {len(training.vocab):,} tokens, {len(training.merges):,} merges "
            f"({training.algorithm}).")
        put("imp_step", len(training.merges))
        put("tok_source", "imported")
        return
    if len(files) > 1:
        problem += (" Open one tokenizer at a time: a tokenizer.json, a training.json, a "
                    "*.tiktoken or vocab.txt, or a vocab.json with its merges.txt.")
    st.session_state["import_error"] = (names, problem)


def forget_import() -> None:
    st.session_state.pop("imported", None)
    put("tok_source", "training")


def imported() -> tuple[str, Training] | None:
    """The tokenizer file opened on the Vocabulary page, if any: (file names, training)."""
    return st.session_state.get("imported")


def import_widget() -> None:
    """An uploader for tokenizer files; what it opens is explored on the Tokenize page.

    One tokenizer is open at a time; the messages say which files they are about, and a
    toast announces an opened tokenizer where the user is looking (the uploader may sit
    at the bottom of a long page).
    """
    key = _import_key()
    st.file_uploader(
        "Open a tokenizer file (tokenizer.json, vocab.json + merges.txt, "
        "*.tiktoken, vocab.txt, training.json)", key=key, accept_multiple_files=True,
        on_change=_store_import, args=(key,), max_upload_size=LIMITS.upload_bytes // 1_000_000,
        help="Opening a tokenizer replaces the one open before.")
    announced = st.session_state.pop("import_toast", None)
    if announced:
        st.toast(md_escape(announced), icon="✅")
    current = imported()
    problem = st.session_state.get("import_error")
    if problem and st.session_state.get(key):
        names, message = problem
        still = f" {current[0]} is still open." if current is not None else ""
        error(f"{names} cannot be opened as a tokenizer file: {message}{still}")
    if current is not None:
        names, training = current
        st.success(md_escape(f"Opened {names}: {len(training.vocab):,} tokens, "
                             f"{len(training.merges):,} merges ({training.algorithm})."))
        cols = st.columns(2)
        cols[0].page_link("pages/2_Tokenize.py", label="Tokenize with it",
                          icon=":material/content_cut:")
        cols[1].button("Close it", on_click=forget_import, key="forget_import")


def export_files(snap: Snapshot, fmt: str) -> dict[str, str]:
    """``snap.export(fmt)``; ValueError when this format cannot hold this training."""
    return snap.export(fmt)
