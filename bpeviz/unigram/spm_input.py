"""How ``spm_train`` reads its input: text as sentences of ``▁`` words, or a table of
words with counts, each word its own sentence (:class:`SentencePieceInput`, what
:func:`bpeviz.unigram.trainer.train_sentencepiece` trains on).

>>> data = sentencepiece_input("the cat  sat\\nthe end")
>>> data.words, data.counts, data.last_word
(('▁the', '▁cat', '▁sat', '▁end'), (2, 1, 1, 1), '▁end')
>>> words_input({"▁hug": 3}).ends
(2,)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bpeviz.unigram.model import WS

UNK_CHAR = "\u2585"  # SentencePiece's stand-in for characters outside the alphabet
_MID, _END = 1, 2  # what follows a word: another word, or the end of the sentence


@dataclass(frozen=True)
class SentencePieceInput:
    """Words (``▁word``) with counts, and what follows each (bit 1: a word, bit 2: end).

    ``line_ends[i]``: how often word i ends a sentence; ``last_word``: the last word of
    the last sentence (sentencepiece 0.2.3's seed depends on it, see :func:`seed_pieces`).
    """

    words: tuple[str, ...]
    counts: tuple[int, ...]
    ends: tuple[int, ...]
    line_ends: tuple[int, ...] = ()
    last_word: str | None = None


def sentencepiece_sentences(text: str, max_sentence_length: int = 4192) -> list[str]:
    """The lines of ``text`` as ``spm_train`` normalizes them (``identity`` rule)."""
    out = []
    for line in text.split("\n"):
        if not line or len(line.encode("utf-8", "surrogatepass")) > max_sentence_length:
            continue
        if UNK_CHAR in line:
            continue
        words = line.split(" ")
        norm = "".join(WS + w for w in words if w)
        if not norm:
            continue
        for meta in ("<unk>", "</s>", "<s>"):
            norm = norm.replace(meta, UNK_CHAR)
        out.append(norm)
    return out


def _split_words(sentence: str) -> list[str]:
    words: list[str] = []
    start = 0
    for i, ch in enumerate(sentence):
        if ch == WS and i > start:
            words.append(sentence[start:i])
            start = i
    if start < len(sentence):
        words.append(sentence[start:])
    return words


def sentencepiece_input(text: str, max_sentence_length: int = 4192) -> SentencePieceInput:
    """Words, counts and followers of ``text`` read as ``spm_train`` reads it."""
    counts: Counter[str] = Counter()
    line_ends: Counter[str] = Counter()
    ends: dict[str, int] = {}
    last = None
    for sentence in sentencepiece_sentences(text, max_sentence_length):
        words = _split_words(sentence)
        for i, w in enumerate(words):
            counts[w] += 1
            ends[w] = ends.get(w, 0) | (_END if i == len(words) - 1 else _MID)
        if words:
            line_ends[words[-1]] += 1
            last = words[-1]
    words_t = tuple(counts)
    return SentencePieceInput(words_t, tuple(counts[w] for w in words_t),
                              tuple(ends[w] for w in words_t),
                              tuple(line_ends[w] for w in words_t), last)


def words_input(table: Mapping[str, int] | Iterable[tuple[str, int]]) -> SentencePieceInput:
    """Words with counts, each word its own sentence."""
    items = table.items() if isinstance(table, Mapping) else table
    counts: Counter[str] = Counter()
    for word, count in items:
        counts[word] += count
    words_t = tuple(counts)
    counts_t = tuple(counts[w] for w in words_t)
    return SentencePieceInput(words_t, counts_t, (_END,) * len(words_t), counts_t,
                              words_t[-1] if words_t else None)


__all__ = ["UNK_CHAR", "SentencePieceInput", "sentencepiece_input", "sentencepiece_sentences",
           "words_input"]
