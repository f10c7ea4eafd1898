"""The seeds' printed results (shared/notes/algorithms.md), reproduced exactly."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, train

# every test runs on both engines: the compiled one and the pure-Python one (conftest)
pytestmark = pytest.mark.usefixtures("engine")

SEED_003_SENTENCES = [
    "我", "喜欢", "吃", "苹果", "他", "不", "喜欢", "吃", "苹果派",
    "I like to eat apples", "She has a cute cat", "you are very cute", "give you a hug",
]


@pytest.fixture
def seed_003_corpus() -> Corpus:
    return Corpus.from_text("\n".join(SEED_003_SENTENCES))


def pairs(training):
    return [(m.left, m.right) for m in training.merges]


def test_seed_001_ten_merges_and_final_splits():
    corpus = Corpus.from_counts({"fast_": 4, "faster_": 3, "tall_": 5, "taller_": 4})
    training = train(corpus, "bpe", merges=10)
    assert pairs(training) == [
        ("t", "a"), ("ta", "l"), ("tal", "l"), ("f", "a"), ("fa", "s"), ("fas", "t"),
        ("e", "r"), ("er", "_"), ("tall", "_"), ("fast", "_"),
    ]
    splits = training.at(10).splits
    assert [" ".join(splits[w]) for w in corpus.words] == [
        "fast_", "fast er_", "tall_", "tall er_"
    ]
    assert [m.count for m in training.merges][:3] == [9, 9, 9]


def test_seed_002_separate_end_of_word_marker():
    corpus = Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3})
    training = train(corpus, "bpe", merges=2, marker="</w>")
    assert pairs(training) == [("e", "s"), ("es", "t")]
    assert training.at(2).splits["newest"] == ("n", "e", "w", "est", "</w>")


def test_seed_003_bpe(seed_003_corpus):
    training = train(seed_003_corpus, "bpe", vocab_size=50, special_tokens=())
    assert training.n_base == 27
    assert [m.token for m in training.merges] == (
        "喜欢 苹果 at cu cut cute yo you ve 苹果派 li lik like to eat ap app appl apple "
        "apples Sh She ha"
    ).split()
    assert training.stop_reason == "vocab_size"
    assert training.merges[0].count == 2


def test_seed_003_wordpiece(seed_003_corpus):
    training = train(seed_003_corpus, "wordpiece", vocab_size=50, special_tokens=())
    assert training.n_base == 35
    first = training.merges[0]
    assert (first.left, first.right, first.token, first.score) == ("S", "##h", "Sh", 1.0)
    assert [m.token for m in training.merges] == (
        "Sh 喜欢 苹果 苹果派 li lik gi giv ##pl ##ppl ##ry to yo ea eat"
    ).split()
    assert list(training.at(0).vocab) == sorted(training.at(0).vocab)


def test_seed_003_and_000_bbpe_first_merge(seed_003_corpus):
    training = train(seed_003_corpus, "bbpe", merges=1)
    first = training.merges[0]
    assert (first.left, first.right, first.count) == (b"\x9c", b"\xe6", 3)
    assert first.token_id == 256


def test_seed_004_five_merges():
    corpus = Corpus.from_text("low low low lowly lower newer newer\nhappy dog happy cat")
    training = train(corpus, "bpe", merges=5, marker="</w>")
    assert pairs(training) == [("l", "o"), ("lo", "w"), ("low", "</w>"), ("y", "</w>"),
                               ("e", "r")]
    assert training.at().splits["lowly"] == ("low", "l", "y</w>")
