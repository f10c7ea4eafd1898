"""A parity-aware training keeps, for every step, each language's tokens and a sentence
saying which language got the merge on which numbers (what the app draws at the bar's
step): the tokens equal each language's text encoded at that step, the sentences are
``why(k)``, and a saved training reopens with them."""

from __future__ import annotations

import pytest

import bpeviz
from bpeviz.algorithms.parity_train import train_parity
from bpeviz.core import protocol
from bpeviz.core.training import takes_languages
from bpeviz.samples import parallel_sample

TEXTS = {lang: data.decode("utf-8") for lang, data in parallel_sample()[0].items()}


@pytest.fixture(scope="module")
def training():
    return train_parity(TEXTS, merges=120)


def test_each_languages_tokens_at_every_step_are_its_text_encoded_there(training):
    per_step = training.language_tokens()
    assert len(per_step) == 121
    for k in (0, 1, 7, 60, 120):
        at = training.at(k)
        assert per_step[k] == tuple(len(at.encode(TEXTS[lang])) for lang in TEXTS), k
    assert training.characters == tuple(len(text) for text in TEXTS.values())


def test_a_sentence_per_step_names_the_language_and_its_numbers(training):
    notes = protocol.step_notes(training)
    assert len(notes) == 121
    assert notes[0].startswith("Before any merge, tokens on each language's training text")
    assert notes[1:] == [training.why(k) for k in range(1, 121)]
    for k in (1, 50, 120):
        c = training.choice(k)
        assert notes[k].startswith(f"Merge {k} went to {c.language}:")
        # the language chosen had the most tokens just before its merge (base variant)
        assert c.tokens[training.languages.index(c.language)] == max(
            n for lang, n in zip(training.languages, c.tokens) if lang not in c.exhausted)


def test_a_training_of_one_corpus_has_no_languages_and_no_sentences():
    plain = bpeviz.train(bpeviz.Corpus.from_text("the cat the hat"), merges=3)
    assert protocol.languages(plain) == () and protocol.step_notes(plain) is None
    assert takes_languages("parity") and not takes_languages("bbpe")


def test_a_saved_training_reopens_with_its_per_step_languages(training, tmp_path):
    path = tmp_path / "parity.json"
    bpeviz.save(training, path)
    again = bpeviz.load(path)
    assert again.language_tokens() == training.language_tokens()
    assert again.step_notes() == training.step_notes()
