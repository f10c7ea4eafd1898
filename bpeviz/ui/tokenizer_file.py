"""The tokenizer-file widget: open a tokenizer written by bpeviz, Hugging Face, tiktoken
or GPT-2 (see :func:`bpeviz.formats.import_files`), or one by name (an OpenAI encoding, a
Hugging Face Hub id: :func:`bpeviz.formats.by_name.open_by_name`); Tokenize and Compare
then use it, Explore and Vocabulary replay it on the corpus (:mod:`bpeviz.ui.opened`).

One tokenizer is open at a time, kept in ``st.session_state["imported"]`` as
``(file names, training)``.
"""

from __future__ import annotations

import logging

import streamlit as st

from bpeviz.core.limits import LIMITS
from bpeviz.core.training import Training
from bpeviz.formats import import_files
from bpeviz.formats.by_name import open_by_name
from bpeviz.formats.hf import import_notes
from bpeviz.present.render import md_escape
from bpeviz.ui.messages import error, warning
from bpeviz.ui.state import put

log = logging.getLogger("bpeviz.ui")


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
        training = import_files({f.name: f.getvalue() for f in files})
        if not isinstance(training, Training):  # this box steps through merges
            raise ValueError(
                "this is a Unigram (SentencePiece) model or training, which this box cannot "
                "step through: choose Unigram in the sidebar to train one on your corpus, or "
                "open it with python -m bpeviz (encode, explain, export --training FILE)")
    except ValueError as err:
        problem = str(err)
    except Exception as err:  # a malformed file must never take the page down
        log.exception("tokenizer import failed")
        problem = f"could not open this file ({type(err).__name__})"
    else:
        st.session_state["imported"] = (names, training)
        st.session_state["import_notes"] = [
            note for f in files if f.name.endswith(".json")
            for note in import_notes(f.getvalue().decode("utf-8", "replace"))]
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
    by_name_box()
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
        notes = st.session_state.get("import_notes") or []
        if notes:  # what the file does that bpeviz does not model: said, never hidden
            warning("Opened with its own vocabulary, ids and merges, but " + "; ".join(notes)
                    + ".")
        cols = st.columns(2)
        cols[0].page_link("pages/2_Tokenize.py", label="Tokenize with it",
                          icon=":material/content_cut:")
        cols[1].button("Close it", on_click=forget_import, key="forget_import")


# -- tokenizers by name ------------------------------------------------------------------


def _open_named() -> None:
    """The "Open by name" callback: download (or take from the cache) and open."""
    name = (st.session_state.get("w_by_name") or "").strip()
    st.session_state.pop("by_name_error", None)
    if not name:
        return
    try:
        training, notes = open_by_name(name)
    except ValueError as err:
        st.session_state["by_name_error"] = f"{name} cannot be opened: {err}"
        return
    st.session_state["imported"] = (name, training)
    st.session_state["import_notes"] = notes
    st.session_state["import_toast"] = (
        f"Opened {name}: {len(training.vocab):,} tokens, {len(training.merges):,} merges "
        f"({training.algorithm}).")
    put("imp_step", len(training.merges))
    put("tok_source", "imported")


def by_name_box() -> None:
    """A text box and a button: open an OpenAI encoding or a Hugging Face Hub tokenizer
    by name (online only; offline, the message says which file to upload instead)."""
    a, b = st.columns([4, 1], vertical_alignment="bottom")
    a.text_input("Or open one by name", key="w_by_name", max_chars=200,
                 placeholder="cl100k_base, o200k_base, gpt2, or a Hub id like "
                             "openai-community/gpt2",
                 help="OpenAI encodings through tiktoken, other names from the Hugging Face "
                      "Hub; downloaded once, then cached. Needs the server to be online.")
    b.button("Open", key="by_name_open", on_click=_open_named, icon=":material/download:")
    problem = st.session_state.get("by_name_error")
    if problem:
        error(problem)
