"""``training.replay(corpus)``: the same merges, base vocabulary and ids, counted on another
corpus, checked against a plain from-scratch replay written here, against encoding, and
for trainings opened from every file format."""

from __future__ import annotations

import math
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bpeviz import Corpus, formats, replay_on, train
from bpeviz.core.encoding import UNK_TOKENS
from bpeviz.formats import import_files

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

#: (algorithm, training keywords)
VARIANTS = {
    "bpe": ("bpe", {}),
    "bpe-separate": ("bpe", {"marker": "</w>"}),
    "bpe-glued": ("bpe", {"marker": "</w>", "marker_style": "glued"}),
    "bpe-ids": ("bpe", {"tie_break": "ids"}),
    "bbpe": ("bbpe", {}),
    "wordpiece": ("wordpiece", {}),
    "wordpiece-frequency": ("wordpiece", {"scoring": "frequency"}),
}


# -- the reference: a plain replay, written from the definition ------------------------------
def first_symbols(word, algorithm, marker, style):
    if algorithm == "bbpe":
        return [bytes([b]) for b in word.encode("utf-8")]
    if algorithm == "wordpiece":
        return [word[0]] + ["##" + ch for ch in word[1:]]
    out = list(word)
    if marker and style == "glued":
        out[-1] += marker
    elif marker:
        out.append(marker)
    return out


def joined(a, b, algorithm):
    return a + (b[2:] if algorithm == "wordpiece" and b.startswith("##") else b)


def reference_replay(training, corpus):
    """Per merge (count, score, replaced, token id), and the splits after every step."""
    o = training.options
    vocab = list(training.vocab[: training.n_base])
    ids = {}
    for i, s in enumerate(vocab):
        ids.setdefault(s, i)
    unk = next((u for u in UNK_TOKENS if u in ids), None)
    words = []
    for word in corpus.words:
        symbols = first_symbols(word, o.algorithm, o.marker, o.marker_style)
        if any(s not in ids for s in symbols):
            symbols = ([unk] if o.algorithm == "wordpiece"
                       else [s if s in ids else unk for s in symbols])
        words.append(symbols)
    counts = corpus.counts
    records, splits = [], [[tuple(w) for w in words]]
    for m in training.merges:
        pair_count = sum(c * sum(1 for x, y in pairwise(w) if (x, y) == (m.left, m.right))
                         for w, c in zip(words, counts))
        if o.algorithm == "wordpiece" and o.scoring == "score" and pair_count:
            unit = {}
            for w, c in zip(words, counts):
                for s in w:
                    unit[s] = unit.get(s, 0) + c
            score = pair_count / (unit[m.left] * unit[m.right])
        else:
            score = float(pair_count)
        token = joined(m.left, m.right, o.algorithm)
        if token not in ids:
            ids[token] = len(vocab)
            vocab.append(token)
        replaced = 0
        for n, (w, c) in enumerate(zip(words, counts)):
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == (m.left, m.right):
                    out.append(token)
                    replaced += c
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            words[n] = out
        records.append((pair_count, score, replaced, ids[token]))
        splits.append([tuple(w) for w in words])
    return records, splits


def assert_replay_matches_reference(training, corpus):
    replayed = replay_on(training, corpus)
    records, splits = reference_replay(training, corpus)
    assert replayed.vocab == training.vocab
    assert [(m.left, m.right, m.token, m.left_id, m.right_id) for m in replayed.merges] == \
        [(m.left, m.right, m.token, m.left_id, m.right_id) for m in training.merges]
    got = [(m.count, m.score, m.replaced, m.token_id) for m in replayed.merges]
    assert [(c, r, t) for c, _, r, t in got] == [(c, r, t) for c, _, r, t in records]
    assert all(math.isclose(a[1], b[1], rel_tol=1e-12) for a, b in zip(got, records))
    for step in range(len(replayed.merges) + 1):
        snap = replayed.at(step)
        assert [snap.splits[w] for w in corpus.words] == splits[step], step
        assert snap.token_count == sum(len(s) * c for s, c in zip(splits[step], corpus.counts))
    return replayed


letters = st.sampled_from("aabbcdé苹x")
texts = st.lists(st.text(letters, min_size=1, max_size=8), min_size=1, max_size=12).map(" ".join)


@SETTINGS
@given(variant=st.sampled_from(sorted(VARIANTS)), trained_on=texts, replayed_on=texts,
       merges=st.integers(0, 12))
def test_replay_equals_a_from_scratch_replay(variant, trained_on, replayed_on, merges):
    algorithm, options = VARIANTS[variant]
    corpus = Corpus.from_text(trained_on)
    if not corpus.words:
        return
    training = train(corpus, algorithm, merges=merges, **options)
    other = Corpus.from_text(replayed_on)
    assert_replay_matches_reference(training, other)


@SETTINGS
@given(variant=st.sampled_from(sorted(VARIANTS)), text=texts, merges=st.integers(0, 12))
def test_replay_on_its_own_corpus_is_the_training(variant, text, merges):
    algorithm, options = VARIANTS[variant]
    corpus = Corpus.from_text(text)
    if not corpus.words:
        return
    training = train(corpus, algorithm, merges=merges, **options)
    again = replay_on(training, corpus)
    assert again.merges == training.merges and again.vocab == training.vocab
    assert again.stop_reason == "replayed"


@SETTINGS
@given(variant=st.sampled_from(["bpe", "bpe-separate", "bpe-glued", "bbpe"]),
       trained_on=texts, replayed_on=texts, data=st.data())
def test_replayed_splits_are_how_encoding_cuts_each_word(variant, trained_on, replayed_on,
                                                         data):
    algorithm, options = VARIANTS[variant]
    training = train(Corpus.from_text(trained_on), algorithm, merges=10, **options)
    replayed = replay_on(training, replayed_on)
    step = data.draw(st.integers(0, len(training.merges)))
    snap = replayed.at(step)
    for index, word in enumerate(replayed.corpus.words):
        assert snap.split_ids(index) == [t.id for t in training.at(step).encode(word)], word


def test_a_merge_that_never_occurs_is_kept_with_count_zero():
    training = train(Corpus.from_text("low low lower newest"), merges=4)
    replayed = replay_on(training, "zzz low")
    assert [m.token for m in replayed.merges] == [m.token for m in training.merges]
    assert [m.count for m in replayed.merges] == [1, 1, 0, 0]
    assert replayed.merges[3].replaced == 0 and replayed.at(4).splits["zzz"] == (
        "[UNK]", "[UNK]", "[UNK]")


def test_a_text_is_cut_with_the_trainings_pretokenizer():
    training = train(Corpus.from_text("the cat, the hat", "gpt2"), "bbpe", merges=5)
    by_text = replay_on(training, "a cat, a bat")
    assert by_text.corpus == Corpus.from_text("a cat, a bat", "gpt2")
    with pytest.raises(ValueError, match=r"'gpt2' pre-tokenizer.*'whitespace'"):
        replay_on(training, Corpus.from_text("a cat"))
    counts = train(Corpus.from_counts({"low": 3, "lower": 1}), merges=2)
    assert replay_on(counts, Corpus.from_text("low lowest")).merges[0].count == 2  # whitespace


def test_a_vocabulary_without_an_unknown_token_refuses_unknown_characters():
    training = train(Corpus.from_text("ab ab"), merges=1, special_tokens=())
    assert replay_on(training, "ba ab").merges[0].count == 1
    with pytest.raises(ValueError, match="'zab' holds 'z', which this vocabulary lacks"):
        replay_on(training, "zab")


def test_wordpiece_unknown_words_are_one_unknown_token():
    training = train(Corpus.from_text("hug hugs pug"), "wordpiece", merges=3)
    replayed = assert_replay_matches_reference(training, Corpus.from_text("hugz hug"))
    assert replayed.at().splits["hugz"] == ("[UNK]",)


# -- opened files: every import format -------------------------------------------------------
TRAIN = "the quick brown fox jumps over the lazy dog; the dog sleeps, the fox runs " * 3
OTHER = "a fox and a dog went over the hill, quickly! the end " * 2


@pytest.mark.parametrize(("algorithm", "pretokenizer", "fmt", "options"), [
    ("bpe", "whitespace", "hf", {}),
    ("bpe", "whitespace", "gpt2", {"marker": "</w>"}),
    ("bbpe", "gpt2", "hf", {}),
    ("bbpe", "gpt2", "gpt2", {}),
    ("bbpe", "gpt2", "tiktoken", {}),
    ("bbpe", "gpt2", "training", {}),
    ("bpe", "whitespace", "training", {"marker": "</w>"}),
    ("wordpiece", "whitespace", "training", {}),
])
def test_opened_files_replay_like_the_training_they_came_from(algorithm, pretokenizer, fmt,
                                                              options):
    training = train(Corpus.from_text(TRAIN, pretokenizer), algorithm, merges=40, **options)
    step = 30
    opened = import_files(formats.export(training.at(step), fmt))
    other = Corpus.from_text(OTHER, pretokenizer)
    replayed = assert_replay_matches_reference(opened, other)
    assert replayed.vocab == opened.vocab
    direct = replay_on(training, other)
    assert [(m.token_id, m.count, m.replaced) for m in replayed.merges[:step]] == \
        [(m.token_id, m.count, m.replaced) for m in direct.merges[:step]]


def test_opened_gpt2_files_keep_tokens_listed_after_the_merges():
    import json

    training = train(Corpus.from_text(TRAIN, "gpt2"), "bbpe", merges=20)
    files = formats.export(training.at(), "gpt2")
    vocab = json.loads(files["vocab.json"])
    vocab["<|endoftext|>"] = len(vocab)
    files["vocab.json"] = json.dumps(vocab)
    opened = import_files(files)
    replayed = replay_on(opened, OTHER)
    assert replayed.vocab == opened.vocab and replayed.vocab[-1] == b"<|endoftext|>"
    assert replayed.at(0).decode([len(vocab) - 1]) == "<|endoftext|>"


def test_a_vocab_txt_has_nothing_to_replay():
    training = train(Corpus.from_text(TRAIN), "wordpiece", merges=30)
    opened = import_files(formats.export(training.at(), "vocab"))
    with pytest.raises(ValueError, match="no merges, so there is nothing to replay"):
        replay_on(opened, OTHER)
    letters_only = import_files({"vocab.txt": "[UNK]\na\nb\n##a\n##b\n"})
    replayed = replay_on(letters_only, "ab ba abc")
    assert replayed.at().splits["abc"] == ("[UNK]",) and replayed.vocab == letters_only.vocab
