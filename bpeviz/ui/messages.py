"""The pages' messages: an error or warning box that shows its text literally, the
settings reset because they no longer fitted, the pre-tokenizer hint for scripts
written without spaces."""

from __future__ import annotations

import streamlit as st

import bpeviz.ui.state as state
from bpeviz.present.render import md_escape
from bpeviz.text.corpus import Corpus
from bpeviz.text.unspaced import unspaced_note
from bpeviz.ui.labels import PRETOKENIZER_SHORT


def error(message: object) -> None:
    """An error box showing ``message`` literally (no Markdown, HTML or LaTeX)."""
    st.error(md_escape(message), icon="⚠️")


def warning(message: object) -> None:
    st.warning(md_escape(message), icon="⚠️")


def show_resets() -> None:
    """Say which settings were reset because their values no longer fitted (once)."""
    for note in state.notes():
        st.caption(md_escape(f"↺ {note}."))


def unspaced_warning(corpus: Corpus, who: str = "") -> None:
    """A warning where merges are shown when much of ``corpus`` is runs of a script
    written without spaces (a Chinese paragraph as one word): which pre-tokenizer helps.
    ``who`` names the configuration it is about (Compare)."""
    note = unspaced_note(corpus, PRETOKENIZER_SHORT.get(corpus.pretokenizer, ""))
    if note and state.get("present"):  # on a projector it must not push the card away:
        # its first clause, the rest folded under it
        with st.expander(md_escape(f"🈳 {who}{note.split(', and ')[0]}")):
            st.warning(md_escape(f"{who}{note}"), icon="🈳")
    elif note:
        st.warning(md_escape(f"{who}{note}"), icon="🈳")
