"""`python -m bpeviz count DATA... --out FILE`, and `train DATA...` on folders, globs and
counts files: a real subprocess, as a user runs it."""

from __future__ import annotations

import gzip
import json

import pyarrow.parquet as pq
import pytest

from bpeviz import load
from bpeviz.text.corpus import Corpus
from tests.support.cli import run_cli

FILES = {"a.txt": "low lower lowest\nnewer newest\r\n", "b.txt": "wider widest low\n",
         "sub/c.txt": "lower lowly happy\n  newest\n"}


@pytest.fixture
def folder(tmp_path):
    data = tmp_path / "data"
    for name, text in FILES.items():
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_bytes(text.encode())
    return data


def _whole(text: str, pretokenizer: str) -> list[tuple[str, int]]:
    corpus = Corpus.from_text(text, pretokenizer)
    return list(zip(corpus.words, corpus.counts))


def _per_file(pretokenizer: str) -> list[tuple[str, int]]:
    """Each file is a text of its own (with GPT-2's pattern a file's last "\r\n" is one
    pre-token, which text after it would cut in two), added up in sorted path order."""
    total: dict[str, int] = {}
    for name in sorted(FILES):
        for word, count in _whole(FILES[name], pretokenizer):
            total[word] = total.get(word, 0) + count
    return list(total.items())


def test_count_writes_parquet_and_word_tab_count_files(folder, tmp_path):
    out = tmp_path / "counts.parquet"
    result = run_cli("count", str(folder), "--out", str(out), "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert "counting" in result.stderr and "B/s" in result.stderr  # the progress bar
    table = pq.read_table(out)
    assert list(zip(table["word"].to_pylist(), table["count"].to_pylist())) == \
        _per_file("gpt2")
    assert table.schema.metadata[b"bpeviz.pretokenizer"] == b"gpt2"
    for name in ("counts.tsv", "counts.txt"):
        result = run_cli("count", str(folder), "--pretokenizer", "whitespace", "--out",
                         str(tmp_path / name), "--quiet")
        assert result.returncode == 0, result.stderr
        lines = (tmp_path / name).read_text(encoding="utf-8").splitlines()
        assert lines == [f"{w}\t{c}" for w, c in _per_file("whitespace")]


def test_words_with_a_line_break_are_left_out_of_a_tsv_with_a_warning(folder, tmp_path):
    out = tmp_path / "counts.tsv"
    result = run_cli("count", str(folder), "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert "hold a line break" in result.stderr
    kept = [w for w, _ in _per_file("gpt2")
            if "\n" not in w and "\r" not in w]
    assert [line.rpartition("\t")[0] for line in out.read_text().split("\n")[:-1]] == kept


def test_json_lines_gz_with_a_text_field(tmp_path):
    path = tmp_path / "r.jsonl.gz"
    path.write_bytes(gzip.compress(b"".join(
        json.dumps({"body": t}).encode() + b"\n" for t in ["hug pug", "pug pun"])))
    out = tmp_path / "c.tsv"
    result = run_cli("count", str(path), "--text-field", "body", "--pretokenizer",
                     "whitespace", "--out", str(out), "--quiet")
    assert result.returncode == 0, result.stderr
    assert out.read_text() == "hug\t1\npug\t2\npun\t1\n"


@pytest.mark.parametrize(("args", "message"), [
    (["{tmp}/missing"], "no such file or folder"),
    (["{tmp}/notes.md"], "unknown format"),
    (["{tmp}/r.jsonl"], "no field 'text'"),
    (["{tmp}/data", "--out", "{tmp}/c.csv"], "write counts to a .parquet"),
    (["{tmp}/data", "--out", "{tmp}/nowhere/c.tsv"], "does not exist"),
    (["{tmp}/data", "--workers", "0"], "--workers 0"),
    (["{tmp}/data", "--dask", "local:x"], "local:N"),
])
def test_bad_input_is_one_line_and_exit_2(folder, tmp_path, args, message):
    (tmp_path / "notes.md").write_text("x")
    (tmp_path / "r.jsonl").write_text('{"body": "x"}\n')
    args = [a.format(tmp=tmp_path) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "c.tsv")]
    result = run_cli("count", *args, "--quiet")
    assert result.returncode == 2
    assert result.stderr.startswith("error:") and message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def _merges(path) -> list[str]:
    return [m.token for m in load(path).merges]


def test_train_on_a_folder_a_glob_or_counts_makes_the_merges_of_the_whole_text(folder,
                                                                               tmp_path):
    whole = tmp_path / "whole.txt"
    whole.write_bytes("".join(FILES.values()).encode())
    counts = tmp_path / "counts.parquet"
    assert run_cli("count", str(folder), "--out", str(counts), "--quiet",
                   "--pretokenizer", "whitespace").returncode == 0
    merges = {}
    for name, data in {"whole": [str(whole)], "folder": [str(folder)],
                       "glob": [str(folder / "**" / "*.txt")],
                       "files": [str(folder / n) for n in sorted(FILES)],
                       "counts": [str(counts)]}.items():
        out = tmp_path / f"{name}.json"
        result = run_cli("train", *data, "--merges", "12", "--out", str(out), "--quiet")
        assert result.returncode == 0, (name, result.stderr)
        merges[name] = _merges(out)
    assert len(merges["whole"]) == 12
    assert all(m == merges["whole"] for m in merges.values()), merges


def test_train_without_data_still_asks_for_it(tmp_path):
    result = run_cli("train", "--out", str(tmp_path / "t.json"))
    assert result.returncode == 2 and "give a text to train on" in result.stderr
