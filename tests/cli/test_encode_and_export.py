"""`python -m bpeviz encode` and `export`: JSON lines of tokens, files other tools read,
and one-line errors with exit status 2."""

from __future__ import annotations

import json
import sys

import pytest

from bpeviz import Corpus, save, train
from bpeviz.cli import main
from bpeviz.formats import import_path
from tests.support.cli import run_cli

SEED_004_TEXT = "low low low lowly lower newer newer\nhappy dog happy cat"


@pytest.fixture
def saved(tmp_path):
    training = train(Corpus.from_text(SEED_004_TEXT), "bpe", merges=5, marker="</w>",
                     marker_style="glued")
    path = tmp_path / "training.json"
    save(training, str(path))
    return training, path


@pytest.fixture
def saved_bbpe(tmp_path):
    training = train(Corpus.from_text(SEED_004_TEXT + " 苹果 😀", "gpt2"), "bbpe", merges=20)
    path = tmp_path / "bbpe.json"
    save(training, str(path))
    return training, path


def lines(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines()]


def test_encode_prints_json_lines_of_tokens(saved):
    training, path = saved
    result = run_cli("encode", "--training", str(path), "--step", "3", "lowly dogs")
    assert result.returncode == 0, result.stderr
    rows = lines(result.stdout)
    expected = training.at(3).encode("lowly dogs")
    assert rows == [t.to_dict() for t in expected]
    assert list(rows[0]) == ["text", "id", "start", "end", "bytes", "partial", "unk"]
    for row in rows:
        assert bytes.fromhex(row["bytes"]).decode() == "lowly dogs"[row["start"]:row["end"]]
    assert rows[-1]["text"] == "[UNK]" and rows[-1]["unk"]  # "s</w>" is no symbol of the corpus


def test_encode_defaults_to_the_last_step_and_reads_stdin(saved_bbpe, capsys, monkeypatch):
    training, path = saved_bbpe
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("苹果派 happy\n"))
    assert main(["encode", "--training", str(path), "-"]) == 0
    rows = lines(capsys.readouterr().out)
    assert [r["id"] for r in rows] == training.at().encode("苹果派 happy\n").ids
    assert any(r["partial"] for r in rows)  # 派 is not in the corpus: its bytes stay apart
    assert "".join(bytes.fromhex(r["bytes"]).decode("latin-1") for r in rows).encode(
        "latin-1").decode() == "苹果派 happy\n"


@pytest.mark.parametrize("fmt, names", [
    ("hf", ["tokenizer.json"]),
    ("gpt2", ["bpeviz.json", "merges.txt", "vocab.json"]),
    ("training", ["training.json"]),
])
def test_export_writes_files_that_import_back(saved, tmp_path, capsys, fmt, names):
    training, path = saved
    out = tmp_path / f"out-{fmt}"
    out.mkdir()
    assert main(["export", "--training", str(path), "--step", "4", "--format", fmt,
                 "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == names
    assert "wrote" in capsys.readouterr().err
    back = import_path(out if len(names) > 1 else out / names[0])
    step = 4 if fmt == "training" else None
    assert back.at(step).encode(SEED_004_TEXT) == training.at(4).encode(SEED_004_TEXT)


def test_export_tiktoken_to_a_new_folder_and_a_single_file_to_a_path(saved_bbpe, tmp_path):
    training, path = saved_bbpe
    folder = tmp_path / "new" / "tik"
    result = run_cli("export", "--training", str(path), "--format", "tiktoken",
                     "--out", str(folder))
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["tiktoken.json", "tokenizer.tiktoken"]
    assert main(["export", "--training", str(path), "--format", "hf",
                 "--out", str(tmp_path / "mine.json")]) == 0
    encoded = run_cli("encode", "--training", str(tmp_path / "mine.json"), "happy cat")
    assert [r["id"] for r in lines(encoded.stdout)] == training.at().encode("happy cat").ids


def test_export_vocab_for_wordpiece(tmp_path):
    training = train(Corpus.from_text("hug pug pun bun hugs " * 3), "wordpiece", merges=6)
    path = tmp_path / "wp.json"
    save(training, str(path))
    assert main(["export", "--training", str(path), "--format", "vocab",
                 "--out", str(tmp_path / "wp")]) == 0
    text = (tmp_path / "wp" / "vocab.txt").read_text()
    assert text.splitlines() == list(training.vocab)


@pytest.mark.parametrize("args, message", [
    (["encode", "--training", "{missing}", "x"], "No such file"),
    (["encode", "--training", "{training}", "--step", "99", "x"], "step must be between 0 and 5"),
    (["encode", "--training", "{corrupt}", "x"], "not valid JSON"),
    (["export", "--training", "{training}", "--format", "tiktoken", "--out", "{tmp}/t"],
     "byte-level BPE only"),
    (["export", "--training", "{separate}", "--format", "hf", "--out", "{tmp}/t.json"],
     "no Hugging Face equivalent"),
])
def test_errors_are_one_line_on_stderr_with_exit_2(saved, tmp_path, capsys, args, message):
    _, path = saved
    corrupt = tmp_path / "corrupt.json"
    corrupt.write_text('{"format": "bpeviz.core.training", ')
    separate = tmp_path / "separate.json"
    save(train(Corpus.from_text(SEED_004_TEXT), "bpe", merges=5, marker="</w>"), str(separate))
    names = {"missing": tmp_path / "nope.json", "training": path, "corrupt": corrupt,
             "separate": separate, "tmp": tmp_path}
    argv = [a.format(**names) for a in args]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "t").exists() and not (tmp_path / "t.json").exists()


def test_a_real_subprocess_error_has_no_traceback(tmp_path):
    result = run_cli("export", "--training", str(tmp_path / "nope.json"), "--format", "hf",
                     "--out", str(tmp_path / "x.json"))
    assert result.returncode == 2
    assert result.stderr.startswith("error:") and "Traceback" not in result.stderr
