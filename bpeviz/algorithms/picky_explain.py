"""Why a PickyBPE step did what it did, read from the words' splits around it.

A merge is explained as BPE's: the words behind the pair's count, the pairs it beat, and
a tie. A removal with its Intersection over Self: how many uses of the token were inside
the token just made, how many were left alone (and in which words), and the threshold.

The splits are the segmenter's (:meth:`PickyStep.splits`), which equal the trainer's
words at every step; so the words' counts add up to the event's counts.

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

from bpeviz.algorithms.picky import PICKY
from bpeviz.algorithms.picky_model import PickyEvent, PickyTraining
from bpeviz.algorithms.picky_train import _pairs

#: the special tokens' ids (never in a counted pair)
_SPECIAL = frozenset(range(len(PICKY.special_tokens)))


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
    before = training.at(step - 1)
    vocab = training.vocab
    ids = {w: before.encode_word(w) for w in training.words}
    if event.kind == "removal":
        alone = [(w, c, ids[w].count(event.token_id))
                 for w, c in zip(training.words, training.counts)
                 if event.token_id in ids[w]]
        return PickyWhy(event, _heaviest(alone))
    pair = (event.left_id, event.right_id)
    counts: Counter[tuple[int, int]] = Counter()
    holders = []
    for w, c in zip(training.words, training.counts):
        found = _pairs(ids[w], c)
        counts.update(found)
        if found.get(pair):
            holders.append((w, c, found[pair] // c))
    others = sorted(((n, p) for p, n in counts.items()
                     if p != pair and n <= event.count and n > 0
                     and not (set(p) & _SPECIAL)), key=lambda x: (-x[0], x[1]))
    restored = next((e.step for e in reversed(training.events[:step - 1])
                     if e.kind == "removal" and e.token_id == event.token_id), 0)
    return PickyWhy(event, _heaviest(holders),
                    tuple((vocab[a], vocab[b], n) for n, (a, b) in others[:rivals]),
                    sum(n == event.count for n, _ in others), restored)


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
