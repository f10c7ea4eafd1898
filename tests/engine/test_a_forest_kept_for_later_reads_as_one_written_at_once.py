"""After a replay by segments (SuperBPE's stage 2, a saved training opened again) the
compiled engine keeps the merge forest compactly and writes it out when the split log is
first read. The log then answers every question as the Python engine's, written at once:
its arrays, each word's splits and history, the words each step changed; a pickle of it
is a plain log; threads that read it first together get one set of arrays."""

from __future__ import annotations

import pickle
import sysconfig
import threading
from pathlib import Path

import numpy as np
import pytest

from bpeviz.algorithms.superbpe_train import train_superbpe
from bpeviz.core.snapshot import Snapshot
from bpeviz.engine.splitlog import SplitLog
from tests.engine.test_compiled_engine_matches_python import engine

pytestmark = pytest.mark.usefixtures("compiled")

TEXT = (Path(sysconfig.get_paths()["stdlib"]) / "LICENSE.txt").read_text(encoding="utf-8")[:8000]
FIELDS = ("token", "step", "until", "word", "word_start")


def trained(name):
    with engine(name):
        return train_superbpe(TEXT, merges=260, transition=200)


def answers(log, n_steps):
    steps = range(0, n_steps + 1, 37)
    return ([getattr(log, f).tolist() for f in FIELDS],
            [log.split_ids(w, k).tolist() for w in range(log.n_words) for k in steps],
            [log.history(w) for w in range(log.n_words)],
            [log.changed_words(k).tolist() for k in range(1, n_steps + 1)],
            [log.live(k).tolist() for k in steps], log.nbytes, log.n_words, log.n_steps)


def test_a_forest_kept_for_later_answers_as_the_python_engines():
    kept, reference = trained("compiled"), trained("python")
    assert type(kept._log) is not SplitLog, "the compiled engine wrote the forest at once"
    assert type(reference._log) is SplitLog
    n = len(kept.merges)
    assert answers(kept._log, n) == answers(reference._log, n)
    with engine("compiled"):  # and the views read through it
        assert Snapshot(kept, 230).splits == Snapshot(reference, 230).splits


def test_a_pickled_forest_kept_for_later_loads_as_a_plain_log():
    log = trained("compiled")._log
    again = pickle.loads(pickle.dumps(log))
    assert type(again) is SplitLog
    assert answers(again, log.n_steps) == answers(log, log.n_steps)


def test_threads_reading_a_forest_first_together_get_the_same_arrays():
    log = trained("compiled")._log
    seen, start = [], threading.Barrier(4)

    def read():
        start.wait()
        seen.append(log.token)

    threads = [threading.Thread(target=read) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 4 and all(a is seen[0] for a in seen)
    assert np.array_equal(seen[0], log.token)
