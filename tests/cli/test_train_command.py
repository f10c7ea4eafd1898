"""`python -m bpeviz train`: a real subprocess, as a user runs it."""

from __future__ import annotations

from bpeviz import load
from tests.support.cli import run_cli


def test_train_writes_a_training_that_loads(tmp_path):
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("low low low lowly lower newer newer\nhappy dog happy cat\n")
    out = tmp_path / "training.json"
    result = run_cli("train", str(corpus), "--merges", "5", "--marker", "</w>",
                     "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "5/5 merges" in result.stderr  # the progress bar
    assert "Stopped after 5 merges" in result.stderr
    training = load(out)
    assert [m.token for m in training.merges] == ["lo", "low", "low</w>", "y</w>", "er"]


def test_train_on_a_counts_file_with_vocab_size(tmp_path):
    counts = tmp_path / "counts.tsv"
    counts.write_text("hug\t10\npug\t5\npun\t12\nbun\t4\nhugs\t5\n")
    out = tmp_path / "wp.json"
    result = run_cli("train", str(counts), "--algorithm", "wordpiece", "--vocab-size", "15",
                     "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    training = load(out)
    assert len(training.vocab) == 15 and training.merges[0].token == "##gs"
    assert training.corpus.counts == (10, 5, 12, 4, 5)
    assert training.merges[0].count == 5  # "##g ##s" occurs in "hugs" only, 5 times


def test_the_counts_of_a_counts_file_decide_the_first_merge(tmp_path):
    """Read as 1 each, every table below would tie and merge its first pair, "ab".
    BPE takes the most frequent pair: "cd" (10). WordPiece divides by the parts' counts,
    so there the rare pair wins: "cd" (1) beats "ab" (10, score 10 / (10 * 10))."""
    for algorithm, table, count in (("bpe", "ab\t1\ncd\t10\n", 10),
                                    ("wordpiece", "ab\t10\ncd\t1\n", 1)):
        counts = tmp_path / f"{algorithm}.tsv"
        counts.write_text(table)
        out = tmp_path / f"{algorithm}.json"
        result = run_cli("train", str(counts), "--algorithm", algorithm, "--merges", "1",
                         "--out", str(out), "--quiet")
        assert result.returncode == 0, result.stderr
        merge = load(out).merges[0]
        assert (merge.token, merge.count) == ("cd", count), algorithm


def test_bad_input_is_one_line_on_stderr_and_exit_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"caf\xe9")
    result = run_cli("train", str(bad), "--out", str(tmp_path / "x.json"))
    assert result.returncode == 2
    assert result.stderr.startswith("error:") and "not UTF-8" in result.stderr
    assert "Traceback" not in result.stderr
    missing = run_cli("train", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "x.json"))
    assert missing.returncode == 2 and "Traceback" not in missing.stderr
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n")
    result = run_cli("train", str(empty), "--out", str(tmp_path / "x.json"))
    assert result.returncode == 2 and "no words" in result.stderr
    assert not (tmp_path / "x.json").exists()
