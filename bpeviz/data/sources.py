"""DATA arguments (files, folders read recursively, globs) as the sources they name, and
each source's texts, streamed: never a whole file in memory.

Formats, by how the file name ends: ``.txt``, ``.txt.gz``, ``.txt.zst`` (UTF-8 text);
``.jsonl``, ``.jsonl.gz``, ``.jsonl.zst`` (one JSON object a line, its text in a field);
``.parquet`` (a text column, read batch by batch). A folder gives its files of these
formats, in sorted path order (hidden ones left out); a named file of another format, a
missing path, or a glob that matches none of them is a ValueError saying so.
"""

from __future__ import annotations

import glob
import gzip
import io
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from bpeviz.data.cuts import last_cut

#: file name endings -> (what is in the file, how it is compressed)
FORMATS: dict[str, tuple[str, str]] = {
    ".txt": ("text", ""), ".txt.gz": ("text", "gz"), ".txt.zst": ("text", "zst"),
    ".jsonl": ("jsonl", ""), ".jsonl.gz": ("jsonl", "gz"), ".jsonl.zst": ("jsonl", "zst"),
    ".parquet": ("parquet", ""),
}
#: bytes read at a time from a stream
BLOCK = 4 << 20
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
class Source:
    """One file to read: its path, what it holds (text, jsonl, parquet), its compression
    ("", "gz", "zst") and its size on disk."""

    path: str
    kind: str
    compression: str
    size: int


def format_of(path: str) -> tuple[str, str] | None:
    """``(kind, compression)`` for a file name of a known format, else None."""
    name = path.lower()
    for ending in sorted(FORMATS, key=len, reverse=True):
        if name.endswith(ending):
            return FORMATS[ending]
    return None


def _known() -> str:
    return ", ".join(FORMATS)


def _source(path: str) -> Source:
    found = format_of(path)
    if found is None:
        raise ValueError(f"{path}: unknown format; bpeviz reads {_known()} files")
    return Source(path, *found, os.path.getsize(path))


def _folder(path: str) -> list[Source]:
    found = []
    for root, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found.extend(os.path.join(root, f) for f in files
                     if not f.startswith(".") and format_of(f) is not None)
    return [_source(p) for p in sorted(found)]


def expand(data: Sequence[str]) -> list[Source]:
    """The sources the DATA arguments name, in order (a file named twice is read once).

    A ValueError for a missing path, a named file of an unknown format, or a folder or
    glob in which no file has a known format."""
    if isinstance(data, str | os.PathLike):
        data = [data]
    sources: dict[str, Source] = {}
    for arg in map(str, data):
        if os.path.isdir(arg):
            found = _folder(arg)
            if not found:
                raise ValueError(f"{arg}: no {_known()} files in this folder")
        elif os.path.isfile(arg):
            found = [_source(arg)]
        elif glob.has_magic(arg):
            matched = sorted(glob.glob(arg, recursive=True))
            found = [s for m in matched
                     for s in (_folder(m) if os.path.isdir(m) else
                               [_source(m)] if format_of(m) is not None else [])]
            if not found:
                raise ValueError(f"{arg}: matches no {_known()} file")
        else:
            raise ValueError(f"{arg}: no such file or folder")
        for source in found:
            sources.setdefault(os.path.realpath(source.path), source)
    return list(sources.values())


def open_bytes(source: Source) -> BinaryIO:
    """The file's bytes, decompressed as they are read."""
    if source.compression == "gz":
        return gzip.open(source.path, "rb")  # type: ignore[return-value]
    if source.compression == "zst":
        import zstandard

        raw = open(source.path, "rb")  # noqa: SIM115 (closed with the reader)
        return zstandard.ZstdDecompressor().stream_reader(raw, closefd=True,  # every frame
                                                         read_across_frames=True)  # type: ignore[return-value]
    return open(source.path, "rb")


def _decode(data: bytes, source: Source, offset: int) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        where = offset + err.start
        raise ValueError(f"{source.path} is not UTF-8 text: byte {where:,} "
                         f"({data[err.start:err.start + 4].hex(' ')}) cannot be decoded"
                         + (" (decompressed)" if source.compression else "")) from None


def _blocks(stream: BinaryIO, start: int, end: int | None) -> Iterator[bytes]:
    """The bytes of ``stream`` from ``start`` (where it already stands) to ``end``."""
    left = None if end is None else end - start
    while left is None or left > 0:
        block = stream.read(BLOCK if left is None else min(BLOCK, left))
        if not block:
            return
        if left is not None:
            left -= len(block)
        yield block


def _reading(source: Source, start: int, end: int | None) -> Iterator[bytes]:
    with open_bytes(source) as stream:
        if start:
            stream.seek(start)
        yield from _blocks(stream, start, end)


def text_pieces(source: Source, pretokenizer: str, start: int = 0,
                end: int | None = None) -> Iterator[str]:
    """The text of a ``text`` source (or of its bytes ``start:end``, which begin and end
    at safe cuts), as pieces cut where the pre-tokens do not change (see
    :mod:`bpeviz.data.cuts`). A leading byte-order mark is dropped, as
    ``Corpus.from_file`` drops it."""
    carry, offset = b"", start
    for block in _reading(source, start, end):
        buf = carry + block
        if offset == 0 and buf.startswith(_BOM):
            buf, offset = buf[len(_BOM):], len(_BOM)
        elif offset == 0 and len(buf) < len(_BOM) and _BOM.startswith(buf):
            carry = buf
            continue
        cut = last_cut(buf, pretokenizer)
        if cut:
            yield _decode(buf[:cut], source, offset)
            offset += cut
        carry = buf[cut:]
    if carry:
        yield _decode(carry, source, offset)


def _record_text(line: bytes, source: Source, offset: int, field: str) -> str | None:
    try:
        record = json.loads(line)
    except ValueError as err:
        raise ValueError(f"{source.path}: the line at byte {offset:,} is not JSON "
                         f"({str(err).split(':')[0]})") from None
    if not isinstance(record, dict):
        raise ValueError(f"{source.path}: the line at byte {offset:,} is not a JSON object")
    if field not in record:
        fields = ", ".join(list(record)[:8]) or "none"
        raise ValueError(f"{source.path}: the record at byte {offset:,} has no field "
                         f"{field!r} (its fields: {fields}; --text-field names the field)")
    text = record[field]
    if text is None:
        return None
    if not isinstance(text, str):
        raise ValueError(f"{source.path}: the record at byte {offset:,} has a "
                         f"{type(text).__name__} in {field!r}, not a text")
    return text


def jsonl_texts(source: Source, field: str, start: int = 0,
                end: int | None = None) -> Iterator[str]:
    """The text in ``field`` of each record of a JSON Lines source (of its bytes
    ``start:end``, which begin at a line's start); blank lines and null texts are
    skipped."""
    carry, offset = b"", start
    for block in _reading(source, start, end):
        buf = carry + block
        if offset == 0 and buf.startswith(_BOM):  # as a text file's, dropped
            buf, offset = buf[len(_BOM):], len(_BOM)
        cut = buf.rfind(b"\n") + 1
        for line in io.BytesIO(buf[:cut]):
            if line.strip():
                text = _record_text(line, source, offset, field)
                if text is not None:
                    yield text
            offset += len(line)
        carry = buf[cut:]
    if carry.strip():
        text = _record_text(carry, source, offset, field)
        if text is not None:
            yield text


def parquet_columns(path: str) -> list[str]:
    import pyarrow.parquet as pq

    return list(pq.ParquetFile(path).schema_arrow.names)


def parquet_texts(source: Source, field: str,
                  row_groups: Sequence[int] | None = None) -> Iterator[str]:
    """The texts of a Parquet source's column ``field``, batch by batch (of the row
    groups ``row_groups``, default all); nulls are skipped."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with pq.ParquetFile(source.path) as handle:
        schema = handle.schema_arrow
        if field not in schema.names:
            counts = " (a table of word counts: 'train' takes it alone)" if {
                "word", "count"} <= set(schema.names) else ""
            raise ValueError(f"{source.path}: no column {field!r} (its columns: "
                             f"{', '.join(schema.names[:8])}; --text-field names the "
                             f"column){counts}")
        kind = schema.field(field).type
        if not (pa.types.is_string(kind) or pa.types.is_large_string(kind)
                or pa.types.is_string_view(kind)):
            raise ValueError(f"{source.path}: the column {field!r} holds {kind}, not text")
        for batch in handle.iter_batches(batch_size=8192, columns=[field],
                                         row_groups=row_groups):
            for text in batch.column(0).to_pylist():
                if text is not None:
                    yield text


def texts(source: Source, pretokenizer: str = "gpt2", field: str = "text") -> Iterator[str]:
    """Every text of ``source``, streamed: a text file as pieces cut where
    ``pretokenizer``'s pre-tokens do not change, a record's or row's text whole."""
    if source.kind == "text":
        return text_pieces(source, pretokenizer)
    if source.kind == "jsonl":
        return jsonl_texts(source, field)
    return parquet_texts(source, field)


def is_counts_parquet(path: str | Path) -> bool:
    """A Parquet file of ``word`` and ``count`` columns (what ``count --out`` writes)."""
    names = set(parquet_columns(str(path)))
    return {"word", "count"} <= names
