"""The lattice of one word: every way to cut it into known pieces, and what to do with it.

A Unigram model gives every piece a score (its log-probability). The lattice of a word
holds one node per occurrence of a known piece (start, end, id, score); a position
where no one-character piece starts gets an unknown node, as SentencePiece does
(score: the lowest piece score minus 10). Every path from the start to the end is a
segmentation, scored by the sum of its nodes' scores.

- :func:`viterbi`: the best segmentation. Ties go to the path whose last piece starts
  earliest (SentencePiece's rule: a later candidate must be strictly better). Sums are
  rounded to 32-bit floats at every step, as SentencePiece computes them.
- :func:`forward_backward`: the log of the total probability of all paths and each
  node's expected count (its marginal probability), the E-step of EM.
- :func:`nbest`: the n best segmentations (A* search from the end, as SentencePiece).
- :func:`sample`: one segmentation drawn with probability proportional to
  ``exp(alpha * score)`` (SentencePiece's subword regularization, ``nbest_size=-1``).

>>> scores = {"▁": -2.0, "a": -2.0, "b": -2.0, "▁a": -1.5, "ab": -3.0}
>>> lat = Lattice.build("▁ab", scores)
>>> [(n.start, n.end, n.piece) for n in viterbi(lat)[0]]
[(0, 2, '▁a'), (2, 3, 'b')]
>>> round(viterbi(lat)[1], 3)
-3.5
"""

from __future__ import annotations

import heapq
import math
import random
import struct
from collections.abc import Mapping
from dataclasses import dataclass

#: SentencePiece's penalty: an unknown character scores the lowest piece score minus this.
UNK_PENALTY = 10.0
#: Pieces longer than this many characters are never looked up (SentencePiece's default).
MAX_PIECE_LENGTH = 16

_F32 = struct.Struct("f")


def f32(x: float) -> float:
    """``x`` rounded to the nearest 32-bit float (SentencePiece stores scores as floats)."""
    try:
        return _F32.unpack(_F32.pack(x))[0]
    except OverflowError:
        return -math.inf if x < 0 else math.inf


@dataclass(frozen=True)
class Node:
    """One piece occurrence in a word's lattice: ``word[start:end]``.

    ``piece`` is ``None`` for an unknown character (SentencePiece's ``<unk>``).
    """

    start: int
    end: int
    piece: str | None
    score: float


@dataclass(frozen=True)
class Lattice:
    """The nodes of one word, grouped by start position (shorter pieces first)."""

    word: str
    starts: tuple[tuple[Node, ...], ...]

    @classmethod
    def build(cls, word: str, scores: Mapping[str, float], *,
              max_piece_length: int | None = None, unk_score: float | None = None) -> Lattice:
        """The lattice of ``word`` over ``scores`` (piece -> log-probability)."""
        if max_piece_length is None:
            max_piece_length = max((len(p) for p in scores), default=1)
        if unk_score is None:
            unk_score = (min(scores.values()) if scores else 0.0) - UNK_PENALTY
        n = len(word)
        starts = []
        for begin in range(n):
            row = []
            for end in range(begin + 1, min(n, begin + max_piece_length) + 1):
                piece = word[begin:end]
                score = scores.get(piece)
                if score is not None:
                    row.append(Node(begin, end, piece, score))
            if not row or row[0].end != begin + 1:
                row.append(Node(begin, begin + 1, None, unk_score))
            starts.append(tuple(row))
        return cls(word, tuple(starts))

    def nodes(self) -> list[Node]:
        return [node for row in self.starts for node in row]


def viterbi(lattice: Lattice, *, skip_whole: bool = False) -> tuple[list[Node], float]:
    """The best path and its score (float32 sums, earliest-start ties).

    ``skip_whole`` leaves out the node that spans the whole word (the best *other*
    segmentation, which SentencePiece's pruning uses as a piece's replacement).
    """
    n = len(lattice.word)
    if n == 0:
        return [], 0.0
    best: list[float | None] = [None] * (n + 1)
    back: list[Node | None] = [None] * (n + 1)
    best[0] = 0.0
    for begin in range(n):
        base = best[begin]
        if base is None:
            continue
        for node in lattice.starts[begin]:
            if skip_whole and begin == 0 and node.end == n:
                continue
            cand = f32(base + node.score)
            current = best[node.end]
            if current is None or cand > current:
                best[node.end] = cand
                back[node.end] = node
    path: list[Node] = []
    pos = n
    while pos > 0:
        node = back[pos]
        if node is None:  # only when skip_whole leaves no path (one character)
            return [], -math.inf
        path.append(node)
        pos = node.start
    path.reverse()
    return path, best[n]  # type: ignore[return-value]


def _logsumexp(x: float, y: float) -> float:
    if x == -math.inf:
        return y
    lo, hi = (x, y) if x < y else (y, x)
    if hi > lo + 50:  # SentencePiece's cut-off
        return hi
    return hi + math.log1p(math.exp(lo - hi))


def forward_backward(lattice: Lattice, inv_theta: float = 1.0) -> tuple[float, dict[Node, float]]:
    """``(log Z, marginal probability of each node)`` over all paths.

    >>> lat = Lattice.build("ab", {"a": math.log(.5), "b": math.log(.5), "ab": math.log(.25)})
    >>> logz, marg = forward_backward(lat)
    >>> round(math.exp(logz), 3), sorted((n.piece, round(p, 3)) for n, p in marg.items())
    (0.5, [('a', 0.5), ('ab', 0.5), ('b', 0.5)])
    """
    n = len(lattice.word)
    alpha = [-math.inf] * (n + 1)
    beta = [-math.inf] * (n + 1)
    alpha[0] = 0.0
    for begin in range(n):
        if alpha[begin] == -math.inf:
            continue
        for node in lattice.starts[begin]:
            alpha[node.end] = _logsumexp(alpha[node.end], alpha[begin] + inv_theta * node.score)
    beta[n] = 0.0
    for begin in range(n - 1, -1, -1):
        for node in lattice.starts[begin]:
            beta[begin] = _logsumexp(beta[begin], inv_theta * node.score + beta[node.end])
    logz = alpha[n]
    marginals = {node: math.exp(alpha[node.start] + inv_theta * node.score + beta[node.end] - logz)
                 for row in lattice.starts for node in row}
    return logz, marginals


def nbest(lattice: Lattice, size: int) -> list[tuple[list[Node], float]]:
    """Up to ``size`` best paths, best first (A* from the end with exact heuristics).

    Ties between equal scores are taken in the order found (SentencePiece's priority
    queue may order exact ties differently).
    """
    n = len(lattice.word)
    if n == 0 or size < 1:
        return [([], 0.0)] if n == 0 else []
    # h(pos): the best score from the start to pos (forward Viterbi, float sums)
    best = [-math.inf] * (n + 1)
    best[0] = 0.0
    ends: list[list[Node]] = [[] for _ in range(n + 1)]
    for begin in range(n):
        for node in lattice.starts[begin]:
            ends[node.end].append(node)
            if best[begin] > -math.inf:
                best[node.end] = max(best[node.end], best[begin] + node.score)
    results: list[tuple[list[Node], float]] = []
    counter = 0
    # entries: (-f, counter, pos, g, path-from-here)
    agenda: list[tuple[float, int, int, float, tuple[Node, ...]]] = [(-best[n], 0, n, 0.0, ())]
    while agenda and len(results) < size:
        _, _, pos, g, path = heapq.heappop(agenda)
        if pos == 0:
            results.append((list(path), g))
            continue
        for node in ends[pos]:
            if best[node.start] == -math.inf:
                continue
            counter += 1
            g2 = g + node.score
            heapq.heappush(agenda, (-(g2 + best[node.start]), counter, node.start, g2,
                                    (node, *path)))
        if len(agenda) > 100_000:  # keep long inputs bounded, as SentencePiece does
            agenda = heapq.nsmallest(max(512, size * 10), agenda)
            heapq.heapify(agenda)
    return results


def sample(lattice: Lattice, inv_theta: float, rng: random.Random) -> list[Node]:
    """One path drawn with probability proportional to ``exp(inv_theta * score)``."""
    n = len(lattice.word)
    if n == 0:
        return []
    alpha = [-math.inf] * (n + 1)
    alpha[0] = 0.0
    ends: list[list[Node]] = [[] for _ in range(n + 1)]
    for begin in range(n):
        for node in lattice.starts[begin]:
            ends[node.end].append(node)
            alpha[node.end] = _logsumexp(alpha[node.end], alpha[begin] + inv_theta * node.score)
    path: list[Node] = []
    pos = n
    while pos > 0:
        weights = [math.exp(alpha[nd.start] + inv_theta * nd.score - alpha[pos])
                   for nd in ends[pos]]
        node = rng.choices(ends[pos], weights)[0]
        path.append(node)
        pos = node.start
    path.reverse()
    return path
