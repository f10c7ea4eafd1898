"""A text's PickyBPE tokens at every step, as the browser steps through them
(:meth:`PickyTraining.text_history`), are at each step exactly what encoding at that step
gives: the same ids at the same places, removals included (a removal splits a token back
into its parts, so a word's cut can grow longer again)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpeviz
from bpeviz.present.text_history import tokens_at
from bpeviz.samples import load_sample


@pytest.fixture(scope="module")
def training():
    return bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=200,
                        threshold=0.9)


def encoded(training, text, step):
    return [(t.id, t.start, t.end, 2 if t.unk else 0) for t in training.at(step).encode(text)]


def test_every_step_of_a_sample_text_is_its_encoding(training):
    text = "The tokenizer learns tokens: lowest newer  Ünïcode 苹果 x"
    history = training.text_history(text)
    assert history is not None
    removals = [e.step for e in training.events if e.kind == "removal"]
    assert removals, "the sample's training removes tokens"
    for step in range(len(training.events) + 1):
        assert tokens_at(history, step) == encoded(training, text, step), step


def test_a_removal_is_a_step_where_a_words_cut_changes(training):
    """A word holding a token just before its removal is cut again at the removal."""
    removal, word = next(
        (e, w) for e in training.events if e.kind == "removal" for w in training.words
        if e.token_id in training.at(e.step - 1).encode_word(w))
    text = word[1:]  # the ▁ stands for the space before the word
    history = training.text_history(text)
    steps = [v[0] for v in history["forms"][0]]
    assert removal.step in steps
    before, after = tokens_at(history, removal.step - 1), tokens_at(history, removal.step)
    assert removal.token_id in [t[0] for t in before]
    assert removal.token_id not in [t[0] for t in after]


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="lowestnrgi ökü\t\n", max_size=40))
def test_any_text_at_any_step_is_its_encoding(training, text):
    history = training.text_history(text)
    for step in range(0, len(training.events) + 1, 7):
        assert tokens_at(history, step) == encoded(training, text, step), step


def test_a_text_past_the_budget_is_left_to_the_settled_step(training):
    assert training.text_history("lowest newer " * 50, most_steps=10) is None
