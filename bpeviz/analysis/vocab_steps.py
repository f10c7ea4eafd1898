"""Where a training stands at a step or at a vocabulary size: what Compare asks of every
configuration, merges and pruning rounds alike, read through the calls every training
answers (:mod:`bpeviz.core.protocol`) and nothing else. A merging training's vocabulary
grows step by step, a pruning one's shrinks; which step a vocabulary size picks is the
training's own answer (``steps_for_vocab_sizes``), so one code path serves both.

>>> from bpeviz import Corpus, train
>>> words = Corpus.from_text("hug pug hug pun bun hugs")
>>> merges = train(words, algorithm="bpe", merges=5)
>>> rounds = train(words, algorithm="unigram", vocab_size=12, variant="course")
>>> [vocab_range(t) for t in (merges, rounds)]
[(8, 13), (13, 32)]
>>> [step_for_vocab_size(t, 20) for t in (merges, rounds)]
[VocabStep(step=5, vocab_size=13, target=20), VocabStep(step=6, vocab_size=19, target=20)]
>>> step_for_vocab_size(rounds, 20).note
'no pruning round has exactly 20 tokens: shown at pruning round 6, the closest below (19 tokens)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from bpeviz.core import protocol


def step_unit(training: Any) -> str:
    """What one step of the training is called where a step number is shown: ``"step"``
    for merges, the record's own word otherwise (Unigram: ``"pruning round"``)."""
    return str(training.step_unit)


def last_step(training: Any) -> int:
    """The training's last step: its number of merges, or of pruning rounds."""
    return protocol.last_step(training)


@dataclass(frozen=True, eq=False)
class TrainingStep:
    """Step ``step`` of a training, as :func:`bpeviz.analysis.compare.compare` reads it:
    ``training``, ``step`` and ``encode(text)`` (a merge snapshot reads the same way)."""

    training: Any
    step: int

    def encode(self, text: str) -> Sequence[Any]:
        return self.training.at(self.step).encode(text)


def at(training: Any, step: int) -> TrainingStep:
    """What :func:`bpeviz.analysis.compare.compare` cuts with at ``step`` (a ValueError
    when the training has no such step)."""
    step = int(step)
    training.at(step)  # checks the range
    return TrainingStep(training, step)


def vocabulary_size(training: Any, step: int) -> int:
    """Tokens known after ``step`` steps: the step's vocabulary with its special tokens,
    and tokens a file lists after its merged ones (GPT-2's ``<|endoftext|>``)."""
    return int(training.vocab_size_at(step))


def vocab_sizes(training: Any) -> np.ndarray:
    """:func:`vocabulary_size` at every step, step 0 first."""
    return protocol.vocab_sizes(training)


def vocab_range(training: Any) -> tuple[int, int]:
    """The smallest and the largest vocabulary size of any step of the training."""
    sizes = vocab_sizes(training)
    return int(sizes.min()), int(sizes.max())


def corpus_tokens(training: Any) -> np.ndarray | None:
    """The tokens the training's corpus takes after each step (None for a tokenizer read
    from a file, whose corpus, having no words, takes none)."""
    counts = training.token_counts()
    return counts if counts[0] else None


@dataclass(frozen=True)
class VocabStep:
    """The step of a training at which its vocabulary has (at most) ``target`` tokens;
    ``unit``: what the training calls a step (:func:`step_unit`), for the note."""

    step: int
    vocab_size: int
    target: int
    unit: str = field(default="step", repr=False)

    @property
    def exact(self) -> bool:
        return self.vocab_size == self.target

    @property
    def note(self) -> str:
        """What the step means, in words: empty when the vocabulary is exactly the target."""
        if self.exact:
            return ""
        size, target, unit = f"{self.vocab_size:,}", f"{self.target:,}", self.unit
        if self.vocab_size > self.target:
            if self.step == 0:
                return (f"its starting vocabulary already has {size} tokens, more than "
                        f"{target}: shown at {unit} 0")
            return (f"even its smallest vocabulary has {size} tokens, more than {target}: "
                    f"shown at {unit} {self.step:,}, where it is smallest")
        return (f"no {unit} has exactly {target} tokens: shown at {unit} {self.step:,}, the "
                f"closest below ({size} tokens)")


def step_for_vocab_size(training: Any, target: int) -> VocabStep:
    """The step whose vocabulary is the largest of at most ``target`` tokens, as the
    training chooses it (``steps_for_vocab_sizes``: the last such merge step, the first
    such pruning round); its step of the smallest vocabulary when every step has more.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("aaab aab"), merges=2, special_tokens=())
    >>> [t.vocab_size_at(k) for k in range(3)], step_for_vocab_size(t, 3)
    ([2, 3, 4], VocabStep(step=1, vocab_size=3, target=3))
    >>> step_for_vocab_size(t, 1).note
    'its starting vocabulary already has 2 tokens, more than 1: shown at step 0'
    """
    step = int(training.steps_for_vocab_sizes([int(target)])[0])
    return VocabStep(step, vocabulary_size(training, step), int(target), step_unit(training))


def steps_for_vocab_sizes(training: Any, lo: int, hi: int) -> np.ndarray:
    """``step_for_vocab_size(training, v).step`` for every ``v`` in ``lo..hi`` at once.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("aaab aab"), merges=2, special_tokens=())
    >>> steps_for_vocab_sizes(t, 1, 5).tolist()
    [0, 0, 1, 2, 2]
    """
    return np.asarray(training.steps_for_vocab_sizes(np.arange(lo, hi + 1, dtype=np.int64)),
                      dtype=np.int64)


__all__ = ["TrainingStep", "VocabStep", "at", "corpus_tokens", "last_step", "step_for_vocab_size",
           "step_unit", "steps_for_vocab_sizes", "vocab_range", "vocab_sizes",
           "vocabulary_size"]
