"""A Unigram training says when its vocabulary is not the size asked for
(``stop_reason``, ``stopped_early``, ``stop_message``, as merge trainings do), where
sentencepiece refuses to train: fewer pieces than asked ("Vocabulary size too high"),
or more characters than asked ("Vocabulary size is smaller than required_chars"). The
CLI prints the message and the app shows it above the round bar."""

from __future__ import annotations

import io
import re

import pytest
import sentencepiece as spm

from bpeviz.unigram import train_unigram

TEXT = "hello world hello there\nthe world is here\n"


def spm_refusal(vocab_size: int) -> str:
    with pytest.raises(RuntimeError) as err:
        spm.SentencePieceTrainer.train(
            sentence_iterator=iter(TEXT.splitlines()), model_writer=io.BytesIO(),
            vocab_size=vocab_size, model_type="unigram", minloglevel=3,
            normalization_rule_name="identity")
    return str(err.value)


def test_fewer_pieces_than_asked_is_said_where_sentencepiece_refuses():
    training = train_unigram(TEXT, vocab_size=100)
    refusal = spm_refusal(100)
    most = int(re.search(r"<= (\d+)", refusal).group(1))
    assert "Vocabulary size too high" in refusal
    assert training.size == most and training.requested_size == 100
    assert training.stop_reason == "few_pieces" and training.stopped_early
    assert training.stop_message.startswith(f"Only {most} tokens, not the 100 asked for: ")
    assert "Vocabulary size too high" in training.stop_message


def test_more_characters_than_asked_is_said_where_sentencepiece_refuses():
    training = train_unigram(TEXT, vocab_size=10)
    refusal = spm_refusal(10)
    needed = int(re.search(r"10 vs (\d+)", refusal).group(1))
    assert "Vocabulary size is smaller than required_chars" in refusal
    assert training.size >= needed > 10
    assert {p for p in training.final.pieces if len(p) == 1} == set("".join(TEXT.split()) + "▁")
    assert training.stop_reason == "characters" and training.stopped_early
    assert training.stop_message.startswith(f"{training.size} tokens, more than the 10 "
                                            "asked for: every character")


def test_a_size_chosen_for_the_corpus_says_chosen_and_the_app_does_not_warn():
    from tests.support.app import ok, unigram_app
    from tests.support.trainings import sample_training

    training = sample_training(sample="hug")  # the plan goes under the characters
    assert training.size_is_chosen and training.stop_reason == "characters"
    assert "chosen for the corpus" in training.stop_message
    at = ok(unigram_app("pages/1_Explore.py", sample="hug"))
    assert not at.warning


def test_the_size_asked_for_is_not_an_early_stop():
    training = train_unigram(TEXT, vocab_size=17)
    assert training.size == 17 and training.stop_reason == "vocab_size"
    assert not training.stopped_early
    assert training.stop_message == "Trained 17 tokens: reached the requested vocabulary size."


def test_the_course_variant_says_when_its_seed_is_smaller_than_asked():
    training = train_unigram(TEXT, vocab_size=1000, variant="course")
    assert training.stop_reason == "few_pieces"
    assert training.stop_message.startswith(f"Only {len(training.final.pieces)} tokens, not "
                                            "the 1,000 asked for")
    assert "sentencepiece" not in training.stop_message
    at_most = train_unigram(TEXT, vocab_size=30, variant="course")
    assert at_most.size <= 30 and not at_most.stopped_early


def test_the_app_shows_the_message_above_the_round_bar():
    from bpeviz.present.render import md_escape
    from tests.support.app import ok, unigram_app
    from tests.support.trainings import sample_training

    expected = sample_training(vocab=1000, sample="hug").stop_message
    assert expected.startswith("Only ")
    for page in ("pages/1_Explore.py", "pages/2_Tokenize.py", "pages/4_Vocabulary.py"):
        at = unigram_app(page, uvocab=1000, sample="hug")
        ok(at)
        assert [w.value for w in at.warning] == [md_escape(expected)], page
