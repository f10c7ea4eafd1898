"""The state of a training after ``step`` merges, read back from the merge forest.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"fast_": 4, "faster_": 3, "tall_": 5, "taller_": 4}),
...           merges=10, special_tokens=())
>>> t.at(10).splits["taller_"], t.at(1).splits["taller_"]
(('tall', 'er_'), ('ta', 'l', 'l', 'e', 'r', '_'))
>>> top = t.at(0).pairs.iloc[0]
>>> top.left, top.right, int(top["count"])
('t', 'a', 9)
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core import encoding, sampling, tracing
from bpeviz.core.trace import Trace
from bpeviz.core.training_data import Merge, TrainingData
from bpeviz.engine import compiled_module
from bpeviz.engine.inputs import INT64_MAX, count_array
from bpeviz.text.owned import OwnedCache
from bpeviz.text.symbols import Symbol

#: views of a snapshot computed a layer above (which this layer cannot import), by name:
#: ``"health"`` is :func:`bpeviz.analysis.health.health`, set by ``bpeviz/__init__.py``
SNAPSHOT_VIEWS: dict[str, Callable[..., Any]] = {}


def snapshot_view(name: str) -> Callable[..., Any]:
    """The view ``name`` of :data:`SNAPSHOT_VIEWS` (any step's, not only a Snapshot's);
    RuntimeError when ``bpeviz`` was not imported to register it."""
    view = SNAPSHOT_VIEWS.get(name)
    if view is None:
        raise RuntimeError(f"import bpeviz first: it wires the steps' {name} to the "
                           "analysis layer")
    return view


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What a training looks like after ``step`` merges.

    - ``vocab``: the tokens known at this step; a token's id is its position.
    - ``splits``: every corpus word -> the tuple of its symbols.
    - ``pairs``: every adjacent pair at this step (columns ``left``, ``right``, ``count``,
      ``score``), best first: the first row is the pair the next merge chooses.
    """

    training: TrainingData
    step: int

    # -- what changed -------------------------------------------------------------
    @property
    def merge(self) -> Merge | None:
        """The merge made at this step (None at step 0)."""
        return self.training.merges[self.step - 1] if self.step else None

    @property
    def next_merge(self) -> Merge | None:
        """The merge the training makes after this step, if any."""
        merges = self.training.merges
        return merges[self.step] if self.step < len(merges) else None

    @cached_property
    def vocab(self) -> list[Symbol]:
        return list(self.training.vocab[: self.training.vocab_sizes[self.step]])

    @property
    def token_count(self) -> int:
        """Tokens in the whole corpus at this step."""
        return int(self.training.token_counts()[self.step])

    # -- splits -------------------------------------------------------------------
    @cached_property
    def token_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """All words' token ids at this step, concatenated, and each id's word index
        (``(int32 ids, int64 word numbers)``, word numbers ascending).

        >>> from bpeviz import Corpus, train
        >>> ids, word_of = train(Corpus.from_counts({"ab": 2, "b": 1}), merges=1,
        ...                      special_tokens=()).at(1).token_ids
        >>> ids.tolist(), word_of.tolist()
        ([2, 1], [0, 1])
        """
        log = self.training._log
        fast = compiled_module()
        if fast is not None:
            ids, word_of = fast.live(log.token, log.word, log.step, log.until, self.step)
            return np.frombuffer(ids, dtype=np.int32), np.frombuffer(word_of, dtype=np.int64)
        live = log.live(self.step)
        return log.token[live], log.word[live].astype(np.int64)

    @property
    def _ids(self) -> tuple[np.ndarray, np.ndarray]:
        """The old name of :attr:`token_ids`."""
        return self.token_ids

    def split_ids(self, index: int) -> list[int]:
        """Token ids of corpus word number ``index`` at this step."""
        return self.training._log.split_ids(index, self.step).tolist()

    @cached_property
    def splits(self) -> dict[str, tuple[Symbol, ...]]:
        tables = _tables(self.training)
        ids, word_of = self.token_ids
        fast = compiled_module()
        if fast is not None:
            with _gc_paused():
                return fast.splits(tables.words, self.training.vocab, ids, word_of)
        tokens = tables.vocab_objects[ids].tolist()
        bounds = np.searchsorted(word_of, np.arange(len(tables.counts) + 1)).tolist()
        with _gc_paused():  # tens of thousands of new tuples: no collection halfway
            return dict(zip(self.training.corpus.words,
                            map(tuple, map(tokens.__getitem__,
                                           map(slice, bounds[:-1], bounds[1:])))))

    @cached_property
    def changed_words(self) -> list[int]:
        """Indices of the corpus words whose split this step's merge changed."""
        if not self.step:
            return []
        return self.training._log.changed_words(self.step).tolist()

    # -- pairs --------------------------------------------------------------------
    @cached_property
    def pairs(self) -> pd.DataFrame:
        training = self.training
        tables = _tables(training)
        ids, word_of = self.token_ids
        fast = compiled_module()
        if fast is not None and tables.counts.dtype == np.int64:
            # grouped by a hash table, in order of first occurrence
            keys, counts = fast.pair_counts(ids, word_of, tables.counts)
            unique = np.frombuffer(keys, dtype=np.int64)
            pair_count = np.frombuffer(counts, dtype=np.int64)
            lid, rid = unique >> 32, unique & 0xFFFFFFFF
            first = ranks = np.arange(len(unique))
            if training.options.tie_break == "ids":  # rank by (left id, right id)
                ranks = np.empty(len(unique), dtype=np.int64)
                ranks[np.argsort(unique)] = first
        else:
            lid, rid, pair_count, first, ranks = _pair_counts(ids, word_of, tables.counts,
                                                               len(training.vocab))
        tie_ids = training.tie_ids() if training.options.tie_break == "ids" else None
        if tie_ids is not None:  # the ids the rule compares are Hugging Face's
            key = (tie_ids[lid].astype(np.int64) << 32) | tie_ids[rid].astype(np.int64)
            ranks = np.empty(len(key), dtype=np.int64)
            ranks[np.argsort(key, kind="stable")] = np.arange(len(key))
        # best first: higher score, then the earlier first occurrence ("first") or the
        # smaller (left id, right id) ("ids"); ``first`` and ``ranks`` order those
        tie = first if training.options.tie_break == "first" else ranks
        alg = get_algorithm(training.algorithm)
        if alg.value_name(training.options.scoring) == "score":
            units = np.bincount(ids, weights=tables.counts[word_of].astype(np.float64),
                                minlength=len(training.vocab))
            score = alg.pair_scores(pair_count, units[lid], units[rid])
            order = np.lexsort((tie, -score))
        elif pair_count.dtype == object:  # counts past 64 bits: sort Python ints exactly
            score = pair_count.astype(np.float64)
            order = np.array(sorted(range(len(pair_count)),
                                    key=lambda i: (-pair_count[i], tie[i])), dtype=np.int64)
        else:
            score = pair_count.astype(np.float64)
            top = int(pair_count.max()) if len(pair_count) else 0
            span = int(tie.max()) + 1 if len(tie) else 1
            if (top + 1) * span < 2**62:  # one integer key: a quick sort, no lexsort
                order = np.argsort((top - pair_count) * span + tie)
            else:
                order = np.lexsort((tie, -score))
        return pd.DataFrame({
            "left": tables.vocab_column(lid[order]),
            "right": tables.vocab_column(rid[order]),
            "count": pair_count[order],
            "score": score[order],
            "left_id": lid[order],
            "right_id": rid[order],
        })

    # -- encoding (bpeviz.core.encoding) -----------------------------------------------
    def encode(self, text: str, *, dropout: float = 0.0, seed: int | None = None) -> list[Any]:
        """Cut ``text`` into the tokens of this step (see :mod:`bpeviz.core.encoding`).

        ``dropout=p`` > 0: BPE-dropout, each candidate merge skipped with probability p,
        reproducible with ``seed`` (see :mod:`bpeviz.core.sampling`).
        """
        if dropout:
            return sampling.encode_dropout(self, text, dropout, seed)
        return encoding.encode(self, text)

    def health(self, corpus: Any = None) -> Any:
        """What is wrong with this step's vocabulary: unreachable, unused, near-duplicate
        and partial-character tokens, counted on ``corpus`` (a text or a Corpus; None:
        the training's own), a :class:`bpeviz.analysis.health.Health`."""
        return snapshot_view("health")(self, corpus)

    def trace(self, word: str, *, cut: bool = False) -> Trace:
        """How :meth:`encode` reaches one word's tokens (see :mod:`bpeviz.core.explain`;
        ``cut``: :func:`bpeviz.core.tracing.trace`'s)."""
        return tracing.trace(self, word, cut=cut)

    def decode(self, ids: Sequence[int]) -> str:
        """The text a list of token ids stands for."""
        return encoding.decode(self, ids)


def _pair_counts(ids: np.ndarray, word_of: np.ndarray, counts: np.ndarray,
                 n_vocab: int) -> tuple[np.ndarray, ...]:
    """Every adjacent pair within a word, grouped (NumPy): left ids, right ids, weighted
    counts, each pair's first position in corpus order, and its rank by (left, right)."""
    same_word = word_of[:-1] == word_of[1:]
    keys = ids[:-1][same_word].astype(np.int64) * n_vocab + ids[1:][same_word]
    weight = counts[word_of[:-1][same_word]]
    if not len(keys):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty, empty
    by_key = np.argsort(keys)  # sort once; then each group's first position and sum
    sorted_keys = keys[by_key]
    starts = np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]]))
    unique = sorted_keys[starts]
    first = np.minimum.reduceat(by_key, starts)
    pair_count = np.add.reduceat(weight[by_key], starts)
    return unique // n_vocab, unique % n_vocab, pair_count, first, np.arange(len(unique))


class _Tables:
    """Arrays every snapshot of one training reuses (built once per training)."""

    def __init__(self, training: TrainingData) -> None:
        self.vocab_objects = np.empty(len(training.vocab), dtype=object)
        self.vocab_objects[:] = training.vocab
        self.counts = count_array(training.corpus.counts)
        if training.initial_tokens > INT64_MAX and self.counts.dtype != object:
            # every count fits, but a sum of them (a pair's count, a token's frequency)
            # may not: Python ints, summed exactly
            self.counts = np.array(list(training.corpus.counts), dtype=object)
        self.words = tuple(training.corpus.words)
        # a vocabulary of strings becomes pandas' string column type, as the DataFrame
        # constructor would infer it; taking rows from it skips that inference each time
        self.strings = (pd.array(self.vocab_objects, dtype="str")
                        if all(isinstance(t, str) for t in training.vocab) else None)

    def vocab_column(self, ids: np.ndarray) -> Any:
        """The tokens with these ids, as a DataFrame column."""
        if self.strings is not None and len(ids):  # (an empty column stays object)
            return self.strings.take(ids)
        return self.vocab_objects[ids]


_TABLES: OwnedCache[_Tables] = OwnedCache("snapshot tables")


def _tables(training: TrainingData) -> _Tables:
    return _TABLES.get(training, None, lambda: _Tables(training))


def exact_counts(training: TrainingData) -> np.ndarray:
    """The corpus's word counts as an array in which every sum of counts times
    occurrences is exact: int64 when the corpus's weighted symbols fit in 64 bits (no
    such sum is larger), else Python ints (an object array). Treat it as read-only."""
    return _tables(training).counts


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building many small containers."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
