"""What Compare asks of a Unigram training, answered for pruning rounds. No streamlit here.

Every function here is now read from what every training answers
(:mod:`bpeviz.core.protocol`: ``at``, ``vocab_size_at``, ``token_counts``), so it works
for any training, an opened ``.model`` too; what is left to Unigram is only
:func:`round_for_vocab_size`'s rule for sizes that shrink.

A merging training's step k has k merged tokens and its vocabulary grows with k; a
Unigram training's step k is the vocabulary after k pruning rounds (step 0: the large
seed), so its vocabulary shrinks as k grows (every round keeps every character of the
corpus, so the last step has none to put back). Compare reaches
these through :mod:`bpeviz.analysis.compare` (and :mod:`bpeviz.analysis.curves` through it), which
asks
the algorithm record's ``step_kind`` and comes here for ``"prune"``:

>>> from bpeviz import Corpus
>>> from bpeviz.unigram.corpus_words import train_corpus
>>> t = train_corpus(Corpus.from_text("hug pug hug pun bun hugs"), 12, "course")
>>> vocab_sizes(t)
[32, 29, 27, 25, 23, 21, 19, 18, 17, 16, 15, 14, 13]
>>> found = round_for_vocab_size(t, 20)
>>> found
VocabStep(step=6, vocab_size=19, target=20)
>>> found.note
'no round has exactly 20 tokens: shown at round 6, the closest below (19 tokens)'
>>> [tok.text for tok in at(t, 0).encode("hugs")], [tok.text for tok in at(t, 12).encode("hugs")]
(['▁hugs'], ['▁hug', 's'])

A round's vocabulary size counts every id its model knows: the special tokens
(``<unk>``, and ``<s>``, ``</s>`` for SentencePiece's trainer) and the pieces.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bpeviz.analysis.compare import VocabStep
from bpeviz.core import protocol
from bpeviz.core.encoded import Token
from bpeviz.core.protocol import AnyTraining


@dataclass(frozen=True, eq=False)
class RoundSnapshot:
    """Round ``step`` of a Unigram training, read as Compare reads a merge snapshot:
    ``training``, ``step``, ``encode(text)`` (Viterbi with that round's pieces)."""

    training: AnyTraining
    step: int

    def encode(self, text: str) -> list[Token]:
        return list(self.training.at(self.step).encode(text))


def at(training: AnyTraining, step: int) -> RoundSnapshot:
    """Round ``step`` (ValueError naming the range when there is no such round)."""
    step = int(step)
    training.at(step)  # checks the range
    return RoundSnapshot(training, step)


def vocab_sizes(training: AnyTraining) -> list[int]:
    """The vocabulary size (special tokens included) after each round, round 0 first
    (:func:`bpeviz.core.protocol.vocab_sizes`)."""
    return protocol.vocab_sizes(training).tolist()


def vocabulary_size(training: AnyTraining, step: int) -> int:
    """The vocabulary size after ``step`` rounds (``training.vocab_size_at(step)``)."""
    return training.vocab_size_at(step)


def round_for_vocab_size(training: AnyTraining, target: int) -> VocabStep:
    """The round whose vocabulary is the largest of at most ``target`` tokens (the
    earliest such round on a tie), as :func:`bpeviz.analysis.compare.step_for_vocab_size` finds
    the last merge step with at most ``target`` tokens; the round of the smallest
    vocabulary when every round has more than ``target``.

    The sizes are scanned rather than searched: any record of rounds is answered, also
    one whose sizes do not shrink round by round.
    """
    sizes = vocab_sizes(training)
    below = [k for k, n in enumerate(sizes) if n <= target]
    if below:
        step = max(below, key=lambda k: (sizes[k], -k))
    else:
        step = min(range(len(sizes)), key=lambda k: (sizes[k], k))
    return VocabStep(step, sizes[step], int(target), prunes=True)


def corpus_tokens(training: AnyTraining) -> np.ndarray:
    """The tokens the training's corpus takes after each round: every word's count times
    the pieces of its Viterbi split with that round's vocabulary (``token_counts()``,
    made once per training)."""
    return training.token_counts()


__all__ = ["RoundSnapshot", "at", "corpus_tokens",
           "round_for_vocab_size", "vocab_sizes", "vocabulary_size"]
