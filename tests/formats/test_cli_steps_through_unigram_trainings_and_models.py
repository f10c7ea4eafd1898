"""The command line takes a Unigram training and a SentencePiece ``.model`` wherever it
takes a training: ``train --algorithm unigram --out`` saves every round (``bpeviz.load``
reads it back equal), ``encode --training`` gives each round's ids (and a model's,
sentencepiece's own), ``--alpha`` samples a Unigram cut reproducibly, ``explain`` says
what a round removed and how a word is cut, ``export --format hf`` writes a round's
tokenizer.json; what does not apply (``--dropout`` for Unigram, ``--alpha`` for merges,
slides of pruning rounds, exporting a model) is one line on stderr, status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import sentencepiece as spm

from bpeviz import Corpus, train
from bpeviz.core.serialize import load
from bpeviz.unigram.spm import load_spm

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bpeviz" / "samples" / "multilingual_tour.txt"
TEXT = "Every language model reads text as tokens: unseen wörds 123 \U0001f600"


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bpeviz", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, input=stdin)


def ids(result: subprocess.CompletedProcess) -> list[int]:
    assert result.returncode == 0, result.stderr
    return [json.loads(line)["id"] for line in result.stdout.splitlines()]


def one_line_error(result: subprocess.CompletedProcess, message: str) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert message in result.stderr, result.stderr


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("cli") / "unigram.json"
    result = run_cli("train", str(SAMPLE), "--algorithm", "unigram", "--vocab-size", "500",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out


def test_train_saves_the_training_bpeviz_train_makes(saved):
    corpus = Corpus.from_file(str(SAMPLE), pretokenizer="metaspace")
    assert load(saved) == train(corpus, algorithm="unigram", vocab_size=500)


def test_encode_gives_each_rounds_ids_and_samples_with_alpha(saved):
    training = load(saved)
    for k in (0, 1, training.at().step):
        assert ids(run_cli("encode", "--training", str(saved), "--step", str(k), TEXT)) == \
            [t.id for t in training.at(k).encode(TEXT)]
    sampled = ids(run_cli("encode", "--training", str(saved), "--alpha", "0.2", "--seed", "7",
                          "-", stdin=TEXT))
    assert sampled == [t.id for t in training.at().encode(TEXT, alpha=0.2, seed=7)]
    assert sampled != [t.id for t in training.at().encode(TEXT)]  # (seed 7 differs here)


def test_explain_says_what_a_round_removed_and_how_a_word_is_cut(saved):
    training = load(saved)
    why = training.explain(1)
    result = run_cli("explain", "--training", str(saved), "--step", "1", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["step"] == 1 and data["removed_count"] == len(why.removed) > 0
    assert data["pieces_before"] == len(training.at(0).pieces)
    assert data["pieces_after"] == len(training.at(1).pieces)
    assert {r["piece"] for r in data["removed"]} == {r.piece for r in why.removed}
    result = run_cli("explain", "--training", str(saved), "--word", "tokens")
    assert result.returncode == 0, result.stderr
    best = " + ".join(t.text for t in training.at().encode("tokens"))
    assert result.stdout.startswith(f"▁tokens is cut into {best} ")


def test_export_writes_a_rounds_tokenizer_json(saved, tmp_path):
    from tokenizers import Tokenizer

    training = load(saved)
    out = tmp_path / "tokenizer.json"
    result = run_cli("export", "--training", str(saved), "--step", "1", "--format", "hf",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert Tokenizer.from_file(str(out)).encode(TEXT).ids == \
        [t.id for t in training.at(1).encode(TEXT)]


def test_a_model_file_encodes_with_sentencepieces_ids(tmp_path):
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(input=str(SAMPLE), model_writer=out, vocab_size=400,
                                   model_type="unigram", minloglevel=3)
    path = tmp_path / "tour.model"
    path.write_bytes(out.getvalue())
    expected = spm.SentencePieceProcessor(model_file=str(path)).encode(TEXT)
    assert ids(run_cli("encode", "--training", str(path), TEXT)) == expected
    sampled = ids(run_cli("encode", "--training", str(path), "--alpha", "0.5", "--seed", "1",
                          TEXT))
    assert sampled == [t.id for t in load_spm(path).encode(TEXT, alpha=0.5, seed=1)]
    result = run_cli("explain", "--training", str(path), "--word", "tokens")
    assert result.returncode == 0 and "is cut into" in result.stdout, result.stderr
    one_line_error(run_cli("explain", "--training", str(path)), "not a training")
    one_line_error(run_cli("export", "--training", str(path), "--format", "hf", "--out",
                           str(tmp_path / "t.json")), "already a tokenizer file")
    one_line_error(run_cli("encode", "--training", str(path), "--step", "1", TEXT),
                   "one step, 0")


def test_what_does_not_apply_is_one_line(saved, tmp_path):
    one_line_error(run_cli("encode", "--training", str(saved), "--dropout", "0.1", TEXT),
                   "--dropout is BPE-dropout")
    one_line_error(run_cli("slides", "--training", str(saved), "--out",
                           str(tmp_path / "s.html")), "the slides play merges")
    one_line_error(run_cli("export", "--training", str(saved), "--format", "gpt2", "--out",
                           str(tmp_path / "g")), "export unigram as 'hf'")
    merges = tmp_path / "bpe.json"
    assert run_cli("train", str(SAMPLE), "--merges", "20", "--out", str(merges)).returncode == 0
    one_line_error(run_cli("encode", "--training", str(merges), "--alpha", "0.1", TEXT),
                   "--alpha is Unigram's subword sampling")
