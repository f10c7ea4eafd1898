"""A file that cannot be written is named as the user gave it (never the hidden
temporary file bpeviz writes first), with the reason, in one line; no temporary file is
left behind."""

from __future__ import annotations

import pytest

from bpeviz import Corpus, save, train
from tests.support.cli import run_cli


@pytest.mark.parametrize("out, why", [
    ("missing/dir/t.json", "the folder {tmp}/missing/dir does not exist"),
    ("a-folder", "it is a folder"),
    ("a-file/t.json", "{tmp}/a-file is a file, not a folder"),
])
def test_an_unwritable_out_names_the_target(tmp_path, out, why):
    (tmp_path / "a-folder").mkdir()
    (tmp_path / "a-file").write_text("x")
    corpus = tmp_path / "c.txt"
    corpus.write_text("low lower lowest", encoding="utf-8")
    target = tmp_path / out
    saved = tmp_path / "saved.json"
    save(train(Corpus.from_text("low lower"), "bpe", merges=2), str(saved))
    runs = [["train", str(corpus), "--merges", "2", "--quiet", "--out", str(target)]]
    if out != "a-folder":  # (an export into an existing folder writes its files there)
        runs.append(["export", "--training", str(saved), "--format", "training",
                     "--out", str(target)])
    for args in runs:
        result = run_cli(*args)
        assert result.returncode == 2
        assert result.stderr == f"error: cannot write {target}: {why.format(tmp=tmp_path)}\n"
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no temporary file left behind


def test_a_permission_error_names_the_target_and_keeps_its_class(tmp_path, monkeypatch):
    from bpeviz.core import files

    def refuse(prefix, dir):  # as an unwritable folder does (root is never refused)
        raise PermissionError(13, "Permission denied", f"{dir}/{prefix}abc123")

    monkeypatch.setattr(files.tempfile, "mkstemp", refuse)
    with pytest.raises(PermissionError) as err:
        files.write_atomic(tmp_path / "t.json", "{}")
    assert str(err.value).startswith(f"cannot write {tmp_path / 't.json'}: Permission denied")
    assert "abc123" not in str(err.value)
