"""A saved training given on the command line opens in every session:

    streamlit run app.py -- --training training.json     # or BPEVIZ_TRAINING=training.json

(what ``python -m bpeviz train DATA --out training.json`` wrote, on a corpus of any
size). The file is read once per server (kept across sessions until it changes on
disk) and opened in each new session as if its user had opened it on the Vocabulary
page, with "Explore the opened training on its own corpus" on: Explore and Vocabulary
step through its merges on the words it was trained on, Tokenize and Compare cut with it.
A file that cannot be opened is named in a message; the app goes on with its sample.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import streamlit as st

from bpeviz.core.serialize import load_named
from bpeviz.core.training import Training
from bpeviz.ui.state import put

#: the environment variable that names the file when no ``--training`` is given
ENV = "BPEVIZ_TRAINING"
#: the session's mark that the file was opened in it (once: closing it keeps it closed)
_DONE = "_startup_training_opened"
#: why it could not be opened (said on every page of the session)
_PROBLEM = "_startup_training_problem"


def startup_path(argv: list[str] | None = None) -> str | None:
    """The file given by ``--training PATH`` (or ``--training=PATH``) after ``--`` on
    ``streamlit run``'s command line, else by :data:`ENV`; None for neither.

    >>> startup_path(["app.py", "--training", "t.json"]), startup_path(["app.py"])
    ('t.json', None)
    """
    args = sys.argv[1:] if argv is None else argv[1:]
    for i, arg in enumerate(args):
        if arg == "--training" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--training="):
            return arg.split("=", 1)[1]
    return os.environ.get(ENV) or None


@st.cache_resource(show_spinner=False, max_entries=2)
def _read(path: str, changed: float) -> tuple[str, Training]:
    """The file's name as the app shows it, and its training (read once per version of
    the file: ``changed`` is its modification time)."""
    training, name = load_named(path)
    if not isinstance(training, Training):
        raise ValueError("it is not a training of merges (BPE, byte-level BPE, WordPiece): "
                         "Explore steps through merges")
    shown = Path(path).name + (f" (trained on {name})" if name else "")
    return shown, training


def open_startup_training() -> str | None:
    """Open the command line's training in this session, the first time a page runs;
    a sentence saying why it could not be opened, or None."""
    path = startup_path()
    if path is None:
        return None
    if st.session_state.get(_DONE):  # said on every page of the session, until it ends
        return st.session_state.get(_PROBLEM)
    st.session_state[_DONE] = True
    try:
        changed = Path(path).stat().st_mtime
        with st.spinner(f"Opening {Path(path).name}…"):
            shown, training = _read(str(Path(path).resolve()), changed)
    except OSError as err:
        problem = f"The training given on the command line ({path}) cannot be read: {err}"
    except ValueError as err:
        problem = f"The training given on the command line ({path}) cannot be opened: {err}"
    else:
        problem = None
    if problem is not None:
        st.session_state[_PROBLEM] = problem + " The app shows the sidebar's corpus instead."
        return st.session_state[_PROBLEM]
    st.session_state["imported"] = (shown, training)
    put("imp_step", len(training.merges))
    put("tok_source", "imported")
    put("own_corpus", bool(training.corpus.words))
    return None


__all__ = ["ENV", "open_startup_training", "startup_path"]
