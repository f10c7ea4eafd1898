"""Opening a training for the CLI reads its file from disk once: a training of a large
corpus is hundreds of megabytes, and the slides' title (the corpus's name) comes from the
same read as the training."""

from __future__ import annotations

import builtins
import io
from pathlib import Path

import pytest

import bpeviz
from bpeviz import Corpus
from bpeviz.cli import main

TEXT = "the cat sat on the mat, the hat sat on the cat " * 20


@pytest.fixture
def reads(monkeypatch):
    """Every path opened for reading, as a list (pathlib reads through io.open)."""
    opened: list[str] = []
    real = builtins.open

    def counting(file, mode="r", *args, **kwargs):
        if "r" in mode and not isinstance(file, int):
            opened.append(str(Path(file).resolve()))
        return real(file, mode, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting)
    monkeypatch.setattr(io, "open", counting)
    return opened


@pytest.mark.parametrize("algorithm", ["bpe", "superbpe"])
def test_slides_read_the_training_once_and_take_its_corpus_name(tmp_path, reads, algorithm):
    path = tmp_path / "t.json"
    bpeviz.save(bpeviz.train(Corpus.from_text(TEXT, "none"), algorithm, merges=8), path,
                corpus_name="the cat corpus")
    out = tmp_path / "slides.html"
    assert main(["slides", "--training", str(path), "--out", str(out)]) == 0
    assert reads.count(str(path.resolve())) == 1
    assert "the cat corpus" in out.read_text(encoding="utf-8")


def test_explain_reads_a_saved_parity_training_once(tmp_path, reads):
    path = tmp_path / "p.json"
    bpeviz.save(bpeviz.train({"en": "the cat sat", "de": "die Katze sass"},
                             algorithm="parity", merges=4), path)
    assert main(["explain", "--training", str(path), "--step", "2"]) == 0
    assert reads.count(str(path.resolve())) == 1
