"""Compare's stepping (bpeviz.analysis.vocab_steps) is one code path for merge trainings,
Unigram trainings, tokenizer files and anything else that answers the protocol
(bpeviz.core.protocol): each value is checked against a brute-force reading of the
definition from ``vocab_size_at`` alone, and a made-up training whose algorithm no
record names steps the same way."""

from __future__ import annotations

import ast
import functools
import json
from dataclasses import dataclass

import numpy as np
import pytest

from bpeviz import Corpus, TrainOptions, formats, train
from bpeviz.analysis import vocab_steps
from bpeviz.core import protocol
from bpeviz.core.encoding import known_ids
from bpeviz.formats import import_files
from bpeviz.unigram.corpus_words import train_corpus
from tests.support import ROOT

TEXT = ("low lower lowest newest widest hug pug hug pun bun hugs the tokenizer learns "
        "tokens naïve café 苹果派 " * 3)


@functools.cache
def trainings() -> dict[str, object]:
    corpus = Corpus.from_text(TEXT)
    bbpe = train(corpus, algorithm="bbpe", merges=40)
    files = formats.export(bbpe.at(30), "gpt2")
    vocab = json.loads(files["vocab.json"])
    vocab["<|endoftext|>"] = len(vocab)  # a token listed after the merged ones
    files["vocab.json"] = json.dumps(vocab)
    return {
        "bpe": train(corpus, algorithm="bpe", merges=30),
        "bbpe": bbpe,
        "wordpiece": train(corpus, algorithm="wordpiece", merges=25),
        "gpt2 file": import_files(files),
        "sentencepiece": train(corpus, algorithm="unigram", vocab_size=40),
        "course": train(corpus, algorithm="unigram", vocab_size=30, variant="course"),
    }


def brute_force(sizes: list[int], target: int, latest: bool) -> int:
    """The step of the largest size at most ``target`` (the latest or the earliest of
    several), else the earliest step of the smallest size: read off the definition."""
    fitting = [k for k, n in enumerate(sizes) if n <= target]
    if not fitting:
        return sizes.index(min(sizes))
    best = max(sizes[k] for k in fitting)
    ties = [k for k in fitting if sizes[k] == best]
    return ties[-1] if latest else ties[0]


@pytest.mark.parametrize("name", ["bpe", "bbpe", "wordpiece", "gpt2 file", "sentencepiece",
                                  "course"])
def test_a_vocabulary_size_finds_its_step_the_same_way_for_every_training(name):
    t = trainings()[name]
    sizes = [t.vocab_size_at(k) for k in range(protocol.last_step(t) + 1)]
    grows = sizes[-1] >= sizes[0]  # merges add tokens, pruning rounds remove them
    assert vocab_steps.vocab_sizes(t).tolist() == sizes
    assert vocab_steps.vocab_range(t) == (min(sizes), max(sizes))
    lo, hi = min(sizes) - 3, max(sizes) + 3
    every = vocab_steps.steps_for_vocab_sizes(t, lo, hi).tolist()
    for target, step in zip(range(lo, hi + 1), every, strict=True):
        found = vocab_steps.step_for_vocab_size(t, target)
        assert found.step == step == brute_force(sizes, target, latest=grows)
        assert (found.vocab_size, found.target) == (sizes[step], target)
        assert (found.note == "") == found.exact
        assert vocab_steps.step_unit(t) in found.note or found.exact


def test_a_merge_trainings_vocabulary_size_counts_tokens_listed_after_its_merges():
    opened = trainings()["gpt2 file"]
    for k in range(protocol.last_step(opened) + 1):
        assert opened.vocab_size_at(k) == len(known_ids(opened, k)) == \
            vocab_steps.vocabulary_size(opened, k)
        assert len(opened.at(k).vocab) == opened.vocab_size_at(k) - 1  # the listed one
    assert vocab_steps.corpus_tokens(opened) is None  # a file has no corpus
    assert list(vocab_steps.corpus_tokens(trainings()["bpe"])) == \
        list(trainings()["bpe"].token_counts())


@dataclass(frozen=True)
class _Step:
    step: int

    def encode(self, text: str) -> list[str]:
        return text.split()[: self.step + 1]


@dataclass(frozen=True)
class ToyTraining:
    """A training no algorithm record describes: its vocabulary shrinks, then grows."""

    algorithm: str = "toy, unregistered"
    sizes: tuple[int, ...] = (9, 7, 5, 5, 8)
    stop_message: str = "made up"
    step_unit: str = "turn"

    def at(self, step: int | None = None) -> _Step:
        return _Step(len(self.sizes) - 1 if step is None else step)

    def vocab_size_at(self, step: int) -> int:
        return self.sizes[step]

    def token_counts(self) -> np.ndarray:
        return np.array([20, 18, 15, 15, 16])

    def explain(self, step: int) -> str:
        return f"turn {step}"

    def steps_for_vocab_sizes(self, targets) -> np.ndarray:
        return protocol.steps_at_most(self.sizes, targets, latest=False)


def test_compares_stepping_reads_nothing_but_the_protocol():
    toy = ToyTraining()
    assert isinstance(toy, protocol.AnyTraining)
    assert vocab_steps.last_step(toy) == 4 and vocab_steps.vocab_range(toy) == (5, 9)
    assert [vocab_steps.step_for_vocab_size(toy, v).step for v in (4, 5, 6, 8, 20)] == \
        [2, 2, 2, 4, 0]
    assert vocab_steps.step_for_vocab_size(toy, 6).note == \
        "no turn has exactly 6 tokens: shown at turn 2, the closest below (5 tokens)"
    assert vocab_steps.step_for_vocab_size(toy, 4).note.startswith(
        "even its smallest vocabulary has 5 tokens, more than 4: shown at turn 2")
    assert vocab_steps.at(toy, 3).encode("a b c d e f") == ["a", "b", "c", "d"]
    assert list(vocab_steps.corpus_tokens(toy)) == [20, 18, 15, 15, 16]


def test_train_options_naming_unigram_train_it_as_the_keywords_do():
    corpus = Corpus.from_text(TEXT)
    by_options = train(corpus, TrainOptions(algorithm="unigram", vocab_size=30))
    by_keywords = train(corpus, algorithm="unigram", vocab_size=30)
    direct = train_corpus(corpus, 30)
    assert by_options.final.pieces == by_keywords.final.pieces == direct.final.pieces
    with pytest.raises(ValueError, match="a merge option"):
        train(corpus, TrainOptions(algorithm="unigram", merges=5))


def test_train_and_the_protocol_import_no_unigram_module():
    for name in ("training.py", "protocol.py"):
        path = ROOT / "bpeviz" / "core" / name
        for node in ast.walk(ast.parse(path.read_text())):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not any(n.startswith("bpeviz.unigram") for n in names), path
