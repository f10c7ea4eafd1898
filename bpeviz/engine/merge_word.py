"""Encoding one word with a merge list, in Python: the twin of ``_merge.c``'s ``Ranks.merge``.

Both apply, again and again, the leftmost occurrence of the lowest-ranked pair, as
tiktoken and Hugging Face do; ``tests/engine/test_compiled_engine_matches_python.py``
compares them.

>>> ranks = {(0, 1): (1, 3), (3, 2): (2, 4)}  # a+b -> ab (rank 1), ab+c -> abc (rank 2)
>>> merge_word([0, 1, 2, 0], [0, 1, 2, 3], [1, 2, 3, 4], ranks)  # "abca"
([4, 0], [0, 3], [3, 4])
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence

#: (left id, right id) -> (rank, merged id)
_Ranks = dict[tuple[int, int], tuple[int, int]]
#: words this long (in symbols) or longer merge with a heap instead of rescanning
_HEAP_FROM = 48


def replace_pair(word: Sequence[int], a: int, b: int, t: int) -> list[int]:
    """``word`` with every occurrence of the pair ``a b`` replaced by ``t``, leftmost
    first and never overlapping (one merge of a training, applied to one word).

    >>> replace_pair([1, 1, 1, 2], 1, 1, 9)
    [9, 1, 2]
    """
    new: list[int] = []
    i, n = 0, len(word)
    while i < n:
        if i + 1 < n and word[i] == a and word[i + 1] == b:
            new.append(t)
            i += 2
        else:
            new.append(word[i])
            i += 1
    return new


def merge_word(
    ids: list[int], starts: list[int], ends: list[int], ranks: _Ranks
) -> tuple[list[int], list[int], list[int]]:
    """Merge a word's symbols: always the leftmost occurrence of the lowest-ranked pair.

    ``ranks`` maps ``(left id, right id)`` to ``(rank, merged id)``; ``starts``/``ends``
    are each symbol's span, and a merged symbol spans both. Ids below 0 (unknown
    symbols) never merge.

    >>> merge_word([1, 2, 3], [0, 1, 2], [1, 2, 3], {(1, 2): (1, 4), (4, 3): (2, 5)})
    ([5], [0], [3])
    """
    if len(ids) >= _HEAP_FROM:
        return _merge_with_heap(ids, starts, ends, ranks)
    ids, starts, ends = list(ids), list(starts), list(ends)
    get = ranks.get
    while len(ids) > 1:
        best = None
        at = 0
        for i in range(len(ids) - 1):
            found = get((ids[i], ids[i + 1]))
            if found is not None and (best is None or found[0] < best[0]):
                best, at = found, i
        if best is None:
            break
        ids[at : at + 2] = [best[1]]
        ends[at] = ends[at + 1]
        del starts[at + 1], ends[at + 1]
    return ids, starts, ends


def _merge_with_heap(
    ids: list[int], starts: list[int], ends: list[int], ranks: _Ranks
) -> tuple[list[int], list[int], list[int]]:
    """:func:`merge_word` for long words: a heap of (rank, position), as HF's BPE does."""
    n = len(ids)
    ids, ends = list(ids), list(ends)
    nxt = list(range(1, n + 1))
    prev = list(range(-1, n - 1))
    alive = [True] * n
    get = ranks.get
    heap = []
    for i in range(n - 1):
        found = get((ids[i], ids[i + 1]))
        if found is not None:
            heap.append((found[0], i, found[1]))
    heapq.heapify(heap)
    while heap:
        rank, i, token = heapq.heappop(heap)
        j = nxt[i]
        if not alive[i] or j >= n or get((ids[i], ids[j])) != (rank, token):
            continue  # stale: one of the two symbols has changed since
        ids[i] = token
        ends[i] = ends[j]
        alive[j] = False
        nxt[i] = nxt[j]
        if nxt[j] < n:
            prev[nxt[j]] = i
        p, q = prev[i], nxt[i]
        if p >= 0 and (found := get((ids[p], ids[i]))) is not None:
            heapq.heappush(heap, (found[0], p, found[1]))
        if q < n and (found := get((ids[i], ids[q]))) is not None:
            heapq.heappush(heap, (found[0], i, found[1]))
    keep = [i for i in range(n) if alive[i]]
    return [ids[i] for i in keep], [starts[i] for i in keep], [ends[i] for i in keep]
