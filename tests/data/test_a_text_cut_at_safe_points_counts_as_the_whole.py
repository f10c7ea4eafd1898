"""A text file counted in byte ranges and in small streamed blocks gives the pre-tokens,
counts and first-appearance order of ``Corpus.from_text`` on the whole text, for every
pre-tokenizer, wherever the ranges are asked to end (multi-byte characters, CRLF line
ends, runs of whitespace and punctuation included)."""

from __future__ import annotations

import os
import tempfile

from hypothesis import given, settings
from hypothesis import strategies as st

from bpeviz.data import sources
from bpeviz.data.sources import expand
from bpeviz.data.tasks import add_counts, count_task, plan
from bpeviz.text.corpus import Corpus
from bpeviz.text.pretokenize import PRETOKENIZERS

ALPHABET = ["a", "b", "Z", "7", " ", "  ", "\n", "\r\n", "\t", "é", "日本", "'s", ".",
            "!\n", "\u00a0", "\u2028", "\u0085", "\ufeff", "😀"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=60).map("".join)


def _whole(text: str, pretokenizer: str) -> list[tuple[str, int]]:
    corpus = Corpus.from_text(text, pretokenizer)
    return list(zip(corpus.words, corpus.counts))


def _in_parts(path: str, pretokenizer: str, task_bytes: int) -> list[tuple[str, int]]:
    total: dict[str, int] = {}
    for task in plan(expand([path]), pretokenizer, task_bytes=task_bytes):
        add_counts(total, count_task(task, pretokenizer))
    return list(total.items())


@settings(max_examples=150, deadline=None)
@given(text=texts, pretokenizer=st.sampled_from(sorted(PRETOKENIZERS)),
       task_bytes=st.integers(1, 40), block=st.integers(1, 16))
def test_byte_ranges_and_blocks_count_as_the_whole_text(text, pretokenizer, task_bytes,
                                                        block):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "t.txt")
        with open(path, "wb") as f:
            f.write(text.encode("utf-8"))
        old, sources.BLOCK = sources.BLOCK, block
        try:
            counted = _in_parts(path, pretokenizer, task_bytes)
        finally:
            sources.BLOCK = old
    # Corpus.from_file drops a byte-order mark at the very start only
    assert counted == _whole(text.removeprefix("\ufeff"), pretokenizer)


def test_a_long_file_is_cut_into_ranges_at_line_ends(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("the quick brown fox\n" * 1000)
    tasks = plan(expand([str(path)]), "gpt2", task_bytes=1000)
    parts = [part for task in tasks for part in task]
    assert len(parts) > 10
    data = path.read_bytes()
    assert all(data[p.start:p.start + 1] == b"\n" for p in parts[1:])  # before a line break
    assert _in_parts(str(path), "gpt2", 1000) == _whole(path.read_text(), "gpt2")
