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

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bpeviz.analysis.metrics import (
    METRIC_HELP,
    METRIC_LABELS,
    SCRIPTS,
    WORD_DEFINITION,
    Metrics,
    _columns,
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


__all__ = ["MAX_CONFIGURATIONS", "METRIC_HELP", "METRIC_LABELS", "SCRIPTS", "WORD_DEFINITION",
           "Comparison", "Cut", "Metrics", "TrainingStep", "VocabStep", "at", "byte_offsets",
           "char_script", "compare", "compare_tokens", "corpus_tokens", "last_step",
           "metrics", "metrics_by_script", "script_of", "step_for_vocab_size", "step_unit",
           "steps_for_vocab_sizes", "token_spans", "vocab_range", "vocab_sizes",
           "vocabulary_size", "word_spans"]
