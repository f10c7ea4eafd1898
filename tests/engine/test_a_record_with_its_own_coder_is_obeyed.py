"""How a word is encoded is its record's: a record registered with its own word coder
encodes, traces, replays on another corpus and samples by that coder, on either engine,
with no other change to bpeviz.

The toy is BPE whose unknown characters make the whole word one unknown token (as
WordPiece does), instead of one unknown token per character (as BPE does).
"""

from __future__ import annotations

import dataclasses

import pytest

from bpeviz import Corpus, algorithms, replay_on, train
from bpeviz.algorithms import BPE
from bpeviz.core.coders import MergeCoder, coder_of
from bpeviz.core.encoded import _UNK
from bpeviz.core.trace import Trace

TEXT = " ".join(["the cat sat on the mat and the hat sat on the cat"] * 3)


class WholeWordUnknown(MergeCoder):
    """BPE merges, but a word with a character the vocabulary lacks is one unknown token."""

    def cut(self, enc, word):
        if -1 in self.initial(enc, word)[1]:
            return ((enc.unk_id, 0, len(word), _UNK),)
        return super().cut(enc, word)

    def trace(self, snapshot, enc, word):
        symbols, ids = self.initial(enc, word)
        if -1 in ids:
            return Trace(word, enc.algorithm, snapshot.step, tuple(symbols), (), (),
                         (enc.unk_id,), unk=True, initial_ids=tuple(ids),
                         unk_text=enc.unk_text)
        return super().trace(snapshot, enc, word)

    def with_unknown(self, ids, unk_id):
        return [unk_id] if -1 in ids else ids


TOY = dataclasses.replace(BPE, name="wordunk", label="BPE, unknown words whole (toy)",
                          coder=WholeWordUnknown())


@pytest.fixture
def toy():
    algorithms.register(TOY)
    yield TOY
    algorithms.unregister(TOY.name)


@pytest.fixture
def trainings(toy):
    corpus = Corpus.from_text(TEXT)
    return train(corpus, "wordunk", merges=12), train(corpus, "bpe", merges=12)


def test_the_record_chooses_the_coder():
    assert type(coder_of(TOY)) is WholeWordUnknown
    assert type(coder_of(BPE)) is MergeCoder


@pytest.mark.usefixtures("engine")
def test_encoding_follows_the_records_coder_on_either_engine(trainings):
    toy, bpe = trainings
    assert toy.merges == bpe.merges and toy.vocab == bpe.vocab  # training is BPE's
    text = "the cat£ sat"
    got = toy.at().encode(text)
    assert [(t.text, t.start, t.end, t.unk) for t in got] == [
        ("the", 0, 3, False), ("[UNK]", 4, 8, True), ("sat", 9, 12, False)]
    assert got[1].bytes == "cat£".encode()
    # the same vocabulary cut by BPE's own coder: one unknown token for "£" only
    assert [t.text for t in bpe.at().encode(text)] == ["the", "cat", "[UNK]", "sat"]
    assert toy.at().decode(got.ids) == "the[UNK]sat"  # BPE without a marker joins words
    assert toy.at().encode("the cat").texts == ["the", "cat"]


@pytest.mark.usefixtures("engine")
def test_the_trace_follows_the_records_coder(trainings):
    toy, bpe = trainings
    for word in ("cat£", "hat", "mats"):
        for training in trainings:
            snap = training.at()
            trace = snap.trace(word)
            assert list(trace.ids) == snap.encode(word).ids
            assert list(trace.tokens) == snap.encode(word).texts
    assert toy.at().trace("cat£").tokens == ("[UNK]",)
    assert bpe.at().trace("cat£").tokens == ("cat", "[UNK]")


def test_a_replay_on_another_corpus_follows_the_records_coder(trainings):
    toy, bpe = trainings
    text = "the cat£ sat on the mat"
    assert replay_on(toy, text).at().splits["cat£"] == ("[UNK]",)
    assert replay_on(bpe, text).at().splits["cat£"] == ("cat", "[UNK]")
    # a replayed word's split is how encoding cuts it, at every step
    replayed = replay_on(toy, text)
    for step in (0, 5, len(toy.merges)):
        for word, split in replayed.at(step).splits.items():
            assert tuple(toy.at(step).encode(word).texts) == split, (step, word)


def test_bpe_dropout_follows_the_records_coder(trainings):
    from bpeviz.core.sampling import encode_dropout

    toy, _ = trainings
    assert [t.text for t in encode_dropout(toy.at(), "the cat£", 1.0)] == [
        "t", "h", "e", "[UNK]"]


def test_a_texts_history_steps_by_the_records_coder(trainings):
    from bpeviz.present.text_history import text_history, tokens_at

    toy, _ = trainings
    text = "the cat£ sat on the mat"
    for training in trainings:
        history = text_history(training, text)
        for step in range(len(training.merges) + 1):
            assert [t[0] for t in tokens_at(history, step)] == \
                training.at(step).encode(text).ids, step
    assert _UNK in {t[3] for t in tokens_at(text_history(toy, text), 0)}


class EveryStepTried(WholeWordUnknown):
    """The toy coder, told to try every step rather than bisect: the same history."""

    def change_steps(self, training, word):
        return range(1, len(training.merges) + 1)


def test_a_coder_that_names_its_change_steps_is_tried_at_those(trainings):
    from bpeviz.present.text_history import text_history

    tried = dataclasses.replace(TOY, name="wordunk-every", coder=EveryStepTried())
    algorithms.register(tried)
    try:
        corpus = Corpus.from_text(TEXT)
        text = "the cat£ sat on the mat"
        assert text_history(train(corpus, tried.name, merges=12), text) == \
            text_history(trainings[0], text)
    finally:
        algorithms.unregister(tried.name)
