"""``python -m bpeviz train --algorithm unigram`` (offered by ``--help``) trains: it saves
the training, every round, as it saves a merge training (``export --format hf`` writes a
round as a Hugging Face ``tokenizer.json``), says the size reached and why
(``stop_message``), and refuses merge options in one line."""

from __future__ import annotations

from pathlib import Path

from tokenizers import Tokenizer

from bpeviz import Corpus, load
from bpeviz.unigram.corpus_words import train_corpus
from tests.support import ROOT
from tests.support.cli import run_cli

SAMPLE = ROOT / "bpeviz" / "samples" / "multilingual_tour.txt"


def test_help_offers_unigram_and_train_saves_it_and_export_makes_its_tokenizer(tmp_path):
    assert "unigram" in run_cli("train", "--help").stdout
    out = tmp_path / "unigram.json"
    result = run_cli("train", str(SAMPLE), "--algorithm", "unigram", "--vocab-size", "500",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    corpus = Corpus.from_file(str(SAMPLE), pretokenizer="metaspace")
    training = train_corpus(corpus, 500, "sentencepiece")
    assert result.stderr.startswith(training.stop_message)
    assert "Traceback" not in result.stderr
    assert load(out) == training
    tokenizer = tmp_path / "tokenizer.json"
    result = run_cli("export", "--training", str(out), "--format", "hf", "--out",
                     str(tokenizer))
    assert result.returncode == 0, result.stderr
    hf = Tokenizer.from_file(str(tokenizer))
    assert hf.get_vocab_size() == training.size
    text = SAMPLE.read_text(encoding="utf-8")[:2000] + " unseen wörds 123"
    for line in text.splitlines():
        if line.strip():
            assert hf.encode(line).ids == [t.id for t in training.final.encode(line)], line


def test_a_size_the_corpus_cannot_reach_is_said(tmp_path):
    result = run_cli("train", str(SAMPLE), "--algorithm", "unigram", "--vocab-size", "100000",
                     "--out", str(tmp_path / "u.json"))
    assert result.returncode == 0, result.stderr
    assert result.stderr.startswith("Only ") and "not the 100,000 asked for" in result.stderr


def test_the_course_variant_trains_too(tmp_path):
    out = tmp_path / "course.json"
    result = run_cli("train", str(SAMPLE), "--algorithm", "unigram", "--variant", "course",
                     "--vocab-size", "400", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert load(out).variant == "course" and load(out).size <= 400


def test_merge_options_and_a_missing_size_are_refused_in_one_line(tmp_path):
    out = str(tmp_path / "u.json")
    for extra, message in ((["--merges", "5"], "--merges: option that Unigram does not take"),
                           (["--vocab-size", "50", "--tie-break", "ids"], "--tie-break"),
                           ([], "Unigram needs --vocab-size")):
        result = run_cli("train", str(SAMPLE), "--algorithm", "unigram", *extra, "--out", out)
        assert result.returncode == 2 and result.stderr.count("\n") == 1, result.stderr
        assert message in result.stderr
    result = run_cli("train", str(SAMPLE), "--variant", "course", "--out", out)
    assert result.returncode == 2 and "--variant is a Unigram option" in result.stderr
    assert not Path(out).exists()
