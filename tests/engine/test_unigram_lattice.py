"""Unigram lattices: Viterbi, forward-backward and n-best against brute force; encoding."""

from __future__ import annotations

import math
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz.unigram import lattice as lat
from bpeviz.unigram.model import UnigramModel, normalize_identity


def all_segmentations(word, scores, unk_score):
    """Every way to cut ``word`` into known pieces (an unknown character alone)."""
    if not word:
        yield [], 0.0
        return
    singles = {p for p in scores if len(p) == 1}
    for end in range(1, len(word) + 1):
        piece = word[:end]
        if piece in scores:
            score = scores[piece]
        elif end == 1 and piece not in singles:
            score = unk_score
        else:
            continue
        for rest, rest_score in all_segmentations(word[end:], scores, unk_score):
            yield [piece, *rest], score + rest_score


alphabet = "ab▁c"
vocab = st.dictionaries(st.text(alphabet, min_size=1, max_size=4),
                        st.floats(-12, -0.125, allow_nan=False, width=32), min_size=1, max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet, min_size=1, max_size=7), vocab)
def test_viterbi_is_the_best_segmentation_found_by_brute_force(word, scores):
    lattice = lat.Lattice.build(word, scores, unk_score=-20.0)
    path, score = lat.viterbi(lattice)
    pieces = [word[n.start:n.end] for n in path]
    assert "".join(pieces) == word
    best = max(s for _, s in all_segmentations(word, scores, -20.0))
    assert math.isclose(score, best, rel_tol=1e-6, abs_tol=1e-5)
    assert math.isclose(sum(n.score for n in path), best, rel_tol=1e-6, abs_tol=1e-5)


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet, min_size=1, max_size=6), vocab)
def test_forward_backward_sums_every_path(word, scores):
    lattice = lat.Lattice.build(word, scores, unk_score=-20.0)
    logz, marginals = lat.forward_backward(lattice)
    paths = list(all_segmentations(word, scores, -20.0))
    total = math.log(sum(math.exp(s) for _, s in paths))
    assert math.isclose(logz, total, rel_tol=1e-9, abs_tol=1e-9)
    # a node's marginal: the probability mass of the paths through it
    for node, prob in marginals.items():
        through = sum(math.exp(s - total) for p, s in paths
                      if _uses(p, node.start, node.end))
        assert math.isclose(prob, through, rel_tol=1e-6, abs_tol=1e-9)


def _uses(pieces, start, end):
    pos = 0
    for piece in pieces:
        if pos == start and pos + len(piece) == end:
            return True
        pos += len(piece)
    return False


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet, min_size=1, max_size=6), vocab, st.integers(1, 6))
def test_nbest_gives_the_n_best_scores_in_order(word, scores, n):
    lattice = lat.Lattice.build(word, scores, unk_score=-20.0)
    found = lat.nbest(lattice, n)
    expected = sorted((s for _, s in all_segmentations(word, scores, -20.0)), reverse=True)[:n]
    assert len(found) == len(expected)
    for (path, score), want in zip(found, expected):
        assert "".join(word[x.start:x.end] for x in path) == word
        assert math.isclose(score, want, rel_tol=1e-9, abs_tol=1e-9)


def test_sampling_follows_the_path_probabilities():
    scores = {"a": math.log(0.3), "b": math.log(0.3), "ab": math.log(0.2)}
    lattice = lat.Lattice.build("ab", scores)
    rng = random.Random(5)
    counts = Counter(tuple(n.piece for n in lat.sample(lattice, 1.0, rng)) for _ in range(4000))
    # P(ab) = 0.2 / (0.2 + 0.09) = 0.69
    assert abs(counts[("ab",)] / 4000 - 0.2 / 0.29) < 0.03
    sharp = Counter(tuple(n.piece for n in lat.sample(lattice, 20.0, rng)) for _ in range(500))
    assert sharp[("ab",)] > 495  # alpha large: the best path almost always


def test_viterbi_ties_go_to_the_earliest_start_like_sentencepiece():
    scores = {"a": -1.0, "b": -1.0, "ab": -2.0}
    path, _ = lat.viterbi(lat.Lattice.build("ab", scores))
    assert [n.piece for n in path] == ["ab"]


def test_encode_offsets_unknowns_and_sampling_option():
    model = UnigramModel(("▁", "a", "b", "▁a", "ab", "▁b"), (-2.0, -2.0, -2.0, -1.5, -3.0, -1.0))
    text = "  ab ¿¿ b"
    tokens = model.encode(text)
    assert [t.text for t in tokens] == ["▁a", "b", "▁", "<unk>", "▁b"]
    assert [(t.start, t.end) for t in tokens] == [(2, 3), (3, 4), (4, 5), (5, 7), (7, 9)]
    assert tokens[3].unk and tokens[3].id == 0 and tokens[3].bytes == "¿¿".encode()
    samples = {tuple(t.text for t in model.encode("ab", alpha=0.5, seed=s)) for s in range(40)}
    assert ("▁a", "b") in samples and len(samples) > 1
    nbest = {tuple(t.text for t in model.encode("ab", alpha=0.5, nbest_size=1, seed=s))
             for s in range(10)}
    assert nbest == {("▁a", "b")}


def test_identity_normalization():
    assert normalize_identity("") == ("", [])
    assert normalize_identity("   ") == ("", [])
    assert normalize_identity("a\tb  c")[0] == "▁a\tb▁c"


def test_train_unigram_takes_a_corpus_and_says_what_is_wrong():
    import pytest

    from bpeviz import Corpus
    from bpeviz.unigram import train_unigram

    corpus = Corpus.from_counts({"▁low": 5, "▁lower": 2, "▁newest": 6, "▁widest": 3})
    training = train_unigram(corpus, 20)
    assert training.variant == "sentencepiece" and training.at(0).step == 0
    assert len(training.final.pieces) <= 17  # 20 minus <unk>, <s>, </s>
    assert set("▁lowernstid") <= set(training.final.pieces)
    course = train_unigram({"▁low": 5, "▁lower": 2}, 8, variant="course")
    assert len(course.final.pieces) <= 8
    with pytest.raises(ValueError, match="variant"):
        train_unigram(corpus, 20, variant="bpe")
    with pytest.raises(ValueError, match="vocab_size"):
        train_unigram(corpus, 0)
    with pytest.raises(ValueError, match="out of range"):
        training.at(99)
