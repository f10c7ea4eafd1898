"""The pieces a lesson is made of (:mod:`bpeviz.analysis.lesson`): word splits and steps,
and the sentences of text and symbol chips with the helpers that write numbers and lists
the way a newcomer reads them aloud (from :mod:`bpeviz.algorithms.prose`, where the
records write their own sentences with them). No streamlit here.

>>> sentence_text(("merge ", Sym("a", 3), " + ", Sym("b", 4)))
'merge a + b'
>>> _times(2), _plural(1, "word"), _plural(3, "word")
('twice', '1 word', '3 words')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bpeviz.algorithms.prose import Part, Sentence, Sym, sentence_text
from bpeviz.algorithms.prose import listed as _listed
from bpeviz.algorithms.prose import num as _num
from bpeviz.algorithms.prose import plural as _plural
from bpeviz.algorithms.prose import quote as _quote
from bpeviz.algorithms.prose import short as _short
from bpeviz.algorithms.prose import spaced as _spaced
from bpeviz.algorithms.prose import times as _times
from bpeviz.analysis.views import token_frequencies
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import Training

if TYPE_CHECKING:
    from bpeviz.core.explain import Explanation
    from bpeviz.core.trace import Trace

__all__ = ["PRETOKENIZER_NAMES", "RULE_NAMES", "TIE_HOW", "Lesson", "LessonSection",
           "LessonStep", "Part",
           "Sentence", "Sym", "WordSplit", "_Words", "_blank_names", "_listed",
           "_most_frequent", "_num", "_plural", "_quote", "_short", "_spaced", "_times",
           "_unit_counts", "sentence_text"]

#: how the lesson names each pre-tokenizer
PRETOKENIZER_NAMES = {"gpt2": "GPT-2", "whitespace": "whitespace", "none": "one-word-per-line"}

#: the tie rules, named for a newcomer (as the "Why this merge?" panel names them)
RULE_NAMES = {"first": "first seen in the corpus", "ids": "smallest ids"}
#: how each rule decides, in a few words
TIE_HOW = {
    "first": "reading the words in corpus order, left to right, the pair met first wins",
    "ids": "the pair with the smallest (left id, right id) wins, as in Hugging Face's "
           "BpeTrainer",
}


@dataclass(frozen=True)
class WordSplit:
    """One corpus word (number ``index``, ``count`` times in the corpus) with its symbols
    ``before`` and ``after`` the lesson step (both empty on the corpus step); ``changed``
    when the step's merge changed it."""

    index: int
    word: str
    count: int
    before: tuple[Sym, ...]
    after: tuple[Sym, ...]
    changed: bool = False


@dataclass(frozen=True)
class LessonSection:
    """A part of a step about one algorithm (the research step has one per research
    algorithm): its ``key`` (the algorithm's name), ``title``, ``sentences`` made from
    ``numbers``, and the ``training`` its worked example comes from (its chips' ids)."""

    key: str
    title: str
    sentences: tuple[Sentence, ...]
    numbers: dict[str, Any]
    training: Any = field(default=None, repr=False)
    #: the sentences that mark a place in the training rather than explain (SuperBPE's
    #: transition), by index: drawn as a line across the text
    marks: tuple[int, ...] = ()

    def text(self, byte_style: str = "gpt2") -> list[str]:
        """The sentences as plain text."""
        return [sentence_text(s, byte_style) for s in self.sentences]


@dataclass(frozen=True)
class LessonStep:
    """One step of the lesson: a ``title``, ``sentences`` made from ``numbers``, the word
    splits to show (``words``), the training step it shows (``merge_step``: the state
    after that many merges), and the :class:`Explanation` or :class:`Trace` behind it."""

    key: str
    title: str
    sentences: tuple[Sentence, ...]
    words: tuple[WordSplit, ...]
    numbers: dict[str, Any]
    merge_step: int = 0
    explanation: Explanation | None = field(default=None, repr=False)
    trace: Trace | None = field(default=None, repr=False)
    #: parts about other algorithms, each with its own worked example (after the sentences)
    sections: tuple[LessonSection, ...] = ()

    def text(self, byte_style: str = "gpt2") -> list[str]:
        """The sentences as plain text (symbols written with
        :func:`bpeviz.analysis.views.label`)."""
        return [sentence_text(s, byte_style) for s in self.sentences]


@dataclass(frozen=True)
class Lesson:
    """The steps of the lesson on ``training``; ``example``: the word tokenized last."""

    training: Training
    steps: tuple[LessonStep, ...]
    example: str | None

    @property
    def algorithm(self) -> str:
        return self.training.algorithm


class _Words:
    """The symbols of the corpus words at a step, as :class:`Sym` tuples."""

    def __init__(self, training: Training) -> None:
        self.training = training
        self.vocab = training.vocab

    def syms(self, ids: list[int], new_id: int | None = None) -> tuple[Sym, ...]:
        return tuple(Sym(self.vocab[i], int(i), new=i == new_id) for i in ids)

    def split(self, snap: Snapshot, index: int, new_id: int | None = None) -> tuple[Sym, ...]:
        return self.syms(snap.split_ids(index), new_id)

    def rows(self, before: Snapshot | None, after: Snapshot | None, limit: int,
             changed: list[int] = ()) -> tuple[WordSplit, ...]:
        """Up to ``limit`` words: the changed ones first, then corpus order."""
        corpus = self.training.corpus
        first = [i for i in changed if i < len(corpus.words)]
        taken = set(first)
        order = first + [i for i in range(min(len(corpus.words), limit + len(first)))
                         if i not in taken]
        new_id = after.merge.token_id if after is not None and after.merge else None
        out = []
        for i in order[:limit]:
            out.append(WordSplit(
                i, corpus.words[i], int(corpus.counts[i]),
                self.split(before, i) if before is not None else (),
                self.split(after, i, new_id if i in first else None)
                if after is not None else (),
                i in first))
        return tuple(out)


def _unit_counts(snap: Snapshot) -> np.ndarray:
    """How often each token id occurs in the corpus at ``snap`` (word counts weighted)."""
    return token_frequencies(snap)


# -- whitespace and the most frequent pair, in words -----------------------------------
def _blank_names(text: str) -> list[str]:
    """Whitespace characters named: ["a line break", "a space"]."""
    names = {" ": "a space", "\n": "a line break", "\t": "a tab", "\r": "a carriage return"}
    return list(dict.fromkeys(names.get(ch, f"U+{ord(ch):04X}") for ch in text))


def _most_frequent(before: Snapshot, why: Explanation):
    """The pair with the highest count at ``before`` with its score and unit counts."""
    pairs = before.pairs
    if not len(pairs):
        return None
    best = pairs.iloc[int(np.argmax(pairs["count"].to_numpy()))]
    units = _unit_counts(before)
    vocab = before.training.vocab
    a, b = int(best["left_id"]), int(best["right_id"])
    return (Sym(vocab[a], a), Sym(vocab[b], b), int(best["count"]), float(best["score"]),
            int(units[a]), int(units[b]))
