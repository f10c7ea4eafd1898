"""The sidebar's corpus for an algorithm that trains on one corpus per language
(:func:`bpeviz.core.training.takes_languages`: parity-aware BPE): the shipped parallel
sample (its last paragraph held out as dev texts, if asked), a text pasted per language,
or a file uploaded per language, each with a dev text pasted or uploaded if asked.

What the user typed is kept in the session (``lang_paste``: language -> text, and the
language list ``langs``), so a bad entry (a language named twice, a language with no
text, a file that is not UTF-8) is answered with a message while every box keeps its
text. :func:`language_source` draws the inputs and returns the languages' texts, or a
:class:`Missing` saying what is still needed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

from bpeviz.core.limits import LIMITS
from bpeviz.present.render import md_escape
from bpeviz.samples import PARALLEL_ABOUT, parallel_sample, split_off_dev
from bpeviz.ui.state import bound

#: what a language may be called: letters, digits, "-" and "_", up to 20 of them
LANGUAGE_NAME = re.compile(r"[^\W][\w-]{0,19}")
#: the session's pasted texts, pasted dev texts and uploaded files, by language
PASTED, DEV_PASTED, UPLOADED = "lang_paste", "lang_dev_paste", "lang_upload"
DEV_UPLOADED = "lang_dev_upload"


@dataclass(frozen=True)
class LanguageTexts:
    """Each language's text as UTF-8 bytes (a text or a word<TAB>count file), in the
    order given, its dev text when there is one, and a name for the whole."""

    texts: dict[str, bytes]
    dev: dict[str, bytes] | None
    name: str

    def joined(self) -> bytes:
        """Every language's text, one after the other (what a training of one corpus, on
        Compare, trains on)."""
        return b"\n".join(self.texts.values())

    @property
    def try_text(self) -> str:
        """A text to tokenize: the first line of each language's text (a title, in the
        parallel sample), up to 60 characters each."""
        firsts = (next((line.strip() for line in data.decode("utf-8", "replace").splitlines()
                        if line.strip()), "") for data in self.texts.values())
        return " · ".join(line[:60] for line in firsts if line)


@dataclass(frozen=True)
class Missing:
    """What the inputs still lack: ``message``, shown as an info box (``problem``:
    False) or as an error (True, the input is wrong)."""

    message: str
    problem: bool = False


def parse_languages(given: str) -> list[str]:
    """The language names of the "Languages" box (commas or spaces between them);
    ValueError naming what is wrong.

    >>> parse_languages("en, hi  zh")
    ['en', 'hi', 'zh']
    >>> parse_languages("en, en")
    Traceback (most recent call last):
    ...
    ValueError: Languages: “en” is named twice; name each language once.
    """
    names = [n for n in re.split(r"[,\s]+", given.strip()) if n]
    for name in names:
        if not LANGUAGE_NAME.fullmatch(name):
            raise ValueError(f"Languages: “{name[:40]}” is not a language name; use letters, "
                             "digits, - or _ (up to 20), e.g. en, hi, zh.")
    seen: set[str] = set()
    for name in names:
        if name in seen:
            raise ValueError(f"Languages: “{name}” is named twice; name each language once.")
        seen.add(name)
    if len(names) < 2:
        raise ValueError("Languages: name at least two languages (e.g. en, hi): "
                         "parity-aware BPE shares its merges between languages.")
    return names


def _kept(store: str, language: str) -> str:
    return st.session_state.get(store, {}).get(language, "")


def _keep_paste(widget_key: str, language: str) -> None:
    st.session_state.setdefault(PASTED, {})[language] = st.session_state.get(widget_key) or ""


def _keep_upload(widget_key: str, language: str, store: str = UPLOADED) -> None:
    uploaded = st.session_state.get(widget_key)
    if uploaded is not None:
        st.session_state.setdefault(store, {})[language] = (uploaded.name,
                                                             uploaded.getvalue())


def _forget_upload(language: str, store: str = UPLOADED) -> None:
    st.session_state.setdefault(store, {}).pop(language, None)


def _keep_dev(widget_key: str, language: str) -> None:
    st.session_state.setdefault(DEV_PASTED, {})[language] = st.session_state.get(widget_key) or ""


def _paste_box(language: str, dev: bool = False) -> str:
    """A text box for ``language``'s text (``dev``: its dev text), given back what the
    session keeps of it (a page switch or a rerun never empties it)."""
    key = f"w_lang_{'dev' if dev else 'paste'}_{language}"
    kept = _kept(DEV_PASTED if dev else PASTED, language)
    # given back on every run: a box mounted afresh on another page starts empty
    # otherwise (its callback has already kept whatever was typed)
    st.session_state[key] = kept
    what = "dev text" if dev else "text"
    st.text_area(f"{language}: {what}", key=key, height=80 if dev else 110,
                 on_change=_keep_dev if dev else _keep_paste, args=(key, language),
                 placeholder=f"Paste the {language} {what}",
                 help=("The text the languages are compared on before each merge (ideally "
                       "the same text translated); a dev text wins over target ratios."
                       if dev else
                       f"Up to {LIMITS.text_chars:,} characters over all languages; "
                       "word<TAB>count lines are read as counts. Ideally the same text in "
                       "every language."))
    return kept


def _upload_box(language: str, dev: bool = False) -> tuple[str, bytes] | None:
    """A file box for ``language``'s text (``dev``: its dev text); the file is kept in
    the session until the user forgets it."""
    store, part = (DEV_UPLOADED, "dev_upload") if dev else (UPLOADED, "upload")
    key = f"w_lang_{part}_{language}"
    what = "dev text (UTF-8)" if dev else "UTF-8 text or word<TAB>count file"
    st.file_uploader(f"{language}: {what}", key=key,
                     on_change=_keep_upload, args=(key, language, store),
                     max_upload_size=LIMITS.upload_bytes // 1_000_000)
    found = st.session_state.get(store, {}).get(language)
    if found is not None:
        st.caption(md_escape(f"{language}: using {found[0]} ({len(found[1]):,} bytes)"
                             + (" as its dev text" if dev else "")))
        st.button(f"Forget the {language} {'dev ' if dev else ''}file",
                  key=f"forget_lang_{part}_{language}",
                  on_click=_forget_upload, args=(language, store))
    return found


def _dev_toggle() -> bool:
    return bool(bound(st.toggle, "A dev text per language too", "lang_dev",
                      help="Compare the languages on a dev text each (the paper's setting) "
                           "instead of on their training texts."))


def language_source() -> LanguageTexts | Missing:
    """Draw the per-language corpus inputs (under the sidebar's Corpus choice) and return
    the texts, or what is missing (the boxes keep what was typed)."""
    source = bound(st.segmented_control, "Corpus", "source", ["sample", "paste", "upload"],
                   format_func={"sample": "Parallel sample", "paste": "Paste per language",
                                "upload": "Upload per language"}.get, required=True,
                   help="This algorithm trains on one corpus per language.")
    if source == "sample":
        texts, dev = parallel_sample()
        st.caption(md_escape(PARALLEL_ABOUT + (" Each has a dev text." if dev else "")))
        if dev is None and bound(
                st.toggle, "Hold out the last paragraph as dev texts", "sample_dev",
                help="Train on the story without its last paragraph, and compare the "
                     "languages on that paragraph (the same text in each: a parallel dev "
                     "set, the paper's setting) instead of on their training texts."):
            texts, dev = split_off_dev(texts)
            return LanguageTexts(texts, dev, f"the parallel sample ({', '.join(texts)}; "
                                             "its last paragraph as dev texts)")
        return LanguageTexts(texts, dev, f"the parallel sample ({', '.join(texts)})")
    given = bound(st.text_input, "Languages", "langs", max_chars=200,
                  help="The languages' names, separated by commas (e.g. en, hi, zh): one "
                       "text box (or file) each below.")
    try:
        names = parse_languages(given or "")
    except ValueError as err:
        return Missing(str(err), problem=True)
    texts: dict[str, bytes] = {}
    dev: dict[str, bytes] | None = None
    if source == "paste":
        for language in names:
            text = _paste_box(language)
            if text and not text.isspace():
                texts[language] = text.encode("utf-8", "surrogatepass")
        if _dev_toggle():
            dev = {}
            for language in names:
                text = _paste_box(language, dev=True)
                if text and not text.isspace():
                    dev[language] = text.encode("utf-8", "surrogatepass")
        st.button("Train", key="lang_paste_train", type="primary",
                  icon=":material/play_arrow:", help="Train on the texts in the boxes")
        what = "Paste a text for"
    else:
        for language in names:
            found = _upload_box(language)
            if found is not None:
                texts[language] = found[1]
        if _dev_toggle():
            dev = {}
            for language in names:
                found = _upload_box(language, dev=True)
                if found is not None:
                    dev[language] = found[1]
        what = "Upload a file for"
    lacking = [language for language in names if language not in texts]
    if lacking:
        return Missing(f"{what} {', '.join(lacking)} in the sidebar: parity-aware BPE "
                       "trains on one text per language (ideally the same text "
                       "translated). What you typed is kept.")
    no_dev = [language for language in names if dev is not None and language not in dev]
    if no_dev:
        verb = "Paste" if source == "paste" else "Upload"
        return Missing(f"{verb} a dev text for {', '.join(no_dev)} in the sidebar (every "
                       "language's, or turn dev texts off). What you typed is kept.")
    how = "pasted" if source == "paste" else "uploaded"
    return LanguageTexts(texts, dev, f"{', '.join(names)} ({how}"
                         + (", with dev texts)" if dev else ")"))


__all__ = ["LanguageTexts", "Missing", "language_source", "parse_languages"]
