"""Metrics of a text as the merges go on: one row per sampled step, for charts.

>>> from bpeviz import Corpus, train
>>> t = train(Corpus.from_text("low low lower lowest newest widest"), "bbpe", merges=8)
>>> [(row["step"], row["tokens"]) for row in metric_curve(t, "lowest low", [0, 4, 8])]
[(0, 9), (4, 3), (8, 2)]

Computed without re-encoding the text from scratch at each step where that is
avoidable, by how the record says text is encoded (its ``encoder``): by merges, the merges
are replayed once on the text's words (:mod:`bpeviz.core.recount`) and every step is read
from the replay; by longest match, only the words that hold a token added in between
are cut again from one step to the next; otherwise (Viterbi over a round's pieces) the
text is encoded at each step. The metrics are :class:`bpeviz.analysis.metrics.Metrics`,
the same numbers as :func:`bpeviz.analysis.metrics.metrics` of
``training.at(step).encode(text)`` (the tests check it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import regex

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.metrics import (
    _columns,
    _index,
    _metrics,
    _metrics_by_script,
    _span_arrays,
)
from bpeviz.analysis.vocab_steps import at, last_step, vocabulary_size
from bpeviz.core.protocol import landmarks

if TYPE_CHECKING:
    from bpeviz.core.training import Training

#: Points of a metric curve (steps sampled evenly, the first and last included).
CURVE_POINTS = 50


def sample_steps(last: int, points: int = CURVE_POINTS) -> list[int]:
    """Up to ``points`` steps from 0 to ``last``, evenly spread, both ends included.

    >>> sample_steps(4), sample_steps(1000, 5)
    ([0, 1, 2, 3, 4], [0, 250, 500, 750, 1000])
    """
    return sorted({round(x) for x in np.linspace(0, last, min(points, last + 1))})


def curve_landmarks(training: Any, x: str = "step") -> list[tuple[int, str]]:
    """Where a training's phase changes (:func:`bpeviz.core.protocol.landmarks`: SuperBPE's
    stage 2), on a curve's ``x`` axis: the step a phase starts, or the vocabulary size
    there (``x="vocab_size"``), with the phase's name. The phase every training starts in
    is left out: a line at step 0 marks nothing.

    >>> from bpeviz import train
    >>> t = train("of the cat of the cat", algorithm="superbpe", merges=8, transition=5)
    >>> curve_landmarks(t), curve_landmarks(t, "vocab_size")
    ([(6, 'stage 2: merges across spaces')], [(262, 'stage 2: merges across spaces')])
    """
    # a landmark of a kind (PickyBPE's every removal and run of merges) is the step bar's
    # to mark; a curve marks only where a phase starts (SuperBPE's stage 2)
    found = [(mark[0], mark[1]) for mark in landmarks(training) if mark[0] > 0 and len(mark) == 2]
    if x == "vocab_size":
        return [(vocabulary_size(training, k), name) for k, name in found]
    return found


def curve_steps(training: Any, points: int = CURVE_POINTS) -> list[int]:
    """The steps a curve samples: :func:`sample_steps`, and either side of each landmark,
    so a curve bends where its phase changes, not at the next sampled step.

    >>> from bpeviz import train
    >>> t = train("of the cat, of the dog, and of the bird, and of the fish; of the sea.",
    ...           algorithm="superbpe", merges=20, transition=13)
    >>> curve_steps(t, 5)
    [0, 5, 10, 13, 14, 15, 20]
    """
    last = last_step(training)
    return sorted({*sample_steps(last, points),
                   *(k for step, _ in curve_landmarks(training) for k in (step - 1, step)
                     if 0 <= k <= last)})


def metric_curve(training: Training, text: str, steps: Sequence[int] | None = None,
                 by_script: bool = False) -> list[dict[str, Any]]:
    """Metrics of ``text`` at each step (default: :func:`sample_steps`), one row per step
    (and per script when ``by_script``), with ``step`` and ``vocab_size``; the default
    steps take in each side of a landmark (:func:`curve_steps`).

    Text encoded by merges is not re-encoded per step: the training's merges are
    replayed once on the text's words (:mod:`bpeviz.core.recount`, whose splits are exactly
    how encoding cuts each word) and every step's tokens are read from that replay. Text
    encoded by longest match is re-cut, from one step to the next, only in the words
    holding a token added in between (see :func:`_wordpiece_spans`). The texts those two
    cannot read are encoded at each sampled step, with an encoder made here and not kept
    (the explorer's encoder cache stays as it is). Any other training (Unigram: a row per
    pruning round, by default every round up to ``CURVE_POINTS``) has its text encoded at
    each step (:func:`bpeviz.analysis.vocab_steps.at`).
    """
    if steps is None:
        steps = curve_steps(training)
    ix = _index(text)
    quick, encoded = _SPANS_BY_ENCODER.get(get_algorithm(training.algorithm).encoder,
                                           (None, _encoded_spans))
    if getattr(training, "options", None) is None:
        # not a merge loop's training (its options are what the quick ways replay): a
        # training of its own events (PickyBPE's merges and removals) encodes at each step
        quick, encoded = None, _encoded_spans
    spans = (quick(training, text, steps) if quick is not None else None) or encoded(
        training, text)
    rows: list[dict[str, Any]] = []
    for step in steps:
        lo, hi, unk = spans(step)
        base = {"step": step, "vocab_size": vocabulary_size(training, step)}
        if by_script:
            for script, m in _metrics_by_script(ix, lo, hi, unk).items():
                rows.append({**base, "script": script, **m.row()})
        else:
            rows.append({**base, **_metrics(ix, text, lo, hi, unk).row()})
    return rows


Spans = Callable[[int], tuple[np.ndarray, ...]]


def _stepped_spans(text: str, step_of: Callable[[int], Any]) -> Spans:
    """A function from a step to every token's span and unknown flag, ``text`` encoded by
    ``step_of(step)``."""
    def spans(step: int) -> tuple[np.ndarray, ...]:
        tokens = step_of(step).encode(text)
        lo, hi = _span_arrays(text, tokens)
        return lo, hi, _columns(tokens)[3]

    return spans


def _encoded_spans(training: Any, text: str) -> Spans:
    """Any training: the text encoded at each step (a round's Viterbi cut for Unigram)."""
    return _stepped_spans(text, lambda step: at(training, step))


def _fresh_spans(training: Training, text: str) -> Spans:
    """A merging training: the text encoded at each step, by encoders not kept."""
    return _stepped_spans(text, lambda step: _fresh_encoder(training, step))


def _replayed_spans(training: Training, text: str, steps: Sequence[int]) -> Spans | None:
    """For text encoded by merges: a function from a step to every token's span (bytes,
    whitespace at the ends left out) and unknown flag, read from one replay of the merges
    on the text's words. None where that does not apply: a vocabulary that cannot stand
    for every character (no unknown token), and texts the arithmetic below does not model
    (surrogates, a space that takes more than one unit, the end-of-word marker or the
    unknown token's text written in the text).

    The arithmetic counts in the record's units (:meth:`Algorithm.unit_codes`: bytes or
    characters): a token covers the units of its text, an end-of-word marker none and the
    unknown token the one unit it stands for."""
    from bpeviz.core.encoding import split_words, unk_token
    from bpeviz.core.recount import pretokenizer_of, replay_on
    from bpeviz.text.corpus import Corpus

    alg, marker = get_algorithm(training.algorithm), training.options.marker
    unk = unk_token(training)
    if len(steps) < 2 or not text or regex.search(r"\p{Cs}", text):
        return None
    if (marker and marker in text) or (unk and unk in text):
        return None
    ix = _index(text)
    char_units = alg.unit_codes(list(text))[1]  # each character's units
    space_char = np.fromiter(map(str.isspace, text), dtype=bool, count=len(text))
    if (space_char & (char_units > 1)).any():
        return None
    if pretokenizer_of(training) == "metaspace":  # words are not slices of the text
        return None
    words, offsets = split_words(text, pretokenizer_of(training))
    if not words:
        return None
    index: dict[str, int] = {}
    occurrences = np.array([index.setdefault(w, len(index)) for w in words], dtype=np.int64)
    counts = np.bincount(occurrences, minlength=len(index))
    corpus = Corpus(tuple(index), tuple(counts.tolist()), training.corpus.pretokenizer)
    try:
        replayed = replay_on(training, corpus)
    except ValueError:  # a character the vocabulary lacks, and no unknown token
        return None
    vocab = replayed.vocab
    unk_id = vocab.index(unk) if unk is not None and unk in vocab else -1
    sizes = np.array([len(t) - (len(marker) if marker and t.endswith(marker) else 0)
                      for t in vocab], dtype=np.int64)
    if unk_id >= 0:
        sizes[unk_id] = 1
    # positions in units: where each character starts, and each unit's UTF-8 bytes
    unit_of_char = np.concatenate([[0], np.cumsum(char_units)])
    to_bytes = np.concatenate([[0], np.cumsum(np.repeat(np.diff(ix.at) // char_units,
                                                        char_units))])
    space = np.repeat(space_char, char_units)
    n = len(space)
    positions = np.arange(n + 1, dtype=np.int64)
    next_solid = np.minimum.accumulate(
        np.where(np.append(~space, True), positions, n)[::-1])[::-1]
    solid_end = np.maximum.accumulate(np.where(np.concatenate([[True], ~space]), positions, 0))
    starts = unit_of_char[np.asarray(offsets, dtype=np.int64)]

    def spans(step: int) -> tuple[np.ndarray, ...]:
        ids, word_of = replayed.at(step).token_ids  # every distinct word's tokens, in order
        lengths = sizes[ids]
        per_word = np.bincount(word_of, minlength=len(index))
        first = np.concatenate([[0], np.cumsum(per_word)])
        ends = np.cumsum(lengths)
        inside = ends - lengths - np.concatenate([[0], ends])[first[:-1]][word_of]
        # every occurrence of a word, its tokens in order
        taken = per_word[occurrences]
        owner = np.repeat(np.arange(len(occurrences)), taken)
        k = np.arange(int(taken.sum())) - np.repeat(np.cumsum(taken) - taken, taken)
        token = first[occurrences][owner] + k
        lo = starts[owner] + inside[token]
        hi = lo + lengths[token]
        lo_trim = np.minimum(next_solid[lo], hi)
        hi_trim = np.maximum(solid_end[hi], lo_trim)
        return to_bytes[lo_trim], to_bytes[hi_trim], ids[token] == unk_id

    return spans


#: Most (substring, word) entries :func:`_wordpiece_spans` indexes (memory stays bounded).
_SUBSTRING_BUDGET = 300_000


def _wordpiece_spans(training: Training, text: str,
                     steps: Sequence[int] = ()) -> Spans | None:
    """For text encoded by longest match (WordPiece): a function from a step to every
    token's span (bytes, whitespace at the ends left out) and unknown flag, as
    :mod:`bpeviz.core.encoding` cuts the text at that step (greedy longest match from the
    left, ``##`` after the first piece, a word that cannot be matched or is over
    ``MAX_WORDPIECE_CHARS`` characters one ``[UNK]``).

    Between two steps only the words holding a token added in between (its text without
    ``##``) are cut again: every other word's lookups find the same tokens. Steps are
    fastest in increasing order."""
    from bpeviz.core.coders import MAX_WORDPIECE_CHARS, longest_match
    from bpeviz.core.encoding import known_ids, split_words
    from bpeviz.core.recount import pretokenizer_of

    if pretokenizer_of(training) == "metaspace":  # words are not slices of the text
        return None
    words, offsets = split_words(text, pretokenizer_of(training))
    if not words:
        return None
    vocab = training.vocab
    final = int(training.vocab_sizes[-1])  # where the ids listed after the merged ones start
    ids: dict[Any, int] = {}
    for i in known_ids(training, len(training.merges)):
        ids.setdefault(vocab[i], i)
    prefixes = {t[:k] for t in ids for k in range(1, len(t) + 1)}
    longest = max(map(len, ids), default=0)
    index: dict[str, int] = {}
    occurrences = np.array([index.setdefault(w, len(index)) for w in words], dtype=np.int64)
    distinct = list(index)
    # which distinct words hold each substring (a new token can change only those); past
    # a budget (long distinct words), every word is cut again at every step instead
    holders: dict[str, list[int]] | None = {}
    budget = _SUBSTRING_BUDGET
    for w, word in enumerate(distinct):
        if len(word) > MAX_WORDPIECE_CHARS or holders is None:
            continue
        for a in range(len(word)):
            for b in range(a + 1, min(len(word), a + longest) + 1):
                holders.setdefault(word[a:b], []).append(w)
            budget -= min(len(word) - a, longest)
        if budget < 0:
            holders = None
    ix = _index(text)
    starts = np.asarray(offsets, dtype=np.int64)
    state: dict[str, Any] = {"step": None, "pieces": [()] * len(distinct)}

    def cut(word: str, size: int) -> tuple[tuple[int, int, bool], ...]:
        """(start, end, unknown) of each piece of ``word`` with the tokens known at a
        step whose vocabulary has ``size`` tokens (plus tokens listed after the merged)."""
        n = len(word)
        whole = ((0, n, True),)
        if n > MAX_WORDPIECE_CHARS:
            return whole
        pieces = []
        start = 0
        while start < n:
            _, found_end = longest_match(word, start, "##" if start else "", prefixes, ids,
                                         longest, lambda i: i < size or i >= final)
            if found_end < 0:
                return whole
            pieces.append((start, found_end, False))
            start = found_end
        return tuple(pieces)

    def spans(step: int) -> tuple[np.ndarray, ...]:
        size = int(training.vocab_sizes[step])  # the ids made by this step end here
        before = state["step"]
        pieces: list[tuple[tuple[int, int, bool], ...]] = state["pieces"]
        if before is None or step < before or holders is None:
            dirty: set[int] | range = range(len(distinct))
        else:
            dirty = set()
            for t in vocab[training.vocab_sizes[before] : size]:
                dirty.update(holders.get(str(t).removeprefix("##"), ()))
        for w in dirty:
            pieces[w] = cut(distinct[w], size)
        state["step"] = step
        taken = np.array([len(p) for p in pieces], dtype=np.int64)
        flat = [x for p in pieces for x in p]
        lo_in = np.array([x[0] for x in flat], dtype=np.int64)
        hi_in = np.array([x[1] for x in flat], dtype=np.int64)
        unknown = np.array([x[2] for x in flat], dtype=bool)
        first = np.concatenate([[0], np.cumsum(taken)])
        per = taken[occurrences]
        owner = np.repeat(np.arange(len(occurrences)), per)
        k = np.arange(int(per.sum())) - np.repeat(np.cumsum(per) - per, per)
        token = first[occurrences][owner] + k
        lo = starts[owner] + lo_in[token]
        hi = starts[owner] + hi_in[token]
        lo_c = np.minimum(ix.next_solid[lo], hi)
        hi_c = np.maximum(ix.solid_end[hi], lo_c)
        return ix.at[lo_c], ix.at[hi_c], unknown[token]

    return spans


def _fresh_encoder(training: Training, step: int) -> Any:
    """The cached encoder of the step if there is one, else a new one not put in the cache."""
    from bpeviz.core import encoding

    return encoding.fresh_encoder(training, step)


#: How the spans of a text at every step are found, by the record's ``encoder``: a quick
#: way (None where it does not apply), else the text encoded at each step by encoders not
#: kept. Any other encoder has its text encoded at each step (:func:`_encoded_spans`).
_SPANS_BY_ENCODER: dict[str, tuple[Callable[[Any, str, Sequence[int]], Spans | None],
                                   Callable[[Any, str], Spans]]] = {
    "merges": (_replayed_spans, _fresh_spans),
    "longest_match": (_wordpiece_spans, _fresh_spans),
}


__all__ = ["CURVE_POINTS", "curve_landmarks", "curve_steps", "metric_curve", "sample_steps"]
