"""bpeviz: train BPE, byte-level BPE, WordPiece and Unigram, and look at every step.

The public API::

    from bpeviz import Corpus, train, load, save
    training = train(Corpus.from_text(text), algorithm="bpe", merges=100)
    snap = training.at(10)          # the state after 10 merges
    snap.splits, snap.pairs, snap.vocab, snap.encode("any text")
    save(training, "training.json"); load("training.json")   # exactly the same training
    replay_on(training, "other text")   # the same merges and ids, counted on other text
    rounds = train(Corpus.from_text(text), algorithm="unigram", vocab_size=2000)
    rounds.at(2).encode("any text"), rounds.explain(2)   # after 2 pruning rounds
    load("spiece.model").at().encode("any text")   # a SentencePiece Unigram model

Every training answers the same calls (:class:`AnyTraining`, see
:mod:`bpeviz.core.protocol`): ``at(k)``, ``vocab_size_at(k)``, ``token_counts()``,
``explain(k)``, ``stop_message``.

This package never imports streamlit; the app's glue lives in ``bpeviz.ui``.
"""

from bpeviz.algorithms import ALGORITHMS, UNIGRAM
from bpeviz.core.protocol import AnyTraining
from bpeviz.core.recount import replay_on
from bpeviz.core.serialize import load
from bpeviz.core.serialize import save_training as save
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import OWN_TRAINERS, Merge, Training, TrainOptions, replay, train
from bpeviz.text.corpus import Corpus
from bpeviz.unigram.corpus_words import train_keywords

# train() is the merge loop's layer, which cannot import Unigram's: the trainer an
# algorithm's record names is wired to it here, above both
OWN_TRAINERS[UNIGRAM.trainer] = train_keywords

__all__ = [
    "ALGORITHMS",
    "AnyTraining",
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
