"""Memory: every training the app shows can be freed, and the app's caches are bounded.

The per-training caches (snapshots, encoders, view tables, snapshot tables, corpus
digests) live on the training or corpus itself (:mod:`bpeviz.text.owned`), so a training
goes when nothing but its own caches refers to it, and the app's training cache bounds
how many stay alive. The RSS line over 50 corpora is a benchmark: ``python -m bench.memory``.
"""

from __future__ import annotations

import gc
import threading
import weakref

import pytest
from streamlit.testing.v1 import AppTest

import bpeviz
from bpeviz.analysis import views
from bpeviz.core import encoding
from bpeviz.core.training import Training
from bpeviz.samples import sample_bytes
from bpeviz.text.corpus import Corpus
from bpeviz.text.owned import OwnedCache
from bpeviz.ui import train_options
from bpeviz.ui import training as cache
from tests.support import APP


def alive(refs: list[weakref.ref]) -> int:
    gc.collect()
    return sum(r() is not None for r in refs)


def use_every_cache(training: Training) -> None:
    """Pass ``training`` through every per-training cache the pages use."""
    last = len(training.merges)
    for step in (0, last // 2, last):
        snap = cache.snapshot(training, step)
        encoding.encode(snap, "lower newest wider")
        encoding.encode_ids(snap, "low")
        views.words_frame(snap)
        views.vocab_frame(snap)
        views.pair_grid(snap, 10)
        snap.pairs  # noqa: B018  (a cached property, built from the snapshot tables)
    views.merges_frame(training)
    views.merges_table(training)
    cache.merges_arrow(training)
    cache._digest(training.corpus)


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_a_dropped_training_is_freed_after_every_cache_path(algorithm):
    refs = []
    for i in range(5):
        corpus = Corpus.from_text(f"low{i} lower lowest newer newest wider " * 3)
        training = bpeviz.train(corpus, algorithm=algorithm, merges=8)
        use_every_cache(training)
        assert cache._SNAPSHOTS.keys(training), "the cache was used"
        refs.append(weakref.ref(training))
        refs.append(weakref.ref(corpus))
    del training, corpus
    assert alive(refs) == 0, "a per-training cache keeps its training alive"


def test_the_caches_still_serve_the_same_objects():
    training = bpeviz.train(Corpus.from_text("low lower lowest " * 4), merges=5)
    assert cache.snapshot(training, 3) is cache.snapshot(training, 3)
    assert encoding.encoder(training, 2) is encoding.encoder(training, 2)
    assert views.merges_table(training) is views.merges_table(training)
    other = bpeviz.train(Corpus.from_text("low lower lowest " * 4), merges=5)
    assert cache.snapshot(other, 3) is not cache.snapshot(training, 3), "never shared"
    assert encoding.encoder(other, 2) is not encoding.encoder(training, 2)


def test_the_app_keeps_at_most_its_cache_bound_of_trainings():
    cache._training_job.clear()
    cache._corpus.clear()
    refs = []
    try:
        for i in range(cache.CACHE_ENTRIES + 6):
            corpus = cache.get_corpus(f"low{i} lower lowest newer{i} newest".encode(),
                                      "whitespace", "pasted text")
            training = cache.get_training(corpus, train_options("bpe", merges=4))
            use_every_cache(training)
            refs.append(weakref.ref(training))
        del training, corpus
        assert alive(refs) <= cache.CACHE_ENTRIES
        assert refs[0]() is None, "the oldest training was freed"
    finally:
        cache._training_job.clear()
        cache._corpus.clear()
    assert alive(refs) == 0, "nothing else holds them"


def test_one_session_pasting_many_corpora_keeps_a_bounded_number_of_trainings():
    """Through the pages (Explore with its heatmap, Tokenize, Vocabulary) in one session."""
    cache._training_job.clear()
    cache._corpus.clear()
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["source"] = "paste"
    at.session_state["merges"] = 6
    at.session_state["step"] = 3
    at.run()
    corpora = cache.CACHE_ENTRIES + 6
    gc.collect()
    # trainings other test modules keep (module-level fixtures) are not this session's
    before = [o for o in gc.get_objects() if isinstance(o, Training)]
    before_ids = {id(o) for o in before}
    try:
        for i in range(corpora):
            at.session_state["paste"] = f"low{i} lower lowest newer{i} newest wider " * 3
            at.session_state["algo"] = ("bpe", "bbpe")[i % 2]
            for page in ("pages/1_Explore.py", "pages/2_Tokenize.py", "pages/4_Vocabulary.py"):
                at.switch_page(page).run()
                assert not at.exception, at.exception
        gc.collect()
        kept = [o for o in gc.get_objects()
                if isinstance(o, Training) and id(o) not in before_ids]
        assert len(kept) <= cache.CACHE_ENTRIES, (
            f"{len(kept)} trainings alive after {corpora} corpora in one session")
    finally:
        cache._training_job.clear()
        cache._corpus.clear()


def test_stepping_through_explore_keeps_one_heatmap_panel_widget():
    """The heatmap is one stage panel for every step (the browser swaps in each step's
    view): stepping leaves no widget per step behind, each holding the panel's
    callbacks and, through them, a page run and its training."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["merges"] = 30
    at.session_state["step"] = 1
    at.run()
    at.switch_page("pages/1_Explore.py").run()
    for step in range(2, 16):
        at.number_input(key=f"stage_box_{step - 1}").set_value(step).run()
        assert not at.exception, at.exception
    session = at.session_state._state
    session = getattr(session, "_state", session)
    panels = [w for w in session._new_widget_state.widget_metadata
              if "heatmap" in w and not w.endswith("__events")]
    assert panels and all(w.endswith("-stage_heatmap") for w in panels), panels
    assert len(panels) <= 2, panels


def test_owned_cache_keeps_the_most_recent_keys_per_owner():
    class Owner:
        pass

    squares: OwnedCache[int] = OwnedCache("squares", keep=3)
    a, b = Owner(), Owner()
    made = []

    def make(n: int) -> int:
        made.append(n)
        return n * n

    for n in (1, 2, 3, 1, 4):
        assert squares.get(a, n, lambda n=n: make(n)) == n * n
    assert squares.keys(a) == [3, 1, 4], "2 was the least recently used"
    assert made == [1, 2, 3, 4], "a kept value is not made again"
    assert squares.keys(b) == [] and squares.peek(b, 1) is None, "owners never share"
    assert squares.get(b, 1, lambda: -1) == -1


def test_owned_cache_makes_one_value_when_threads_race():
    class Owner:
        pass

    cached: OwnedCache[object] = OwnedCache("race")
    owner = Owner()
    barrier = threading.Barrier(8)
    got = []

    def worker():
        barrier.wait()
        got.append(cached.get(owner, "k", object))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(g) for g in got}) == 1, "every thread gets the value stored first"


def test_the_training_and_corpus_caches_are_bounded():
    """Past CACHE_ENTRIES trainings the oldest is dropped, and its memory freed."""
    import gc
    import weakref

    import bpeviz.ui.training as cache

    cache._training_job.clear()
    cache._corpus.clear()
    corpus = cache.get_corpus(sample_bytes("tour"), "whitespace", "tour")
    options = train_options("bpe", merges=1)
    first = weakref.ref(cache.get_training(corpus, options))
    first_job = weakref.ref(cache._training_job(  # the same key as get_training's
        corpus.digest, tuple(sorted(options.items())), corpus, options))
    assert first_job().result is first()
    assert first() is not None and first_job() is not None
    for merges in range(2, cache.CACHE_ENTRIES + 8):
        training = cache.get_training(corpus, train_options("bpe", merges=merges))
        assert len(training.merges) == merges
    del training
    gc.collect()
    jobs = [o for o in gc.get_objects() if isinstance(o, cache.TrainingJob)]
    assert len(jobs) <= cache.CACHE_ENTRIES
    assert first_job() is None and first() is None, "the oldest training was dropped"
    again = cache.get_training(corpus, train_options("bpe", merges=1))
    assert len(again.merges) == 1, "and is trained again when asked for"

    corpora = [weakref.ref(cache.get_corpus(f"w{i} x{i}".encode(), "whitespace", "c"))
               for i in range(cache.CACHE_ENTRIES + 8)]
    gc.collect()
    assert sum(r() is not None for r in corpora) <= cache.CACHE_ENTRIES
    assert corpora[0]() is None

    for step in range(len(again.merges) + 1):
        cache.snapshot(again, step)
    big = cache.get_training(corpus, train_options("bpe", merges=20))
    for step in range(21):
        cache.snapshot(big, step)
    assert len(cache._SNAPSHOTS.keys(big)) <= 6, "a few snapshots per training, not every step"
    cache._training_job.clear()
    cache._corpus.clear()
