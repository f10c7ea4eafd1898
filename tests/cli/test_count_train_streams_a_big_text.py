"""``train`` reads one text or ``word<TAB>count`` file whole, as it always did, up to a
size; a bigger text file is streamed and counted in parts, to the same corpus, and a
bigger file that looks like counts is still read as counts."""

from __future__ import annotations

import argparse

from bpeviz import cli_count
from bpeviz.text.corpus import Corpus


def _args(fmt: str = "auto") -> argparse.Namespace:
    return argparse.Namespace(format=fmt, quiet=True, workers=1, text_field="text",
                              dask=None)


def test_a_big_text_file_streams_to_the_corpus_of_reading_it_whole(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    path.write_bytes(("\ufeffIt's the lowest, newest\r\n  café 日本 42\n" * 50).encode())
    whole = Corpus.from_file(path, "gpt2")
    monkeypatch.setattr(cli_count, "WHOLE_FILE", 100)
    streamed = cli_count.corpus_from_data([str(path)], _args(), "gpt2")
    assert streamed == whole


def test_a_big_counts_file_is_still_read_as_counts(tmp_path, monkeypatch):
    path = tmp_path / "big.txt"
    path.write_text("".join(f"w{i}\t{i + 1}\n" for i in range(200)))
    monkeypatch.setattr(cli_count, "WHOLE_FILE", 100)
    corpus = cli_count.corpus_from_data([str(path)], _args(), "gpt2")
    assert corpus.pretokenizer == "counts" and corpus.counts[:2] == (1, 2)
