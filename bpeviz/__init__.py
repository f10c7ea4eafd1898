"""bpeviz: train BPE, byte-level BPE and WordPiece, and look at every step.

The public API::

    from bpeviz import Corpus, train, load
    training = train(Corpus.from_text(text), algorithm="bpe", merges=100)
    snap = training.at(10)          # the state after 10 merges
    snap.splits, snap.pairs, snap.vocab, snap.encode("any text")

This package never imports streamlit; the app's glue lives in ``bpeviz.ui``.
"""

from bpeviz.core.serialize import load
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import Merge, Training, TrainOptions, replay, train
from bpeviz.text.corpus import Corpus
from bpeviz.text.symbols import ALGORITHMS

__all__ = [
    "ALGORITHMS",
    "Corpus",
    "Merge",
    "Snapshot",
    "TrainOptions",
    "Training",
    "load",
    "replay",
    "train",
]
