"""A SentencePiece Unigram ``.model`` opens through ``bpeviz.load``, ``import_files`` and
``import_path`` (a file or a folder holding it) as a training of one step that encodes
with sentencepiece's own ids; a Unigram training saved with ``bpeviz.save`` loads back
equal, every round, and opens through ``import_files`` too; a round exports as a Hugging
Face ``tokenizer.json`` that ``tokenizers`` encodes to the same ids."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
import sentencepiece as spm
from tokenizers import Tokenizer

from bench.data import corpus_path, corpus_text
from bpeviz import Corpus, train
from bpeviz.core.serialize import load, save_training
from bpeviz.formats import export, import_files, import_path
from bpeviz.unigram import UnigramTraining, train_unigram
from bpeviz.unigram.model import UnigramModel, UnigramStep
from bpeviz.unigram.spm import OpenedModel, load_spm

TEXTS = ["Hello wörld, the tokenizer's tokens", "  two  spaces\tand a tab ", "",
         "ｆｕｌｌ　ｗｉｄｔｈ ① digits 12345", "日本語のテキスト and emoji \U0001f600",
         "<s> </s> <unk> unseen", "e\u0301 combining"]


def spm_model(kind: str, **options: object) -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(input=str(corpus_path(0.05)), model_writer=out,
                                   vocab_size=600, model_type=kind, minloglevel=3, **options)
    return out.getvalue()


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    """Unigram models with sentencepiece's default normalization (nmt_nfkc) and with
    identity, and a BPE one, as files."""
    folder = tmp_path_factory.mktemp("models")
    out = {}
    for name, kind, options in (("nfkc", "unigram", {}),
                                ("identity", "unigram", {"normalization_rule_name": "identity",
                                                         "character_coverage": 1.0}),
                                ("bpe", "bpe", {})):
        out[name] = folder / name / f"{name}.model"
        out[name].parent.mkdir()
        out[name].write_bytes(spm_model(kind, **options))
    return out


@pytest.mark.parametrize("name", ["nfkc", "identity"])
def test_a_unigram_model_opens_everywhere_with_sentencepieces_ids(models, name):
    path = models[name]
    processor = spm.SentencePieceProcessor(model_file=str(path))
    direct = load_spm(path)
    openings = {"load": load(path), "import_files": import_files({path.name: path.read_bytes()}),
                "import_path": import_path(path), "folder": import_path(path.parent),
                "a path as the name": import_files({str(path): path.read_bytes()})}
    for how, opened in openings.items():
        assert isinstance(opened, OpenedModel), how
        assert opened.name == path.name and opened.algorithm == "unigram"
        assert opened.at().step == 0 and opened.at(0).step == 0
        assert opened.vocab_size_at(0) == processor.get_piece_size() == len(direct.pieces)
        for text in TEXTS:
            tokens = opened.at(0).encode(text)
            assert tokens == direct.encode(text), (how, text)
            assert [t.id for t in tokens] == processor.encode(text), (how, text)


def test_a_model_has_one_step_and_no_training_to_explain(models):
    opened = load(models["identity"])
    with pytest.raises(ValueError, match="one step, 0"):
        opened.at(1)
    with pytest.raises(ValueError, match="not a training: there is no pruning round"):
        opened.explain(1)
    assert opened.token_counts().tolist() == [0]  # no corpus, as an imported file's
    found = opened.at().trace("tokenizer")
    assert found.word == "▁tokenizer"
    assert found.best == tuple(t.text for t in opened.at().encode("tokenizer"))


def test_a_bpe_model_and_a_model_among_other_files_are_refused_clearly(models):
    for opening in (lambda: load(models["bpe"]), lambda: import_path(models["bpe"]),
                    lambda: import_files({"bpe.model": models["bpe"].read_bytes()})):
        with pytest.raises(ValueError, match=r"bpe\.model is a SentencePiece bpe model.*"
                                             r"load_spm"):
            opening()
    data = models["identity"].read_bytes()
    with pytest.raises(ValueError, match="a tokenizer on its own; open one file"):
        import_files({"a.model": data, "vocab.txt": "a\nb\n"})
    with pytest.raises(ValueError, match="a tokenizer on its own"):
        import_files({"a.model": data, "b.model": data})


def test_a_folder_with_a_tokenizer_json_and_a_model_opens_the_json(tmp_path, models):
    training = train(Corpus.from_text("hug pug hug pun"), "bpe", merges=3)
    (tmp_path / "tokenizer.json").write_text(export(training.at(), "hf")["tokenizer.json"],
                                             encoding="utf-8")
    (tmp_path / "spiece.model").write_bytes(models["identity"].read_bytes())
    assert not isinstance(import_path(tmp_path), OpenedModel)


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return Corpus.from_text(corpus_text(0.02))


@pytest.mark.parametrize("make", [
    lambda c: train(c, algorithm="unigram", vocab_size=400),
    lambda c: train(c, algorithm="unigram", vocab_size=400, shrinking_factor=0.9,
                    split_by_number=False, specials=("<unk>", "<pad>")),
    lambda c: train(c, algorithm="unigram", vocab_size=None),  # a size chosen (a plan)
    lambda c: train_unigram(corpus_text(0.02), 400),  # a text read as spm_train reads it
    lambda c: train(Corpus.from_text(corpus_text(0.003)), algorithm="unigram",
                    variant="course", vocab_size=90, seed_size=150),
], ids=["sentencepiece", "options", "planned", "text", "course"])
def test_a_unigram_training_saves_and_loads_back_equal(tmp_path, corpus, make):
    training = make(corpus)
    path = tmp_path / "unigram.json"
    save_training(training, path, corpus_name="docs.txt")
    loaded = load(path)
    assert isinstance(loaded, UnigramTraining) and loaded == training
    assert loaded.options == training.options  # the plan too, when there is one
    assert [s.pieces for s in loaded.steps] == [s.pieces for s in training.steps]
    assert loaded.stop_message == training.stop_message
    text = path.read_text(encoding="utf-8")
    assert json.loads(text)["corpus"]["name"] == "docs.txt"
    for opened in (import_files({"unigram.json": text}), import_files({"u (1).json": text}),
                   import_path(path)):
        assert opened == training


def test_a_corrupt_or_foreign_unigram_file_is_a_value_error(tmp_path, corpus):
    training = train(corpus, algorithm="unigram", vocab_size=400)
    path = tmp_path / "u.json"
    save_training(training, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["final"][5][1] += 0.5
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match=r"from piece 5.*the file is corrupt"):
        load(path)
    data["version"] = 99
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="unsupported Unigram training file version 99"):
        load(path)
    del data["corpus"]
    data["version"] = 1
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ValueError, match="missing or garbles a field"):
        load(path)
    by_hand = UnigramTraining("course", (UnigramStep(0, UnigramModel(("a",), (-1.0,)), 0.0,
                                                     (), (), ()),))
    with pytest.raises(ValueError, match="cannot be saved"):
        save_training(by_hand, path)


def test_a_round_exports_as_a_tokenizer_json_with_the_same_ids(corpus):
    training = train(corpus, algorithm="unigram", vocab_size=400)
    for k in (1, training.at().step):
        files = export(training.at(k), "hf")
        hf = Tokenizer.from_str(files["tokenizer.json"])
        for text in ("the tokenizer's tokens", "unseen wörds 123", "a  b"):
            assert hf.encode(text).ids == [t.id for t in training.at(k).encode(text)]
    with pytest.raises(ValueError, match="does not hold a Unigram model; export unigram as 'hf'"):
        export(training.at(), "gpt2")


def test_a_models_step_does_not_export(models):
    with pytest.raises(ValueError, match="already a tokenizer file"):
        export(load(models["identity"]).at(), "hf")
