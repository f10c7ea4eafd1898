"""The algorithm registry: every module asks the record, so a new algorithm is one record.

A toy algorithm registered from this test module (character BPE with no unknown token and
GPT-2 pre-tokenization) trains, replays, encodes, saves, exports and shows up in the CLI
without any other change to bpeviz.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from bpeviz import Corpus, algorithms, formats, load, save, train
from bpeviz.algorithms import BPE, Algorithm
from bpeviz.cli import main
from bpeviz.core.training import base_vocabulary, make_options, replay
from tests.support.reference import naive_train

TOY = Algorithm(
    name="charbpe",
    label="Character BPE (toy)",
    help="BPE over characters with no [UNK] and GPT-2 pre-tokenization.",
    units="characters",
    special_tokens=(),
    pretokenizer="gpt2",
    encoder="merges",
    export_formats=("hf", "training"),
)
TEXT = "the cat sat on the mat; the hat sat on the cat. That's that!"


@pytest.fixture
def toy():
    algorithms.register(TOY)
    yield TOY
    algorithms.unregister(TOY.name)


def test_the_built_in_records_say_what_the_modules_used_to_spell_out():
    bpe, bbpe, wp = (algorithms.get(n) for n in ("bpe", "bbpe", "wordpiece"))
    assert [a.pretokenizer for a in (bpe, bbpe, wp)] == ["whitespace", "gpt2", "whitespace"]
    assert [a.special_tokens for a in (bpe, bbpe, wp)] == [
        ("[UNK]",), (), ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")]
    assert [a.scored for a in (bpe, bbpe, wp)] == [False, False, True]
    assert [a.encoder for a in (bpe, bbpe, wp)] == ["merges", "merges", "longest_match"]
    assert [a.takes_marker for a in (bpe, bbpe, wp)] == [True, False, False]
    assert [a.step for a in (bpe, bbpe, wp)] == ["merge"] * 3
    assert all("training" in a.export_formats and "hf" in a.export_formats
               for a in (bpe, bbpe, wp))


def test_an_unknown_algorithm_is_refused_by_name_with_the_choices():
    with pytest.raises(ValueError, match="unknown algorithm 'charbpe'; choose one of bpe, bbpe"):
        train(Corpus.from_text(TEXT), "charbpe", merges=3)


def test_a_record_that_contradicts_itself_is_refused():
    with pytest.raises(ValueError, match="byte-level"):
        Algorithm(name="x", label="x", help="x", units="bytes", special_tokens=("[UNK]",))
    with pytest.raises(ValueError, match="encoder"):
        Algorithm(name="x", label="x", help="x", encoder="viterbi")


@pytest.mark.usefixtures("toy")
def test_a_registered_toy_algorithm_trains_like_the_reference(engine):
    corpus = Corpus.from_text(TEXT, TOY.pretokenizer)
    training = train(corpus, "charbpe", merges=12)
    assert training.options.special_tokens == ()  # the record's default, not BPE's [UNK]
    expected, history = naive_train(corpus, "charbpe", 12)
    assert [(m.left, m.right) for m in training.merges] == expected
    assert list(training.at().splits.values()) == [tuple(s) for s in history[-1]]
    # the same merges as BPE asked for no special tokens: the record only changed defaults
    bpe = train(corpus, "bpe", merges=12, special_tokens=[])
    assert [(m.left, m.right, m.count) for m in training.merges] == [
        (m.left, m.right, m.count) for m in bpe.merges]
    again = replay(corpus, training.options, [(m.left, m.right) for m in training.merges])
    assert again.merges == training.merges


@pytest.mark.usefixtures("toy")
def test_a_toy_algorithm_encodes_saves_exports_and_reaches_the_cli(tmp_path, capsys):
    corpus = Corpus.from_text(TEXT, TOY.pretokenizer)
    training = train(corpus, make_options("charbpe", merges=8))
    snap = training.at()
    tokens = snap.encode("the cat")
    assert [t.text for t in tokens] == [m.token for m in training.merges
                                        if m.token in ("the", " cat")] == ["the", " cat"]
    assert snap.decode([t.id for t in tokens]) == "the cat"
    path = tmp_path / "t.json"
    save(training, str(path))
    assert load(str(path)).merges == training.merges
    model = json.loads(formats.export(snap, "hf")["tokenizer.json"])["model"]
    assert model["type"] == "BPE" and len(model["merges"]) == 8
    with pytest.raises(ValueError, match=r"export charbpe as 'hf'$"):
        formats.export(snap, "vocab")
    corpus_file = tmp_path / "c.txt"
    corpus_file.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "cli.json"
    assert main(["train", str(corpus_file), "--algorithm", "charbpe", "--merges", "8",
                 "--out", str(out), "--quiet"]) == 0
    cli = load(str(out))
    assert cli.corpus.pretokenizer == "gpt2"  # the record's default pre-tokenizer
    assert cli.merges == training.merges


def test_the_base_vocabulary_follows_the_record(toy):
    corpus = Corpus.from_text("ab ba")
    assert base_vocabulary(corpus, make_options("charbpe", merges=1)) == ["a", "b"]
    assert base_vocabulary(corpus, make_options("bpe", merges=1)) == ["[UNK]", "a", "b"]
    wider = dataclasses.replace(TOY, name="charbpe2", special_tokens=("<s>",))
    algorithms.register(wider)
    try:
        assert train(corpus, "charbpe2", merges=1).vocab[:3] == ("<s>", "a", "b")
    finally:
        algorithms.unregister("charbpe2")
    assert BPE.name in algorithms.names() and "charbpe2" not in algorithms.names()
