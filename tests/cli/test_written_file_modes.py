"""Files bpeviz writes get the mode an ordinary write would give them: a new file the
user's umask (0644 under umask 022), an overwritten file keeps its mode. Every file the
CLI writes (a training, single-file and folder exports, slides) goes through one atomic
writer (:func:`bpeviz.core.files.write_atomic`)."""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from bpeviz.core.files import write_atomic
from tests.support import ROOT

SAMPLE = ROOT / "bpeviz" / "samples" / "low_lower_newest_widest.txt"


@contextlib.contextmanager
def umask(mask: int):
    old = os.umask(mask)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("mask", [0o022, 0o077, 0o002], ids=oct)
def test_a_new_file_gets_the_users_umask(tmp_path, mask):
    with umask(mask):
        write_atomic(tmp_path / "new.json", "{}")
    assert mode(tmp_path / "new.json") == 0o666 & ~mask


@pytest.mark.parametrize("old", [0o644, 0o640, 0o600, 0o664], ids=oct)
def test_an_overwritten_file_keeps_its_mode(tmp_path, old):
    target = tmp_path / "kept.json"
    target.write_text("old")
    target.chmod(old)
    with umask(0o077):
        write_atomic(target, "new")
    assert target.read_text() == "new" and mode(target) == old


def cli(*args: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", "import os, sys, runpy; os.umask(0o022); "
         "sys.argv = ['bpeviz', *sys.argv[1:]]; runpy.run_module('bpeviz', run_name='__main__')",
         *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr


def test_every_file_the_cli_writes_has_mode_0644_under_umask_022(tmp_path):
    bpe, bbpe = tmp_path / "bpe.json", tmp_path / "bbpe.json"
    cli("train", str(SAMPLE), "--merges", "5", "--out", str(bpe), "--quiet")
    cli("train", str(SAMPLE), "--algorithm", "bbpe", "--merges", "5", "--out", str(bbpe),
        "--quiet")
    cli("export", "--training", str(bpe), "--format", "hf", "--out",
        str(tmp_path / "tokenizer.json"))
    cli("export", "--training", str(bbpe), "--format", "tiktoken", "--out",
        str(tmp_path / "tik"))
    cli("export", "--training", str(bpe), "--format", "gpt2", "--out", str(tmp_path / "gpt2"))
    cli("slides", "--training", str(bpe), "--out", str(tmp_path / "slides.html"))
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert {p.relative_to(tmp_path).as_posix() for p in written} >= {
        "bpe.json", "bbpe.json", "tokenizer.json", "tik/tiktoken.json", "gpt2/vocab.json",
        "gpt2/merges.txt", "slides.html"}
    assert {p.name: oct(mode(p)) for p in written} == {p.name: oct(0o644) for p in written}


def test_the_cli_keeps_the_mode_of_a_file_it_overwrites(tmp_path):
    out = tmp_path / "t.json"
    out.write_text("{}")
    out.chmod(0o640)
    cli("train", str(SAMPLE), "--merges", "3", "--out", str(out), "--quiet")
    assert mode(out) == 0o640 and out.stat().st_size > 2


def test_without_proc_the_umask_is_read_and_restored(tmp_path, monkeypatch):
    from bpeviz.core import serialize

    def no_proc(*args, **kwargs):
        raise OSError("no /proc here")

    monkeypatch.setattr(serialize, "open", no_proc, raising=False)
    with umask(0o027):
        write_atomic(tmp_path / "new.txt", "x")
        assert os.umask(0o027) == 0o027  # (still the caller's)
    assert mode(tmp_path / "new.txt") == 0o640


def test_only_the_atomic_writer_writes_files():
    """The package writes files in one place, so every file gets the same modes."""
    for path in (ROOT / "bpeviz").rglob("*.py"):
        if path.name == "files.py" or "ui" in path.relative_to(ROOT / "bpeviz").parts:
            continue
        text = path.read_text(encoding="utf-8")
        for call in ("mkstemp", "os.replace(", ".write_text(", ".write_bytes(", '"w")',
                     '"wb")', "'w')"):
            assert call not in text, (path.name, call)
