"""The HF course's Unigram (chapter 6, section 7), against its printed outputs and its code.

Source of the printed outputs and of the plain implementation below: the Hugging Face
course, ``chapters/en/chapter6/7.mdx`` ("Unigram tokenization", section "Implementing
Unigram"), https://github.com/huggingface/course/blob/main/chapters/en/chapter6/7.mdx
(XLNet's pre-tokenizer there is Metaspace: words split on spaces, "▁" in front).
"""

from __future__ import annotations

import copy
from math import log

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bpeviz.text.metaspace import metaspace_spans, metaspace_words
from bpeviz.unigram import train_unigram
from bpeviz.unigram.course import compute_loss, encode_word, seed_frequencies, train_course

CORPUS = [
    "This is the Hugging Face Course.",
    "This chapter is about tokenization.",
    "This section shows several tokenizer algorithms.",
    "Hopefully, you will be able to understand how they are trained and generate tokens.",
]


def word_freqs_of(texts):
    freqs = {}
    for text in texts:
        for word in metaspace_words(text):
            freqs[word] = freqs.get(word, 0) + 1
    return freqs


# -- the course's code, written out plainly (the reference) ------------------------------
def course_reference(word_freqs, vocab_size, seed_size=300, percent_to_remove=0.1):
    char_freqs, subwords_freqs = {}, {}
    for word, freq in word_freqs.items():
        for i in range(len(word)):
            char_freqs[word[i]] = char_freqs.get(word[i], 0) + freq
            for j in range(i + 2, len(word) + 1):
                subwords_freqs[word[i:j]] = subwords_freqs.get(word[i:j], 0) + freq
    sorted_subwords = sorted(subwords_freqs.items(), key=lambda x: x[1], reverse=True)
    token_freqs = list(char_freqs.items()) + sorted_subwords[: seed_size - len(char_freqs)]
    token_freqs = {token: freq for token, freq in token_freqs}

    def make_model():
        total_sum = sum(freq for token, freq in token_freqs.items())
        return {token: -log(freq / total_sum) for token, freq in token_freqs.items()}

    def ref_encode(word, model):
        best = [{"start": 0, "score": 1}] + [{"start": None, "score": None}
                                             for _ in range(len(word))]
        for start_idx in range(len(word)):
            best_score_at_start = best[start_idx]["score"]
            for end_idx in range(start_idx + 1, len(word) + 1):
                token = word[start_idx:end_idx]
                if token in model and best_score_at_start is not None:
                    score = model[token] + best_score_at_start
                    if best[end_idx]["score"] is None or best[end_idx]["score"] > score:
                        best[end_idx] = {"start": start_idx, "score": score}
        segmentation = best[-1]
        if segmentation["score"] is None:
            return ["<unk>"], None
        score, start, end, tokens = segmentation["score"], segmentation["start"], len(word), []
        while start != 0:
            tokens.insert(0, word[start:end])
            next_start = best[start]["start"]
            end = start
            start = next_start
        tokens.insert(0, word[start:end])
        return tokens, score

    def ref_loss(model):
        return sum(freq * ref_encode(word, model)[1] for word, freq in word_freqs.items())

    model = make_model()
    history = [(dict(model), ref_loss(model))]
    while len(model) > vocab_size:
        model_loss = ref_loss(model)
        scores = {}
        for token in model:
            if len(token) == 1:
                continue
            model_without_token = copy.deepcopy(model)
            model_without_token.pop(token)
            scores[token] = ref_loss(model_without_token) - model_loss
        sorted_scores = sorted(scores.items(), key=lambda x: x[1])
        for i in range(int(len(model) * percent_to_remove)):
            token_freqs.pop(sorted_scores[i][0])
        model = make_model()
        history.append((dict(model), ref_loss(model)))
    return history, lambda word: ref_encode(word, model)[0]


# -- the course's printed outputs ------------------------------------------------------
def test_course_printed_numbers_are_reproduced():
    word_freqs = word_freqs_of(CORPUS)
    token_freqs = seed_frequencies(word_freqs, 300)
    assert len(token_freqs) == 300
    total = sum(token_freqs.values())
    model = {t: -log(f / total) for t, f in token_freqs.items()}
    assert encode_word("Hopefully", model) == (["H", "o", "p", "e", "f", "u", "ll", "y"],
                                               41.5157494601402)
    assert encode_word("This", model) == (["This"], 6.288267030694535)
    assert compute_loss(model, word_freqs) == 413.10377642940875
    loss = compute_loss(model, word_freqs)
    for token, expected in (("ll", 6.376412403623874), ("his", 0.0)):
        without = {t: s for t, s in model.items() if t != token}
        assert compute_loss(without, word_freqs) - loss == expected


@pytest.fixture(scope="module")
def course_training():
    return train_unigram(" ".join(CORPUS), 100, variant="course")


def test_course_final_tokenization_is_reproduced(course_training):
    training = course_training
    assert training.at(0).loss == 413.10377642940875
    tokens = training.final.encode("This is the Hugging Face course.")
    assert [t.text for t in tokens] == ["▁This", "▁is", "▁the", "▁Hugging", "▁Face", "▁", "c",
                                        "ou", "r", "s", "e", "."]
    text = "This is the Hugging Face course."
    assert [text[t.start:t.end] for t in tokens][:2] == ["This", " is"]


def test_course_seed_order_matches_the_printed_top_ten():
    ranked = list(seed_frequencies(word_freqs_of(CORPUS), 10_000).items())
    chars = len({c for w in word_freqs_of(CORPUS) for c in w})
    assert ranked[chars:chars + 10] == [("▁t", 7), ("is", 5), ("er", 5), ("▁a", 5), ("▁to", 4),
                                        ("to", 4), ("en", 4), ("▁T", 3), ("▁Th", 3), ("▁Thi", 3)]


# -- against the plain implementation --------------------------------------------------------
def check_against_reference(word_freqs, vocab_size, seed_size, training=None):
    history, ref_tokenize = course_reference(word_freqs, vocab_size, seed_size)
    if training is None:
        training = train_course(word_freqs, vocab_size, seed_size=seed_size)
    assert len(training.steps) == len(history)
    for step, (model, loss) in zip(training.steps, history):
        assert step.pieces == tuple(model)
        assert step.loss == loss
        assert all(step.log_probs[t] == -s for t, s in model.items())
    for word in word_freqs:
        assert training.final.splits[word] == tuple(ref_tokenize(word))


def test_course_equals_the_plain_implementation_on_the_course_corpus(course_training):
    check_against_reference(word_freqs_of(CORPUS), 100, 300, course_training)


words = st.text(alphabet="abcdeé▁", min_size=1, max_size=7)


@settings(max_examples=10, deadline=None)
@given(st.dictionaries(words, st.integers(1, 9), min_size=1, max_size=8),
       st.integers(10, 30), st.integers(10, 50))
def test_course_equals_the_plain_implementation(word_freqs, vocab_size, seed_size):
    chars = {c for w in word_freqs for c in w}
    multi = len(seed_frequencies(word_freqs, seed_size)) - len(chars)
    # the course's loop needs a removable token every round (it never stops otherwise)
    assume(vocab_size > len(chars) and multi >= 1 and seed_size >= len(chars))
    assume(len(seed_frequencies(word_freqs, seed_size)) - vocab_size < multi)
    check_against_reference(word_freqs, vocab_size, seed_size)


@settings(max_examples=12, deadline=None)
@given(st.dictionaries(words, st.integers(1, 9), min_size=1, max_size=12), st.integers(1, 30))
def test_course_pruning_never_removes_a_character(word_freqs, vocab_size):
    training = train_course(word_freqs, vocab_size, seed_size=60)
    chars = {c for w in word_freqs for c in w}
    for step in training.steps:
        assert chars <= set(step.pieces)
        assert all(len(r.piece) > 1 for r in step.removed)
        for word in word_freqs:  # every word stays encodable
            assert "".join(step.splits[word]) == word


def test_metaspace_words_and_spans():
    text = "This is  the\tHugging Face Course."
    assert metaspace_words(text) == ["▁This", "▁is", "▁the", "▁Hugging", "▁Face", "▁Course."]
    assert ["▁" + text[s:e] for s, e in metaspace_spans(text)] == metaspace_words(text)
