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
    # a line of at most a quarter of the limit in characters is within it in bytes (a
    # character takes at most 4): only longer lines are encoded to be measured
    short = max_sentence_length // 4
    for line in text.split("\n"):
        if not line or (len(line) > short and len(line.encode(
                "utf-8", "surrogatepass")) > max_sentence_length):
            continue
        if UNK_CHAR in line:
            continue
        words = list(filter(None, line.split(" ")))
        if not words:
            continue
        norm = WS + WS.join(words)
        if "<" in norm:
            for meta in ("<unk>", "</s>", "<s>"):
                norm = norm.replace(meta, UNK_CHAR)
        out.append(norm)
    return out


def sentencepiece_input(text: str, max_sentence_length: int = 4192) -> SentencePieceInput:
    """Words, counts and followers of ``text`` read as ``spm_train`` reads it."""
    # counted without their leading "▁" (every word has one): a sentence is "▁" and its
    # words joined by "▁", so its words are what str.split finds between them (in C)
    counts: Counter[str] = Counter()
    line_ends: Counter[str] = Counter()
    inside: set[str] = set()  # the words followed by another word somewhere
    last = None
    for sentence in sentencepiece_sentences(text, max_sentence_length):
        parts = sentence[1:].split(WS)
        counts.update(parts)  # in first-appearance order
        last = parts[-1]
        line_ends[last] += 1
        if len(parts) > 1:
            inside.update(parts[:-1])
    parts_t = tuple(counts)
    return SentencePieceInput(tuple(WS + p for p in parts_t), tuple(counts.values()),
                              tuple((_MID if p in inside else 0)
                                    | (_END if p in line_ends else 0) for p in parts_t),
                              tuple(line_ends[p] for p in parts_t),
                              None if last is None else WS + last)


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
