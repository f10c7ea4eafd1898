"""Vocabulary health of a PickyBPE step, the same four tables as a merge training's
(:func:`bpeviz.analysis.health.health` and :func:`~bpeviz.analysis.health.unused_by_step`
read it through the record's ``health``).

- ``unreachable``: tokens in the vocabulary that encoding their own text, the training's
  events replayed on its characters, no longer yields, most often because a removal took
  away one of the parts that made them (a part made again later makes them reachable
  again);
- ``unused``: merged tokens in the vocabulary that no word of the corpus cut at the step
  holds: the absorbed tokens PickyBPE's removals have not taken away (yet);
- ``near_duplicates``: as for merge trainings (case, ``▁``, NFKC);
- ``partial``: always empty: PickyBPE's tokens are whole characters.

>>> import bpeviz
>>> t = bpeviz.train("the The the The then hen the The", algorithm="picky", merges=6)
>>> [e.token for e in t.events if e.kind == "removal"]
['the', 'The', 'he']
>>> h = t.at(len(t.events)).health()
>>> h.near_duplicates[["token", "reason"]].values.tolist()
[['▁the', '1 near-duplicate: `▁The`'], ['▁The', 'the same as `▁the` but for case']]
>>> h.summary[0]
'unreachable: 0 tokens (0.0% of 13): encoding their own text never yields them'
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pandas as pd

from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis.health import Health, _frame, near_duplicates, word_marks
from bpeviz.text import display


def _uses(step: Any, corpus: Any) -> tuple[Counter[int], str]:
    """How often each id is used: by the training's words cut at the step, or by a text
    (or a Corpus's words) encoded at the step."""
    training, k = step.training, step.step
    uses: Counter[int] = Counter()
    if corpus is None:
        for ids, count in zip(training.splits_at(k), training.counts):
            for t in ids:
                uses[t] += count
        return uses, "the training's corpus"
    if isinstance(corpus, str):
        for token in step.encode(corpus):
            uses[token.id] += 1
    else:
        for word, count in zip(corpus.words, corpus.counts):
            for t in step.encode_word("\u2581" + word):
                uses[t] += count
    return uses, "the given corpus"


def unreachable(step: Any) -> pd.DataFrame:
    """The merged tokens in the vocabulary at the step that encoding their own text does
    not yield, each with why (a removed part, or the cut it gets instead)."""
    training, k = step.training, step.step
    vocab = training.vocab
    made: dict[int, Any] = {}
    removed: dict[int, int] = {}
    for e in training.events[:k]:
        if e.kind == "merge":
            made[e.token_id] = e  # the last merge that made it
        else:
            removed[e.token_id] = e.step
    present = step.present
    rows = []
    for i in sorted(present):
        if i < training.n_base or i not in made:
            continue
        cut = step.encode_word(vocab[i], whole=False)
        if cut == [i]:
            continue
        e = made[i]
        gone = [(vocab[p], removed[p]) for p in (e.left_id, e.right_id)
                if p not in present and p in removed]
        parts = " ".join(f"“{display.visible(vocab[t])}”" for t in cut)
        why = f"“{e.left}” + “{e.right}” made it at step {e.step}"
        why += (", and " + " and ".join(f"“{display.visible(p)}” was removed at step {s}"
                                        for p, s in gone) if gone else "")
        rows.append((i, vocab[i], f"{why}: its own text now encodes as {parts}"))
    return _frame(rows)


def unused(step: Any, corpus: Any = None) -> tuple[pd.DataFrame, str]:
    """The merged tokens in the vocabulary at the step that the corpus never uses."""
    training, k = step.training, step.step
    uses, label = _uses(step, corpus)
    made: dict[int, int] = {}
    for e in training.events[:k]:
        if e.kind == "merge":
            made.setdefault(e.token_id, e.step)
    rows, steps = [], []
    for i in sorted(step.present):
        if i < training.n_base or uses[i]:
            continue
        rows.append((i, training.vocab[i],
                     f"made at step {made.get(i, 0)}, then every use became part of longer "
                     "tokens, and no removal has taken it away"))
        steps.append(made.get(i, 0))
    return _frame(rows, made_at=steps), label


def unused_by_step(training: Any, corpus: Any = None) -> pd.Series:
    """How many merged tokens in the vocabulary no word of the training's corpus uses,
    after every step (step 0 first), from each word's splits as the events change them
    (a token is used from the step a word's split takes it to the step it leaves)."""
    if corpus is not None:
        raise ValueError("PickyBPE counts its unused tokens on its own corpus only")
    n, n_base = len(training.events), training.n_base
    found_steps, found = training.split_changes()
    spans: dict[int, list[tuple[int, int]]] = {}
    for steps, splits in zip(found_steps, found):
        ends = [*steps[1:], n + 1]
        for start, end, split in zip(steps, ends, splits):
            for t in set(split):
                if t >= n_base:
                    spans.setdefault(t, []).append((start, end))
    used = [0] * (n + 2)
    for intervals in spans.values():  # one +1 / -1 per stretch of use (overlaps joined)
        intervals.sort()
        lo, hi = intervals[0]
        for a, b in intervals[1:]:
            if a > hi:
                used[lo] += 1
                used[hi] -= 1
                lo, hi = a, b
            else:
                hi = max(hi, b)
        used[lo] += 1
        used[hi] -= 1
    live, counts, merged = 0, [], set()
    for k in range(n + 1):
        if k:  # the merged tokens present after step k
            e = training.events[k - 1]
            (merged.add if e.kind == "merge" else merged.discard)(e.token_id)
        live += used[k]
        counts.append(len(merged) - live)
    return pd.Series(counts, name="unused", dtype="int64").rename_axis("step")


def health(step: Any, corpus: Any = None) -> Any:
    """The :class:`~bpeviz.analysis.health.Health` of a PickyBPE step (``training.at(k)``)."""
    training = step.training
    vocab = training.vocab
    alg = get_algorithm(training.algorithm)
    specials = set(range(len(alg.special_tokens)))
    present = sorted(step.present)
    size = len(present)
    far = unreachable(step)
    idle, label = unused(step, corpus)
    near = near_duplicates([(i, vocab[i], vocab[i])
                            for i in present if i not in specials],
                           word_marks(alg, None), lambda i: i < training.n_base)
    partial = _frame([])

    def share(n: int) -> str:
        return f"{n:,} token{'' if n == 1 else 's'} ({100 * n / max(size, 1):.1f}% of {size:,})"

    groups = near["group"].nunique() if len(near) else 0
    summary = [
        f"unreachable: {share(len(far))}: encoding their own text never yields them",
        f"unused: {share(len(idle))} of the merged tokens are never produced on {label}",
        f"near-duplicates: {share(len(near))} in {groups:,} group"
        f"{'' if groups == 1 else 's'}: they differ only by case, a word mark or NFKC",
        "partial characters: none: PickyBPE's tokens are whole characters"]
    return Health(step.step, size, far, idle, near, partial, summary, label)


__all__ = ["health", "unreachable", "unused", "unused_by_step"]
