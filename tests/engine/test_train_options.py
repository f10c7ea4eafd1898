"""One options type: train(corpus, options) is the core, the keyword form wraps it."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, TrainOptions, train
from bpeviz.core import limits
from bpeviz.core.limits import LIMITS
from bpeviz.core.training import make_options

CORPUS = Corpus.from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3})


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_the_options_form_and_the_keyword_form_train_the_same(algorithm):
    options = make_options(algorithm, merges=6, tie_break="ids")
    core = train(CORPUS, options)
    keywords = train(CORPUS, algorithm=algorithm, merges=6, tie_break="ids")
    positional = train(CORPUS, algorithm, merges=6, tie_break="ids")
    assert core.options == keywords.options == positional.options == options
    assert core.merges == keywords.merges == positional.merges
    assert core.vocab == keywords.vocab


def test_options_built_by_hand_are_checked_like_keywords():
    with pytest.raises(ValueError, match="byte-level BPE keeps ids 0-255"):
        train(CORPUS, TrainOptions(algorithm="bbpe", merges=2, special_tokens=("[UNK]",)))
    with pytest.raises(ValueError, match="say how long to train"):
        train(CORPUS, TrainOptions(algorithm="bpe"))


def test_options_and_keywords_together_are_refused():
    with pytest.raises(TypeError, match="not both"):
        train(CORPUS, make_options("bpe", merges=2), merges=3)
    with pytest.raises(TypeError, match="twice"):
        train(CORPUS, "bpe", algorithm="wordpiece", merges=3)


def test_limits_check_takes_the_corpus_and_the_options():
    small = limits.Limits(merges=5, unique_words=3)
    assert limits.check(CORPUS, make_options("bpe", merges=5), limits=small) == [
        m for m in limits.check_sizes(0, 4, 5, "bpe", None, small) if "words" in m]
    messages = limits.check(CORPUS, make_options("bpe", merges=6), limits=small)
    assert [m.split(":")[0] for m in messages] == [
        "Too many distinct words for the live explorer", "Too many merges for the live explorer"]
    # a vocabulary size counts the merges it takes past the starting vocabulary
    base = len(train(CORPUS, "bpe", merges=0).vocab)
    assert limits.check(CORPUS, make_options("bpe", vocab_size=base + 5),
                        limits=limits.Limits(merges=5)) == []
    assert limits.check(CORPUS, make_options("bpe", vocab_size=base + 6),
                        limits=limits.Limits(merges=5))


def test_limits_check_counts_initial_symbols_with_repeats_exactly():
    tiny = limits.Limits(weighted_symbols=5 * 3 + 2 * 5 + 6 * 6 + 3 * 6)
    assert limits.check(CORPUS, make_options("bpe", merges=1), limits=tiny) == []
    # the end-of-word marker adds one symbol per word occurrence
    marked = limits.check(CORPUS, make_options("bpe", merges=1, marker="</w>"), limits=tiny)
    assert [m.split(":")[0] for m in marked] == ["Counts too large for the live explorer"]


def test_the_sizes_form_of_limits_check_still_works():
    assert limits.check(10, 3, LIMITS.merges + 1, "bpe")[0].startswith("Too many merges")
    assert limits.check(text_chars=LIMITS.text_chars + 1)[0].startswith("Corpus too large")


@pytest.mark.parametrize(("algorithm", "marker", "style"), [
    ("bpe", None, "separate"), ("bpe", "</w>", "separate"), ("bpe", "</w>", "glued"),
    ("bbpe", None, "separate"), ("wordpiece", None, "separate")])
def test_limits_count_the_initial_symbols_the_training_will_hold(algorithm, marker, style):
    corpus = Corpus.from_counts({"héllo": 3, "wörld": 2**40, "a": 1, "日本": 5})
    options = make_options(algorithm, merges=1, marker=marker, marker_style=style)
    expected = train(corpus, options).initial_tokens
    tiny = limits.Limits(weighted_symbols=expected - 1)
    assert limits.check(corpus, options, limits=limits.Limits(weighted_symbols=expected)) == []
    assert limits.check(corpus, options, limits=tiny)[0].startswith("Counts too large")
