"""The state of a training after ``step`` merges, read back from the split log.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_counts({"fast_": 4, "faster_": 3, "tall_": 5, "taller_": 4}),
...           merges=10, special_tokens=())
>>> t.at(10).splits["taller_"], t.at(1).splits["taller_"]
(('tall', 'er_'), ('ta', 'l', 'l', 'e', 'r', '_'))
>>> t.at(0).pairs.iloc[0][["left", "right", "count"]].tolist()
['t', 'a', 9]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from bpeviz.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.training import Merge, Training


@dataclass(frozen=True, eq=False)
class Snapshot:
    """What a training looks like after ``step`` merges.

    - ``vocab``: the tokens known at this step; a token's id is its position.
    - ``splits``: every corpus word -> the tuple of its symbols.
    - ``pairs``: every adjacent pair at this step (columns ``left``, ``right``, ``count``,
      ``score``), best first: the first row is the pair the next merge chooses.
    """

    training: Training
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
        return list(self.training.vocab[: self.training.vocab_size_at(self.step)])

    @property
    def token_count(self) -> int:
        """Tokens in the whole corpus at this step."""
        return int(self.training.token_counts()[self.step])

    # -- splits -------------------------------------------------------------------
    @cached_property
    def _ids(self) -> tuple[np.ndarray, np.ndarray]:
        """All words' token ids at this step, concatenated, and each id's word index."""
        log = self.training._log
        live = log.live(self.step)
        return log.token[live], log.word[live].astype(np.int64)

    def split_ids(self, index: int) -> list[int]:
        """Token ids of corpus word number ``index`` at this step."""
        return self.training._log.split_ids(index, self.step).tolist()

    @cached_property
    def splits(self) -> dict[str, tuple[Symbol, ...]]:
        vocab = self.training.vocab
        ids, word_of = self._ids
        cuts = np.flatnonzero(np.diff(word_of)) + 1
        tokens = [vocab[i] for i in ids.tolist()]
        bounds = [0, *cuts.tolist(), len(tokens)]
        words = self.training.corpus.words
        return {words[k]: tuple(tokens[bounds[k] : bounds[k + 1]]) for k in range(len(words))}

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
        ids, word_of = self._ids
        counts = np.asarray(training.corpus.counts, dtype=np.int64)
        n_vocab = len(training.vocab)
        same_word = word_of[:-1] == word_of[1:]
        left, right = ids[:-1][same_word].astype(np.int64), ids[1:][same_word].astype(np.int64)
        weight = counts[word_of[:-1][same_word]]
        keys, first, inverse = np.unique(left * n_vocab + right, return_index=True,
                                         return_inverse=True)
        pair_count = np.bincount(inverse, weights=weight, minlength=len(keys)).astype(np.int64)
        lid, rid = keys // n_vocab, keys % n_vocab
        if training.options.algorithm == "wordpiece" and training.options.scoring == "score":
            units = np.bincount(ids, weights=counts[word_of], minlength=n_vocab)
            score = pair_count / (units[lid] * units[rid])
        else:
            score = pair_count.astype(np.float64)
        if training.options.tie_break == "first":
            order = np.lexsort((first, -score))
        else:
            order = np.lexsort((rid, lid, -score))
        vocab = np.empty(n_vocab, dtype=object)
        vocab[:] = training.vocab
        return pd.DataFrame({
            "left": vocab[lid[order]],
            "right": vocab[rid[order]],
            "count": pair_count[order],
            "score": score[order],
            "left_id": lid[order],
            "right_id": rid[order],
        })

    # -- encoding (bpeviz.encoding) -----------------------------------------------
    def encode(self, text: str) -> list[Any]:
        """Cut ``text`` into the tokens of this step (see :mod:`bpeviz.encoding`)."""
        from bpeviz.encoding import encode

        return encode(self, text)

    def decode(self, ids: Sequence[int]) -> str:
        """The text a list of token ids stands for."""
        from bpeviz.encoding import decode

        return decode(self, ids)

    def export(self, fmt: str) -> dict[str, str]:
        """This step's vocabulary and merges as files: ``{file name: content}``.

        ``fmt`` is ``"hf"``, ``"tiktoken"``, ``"vocab"``, ``"gpt2"`` or ``"training"``
        (see :mod:`bpeviz.formats`).
        """
        from bpeviz.formats import export

        return export(self, fmt)
