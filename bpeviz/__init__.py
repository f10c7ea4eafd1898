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
    counts = count_pretokens(["data/"], "gpt2")   # files' pre-tokens, on every core
    train(Corpus(tuple(counts), tuple(counts.values()), "gpt2"), algorithm="bbpe")

Every training answers the same calls (:class:`AnyTraining`, see
:mod:`bpeviz.core.protocol`): ``at(k)``, ``vocab_size_at(k)``, ``token_counts()``,
``explain(k)``, ``stop_message``.

This package never imports streamlit; the app's glue lives in ``bpeviz.ui``.
"""

from bpeviz.algorithms import ALGORITHMS, UNIGRAM
from bpeviz.algorithms.parity import PARITY
from bpeviz.algorithms.parity_train import FORMAT as PARITY_FORMAT
from bpeviz.algorithms.parity_train import (
    ParityTraining,
    parity_from_dict,
    save_parity,
    train_parity,
)
from bpeviz.algorithms.picky import PICKY
from bpeviz.algorithms.picky_model import PickyTraining
from bpeviz.algorithms.picky_saved import FORMAT as PICKY_FORMAT
from bpeviz.algorithms.picky_saved import picky_from_dict, save_picky
from bpeviz.algorithms.picky_train import train_picky
from bpeviz.algorithms.superbpe import STAGE2 as SUPERBPE_STAGE2
from bpeviz.algorithms.superbpe import SUPERBPE, SUPERBPE_HF_SPLIT
from bpeviz.algorithms.superbpe_saved import FORMAT as SUPERBPE_FORMAT
from bpeviz.algorithms.superbpe_saved import save_superbpe, superbpe_from_dict
from bpeviz.algorithms.superbpe_train import SuperBPETraining, train_superbpe
from bpeviz.analysis.health import health as _health
from bpeviz.core.protocol import AnyTraining
from bpeviz.core.recount import replay_on
from bpeviz.core.serialize import OWN_FORMATS, OWN_OPENERS, OWN_SAVERS, load
from bpeviz.core.serialize import save_training as save
from bpeviz.core.snapshot import SNAPSHOT_VIEWS, Snapshot
from bpeviz.core.training import OWN_TRAINERS, Merge, Training, TrainOptions, replay, train
from bpeviz.formats.hf_pretokenizers import _SPLITS as HF_SPLITS
from bpeviz.text.corpus import Corpus
from bpeviz.unigram.corpus_words import train_keywords
from bpeviz.unigram.model import UnigramTraining
from bpeviz.unigram.saved import FORMAT as UNIGRAM_FORMAT
from bpeviz.unigram.saved import save_training as save_unigram
from bpeviz.unigram.saved import training_from_dict as unigram_from_dict
from bpeviz.unigram.spm import OpenedModel, open_model, save_model

# train(), save() and load() are the merge loop's layer, which cannot import Unigram's:
# the trainer an algorithm's record names, and how Unigram's trainings and opened models
# are saved and opened, are wired to them here, above both
OWN_TRAINERS[UNIGRAM.trainer] = train_keywords
OWN_TRAINERS[PARITY.trainer] = train_parity
OWN_TRAINERS[PICKY.trainer] = train_picky
OWN_SAVERS[PickyTraining] = save_picky
OWN_FORMATS[PICKY_FORMAT] = picky_from_dict
OWN_TRAINERS[SUPERBPE.trainer] = train_superbpe
OWN_SAVERS[SuperBPETraining] = save_superbpe
OWN_FORMATS[SUPERBPE_FORMAT] = superbpe_from_dict
HF_SPLITS[SUPERBPE_STAGE2] = SUPERBPE_HF_SPLIT  # tokenizer.json's Split for its stage 2
OWN_SAVERS[ParityTraining] = save_parity
OWN_FORMATS[PARITY_FORMAT] = parity_from_dict
OWN_SAVERS[UnigramTraining] = save_unigram
OWN_SAVERS[OpenedModel] = save_model
OWN_OPENERS[".model"] = open_model
OWN_FORMATS[UNIGRAM_FORMAT] = unigram_from_dict
SNAPSHOT_VIEWS["health"] = _health  # Snapshot.health: the analysis layer's, above core



def __getattr__(name: str) -> object:
    # counting files (bpeviz.data) loads its readers and process pool only when asked
    if name == "count_pretokens":
        from bpeviz.data.count import count_pretokens

        return count_pretokens
    raise AttributeError(f"module 'bpeviz' has no attribute {name!r}")


__all__ = [
    "ALGORITHMS",
    "AnyTraining",
    "Corpus",
    "Merge",
    "Snapshot",
    "TrainOptions",
    "Training",
    "count_pretokens",
    "load",
    "replay",
    "replay_on",
    "save",
    "train",
]
