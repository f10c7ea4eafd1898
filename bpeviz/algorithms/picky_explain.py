"""Why a PickyBPE step did what it did, read from the words' splits around it.

A merge is explained as BPE's: the words behind the pair's count, the pairs it beat, and
a tie. A removal with its Intersection over Self: how many uses of the token were inside
the token just made, how many were left alone (and in which words), and the threshold.

The splits are the training's words at the step before (:meth:`PickyTraining.splits_at`,
equal to the segmenter's cut of each word); so the words' counts add up to the event's.

>>> from bpeviz.algorithms.picky_train import train_picky
>>> t = train_picky("hug hug hug hugs pug pug pun bun hugs hugs", merges=4, threshold=0.6)
>>> why = explain_step(t, 1)
>>> why.event.token, why.words[:2], why.rivals[0]
('ug', (('▁hug', 3, 1), ('▁hugs', 3, 1)), ('h', 'u', 6))
>>> why = explain_step(t, 3)
>>> why.event.kind, why.words  # "ug" was left alone only in "pug", twice
('removal', (('▁pug', 2, 1),))
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain, pairwise

import numpy as np

from bpeviz.algorithms.picky import PICKY
from bpeviz.algorithms.picky_model import PickyEvent, PickyTraining

#: the special tokens take the first ids (never in a counted pair)
_SPECIALS = len(PICKY.special_tokens)


@dataclass(frozen=True)
class PickyWhy:
    """Step ``event.step`` and what is behind it. ``words``: ``(word, count, times)``,
    most weight first: for a merge, the words holding the pair (``times`` in each copy);
    for a removal, the words where the token was still alone. ``rivals``: for a merge,
    the next pairs by count, ``(left, right, count)``; ``tied``: how many of them had the
    merged pair's count. ``restored``: the step that had removed the token a merge makes
    again (0: none)."""

    event: PickyEvent
    words: tuple[tuple[str, int, int], ...]
    rivals: tuple[tuple[str, str, int], ...] = ()
    tied: int = 0
    restored: int = 0


def explain_step(training: PickyTraining, step: int, rivals: int = 5) -> PickyWhy:
    """Why step ``step`` (1-based) happened; ValueError for step 0."""
    event = training.explain(step)
    vocab = training.vocab
    splits = training.splits_at(step - 1)
    if event.kind == "removal":
        alone = [(w, c, ids.count(event.token_id))
                 for w, c, ids in zip(training.words, training.counts, splits)
                 if event.token_id in ids]
        return PickyWhy(event, _heaviest(alone))
    pair = (event.left_id, event.right_id)
    counts, holders = _pair_counts(splits, training.counts, pair)
    holders_named = [(training.words[i], training.counts[i], times) for i, times in holders]
    a, b, n = counts[:, 0], counts[:, 1], counts[:, 2]
    keep = ((n > 0) & (n <= event.count) & ~((a == pair[0]) & (b == pair[1]))
            & (a >= _SPECIALS) & (b >= _SPECIALS))
    kept = counts[keep]
    tied = int((kept[:, 2] == event.count).sum())
    top = kept[np.lexsort((kept[:, 1], kept[:, 0], -kept[:, 2]))[:rivals]]
    restored = next((e.step for e in reversed(training.events[:step - 1])
                     if e.kind == "removal" and e.token_id == event.token_id), 0)
    return PickyWhy(event, _heaviest(holders_named),
                    tuple((vocab[x], vocab[y], c) for x, y, c in top.tolist()), tied, restored)


def _pair_counts(splits: list[tuple[int, ...]], counts: tuple[int, ...], pair: tuple[int, int]
                 ) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """Every pair's count in the words (``[left, right, count]`` rows; a run ``x x x``
    counts one ``(x, x)``, as the trainer counts), and the words holding ``pair`` with how
    often (``(word index, times)``). Counted with numpy: a 1 MB corpus's 19,000 words in
    a tenth of a second."""
    lengths = np.fromiter(map(len, splits), dtype=np.int64, count=len(splits))
    flat = np.fromiter(chain.from_iterable(splits), dtype=np.int64, count=int(lengths.sum()))
    word = np.repeat(np.arange(len(splits)), lengths)
    weight = np.repeat(np.asarray(counts, dtype=np.int64), lengths)
    inside = word[:-1] == word[1:]
    left, right, w, at = flat[:-1], flat[1:], weight[:-1], word[:-1]
    apart = inside & (left != right)
    rows = [np.stack([left[apart], right[apart], w[apart], at[apart]], axis=1)]
    # pairs of one token twice: a run x x x counts one (x, x), word by word
    same: Counter[tuple[int, int]] = Counter()
    for i in np.unique(at[inside & (left == right)]).tolist():
        prev = None
        ids = splits[i]
        for p in pairwise(ids):
            if p == prev:
                prev = None
                continue
            prev = p
            if p[0] == p[1]:
                same[p[0], i] += 1
    if same:
        rows.append(np.array([[t, t, counts[i] * n, i] for (t, i), n in same.items()],
                             dtype=np.int64))
    table = np.concatenate(rows) if rows else np.zeros((0, 4), dtype=np.int64)
    hit = table[(table[:, 0] == pair[0]) & (table[:, 1] == pair[1])]
    times = Counter()
    for i, n in zip(hit[:, 3].tolist(), hit[:, 2].tolist()):
        times[i] += n
    holders = [(i, n // counts[i]) for i, n in sorted(times.items())]
    span = int(table[:, :2].max()) + 1 if len(table) else 1
    keys, where = np.unique(table[:, 0] * span + table[:, 1], return_inverse=True)
    totals = np.bincount(where.ravel(), weights=table[:, 2], minlength=len(keys))
    return np.column_stack([keys // span, keys % span, totals.astype(np.int64)]), holders


def _heaviest(rows: list[tuple[str, int, int]]) -> tuple[tuple[str, int, int], ...]:
    """Rows by weight (count × times), the heaviest first, then in corpus order."""
    return tuple(sorted(rows, key=lambda r: -r[1] * r[2]))


def removal_headline(event: PickyEvent) -> str:
    """A removal in one line, for the card and the step bar.

    >>> removal_headline(PickyEvent(step=3, kind="removal", token="ing", token_id=9,
    ...                  count=3, inside=97, ios=0.97, threshold=0.9))
    '“ing” removed: it appears alone in 3% of its 100 uses, below the threshold (10%)'
    """
    total = event.inside + event.count
    alone = 1 - (event.ios or 0.0)
    return (f"“{event.token}” removed: it appears alone in {percent(alone)} of its "
            f"{total:,} uses, below the threshold ({percent(1 - (event.threshold or 0.0))})")


def percent(x: float) -> str:
    """A share as a percentage, to one decimal unless whole ("3%", "6.2%")."""
    text = f"{100 * x:.1f}"
    return (text[:-2] if text.endswith(".0") else text) + "%"


__all__ = ["PickyWhy", "explain_step", "percent", "removal_headline"]
