"""bpeviz: train BPE, byte-level BPE and WordPiece, and look at every step.

The public API::

    from bpeviz import Corpus, train, load
    training = train(Corpus.from_text(text), algorithm="bpe", merges=100)
    snap = training.at(10)          # the state after 10 merges
    snap.splits, snap.pairs, snap.vocab, snap.encode("any text")

This package never imports streamlit; the app's glue lives in ``bpeviz.ui``.
"""

import sys
import types

from bpeviz.corpus import Corpus
from bpeviz.serialize import load
from bpeviz.snapshot import Snapshot
from bpeviz.symbols import ALGORITHMS
from bpeviz.training import Merge, Training, TrainOptions, replay, train

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


class _Package(types.ModuleType):
    """Keeps ``bpeviz.replay`` the function :func:`bpeviz.training.replay`: importing the
    submodule :mod:`bpeviz.replay` would otherwise replace it with the module (Python sets
    a package attribute for every submodule it imports). ``from bpeviz.replay import ...``
    still reaches the module."""

    def __setattr__(self, name: str, value: object) -> None:
        if name == "replay" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
