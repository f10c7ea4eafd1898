"""Unigram (SentencePiece, Kudo 2018): start from a large vocabulary and prune it.

A step is a pruning round, not a merge: the vocabulary shrinks, and a word is cut by
the best-scoring segmentation (Viterbi) over the pieces' log-probabilities. Training
lives in :mod:`bpeviz.unigram` (``train_unigram``), not in the merge loops.

>>> UNIGRAM.step_kind, UNIGRAM.encoder, UNIGRAM.sizes, UNIGRAM.export_formats
('prune', 'viterbi', ('vocab',), ('hf',))
>>> UNIGRAM.pretokenizer in ("metaspace", "whitespace")
True
"""

from bpeviz.algorithms.base import Algorithm
from bpeviz.text.pretokenize import PRETOKENIZERS

#: SentencePiece's whitespace handling ("▁word") when bpeviz.text.pretokenize offers it; the
#: app's Unigram adapter puts the "▁" in front of whitespace words itself otherwise
PRETOKENIZER = "metaspace" if "metaspace" in PRETOKENIZERS else "whitespace"

UNIGRAM = Algorithm(
    name="unigram",
    label="Unigram (SentencePiece)",
    help=("T5's, ALBERT's and XLNet's algorithm: starts from a large vocabulary of frequent "
          "substrings and removes, round after round, the pieces the corpus misses least; "
          "a word is cut into the pieces of highest total probability (Viterbi). "
          "▁ marks the start of a word."),
    units="characters",
    special_tokens=("<unk>", "<s>", "</s>"),
    pretokenizer=PRETOKENIZER,
    encoder="viterbi",
    export_formats=("hf",),
    hf_model="Unigram",
    trainer="bpeviz.unigram.train_unigram",
    step="pruning round",
    steps_scale=("a pruning round removes many pieces and the vocabulary shrinks as the "
                 "rounds go on, so a round is not on the merge steps' scale"),
    steps_cut=("every word cut by Viterbi with that round's pieces: fewer pieces, usually "
               "more tokens"),
    step_kind="prune",
    sizes=("vocab",),
    settings=("variant", "shrinking_factor", "seed_size"),
    views="bpeviz.ui.unigram",
)
