"""What the browser's step component is sent for a training: every merge (the card of any
step), the words' splits at every step, the chips' notes and marks. Built once per training
and byte style; the component draws every step from it without a Python rerun.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.views import token_labels
from bpeviz.core.training import Training
from bpeviz.present.glossary import ChipNotes
from bpeviz.present.render import history_part_notes
from bpeviz.text.display import mark_table, raw_bytes, visible
from bpeviz.text.owned import OwnedCache

_PER_TRAINING: OwnedCache[Any] = OwnedCache("stage data")


def _cached(training: Training, key: Any) -> Any:
    return _PER_TRAINING.peek(training, key)


def _cache(training: Training, key: Any, value: Any) -> Any:
    return _PER_TRAINING.get(training, key, lambda: value)


def stage_marks(training: Training, text: str = "") -> dict[str, list[str]]:
    """The combining marks and invisible characters of ``training``'s tokens and of
    ``text``, each drawn and named (:func:`bpeviz.text.display.mark_table`), for the step
    bar's views: they draw and name them as Python's renderers do."""
    found = _cached(training, "stage_marks")
    if found is None:
        found = _cache(training, "stage_marks", mark_table(
            raw_bytes(s).decode("utf-8", "ignore") for s in training.vocab))
    return {**found, **mark_table([text])} if text else found


def stage_numbers(training: Training) -> dict[str, list[int]]:
    """The vocabulary's size and the corpus's tokens at every step (step 0 first), for
    the numbers beside the card, drawn in the browser at the bar's step. Two integers a
    step: about 1 MB of JSON at 50,000 merges. Built once per training.

    >>> from bpeviz import Corpus, train
    >>> numbers = stage_numbers(train(Corpus.from_text("low lower lowest"), merges=2))
    >>> numbers["tokens"]  # l o w, l o w e r, l o w e s t; then lo, low
    [14, 11, 8]
    """
    found = _cached(training, "stage_numbers")
    if found is None:
        steps = range(len(training.merges) + 1)
        found = _cache(training, "stage_numbers", {
            "vocab": [int(training.vocab_size_at(k)) for k in steps],
            "tokens": [int(c) for c in training.token_counts()[:len(steps)]]})
    return found


def changed_words_per_step(training: Training) -> list[int]:
    """How many corpus words each step's merge changed (step 0 first: none), for the word
    list's count drawn by the browser at the bar's step. Built once per training.

    >>> from bpeviz import Corpus, train
    >>> changed_words_per_step(train(Corpus.from_text("low lower newest"), merges=3))
    [0, 2, 2, 1]
    """
    found = _cached(training, "changed_words")
    if found is None:
        log = training._log
        made = log.step > 0
        n_words = max(int(log.n_words), 1)
        # one (step, word) per word a merge changed, however many nodes it made there
        keys = np.unique(log.step[made].astype(np.int64) * n_words + log.word[made])
        counts = np.bincount(keys // n_words, minlength=len(training.merges) + 1)
        found = _cache(training, "changed_words", [int(c) for c in counts])
    return found


# -- words ----------------------------------------------------------------------------


NEVER = "count 0: this merge never happens in your corpus"


def stage_merges(training: Training, byte_style: str = "gpt2") -> dict[str, Any]:
    """Every merge and the label of every token, compact (columns of ids, and only the
    labels that cannot be rebuilt from the merges): the merge card of any step, drawn in
    the browser, which rebuilds the rows as :func:`expand_stage_merges` does. At 50,000
    byte-level merges this is about a third of the row form's 3.8 MB. Built once per
    training and byte style (treat it as read-only).

    ``{"mergeCols": {"left", "right", "token", "count" | "text"}, "labels": {"base":
    [[label, hex], ...] for the tokens no merge makes, "extra": {id: [label, hex]} for
    merged tokens whose label is not left + right}, "notes": [the chips' notes],
    "noteOf": [index into notes, or -1, per token]}``; ``text`` (WordPiece: "score 0.25 ·
    count 12") replaces ``count`` when the card shows more than a count.
    """
    key = ("stage_merges", byte_style)
    found = _cached(training, key)
    if found is None:
        merges = training.merges
        columns: dict[str, list[Any]] = {
            "left": [m.left_id for m in merges], "right": [m.right_id for m in merges],
            "token": [m.token_id for m in merges]}
        if get_algorithm(training.algorithm).value_name() == "score":  # as the card shows it
            columns["text"] = [f"score {m.score:.4g} · count {m.count:,}" if m.count else NEVER
                               for m in merges]
        elif any(m.count == 0 for m in merges):  # replayed on another corpus
            columns["text"] = [f"count {m.count:,}" if m.count else NEVER for m in merges]
        else:
            columns["count"] = [m.count for m in merges]
        labels = token_labels(training, None, byte_style)
        rows = [list(v) for v in labels.values()]
        notes = chip_notes(training, rows, byte_style)  # (appends a note's index to rows)
        made: dict[int, tuple[int, int]] = {}
        for m in merges:
            made.setdefault(m.token_id, (m.left_id, m.right_id))
        base, extra = [], {}
        for i, (shown, raw) in labels.items():
            if i not in made:
                if i != len(base):  # a token no merge makes, after merged ones
                    extra[str(i)] = [shown, raw]
                else:
                    base.append([shown, raw])
                continue
            left, right = (labels[j] for j in made[i])
            if (shown, raw) != (left[0] + right[0], f"{left[1]} {right[1]}".strip()):
                extra[str(i)] = [shown, raw]
        found = _cache(training, key, {
            "mergeCols": columns, "labels": {"base": base, "extra": extra}, "notes": notes,
            "noteOf": [row[2] if len(row) > 2 else -1 for row in rows],
            "marks": stage_marks(training)})
    return found


def expand_stage_merges(data: dict[str, Any]) -> dict[str, Any]:
    """The card data of :func:`stage_merges` as rows: ``merges`` ``[left id, right id,
    token id, "count 12"]`` and ``labels`` ``[label, hex]`` by id (what the browser
    rebuilds; the step component's ``expandCard`` (stepper/src/card.mjs) does the same)."""
    cols = data["mergeCols"]
    texts = cols.get("text") or [f"count {c:,}" for c in cols["count"]]
    merges = [list(row) for row in zip(cols["left"], cols["right"], cols["token"], texts)]
    labels: dict[int, list[str]] = dict(enumerate(data["labels"]["base"]))
    labels.update((int(i), row) for i, row in data["labels"]["extra"].items())
    for left, right, token, _ in merges:
        if token not in labels:
            a, b = labels[left], labels[right]
            labels[token] = [a[0] + b[0], f"{a[1]} {b[1]}".strip()]
    note_of = data.get("noteOf") or []
    rows = [labels[i][:2] + ([note_of[i]] if i < len(note_of) and note_of[i] >= 0 else [])
            for i in range(len(labels))]
    return {**{k: v for k, v in data.items() if k not in ("mergeCols", "labels", "noteOf")},
            "merges": merges, "labels": rows}


def stage_words(training: Training, rows: pd.DataFrame, byte_style: str = "gpt2",
                max_chars: int = 120) -> dict[str, Any]:
    """The words of ``rows`` (a slice of :func:`words_frame`, indexed by corpus word)
    with their whole split history (:meth:`bpeviz.core.training.SplitLog.history`):
    ``[index, word as shown, count, token ids, made at, merged at]`` each, and the labels
    of the tokens they use. Byte-level words whose tokens cut a character add, per
    token, the index in ``notes`` of the character it is part of (-1: none)."""

    # a training whose steps are not the merge loop's (PickyBPE's removals) gives each
    # word's history itself, in the split log's form
    history = getattr(training, "word_history", None) or training._log.history
    words, used, parts = [], set(), []
    alg, vocab = get_algorithm(training.algorithm), training.vocab
    for index, word, count in zip(rows.index.tolist(), rows["word"].tolist(),
                                  rows["count"].tolist()):
        tokens, made, merged = history(int(index))
        used.update(tokens)
        shown = visible(word[:max_chars]) + ("…" if len(word) > max_chars else "")
        words.append([int(index), shown, int(count), tokens, made, merged])
        # the nodes made at step 0 are the word's first symbols: when they may hold part
        # of a character (its bytes), every node's chip names the character it cuts
        if not word.isascii() and alg.byte_spans(
                word, [vocab[t] for t, m in zip(tokens, made) if m == 0]) is not None:
            parts.append((words[-1], history_part_notes(training.vocab, word, tokens, made)))
    labels = {str(i): list(v) for i, v in token_labels(training, used, byte_style).items()}
    notes = chip_notes(training, labels, byte_style)
    found: dict[str, int] = {}
    for row, texts in parts:
        row.append([found.setdefault(t, len(notes) + len(found)) if t else -1 for t in texts])
    return {"words": words, "labels": labels, "notes": notes + list(found),
            "marks": stage_marks(training)}


def chip_notes(training: Training, labels: Any, byte_style: str) -> list[str]:
    """What the marks of each labelled token mean (:func:`bpeviz.present.glossary.chip_note`),
    for the chips' titles in the browser: the distinct notes, and the index of its note
    appended to each noted token's label (``[label, hex, index]``), in place."""

    notes = ChipNotes(training, byte_style)
    texts: dict[str, int] = {}
    vocab = training.vocab
    for i, lab in (labels.items() if isinstance(labels, dict) else enumerate(labels)):
        note = notes(vocab[int(i)])
        if note:
            lab.append(texts.setdefault(note, len(texts)))
    return list(texts)
