"""Trainings of merges (BPE, byte-level BPE, WordPiece), Unigram trainings (both
variants) and an opened SentencePiece ``.model`` answer the same calls
(:mod:`bpeviz.core.protocol`): the same code reads their last step, each step's state and
its encoding, the vocabulary size and the corpus's tokens at every step, and why a step
happened; every value is checked against a direct computation from the training's own
records."""

from __future__ import annotations

import io

import numpy as np
import pytest
import sentencepiece as spm

from bench.data import corpus_path, corpus_text
from bpeviz import Corpus, train
from bpeviz.algorithms import get as get_algorithm
from bpeviz.analysis import compare as cmp
from bpeviz.core import protocol
from bpeviz.core.protocol import AnyStep, AnyTraining
from bpeviz.formats import import_files
from bpeviz.unigram import UnigramTraining
from bpeviz.unigram.spm import OpenedModel, load_spm

TEXT = "The tokenizer's tokens: unseen wörds, 12345 and emoji \U0001f600."


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.from_text(corpus_text(0.01))


@pytest.fixture(scope="module")
def trainings(corpus) -> dict[str, AnyTraining]:
    small = Corpus.from_text(corpus_text(0.002))
    return {
        "bpe": train(corpus, algorithm="bpe", merges=60),
        "bbpe": train(corpus, algorithm="bbpe", merges=40),
        "wordpiece": train(corpus, algorithm="wordpiece", merges=40),
        "unigram": train(corpus, algorithm="unigram", vocab_size=300),
        "course": train(small, algorithm="unigram", variant="course", vocab_size=90,
                        seed_size=150),
    }


KINDS = ["bpe", "bbpe", "wordpiece", "unigram", "course"]


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_calls_read_any_training(trainings, kind):
    t = trainings[kind]
    assert isinstance(t, AnyTraining)
    last = protocol.last_step(t)
    assert last == (len(t.merges) if kind in ("bpe", "bbpe", "wordpiece")
                    else len(t.steps) - 1) > 2
    assert protocol.step_name(t) == get_algorithm(t.algorithm).step
    assert protocol.step_name(t) == ("pruning round" if isinstance(t, UnigramTraining)
                                     else "merge")
    sizes = protocol.vocab_sizes(t)
    tokens = t.token_counts()
    assert len(sizes) == len(tokens) == last + 1
    for k in range(last + 1):
        step = t.at(k)
        assert isinstance(step, AnyStep) and step.step == k
        assert sizes[k] == t.vocab_size_at(k)
        assert protocol.corpus_tokens(t, k) == tokens[k]
        assert [tok.id for tok in step.encode(TEXT)] == [tok.id for tok in t.at(k).encode(TEXT)]
    assert t.at().step == last
    for k in (1, last // 2, last):
        assert t.explain(k).step == k
    for wrong in (-1, last + 1):
        with pytest.raises(ValueError):
            t.at(wrong)
    with pytest.raises(ValueError, match="step 0 is the"):
        t.explain(0)
    assert t.stop_message


@pytest.mark.parametrize("kind", ["bpe", "bbpe", "wordpiece"])
def test_a_merge_trainings_answers_are_its_records(trainings, corpus, kind):
    t = trainings[kind]
    for k in range(protocol.last_step(t) + 1):
        snap = t.at(k)
        assert t.vocab_size_at(k) == len(snap.vocab)
        assert t.token_counts()[k] == sum(len(s) * c for s, c in zip(snap.splits.values(),
                                                                     corpus.counts))
    growing = protocol.vocab_sizes(t)
    assert (np.diff(growing) >= 0).all() and growing[-1] == len(t.vocab)


@pytest.mark.parametrize("kind", ["unigram", "course"])
def test_a_unigram_trainings_answers_are_its_records(trainings, kind):
    t = trainings[kind]
    for k, step in enumerate(t.steps):
        model = step.model
        assert t.vocab_size_at(k) == len(set(model.specials) | set(model.pieces))
        direct = sum(c * len(model.split(w)) for w, c in zip(step.words, step.counts))
        assert t.token_counts()[k] == direct == step.token_count
        assert t.at(k).encode(TEXT) == model.encode(TEXT)
    assert t.vocab_size_at(protocol.last_step(t)) == t.size + (len(t.final.model.specials)
                                                              if kind == "course" else 0)
    shrinking = protocol.vocab_sizes(t)
    assert shrinking[0] > shrinking[-1]
    why = t.explain(1)
    assert why.pieces_before == len(t.at(0).pieces) and why.pieces_after == len(t.at(1).pieces)
    assert why.removed == t.at(0).removed
    assert (why.loss_before, why.loss_after) == (t.at(0).loss, t.at(1).loss)
    counts = t.token_counts()
    counts[0] = -1  # a copy: the training's own counts stay
    assert t.token_counts()[0] != -1


@pytest.mark.parametrize("kind", ["unigram", "course"])
def test_compares_unigram_answers_are_the_protocols(trainings, kind):
    t = trainings[kind]
    assert cmp.vocab_sizes(t).tolist() == [len(s.model.ids) for s in t.steps]
    assert cmp.vocab_sizes(t).tolist() == protocol.vocab_sizes(t).tolist()
    assert cmp.corpus_tokens(t).tolist() == t.token_counts().tolist()
    for k in range(protocol.last_step(t) + 1):
        assert cmp.vocabulary_size(t, k) == t.vocab_size_at(k)
        assert cmp.at(t, k).encode(TEXT) == t.at(k).encode(TEXT)


def test_an_opened_model_answers_too():
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(input=str(corpus_path(0.05)), model_writer=out,
                                   vocab_size=500, model_type="unigram", minloglevel=3)
    opened = import_files({"m.model": out.getvalue()})
    assert isinstance(opened, OpenedModel) and isinstance(opened, AnyTraining)
    assert protocol.last_step(opened) == 0 and protocol.step_name(opened) == "pruning round"
    assert protocol.vocab_sizes(opened).tolist() == [500]
    assert [t.id for t in opened.at(0).encode(TEXT)] == load_spm(out.getvalue()).encode_ids(TEXT)
    assert cmp.vocab_sizes(opened).tolist() == [500]
    assert cmp.at(opened, 0).encode(TEXT) == opened.at(0).encode(TEXT)
    with pytest.raises(ValueError):
        opened.explain(0)
