"""The E-step's expected counts are sentencepiece 0.2.3's to the last bit.

The reference below is a line-by-line port of sentencepiece 0.2.3's ``Model::PopulateNodes``
and ``Lattice::PopulateMarginal`` (``unigram_model.cc``) and of ``Trainer::RunEStep``'s sums
(``unigram_model_trainer.cc``), one word at a time, in float32 where sentencepiece has a
float and with libm's ``exp`` and ``log1p`` (Python's :mod:`math`), as it calls them.
The batched trainer loops (compiled and NumPy) must give exactly its numbers: pieces whose
expected counts differ in the last bit get different scores, and near-equal pruning costs
then cut differently.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from bench.data import corpus_text
from bpeviz.unigram._batch import Batch
from bpeviz.unigram.lattice import f32
from bpeviz.unigram.spm_input import sentencepiece_input
from bpeviz.unigram.trainer import _State, _word_order, seed_pieces


def log_sum_exp(x: float, y: float, init: bool) -> float:
    """sentencepiece's LogSumExp: the difference in float32, exp and log1p in double."""
    if init:
        return y
    vmin, vmax = min(x, y), max(x, y)
    if vmax > f32(vmin + 50.0):
        return vmax
    return f32(vmax + math.log1p(math.exp(f32(vmin - vmax))))


def populate_marginal(word, count, index, scores, alive, unk_index, unk_score, expected):
    """One word's lattice as PopulateNodes builds it, then PopulateMarginal's sums into
    ``expected`` (a list of float32 values, one per piece)."""
    n = len(word)
    # nodes: [pos, length, id, score]; BOS and EOS have score 0
    bos, eos = [0, 0, -1, 0.0], [n, 0, -1, 0.0]
    begin = [[] for _ in range(n + 1)]
    end = [[] for _ in range(n + 1)]
    end[0].append(bos)
    begin[n].append(eos)
    for pos in range(n):
        has_single = False
        for length in range(1, n - pos + 1):  # the trie's matches, shortest first
            i = index.get(word[pos:pos + length])
            if i is None or not alive[i]:
                continue
            node = [pos, length, i, float(scores[i])]
            begin[pos].append(node)
            end[pos + length].append(node)
            has_single |= length == 1
        if not has_single:  # the unknown node, after the pieces that start here
            node = [pos, 1, unk_index, unk_score]
            begin[pos].append(node)
            end[pos + 1].append(node)
    alpha, beta = {}, {}
    for pos in range(n + 1):
        for rnode in begin[pos]:
            for lnode in end[pos]:
                alpha[id(rnode)] = log_sum_exp(alpha.get(id(rnode), 0.0),
                                               f32(lnode[3] + alpha.get(id(lnode), 0.0)),
                                               lnode is end[pos][0])
    for pos in range(n, -1, -1):
        for lnode in end[pos]:
            for rnode in begin[pos]:
                beta[id(lnode)] = log_sum_exp(beta.get(id(lnode), 0.0),
                                              f32(rnode[3] + beta.get(id(rnode), 0.0)),
                                              rnode is begin[pos][0])
    z = alpha[id(eos)]
    for pos in range(n):
        for node in begin[pos]:
            m = f32(f32(f32(alpha[id(node)] + node[3]) + beta[id(node)]) - z)
            expected[node[2]] = f32(expected[node[2]] + f32(count) * math.exp(m))
    return z


def run_e_step(words, counts, index, state, threads):
    """RunEStep: per thread the words i % threads, then the threads' sums merged."""
    n_pieces = len(state.scores)
    sums = [[0.0] * n_pieces for _ in range(threads)]
    logz = []
    for i, (word, count) in enumerate(zip(words, counts)):
        logz.append(populate_marginal(word, count, index, state.scores.tolist(),
                                      state.alive, state.order[0], state.unk_score,
                                      sums[i % threads]))
    merged = sums[0]
    for t in range(1, threads):
        merged = [f32(a + b) for a, b in zip(merged, sums[t])]
    return np.array(merged), np.array(logz)


@pytest.fixture(scope="module")
def lattice_case():
    """Real words with counts, the seed, and a model where some characters are dead (so
    that unknown nodes share their position with longer pieces that start there)."""
    data = sentencepiece_input(corpus_text(0.03))
    seed = seed_pieces(data)
    pieces = [p for p, _ in seed]
    index = {p: i for i, p in enumerate(pieces)}
    order_w = _word_order(data)
    words = [data.words[i] for i in order_w]
    counts = np.array([data.counts[i] for i in order_w], dtype=np.float64)
    scores = np.array([s for _, s in seed], dtype=np.float32)
    dead = {index[ch] for ch in "kvp" if ch in index}
    state = _State([i for i in range(len(pieces)) if i not in dead], scores, len(pieces))
    # the case this is about: a dead character starting a live longer piece
    assert any(len(p) > 1 and index[p[0]] in dead and state.alive[i]
               for i, p in enumerate(pieces))
    return words, counts, index, state


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("threads", [1, 16])
def test_unigram_expected_counts_are_sentencepieces_populate_marginal_to_the_bit(
        monkeypatch, lattice_case, engine, threads):
    words, counts, index, state = lattice_case
    monkeypatch.setenv("BPEVIZ_ENGINE", engine)
    batch = Batch(words, index, 16)
    expected, logz = batch.expected_counts(state.alive, state.scores, state.order[0],
                                           state.unk_score, counts, len(state.scores),
                                           threads)
    reference, reference_logz = run_e_step(words, counts.tolist(), index, state, threads)
    # the commonest pieces add far more than 256 terms per thread: every one is rounded
    # as sentencepiece's float += double rounds it
    assert np.array_equal(logz, reference_logz)
    assert np.array_equal(expected, reference)
