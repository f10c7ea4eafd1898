"""Comparing two or three tokenizers on one text: where they cut it differently, and what
each costs. No streamlit here; :mod:`bpeviz.present.render_compare` draws the results.

>>> from bpeviz import Corpus, train
>>> corpus = Corpus.from_text("low low lower lowest newest widest")
>>> a = train(corpus, "bpe", merges=6)
>>> b = train(corpus, "wordpiece", merges=6)
>>> result = compare([("A", a.at()), ("B", b.at())], "lowest low")
>>> [[t.text for t in cut.tokens] for cut in result.cuts]
[['low', 'est', 'low'], ['low', '##e', '##st', 'low']]
>>> result.differing, [cut.diff_spans for cut in result.cuts]
((4,), [((3, 6),), ((3, 6),)])

**Boundaries.** A token's span is its stretch of the text, in UTF-8 bytes (so a byte-level
token that ends inside a character ends inside it here too), without the whitespace at
its two ends (GPT-2's ``" cat"`` covers ``cat``, as a whitespace-split ``cat`` does); a
token of only whitespace, or of none (a separate ``</w>``), has no span. A configuration's
boundaries are the two ends of every span. The **differing boundaries** are those some
configurations have and others lack; a token **differs** when a differing boundary lies on
it (at an end or inside), and the **differing spans** of a configuration are its runs of
consecutive differing tokens, as character offsets ``(start, end)``.

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
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
import regex

from bpeviz.algorithms import get as get_algorithm
from bpeviz.core import protocol
from bpeviz.core.encoded import Encoding
from bpeviz.core.encoding import known_ids

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot
    from bpeviz.core.training import Training

#: At most this many configurations side by side.
MAX_CONFIGURATIONS = 3


# -- one configuration's cut of the text ---------------------------------------------------
@dataclass(frozen=True, eq=False)
class Cut:
    """How one configuration cuts the text (``tokens``: its encoding of the text).

    ``spans[i]`` is token ``i``'s span in UTF-8 bytes without whitespace at its ends
    (None if it has none); ``differs[i]`` whether token ``i`` differs from another
    configuration's cut; ``diff_spans`` the runs of differing tokens as character spans.
    """

    label: str
    step: int
    vocab_size: int
    tokens: Sequence[Any]  # an Encoding, or a Unigram round's list of Tokens
    spans: tuple[tuple[int, int] | None, ...]
    boundaries: frozenset[int]
    differs: tuple[bool, ...]
    diff_spans: tuple[tuple[int, int], ...]
    own_differing: int  # how many of the differing boundaries are this configuration's


@dataclass(frozen=True, eq=False)
class Comparison:
    """Every configuration's cut of ``text`` and the boundaries where they disagree."""

    text: str
    cuts: tuple[Cut, ...]
    differing: tuple[int, ...]  # byte offsets, sorted

    @property
    def n_differing(self) -> int:
        """How many boundaries some configurations have and others lack."""
        return len(self.differing)


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
    ix = _index(text)
    starts, ends, partial, _ = _columns(tokens)
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
            end = min(start + len(tokens[i].bytes), int(at[e_char]))
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


def compare(configurations: Sequence[tuple[str, Snapshot]], text: str) -> Comparison:
    """Cut ``text`` with each ``(label, snapshot)`` and find where the cuts differ."""
    if not 1 <= len(configurations) <= MAX_CONFIGURATIONS:
        raise ValueError(f"compare 1 to {MAX_CONFIGURATIONS} configurations, "
                         f"got {len(configurations)}")
    return compare_tokens([(label, snap.step, vocabulary_size(snap.training, snap.step),
                            snap.encode(text)) for label, snap in configurations], text)


def compare_tokens(cuts: Sequence[tuple[str, int, int, Sequence[Any]]],
                   text: str) -> Comparison:
    """:func:`compare` of cuts already made: ``(label, step, vocabulary size, tokens)``
    each (the browser's Compare applies this rule too: bpeviz/ui/stepper/src/compare_rule.mjs)."""
    encoded = []
    for label, step, size, tokens in cuts:
        spans = token_spans(text, tokens)
        bounds = frozenset(b for span in spans if span for b in span)
        encoded.append((label, step, size, tokens, spans, bounds))
    union = frozenset().union(*(e[5] for e in encoded))
    common = frozenset.intersection(*(e[5] for e in encoded))
    differing = tuple(sorted(union - common))
    out = []
    for label, step, size, tokens, spans, bounds in encoded:
        differs = tuple(span is not None and _holds(differing, span) for span in spans)
        out.append(Cut(
            label=label, step=step, vocab_size=size,
            tokens=tokens, spans=tuple(spans), boundaries=bounds, differs=differs,
            diff_spans=_runs(tokens, differs), own_differing=len(bounds - common)))
    return Comparison(text, tuple(out), differing)


def _holds(points: Sequence[int], span: tuple[int, int]) -> bool:
    """Whether a sorted sequence holds a point ``p`` with ``start <= p <= end``."""
    i = bisect_left(points, span[0])
    return i < len(points) and points[i] <= span[1]


def _runs(tokens: Sequence[Any], differs: Sequence[bool]) -> tuple[tuple[int, int], ...]:
    """Character spans of the runs of consecutive differing tokens."""
    starts, ends = (c.tolist() for c in _columns(tokens)[:2])
    out: list[tuple[int, int]] = []
    run_start = None
    for i, flag in enumerate(differs):
        if flag and run_start is None:
            run_start = i
        if run_start is not None and (not flag or i == len(differs) - 1):
            last = i if flag else i - 1
            out.append((starts[run_start], max(ends[run_start : last + 1])))
            run_start = None
    return tuple(out)


# -- steps of either kind: merges (the vocabulary grows) or pruning rounds (it shrinks) --
def prunes(training: Any) -> bool:
    """Whether the training's steps are pruning rounds (its algorithm record says
    ``step_kind="prune"``: Unigram), not merges."""
    return get_algorithm(training.algorithm).step_kind == "prune"


def step_unit(training: Any) -> str:
    """What one step of the training is called where a step number is shown: ``"step"``
    for merges, the record's own word otherwise (Unigram: ``"pruning round"``)."""
    return get_algorithm(training.algorithm).step if prunes(training) else "step"


def last_step(training: Any) -> int:
    """The training's last step: its number of merges, or of pruning rounds."""
    if prunes(training):
        return len(training) - 1
    return len(training.merges)


def at(training: Any, step: int) -> Any:
    """What :func:`compare` cuts with at ``step``: the training's :class:`Snapshot`, or
    for pruning rounds a :class:`RoundSnapshot`."""
    if prunes(training):
        step = int(step)
        training.at(step)  # checks the range
        return RoundSnapshot(training, step)
    return training.at(step)


def vocabulary_size(training: Training, step: int) -> int:
    """Tokens known after ``step`` merges: the vocabulary of the step, plus tokens a file
    lists after its merged ones (GPT-2's ``<|endoftext|>``), known at every step. For
    pruning rounds, the round's pieces and special tokens."""
    if prunes(training):
        return int(training.vocab_size_at(step))
    return len(known_ids(training, step))


def vocab_range(training: Any) -> tuple[int, int]:
    """The smallest and the largest vocabulary size of any step of the training."""
    if prunes(training):
        sizes = protocol.vocab_sizes(training)
        return int(sizes.min()), int(sizes.max())
    return vocabulary_size(training, 0), vocabulary_size(training, last_step(training))


def corpus_tokens(training: Any) -> np.ndarray | None:
    """The tokens the training's corpus takes after each step (None for a training read
    from a file, which has no corpus)."""
    if prunes(training):
        return training.token_counts()
    return training.token_counts() if training.corpus.words else None


@dataclass(frozen=True)
class VocabStep:
    """The step of a training at which its vocabulary has (at most) ``target`` tokens.

    ``prunes``: the training's steps are pruning rounds (Unigram: the vocabulary shrinks
    as they go on), which the note names as rounds."""

    step: int
    vocab_size: int
    target: int
    prunes: bool = field(default=False, repr=False)

    @property
    def exact(self) -> bool:
        return self.vocab_size == self.target

    @property
    def note(self) -> str:
        """What the step means, in words: empty when the vocabulary is exactly the target."""
        if self.exact:
            return ""
        unit = "round" if self.prunes else "step"
        if self.vocab_size > self.target:
            if self.prunes:
                return (f"even its smallest vocabulary has {self.vocab_size:,} tokens, more "
                        f"than {self.target:,}: shown at round {self.step:,}, where it is "
                        "smallest")
            return (f"its starting vocabulary already has {self.vocab_size:,} tokens, more "
                    f"than {self.target:,}: shown at step 0")
        return (f"no {unit} has exactly {self.target:,} tokens: shown at {unit} "
                f"{self.step:,}, the closest below ({self.vocab_size:,} tokens)")


def step_for_vocab_size(training: Training, target: int) -> VocabStep:
    """The last step whose vocabulary has at most ``target`` tokens (step 0 if none has).

    For a training whose steps prune (Unigram), the round whose vocabulary is the largest
    of at most ``target`` tokens: :func:`round_for_vocab_size`.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("aaab aab"), merges=2, special_tokens=())
    >>> [t.vocab_size_at(k) for k in range(3)], step_for_vocab_size(t, 3)
    ([2, 3, 4], VocabStep(step=1, vocab_size=3, target=3))
    """
    if prunes(training):
        return round_for_vocab_size(training, target)
    sizes = vocab_sizes(training)
    step = int(np.searchsorted(sizes, target, side="right")) - 1
    step = max(step, 0)
    return VocabStep(step, int(sizes[step]), int(target))


def vocab_sizes(training: Any) -> np.ndarray:
    """:func:`vocabulary_size` at every step, step 0 first."""
    if prunes(training):
        return protocol.vocab_sizes(training)
    extra = len(training.vocab) - training.vocab_size_at(len(training.merges))
    return np.asarray(training.vocab_sizes, dtype=np.int64) + extra


@dataclass(frozen=True, eq=False)
class RoundSnapshot:
    """Round ``step`` of a Unigram training (or an opened ``.model``), read as
    :func:`compare` reads a merge snapshot: ``training``, ``step``, ``encode(text)``."""

    training: Any
    step: int

    def encode(self, text: str) -> list[Any]:
        return list(self.training.at(self.step).encode(text))


def round_for_vocab_size(training: Any, target: int) -> VocabStep:
    """The round whose vocabulary is the largest of at most ``target`` tokens (the
    earliest such round on a tie), as :func:`step_for_vocab_size` finds the last merge
    step with at most ``target`` tokens; the round of the smallest vocabulary when every
    round has more than ``target``. The sizes are scanned, not searched: they need not
    shrink round by round.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("hug pug hug pun bun hugs"), algorithm="unigram",
    ...           vocab_size=12, variant="course")
    >>> vocab_sizes(t).tolist()
    [32, 29, 27, 25, 23, 21, 19, 18, 17, 16, 15, 14, 13]
    >>> found = round_for_vocab_size(t, 20)
    >>> found
    VocabStep(step=6, vocab_size=19, target=20)
    >>> found.note
    'no round has exactly 20 tokens: shown at round 6, the closest below (19 tokens)'
    """
    sizes = protocol.vocab_sizes(training).tolist()
    below = [k for k, n in enumerate(sizes) if n <= target]
    if below:
        step = max(below, key=lambda k: (sizes[k], -k))
    else:
        step = min(range(len(sizes)), key=lambda k: (sizes[k], k))
    return VocabStep(step, sizes[step], int(target), prunes=True)


def steps_for_vocab_sizes(training: Any, lo: int, hi: int) -> np.ndarray:
    """``step_for_vocab_size(training, v).step`` for every ``v`` in ``lo..hi`` at once.

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("aaab aab"), merges=2, special_tokens=())
    >>> steps_for_vocab_sizes(t, 1, 5).tolist()
    [0, 0, 1, 2, 2]
    """
    targets = np.arange(lo, hi + 1, dtype=np.int64)
    if not prunes(training):  # the rule of step_for_vocab_size, for every target
        found = np.searchsorted(vocab_sizes(training), targets, side="right") - 1
        return np.maximum(found, 0)
    # pruning rounds: the answer changes only where a target is some round's size
    sizes = vocab_sizes(training)
    marks = np.unique(np.concatenate([[lo], sizes[(sizes > lo) & (sizes <= hi)]]))
    steps = np.array([step_for_vocab_size(training, int(v)).step for v in marks], np.int64)
    return steps[np.searchsorted(marks, targets, side="right") - 1]


# -- metrics -------------------------------------------------------------------------------
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


__all__ = ["METRIC_HELP", "METRIC_LABELS", "WORD_DEFINITION", "Comparison", "Cut", "Metrics",
           "VocabStep", "at", "compare",
           "compare_tokens", "corpus_tokens", "last_step", "metrics", "metrics_by_script",
           "prunes", "script_of", "step_for_vocab_size", "step_unit",
           "steps_for_vocab_sizes", "token_spans", "vocab_range", "vocab_sizes",
           "vocabulary_size", "word_spans"]
