"""The merge forest every training keeps: which token each word held at each step."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: the step a node that is never merged into a longer token is merged at
NEVER = 2**31 - 1


@dataclass(frozen=True)
class SplitLog:
    """Every token every word ever held: the merge forest, packed in NumPy arrays.

    Node ``i`` is token ``token[i]`` of word ``word[i]``, made at step ``step[i]`` (0 for
    an initial symbol) and merged into a longer token at step ``until[i]`` (``NEVER``
    if it never is). Nodes are sorted by word, then by position, then by step, so the
    split of every word after step ``k`` is the nodes with ``step <= k < until``, in
    order: one vectorized comparison. Memory: one node per initial symbol and one per
    merge site, so it grows with the corpus's symbols, never with a copy per step.

    Example: "aaa" with the merges (a, a) then (aa, a) has the nodes a a a (step 0),
    aa (step 1, over the first two) and aaa (step 2); at step 1 the split is aa a.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_counts({"aaa": 1}), "bpe", merges=2, special_tokens=[])
    >>> [t.vocab[i] for i in t._log.token], t._log.step.tolist(), t._log.until.tolist()
    (['a', 'aa', 'aaa', 'a', 'a'], [0, 1, 2, 0, 0], [1, 2, 2147483647, 1, 2])
    >>> [t.vocab[i] for i in t._log.split_ids(0, 1)]
    ['aa', 'a']
    """

    token: np.ndarray
    step: np.ndarray
    until: np.ndarray
    word: np.ndarray
    word_start: np.ndarray  # word w's nodes are word_start[w]:word_start[w + 1]
    n_words: int
    n_steps: int

    @classmethod
    def from_forest(cls, token: np.ndarray, word: np.ndarray, step: np.ndarray,
                    until: np.ndarray, n_words: int, n_steps: int) -> SplitLog:
        """Pack nodes already sorted by word, position in the word, and step."""
        return cls(
            token=token,
            step=step,
            until=until,
            word=word,
            word_start=np.searchsorted(word, np.arange(n_words + 1, dtype=np.int32)),
            n_words=n_words,
            n_steps=n_steps,
        )

    @classmethod
    def later(cls, make: Callable[[], tuple[np.ndarray, ...]], n_words: int,
              n_steps: int) -> SplitLog:
        """A log whose arrays are ``from_forest(*make(), ...)``'s, made when first read
        (``make`` is called once, then dropped). Every method and array answers as that
        log's would."""
        return _LaterSplitLog(make, n_words, n_steps)

    def live(self, step: int) -> np.ndarray:
        """Which nodes make up the splits after ``step`` merges (a boolean mask)."""
        return (self.step <= step) & (self.until > step)

    def split_ids(self, index: int, step: int) -> np.ndarray:
        """The token ids of word number ``index`` after ``step`` merges."""
        lo, hi = self.word_start[index], self.word_start[index + 1]
        live = (self.step[lo:hi] <= step) & (self.until[lo:hi] > step)
        return self.token[lo:hi][live]

    def history(self, index: int) -> tuple[list[int], list[int], list[int]]:
        """Every token word ``index`` ever holds, in split order: (token ids, the step
        each is made at, the step it is merged away at). Its split after step ``k`` is
        the tokens with ``made <= k < merged``; a token never merged away has
        ``merged = n_steps + 1``. This is the word's part of the merge forest, so a
        browser can redraw the word at any step without asking again.

        Example: "aaa" with the merges (a, a) then (aa, a) gives, as (token, made,
        merged), a(0,1) aa(1,2) aaa(2,3) a(0,1) a(0,2): at step 1 the live ones are aa
        and the last a.
        """
        lo, hi = self.word_start[index], self.word_start[index + 1]
        until = np.minimum(self.until[lo:hi], self.n_steps + 1)
        return self.token[lo:hi].tolist(), self.step[lo:hi].tolist(), until.tolist()

    def changed_words(self, step: int) -> np.ndarray:
        """The words that merge ``step`` changed (step >= 1), in order."""
        return np.unique(self.word[self.step == step])

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.token, self.step, self.until, self.word,
                                      self.word_start))


def _later_array(name: str) -> property:
    return property(lambda self: getattr(self._made(), name),
                    doc=f"``{name}`` of the log, made when first read")


class _LaterSplitLog(SplitLog):
    """A :class:`SplitLog` whose arrays are made when first read.

    A replay by segments holds its forest compactly (each distinct stretch's nodes once,
    with the list of its occurrences): at 5 MB of SuperBPE's stage-2 words a tenth of the
    3.8 M nodes written out, which take about as long to write as the stage's merges. A
    training that is saved, encoded with or exported never reads them; one that is shown
    writes them out on its first view. The arrays are made once, under a lock (a training
    is shared between the app's sessions); a copy or pickle of the log is a plain one.

    >>> log = SplitLog.later(lambda: [np.array([5, 6], dtype=np.int32), np.array([0, 1]),
    ...                               np.array([0, 0]), np.array([NEVER, NEVER])], 2, 0)
    >>> log.split_ids(1, 0).tolist(), log.word_start.tolist()
    ([6], [0, 1, 2])
    """

    def __init__(self, make: Callable[[], tuple[np.ndarray, ...]], n_words: int,
                 n_steps: int) -> None:  # the dataclass's fields come from _made()
        object.__setattr__(self, "n_words", n_words)
        object.__setattr__(self, "n_steps", n_steps)
        object.__setattr__(self, "_make", make)
        object.__setattr__(self, "_log", None)
        object.__setattr__(self, "_lock", threading.Lock())

    def _made(self) -> SplitLog:
        log = self._log
        if log is None:
            with self._lock:
                log = self._log
                if log is None:
                    log = SplitLog.from_forest(*self._make(), n_words=self.n_words,
                                               n_steps=self.n_steps)
                    object.__setattr__(self, "_log", log)
                    object.__setattr__(self, "_make", None)  # the compact form, freed
        return log

    token = _later_array("token")
    step = _later_array("step")
    until = _later_array("until")
    word = _later_array("word")
    word_start = _later_array("word_start")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_plain, (self._made(),))


def _plain(log: SplitLog) -> SplitLog:
    """What a pickled :class:`_LaterSplitLog` loads as: the plain log it made."""
    return log
