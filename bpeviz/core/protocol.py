"""What every training answers, whatever its steps do.

A training of merges (:class:`bpeviz.core.training.Training`: a step adds a token), a
Unigram training (:class:`bpeviz.unigram.UnigramTraining`: a step is a pruning round)
and an opened SentencePiece ``.model`` (:class:`bpeviz.unigram.spm.OpenedModel`: one
step, the model) all answer :class:`AnyTraining`, so Compare, the curves and the app can
ask any of them the same things, and never whether it prunes:

- ``algorithm``: the registered algorithm's name (its record names a step:
  :func:`step_name`);
- ``at(k)``: the state after ``k`` steps (``at()``: after the last one), an
  :class:`AnyStep`: its ``step`` and ``encode(text)``;
- ``vocab_size_at(k)``: how many tokens the vocabulary holds after ``k`` steps;
- ``token_counts()``: how many tokens the training's corpus takes after each step, from
  step 0 (zeros for a tokenizer file, which has no corpus);
- ``explain(k)``: why step ``k`` did what it did (a merge's words and rivals, a round's
  removed pieces and their costs); a ValueError for step 0 and for a file that holds no
  training;
- ``stop_message``: the size reached and why, in one sentence;
- ``step_unit``: what a step number is called where it is shown ("step" for merges, the
  record's word for a pruning round);
- ``steps_for_vocab_sizes(targets)``: for each vocabulary size, the step whose vocabulary
  is the largest of at most that many tokens (each training says which step wins a tie:
  :func:`steps_at_most` with its own ``latest``).

:func:`last_step`, :func:`step_name`, :func:`vocab_sizes` and :func:`corpus_tokens` are
read from those alone.

>>> from bpeviz import Corpus, train
>>> words = Corpus.from_text("hug pug hug pun bun hugs")
>>> merges = train(words, algorithm="bpe", merges=5)
>>> rounds = train(words, algorithm="unigram", vocab_size=12, variant="course")
>>> [(step_name(t), last_step(t)) for t in (merges, rounds)]
[('merge', 5), ('pruning round', 12)]
>>> [t.vocab_size_at(last_step(t)) for t in (merges, rounds)]
[13, 13]
>>> [[tok.text for tok in t.at().encode("hugs")] for t in (merges, rounds)]
[['hug', 's'], ['▁hug', 's']]
>>> isinstance(merges, AnyTraining), isinstance(rounds, AnyTraining)
(True, True)
>>> [t.steps_for_vocab_sizes([20]).tolist() for t in (merges, rounds)]
[[5], [6]]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np

from bpeviz.algorithms import get as get_algorithm
from bpeviz.text.owned import OwnedCache


@runtime_checkable
class AnyStep(Protocol):
    """The state after some steps of a training: what ``training.at(k)`` gives
    (a :class:`~bpeviz.core.snapshot.Snapshot`, a Unigram round, an opened model)."""

    step: int

    def encode(self, text: str) -> Sequence[Any]:
        """The tokens of ``text`` (:class:`bpeviz.core.encoded.Token`: text, id, offsets,
        bytes, unknown, partial) with this step's vocabulary."""
        ...


@runtime_checkable
class AnyTraining(Protocol):
    """What every training answers; see the module docstring."""

    @property
    def algorithm(self) -> str: ...

    @property
    def stop_message(self) -> str: ...

    @property
    def step_unit(self) -> str: ...

    def at(self, step: int | None = None) -> AnyStep: ...

    def vocab_size_at(self, step: int) -> int: ...

    def token_counts(self) -> np.ndarray: ...

    def explain(self, step: int) -> Any: ...

    def steps_for_vocab_sizes(self, targets: Sequence[int] | np.ndarray) -> np.ndarray: ...


def last_step(training: AnyTraining) -> int:
    """The number of the last step: merges made, or pruning rounds (the final cut
    included), 0 for a model file."""
    return int(training.at().step)


def landmarks(training: AnyTraining) -> list[tuple[Any, ...]]:
    """The steps where a training's phase changes, each with what it is from there (a
    training that has phases answers ``landmarks()``: SuperBPE's two stages, PickyBPE's
    runs of merges and its removals); [] for one phase. The step bar marks them and names
    the phase of its step. A landmark may add a third item, the kind of its phase
    ("removal"), which the bar draws in its own style.

    >>> from bpeviz import Corpus, train
    >>> landmarks(train(Corpus.from_text("of the cat"), merges=2))
    []
    >>> landmarks(train("of the cat of the cat", algorithm="superbpe", merges=8,
    ...                 transition=5))
    [(0, 'stage 1: merges inside words'), (6, 'stage 2: merges across spaces')]
    """
    found = getattr(training, "landmarks", None)
    if not callable(found):
        return []
    return [(int(k), str(label), *(str(x) for x in kind)) for k, label, *kind in found()]


def languages(training: AnyTraining) -> tuple[str, ...]:
    """The languages a training was trained on, one corpus each (a training per language
    answers ``languages``: parity-aware BPE's); () for a training of one corpus.

    >>> from bpeviz import Corpus, train
    >>> languages(train(Corpus.from_text("of the cat"), merges=2))
    ()
    >>> languages(train({"en": "the cat", "de": "die Katze"}, algorithm="parity", merges=2))
    ('en', 'de')
    """
    found = getattr(training, "languages", ())
    return tuple(str(lang) for lang in found) if isinstance(found, tuple) else ()


def step_notes(training: AnyTraining) -> list[str] | None:
    """A sentence per step, step 0 first, for a training that says something of each
    step of its own (``step_notes()``: which language got each merge, and on which
    numbers; SuperBPE's stage of each merge and its superwords); None for the others.
    The card's numbers show the one of the bar's step."""
    found = getattr(training, "step_notes", None)
    return [str(note) for note in found()] if callable(found) else None


def step_name(training: AnyTraining) -> str:
    """What one step is called, from the algorithm's record: "merge" or "pruning round"."""
    return get_algorithm(training.algorithm).step


def vocab_sizes(training: AnyTraining) -> np.ndarray:
    """:meth:`~AnyTraining.vocab_size_at` every step, step 0 first (growing for merges,
    shrinking for pruning rounds); read once per training, a copy each call."""
    return _VOCAB_SIZES.get(training, None, lambda: np.fromiter(
        (training.vocab_size_at(k) for k in range(last_step(training) + 1)),
        dtype=np.int64)).copy()


def steps_at_most(sizes: Sequence[int] | np.ndarray, targets: Sequence[int] | np.ndarray,
                  latest: bool) -> np.ndarray:
    """For each target, the step (an index of ``sizes``) whose size is the largest of at
    most the target: of several, the latest (``latest``) or the earliest; the earliest
    step of the smallest size when every size is over the target. The sizes need not be
    sorted.

    >>> steps_at_most([2, 3, 3, 4], [1, 3, 9], latest=True).tolist()
    [0, 2, 3]
    >>> steps_at_most([9, 7, 7, 8, 5], [4, 7, 8], latest=False).tolist()
    [4, 1, 3]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    targets = np.asarray(targets, dtype=np.int64)
    unique, first = np.unique(sizes, return_index=True)
    chosen = first
    if latest:
        chosen = len(sizes) - 1 - np.unique(sizes[::-1], return_index=True)[1]
    found = np.searchsorted(unique, targets, side="right") - 1
    return np.where(found >= 0, chosen[np.maximum(found, 0)], first[0]).astype(np.int64)


def corpus_tokens(training: AnyTraining, step: int) -> int:
    """How many tokens the training's corpus takes after ``step`` steps."""
    return int(training.token_counts()[step])


_VOCAB_SIZES: OwnedCache[np.ndarray] = OwnedCache("vocab sizes")

__all__ = [
    "AnyStep",
    "AnyTraining",
    "corpus_tokens",
    "landmarks",
    "languages",
    "last_step",
    "step_name",
    "step_notes",
    "steps_at_most",
    "vocab_sizes",
]
