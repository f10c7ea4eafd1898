"""Compare's questions answered for Unigram (bpeviz.analysis.compare and
bpeviz.analysis.curves, through the calls every training answers), each checked against
a direct computation from the training's rounds: the round for a vocabulary size against
a scan of every round's size, the cut at a round against that round's Viterbi encoder,
metrics and curves against bpeviz.analysis.compare.metrics of that encoding."""

from __future__ import annotations

import functools
import itertools

import pytest

from bpeviz import Corpus, train
from bpeviz.analysis import compare as cmp
from bpeviz.analysis.compare import TrainingStep, vocab_sizes
from bpeviz.analysis.curves import metric_curve
from bpeviz.core.protocol import step_name
from bpeviz.samples import load_sample, sample_bytes
from bpeviz.unigram.corpus_words import train_corpus
from tests.support import ROOT

TEXT = "low lower lowest 苹果派 naïve café  The tokenizer learns tokens 👍🏽 ¿x?"
TEXTS = [TEXT, "", "   ", "a", "\u2581hug \t tab\nline", "ありがとう 자연어 مرحبا"]


@functools.cache
def unigram(vocab: int = 600, variant: str = "sentencepiece"):
    """A Unigram training of the default sample, as the app makes it."""
    corpus = Corpus.from_bytes(sample_bytes("tour"), "metaspace", "auto")
    return train_corpus(corpus, vocab, variant)


@functools.cache
def bpe():
    return train(load_sample("tour", "whitespace"), "bpe", merges=200)


TRAININGS = [(600, "sentencepiece"), (400, "sentencepiece"), (300, "course")]


def scan(sizes: list[int], target: int) -> int:
    """The round whose size is the largest of at most ``target`` (earliest on a tie), else
    the round of the smallest size: written from the definition, by brute force."""
    best = None
    for k, n in enumerate(sizes):
        if n <= target and (best is None or n > sizes[best]):
            best = k
    if best is None:
        best = sizes.index(min(sizes))
    return best


@pytest.mark.parametrize("vocab,variant", TRAININGS)
def test_vocabulary_size_at_a_round_counts_its_special_tokens_and_pieces(vocab, variant):
    training = unigram(vocab, variant)
    for k in range(len(training)):
        model = training.at(k).model
        assert cmp.vocabulary_size(training, k) == len(set(model.specials) | set(model.pieces))
    assert cmp.last_step(training) == len(training) - 1
    assert cmp.step_unit(training) == "pruning round" == step_name(training)
    assert cmp.step_unit(bpe()) == "step" and step_name(bpe()) == "merge"


@pytest.mark.parametrize("vocab,variant", TRAININGS)
def test_the_round_for_a_vocabulary_size_is_the_scans(vocab, variant):
    training = unigram(vocab, variant)
    sizes = [cmp.vocabulary_size(training, k) for k in range(len(training))]
    assert vocab_sizes(training).tolist() == sizes
    assert cmp.vocab_range(training) == (min(sizes), max(sizes))
    for target in range(min(sizes) - 3, max(sizes) + 4):
        found = cmp.step_for_vocab_size(training, target)
        k = scan(sizes, target)
        assert (found.step, found.vocab_size, found.target) == (k, sizes[k], target)
        assert (found.note == "") == (sizes[k] == target)
        if found.note:
            assert "round" in found.note and "step" not in found.note
            assert f"{sizes[k]:,}" in found.note and f"{target:,}" in found.note


def test_round_vocabularies_never_grow_back_and_a_size_finds_the_closest_round():
    training = unigram(600)
    sizes = vocab_sizes(training).tolist()
    # every round keeps every character: the final cut has none to put back
    assert all(b <= a for a, b in itertools.pairwise(sizes)), sizes
    target = sizes[-1] + 1
    found = cmp.step_for_vocab_size(training, target)
    assert found.vocab_size == sizes[-1] and found.step == sizes.index(sizes[-1])
    below = min(sizes) - 1
    assert cmp.step_for_vocab_size(training, below).note.startswith(
        f"even its smallest vocabulary has {min(sizes):,} tokens")


@pytest.mark.parametrize("vocab,variant", TRAININGS)
@pytest.mark.parametrize("text", TEXTS)
def test_the_cut_at_a_round_is_that_rounds_viterbi_encoding(vocab, variant, text):
    training = unigram(vocab, variant)
    other = bpe()
    for k in range(len(training)):
        snap = cmp.at(training, k)
        assert isinstance(snap, TrainingStep) and snap.step == k
        direct = training.at(k).model.encode(text)
        result = cmp.compare([("A", other.at(200)), ("B", snap)], text)
        cut = result.cuts[1]
        assert list(cut.tokens) == direct
        assert (cut.step, cut.vocab_size) == (k, cmp.vocabulary_size(training, k))
        assert cmp.metrics(text, cut.tokens) == cmp.metrics(text, direct)
        # the differing boundaries are those one cut has and the other lacks
        assert set(result.differing) == result.cuts[0].boundaries ^ cut.boundaries
        spans = cmp.token_spans(text, direct)
        assert list(cut.spans) == spans
        for (start, end), flag in zip(((t.start, t.end) for t in direct), cut.differs):
            if flag:
                assert any(a <= start and end <= b for a, b in cut.diff_spans)


def test_a_round_out_of_range_is_a_clear_error():
    training = unigram()
    with pytest.raises(ValueError, match="out of range"):
        cmp.at(training, len(training))


@pytest.mark.parametrize("vocab,variant", TRAININGS)
@pytest.mark.parametrize("by_script", [False, True])
def test_metric_curves_are_the_metrics_of_each_rounds_encoding(vocab, variant, by_script):
    training = unigram(vocab, variant)
    rows = metric_curve(training, TEXT, by_script=by_script)
    assert sorted({r["step"] for r in rows}) == list(range(len(training)))
    for row in rows:
        tokens = training.at(row["step"]).encode(TEXT)
        assert row["vocab_size"] == cmp.vocabulary_size(training, row["step"])
        if by_script:
            expected = cmp.metrics_by_script(TEXT, tokens)[row["script"]]
        else:
            expected = cmp.metrics(TEXT, tokens)
        assert {k: row[k] for k in expected.row()} == expected.row()


@pytest.mark.parametrize("vocab,variant", TRAININGS)
def test_corpus_tokens_per_round_are_every_words_viterbi_pieces(vocab, variant):
    training = unigram(vocab, variant)
    counts = cmp.corpus_tokens(training)
    assert len(counts) == len(training)
    for k, n in enumerate(counts):
        step = training.at(k)
        assert n == sum(c * len(step.model.split(w)) for w, c in zip(step.words, step.counts))
    assert list(cmp.corpus_tokens(bpe())) == list(bpe().token_counts())


def test_the_unigram_adapter_does_not_import_streamlit():
    import subprocess
    import sys

    code = "import sys, bpeviz.analysis.compare; sys.exit('streamlit' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0
