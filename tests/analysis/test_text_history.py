"""A text's tokens at every step (bpeviz.present.text_history, drawn by the stage on Tokenize)
equal the encoder's at every step: BPE (with and without an end-of-word marker), BBPE
and WordPiece, on random corpora and texts (Hypothesis)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, train
from bpeviz.core import encoding
from bpeviz.present.text_history import text_history, tokens_at
from bpeviz.samples import load_sample
from bpeviz.ui import train_options

ALPHABET = "abcab ab\u00e9\u81ea\u7136 \U0001f44d\n"
CHOICES = [("bpe", {}), ("bpe", {"marker": "</w>"}),
           ("bpe", {"marker": "</w>", "marker_style": "glued"}), ("bbpe", {}),
           ("wordpiece", {})]


def encoded(training, text: str, step: int) -> list[tuple[int, int, int, int]]:
    return [(t.id, t.start, t.end, (1 if t.partial else 0) | (2 if t.unk else 0))
            for t in encoding.encode(training.at(step), text)]


def check_every_step(training, text: str) -> None:
    history = text_history(training, text)
    for step in range(len(training.merges) + 1):
        assert tokens_at(history, step) == encoded(training, text, step), (step, text)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus=st.text(ALPHABET, min_size=1, max_size=60),
       text=st.text(ALPHABET + "xyz\u00c5", max_size=30),
       choice=st.sampled_from(CHOICES), merges=st.integers(0, 25))
def test_the_history_is_the_encoding_at_every_step(corpus, text, choice, merges):
    algorithm, extra = choice
    try:
        training = train(Corpus.from_text(corpus, "gpt2" if algorithm == "bbpe"
                                          else "whitespace"),
                         **train_options(algorithm, merges=merges, **extra))
    except ValueError:
        return  # a corpus with no words
    check_every_step(training, text)


@pytest.mark.parametrize("algorithm", ["bpe", "bbpe", "wordpiece"])
def test_the_tour_sample_at_every_step(algorithm):
    training = train(load_sample("tour", "gpt2" if algorithm == "bbpe" else "whitespace"),
                     **train_options(algorithm, merges=300))
    text = "The tokenizer learns tokens: 自然语言处理 ありがとう 👍🏽 👨‍👩‍👧‍👦 lowest newer"
    check_every_step(training, text)
    history = text_history(training, text)
    changes = sum(len(f) - 1 for f in history["forms"])
    assert changes > 0, "the text's tokens change as merges come"
