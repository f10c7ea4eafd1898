"""The merge loop in pure Python: the reference the compiled ``bpeviz.engine._merge`` follows.

Both take the same inputs and give identical merges, counts and merge forests (the engine
tests compare them), except the score: this loop calls the algorithm's ``score`` function
(any formula), the compiled one takes a code for a formula it computes itself
(:data:`bpeviz.engine.COMPILED_SCORES`). A worked example: "aaa" twice and "ab" once.

>>> import numpy as np
>>> state = PairState(np.array([0, 0, 0, 0, 1], dtype=np.int32), np.array([3, 2]),
...                   np.array([2, 1]), n_vocab=3, first_rule=True, score=None,
...                   min_frequency=0)
>>> state.pop_best()  # (a, a): 2 occurrences in each "aaa" (weight 2) = 4
(0, 0)
>>> state.merge(0, 0, 2, step=1)  # count, score, merge sites (one per "aaa")
(4, 4.0, 2)
>>> state.pop_best(), state.stop_reason()
((2, 0), 'no_pairs')
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from itertools import pairwise

import numpy as np

from bpeviz.engine.splitlog import NEVER


class PairState:
    """The merge loop's state in pure Python: the reference for ``bpeviz.engine._merge.State``.

    It keeps pair counts, an index from each pair to the words that may hold it (stale
    entries are skipped), a first-occurrence lower bound per pair (tie rule ``first``)
    and a heap with lazy deletion, so a merge only touches the words that hold its pair.
    Every merge site adds a node to the merge forest (see :class:`SplitLog`).

    Between equal priorities (and first occurrences, under the ``first`` rule) the pair
    with the smaller (left id, right id) wins; with ``spell`` (one key per initial
    token), the pair whose left token, then right token, spells the larger sequence of
    keys wins instead, a longer spelling beating its own prefix: Hugging Face's parity
    trainer's rule, whose keys are the tokens' GPT-2 characters.
    """

    def __init__(self, flat: np.ndarray, lengths: np.ndarray, counts: np.ndarray,
                 n_vocab: int, first_rule: bool,
                 score: Callable[[int, int, int], float] | None, min_frequency: int,
                 spell: Sequence[int] | None = None) -> None:
        symbols = flat.tolist()
        ends = np.cumsum(lengths).tolist()
        self.words: list[list[int]] = [symbols[e - n : e]
                                       for e, n in zip(ends, lengths.tolist())]
        self.counts: list[int] = counts.tolist()
        self.first_rule, self.min_freq = first_rule, min_frequency
        # the algorithm's score(pair count, left count, right count), or None: the count
        self.score = score
        self._by_score = score is not None
        self.filtered = False  # a pair was passed over for min_frequency
        self.stop = "no_pairs"
        # units[i]: how many initial symbols token i spans (offsets for the "first" rule)
        self.units: list[int] = [1] * n_vocab
        self.unit_count: list[int] = [0] * n_vocab
        # with spell: each token's tie key, its keys negated then 1 (smaller pops first)
        self.tie_keys: list[tuple[int, ...]] | None = (
            None if spell is None else [(-int(k), 1) for k in spell])
        if self.tie_keys is not None and len(self.tie_keys) != n_vocab:
            raise ValueError("spell needs one key per initial token")
        # the merge forest (see SplitLog): node i < len(flat) is initial symbol i; every
        # merge site adds a node, logged as (token, word, left child, right child), and
        # site_steps holds (step, number of sites) per merge. nodes[w][i] is the node of
        # words[w][i].
        self.initial = (flat, lengths)
        self.next_node = len(symbols)
        self.site_log: list[int] = []
        self.site_steps: list[tuple[int, int]] = []
        self.nodes: list[list[int]] = [list(range(e - n, e))
                                       for e, n in zip(ends, lengths.tolist())]
        self._count_pairs()

    def _count_pairs(self) -> None:
        pc: dict[tuple[int, int], int] = {}
        where: dict[tuple[int, int], set[int]] = {}
        first: dict[tuple[int, int], tuple[int, int]] = {}
        for w, word in enumerate(self.words):
            c = self.counts[w]
            for i, p in enumerate(pairwise(word)):
                if p in pc:
                    pc[p] += c
                    where[p].add(w)
                else:
                    pc[p] = c
                    where[p] = {w}
                    first[p] = (w, i)  # initial symbols are one unit each
        self.pc, self.where, self.first = pc, where, first
        if self._by_score:
            self.pairs_of: dict[int, set[tuple[int, int]]] = {}
            for w, word in enumerate(self.words):
                c = self.counts[w]
                for s in word:
                    self.unit_count[s] += c
            for p in pc:
                self.pairs_of.setdefault(p[0], set()).add(p)
                self.pairs_of.setdefault(p[1], set()).add(p)
        self.heap = [self._entry(p) for p in pc]
        heapq.heapify(self.heap)

    def _priority(self, p: tuple[int, int]) -> float:
        count = self.pc.get(p, 0)
        if self._by_score and count:
            return self.score(count, self.unit_count[p[0]], self.unit_count[p[1]])  # type: ignore[misc]
        return count

    def _entry(self, p: tuple[int, int]) -> tuple:
        keys = self.tie_keys
        tie = p if keys is None else (keys[p[0]], keys[p[1]])
        if self.first_rule:
            return (-self._priority(p), self.first[p], tie, p)
        return (-self._priority(p), tie, p)

    # -- choosing -----------------------------------------------------------------
    def _true_first(self, p: tuple[int, int], bound: tuple[int, int]) -> tuple[int, int]:
        """The first occurrence of ``p``, given a lower ``bound`` (often exact)."""
        a, b = p
        units = self.units
        w, target = bound
        word, off = self.words[w], 0
        for i in range(len(word) - 1):  # cheap check: is the bound itself an occurrence?
            if off == target:
                if word[i] == a and word[i + 1] == b:
                    return bound
                break
            off += units[word[i]]
        for w in sorted(self.where.get(p, ())):
            word = self.words[w]
            off = 0
            for i in range(len(word) - 1):
                if word[i] == a and word[i + 1] == b:
                    return (w, off)
                off += units[word[i]]
        raise AssertionError(f"pair {p} has a count but no occurrence")

    def pop_best(self) -> tuple[int, int] | None:
        """The pair to merge next, or None (and :meth:`stop_reason` says why)."""
        heap, min_freq = self.heap, self.min_freq
        while heap:
            entry = heap[0]
            p = entry[-1]
            if p not in self.pc:
                heapq.heappop(heap)  # merged away, or its last occurrence is gone
                continue
            fresh = self._entry(p)
            if fresh != entry:  # its count fell (or bound moved) since this entry was made
                heapq.heapreplace(heap, fresh)
                continue
            count = self.pc[p]
            if self.first_rule:
                true = self._true_first(p, entry[1])
                if true != entry[1]:  # the stored occurrence was only a lower bound
                    self.first[p] = true
                    heapq.heapreplace(heap, (entry[0], true, *entry[2:]))
                    continue
            if count < min_freq:
                if not self._by_score:  # counts come out in order: nothing better is left
                    self.stop = "min_frequency"
                    return None
                heapq.heappop(heap)  # its count may not rise again, but a new entry would
                self.filtered = True
                continue
            heapq.heappop(heap)
            return p
        self.stop = "min_frequency" if self.filtered else "no_pairs"
        return None

    def stop_reason(self) -> str:
        return self.stop

    # -- merging ------------------------------------------------------------------
    def merge(self, a: int, b: int, t: int, step: int) -> tuple[int, float, int]:
        """Merge (a, b) into token t (``t == len(vocab)`` for a new one) at ``step``.

        Returns the pair's count and score before the merge and the occurrences replaced.
        """
        p = (a, b)
        count = self.pc.get(p, 0)
        score = float(self._priority(p)) if count else 0.0
        if t == len(self.units):
            self.units.append(self.units[a] + self.units[b])
            self.unit_count.append(0)
            if self.tie_keys is not None:
                self.tie_keys.append(self.tie_keys[a][:-1] + self.tie_keys[b])
        # pairs whose count rose need a fresh heap entry; a count that fell is found
        # stale when popped and pushed again then (BPE counts of a pair never rise,
        # unless through a token that already existed, which lands here too)
        grown: set[tuple[int, int]] = set()
        dropped: set[tuple[int, int]] = set()
        replaced = self._merge_words(a, b, t, step, grown, dropped)
        if self._by_score:  # scores rise when a unit count falls: every pair of a, b, t moves
            uc = self.unit_count
            uc[a] -= replaced
            uc[b] -= replaced
            uc[t] += replaced
            pairs_of, pc = self.pairs_of, self.pc
            for q in grown:
                pairs_of.setdefault(q[0], set()).add(q)
                pairs_of.setdefault(q[1], set()).add(q)
            for s in {a, b, t}:
                live = {q for q in pairs_of.get(s, ()) if q in pc}
                pairs_of[s] = live
                grown |= live
            grown |= dropped
        heap, pc, entry = self.heap, self.pc, self._entry
        for q in grown:
            if q in pc:
                heapq.heappush(heap, entry(q))
        return count, score, replaced

    def replay(self, a: Sequence[int], b: Sequence[int],
               t: Sequence[int]) -> tuple[list[int], list[float], list[int]]:
        """Merges 1..n, (a[k], b[k]) into t[k], one by one: each merge's count, score and
        occurrences replaced, as lists (the compiled engine makes them all at once)."""
        out = [self.merge(x, y, z, k) for k, (x, y, z) in
               enumerate(zip(np.asarray(a).tolist(), np.asarray(b).tolist(),
                             np.asarray(t).tolist()), 1)]
        return [o[0] for o in out], [o[1] for o in out], [o[2] for o in out]

    def _merge_words(self, a: int, b: int, t: int, step: int,
                     grown: set[tuple[int, int]], dropped: set[tuple[int, int]]) -> int:
        """Merge (a, b) into t in every word that holds it, leftmost first.

        Updates pair counts, the pair index and the first-occurrence bounds, logs the new
        splits, and returns the number of occurrences replaced, weighted by word counts.
        """
        words, counts, pc, where, first = self.words, self.counts, self.pc, self.where, self.first
        track_first, units = self.first_rule, self.units
        nodes_of, log_site, node_id = self.nodes, self.site_log.extend, self.next_node
        replaced = 0
        for w in self.where.pop((a, b), ()):
            word = words[w]
            n = len(word)
            c = counts[w]
            nodes = nodes_of[w]  # edited in place: site k sits at position j - k there
            new: list[int] = []
            i = 0
            off = 0  # unit offset of word[i] ("first" rule only)
            sites = 0
            while i < n - 1:
                try:
                    j = word.index(a, i, n - 1)
                except ValueError:
                    break
                if word[j + 1] != b:
                    if track_first:
                        off += sum([units[s] for s in word[i : j + 1]])
                    new.extend(word[i : j + 1])
                    i = j + 1
                    continue
                if track_first:
                    off += sum([units[s] for s in word[i:j]])
                new.extend(word[i:j])
                if j:  # the left neighbour x: (x, a) -> (x', t)
                    q = (word[j - 1], a)
                    left = pc[q] - c
                    if left:
                        pc[q] = left
                        dropped.add(q)
                    else:
                        del pc[q]
                    q = (new[-1], t)
                    pc[q] = pc.get(q, 0) + c
                    grown.add(q)
                    ws = where.get(q)
                    if ws is None:
                        where[q] = {w}
                    else:
                        ws.add(w)
                    if track_first:
                        occ = (w, off - units[new[-1]])
                        if q not in first or occ < first[q]:
                            first[q] = occ
                if j + 2 < n:  # the right neighbour y: (b, y) -> (t, y)
                    y = word[j + 2]
                    if not (y == a and j + 3 < n and word[j + 3] == b):
                        q = (b, y)
                        left = pc[q] - c
                        if left:
                            pc[q] = left
                            dropped.add(q)
                        else:
                            del pc[q]
                        q = (t, y)
                        pc[q] = pc.get(q, 0) + c
                        grown.add(q)
                        ws = where.get(q)
                        if ws is None:
                            where[q] = {w}
                        else:
                            ws.add(w)
                        if track_first:
                            occ = (w, off)
                            if q not in first or occ < first[q]:
                                first[q] = occ
                    # else: the next site's left-neighbour step turns (b, a) into (t, t)
                q = (a, b)
                left = pc[q] - c
                if left:
                    pc[q] = left
                else:
                    del pc[q]
                new.append(t)
                # the forest: a new node over the two
                k = j - sites
                log_site((t, w, nodes[k], nodes[k + 1]))
                nodes[k : k + 2] = (node_id,)
                node_id += 1
                if track_first:
                    off += units[a] + units[b]
                sites += 1
                i = j + 2
            if not sites:
                continue  # a stale index entry: this word no longer holds the pair
            new.extend(word[i:])
            words[w] = new
            replaced += sites * c
        self.site_steps.append((step, node_id - self.next_node))
        self.next_node = node_id
        return replaced

    def forest(self) -> tuple[np.ndarray, ...]:
        """The merge forest as int32 arrays (token, word, step, until), one item per node,
        sorted by word, position and step (see :class:`SplitLog`)."""
        flat, lengths = self.initial
        n_initial = len(flat)
        sites = np.array(self.site_log, dtype=np.int64).reshape(-1, 4)
        steps, per_step = (np.array(self.site_steps, dtype=np.int64).reshape(-1, 2).T
                           if self.site_steps else (np.zeros(0, np.int64),) * 2)
        site_step = np.repeat(steps, per_step)
        token = np.concatenate([flat, sites[:, 0]])
        word = np.concatenate([np.repeat(np.arange(len(lengths)), lengths), sites[:, 1]])
        step = np.concatenate([np.zeros(n_initial, dtype=np.int64), site_step])
        until = np.full(len(token), NEVER, dtype=np.int64)
        until[sites[:, 2]] = site_step  # both children end where their parent begins
        until[sites[:, 3]] = site_step
        # a node starts where its leftmost initial symbol does: follow left children
        start = np.arange(len(token), dtype=np.int64)
        start[n_initial:] = sites[:, 2]
        while True:
            deeper = start[start]
            if np.array_equal(deeper, start):
                break
            start = deeper
        # one (position, step) per node; a word's positions come after the word before's
        order = np.argsort(start << 32 | step)
        return tuple(x[order].astype(np.int32) for x in (token, word, step, until))


_PairState = PairState  # the name it had in bpeviz.core.training
