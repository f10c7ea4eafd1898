"""The pieces a lesson is made of (:mod:`bpeviz.analysis.lesson`): sentences of text and symbol
chips, word splits, steps, and the small helpers that write numbers and lists the way a
newcomer reads them aloud. No streamlit here.

>>> sentence_text(("merge ", Sym("a", 3), " + ", Sym("b", 4)))
'merge a + b'
>>> _times(2), _plural(1, "word"), _plural(3, "word")
('twice', '1 word', '3 words')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from bpeviz.analysis.views import token_frequencies
from bpeviz.core.snapshot import Snapshot
from bpeviz.core.training import Training
from bpeviz.text.display import label, visible
from bpeviz.text.symbols import Symbol

if TYPE_CHECKING:
    from bpeviz.core.explain import Explanation

#: how the lesson names each pre-tokenizer
    from bpeviz.core.trace import Trace
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
class Sym:
    """A vocabulary symbol inside a sentence or a split: ``symbol``, its token ``id``;
    ``new`` marks the token a merge just made."""

    symbol: Symbol
    id: int
    new: bool = False


Part = str | Sym
Sentence = tuple[Part, ...]


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


def sentence_text(sentence: Sentence, byte_style: str = "gpt2") -> str:
    """A sentence as plain text."""
    return "".join(label(p.symbol, byte_style) if isinstance(p, Sym) else p for p in sentence)


# -- small helpers --------------------------------------------------------------------
def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def _plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n:,} {word if n == 1 else (many or word + 's')}"


def _num(x: float) -> str:
    return f"{x:.4g}"


def _short(word: str, limit: int = 32) -> str:
    return word if len(word) <= limit else word[: limit - 1] + "…"


def _quote(word: str) -> str:
    """A word in quotes, whitespace made visible (a line break shows as ↵)."""
    return f"“{visible(_short(word))}”"


def _spaced(symbols: list[Sym]) -> list[Part]:
    """Symbols separated by spaces, as sentence parts."""
    out: list[Part] = []
    for i, s in enumerate(symbols):
        if i:
            out.append(" ")
        out.append(s)
    return out


def _listed(items: list[list[Part]], more: int = 0, what: str = "") -> list[Part]:
    """Items joined with commas and "and", with "N more <what>s" when some were left out.

    >>> sentence_text(tuple(_listed([["a"], ["b"], ["c"]], 2, "word")))
    'a, b, c and 2 more words'
    """
    out: list[Part] = []
    for i, item in enumerate(items):
        if i:
            out.append(" and " if i == len(items) - 1 and more <= 0 else ", ")
        out.extend(item)
    if more > 0:
        out.append(f" and {more:,} more" + (f" {what}{'s' if more > 1 else ''}" if what else ""))
    return out


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


# -- bytes and whitespace, in words -------------------------------------------------
def _whole(symbol: Symbol) -> bool:
    if not isinstance(symbol, bytes):
        return True
    try:
        symbol.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


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


def _byte_notes(training: Training, before: Snapshot, why: Explanation,
                token: Sym) -> list[Sentence]:
    """Byte-level BPE: what the new token's bytes are (a space, part of a character)."""
    m = why.merge
    raw = m.token
    out: list[Sentence] = []
    if isinstance(raw, bytes) and raw[:1] == b" " and len(raw) > 1:
        out.append((Sym(b" ", 32), " is the space in front of a word, so the token ",
                    token, f" stands for {_quote(raw.decode('utf-8', 'replace'))}: "
                    "the start of a word."))
    if not _whole(raw) and why.first_index is not None:
        word = training.corpus.words[why.first_index]
        ids = before.split_ids(why.first_index)
        vocab = training.vocab
        start = sum(len(vocab[i]) for i in ids[: why.first_position or 0])
        data = word.encode("utf-8")
        chars = []  # (char, its bytes, the token's bytes inside it)
        offset = 0
        for ch in word:
            b = ch.encode("utf-8")
            lo, hi = max(offset, start), min(offset + len(b), start + len(raw))
            if lo < hi:
                chars.append((ch, b, data[lo:hi]))
            offset += len(b)

        def syms(chunk: bytes) -> list[Part]:
            return _spaced([Sym(bytes((x,)), x) for x in chunk])

        parts: list[Part] = ["The bytes of ", token, " do not make whole characters: in ",
                             _quote(word), " they are "]
        described = [[*syms(inside), f", all of {_quote(ch)}"] if inside == b else
                     [*syms(inside), f", part of {_quote(ch)} (", *syms(b), ")"]
                     for ch, b, inside in chars]
        parts.extend(_listed(described))
        parts.append(". Byte-level BPE ignores where characters begin and end; the token "
                     "is drawn as bytes, never as a broken character.")
        if len(data) >= start + len(raw):
            out.append(tuple(parts))
    return out
