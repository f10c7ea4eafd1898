"""PickyBPE's vocabulary health, read from its events: the unused tokens are the merged
tokens in the vocabulary that encoding the corpus at the step never yields (counted here
by encoding the corpus text itself), at every step as the curve counts them; near-
duplicates differ by ``▁`` or case; no token ends inside a character; the command line
prints the same."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import bpeviz
from bpeviz.analysis.health import health, unused_by_step
from bpeviz.samples import load_sample, sample_bytes
from tests.support.cli import run_cli

TEXT = sample_bytes("tour").decode("utf-8")


@pytest.fixture(scope="module")
def training():
    return bpeviz.train(load_sample("tour", "whitespace"), algorithm="picky", merges=200,
                        threshold=0.9)


def unused_by_encoding(training, step) -> list[int]:
    now = training.at(step)
    uses = Counter(t.id for t in now.encode(TEXT))
    return sorted(i for i in now.present if i >= training.n_base and not uses[i])


def test_unused_tokens_are_those_encoding_the_corpus_never_yields(training):
    series = unused_by_step(training)
    assert len(series) == len(training.events) + 1
    for step in range(0, len(training.events) + 1, 5):
        found = health(training.at(step))
        expected = unused_by_encoding(training, step)
        assert found.unused["id"].tolist() == expected, step
        assert series[step] == len(expected), step
    assert series.max() > 0, "the sample's training leaves some absorbed tokens unused"


def test_near_duplicates_partial_and_the_summary(training):
    found = training.at(len(training.events)).health()
    groups = found.near_duplicates.groupby("group")["token"].apply(set).tolist()
    assert {'"', '▁"'} in groups
    assert found.partial.empty
    assert [line.split(":")[0] for line in found.summary] == [
        "unreachable", "unused", "near-duplicates", "partial characters"]
    assert found.vocab_size == len(training.at(len(training.events)).present)
    # the unreachable check replays the events on each token's own text
    now = training.at(len(training.events))
    for i in found.unreachable["id"]:
        assert now.encode_word(training.vocab[i], whole=False) != [i]


def test_the_health_command_reads_a_saved_pickybpe_training(training, tmp_path):
    path = tmp_path / "picky.json"
    bpeviz.save(training, path)
    run = run_cli("health", "--training", str(path), "--step", "120", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    found = health(training.at(120))
    assert data["summary"] == found.summary
    assert [r["id"] for r in data["unused"]["rows"]] == found.unused["id"].tolist()
