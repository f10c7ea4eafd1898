"""What one configuration's cut of a text costs: tokens, characters and bytes per token,
fertility, split words, unknown tokens, overall and for the words of each script; and
every token's span, the stretch of text Compare's boundaries are read from.

>>> from bpeviz import Corpus, train
>>> snap = train(Corpus.from_text("low low lower lowest"), "bpe", merges=4).at()
>>> m = metrics("lowest low", snap.encode("lowest low"))
>>> m.tokens, m.words, m.fertility
(4, 2, 2.0)

**Spans.** A token's span is its stretch of the text, in UTF-8 bytes (so a byte-level
token that ends inside a character ends inside it here too), without the whitespace at
its two ends (GPT-2's ``" cat"`` covers ``cat``, as a whitespace-split ``cat`` does); a
token of only whitespace, or of none (a separate ``</w>``), has no span.

**Metrics** (:class:`Metrics`): tokens; characters and UTF-8 bytes per token; words
(:data:`WORD_DEFINITION`: whitespace-separated, as ``str.split()`` cuts, the same for
every algorithm); fertility, the tokens per word (a token counts for each word its span
overlaps; a token with no character of any word, Unigram's standalone ``▁``, a space
GPT-2 keeps apart, a separate ``</w>``, counts for the word it stands next to: the word
it ends, else the word after it); the share of words cut into more than one token; the
share of tokens that are unknown (``[UNK]``). :func:`metrics_by_script` gives the same
for the words of each Unicode script: a word's script is the script most of its letters
belong to (Common and Inherited characters, such as digits and combining accents, do not
count), ``Common`` for a word without letters.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import regex

from bpeviz.core.encoded import Encoding


def byte_offsets(text: str) -> np.ndarray:
    """``out[c]``: the UTF-8 byte offset of character ``c`` (``out[len(text)]``: the size).

    >>> byte_offsets("a苹b").tolist()
    [0, 1, 4, 5]
    """
    return _index(text).at


class _TextIndex:
    """What every cut of one text shares: byte offsets, whitespace, words and scripts."""

    def __init__(self, text: str) -> None:
        n = len(text)
        codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
        sizes = 1 + (codes >= 0x80) + (codes >= 0x800) + (codes >= 0x10000)
        self.at = np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)])
        space = np.fromiter(map(str.isspace, text), dtype=bool, count=n)
        positions = np.arange(n + 1, dtype=np.int64)
        # next_solid[c]: the first non-space character at or after c (n if none)
        solid_at = np.where(np.append(~space, True), positions, n)
        self.next_solid = np.minimum.accumulate(solid_at[::-1])[::-1]
        # solid_end[c]: the last position at or before c that ends a non-space (or is 0)
        ends_solid = np.where(np.concatenate([[True], ~space]), positions, 0)
        self.solid_end = np.maximum.accumulate(ends_solid)
        self.words = [m.span() for m in _WORDS.finditer(text)]
        chars = np.array(self.words, dtype=np.int64).reshape(-1, 2)
        self.word_lo, self.word_hi = self.at[chars[:, 0]], self.at[chars[:, 1]]
        self.scripts = [script_of(text[a:b]) for a, b in self.words]


@lru_cache(maxsize=8)
def _index(text: str) -> _TextIndex:
    return _TextIndex(text)


def _columns(tokens: Sequence[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every token's start and end (characters), and whether it is partial, unknown."""
    if isinstance(tokens, Encoding):
        starts, ends, flags = tokens._arrays()  # no Token records: a text has thousands
        if flags is None:
            flags = np.zeros(len(starts), dtype=np.uint8)
        return (np.asarray(starts, np.int64), np.asarray(ends, np.int64),
                (flags & 1).astype(bool), (flags & 2).astype(bool))
    return (np.array([t.start for t in tokens], np.int64).reshape(-1),
            np.array([t.end for t in tokens], np.int64).reshape(-1),
            np.array([bool(t.partial) for t in tokens], bool).reshape(-1),
            np.array([bool(getattr(t, "unk", False)) for t in tokens], bool).reshape(-1))


def _span_arrays(text: str, tokens: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Every token's span in bytes, whitespace at its ends left out (``start >= end``:
    none), as two arrays; see :func:`token_spans`."""
    starts, ends, partial, _ = _columns(tokens)
    return span_arrays(text, starts, ends, partial, lambda i: len(tokens[i].bytes))


def span_arrays(text: str, starts: np.ndarray, ends: np.ndarray, partial: np.ndarray,
                size_of: Callable[[int], int]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`token_spans` of tokens given as columns (character ``starts`` and ``ends``,
    ``partial`` flags; ``size_of(i)``: token ``i``'s size in bytes, asked of partial
    tokens only), as two arrays (``start >= end``: none). A token's span depends only on
    the text between its ends and, for a part of a character, on the token before it."""
    ix = _index(text)
    at = ix.at
    lo_char = np.minimum(ix.next_solid[starts], ends)
    hi_char = np.maximum(ix.solid_end[ends], lo_char)
    lo, hi = at[lo_char], at[hi_char]
    for i in np.flatnonzero(partial).tolist():  # a part of a character: byte by byte
        lo[i], hi[i] = -1, -1
    if partial.any():
        prev_end = -1
        for i in range(len(starts)):
            if not partial[i]:
                prev_end = int(at[ends[i]])
                continue
            s_char, e_char = int(starts[i]), int(ends[i])
            start = int(at[s_char])
            if start < prev_end < int(at[s_char + 1]):
                start = prev_end
            end = min(start + size_of(i), int(at[e_char]))
            prev_end = end
            s, e = _trim(text, at, s_char, e_char, start, end)
            lo[i], hi[i] = (s, e) if s < e else (-1, -1)
    return lo, hi


def _trim(text: str, at: np.ndarray, c0: int, c1: int, start: int,
          end: int) -> tuple[int, int]:
    """Leave whole whitespace characters out of the two ends of bytes ``start:end``, which
    lie in the characters ``c0:c1``."""
    c, s = c0, start
    while c < c1 and at[c] >= s and at[c + 1] <= end and text[c].isspace():
        s, c = int(at[c + 1]), c + 1
    c, e = c1, end
    while c > c0 and at[c - 1] >= s and at[c] <= e and text[c - 1].isspace():
        e, c = int(at[c - 1]), c - 1
    return s, e


def token_spans(text: str, tokens: Sequence[Any]) -> list[tuple[int, int] | None]:
    """Each token's span in UTF-8 bytes, whitespace at both ends left out (None if empty).

    A byte-level token holding part of a character (``partial``) starts where the token
    before it stopped inside that character, and spans its own bytes.

    >>> from types import SimpleNamespace as T
    >>> token_spans(" cat  ", [T(start=0, end=4, partial=False), T(start=4, end=6,
    ...                                                             partial=False)])
    [(1, 4), None]
    """
    lo, hi = _span_arrays(text, tokens)
    return [(s, e) if s < e else None for s, e in zip(lo.tolist(), hi.tolist())]


@dataclass(frozen=True)
class Metrics:
    """Counts behind the metrics of one text (or of the words of one script)."""

    tokens: int
    characters: int
    bytes: int
    words: int
    word_tokens: int  # sum over words of the tokens overlapping each
    split_words: int  # words overlapped by more than one token
    unk: int

    @property
    def chars_per_token(self) -> float | None:
        return self.characters / self.tokens if self.tokens else None

    @property
    def bytes_per_token(self) -> float | None:
        return self.bytes / self.tokens if self.tokens else None

    @property
    def fertility(self) -> float | None:
        """Tokens per word."""
        return self.word_tokens / self.words if self.words else None

    @property
    def split_share(self) -> float | None:
        """The share of words cut into more than one token."""
        return self.split_words / self.words if self.words else None

    @property
    def unk_rate(self) -> float | None:
        return self.unk / self.tokens if self.tokens else None

    def row(self) -> dict[str, float | int | None]:
        """The metrics as a flat dict (for tables and curves); see :data:`METRIC_LABELS`."""
        return {"tokens": self.tokens, "chars_per_token": self.chars_per_token,
                "bytes_per_token": self.bytes_per_token, "words": self.words,
                "fertility": self.fertility, "split_share": self.split_share,
                "unk_rate": self.unk_rate}


#: Column -> what it means, in words a newcomer can read aloud.
METRIC_LABELS = {
    "tokens": "tokens",
    "chars_per_token": "characters per token",
    "bytes_per_token": "bytes (UTF-8) per token",
    "words": "words (split on whitespace)",
    "fertility": "tokens per word",
    "split_share": "share of words cut into 2+ tokens",
    "unk_rate": "share of tokens unknown ([UNK], <unk>)",
}

_WORDS = re.compile(r"\S+")
#: What a "word" is in every metric, for every algorithm (shown on hover).
WORD_DEFINITION = (
    "A word is a run of non-space characters (the text split on whitespace, the same for "
    "every algorithm and pre-tokenizer). A token counts for each word it overlaps; a token "
    "holding no character of a word (Unigram's standalone ▁, a space GPT-2 keeps apart, a "
    "separate </w>) counts for the word next to it: the word it ends, else the word after "
    "it.")
#: What each metric means, on hover.
METRIC_HELP = {
    "tokens": "Tokens the text is cut into.",
    "chars_per_token": "Characters of the text divided by its tokens.",
    "bytes_per_token": "UTF-8 bytes of the text divided by its tokens.",
    "words": WORD_DEFINITION,
    "fertility": "Tokens per word: the tokens each word takes, on average. "
                 + WORD_DEFINITION,
    "split_share": "The share of words that take two tokens or more. " + WORD_DEFINITION,
    "unk_rate": "The share of tokens that are unknown ([UNK], <unk>).",
}


def word_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the whitespace-separated words (the words of ``text.split()``).

    >>> word_spans(" hug  the")
    [(1, 4), (6, 9)]
    """
    return list(_index(text).words)


def _word_ranges(ix: _TextIndex, lo: np.ndarray,
                 hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each token span ``lo:hi`` (bytes), the first and last word it overlaps
    (``last < first``: none)."""
    first = np.searchsorted(ix.word_hi, lo, side="right")  # the first word ending after lo
    last = np.searchsorted(ix.word_lo, hi, side="left") - 1  # the last word starting before hi
    none = lo >= hi
    first[none], last[none] = 0, -1
    # a token with no character of a word (whitespace only, or none: lo == hi, where its
    # characters end) counts for the word it ends, else for the word after it
    loose = np.flatnonzero(none & (lo >= 0))
    if len(loose):
        at, n = lo[loose], len(ix.words)
        ending = np.searchsorted(ix.word_hi, at, side="left")
        ends_here = (ending < n) & (ix.word_hi[np.minimum(ending, n - 1)] == at) if n \
            else np.zeros(len(at), bool)
        home = np.where(ends_here, ending, np.searchsorted(ix.word_lo, at, side="left"))
        some = home < n
        first[loose[some]] = last[loose[some]] = home[some]
    return first, last


def _per_word(first: np.ndarray, last: np.ndarray, n_words: int) -> np.ndarray:
    """How many tokens overlap each word."""
    some = last >= first
    diff = np.zeros(n_words + 1, dtype=np.int64)
    np.add.at(diff, first[some], 1)
    np.add.at(diff, last[some] + 1, -1)
    return np.cumsum(diff)[:n_words]


def metrics(text: str, tokens: Sequence[Any]) -> Metrics:
    """The metrics of one configuration's ``tokens`` of ``text`` (see the module doc)."""
    lo, hi = _span_arrays(text, tokens)
    return _metrics(_index(text), text, lo, hi, _columns(tokens)[3])


def _metrics(ix: _TextIndex, text: str, lo: np.ndarray, hi: np.ndarray,
             unk: np.ndarray) -> Metrics:
    first, last = _word_ranges(ix, lo, hi)
    per_word = _per_word(first, last, len(ix.words))
    return Metrics(
        tokens=len(lo), characters=len(text), bytes=int(ix.at[-1]), words=len(ix.words),
        word_tokens=int(per_word.sum()), split_words=int((per_word > 1).sum()),
        unk=int(unk.sum()))


def metrics_by_script(text: str, tokens: Sequence[Any]) -> dict[str, Metrics]:
    """:class:`Metrics` of the words of each script (most words first).

    ``tokens`` counts the tokens overlapping the script's words (once each), ``unk`` the
    unknown ones among them, ``characters`` and ``bytes`` the words' own.
    """
    lo, hi = _span_arrays(text, tokens)
    return _metrics_by_script(_index(text), lo, hi, _columns(tokens)[3])


def _metrics_by_script(ix: _TextIndex, lo: np.ndarray, hi: np.ndarray,
                       unk: np.ndarray) -> dict[str, Metrics]:
    first, last = _word_ranges(ix, lo, hi)
    per_word = _per_word(first, last, len(ix.words))
    scripts = np.array(ix.scripts, dtype=object)
    lengths = np.array([b - a for a, b in ix.words], dtype=np.int64)
    sizes = ix.word_hi - ix.word_lo
    # the scripts each token's words belong to (a token over several words: each script once)
    one = np.flatnonzero(last == first)
    token_counts = Counter(scripts[first[one]].tolist())
    unk_counts = Counter(scripts[first[one][unk[one]]].tolist())
    for i in np.flatnonzero(last > first).tolist():
        for script in set(scripts[first[i] : last[i] + 1].tolist()):
            token_counts[script] += 1
            unk_counts[script] += bool(unk[i])
    out = {}
    for script, n in Counter(ix.scripts).most_common():
        members = scripts == script
        out[script] = Metrics(
            tokens=token_counts[script], characters=int(lengths[members].sum()),
            bytes=int(sizes[members].sum()), words=n,
            word_tokens=int(per_word[members].sum()),
            split_words=int((per_word[members] > 1).sum()), unk=unk_counts[script])
    return out


# -- scripts -------------------------------------------------------------------------------
#: Scripts told apart by name; letters of any other script count as "Other".
SCRIPTS = ("Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic", "Syriac", "Thaana",
           "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu",
           "Kannada", "Malayalam", "Sinhala", "Thai", "Lao", "Tibetan", "Myanmar", "Georgian",
           "Hangul", "Ethiopic", "Khmer", "Mongolian", "Hiragana", "Katakana", "Han")
_SCRIPT_OF = regex.compile("|".join(f"(?P<{name}>\\p{{Script={name}}})" for name in SCRIPTS))
_LETTER = regex.compile(r"[\p{L}\p{M}]")


@lru_cache(maxsize=65536)
def char_script(ch: str) -> str | None:
    """The script of a letter (or mark), ``"Other"`` for an unnamed one; None for anything
    else or a Common/Inherited character.

    >>> char_script("a"), char_script("苹"), char_script("7"), char_script("\u0301")
    ('Latin', 'Han', None, None)
    """
    if not _LETTER.match(ch):
        return None
    found = _SCRIPT_OF.match(ch)
    if found:
        return found.lastgroup
    if regex.match(r"[\p{Script=Common}\p{Script=Inherited}]", ch):
        return None
    return "Other"


def script_of(word: str) -> str:
    """The script most of a word's letters belong to (the first such in the word on a tie),
    ``"Common"`` when it has none.

    >>> script_of("naïve"), script_of("苹果派"), script_of("42"), script_of("Москва!")
    ('Latin', 'Han', 'Common', 'Cyrillic')
    """
    counts = Counter(s for s in map(char_script, word) if s is not None)
    if not counts:
        return "Common"
    return counts.most_common(1)[0][0]


__all__ = ["METRIC_HELP", "METRIC_LABELS", "SCRIPTS", "WORD_DEFINITION", "Metrics",
           "byte_offsets", "char_script", "metrics", "metrics_by_script", "script_of",
           "span_arrays", "token_spans", "word_spans"]
