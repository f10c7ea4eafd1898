"""``bpeviz.train(corpus, algorithm="unigram", ...)`` trains Unigram: the very training
``bpeviz.unigram.train_unigram`` makes on the corpus's ``▁`` words, step by step and piece
by piece, with the trainer's options passed through; merge options and options the
variant's trainer does not take are ValueErrors that name them."""

from __future__ import annotations

import pytest

import bpeviz
from bench.data import corpus_text
from bpeviz import Corpus, train
from bpeviz.unigram import UnigramTraining, train_unigram
from bpeviz.unigram.corpus_words import train_corpus, unigram_words
from tests.support import ROOT

TOUR = (ROOT / "bpeviz" / "samples" / "multilingual_tour.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    """English text (the Python documentation), large enough for several rounds."""
    return Corpus.from_text(corpus_text(0.02))


@pytest.fixture(scope="module")
def small() -> Corpus:
    """A smaller one for the course's trainer (which recomputes the loss per piece)."""
    return Corpus.from_text(corpus_text(0.002))


def same_steps(ours: UnigramTraining, theirs: UnigramTraining) -> None:
    assert len(ours.steps) == len(theirs.steps)
    for a, b in zip(ours.steps, theirs.steps):
        assert a.pieces == b.pieces and a.model.log_probs == b.model.log_probs
        assert a.removed == b.removed and a.loss == b.loss
    assert ours == theirs


def test_sentencepiece_is_train_unigram_on_the_corpus_words(corpus):
    ours = train(corpus, algorithm="unigram", vocab_size=400)
    assert isinstance(ours, UnigramTraining) and ours.variant == "sentencepiece"
    same_steps(ours, train_unigram(unigram_words(corpus), 400))
    assert len(ours) > 3 and ours.size == 400
    assert bpeviz.train is train


def test_the_course_is_train_unigram_on_the_corpus_words(small):
    ours = train(small, algorithm="unigram", vocab_size=90, variant="course", seed_size=160)
    assert ours.variant == "course"
    same_steps(ours, train_unigram(unigram_words(small), 90, "course", seed_size=160))
    assert len(ours) > 3 and len(ours.at(0).pieces) == 160


def test_a_metaspace_corpus_trains_as_given():
    words = Corpus.from_text(TOUR, "metaspace")
    ours = train(words, "unigram", vocab_size=500)  # the algorithm as the second argument
    same_steps(ours, train_unigram(words, 500))
    same_steps(ours, train(Corpus.from_text(TOUR), algorithm="unigram", vocab_size=500))


def test_the_trainers_options_pass_through(corpus, small):
    kept = train(corpus, algorithm="unigram", vocab_size=400, shrinking_factor=0.9,
                 max_piece_length=4)
    same_steps(kept, train_unigram(unigram_words(corpus), 400, shrinking_factor=0.9,
                                   max_piece_length=4))
    assert len(kept) > len(train(corpus, algorithm="unigram", vocab_size=400))
    assert max(len(p) for p in kept.at(0).pieces) == 4
    course = train(small, algorithm="unigram", variant="course", vocab_size=90,
                   seed_size=160, prune_fraction=0.2)
    same_steps(course, train_unigram(unigram_words(small), 90, "course", seed_size=160,
                                     prune_fraction=0.2))
    assert len(course) < len(train(small, algorithm="unigram", variant="course",
                                   vocab_size=90, seed_size=160))


def test_no_size_is_chosen_for_the_corpus_as_the_app_does():
    words = Corpus.from_text(TOUR)
    ours = train(words, algorithm="unigram", vocab_size=None)
    assert ours == train_corpus(words, None)
    assert ours.size_is_chosen and ours.options["auto"] == ("vocab_size",)


def test_merge_options_at_their_defaults_are_no_options():
    words = Corpus.from_text("hug pug hug pun bun hugs")
    plain = train(words, algorithm="unigram", vocab_size=12, variant="course")
    same_steps(train(words, algorithm="unigram", vocab_size=12, variant="course",
                     merges=None, tie_break="first", marker=None, scoring="score",
                     min_frequency=0), plain)


def test_progress_is_called_once_when_done():
    calls = []
    training = train(Corpus.from_text("hug pug hug pun bun hugs"), algorithm="unigram",
                     vocab_size=12, variant="course", progress=lambda *a: calls.append(a))
    assert calls == [(len(training) - 1, len(training) - 1)] and len(training) > 2


@pytest.mark.parametrize("kwargs, message", [
    ({"merges": 3}, r"merges=3: a merge option; Unigram does not train by merges"),
    ({"vocab_size": 50, "tie_break": "ids"}, r"tie_break='ids': a merge option"),
    ({"vocab_size": 50, "marker": "</w>", "min_frequency": 2},
     r"marker='</w>', min_frequency=2: merge options"),
    ({"vocab_size": 50, "special_tokens": ["<pad>"]}, r"specials="),
    ({"vocab_size": 50, "prune_fraction": 0.2},
     r"prune_fraction: not an option of the sentencepiece Unigram trainer"),
    ({"vocab_size": 50, "variant": "course", "shrinking_factor": 0.5},
     r"shrinking_factor: not an option of the course Unigram trainer, which takes "
     r"vocab_size and seed_size, prune_fraction"),
    ({"vocab_size": 50, "variant": "bpe"}, r"unknown Unigram variant 'bpe'"),
    ({"vocab_size": 0}, r"vocab_size must be a whole number >= 1"),
    ({"vocab_size": True}, r"vocab_size must be a whole number"),
    ({"vocab_size": "50"}, r"vocab_size must be a whole number"),
])
def test_options_that_do_not_apply_are_clear_value_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        train(Corpus.from_text("hug pug hug pun"), algorithm="unigram", **kwargs)


def test_an_empty_corpus_is_refused_as_for_merges():
    for algorithm in ("unigram", "bpe"):
        with pytest.raises(ValueError, match="the corpus has no words"):
            train(Corpus.from_text("  \n "), algorithm=algorithm, vocab_size=50)


def test_merging_algorithms_train_as_before():
    words = Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3})
    t = train(words, algorithm="bpe", merges=2, marker="</w>")
    assert [(m.left, m.right, m.count) for m in t.merges] == [("e", "s", 9), ("es", "t", 9)]
    with pytest.raises(TypeError, match="given twice"):
        train(words, "unigram", algorithm="unigram", vocab_size=10)


@pytest.mark.parametrize("settings", [
    {"algorithm": "unigram", "vocab_size": None, "variant": "sentencepiece",
     "shrinking_factor": None},
    {"algorithm": "unigram", "vocab_size": 120, "variant": "sentencepiece",
     "shrinking_factor": 0.9},
    {"algorithm": "unigram", "vocab_size": None, "variant": "course", "seed_size": None},
], ids=["planned", "sized", "course"])
def test_the_apps_settings_train_through_train_as_through_train_corpus(settings):
    """The app's Unigram settings (None: chosen for the corpus) go through ``train`` as
    they go through ``train_corpus`` today."""
    words = Corpus.from_text("hug pug hug pun bun hugs the huge pug puns " * 3)
    rest = {k: v for k, v in settings.items() if k != "algorithm"}
    assert train(words, **settings) == train_corpus(words, **rest)
