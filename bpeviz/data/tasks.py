"""The parts a corpus is counted in, and counting one task of them.

The sources are cut into parts (:func:`plan`): a big plain text or JSON Lines file into
byte ranges that start and end at safe cuts (:mod:`bpeviz.data.cuts`), a Parquet file
into groups of row groups, a compressed file whole; small files go together into one
task. A task is counted with the pre-tokenizer ``Corpus`` uses
(:func:`bpeviz.text.pretokenize.counts`): by a process pool
(:mod:`bpeviz.data.count`) or by Dask workers (:mod:`bpeviz.data.dask_count`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from bpeviz.data.cuts import next_cut
from bpeviz.data.sources import (
    Source,
    jsonl_texts,
    parquet_texts,
    text_pieces,
)
from bpeviz.text.pretokenize import counts as pretokenize_counts

#: a task reads about this many bytes at most (a file is cut into ranges of this size)
TASK_BYTES = 32 << 20
#: ... and at least this many, so small files travel together
MIN_TASK_BYTES = 1 << 20
#: how far past a range's nominal end a cut is looked for, per read
_WINDOW = 1 << 20


@dataclass(frozen=True)
class Part:
    """A part of a source: bytes ``start:end`` (end None: to the end), or the row groups
    ``row_groups`` of a Parquet file; ``size`` its bytes on disk (for the progress)."""

    source: Source
    start: int = 0
    end: int | None = None
    row_groups: tuple[int, ...] | None = None
    size: int = 0


def _boundary(source: Source, at: int, pretokenizer: str) -> int:
    """The first safe cut at or after byte ``at`` of an uncompressed source (its size if
    there is none): read a window at a time, keeping only the window's last two bytes."""
    base = max(at - 1, 0)
    with open(source.path, "rb") as f:
        f.seek(base)
        buf = b""
        while True:
            block = f.read(_WINDOW)
            if not block:
                return source.size
            buf += block
            cut = next_cut(buf, at - base, pretokenizer)
            if cut is not None:
                return base + cut
            base, buf = base + len(buf) - 2, buf[-2:]


def _ranges(source: Source, pretokenizer: str, task_bytes: int) -> list[Part]:
    rule = "none" if source.kind == "jsonl" else pretokenizer  # JSON Lines: at line ends
    if not next_cut(b"a\n", 0, rule):  # a pre-tokenizer never cut: the file whole
        return [Part(source, size=source.size)]
    cuts = [0]
    while cuts[-1] + task_bytes < source.size:
        cut = _boundary(source, cuts[-1] + task_bytes, rule)
        if cut >= source.size:
            break
        cuts.append(cut)
    cuts.append(source.size)
    return [Part(source, a, b, size=b - a) for a, b in pairwise(cuts) if b > a]


def _row_groups(source: Source, task_bytes: int) -> list[Part]:
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(source.path).metadata
    sizes = [meta.row_group(i).total_byte_size for i in range(meta.num_row_groups)]
    total = sum(sizes) or 1
    parts, group, bytes_ = [], [], 0
    for i, size in enumerate(sizes):
        group.append(i)
        bytes_ += size
        if bytes_ * source.size / total >= task_bytes:
            parts.append(Part(source, row_groups=tuple(group),
                              size=int(bytes_ * source.size / total)))
            group, bytes_ = [], 0
    if group or not parts:
        parts.append(Part(source, row_groups=tuple(group),
                          size=source.size - sum(p.size for p in parts)))
    return parts


def plan(sources: Sequence[Source], pretokenizer: str, workers: int = 1,
         task_bytes: int | None = None) -> list[list[Part]]:
    """The tasks: lists of parts, in reading order, each about ``task_bytes`` (default:
    enough tasks to keep ``workers`` busy, between 1 and 32 MB)."""
    if task_bytes is None:
        total = sum(s.size for s in sources)
        task_bytes = min(TASK_BYTES, max(MIN_TASK_BYTES, total // max(4 * workers, 1)))
    parts: list[Part] = []
    for source in sources:
        if source.kind == "parquet":
            parts.extend(_row_groups(source, task_bytes))
        elif source.compression or source.size <= task_bytes:
            parts.append(Part(source, size=source.size))
        else:
            parts.extend(_ranges(source, pretokenizer, task_bytes))
    tasks: list[list[Part]] = []
    for part in parts:  # small neighbours together
        if tasks and sum(p.size for p in tasks[-1]) + part.size <= task_bytes:
            tasks[-1].append(part)
        else:
            tasks.append([part])
    return tasks


def part_texts(part: Part, pretokenizer: str, field: str) -> Iterable[str]:
    """The texts of a part, each safe to pre-tokenize on its own."""
    source = part.source
    if source.kind == "text":
        return text_pieces(source, pretokenizer, part.start, part.end)
    if source.kind == "jsonl":
        return jsonl_texts(source, field, part.start, part.end)
    return parquet_texts(source, field, part.row_groups)


def count_task(task: Sequence[Part], pretokenizer: str, field: str = "text"
               ) -> dict[str, int]:
    """The pre-token counts of one task's parts (words in order of first appearance)."""
    counts: Counter[str] = Counter()
    for part in task:
        for text in part_texts(part, pretokenizer, field):
            counts.update(pretokenize_counts(text, pretokenizer))
    return dict(counts)


def add_counts(total: dict[str, int], more: dict[str, int]) -> dict[str, int]:
    """``total`` with ``more`` added in (its new words after ``total``'s)."""
    get = total.get
    for word, count in more.items():
        total[word] = get(word, 0) + count
    return total


def merge_counts(first: dict[str, int], second: dict[str, int]) -> dict[str, int]:
    """Two tables added up, ``first``'s words first (a step of a tree reduction)."""
    return add_counts(first, second)
