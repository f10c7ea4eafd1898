"""Cached corpora and trainings, with a progress bar while a training runs.

A training runs in a worker thread owned by a cached :class:`TrainingJob`, so the page
can draw progress while it waits, sessions asking for the same training share one job,
and ``max_entries``/``ttl`` bound the server's memory. Keys are the corpus digest and
the options; the corpus itself is passed unhashed (``_corpus``).
"""

from __future__ import annotations

import ctypes
import gc
import hashlib
import threading
import time
from typing import Any

import pandas as pd
import pyarrow as pa
import streamlit as st

import bpeviz.ui.state as state
from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis import views
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import Training, TrainOptions, train
from bpeviz.text.corpus import Corpus
from bpeviz.text.owned import OwnedCache

CACHE_ENTRIES = 24
CACHE_TTL = 3600  # seconds
#: a corpus whose distinct words hold more symbols than this is "big" (10 MB of text:
#: 390,000 to 2,300,000): its trainings and corpora go to caches of BIG_ENTRIES entries,
#: so that a server keeps at most BIG_ENTRIES of them (about 100-250 MB each at 50,000
#: merges, ``python -m bench.realsize --only memory``) beside CACHE_ENTRIES small ones
BIG_SYMBOLS = 300_000
BIG_ENTRIES = 3


def _find_malloc_trim() -> Any:
    try:  # glibc (Linux) only
        return ctypes.CDLL("libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return None


_MALLOC_TRIM = _find_malloc_trim()


def release_memory() -> None:
    """Free the trainings the cache dropped and give the freed memory back to the system.

    A dropped training sits in reference cycles (its snapshots and encoders refer back
    to it), so it goes at the next full collection: run it now, once per training made,
    not at some later time. glibc then keeps part of the freed memory in its arenas
    (training runs in worker threads); ``malloc_trim(0)`` returns it (in
    ``python -m bench.memory`` the peak over 50 corpora was 406 MB with it, 443 without).
    """
    gc.collect()
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)


class TrainingJob:
    """One training running (or run) in a worker thread."""

    def __init__(self, corpus: Corpus, options: TrainOptions | dict[str, Any]) -> None:
        self.corpus = corpus
        self.options = options
        self.done = 0
        self.total = 0
        self.result: Training | None = None
        self.error: BaseException | None = None
        self.started = time.monotonic()
        self.seconds = 0.0
        self._finished = threading.Event()
        threading.Thread(target=self._run, name="bpeviz-train", daemon=True).start()

    def _progress(self, done: int, total: int) -> None:
        self.done, self.total = done, total

    def _run(self) -> None:
        try:
            self.result = _train(self.corpus, self._progress, self.options)
        except BaseException as err:  # reported to the page, never raised in the thread
            self.error = err
        finally:
            self.seconds = time.monotonic() - self.started
            self._finished.set()
            release_memory()

    def wait(self, timeout: float) -> bool:
        return self._finished.wait(timeout)

    @property
    def finished(self) -> bool:
        return self._finished.is_set()


def _train(corpus: Corpus, progress: Any, options: TrainOptions | dict[str, Any]) -> Any:
    """``bpeviz.train``: it trains every algorithm, with its own trainer where it has one."""
    if isinstance(options, TrainOptions):
        return train(corpus, options, progress=progress)
    return train(corpus, progress=progress, **options)


@st.cache_resource(max_entries=CACHE_ENTRIES, ttl=CACHE_TTL, show_spinner=False)
def _training_job(digest: str, options_key: tuple, _corpus: Corpus,
                  _options: TrainOptions | dict[str, Any]) -> TrainingJob:
    return TrainingJob(_corpus, _options)


@st.cache_resource(max_entries=BIG_ENTRIES, ttl=CACHE_TTL, show_spinner=False)
def _big_training_job(digest: str, options_key: tuple, _corpus: Corpus,
                      _options: TrainOptions | dict[str, Any]) -> TrainingJob:
    return TrainingJob(_corpus, _options)


_SYMBOLS: OwnedCache[int] = OwnedCache("symbols")


def is_big(corpus: Corpus) -> bool:
    """Whether ``corpus``'s distinct words hold more than :data:`BIG_SYMBOLS` symbols."""
    return _SYMBOLS.get(corpus, None, lambda: sum(map(len, corpus.words))) > BIG_SYMBOLS


#: Streamlit's badge while a script runs (top right: a running figure and a Stop button)
STATUS_WIDGET = '[data-testid="stStatusWidget"]'
#: in presentation mode the badge is hidden: on a projector the training's own progress
#: bar says what runs, and the badge's Stop would halt the page in the middle of a talk
HIDE_STATUS_WIDGET = f"<style>{STATUS_WIDGET}{{display:none!important}}</style>"


def hide_status_in_presentation() -> None:
    """In presentation mode, hide Streamlit's running badge and its Stop button (a style
    element: it takes no room on the page)."""
    if state.get("present"):
        st.html(HIDE_STATUS_WIDGET)


def get_training(corpus: Corpus, options: TrainOptions | dict[str, Any],
                 label: str = "Training") -> Training:
    """The training of ``corpus`` with ``options`` (a :class:`TrainOptions`, or the
    keyword arguments of ``train``: the same options share one cached training).

    Draws a progress bar while the training runs (in presentation mode without
    Streamlit's running badge and Stop button); raises the training's ValueError.
    """
    hide_status_in_presentation()
    given = options.to_dict() if isinstance(options, TrainOptions) else options
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in given.items()))
    jobs = _big_training_job if is_big(corpus) else _training_job
    job = jobs(_digest(corpus), key, corpus, options)
    return _finished(job, jobs, label)


def _finished(job: TrainingJob, jobs: Any, label: str) -> Training:
    """The training ``job`` makes, with a progress bar while it runs; raises its error."""
    if not job.wait(0.15):
        bar = st.progress(0.0, text=f"{label}…")
        while not job.wait(0.1):
            fraction = job.done / job.total if job.total else 0.0
            bar.progress(min(fraction, 1.0),  # (a Unigram training reports no progress)
                         text=f"{label}: {job.done:,} of {job.total:,} merges" if job.total
                         else f"{label}…")
        bar.empty()
    if job.error is not None:
        if not isinstance(job.error, ValueError):
            jobs.clear()  # an unexpected failure is not kept: the next run retries
        raise job.error
    assert job.result is not None
    return job.result


def get_language_training(corpora: dict[str, Corpus], dev: dict[str, Corpus] | None,
                          options: dict[str, Any], label: str = "Training") -> Training:
    """The training of an algorithm that takes one corpus per language (``corpora``, and
    a dev corpus per language or None) with ``options`` (the keywords of ``train``),
    cached and drawn with its progress as :func:`get_training` does."""
    hide_status_in_presentation()
    key = tuple(sorted((k, tuple(v.items()) if isinstance(v, dict) else
                        tuple(v) if isinstance(v, list) else v) for k, v in options.items()))
    digest = hashlib.sha256(repr(
        [(lang, _digest(c)) for lang, c in corpora.items()]
        + [(lang, _digest(c)) for lang, c in (dev or {}).items()] + [dev is None]
    ).encode()).hexdigest()
    big = sum(_SYMBOLS.get(c, None, lambda c=c: sum(map(len, c.words)))
              for c in corpora.values()) > BIG_SYMBOLS
    jobs = _big_training_job if big else _training_job
    given = {**options, "dev": dev} if dev is not None else options
    job = jobs(digest, key, corpora, given)  # type: ignore[arg-type]
    return _finished(job, jobs, label)


_DIGESTS: OwnedCache[str] = OwnedCache("digest")


def _digest(corpus: Corpus) -> str:
    """``corpus.digest``, hashed once per corpus (the cached corpus comes back on every
    run, and hashing all its words took a tenth of a rerun)."""
    return _DIGESTS.get(corpus, None, lambda: corpus.digest)


@st.cache_resource(max_entries=CACHE_ENTRIES, ttl=CACHE_TTL, show_spinner=False)
def _corpus(digest: str, pretokenizer: str, name: str, _data: bytes) -> Corpus:
    return Corpus.from_bytes(_data, pretokenizer, "auto", name=name)


#: texts over this many bytes go to the corpus cache of BIG_ENTRIES entries
BIG_TEXT_BYTES = 1_000_000


@st.cache_resource(max_entries=BIG_ENTRIES, ttl=CACHE_TTL, show_spinner=False)
def _big_corpus(digest: str, pretokenizer: str, name: str, _data: bytes) -> Corpus:
    return Corpus.from_bytes(_data, pretokenizer, "auto", name=name)


def get_corpus(data: bytes, pretokenizer: str, name: str) -> Corpus:
    """A corpus from UTF-8 bytes (text or word<TAB>count lines), cached by content."""
    digest = hashlib.sha256(data).hexdigest()
    corpora = _big_corpus if len(data) > BIG_TEXT_BYTES else _corpus
    return corpora(digest, pretokenizer, name, data)


_ARROW: OwnedCache[Any] = OwnedCache("arrow")


def merges_arrow(training: Training,
                 byte_style: str = "gpt2") -> tuple[pd.DataFrame, pa.Table]:
    """:func:`bpeviz.analysis.views.merges_table` and the Arrow table Streamlit sends for it, both
    made once per training and byte style (Explore changes only the ``now`` column of the
    Arrow table at each step; styling thousands of rows cost a rerun). Beside each merge's
    count, its score when the record says a pair wins with one (``value_name``)."""
    score = get_algorithm(training.algorithm).value_name() == "score"
    return _ARROW.get(training, (byte_style, score), lambda: (
        frame := views.merges_table(training, byte_style, score),
        pa.Table.from_pandas(frame)))


_SNAPSHOTS: OwnedCache[Snapshot] = OwnedCache("snapshots", keep=6)


def snapshot(training: Training, step: int) -> Snapshot:
    """``training.at(step)``, with the last few snapshots of each training kept (on the
    training itself: they go when it goes)."""
    return _SNAPSHOTS.get(training, step, lambda: training.at(step))
