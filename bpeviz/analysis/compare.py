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

**Boundaries.** A token's span is its stretch of the text, in UTF-8 bytes, without the
whitespace at its two ends (:func:`bpeviz.analysis.metrics.token_spans`). A
configuration's boundaries are the two ends of every span. The **differing boundaries**
are those some configurations have and others lack; a token **differs** when a differing
boundary lies on it (at an end or inside), and the **differing spans** of a configuration
are its runs of consecutive differing tokens, as character offsets ``(start, end)``.

What each cut costs is :mod:`bpeviz.analysis.metrics`; where each training stands at a
step or a vocabulary size, :mod:`bpeviz.analysis.vocab_steps`. Both are named here too,
as Compare's engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from bpeviz.analysis.metrics import (
    METRIC_HELP,
    METRIC_LABELS,
    SCRIPTS,
    WORD_DEFINITION,
    Metrics,
    _columns,
    _span_arrays,
    byte_offsets,
    char_script,
    metrics,
    metrics_by_script,
    script_of,
    token_spans,
    word_spans,
)
from bpeviz.analysis.vocab_steps import (
    TrainingStep,
    VocabStep,
    at,
    corpus_tokens,
    last_step,
    step_for_vocab_size,
    step_unit,
    steps_for_vocab_sizes,
    vocab_range,
    vocab_sizes,
    vocabulary_size,
)

if TYPE_CHECKING:
    from bpeviz.core.snapshot import Snapshot

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


def compare(configurations: Sequence[tuple[str, Snapshot | TrainingStep]],
            text: str) -> Comparison:
    """Cut ``text`` with each ``(label, snapshot)`` (a merge training's snapshot, or any
    training's step: :func:`bpeviz.analysis.vocab_steps.at`) and find where the cuts
    differ."""
    if not 1 <= len(configurations) <= MAX_CONFIGURATIONS:
        raise ValueError(f"compare 1 to {MAX_CONFIGURATIONS} configurations, "
                         f"got {len(configurations)}")
    return compare_tokens([(label, snap.step, vocabulary_size(snap.training, snap.step),
                            snap.encode(text)) for label, snap in configurations], text)


def compare_tokens(cuts: Sequence[tuple[str, int, int, Sequence[Any]]],
                   text: str) -> Comparison:
    """:func:`compare` of cuts already made: ``(label, step, vocabulary size, tokens)``
    each (the rule itself: :func:`mark_differences`)."""
    spans = [_span_arrays(text, tokens) for *_, tokens in cuts]
    differing, differs, _ = mark_differences(spans)
    common = None
    out = []
    for (label, step, size, tokens), (lo, hi), flags in zip(cuts, spans, differs, strict=True):
        listed = [(s, e) if s < e else None for s, e in zip(lo.tolist(), hi.tolist())]
        bounds = frozenset(b for span in listed if span for b in span)
        common = bounds if common is None else common & bounds
        out.append((label, step, size, tokens, listed, bounds, tuple(flags.tolist())))
    return Comparison(text, tuple(
        Cut(label=label, step=step, vocab_size=size, tokens=tokens, spans=tuple(listed),
            boundaries=bounds, differs=flags, diff_spans=_runs(tokens, flags),
            own_differing=len(bounds - common))
        for label, step, size, tokens, listed, bounds, flags in out),
        tuple(differing.tolist()))


def mark_differences(spans: Sequence[tuple[np.ndarray, np.ndarray]],
                     ) -> tuple[np.ndarray, list[np.ndarray], list[int]]:
    """Compare's rule, on each configuration's token spans (``lo``, ``hi`` arrays in
    bytes, whitespace at the ends left out; ``lo >= hi``: no span): a token boundary
    differs when some configurations have it and others lack it; a token differs when a
    differing boundary lies in its span, ends included. Returns the differing boundaries
    (sorted), each configuration's differing tokens and how many of the differing
    boundaries are its own.

    >>> a = (np.array([0, 1, 3]), np.array([1, 2, 5]))  # "ab cd" cut a|b cd
    >>> b = (np.array([0, 3]), np.array([2, 5]))        # and ab cd
    >>> differing, differs, own = mark_differences([a, b])
    >>> differing.tolist(), [d.tolist() for d in differs], own
    ([1], [[True, True, False], [True, False]], [1, 0])
    """
    bounds = [np.unique(np.concatenate([lo[lo < hi], hi[lo < hi]])) for lo, hi in spans]
    found, seen = np.unique(np.concatenate(bounds), return_counts=True)
    differing = found[seen < len(spans)]
    n_common = int((seen == len(spans)).sum())
    differs = []
    for lo, hi in spans:
        first = np.searchsorted(differing, lo)  # the first differing boundary >= lo
        held = np.minimum(first, max(len(differing) - 1, 0))
        differs.append((lo < hi) & (first < len(differing))
                       & (differing[held] <= hi if len(differing) else False))
    return differing, differs, [len(b) - n_common for b in bounds]


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


__all__ = ["MAX_CONFIGURATIONS", "METRIC_HELP", "METRIC_LABELS", "SCRIPTS", "WORD_DEFINITION",
           "Comparison", "Cut", "Metrics", "TrainingStep", "VocabStep", "at", "byte_offsets",
           "char_script", "compare", "compare_tokens", "corpus_tokens", "last_step",
           "mark_differences", "metrics", "metrics_by_script", "script_of", "step_for_vocab_size",
           "step_unit", "steps_for_vocab_sizes", "token_spans", "vocab_range", "vocab_sizes",
           "vocabulary_size", "word_spans"]
