"""The lattices of many words at once, in numpy: the trainer's inner loops.

Every word is laid out on one line of global positions (word ``w`` occupies
``start[w] .. start[w] + len(w)``); a node is a piece occurrence ``(s, e, piece)`` on
that line. The lattice algorithms of :mod:`bpeviz.unigram.lattice` then run for all
words together, one batch per local end (or local start) position, so that Python only
loops over word lengths, never over words.

The same loops are compiled in ``_lattice.c`` (:func:`compiled_lattice`), walking each
word directly; this NumPy code is the reference they are tested against, step for step,
and what runs where the extension is not built or ``BPEVIZ_ENGINE=python``.

Piece indices are indices into the trainer's seed list; ``alive`` says which are in the
current vocabulary. An unknown node (no live one-character piece at a position) gets
the index ``unk_index`` (SentencePiece's trainer counts it for the piece at id 0).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from functools import cached_property

import numpy as np

try:  # the same loops in C (_lattice.c), built by `python setup.py build_ext --inplace`
    import bpeviz.unigram._lattice as _compiled
except ImportError:  # not built: the NumPy code below gives the same results, slower
    _compiled = None


def compiled_lattice():
    """The compiled loops (``bpeviz.unigram._lattice``), or None where they are not built or
    ``BPEVIZ_ENGINE=python`` asks for the reference code (as for the merge loop)."""
    return None if os.environ.get("BPEVIZ_ENGINE") == "python" else _compiled


def _libm(fn, values: np.ndarray) -> np.ndarray:
    """``fn`` (a :mod:`math` function: libm's, as sentencepiece calls it) of each float64
    of ``values``; NumPy's own exp and log can differ from libm's in the last bit."""
    return np.fromiter(map(fn, values.tolist()), dtype=np.float64, count=len(values))


def _int64(buffer: bytearray) -> np.ndarray:
    return np.frombuffer(buffer, dtype=np.int64)


class Batch:
    """Every occurrence of every seed piece in ``words``."""

    def __init__(self, words: Sequence[str], index: Mapping[str, int], max_len: int) -> None:
        lengths = np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words))
        self.n_words = len(words)
        self.word_start = np.zeros(len(words), dtype=np.int64)
        if len(words):
            self.word_start[1:] = np.cumsum(lengths + 1)[:-1]
        self.word_end = self.word_start + lengths
        self.size = int(self.word_end[-1]) + 1 if len(words) else 0
        self.compiled = compiled_lattice()
        if self.compiled is not None:
            occ = self.compiled.occurrences(list(words), list(index), list(index.values()),
                                            max_len)
            self.occ_s, self.occ_e, self.occ_p, char_piece = map(_int64, occ)
        else:
            self._occurrences(words, index, max_len)
            char_piece = self.char_piece
        self.char_piece = char_piece

    # what only the NumPy loops read, made when first read (the compiled ones never do)
    @cached_property
    def word_of_pos(self) -> np.ndarray:
        return np.repeat(np.arange(self.n_words), self.word_end - self.word_start + 1)

    @cached_property
    def occ_w(self) -> np.ndarray:
        if not len(self.occ_s):
            return np.zeros(0, dtype=np.int64)
        return self.word_of_pos[self.occ_s]

    @cached_property
    def char_pos(self) -> np.ndarray:
        is_char = np.ones(self.size, dtype=bool)
        is_char[self.word_end] = False
        return np.nonzero(is_char)[0]

    def _occurrences(self, words: Sequence[str], index: Mapping[str, int], max_len: int) -> None:
        prefixes = {p[:k] for p in index for k in range(1, len(p) + 1)}
        occ_s: list[int] = []
        occ_e: list[int] = []
        occ_p: list[int] = []
        char_piece = np.full(max(self.size, 1), -1, dtype=np.int64)
        for w, word in enumerate(words):
            base = int(self.word_start[w])
            n = len(word)
            for i in range(n):
                ci = index.get(word[i])
                if ci is not None:
                    char_piece[base + i] = ci
                for j in range(i + 1, min(n, i + max_len) + 1):
                    sub = word[i:j]
                    if sub not in prefixes:
                        break
                    pi = index.get(sub)
                    if pi is not None:
                        occ_s.append(base + i)
                        occ_e.append(base + j)
                        occ_p.append(pi)
        self.occ_s = np.array(occ_s, dtype=np.int64)
        self.occ_e = np.array(occ_e, dtype=np.int64)
        self.occ_p = np.array(occ_p, dtype=np.int64)
        self.char_piece = char_piece

    def _arrays(self, alive: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, ...]:
        """What the compiled loops read: the batch and the current vocabulary."""
        return (self.occ_s, self.occ_e, self.occ_p, self.char_piece, self.word_start,
                self.word_end, np.ascontiguousarray(alive, dtype=bool),
                np.ascontiguousarray(scores, dtype=np.float32))

    # -- nodes of the current vocabulary -------------------------------------------
    def nodes(self, alive: np.ndarray, scores: np.ndarray, unk_index: int, unk_score: float,
              skip_whole: bool = False):
        """``(s, e, piece, score)`` arrays of the live lattice, unknown nodes included."""
        return self._nodes(alive, scores, unk_index, unk_score, skip_whole)[:4]

    def _nodes(self, alive, scores, unk_index, unk_score, skip_whole=False):
        """:meth:`nodes`, and how many unknown nodes there are (the last ones)."""
        keep = alive[self.occ_p]
        if skip_whole:
            keep &= ~((self.occ_s == self.word_start[self.occ_w])
                      & (self.occ_e == self.word_end[self.occ_w]))
        s, e, p = self.occ_s[keep], self.occ_e[keep], self.occ_p[keep]
        cp = self.char_piece[self.char_pos]
        unk_pos = self.char_pos[(cp < 0) | ~alive[np.maximum(cp, 0)]]
        if len(unk_pos):
            s = np.concatenate([s, unk_pos])
            e = np.concatenate([e, unk_pos + 1])
            p = np.concatenate([p, np.full(len(unk_pos), -1, dtype=np.int64)])
        sc = np.where(p >= 0, scores[np.maximum(p, 0)], unk_score)
        p = np.where(p >= 0, p, unk_index)
        return s, e, p, sc, len(unk_pos)

    # -- Viterbi ---------------------------------------------------------------------
    def viterbi(self, alive, scores, unk_index, unk_score, skip_whole=False):
        """Best paths: ``(word, piece, start, end)`` arrays in path order, and scores.

        Float32 sums; among equal sums the last piece that starts earliest wins.
        A word with no path (``skip_whole`` on one character) has score ``-inf``.
        """
        if self.compiled is not None:
            pw, pp, ps, pe, best = self.compiled.viterbi(self._arrays(alive, scores),
                                                         int(unk_index), float(unk_score),
                                                         bool(skip_whole))
            return (*map(_int64, (pw, pp, ps, pe)), np.frombuffer(best, dtype=np.float64))
        s, e, p, sc = self.nodes(alive, scores, unk_index, unk_score, skip_whole)
        sc = sc.astype(np.float32)
        w = self.word_of_pos[s]
        local_end = e - self.word_start[w]
        order = np.argsort(local_end, kind="stable")
        s, e, p, sc, local_end = s[order], e[order], p[order], sc[order], local_end[order]
        bounds = np.searchsorted(local_end, np.arange(local_end[-1] + 2 if len(local_end) else 1))
        best = np.full(max(self.size, 1), -np.inf, dtype=np.float32)
        best[self.word_start] = 0
        back_s = np.full(max(self.size, 1), -1, dtype=np.int64)
        back_p = np.full(max(self.size, 1), -1, dtype=np.int64)
        for length in range(1, len(bounds) - 1):
            lo, hi = bounds[length], bounds[length + 1]
            if lo == hi:
                continue
            bs, be, bp = s[lo:hi], e[lo:hi], p[lo:hi]
            cand = best[bs] + sc[lo:hi]
            ok = cand > -np.inf
            if not ok.all():
                bs, be, bp, cand = bs[ok], be[ok], bp[ok], cand[ok]
            if not len(bs):
                continue
            pick = np.lexsort((bs, -cand, be))
            be_sorted = be[pick]
            first = np.ones(len(pick), dtype=bool)
            first[1:] = be_sorted[1:] != be_sorted[:-1]
            chosen = pick[first]
            best[be[chosen]] = cand[chosen]
            back_s[be[chosen]] = bs[chosen]
            back_p[be[chosen]] = bp[chosen]
        scores_out = best[self.word_end].astype(np.float64)
        # backtrack all words together
        words_l, pieces_l, starts_l, ends_l = [], [], [], []
        cur = self.word_end.copy()
        wid = np.arange(self.n_words)
        active = (cur > self.word_start) & (back_s[cur] >= 0)
        while active.any():
            c = cur[active]
            words_l.append(wid[active])
            pieces_l.append(back_p[c])
            starts_l.append(back_s[c])
            ends_l.append(c)
            cur[active] = back_s[c]
            # (back_s checked again: a word with no path must not join in later rounds)
            active = (cur > self.word_start) & (back_s[cur] >= 0)
        if not words_l:
            empty = np.zeros(0, dtype=np.int64)
            return empty, empty, empty, empty, scores_out
        pw = np.concatenate(words_l)
        pp = np.concatenate(pieces_l)
        ps = np.concatenate(starts_l)
        pe = np.concatenate(ends_l)
        order = np.lexsort((ps, pw))
        return pw[order], pp[order], ps[order], pe[order], scores_out

    # -- forward-backward ------------------------------------------------------------
    def expected_counts(self, alive, scores, unk_index, unk_score, counts, n_pieces,
                        threads: int = 1):
        """Expected count of every piece (word count x marginal) and log Z per word.

        Computed in float32 in SentencePiece's order (its ``LogSumExp`` over the nodes
        in lattice order, sums per thread over the words ``i % threads``, then merged),
        with libm's exp and log1p, so that the counts are sentencepiece's to the bit.
        Lattice order: by start, then by end, a position's unknown node after the pieces
        that start there (PopulateNodes inserts it last).
        """
        if self.compiled is not None and len(alive) == n_pieces:
            expected, logz = self.compiled.expected(
                self._arrays(alive, scores), int(unk_index), float(unk_score),
                np.ascontiguousarray(counts, dtype=np.float64), int(threads))
            return (np.frombuffer(expected, dtype=np.float64).copy(),
                    np.frombuffer(logz, dtype=np.float64).copy())
        s, e, p, sc, n_unknown = self._nodes(alive, scores, unk_index, unk_score)
        sc = sc.astype(np.float32)
        w = self.word_of_pos[s]
        alpha = np.full(max(self.size, 1), -np.inf, dtype=np.float32)
        alpha[self.word_start] = 0.0
        beta = np.full(max(self.size, 1), -np.inf, dtype=np.float32)
        beta[self.word_end] = 0.0
        unk = np.zeros(len(s), dtype=bool)
        unk[len(s) - n_unknown:] = True
        _sweep(alpha, s, e, sc, e - self.word_start[w], unk, forward=True)
        _sweep(beta, s, e, sc, self.word_end[w] - s, unk, forward=False)
        logz = alpha[self.word_end]
        m = ((alpha[s] + sc) + beta[e]) - logz[w]
        contrib = (counts[w].astype(np.float32).astype(np.float64)
                   * _libm(math.exp, m.astype(np.float64)))
        order = np.lexsort((e, unk, s))
        idx = order[p[order] >= 0]
        acc = _float32_sums(w[idx] % threads * n_pieces + p[idx], contrib[idx],
                            threads * n_pieces).reshape(threads, n_pieces)
        expected = acc[0].copy()
        for t in range(1, threads):
            expected += acc[t]
        return expected.astype(np.float64), logz.astype(np.float64)


def _float32_sums(keys: np.ndarray, values: np.ndarray, size: int) -> np.ndarray:
    """``out[k] += v`` in order, in float32, as C's ``float += double`` does it (the double
    term added to the float sum, then one rounding), one vectorized step per term rank."""
    out = np.zeros(size, dtype=np.float32)
    if not len(keys):
        return out
    by_key = np.argsort(keys, kind="stable")
    sorted_keys = keys[by_key]
    heads = np.ones(len(keys), dtype=bool)
    heads[1:] = sorted_keys[1:] != sorted_keys[:-1]
    first = np.nonzero(heads)[0]
    rank = np.empty(len(keys), dtype=np.int64)
    rank[by_key] = np.arange(len(keys)) - first[np.cumsum(heads) - 1]
    by_rank = np.argsort(rank, kind="stable")
    top = int(rank.max()) + 1
    bounds = np.searchsorted(rank[by_rank], np.arange(top + 1))
    for r in range(top):
        sel = by_rank[bounds[r]:bounds[r + 1]]
        k = keys[sel]
        out[k] = (out[k].astype(np.float64) + values[sel]).astype(np.float32)
    return out


def _sweep(table, s, e, sc, key, unk, forward):
    """Fill alpha (forward: by local end) or beta (backward: by distance to the end).

    Each entry is SentencePiece's float32 ``LogSumExp``, folded over the nodes in lattice
    order (forward: by start; backward: by end, an unknown node (``unk``) last), with
    libm's exp and log1p.
    """
    if not len(key):
        return
    dst_all, src_all = (e, s) if forward else (s, e)
    order = (np.lexsort((src_all, dst_all, key)) if forward
             else np.lexsort((src_all, unk, dst_all, key)))
    src_all, dst_all, sc, key = src_all[order], dst_all[order], sc[order], key[order]
    bounds = np.searchsorted(key, np.arange(key[-1] + 2))
    fifty = np.float32(50)
    for k in range(1, len(bounds) - 1):
        lo, hi = bounds[k], bounds[k + 1]
        if lo == hi:
            continue
        src, dst = src_all[lo:hi], dst_all[lo:hi]
        vals = sc[lo:hi] + table[src]
        heads = np.ones(hi - lo, dtype=bool)
        heads[1:] = dst[1:] != dst[:-1]
        starts = np.nonzero(heads)[0]
        group = np.cumsum(heads) - 1
        rank = np.arange(hi - lo) - starts[group]
        acc = vals[starts].copy()
        for r in range(1, int(rank.max()) + 1):
            sel = rank == r
            g = group[sel]
            x, y = acc[g], vals[sel]
            vmin, vmax = np.minimum(x, y), np.maximum(x, y)
            with np.errstate(invalid="ignore", over="ignore"):
                far = (vmax > vmin + fifty) | ~np.isfinite(vmin)
            near = ~far
            # LogSumExp: vmax + log1p(exp(vmin - vmax)), the difference in float32
            diff = (vmin[near] - vmax[near]).astype(np.float64)
            mixed = vmax.copy()
            mixed[near] = (vmax[near].astype(np.float64)
                           + _libm(math.log1p, _libm(math.exp, diff))).astype(np.float32)
            acc[g] = mixed
        table[dst[starts]] = acc
