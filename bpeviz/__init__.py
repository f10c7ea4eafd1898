"""bpeviz: train BPE, byte-level BPE and WordPiece, and look at every step.

The public API::

    from bpeviz import Corpus, train, load
    training = train(Corpus.from_text(text), algorithm="bpe", merges=100)
    snap = training.at(10)          # the state after 10 merges
    snap.splits, snap.pairs, snap.vocab, snap.encode("any text")
    save(training, "training.json"); load("training.json")   # exactly the same training
    replay_on(training, "other text")   # the same merges and ids, counted on other text

This package never imports streamlit; the app's glue lives in ``bpeviz.ui``.
"""

from bpeviz.algorithms import ALGORITHMS
from bpeviz.core.recount import replay_on
from bpeviz.core.serialize import load
from bpeviz.core.serialize import save_training as save
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import Merge, Training, TrainOptions, replay, train
from bpeviz.text.corpus import Corpus

__all__ = [
    "ALGORITHMS",
    "Corpus",
    "Merge",
    "Snapshot",
    "TrainOptions",
    "Training",
    "load",
    "replay",
    "replay_on",
    "save",
    "train",
]
