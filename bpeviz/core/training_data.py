"""What a training of merges is made of: its options, its merges and its data.

These records are the bottom of :mod:`bpeviz.core`: the snapshot, the encoder, the
traces and the explanations all read a training, so it imports none of them. The merge
loop that makes one, and the views of it (``at(k)``, ``explain(k)``), are
:mod:`bpeviz.core.training`'s.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from itertools import accumulate
from typing import Any, Protocol

import numpy as np

from bpeviz.algorithms import get as get_algorithm
from bpeviz.engine.inputs import INT64_MAX
from bpeviz.engine.splitlog import SplitLog
from bpeviz.text.corpus import Corpus
from bpeviz.text.owned import OwnedCache
from bpeviz.text.symbols import Symbol

STOP_REASONS = {
    "merges": "made the requested number of merges",
    "vocab_size": "reached the requested vocabulary size",
    "no_pairs": "no pair of symbols was left to merge",
    "min_frequency": "no pair left reaches the minimum frequency",
    "replayed": "replayed a given list of merges",
}


@dataclass(frozen=True)
class TrainOptions:
    """Everything that decides a training's result, besides the corpus."""

    algorithm: str = "bpe"
    merges: int | None = None
    vocab_size: int | None = None
    tie_break: str = "first"
    marker: str | None = None
    marker_style: str = "separate"
    scoring: str = "score"
    min_frequency: int = 0
    special_tokens: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "special_tokens": list(self.special_tokens)}


@dataclass(frozen=True)
class Merge:
    """One merge: at ``step`` (1-based), ``left`` + ``right`` became ``token``.

    ``count`` is the pair's weighted count when it was chosen and ``score`` the value it
    won with (the count itself for BPE and BBPE). ``replaced`` is how many occurrences
    were merged (fewer than ``count`` when occurrences overlap, as in "a a a").
    """

    step: int
    left: Symbol
    right: Symbol
    token: Symbol
    count: int
    score: float
    left_id: int
    right_id: int
    token_id: int
    replaced: int


@dataclass(frozen=True, eq=False)
class TrainingData:
    """What a training of merges holds: the merges, the vocabulary, and the split log.

    :class:`bpeviz.core.training.Training` (what :func:`~bpeviz.core.training.train`
    gives) is this with its views added, ``at(k)`` and ``explain(k)``; the modules those
    views are made of read a training through this class, so they need not import them.

    ``vocab[i]`` is the token with id ``i``: special tokens, the initial alphabet (the 256
    bytes for BBPE), then each merged token in creation order, then any tokens a file
    lists after its merged ones (GPT-2's ``<|endoftext|>``), known at every step. A merge
    whose token already exists keeps the existing id, so for BBPE merge ``k`` has id
    ``255 + k`` unless an earlier merge already made the same bytes. The ids made by step
    ``k`` end at ``vocab_sizes[k]`` (:meth:`vocab_size_at` adds the listed ones).
    """

    corpus: Corpus
    options: TrainOptions
    merges: tuple[Merge, ...]
    vocab: tuple[Symbol, ...]
    n_base: int
    stop_reason: str
    vocab_sizes: np.ndarray = field(repr=False)
    initial_tokens: int = field(repr=False)
    _log: SplitLog = field(repr=False)
    #: the normalizer of an opened Hugging Face ``tokenizer.json`` (its JSON object), kept
    #: so vocabulary health can name the tokens it makes impossible; encoding does not
    #: apply it (None: no normalizer)
    normalizer: Any = field(default=None, repr=False)

    @property
    def algorithm(self) -> str:
        return self.options.algorithm

    def tie_ids(self) -> np.ndarray | None:
        """Each token's id as the ``ids`` tie rule compares it, by our id, when the
        algorithm ranks its initial symbols otherwise than our ids do
        (:meth:`bpeviz.algorithms.base.Algorithm.tie_ranks`: Hugging Face's byte-level
        alphabet); None when they are the same."""
        ranked = get_algorithm(self.algorithm).tie_ranks(self.vocab[:self.n_base])
        if ranked is None:
            return None
        ids = np.arange(len(self.vocab), dtype=np.int64)
        ids[np.asarray(ranked, dtype=np.int64)] = np.arange(len(ranked), dtype=np.int64)
        return ids

    def __len__(self) -> int:
        return len(self.merges)

    @property
    def stopped_early(self) -> bool:
        """True when training ended before the requested merges or vocabulary size."""
        return self.stop_reason in ("no_pairs", "min_frequency")

    @property
    def stop_message(self) -> str:
        return f"Stopped after {len(self.merges):,} merges: {STOP_REASONS[self.stop_reason]}."

    #: what a step number is called where it is shown (a step is a merge)
    step_unit = "step"

    def vocab_size_at(self, step: int) -> int:
        """How many tokens the vocabulary holds after ``step`` merges: the tokens made so
        far and the tokens a file lists after its merged ones, known at every step."""
        return int(self.vocab_sizes[step]) + len(self.vocab) - int(self.vocab_sizes[-1])

    def token_counts(self) -> np.ndarray:
        """Tokens in the whole corpus after each step, for steps ``0..len(merges)``
        (counted once per training; each call returns a copy the caller may change)."""
        return _TOKEN_COUNTS.get(self, None, self._count_tokens).copy()

    def _count_tokens(self) -> np.ndarray:
        if self.initial_tokens > INT64_MAX:  # counts past 64 bits: Python ints
            done = [0, *accumulate(m.replaced for m in self.merges)]
            return np.array([self.initial_tokens - d for d in done], dtype=object)
        replaced = np.fromiter((m.replaced for m in self.merges), np.int64, len(self.merges))
        return self.initial_tokens - np.concatenate([[0], np.cumsum(replaced)])


_TOKEN_COUNTS: OwnedCache[np.ndarray] = OwnedCache("token counts")


class AtStep(Protocol):
    """A training seen after ``step`` merges (a :class:`~bpeviz.core.snapshot.Snapshot`):
    what encoding, tracing and sampling read of the snapshot they are given."""

    @property
    def training(self) -> TrainingData: ...

    @property
    def step(self) -> int: ...
