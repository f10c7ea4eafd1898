"""Every round of a Unigram training keeps every character of its corpus, as
SentencePiece's vocabulary does at ``character_coverage=1.0``: no round turns a character
of the corpus into ``<unk>`` (re-estimation and pruning may drop a character from the
trainer's own model; the round's vocabulary keeps it at the lowest score, as the final
cut does), for both trainers and the app's automatic settings, and a round's exported
``tokenizer.json`` gives the corpus back."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer

from bpeviz.unigram import train_unigram
from bpeviz.unigram.hf_export import to_hf_json
from bpeviz.unigram.model import WS
from bpeviz.unigram.spm_input import UNK_CHAR
from tests.support.trainings import sample_training

# letters of several scripts, digits, marks, an emoji and a rare capital: words made of
# them give characters that re-estimation drops (used once, inside a frequent piece)
ALPHABET = "abcdeTxyz019äéñжяשदि👍❤语言"
WORDS = st.text(alphabet=ALPHABET, min_size=1, max_size=7)
CORPORA = st.dictionaries(WORDS, st.integers(1, 30), min_size=1, max_size=14)


def corpus_characters(training) -> set[str]:
    return {ch for w in training.at(0).words for ch in w if ch != UNK_CHAR}


def missing_per_round(training) -> dict[int, str]:
    """Round -> the corpus characters its vocabulary lacks (rounds lacking none left out)."""
    chars = corpus_characters(training)
    out = {}
    for step in training.steps:
        lacking = chars - set(step.pieces)
        if lacking:
            out[step.step] = "".join(sorted(lacking))
    return out


def table(words: dict[str, int]) -> dict[str, int]:
    return {WS + w: c for w, c in words.items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CORPORA, st.integers(4, 60), st.sampled_from([0.5, 0.75, 0.9]))
def test_no_sentencepiece_round_drops_a_character_of_the_corpus(words, size, keep):
    training = train_unigram(table(words), size, shrinking_factor=keep)
    assert missing_per_round(training) == {}
    for step in training.steps:
        assert not any(t.unk for w in step.words for t in step.encode(w.replace(WS, " ")))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CORPORA, st.integers(1, 40), st.integers(2, 60))
def test_no_course_round_drops_a_character_of_the_corpus(words, size, seed_size):
    training = train_unigram(table(words), size, "course", seed_size=seed_size)
    assert missing_per_round(training) == {}


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_the_default_sample_with_the_app_settings_keeps_every_character_in_every_round(
        variant):
    training = sample_training(variant=variant)
    assert len(training) > 3  # rounds to check
    assert missing_per_round(training) == {}
    # a character is never listed as removed
    assert not [r.piece for s in training.steps for r in s.removed if len(r.piece) == 1]


def test_the_seed_sentence_counts_the_characters_every_round_keeps():
    from bpeviz.unigram.views import rounds_sentence

    training = sample_training()
    chars = corpus_characters(training)
    assert f"{len(chars):,} single characters, never removed" in rounds_sentence(training)
    assert all(chars <= set(s.pieces) for s in training.steps)


def round_trip(training, k: int) -> list[tuple[str, str]]:
    """The corpus words the exported tokenizer.json of round ``k`` does not give back."""
    tok = Tokenizer.from_str(to_hf_json(training.at(k).model))
    bad = []
    for word in training.at(k).words:
        text = word[1:].replace(WS, " ") if word.startswith(WS) else word
        if not text.strip():
            continue
        back = tok.decode(tok.encode(text).ids, skip_special_tokens=False)
        if back != text:
            bad.append((text, back))
    return bad


@pytest.mark.parametrize("variant", ["sentencepiece", "course"])
def test_every_rounds_tokenizer_json_decodes_the_default_sample_back(variant):
    training = sample_training(variant=variant)
    for k in range(len(training)):
        assert round_trip(training, k) == [], k
        assert json.loads(to_hf_json(training.at(k).model))["model"]["unk_id"] == 0


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CORPORA, st.integers(4, 40), st.sampled_from(["sentencepiece", "course"]))
def test_every_rounds_tokenizer_json_decodes_a_small_corpus_back(words, size, variant):
    training = train_unigram(table(words), size, variant,
                             **({"seed_size": 40} if variant == "course" else {}))
    for k in range(len(training)):
        assert round_trip(training, k) == [], k
