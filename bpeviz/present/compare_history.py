"""Compare's positions for the browser: every configuration's cuts of one text at every
step, and the step each configuration is at for each position of the one control.

The browser (the stage component's "compare" part) gets this once per text and redraws
the cuts and their differences at any position by itself; :func:`compare_at` is what it
computes, in Python, for tests (the browser applies the same rule:
:func:`bpeviz.analysis.compare.compare_tokens`).

A position is a merge step (or pruning round) shared by every configuration, or a
vocabulary size at which each configuration is at its own step
(:func:`bpeviz.analysis.compare.step_for_vocab_size`). Steps and vocabulary sizes travel as
linear runs (:func:`runs`), so 50,000 positions of a merging training are one run.

>>> from bpeviz import Corpus, train
>>> corpus = Corpus.from_text("low low lower lowest newest widest")
>>> a, b = train(corpus, "bpe", merges=6), train(corpus, "wordpiece", merges=3)
>>> data = lockstep_data([("A", a), ("B", b)], "lowest low", "step")
>>> data["lo"], data["n"], [c["steps"] for c in data["configs"]]
(0, 6, [[[0, 0, 1]], [[0, 0, 1], [4, 3, 0]]])
>>> [(t.id, t.start, t.end) for t in compare_at(data, 6).cuts[1].tokens] == \\
...     [(t.id, t.start, t.end) for t in b.at(3).encode("lowest low")]
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

import numpy as np

from bpeviz.analysis import compare as cmp
from bpeviz.core.encoded import _PARTIAL, _UNK
from bpeviz.core.training import Training
from bpeviz.present.text_history import text_history, tokens_at
from bpeviz.text.display import label, raw_bytes
from bpeviz.text.owned import OwnedCache


def runs(values: Sequence[int] | np.ndarray) -> list[list[int]]:
    """``values`` as linear runs ``[[first index, value there, slope], ...]`` (slope 0 or
    1, or a run of one), read back by :func:`run_at`.

    >>> runs([3, 4, 5, 5, 5, 9])
    [[0, 3, 1], [3, 5, 0], [5, 9, 0]]
    >>> [run_at(runs([3, 4, 5, 5, 5, 9]), i) for i in range(6)]
    [3, 4, 5, 5, 5, 9]
    """
    v = np.asarray(values, dtype=np.int64).tolist()
    out: list[list[int]] = []
    i, n = 0, len(v)
    while i < n:
        slope = v[i + 1] - v[i] if i + 1 < n else 0
        if slope not in (0, 1):
            out.append([i, v[i], 0])
            i += 1
            continue
        j = i + 1  # the run goes on while each next value is the last plus the slope
        while j < n and v[j] - v[j - 1] == slope:
            j += 1
        out.append([i, v[i], slope])
        i = j
    return out


def run_at(found_runs: Sequence[Sequence[int]], i: int) -> int:
    """The value at index ``i`` of the sequence :func:`runs` made ``found_runs`` from."""
    chosen = found_runs[0]
    for run in found_runs:
        if run[0] > i:
            break
        chosen = run
    return int(chosen[1] + chosen[2] * (i - chosen[0]))


def _range(trainings: Sequence[Any], mode: str) -> tuple[int, int]:
    """The control's range ``lo..hi`` for ``mode`` (see :func:`positions`)."""
    if mode == "step":
        return 0, max(cmp.last_step(t) for t in trainings)
    if mode != "vocab":
        raise ValueError(f"mode is 'step' or 'vocab', not {mode!r}")
    ranges = [cmp.vocab_range(t) for t in trainings]
    return min(r[0] for r in ranges), max(r[1] for r in ranges)


def _steps(training: Any, mode: str, lo: int, hi: int) -> np.ndarray:
    """One training's step at each position ``lo..hi`` of the control."""
    if mode == "step":
        return np.minimum(np.arange(hi + 1, dtype=np.int64), cmp.last_step(training))
    return cmp.steps_for_vocab_sizes(training, lo, hi)


def positions(trainings: Sequence[Any], mode: str) -> tuple[int, int, list[np.ndarray]]:
    """The range of the control (``lo``, ``hi``) and, per training, its step at each
    position ``lo..hi``: ``mode`` "step" (every training at that step, or its last) or
    "vocab" (each at :func:`bpeviz.analysis.compare.step_for_vocab_size` of that size)."""
    lo, hi = _range(trainings, mode)
    return lo, hi, [_steps(t, mode, lo, hi) for t in trainings]


# What lockstep_data sends about one training that does not depend on the text (kept on
# the training: a page rerun at 50,000 merges spent ~10 ms per configuration making the
# runs again) and, per text, the labels of the ids its cuts use.
_STEP_RUNS: OwnedCache[list[list[int]]] = OwnedCache("compare_step_runs", keep=4)
_SIZE_RUNS: OwnedCache[list[list[int]]] = OwnedCache("compare_size_runs")
_LABELS: OwnedCache[tuple[dict[str, list[str]], dict[str, int]]] = OwnedCache(
    "compare_labels", keep=4)


def step_runs(training: Any, mode: str, lo: int, hi: int) -> list[list[int]]:
    """:func:`runs` of ``training``'s steps at the positions ``lo..hi`` (kept).

    >>> from bpeviz import Corpus, train
    >>> t = train(Corpus.from_text("low low lower lowest"), merges=3)
    >>> step_runs(t, "step", 0, 5)  # steps 0, 1, 2, 3, 3, 3
    [[0, 0, 1], [4, 3, 0]]
    """
    return _STEP_RUNS.get(training, (mode, lo, hi),
                          lambda: runs(_steps(training, mode, lo, hi)))


def size_runs(training: Any) -> list[list[int]]:
    """:func:`runs` of ``training``'s vocabulary size at each step (kept)."""
    return _SIZE_RUNS.get(training, None, lambda: runs(cmp.vocab_sizes(training)))


def round_history(training: Any, text: str) -> tuple[dict[str, Any], list[Any]]:
    """The cuts of ``text`` at every step of any training (a Unigram training's pruning
    rounds), as :func:`text_history` shapes a text's history: one "word" (the whole text),
    a version per step whose cut differs from the step before, the text encoded at each.
    Also returns one token per id used (for labels)."""
    versions: list[list[Any]] = []
    seen: dict[int, Any] = {}
    for k in range(cmp.last_step(training) + 1):
        tokens = cmp.at(training, k).encode(text)
        version = [k, [t.id for t in tokens], [t.start for t in tokens],
                   [t.end for t in tokens],
                   [(_PARTIAL if t.partial else 0) | (_UNK if t.unk else 0) for t in tokens]]
        if not versions or version[1:] != versions[-1][1:]:
            versions.append(version)
        for t in tokens:
            seen.setdefault(t.id, t)
    return {"words": [[0, 0]], "forms": [versions]}, list(seen.values())


@singledispatch
def cut_history(training: Any, text: str) -> tuple[dict[str, Any], list[Any]]:
    """The history of ``text``'s cuts over every step of ``training`` and, when its tokens
    are not read from the vocabulary, one token per id used (for labels): for any training
    :func:`round_history`, the text encoded at each step; a merging training
    (:class:`~bpeviz.core.training.Training`) replays its merges on the text's words
    instead (:func:`text_history`), which finds the steps that change a word without
    encoding the text at each of thousands of steps."""
    return round_history(training, text)


@cut_history.register
def _merge_history(training: Training, text: str) -> tuple[dict[str, Any], list[Any]]:
    return text_history(training, text), []


def _labels(training: Any, history: dict[str, Any], samples: list[Any],
            byte_style: str) -> tuple[dict[str, list[str]], dict[str, int]]:
    """Each used id's ``[label, bytes in hex]`` (the chip's hover) and, for the ids that
    hold part of a character, their size in bytes (the difference rule needs it)."""
    partial = {i for form in history["forms"] for v in form
               for i, f in zip(v[1], v[4]) if f & 1}
    if samples:  # tokens read as encoded: they say what they are themselves; the unknown
        # token covers different text at each place, so its label names no bytes (the
        # bytes of the first unknown text met would describe every other <unk> chip)
        labels = {str(t.id): [label(t.text, byte_style),
                              "" if t.unk else bytes(t.bytes).hex(" ")] for t in samples}
        sizes = {str(t.id): len(t.bytes) for t in samples if t.id in partial}
        return labels, sizes
    from bpeviz.analysis import views

    used = {i for form in history["forms"] for v in form for i in v[1] if i >= 0}
    labels = {str(i): list(v) for i, v in views.token_labels(training, used, byte_style).items()}
    sizes = {}
    for i in partial:
        sizes[str(i)] = len(raw_bytes(training.vocab[i]))
    return labels, sizes


def lockstep_data(configurations: Sequence[tuple[str, Any]], text: str, mode: str,
                  byte_style: str = "gpt2",
                  history: Callable[[Any], tuple[dict[str, Any], list[Any]]] | None = None,
                  ) -> dict[str, Any]:
    """What the browser needs to redraw Compare's cuts at any position: the range of the
    control (``lo``, ``n``) and for each ``(label, training)`` its step and vocabulary
    size at each position (runs), its cuts of ``text`` at every step (``history``), the
    labels of the ids used and the byte sizes of partial ones. ``history``: gives a
    training's :func:`cut_history` of ``text`` (a cache; default: made here)."""
    trainings = [t for _, t in configurations]
    lo, hi = _range(trainings, mode)
    configs = []
    for name, training in configurations:
        history_of, samples = (history or (lambda t: cut_history(t, text)))(training)
        labels, sizes = _LABELS.get(
            training, (text, byte_style),
            lambda t=training, h=history_of, s=samples: _labels(t, h, s, byte_style))
        configs.append({
            "label": name, "unit": cmp.step_unit(training), "last": cmp.last_step(training),
            "steps": step_runs(training, mode, lo, hi), "sizes": size_runs(training),
            "history": history_of, "labels": labels, "nbytes": sizes})
    return {"text": text, "mode": mode, "lo": lo, "n": hi, "configs": configs}


@dataclass(frozen=True)
class Piece:
    """A token as the browser has it (``bytes``: only its size matters, for a part of a
    character), read by :func:`bpeviz.analysis.compare.compare_tokens`."""

    id: int
    start: int
    end: int
    bytes: bytes
    partial: bool
    unk: bool


def cut_at(config: dict[str, Any], step: int) -> list[Piece]:
    """One configuration's tokens at ``step``, from the history the browser gets (offsets
    clamped at 0, as the encoder clamps a leading metaspace ``▁``)."""
    return [Piece(i, max(s, 0), max(e, 0), bytes(config["nbytes"].get(str(i), 0)),
                  bool(f & 1), bool(f & 2))
            for i, s, e, f in tokens_at(config["history"], step)]


def compare_at(data: dict[str, Any], position: int) -> cmp.Comparison:
    """What the browser draws at ``position``: each configuration's cut of the text at
    its step for that position, and their differences (the engine's rule)."""
    items = []
    for config in data["configs"]:
        step = run_at(config["steps"], position - data["lo"])
        items.append((config["label"], step, run_at(config["sizes"], step),
                      cut_at(config, step)))
    return cmp.compare_tokens(items, data["text"])


__all__ = ["Piece", "compare_at", "cut_at", "cut_history", "lockstep_data", "positions",
           "round_history", "run_at", "runs", "size_runs", "step_runs"]
