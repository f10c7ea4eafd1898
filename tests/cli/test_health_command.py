"""``python -m bpeviz health`` as a user runs it: the summary and the tables of a saved
training or an opened tokenizer file, JSON that holds what the engine finds, and one-line
errors (exit status 2, no traceback) for bad input."""

from __future__ import annotations

import json

import pytest

from bpeviz import load, save, train
from bpeviz.analysis.health import health
from bpeviz.samples import load_sample
from bpeviz.text.display import bytes_to_gpt2
from tests.support.cli import run_cli


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A byte-level training of the tour sample, saved as the train command saves it."""
    path = tmp_path_factory.mktemp("health") / "t.json"
    save(train(load_sample("tour", "gpt2"), algorithm="bbpe", merges=300), path)
    return path


@pytest.fixture(scope="module")
def gpt2_folder(tmp_path_factory):
    """vocab.json + merges.txt where "abc" can never form ("b c" comes before "a b")."""
    folder = tmp_path_factory.mktemp("gpt2")
    merges = [(b"b", b"c"), (b"a", b"b"), (b"ab", b"c")]
    vocab = {bytes_to_gpt2(bytes([b])): b for b in range(256)}
    for left, right in merges:
        vocab[bytes_to_gpt2(left + right)] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    (folder / "merges.txt").write_text(
        "#version: 0.2\n" + "".join(f"{bytes_to_gpt2(a)} {bytes_to_gpt2(b)}\n"
                                    for a, b in merges), encoding="utf-8")
    (folder / "corpus.txt").write_text("ab ab bc abc", encoding="utf-8")
    return folder


def test_health_prints_the_summary_then_each_table(saved):
    run = run_cli("health", "--training", str(saved), "--top", "2")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for line in ("unreachable:", "unused:", "near-duplicates:", "partial characters:"):
        assert line in out
    assert "Unused tokens (" in out and "more (--all prints every row)" in out


def test_health_json_holds_what_the_engine_finds(saved):
    run = run_cli("health", "--training", str(saved), "--step", "150", "--json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    found = health(load(saved).at(150))
    assert data["step"] == 150 and data["summary"] == found.summary
    for kind in ("unreachable", "unused", "near_duplicates", "partial"):
        frame = getattr(found, kind)
        assert data[kind]["count"] == len(frame)
        assert [r["id"] for r in data[kind]["rows"]] == frame["id"].tolist()  # --json: all


def test_health_of_an_opened_gpt2_pair_names_the_impossible_token(gpt2_folder):
    run = run_cli("health", "--training", str(gpt2_folder), "--corpus",
                  str(gpt2_folder / "corpus.txt"), "--all")
    assert run.returncode == 0, run.stderr
    line = next(x for x in run.stdout.splitlines() if " abc " in x and "encodes as" in x)
    assert "`a` + `bc`" in line
    assert "unused: not counted" not in run.stdout  # counted on --corpus


@pytest.mark.parametrize(("args", "message"), [
    (["--step", "9999"], "step must be between 0 and 300"),
    (["--corpus", "/no/such/corpus.txt"], "--corpus /no/such/corpus.txt: no such file"),
    (["--top", "-1"], "--top must be 0 or more"),
])
def test_bad_input_is_one_line_on_stderr(saved, args, message):
    run = run_cli("health", "--training", str(saved), *args)
    assert run.returncode == 2
    assert message in run.stderr and "Traceback" not in run.stderr


def test_a_missing_training_is_one_line_on_stderr(tmp_path):
    run = run_cli("health", "--training", str(tmp_path / "missing.json"))
    assert run.returncode == 2
    assert "missing.json" in run.stderr and "Traceback" not in run.stderr
