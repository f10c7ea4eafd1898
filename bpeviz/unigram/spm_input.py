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

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from bpeviz.unigram.model import WS

UNK_CHAR = "\u2585"  # SentencePiece's stand-in for characters outside the alphabet
# where the normalizer puts "<unk>", "<s>" and "</s>": never in the alphabet, so unknown
BOUNDARY = "\x1f"
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
    """The lines of ``text`` as ``spm_train`` normalizes them (``identity`` rule), in the
    order it keeps them."""
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
        # the normalizer drops trailing whitespace after escaping it: a "▁" the text
        # itself ends with goes too
        norm = (WS + WS.join(filter(None, line.split(" ")))).rstrip(WS)
        if "<" in norm:
            for meta in ("<unk>", "</s>", "<s>"):
                norm = norm.replace(meta, BOUNDARY)
        out.append(norm)
    # a sentence that normalizes to nothing is dropped by moving the last one into its
    # place: that changes which sentence is last, and the seed reads the last one
    i = 0
    while i < len(out):
        if out[i]:
            i += 1
        else:
            out[i] = out[-1]
            out.pop()
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
    return covered(SentencePieceInput(
        tuple(WS + p for p in parts_t), tuple(counts.values()),
        tuple((_MID if p in inside else 0) | (_END if p in line_ends else 0) for p in parts_t),
        tuple(line_ends[p] for p in parts_t), None if last is None else WS + last))


def words_input(table: Mapping[str, int] | Iterable[tuple[str, int]]) -> SentencePieceInput:
    """Words with counts, each word its own sentence."""
    items = table.items() if isinstance(table, Mapping) else table
    counts: Counter[str] = Counter()
    for word, count in items:
        counts[word] += count
    words_t = tuple(counts)
    counts_t = tuple(counts[w] for w in words_t)
    return covered(SentencePieceInput(words_t, counts_t, (_END,) * len(words_t), counts_t,
                                      words_t[-1] if words_t else None))


def uncovered_characters(data: SentencePieceInput) -> set[str]:
    """The characters ``spm_train`` leaves out of the alphabet at ``character_coverage=1.0``.

    It takes characters by count (descending, then by code point) until the share taken,
    ``float(taken / total)``, reaches 1.0. In float32 that happens once what is left is
    at most 2**-25 of the total: on 33.5 million characters or more, the rarest ones
    (together that small a share) are left out and read as the unknown character. So is
    U+001F, where the normalizer put "<unk>", "<s>" and "</s>", at any size.
    """
    lengths = np.fromiter(map(len, data.words), dtype=np.int64, count=len(data.words))
    weights = np.asarray(data.counts, dtype=np.int64)
    total = int(lengths @ weights) if len(lengths) else 0
    boundary = {BOUNDARY} if any(BOUNDARY in w for w in data.words) else set()
    if total < 2 ** 25:  # a character occurs at least once: more than 2**-25 of the total
        return boundary
    codes = np.frombuffer("".join(data.words).encode("utf-32-le", "surrogatepass"),
                          dtype=np.uint32)
    # (counts up to 2**53 are whole in float64)
    per_char = np.bincount(codes, weights=np.repeat(weights, lengths).astype(np.float64))
    found = np.flatnonzero(per_char)
    per_char = per_char[found]
    order = np.lexsort((found, -per_char))  # by count descending, then code point
    taken_before = np.concatenate(([0.0], np.cumsum(per_char[order])[:-1]))
    share = (taken_before / total).astype(np.float32)
    cut = np.flatnonzero(share >= np.float32(1.0))
    if not len(cut):
        return boundary
    return ({chr(c) for c in found[order[cut[0]:]].tolist()} | boundary) - {UNK_CHAR}


def covered(data: SentencePieceInput) -> SentencePieceInput:
    """``data`` with the characters left out of the alphabet (:func:`uncovered_characters`)
    replaced by the unknown character, as ``spm_train`` replaces them before training;
    words that become the same are one word."""
    rare = uncovered_characters(data)
    if not rare:
        return data
    table = str.maketrans({ch: UNK_CHAR for ch in rare})
    has_rare = re.compile("[" + "".join(map(re.escape, sorted(rare))) + "]").search
    index: dict[str, int] = {}
    words: list[str] = []
    counts: list[int] = []
    ends: list[int] = []
    line_ends: list[int] = []
    has_line_ends = bool(data.line_ends)
    for k, word in enumerate(data.words):
        new = word.translate(table) if has_rare(word) else word
        at = index.get(new)
        if at is None:
            index[new] = len(words)
            words.append(new)
            counts.append(data.counts[k])
            ends.append(data.ends[k])
            line_ends.append(data.line_ends[k] if has_line_ends else 0)
        else:
            counts[at] += data.counts[k]
            ends[at] |= data.ends[k]
            if has_line_ends:
                line_ends[at] += data.line_ends[k]
    last = data.last_word
    return replace(data, words=tuple(words), counts=tuple(counts), ends=tuple(ends),
                   line_ends=tuple(line_ends) if has_line_ends else (),
                   last_word=None if last is None else last.translate(table))


__all__ = ["UNK_CHAR", "SentencePieceInput", "covered", "sentencepiece_input",
           "sentencepiece_sentences", "uncovered_characters", "words_input"]
