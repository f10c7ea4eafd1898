"""Compare's positions for the browser: every configuration's cuts of one text at every
step, and the step each configuration is at for each position of the one control.

The browser (the stage component's "compare" part) gets this once per text and redraws
the cuts and their differences at any position by itself. The differences are the
engine's (:func:`bpeviz.analysis.compare.compare_tokens`, the one place of Compare's
rule): :func:`differences` applies it here at every position where some configuration's
cut changes, and the browser only reads the marks of the position it is at.

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

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import singledispatch
from typing import Any

import numpy as np

from bpeviz.analysis import compare as cmp
from bpeviz.analysis.metrics import span_arrays
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
    data = {"text": text, "mode": mode, "lo": lo, "n": hi, "configs": configs}
    data["diffs"] = differences(data)
    return data


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


def _expand(found_runs: Sequence[Sequence[int]], count: int) -> np.ndarray:
    """The first ``count`` values of the sequence :func:`runs` made ``found_runs`` from.

    >>> _expand(runs([3, 4, 5, 5, 5, 9]), 6).tolist()
    [3, 4, 5, 5, 5, 9]
    """
    out = np.zeros(count, dtype=np.int64)
    for j, (first, value, slope) in enumerate(found_runs):
        end = min(found_runs[j + 1][0] if j + 1 < len(found_runs) else count, count)
        if first < end:
            out[first:end] = value + slope * np.arange(end - first)
    return out


class _Cuts:
    """One configuration's cut of the text at any step, as columns, from its history (what
    the browser gets): each word's versions made into columns and spans once, a cut the
    join of its words' versions at that step."""

    def __init__(self, config: dict[str, Any], text: str) -> None:
        nbytes = config["nbytes"]
        self.words = []  # per word of the text: its versions' steps and columns
        for offset, form in config["history"]["words"]:
            versions = config["history"]["forms"][form]
            columns = []
            for _, ids, starts, ends, flags in versions:
                ids_ = np.asarray(ids, dtype=np.int64)
                # offsets clamped at 0, as the encoder clamps a leading metaspace ``▁``
                starts_ = np.maximum(np.asarray(starts, dtype=np.int64) + offset, 0)
                ends_ = np.maximum(np.asarray(ends, dtype=np.int64) + offset, 0)
                partial = (np.asarray(flags, dtype=np.int64) & 1).astype(bool)
                lo, hi = span_arrays(text, starts_, ends_, partial,
                                     lambda i, ids_=ids_: nbytes.get(str(ids_[i]), 0))
                columns.append((starts_, ends_, lo, hi))
            self.words.append(([v[0] for v in versions], columns))

    def at(self, step: int) -> tuple[np.ndarray, ...]:
        """``starts``, ``ends`` (characters), ``lo``, ``hi`` (the spans) at ``step``."""
        chosen = [columns[bisect_right(steps, step) - 1] for steps, columns in self.words]
        if not chosen:
            return tuple(np.zeros(0, dtype=np.int64) for _ in range(4))
        return tuple(np.concatenate(parts) for parts in zip(*chosen))


def _marked_runs(starts: np.ndarray, ends: np.ndarray,
                 differs: np.ndarray) -> set[tuple[int, int, int, int]]:
    """A cut's runs of differing tokens, each ``(start, end, skip, count)``: its span in
    characters (:attr:`bpeviz.analysis.compare.Cut.diff_spans`), then its first token
    as the ``skip``-th of the tokens starting at ``start`` and how many tokens it holds.
    Only the run's own tokens name it, so a change elsewhere in the text leaves it as it
    is."""
    flags = np.concatenate([[False], differs, [False]]).astype(np.int8)
    edges = np.diff(flags)
    firsts, lasts = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    if not len(firsts):
        return set()
    bounds = np.empty(2 * len(firsts), dtype=np.int64)  # each run's tokens, then the gap
    bounds[0::2], bounds[1::2] = firsts, lasts + 1
    run_ends = np.maximum.reduceat(np.append(ends, 0), bounds)[0::2]
    run_starts = starts[firsts]
    skips = firsts - np.searchsorted(starts, run_starts, side="left")
    return set(zip(run_starts.tolist(), run_ends.tolist(), skips.tolist(),
                   (lasts - firsts + 1).tolist()))


def differences(data: dict[str, Any]) -> list[list[Any]]:
    """Compare's marks wherever they may change, for the browser to read (it applies no
    rule of its own: :func:`bpeviz.analysis.compare.mark_differences` is the rule):
    ``[[offset, n, owns, changes], ...]`` in rising ``offset`` (position - ``lo``), an
    entry where some configuration's cut of the text changes. ``n``: the differing
    boundaries; ``owns``: how many of them each configuration's are; ``changes``: per
    configuration, ``[gone, new]``, the runs of differing tokens (:func:`_marked_runs`)
    it loses and gains since the entry before. The marks at a position are those of the
    last entry at or before it.

    The cut of a text changes only at the steps its history lists, a few per word of the
    text however many steps the training has, so the rule runs a few times per word, and
    a change marks or unmarks runs near it only, so each entry is small.

    >>> from bpeviz import Corpus, train
    >>> corpus = Corpus.from_text("low low lower lowest newest widest")
    >>> a, b = train(corpus, "bpe", merges=6), train(corpus, "wordpiece", merges=3)
    >>> data = lockstep_data([("A", a), ("B", b)], "lowest", "step")
    >>> [(offset, n) for offset, n, _, _ in data["diffs"]]  # from step 5 on, no change
    [(0, 0), (1, 1), (2, 2), (3, 4), (4, 3)]
    >>> data["diffs"][-1][2:]  # A's run low|es|t becomes low|est; B's stays as it was
    [[0, 3], [[[[0, 6, 0, 3]], [[0, 6, 0, 2]]], [[], []]]]
    """
    count = data["n"] - data["lo"] + 1
    if not data["configs"] or count < 1:
        return []
    text = data["text"]
    versions = []  # per configuration, at each offset: how many of its cut's changes came
    for config in data["configs"]:
        changes = sorted({v[0] for form in config["history"]["forms"] for v in form})
        versions.append(np.searchsorted(np.asarray(changes, dtype=np.int64),
                                        _expand(config["steps"], count), side="right"))
    keys = np.stack(versions)
    changed = np.flatnonzero((keys[:, 1:] != keys[:, :-1]).any(axis=0)) + 1
    cuts = [_Cuts(config, text) for config in data["configs"]]
    made: dict[tuple[int, ...], tuple[int, list[int], list[set[tuple[int, ...]]]]] = {}
    out: list[list[Any]] = []
    before: list[set[tuple[int, ...]]] = [set() for _ in cuts]
    for offset in [0, *changed.tolist()]:
        key = tuple(keys[:, offset].tolist())
        if key not in made:
            columns = [cut.at(run_at(config["steps"], offset))
                       for cut, config in zip(cuts, data["configs"], strict=True)]
            differing, differs, own = cmp.mark_differences([(c[2], c[3]) for c in columns])
            made[key] = (len(differing), own, [_marked_runs(c[0], c[1], d)
                                               for c, d in zip(columns, differs, strict=True)])
        n, own, runs_now = made[key]
        if out and out[-1][1:3] == [n, own] and runs_now == before:
            continue
        out.append([offset, n, own, [[sorted(map(list, was - now)), sorted(map(list, now - was))]
                                     for was, now in zip(before, runs_now, strict=True)]])
        before = runs_now
    return out


__all__ = ["Piece", "compare_at", "cut_at", "cut_history", "differences", "lockstep_data",
           "positions", "round_history", "run_at", "runs", "size_runs", "step_runs"]
