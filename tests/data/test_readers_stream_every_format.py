"""Every format the DATA arguments take is read, streamed, into the texts it holds:
plain, gzip and zstd text, JSON Lines (plain, gzip, zstd) with a chosen field, Parquet
with a chosen column; folders recursively, globs; bad input is one clear ValueError."""

from __future__ import annotations

import gzip
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard

from bpeviz.data.count import count_pretokens
from bpeviz.data.sources import expand, texts
from bpeviz.text.corpus import Corpus

TEXT = "low lower\r\nnewest café 日本\n  widest\n"


def _write(path, data: bytes) -> str:
    if path.name.endswith(".gz"):
        data = gzip.compress(data)
    elif path.name.endswith(".zst"):
        data = zstandard.ZstdCompressor().compress(data)
    path.write_bytes(data)
    return str(path)


def _corpus_counts(*texts_: str, pretokenizer: str = "gpt2") -> dict[str, int]:
    total: dict[str, int] = {}
    for text in texts_:
        corpus = Corpus.from_text(text, pretokenizer)
        for word, count in zip(corpus.words, corpus.counts):
            total[word] = total.get(word, 0) + count
    return total


@pytest.mark.parametrize("name", ["a.txt", "a.txt.gz", "a.txt.zst"])
def test_text_files_plain_or_compressed_read_as_the_text(tmp_path, name):
    path = _write(tmp_path / name, TEXT.encode())
    assert "".join(texts(expand([path])[0], "gpt2")) == TEXT
    assert count_pretokens([path], "gpt2", workers=1) == _corpus_counts(TEXT)


@pytest.mark.parametrize("name", ["r.jsonl", "r.jsonl.gz", "r.jsonl.zst"])
def test_json_lines_give_each_records_field(tmp_path, name):
    records = [{"text": "hello world", "id": 1}, {"body": "x", "text": "hello there"},
               {"text": None}]
    data = "\n".join(json.dumps(r) for r in records) + "\n\n"
    path = _write(tmp_path / name, data.encode())
    assert list(texts(expand([path])[0], "gpt2")) == ["hello world", "hello there"]
    assert count_pretokens([path], "gpt2", workers=1) == _corpus_counts(
        "hello world", "hello there")
    other = _write(tmp_path / ("o" + name), b'{"body": "a b a"}\n')
    assert count_pretokens([other], "whitespace", text_field="body", workers=1) == {
        "a": 2, "b": 1}


def test_parquet_is_read_by_row_groups(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"id": [1, 2, 3], "content": ["hi you", None, "you hi"]}),
                   path, row_group_size=1)
    assert list(texts(expand([str(path)])[0], field="content")) == ["hi you", "you hi"]
    assert count_pretokens([str(path)], "gpt2", text_field="content", workers=1) == \
        _corpus_counts("hi you", "you hi")


def test_folders_recursively_and_globs_in_sorted_order(tmp_path):
    (tmp_path / "sub").mkdir()
    _write(tmp_path / "b.txt", b"second\n")
    _write(tmp_path / "sub" / "c.txt.gz", b"third\n")
    _write(tmp_path / "a.txt", b"first\n")
    (tmp_path / "notes.md").write_text("skipped in a folder")
    (tmp_path / ".hidden.txt").write_text("skipped too")
    names = [s.path.removeprefix(str(tmp_path)) for s in expand([str(tmp_path)])]
    assert names == ["/a.txt", "/b.txt", "/sub/c.txt.gz"]
    assert [s.path for s in expand([str(tmp_path / "**" / "*.gz")])] == [
        str(tmp_path / "sub" / "c.txt.gz")]
    assert len(expand([str(tmp_path / "a.txt"), str(tmp_path)])) == 3  # once each


@pytest.mark.parametrize(("make", "message"), [
    (lambda p: str(p / "missing.txt"), "no such file or folder"),
    (lambda p: _write(p / "notes.md", b"x"), "unknown format"),
    (lambda p: str(p / "*.nothing"), "matches no"),
])
def test_bad_paths_are_one_clear_error(tmp_path, make, message):
    with pytest.raises(ValueError, match=message) as err:
        expand([make(tmp_path)])
    assert "\n" not in str(err.value)


def test_a_missing_field_or_column_names_what_there_is(tmp_path):
    path = _write(tmp_path / "r.jsonl", b'{"body": "x"}\n')
    with pytest.raises(ValueError, match=r"no field 'text' .*its fields: body"):
        count_pretokens([path], workers=1)
    table = tmp_path / "t.parquet"
    pq.write_table(pa.table({"content": ["x"]}), table)
    with pytest.raises(ValueError, match=r"no column 'text' .*its columns: content"):
        count_pretokens([str(table)], workers=1)
    bad = _write(tmp_path / "bad.txt", b"caf\xe9 au lait\n")
    with pytest.raises(ValueError, match=r"bad.txt is not UTF-8 text: byte 3"):
        count_pretokens([bad], workers=1)


def test_a_byte_order_mark_opening_a_file_is_dropped(tmp_path):
    jsonl = _write(tmp_path / "r.jsonl", b'\xef\xbb\xbf{"text": "hug"}\n')
    text = _write(tmp_path / "t.txt.gz", b"\xef\xbb\xbfhug\n")
    assert count_pretokens([jsonl, text], "whitespace", workers=1) == {"hug": 2}
