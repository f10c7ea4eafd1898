"""Fuzzing: random Unicode corpora never make training fail in an unexpected way."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.algorithms import surface

pytestmark = pytest.mark.usefixtures("engine")

unicode_text = st.text(
    st.one_of(
        st.characters(exclude_categories=("Cs",)),
        st.sampled_from(["\u200d", "\u0301", "👩", "🏽", "中", "\r", "\n", "\t", " ", "\x00"]),
    ),
    max_size=120,
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unicode_text, st.sampled_from(["bpe", "bbpe", "wordpiece"]),
       st.sampled_from(["whitespace", "gpt2", "none"]), st.sampled_from(["first", "ids"]),
       st.integers(0, 40))
def test_training_on_random_unicode_succeeds_or_says_why(text, algorithm, pretokenizer,
                                                         tie_break, merges):
    corpus = Corpus.from_text(text, pretokenizer)
    if not corpus.words:
        with pytest.raises(ValueError, match="no words"):
            train(corpus, algorithm, merges=merges, tie_break=tie_break)
        return
    training = train(corpus, algorithm, merges=merges, tie_break=tie_break)
    assert len(training.merges) <= merges
    if len(training.merges) < merges:
        assert training.stop_reason == "no_pairs"
    for word, split in training.at().splits.items():
        assert surface(split, algorithm) == word
    assert (training.token_counts() >= len(corpus)).all()
