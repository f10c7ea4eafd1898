"""The compiled Unigram loops (bpeviz.unigram._lattice) give exactly what the NumPy code gives.

Every step of a training (pieces, scores to the last bit, loss, removals) and each loop on
its own (seed counts, occurrences, Viterbi, forward-backward) on random words with
unknown characters, astral characters, ``▁`` and one-character words.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bpeviz.unigram._batch as batch_module
from bench.data import corpus_text
from bpeviz.unigram._batch import Batch
from bpeviz.unigram.spm_input import UNK_CHAR, sentencepiece_input, words_input
from bpeviz.unigram.trainer import _State, _word_order, seed_pieces, train_sentencepiece
from tests.conftest import require_built


@pytest.fixture(autouse=True)
def lattice_built():
    """Skipped where the extension is not built; a failure under CI, which builds it."""
    require_built(batch_module._compiled is not None, "bpeviz.unigram._lattice")


def both(monkeypatch, make):
    """``make()`` on the compiled loops, then on the NumPy ones."""
    monkeypatch.setenv("BPEVIZ_ENGINE", "compiled")
    compiled = make()
    monkeypatch.setenv("BPEVIZ_ENGINE", "python")
    return compiled, make()


def assert_same_training(compiled, numpy):
    assert len(compiled.steps) == len(numpy.steps)
    for ours, reference in zip(compiled.steps, numpy.steps):
        assert ours.model.pieces == reference.model.pieces
        assert ours.model.scores == reference.model.scores
        assert ours.loss == reference.loss
        assert ours.removed == reference.removed
        assert ours.restored == reference.restored


@pytest.mark.parametrize("size", [600, 1000])
def test_a_training_on_real_text_is_identical_to_the_last_bit(monkeypatch, size):
    data = sentencepiece_input(corpus_text(0.1))
    assert_same_training(*both(monkeypatch, lambda: train_sentencepiece(data, size)))


def test_cjk_and_unknown_characters_train_identically(monkeypatch):
    lines = [line for line in corpus_text(0.3).split("\n")
             if any("\u3000" <= ch <= "\ud7ff" for ch in line)]
    text = "\n".join(lines) + "\nab\U0001f600 \U0001f600\U0001f600 <unk> x\u0301\n"
    data = sentencepiece_input(text)
    assert_same_training(*both(monkeypatch, lambda: train_sentencepiece(data, 560)))


def test_the_sentence_end_bonus_is_counted_identically(monkeypatch):
    data = sentencepiece_input("ab ab ab\nab ab\nabc ab\n")
    assert_same_training(*both(monkeypatch, lambda: train_sentencepiece(data, 12)))


LETTERS = st.sampled_from(["a", "b", "c", "\u2581", "é", "好", "カ", "\u0301", "1", " ",
                           "\U0001f600", UNK_CHAR, "\t"])
WORDS = st.dictionaries(st.text(LETTERS, min_size=1, max_size=12),
                        st.integers(1, 40), min_size=1, max_size=30)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(table=WORDS, max_len=st.integers(1, 5), keep=st.integers(0, 2**32 - 1),
       by_script=st.booleans(), by_number=st.booleans())
def test_each_loop_matches_on_random_words(monkeypatch, table, max_len, keep, by_script,
                                           by_number):
    data = words_input(table)
    seeds = both(monkeypatch, lambda: seed_pieces(data, max_piece_length=max_len,
                                                  split_by_unicode_script=by_script,
                                                  split_by_number=by_number))
    assert seeds[0] == seeds[1]
    seed = seeds[0]
    if not seed:
        return
    pieces = [p for p, _ in seed]
    index = {p: i for i, p in enumerate(pieces)}
    words = [data.words[i] for i in _word_order(data)]
    counts = np.array([data.counts[i] for i in _word_order(data)], dtype=np.float64)
    scores = np.array([s for _, s in seed], dtype=np.float32)
    # a random subset of the seed is alive, so that unknown characters come up
    rng = np.random.default_rng(keep)
    order = [i for i in range(len(pieces)) if i == 0 or rng.random() < 0.7]
    state = _State(order, scores, len(pieces))
    for target in (words, pieces):
        batches = both(monkeypatch, lambda target=target: Batch(target, index, max_len))
        for name in ("occ_s", "occ_e", "occ_p", "char_piece"):
            assert np.array_equal(getattr(batches[0], name), getattr(batches[1], name))
        compiled, numpy = batches
        args = (state.alive, state.scores, state.order[0], state.unk_score)
        for skip_whole in (False, True):
            assert all(np.array_equal(a, b) for a, b in
                       zip(compiled.viterbi(*args, skip_whole=skip_whole),
                           numpy.viterbi(*args, skip_whole=skip_whole)))
        if target is words:
            for threads in (1, 3):
                ours = compiled.expected_counts(*args, counts, len(pieces), threads)
                reference = numpy.expected_counts(*args, counts, len(pieces), threads)
                assert np.array_equal(ours[0], reference[0])
                assert np.array_equal(ours[1], reference[1])
